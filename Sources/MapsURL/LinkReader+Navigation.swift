import GeoCore

/// Android's navigation intent, `google.navigation:q=…` (with `mode=` and `avoid=`), as apps
/// share it: a request to navigate to `q` from where the user is. `q` is a coordinate pair
/// (`,`, `+` or a space between the numbers) or a place's text; `mode` is one letter of
/// ``NavigationVocabulary/travelModes``; `avoid` letters of ``NavigationVocabulary/avoidances``.
extension LinkReader {
    mutating func readNavigationLink(_ range: Range<Int>) -> ParsedMapsURL {
        var query = range
        if let first = range.first, bytes[first] == UInt8(ascii: "?") { query = (first + 1)..<range.upperBound }
        var directions = Directions(navigate: true)
        for parameter in firstOfEachName(parameters(in: query)) {
            let where_ = parameter.location
            switch parameter.name {
            case "q", "ll":
                guard let text = decodedValue(parameter) else { break }
                directions.destination = navigationDestination(text, name: parameter.name, at: where_)
            case "mode":
                if let mode = travelModeValue(parameter, NavigationVocabulary.travelModes) {
                    directions.travelMode = mode
                }
            case "avoid":
                guard let text = decodedValue(parameter) else { break }
                for letter in text.lowercased().map(String.init) {
                    if let avoidance = NavigationVocabulary.avoidances.value(for: letter) {
                        directions.avoid.insert(avoidance)
                    } else {
                        report(
                            .unknownAvoid, .warning,
                            "'avoid' letter '\(letter)' is not one of \(NavigationVocabulary.avoidances.words); it is ignored",
                            at: where_)
                    }
                }
            default:
                unknownParameter(parameter)
            }
        }
        guard directions.destination != nil else {
            report(.missingQuery, .error, "a navigation link needs 'q', the place to navigate to", at: range)
            return finish(form: .googleNavigation, rejected: true)
        }
        request.directions = directions
        return finish(form: .googleNavigation)
    }

    /// The destination of `q`: `LAT,LNG`, `LAT LNG` (a raw `+` decodes to the space), `LAT+LNG`
    /// (an encoded `%2B` between the numbers) or a place.
    private mutating func navigationDestination(_ text: String, name: String, at range: Range<Int>) -> Waypoint? {
        if !text.contains(","), let coordinate = Self.separatedPair(text) {
            return .coordinate(coordinate)
        }
        return waypoint(text, name: name, at: range, blankIsCurrentLocation: false)
    }

    /// Two numbers separated by spaces or by a `+` that follows a digit (`50.1+-120.1`,
    /// `50.1 -120.1`); nil when the text is anything else or out of range.
    static func separatedPair(_ text: String) -> Coordinate? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        if words.count == 2 {
            return valid(Coordinate.parsePair(Substring("\(words[0]),\(words[1])")))
        }
        guard words.count == 1 else { return nil }
        let word = words[0]
        var index = word.startIndex
        while let plus = word[index...].firstIndex(of: "+") {
            if plus > word.startIndex, word[word.index(before: plus)].isASCII,
                word[word.index(before: plus)].isNumber,
                let coordinate = valid(
                    Coordinate.parsePair(Substring("\(word[..<plus]),\(word[word.index(after: plus)...])")))
            {
                return coordinate
            }
            index = word.index(after: plus)
        }
        return nil
    }

    private static func valid(_ coordinate: Coordinate?) -> Coordinate? {
        guard let coordinate, coordinate.isValid else { return nil }
        return coordinate
    }
}
