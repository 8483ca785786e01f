import GeoCore

/// Apple Maps links (`https://maps.apple.com/?…`, `maps://?…`), so that links meant for
/// Apple Maps can be answered too. Parameters of Apple's Map Links reference: `q`, `address`,
/// `near`, `ll`, `z`, `spn`, `sll`, `sspn`, `t`, `saddr`, `daddr`, `dirflg`, and the newer
/// `coordinate` and `name`.
extension LinkReader {
    mutating func readAppleSchemeLink(_ range: Range<Int>) -> ParsedMapsURL {
        var index = range.lowerBound
        if hasPrefix(index..<range.upperBound, "//") { index += 2 }
        let parts = splitWebParts(index..<range.upperBound)
        readAppleParameters(parts.query.map { parameters(in: $0) } ?? [])
        return finish(form: .appleMaps)
    }

    mutating func readAppleParameters(_ parameters: [Parameter]) {
        var directions = Directions()
        var hasDirections = false
        var nearCenter: Coordinate?
        var searchCenter: Coordinate?
        var searchSpan: CoordinateSpan?
        var address: String?
        for parameter in firstOfEachName(parameters) {
            let where_ = parameter.location
            switch parameter.name {
            case "q", "name":
                if let text = decodedValue(parameter) { applySearch(text, name: parameter.name, at: where_) }
            case "address":
                address = decodedValue(parameter)
            case "ll":
                if let center = coordinateValue(parameter) { request.center = center }
            case "coordinate":
                if let marker = coordinateValue(parameter) { request.marker = marker }
            case "near":
                nearCenter = coordinateValue(parameter)
            case "sll":
                searchCenter = coordinateValue(parameter)
            case "z":
                request.zoom = numberValue(parameter, limits: AppleVocabulary.zoomLimits)
            case "spn":
                if let span = spanValue(parameter) { request.span = span }
            case "sspn":
                searchSpan = spanValue(parameter)
            case "t":
                applyMapType(parameter, AppleVocabulary.mapTypes)
            case "saddr", "daddr":
                if readDirectionsEnd(parameter, into: &directions) { hasDirections = true }
            case "dirflg":
                guard let text = decodedValue(parameter) else { break }
                if let mode = AppleVocabulary.travelModes.value(for: text) {
                    directions.travelMode = mode
                } else {
                    report(
                        .unknownDirflg, .warning,
                        "'dirflg' must be \(AppleVocabulary.travelModes.words); '\(text)' is ignored", at: where_)
                }
                hasDirections = true
            default:
                unknownParameter(parameter)
            }
        }
        if let address = address?.trimmingWhitespace(), !address.isEmpty, request.query == nil {
            request.query = address
        }
        if request.center == nil { request.center = nearCenter ?? searchCenter }
        if request.span == nil { request.span = searchSpan }
        if hasDirections { request.directions = directions }
    }
}
