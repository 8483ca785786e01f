import GeoCore

/// RFC 5870 `geo:` URIs with the common extensions: `geo:lat,lng[,alt][;crs=wgs84][;u=…]`
/// followed by `?q=…` (a search, or `lat,lng(label)` for a pin) and `?z=…` (zoom 0...21).
/// `geo:0,0?q=…` means "no position, just search".
extension LinkReader {
    mutating func readGeoLink(_ range: Range<Int>) -> ParsedMapsURL {
        let queryStart = firstIndex(in: range, of: UInt8(ascii: "?"), UInt8(ascii: "&"))
        let pathRange = range.lowerBound..<queryStart
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
        if numbers.count == 2 || numbers.count == 3 {
            position = coordinate(
                from: pieces[0][numbers[0].startIndex..<numbers[1].endIndex], name: "geo:", at: pathRange)
            if numbers.count == 3, DecimalText.parse(numbers[2], maxIntegerDigits: 6) == nil {
                report(.badAltitude, .warning, "the geo: altitude is not a number; it is ignored", at: pathRange)
            }
        } else {
            report(.badCoordinate, .error, "a geo: URI starts with latitude,longitude", at: pathRange)
        }
        if queryStart < range.upperBound {
            if bytes[queryStart] == UInt8(ascii: "&") {
                report(
                    .geoAmpersand, .note, "'&' used where '?' starts the geo: query",
                    at: queryStart..<(queryStart + 1))
            }
            for parameter in firstOfEachName(parameters(in: (queryStart + 1)..<range.upperBound)) {
                let where_ = parameter.location
                switch parameter.name {
                case "q":
                    if let text = decodedValue(parameter) { applySearch(text, name: "q", at: where_) }
                case "z":
                    request.zoom = numberValue(parameter, limits: GeoVocabulary.zoomLimits)
                default:
                    unknownParameter(parameter)
                }
            }
        }
        let searchesOnly =
            position == Coordinate(latitude: 0, longitude: 0)
            && (request.query != nil || request.marker != nil)
        if let position, !searchesOnly { request.center = position }
        if position == nil && request.query == nil && request.marker == nil {
            return finish(form: .geo, rejected: true)
        }
        return finish(form: .geo)
    }
}
