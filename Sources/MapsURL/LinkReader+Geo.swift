import GeoCore

/// RFC 5870 `geo:` URIs with the extensions apps write: `geo:lat,lng[,alt][;crs=wgs84][;u=…]`
/// followed by `?q=…` (a search, or `lat,lng(label)` for a pin) and `?z=…` (zoom 0...21).
///
/// Read as apps write them in the wild: `geo:0,0?q=…` and `geo:?q=…` mean "no position, just
/// search"; a `(label)` after the position or the last parameter (`geo:lat,lng (Label)`,
/// `geo:0,0(Label)`, `?q=(Label)`) names the pin (or, at 0,0, is the search); `q=lat,lng,alt(Label)`
/// is a pin with its altitude left out; parameter names in any letter
/// case (`Z=`); `%2C` and spaces inside the position; a `z` that is not a number is ignored with
/// a warning, the position kept; a `q` of out-of-range numbers stays a search text.
extension LinkReader {
    mutating func readGeoLink(_ range: Range<Int>) -> ParsedMapsURL {
        var (body, label) = geoLabel(range)
        let queryStart = firstIndex(in: body, of: UInt8(ascii: "?"), UInt8(ascii: "&"))
        let pathRange = body.lowerBound..<queryStart
        guard let path = decodedText(pathRange, plusIsSpace: false, what: "the geo: position") else {
            return finish(form: .geo, rejected: true)
        }
        let pieces = path.split(separator: ";", omittingEmptySubsequences: false)
        for parameter in pieces.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.first?.lowercased() == "crs", pair.count == 2, pair[1].lowercased() != "wgs84" {
                report(
                    .unsupportedCrs, .error, "only the wgs84 coordinate reference system is supported",
                    at: pathRange)
                return finish(form: .geo, rejected: true)
            }
        }
        var position: Coordinate?
        let numbers = pieces[0].split(separator: ",", omittingEmptySubsequences: false)
        if pieces[0].trimmingCharacters(in: " ").isEmpty {
            // `geo:?q=…`: a search without a position.
        } else if numbers.count == 2 || numbers.count == 3 {
            position = coordinate(
                from: pieces[0][numbers[0].startIndex..<numbers[1].endIndex], name: "geo:", at: pathRange)
            if numbers.count == 3, DecimalText.parse(numbers[2], maxIntegerDigits: 6) == nil {
                report(.badAltitude, .warning, "the geo: altitude is not a number; it is ignored", at: pathRange)
            }
        } else {
            report(.badCoordinate, .error, "a geo: URI starts with latitude,longitude", at: pathRange)
        }
        if queryStart < body.upperBound {
            if bytes[queryStart] == UInt8(ascii: "&") {
                report(
                    .geoAmpersand, .note, "'&' used where '?' starts the geo: query",
                    at: queryStart..<(queryStart + 1))
            }
            for parameter in firstOfEachName(parameters(in: (queryStart + 1)..<body.upperBound)) {
                let where_ = parameter.location
                switch parameter.name.lowercased() {
                case "q":
                    guard let text = decodedValue(parameter) else { break }
                    if let name = Self.labelOnly(text) {
                        // `q=(Label)`: the label names the pin at the position.
                        label = name
                    } else {
                        applySearch(Self.withoutAltitude(text), name: "q", at: where_)
                    }
                case "z":
                    request.zoom = numberValue(parameter, limits: GeoVocabulary.zoomLimits, badSeverity: .warning)
                default:
                    unknownParameter(parameter)
                }
            }
        }
        let isNowhere = position == Coordinate(latitude: 0, longitude: 0)
        if let label, request.query == nil, request.marker == nil {
            // The label names the pin at the position, or is the search at "nowhere".
            request.query = label
            if let position, !isNowhere { request.marker = position }
        }
        let searchesOnly = isNowhere && (request.query != nil || request.marker != nil)
        if let position, !searchesOnly { request.center = position }
        if request.center == nil && request.query == nil && request.marker == nil {
            if position == nil && pieces[0].trimmingCharacters(in: " ").isEmpty {
                report(.badCoordinate, .error, "a geo: URI needs a position or a 'q' search", at: pathRange)
            }
            return finish(form: .geo, rejected: true)
        }
        return finish(form: .geo)
    }

    /// The label of a `q` that is only `(label)`, or nil.
    static func labelOnly(_ text: String) -> String? {
        guard text.utf8.last == UInt8(ascii: ")") || text.utf8.last == UInt8(ascii: " ") else { return nil }
        let trimmed = text.trimmingWhitespace()
        guard trimmed.count > 2, trimmed.first == "(", trimmed.last == ")" else { return nil }
        let inner = trimmed.dropFirst().dropLast()
        guard !inner.contains("("), !inner.contains(")") else { return nil }
        let name = String(inner).trimmingWhitespace()
        return name.isEmpty ? nil : name
    }

    /// `lat,lng,alt(label)` as Google writes a pin into `q`: the altitude left out; any other
    /// text as it is.
    static func withoutAltitude(_ text: String) -> String {
        var commas = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "(") { break }
            if byte == UInt8(ascii: ",") { commas += 1 }
        }
        guard commas == 2 else { return text }
        let head = text.prefix { $0 != "(" }
        let parts = head.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3, DecimalText.parse(parts[2].trimmingCharacters(in: " "), maxIntegerDigits: 6) != nil,
            case .coordinate = PlaceText.read(String(parts[0]) + "," + String(parts[1]))
        else { return text }
        return String(parts[0]) + "," + String(parts[1]) + text.dropFirst(head.count)
    }

    /// Splits a trailing `(label)` off a geo: URI, unless it belongs to `q` (whose value reads
    /// its own label): the range without it (and the spaces, `+` or `%20` before it) and the
    /// label, decoded.
    private mutating func geoLabel(_ range: Range<Int>) -> (body: Range<Int>, label: String?) {
        guard let last = range.last, bytes[last] == UInt8(ascii: ")") else { return (range, nil) }
        var open = last
        while open > range.lowerBound, bytes[open] != UInt8(ascii: "(") { open -= 1 }
        guard bytes[open] == UInt8(ascii: "(") else { return (range, nil) }
        // A `q=` after the last '?' or '&' before the label keeps it.
        var start = open
        while start > range.lowerBound, bytes[start - 1] != UInt8(ascii: "?"), bytes[start - 1] != UInt8(ascii: "&") {
            start -= 1
        }
        if start > range.lowerBound, hasPrefix(start..<open, "q=") || hasPrefix(start..<open, "Q=") {
            return (range, nil)
        }
        let label = decodedText((open + 1)..<last, plusIsSpace: true, what: "the geo: label")?.trimmingWhitespace()
        var end = open
        while end > range.lowerBound {
            if bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "+") {
                end -= 1
            } else if end - 3 >= range.lowerBound, hasPrefix((end - 3)..<end, "%20") {
                end -= 3
            } else {
                break
            }
        }
        return (range.lowerBound..<end, label?.isEmpty == false ? label : nil)
    }
}
