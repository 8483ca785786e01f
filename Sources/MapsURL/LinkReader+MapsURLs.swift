import GeoCore

/// Maps URLs (`api=1`): search, directions, map and panorama.
extension LinkReader {

    private enum APIAction { case search, directions, map, pano }

    mutating func readMapsURLsAPI(segments: [Range<Int>], parameters: [Parameter]) {
        var action: APIAction = .map
        switch segments.first.map(text) {
        case "search": action = .search
        case "dir": action = .directions
        default:
            if let mapAction = parameters.first(where: { $0.name == "map_action" }), let value = mapAction.value {
                switch text(value) {
                case "map": action = .map
                case "pano": action = .pano
                default:
                    report(
                        .unknownMapAction, .warning, "'map_action' must be map or pano; a map is shown", at: value)
                }
            }
        }
        var directions = Directions()
        var camera = StreetViewCamera()
        for parameter in firstOfEachName(parameters) {
            let where_ = parameter.location
            // Each action reads its own few names first; string cases are compared one by one.
            let handled: Bool
            switch action {
            case .search: handled = readAPISearchParameter(parameter, at: where_)
            case .directions: handled = readAPIDirectionsParameter(parameter, into: &directions, at: where_)
            case .map: handled = readAPIMapParameter(parameter, at: where_)
            case .pano: handled = readAPIPanoParameter(parameter, into: &camera)
            }
            if handled { continue }
            switch parameter.name {
            case "api":
                continue
            case "map_action" where action == .map || action == .pano:
                continue
            case "origin_place_id", "destination_place_id", "waypoint_place_ids":
                report(
                    .placeIdIgnored, .note,
                    "'\(parameter.name)' needs Google's place database; the text or coordinate is used",
                    at: parameter.nameRange)
            default:
                unknownParameter(parameter)
            }
        }
        switch action {
        case .directions:
            request.directions = directions
        case .pano:
            request.mapMode = .streetView
            request.streetView = camera.isEmpty ? nil : camera
        case .search:
            if request.query == nil && request.marker == nil && request.placeID == nil {
                report(.missingQuery, .warning, "a Maps URLs search needs 'query'", at: segments.first ?? 0..<0)
            }
        case .map:
            break
        }
    }

    /// `query`, `query_place_id`; false for other names.
    private mutating func readAPISearchParameter(_ parameter: Parameter, at where_: Range<Int>) -> Bool {
        switch parameter.name {
        case "query":
            if let text = decodedValue(parameter) { applySearch(text, name: "query", at: where_) }
        case "query_place_id":
            request.placeID = decodedValue(parameter).flatMap { $0.isEmpty ? nil : $0 }
        default:
            return false
        }
        return true
    }

    /// `origin`, `destination`, `waypoints`, `travelmode`, `dir_action`, `avoid`; false for other names.
    mutating func readAPIDirectionsParameter(
        _ parameter: Parameter, into directions: inout Directions, at where_: Range<Int>
    ) -> Bool {
        switch parameter.name {
        case "origin":
            if let text = decodedValue(parameter) {
                directions.origin = waypoint(text, name: "origin", at: where_, blankIsCurrentLocation: false)
            }
        case "destination":
            if let text = decodedValue(parameter) {
                directions.destination = waypoint(text, name: "destination", at: where_, blankIsCurrentLocation: false)
            }
        case "waypoints":
            guard let text = decodedValue(parameter) else { break }
            var stops = text.splitOnSubstring(MapsURLsVocabulary.waypointSeparator)
            if stops.count > Directions.maxWaypoints {
                report(
                    .tooManyWaypoints, .warning,
                    "Maps URLs allow \(Directions.maxWaypoints) waypoints; the rest are ignored", at: where_)
                stops = Array(stops.prefix(Directions.maxWaypoints))
            }
            directions.waypoints = stops.compactMap {
                waypoint($0, name: "waypoints", at: where_, blankIsCurrentLocation: false)
            }
        case "travelmode":
            if let mode = travelModeValue(parameter, MapsURLsVocabulary.travelModes) { directions.travelMode = mode }
        case "dir_action":
            if decodedValue(parameter) == "navigate" { directions.navigate = true }
        case "avoid":
            readAvoidList(parameter, into: &directions)
        default:
            return false
        }
        return true
    }

    /// `center`, `zoom`, `basemap`, `layer`; false for other names.
    mutating func readAPIMapParameter(_ parameter: Parameter, at where_: Range<Int>) -> Bool {
        switch parameter.name {
        case "center":
            if let center = coordinateValue(parameter) { request.center = center }
        case "zoom":
            request.zoom = numberValue(parameter, limits: DesktopVocabulary.zoomLimits)
        case "basemap":
            guard let text = decodedValue(parameter) else { break }
            if let basemap = MapsURLsVocabulary.basemaps.value(for: text) {
                request.views = (request.views ?? []).union(basemap.map { [$0] } ?? [])
            } else {
                report(
                    .unknownBasemap, .warning, "'basemap' must be \(MapsURLsVocabulary.basemaps.words)", at: where_)
            }
        case "layer":
            guard let text = decodedValue(parameter) else { break }
            if let layer = MapsURLsVocabulary.layers.value(for: text) {
                request.views = (request.views ?? []).union(layer.map { [$0] } ?? [])
            } else {
                report(.unknownLayer, .warning, "'layer' must be \(MapsURLsVocabulary.layers.words)", at: where_)
            }
        default:
            return false
        }
        return true
    }

    /// `viewpoint`, `pano`, `heading`, `pitch`, `fov`; false for other names.
    mutating func readAPIPanoParameter(_ parameter: Parameter, into camera: inout StreetViewCamera) -> Bool {
        switch parameter.name {
        case "viewpoint":
            if let center = coordinateValue(parameter) { request.center = center }
        case "pano":
            camera.panoramaID = decodedValue(parameter).flatMap { $0.isEmpty ? nil : $0 }
        case "heading":
            camera.heading = numberValue(parameter, limits: -180...360)
        case "pitch":
            camera.pitch = numberValue(parameter, limits: -90...90)
        case "fov":
            camera.fieldOfView = numberValue(parameter, limits: 10...100)
        default:
            return false
        }
        return true
    }

    /// `avoid`: names of ``RouteAvoidance`` separated by `,` (Maps URLs, Apple's unified Maps
    /// URLs) or `|` (the Embed API); unknown names are ignored with a warning.
    mutating func readAvoidList(_ parameter: Parameter, into directions: inout Directions) {
        guard let text = decodedValue(parameter) else { return }
        for item in text.split(whereSeparator: { $0 == "," || $0 == "|" }) {
            if let avoidance = MapsURLsVocabulary.avoidances.value(for: item.trimmingCharacters(in: " ").lowercased()) {
                directions.avoid.insert(avoidance)
            } else {
                report(
                    .unknownAvoid, .warning,
                    "'avoid' item '\(item)' is not one of \(MapsURLsVocabulary.avoidances.words); it is ignored",
                    at: parameter.location)
            }
        }
    }
}
