/// `comgooglemaps://?…` and `comgooglemaps-x-callback://?…`: the parameters of the iOS URL
/// scheme document (`center`, `mapmode`, `views`, `zoom`, `q`, `saddr`, `daddr`,
/// `directionsmode`) plus, on the x-callback form, `x-source`, `x-success`, `x-error`, `x-cancel`.
extension LinkReader {
    mutating func readSchemeLink(_ range: Range<Int>, form: LinkForm) -> ParsedMapsURL {
        var index = range.lowerBound
        if hasPrefix(index..<range.upperBound, "//") { index += 2 }
        let queryStart = firstIndex(in: index..<range.upperBound, of: UInt8(ascii: "?"), UInt8(ascii: "#"))
        if queryStart > index {
            let host = text(index..<queryStart)
            if host != "maps" && host != "/" {
                report(
                    .unexpectedPath, .warning, "'\(host)' before the parameters has no meaning; it is ignored",
                    at: index..<queryStart)
            }
        }
        var queryEnd = range.upperBound
        if queryStart < range.upperBound, bytes[queryStart] == UInt8(ascii: "?") {
            queryEnd = firstIndex(in: (queryStart + 1)..<range.upperBound, of: UInt8(ascii: "#"))
            readSchemeParameters(parameters(in: (queryStart + 1)..<queryEnd), form: form, schemeEnd: range.lowerBound)
        } else if form == .comgooglemapsXCallback {
            applyCallback(CallbackParts(), required: true, at: 0..<range.lowerBound)
        }
        if queryEnd < range.upperBound {
            report(
                .fragmentIgnored, .note, "the '#' fragment has no meaning here; it is ignored",
                at: queryEnd..<range.upperBound)
        }
        return finish(form: form)
    }

    private mutating func readSchemeParameters(_ parameters: [Parameter], form: LinkForm, schemeEnd: Int) {
        var callback = CallbackParts()
        var directions = Directions()
        var hasDirections = false
        for parameter in firstOfEachName(parameters) {
            let where_ = parameter.location
            switch parameter.name {
            case "center":
                request.center = coordinateValue(parameter)
            case "zoom":
                request.zoom = numberValue(parameter, limits: SchemeVocabulary.zoomLimits)
            case "mapmode":
                guard let text = decodedValue(parameter) else { break }
                if let mode = MapMode(rawValue: text.lowercased()) {
                    request.mapMode = mode
                } else {
                    report(
                        .unknownMapmode, .warning, "'mapmode' must be standard or streetview; '\(text)' is ignored",
                        at: where_)
                }
            case "views":
                request.views = viewsValue(parameter)
            case "q":
                if let text = decodedValue(parameter) { applySearch(text, name: "q", at: where_) }
            case "saddr", "daddr":
                if readDirectionsEnd(parameter, into: &directions) { hasDirections = true }
            case "directionsmode":
                guard let text = decodedValue(parameter) else { break }
                if let mode = TravelMode(rawValue: text.lowercased()), SchemeVocabulary.travelModes.contains(mode) {
                    directions.travelMode = mode
                    hasDirections = true
                } else {
                    report(
                        .unknownDirectionsmode, .warning,
                        "'directionsmode' must be driving, transit, bicycling or walking; '\(text)' is ignored",
                        at: where_)
                }
            case "x-source", "x-success", "x-error", "x-cancel":
                if form == .comgooglemapsXCallback {
                    _ = readCallbackParameter(parameter, into: &callback)
                } else {
                    report(
                        .callbackNeedsXCallback, .warning,
                        "'\(parameter.name)' only works with comgooglemaps-x-callback://; it is ignored",
                        at: parameter.whole)
                }
            default:
                unknownParameter(parameter)
            }
        }
        if hasDirections { request.directions = directions }
        if form == .comgooglemapsXCallback {
            applyCallback(callback, required: true, at: 0..<schemeEnd)
        }
    }
}
