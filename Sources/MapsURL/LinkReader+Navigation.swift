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
                guard let text = decodedValue(parameter) else { break }
                if let mode = NavigationVocabulary.travelModes.value(for: text.lowercased()) {
                    directions.travelMode = mode
                } else {
                    report(
                        .unknownTravelmode, .warning,
                        "'mode' must be one of \(NavigationVocabulary.travelModes.words); '\(text)' is ignored",
                        at: where_)
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

    /// The destination of `q`: `LAT,LNG`, `LAT LNG` (a `+` decodes to the space) or a place.
    private mutating func navigationDestination(_ text: String, name: String, at range: Range<Int>) -> Waypoint? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        if words.count == 2, !text.contains(","),
            let coordinate = Coordinate.parsePair(Substring("\(words[0]),\(words[1])")), coordinate.isValid
        {
            return .coordinate(coordinate)
        }
        return waypoint(text, name: name, at: range, blankIsCurrentLocation: false)
    }
}
