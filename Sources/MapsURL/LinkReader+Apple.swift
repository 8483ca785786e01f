import GeoCore

/// Apple Maps links (`https://maps.apple.com/?…`, `maps://?…`), so that links meant for
/// Apple Maps can be answered too. Parameters of Apple's Map Links reference: `q`, `address`,
/// `near`, `ll`, `z`, `spn`, `sll`, `sspn`, `t`, `saddr`, `daddr`, `dirflg`; and of the
/// unified Maps URLs (`/place`, `/search`, `/directions`, `/frame` paths): `coordinate`,
/// `name`, `query`, `center`, `span`, `distance`, `map`, `source`, `destination`, `waypoint`
/// (repeated, in order), `mode`, `avoid`. The place searched and titled is `address`, else
/// `name`, else `q` (an address finds the place best);
/// Apple's place ids (`place-id`, `auid`) are noted and not followed.
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
        // `ll` wins over the unified URLs' `center`, which wins over the search hints.
        var unifiedCenter: Coordinate?
        var searchCenter: Coordinate?
        var searchSpan: CoordinateSpan?
        var address: String?
        var name: String?
        var distance: Double?
        var avoidAt: Range<Int>?
        var others = parameters
        if parameters.contains(where: { $0.name == "waypoint" }) {
            readAppleWaypoints(parameters.filter { $0.name == "waypoint" }, into: &directions)
            hasDirections = true
            others.removeAll { $0.name == "waypoint" }
        }
        for parameter in firstOfEachName(others) {
            let where_ = parameter.location
            switch parameter.name {
            case "q", "query":
                if let text = decodedValue(parameter) { applySearch(text, name: parameter.name, at: where_) }
            case "name":
                name = decodedValue(parameter)
            case "address":
                address = decodedValue(parameter)
            case "ll":
                if let center = coordinateValue(parameter) { request.center = center }
            case "center":
                unifiedCenter = coordinateValue(parameter)
            case "coordinate":
                if let marker = coordinateValue(parameter) { request.marker = marker }
            case "near":
                nearCenter = coordinateValue(parameter)
            case "sll":
                searchCenter = coordinateValue(parameter)
            case "z":
                request.zoom = numberValue(parameter, limits: AppleVocabulary.zoomLimits)
            case "spn", "span":
                if let span = spanValue(parameter) { request.span = span }
            case "sspn":
                searchSpan = spanValue(parameter)
            case "distance":
                distance = numberValue(parameter, limits: AppleVocabulary.distanceLimits, maxIntegerDigits: 8)
            case "t":
                applyMapType(parameter, AppleVocabulary.mapTypes)
            case "map":
                applyMapType(parameter, AppleVocabulary.mapModes)
            case "avoid":
                readAvoidList(parameter, into: &directions)
                avoidAt = parameter.nameRange
            case "saddr", "daddr":
                if readDirectionsEnd(parameter, into: &directions) { hasDirections = true }
            case "source", "destination":
                guard let text = decodedValue(parameter) else { break }
                let end = waypoint(text, name: parameter.name, at: where_)
                if parameter.name == "source" { directions.origin = end } else { directions.destination = end }
                hasDirections = true
            case "mode":
                if let mode = travelModeValue(parameter, AppleVocabulary.modes) { directions.travelMode = mode }
                hasDirections = true
            case "place-id", "auid":
                report(
                    .placeIdIgnored, .note,
                    "'\(parameter.name)' needs Apple's place database; the other parameters are used",
                    at: parameter.nameRange)
            case "_provider", "lsp", "_ext":
                continue
            case "dirflg":
                if let mode = travelModeValue(
                    parameter, AppleVocabulary.travelModes, code: .unknownDirflg, caseSensitive: true)
                {
                    directions.travelMode = mode
                }
                hasDirections = true
            default:
                unknownParameter(parameter)
            }
        }
        // The place: the address, else the name, else q (a label beside them).
        if let title = [address, name].compactMap({ $0?.trimmingWhitespace() }).first(where: { !$0.isEmpty }) {
            request.query = title
        }
        if request.center == nil { request.center = unifiedCenter ?? nearCenter ?? searchCenter }
        if request.span == nil { request.span = searchSpan }
        if request.span == nil, request.zoom == nil, let distance, let center = request.center {
            request.span = CoordinateSpan(seenFrom: distance, at: center)
        }
        if hasDirections {
            request.directions = directions
        } else if let avoidAt {
            report(
                .needsDirections, .note,
                "'avoid' applies to directions, which this link does not ask for; it is ignored", at: avoidAt)
        }
    }

    /// `waypoint=` stops, in the order given, at most ``Directions/maxWaypoints``.
    private mutating func readAppleWaypoints(_ stops: [Parameter], into directions: inout Directions) {
        for (index, stop) in stops.enumerated() {
            guard index < Directions.maxWaypoints else {
                report(
                    .tooManyWaypoints, .warning,
                    "more than \(Directions.maxWaypoints) waypoints; this one and the rest are ignored",
                    at: stop.location)
                return
            }
            guard let text = decodedValue(stop),
                let point = waypoint(text, name: "waypoint", at: stop.location, blankIsCurrentLocation: false)
            else { continue }
            directions.waypoints.append(point)
        }
    }
}
