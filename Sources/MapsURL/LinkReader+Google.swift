import GeoCore

/// Google Maps web URLs: desktop paths (`/@…`, `/place/…`, `/search/…`, `/dir/…`, `data=`
/// blobs), the legacy parameters (`q`, `ll`, `sll`, `spn`, `sspn`, `z`, `t`, `f`, `saddr`,
/// `daddr`, `dirflg`, `nav`, `layer`) and Maps URLs with `api=1`.
extension LinkReader {
    /// Zoom range of Google Maps web URLs (Maps URLs: whole numbers 0...21).
    static let webZoomLimits = 0.0...21.0
    /// Google's legacy `t`: map, satellite, hybrid (satellite with labels), terrain.
    static let googleMapTypes: [String: MapsView?] = ["m": nil, "k": .satellite, "h": .satellite, "p": .terrain]

    /// Reads a Google Maps URL whose path no longer has the leading `/maps`.
    mutating func readGoogleMaps(path: Range<Int>, parameters: [Parameter]) {
        let isAPI = parameters.contains { $0.name == "api" && $0.value.map(text) == "1" }
        let segments = pathSegments(path)
        if isAPI {
            readMapsURLsAPI(segments: segments, parameters: parameters)
        } else {
            readDesktopPath(segments)
            readLegacyParameters(parameters)
        }
    }

    /// The `/`-separated segments of `path`, without the leading empty one and without one
    /// trailing empty segment (a trailing slash).
    private func pathSegments(_ path: Range<Int>) -> [Range<Int>] {
        var segments: [Range<Int>] = []
        segments.reserveCapacity(8)
        var index = path.lowerBound
        if index < path.upperBound, bytes[index] == UInt8(ascii: "/") { index += 1 }
        guard index < path.upperBound else { return [] }
        while index <= path.upperBound {
            let end = firstIndex(in: index..<path.upperBound, of: UInt8(ascii: "/"))
            segments.append(index..<end)
            index = end + 1
        }
        if segments.count > 0, segments.last!.isEmpty { segments.removeLast() }
        return segments
    }

    // MARK: Desktop paths

    private enum PathMode { case none, place, search, directions }

    private mutating func readDesktopPath(_ segments: [Range<Int>]) {
        var mode = PathMode.none
        var pathName: (text: String, range: Range<Int>)?
        var points: [(waypoint: Waypoint, range: Range<Int>)] = []
        points.reserveCapacity(4)
        var pin: Coordinate?
        var routeCoordinates: [Coordinate] = []
        for segment in segments {
            if hasPrefix(segment, "@") {
                readViewport(segment)
            } else if hasPrefix(segment, "data=") {
                (pin, routeCoordinates) = readDataBlob((segment.lowerBound + 5)..<segment.upperBound)
            } else if mode == .none, let keyword = pathKeyword(segment) {
                mode = keyword
            } else if mode == .directions {
                guard points.count < Directions.maxWaypoints + 2 else {
                    report(
                        .tooManyWaypoints, .warning,
                        "more than \(Directions.maxWaypoints) stops between start and end; this one is ignored",
                        at: segment)
                    continue
                }
                guard let text = decodedText(segment, plusIsSpace: true, what: "the directions stop") else { continue }
                if let point = waypoint(text, name: "the directions stop", at: segment) {
                    points.append((point, segment))
                }
            } else if (mode == .place || mode == .search) && pathName == nil {
                guard let text = decodedText(segment, plusIsSpace: true, what: "the place name") else { continue }
                pathName = (text, segment)
            } else if segment.isEmpty || text(segment) == "preview" || hasPrefix(segment, "am=")
                || hasPrefix(segment, "entry=")
            {
                continue
            } else {
                report(
                    .unknownPathSegment, .note, "this path segment has no known meaning; it is ignored", at: segment)
            }
        }
        if let pathName {
            applySearch(pathName.text, name: mode == .place ? "the place" : "the search", at: pathName.range)
        }
        if let pin {
            request.marker = pin
            request.center = pin
        }
        if mode == .directions {
            request.directions = directionsFromPath(points, routeCoordinates: routeCoordinates)
        }
    }

    private func pathKeyword(_ segment: Range<Int>) -> PathMode? {
        switch text(segment) {
        case "place": return .place
        case "search": return .search
        case "dir": return .directions
        default: return nil
        }
    }

    /// `/dir/A/B/C`: the first segment is the start, the last the end, the others stops.
    /// Coordinates from a `data=` blob replace text stops one for one when the counts match.
    private mutating func directionsFromPath(
        _ points: [(waypoint: Waypoint, range: Range<Int>)], routeCoordinates: [Coordinate]
    ) -> Directions {
        var waypoints = points.map(\.waypoint)
        if !routeCoordinates.isEmpty {
            let textIndices = waypoints.indices.filter { if case .query = waypoints[$0] { true } else { false } }
            if textIndices.count == routeCoordinates.count {
                for (index, coordinate) in zip(textIndices, routeCoordinates) {
                    waypoints[index] = .coordinate(coordinate)
                }
            } else if let first = points.first {
                report(
                    .directionsDataUnmatched, .note,
                    "the data blob has \(routeCoordinates.count) coordinates for \(textIndices.count) named stops; the names are used",
                    at: first.range)
            }
        }
        var directions = Directions()
        directions.origin = waypoints.first
        if waypoints.count >= 2 {
            directions.destination = waypoints.last
            directions.waypoints = Array(waypoints.dropFirst().dropLast())
        }
        return directions
    }

    /// `@lat,lng,17z`, `@lat,lng,17.5z`, `@lat,lng,247m`, `@lat,lng,3a,75y,90h,80t`.
    private mutating func readViewport(_ segment: Range<Int>) {
        let body = (segment.lowerBound + 1)..<segment.upperBound
        guard !body.isEmpty else { return }
        let firstComma = firstIndex(in: body, of: UInt8(ascii: ","))
        let secondComma =
            firstComma < body.upperBound
            ? firstIndex(in: (firstComma + 1)..<body.upperBound, of: UInt8(ascii: ",")) : body.upperBound
        guard firstComma < body.upperBound else {
            report(.badViewport, .error, "'@' must be followed by latitude,longitude", at: segment)
            return
        }
        let pair = UnsafeBufferPointer(rebasing: bytes[body.lowerBound..<secondComma])
        guard let coordinate = Coordinate.parsePair(bytes: pair), coordinate.isValid else {
            report(
                .badCoordinate, .error,
                "'@' must be followed by latitude,longitude in range, in plain decimal degrees; it is ignored",
                at: segment)
            return
        }
        request.center = coordinate
        var camera = StreetViewCamera()
        var isStreetView = false
        var index = secondComma + 1
        while index < body.upperBound {
            let end = firstIndex(in: index..<body.upperBound, of: UInt8(ascii: ","))
            defer { index = end + 1 }
            guard end > index else { continue }
            let digits = UnsafeBufferPointer(rebasing: bytes[index..<(end - 1)])
            switch bytes[end - 1] {
            case UInt8(ascii: "z"):
                request.zoom = number(digits, name: "@ zoom", limits: Self.webZoomLimits, at: segment)
            case UInt8(ascii: "m"):
                report(
                    .altitudeNotZoom, .note,
                    "'\(text(index..<end))' is a camera altitude in metres, not a zoom; the app's zoom is kept",
                    at: segment)
            case UInt8(ascii: "a"):
                isStreetView = true
            case UInt8(ascii: "y"):
                camera.fieldOfView = number(digits, name: "@ field of view", limits: 10...100, at: segment)
            case UInt8(ascii: "h"):
                camera.heading = number(digits, name: "@ heading", limits: -180...360, at: segment)
            case UInt8(ascii: "t"):
                if let tilt = number(digits, name: "@ tilt", limits: 0...180, at: segment) { camera.pitch = tilt - 90 }
            default:
                report(
                    .unknownViewportToken, .note,
                    "'\(text(index..<end))' in the viewport is not understood; it is ignored",
                    at: segment)
            }
        }
        if isStreetView {
            request.mapMode = .streetView
            request.streetView = camera.isEmpty ? nil : camera
        }
    }

    /// Reads the `!`-separated tokens of a `data=` blob: the last `!3d<lat>!4d<lng>` pair is the
    /// place's pin; every `!1d<lng>!2d<lat>` pair (note the order) is a directions stop.
    private func readDataBlob(_ blob: Range<Int>) -> (pin: Coordinate?, route: [Coordinate]) {
        var pin: Coordinate?
        var route: [Coordinate] = []
        route.reserveCapacity(4)
        var pendingLatitude: Double?
        var pendingLongitude: Double?
        var index = blob.lowerBound
        while index < blob.upperBound {
            let end = firstIndex(in: (index + 1)..<blob.upperBound, of: UInt8(ascii: "!"))
            // A token is "!" + a digit + a type letter + its value, for example "!3d48.85".
            if bytes[index] == UInt8(ascii: "!"), end - index > 3, bytes[index + 2] == UInt8(ascii: "d") {
                let value = DecimalText.parse(UnsafeBufferPointer(rebasing: bytes[(index + 3)..<end]))
                switch bytes[index + 1] {
                case UInt8(ascii: "3"):
                    pendingLatitude = value
                case UInt8(ascii: "4"):
                    if let latitude = pendingLatitude, let longitude = value,
                        let coordinate = Coordinate(validatingLatitude: latitude, longitude: longitude)
                    {
                        pin = coordinate
                    }
                    pendingLatitude = nil
                case UInt8(ascii: "1"):
                    pendingLongitude = value
                case UInt8(ascii: "2"):
                    if let longitude = pendingLongitude, let latitude = value,
                        let coordinate = Coordinate(validatingLatitude: latitude, longitude: longitude)
                    {
                        route.append(coordinate)
                    }
                    pendingLongitude = nil
                default:
                    break
                }
            }
            index = end
        }
        return (pin, route)
    }

    // MARK: Legacy parameters

    private mutating func readLegacyParameters(_ parameters: [Parameter]) {
        var directions = request.directions ?? Directions()
        var hasDirections = request.directions != nil
        var searchCenter: Coordinate?
        var searchSpan: CoordinateSpan?
        for parameter in parameters {
            guard !parameter.isRepeat else {
                duplicateParameter(parameter)
                continue
            }
            let where_ = parameter.value ?? parameter.nameRange
            switch parameter.name {
            case "q":
                if let text = decodedValue(parameter) { applySearch(text, name: "q", at: where_) }
            case "ll":
                if let center = coordinateValue(parameter) { request.center = center }
            case "sll":
                searchCenter = coordinateValue(parameter)
            case "spn":
                if let span = spanValue(parameter) { request.span = span }
            case "sspn":
                searchSpan = spanValue(parameter)
            case "z":
                request.zoom = numberValue(parameter, limits: Self.webZoomLimits)
            case "t":
                applyMapType(parameter, Self.googleMapTypes)
            case "layer":
                guard let text = decodedValue(parameter) else { break }
                if text == "t" {
                    request.views = (request.views ?? []).union([.traffic])
                } else {
                    report(
                        .unknownLayer, .note, "'layer=\(text)' is not supported; only 'layer=t' (traffic) is",
                        at: where_)
                }
            case "lci":
                guard let text = decodedValue(parameter) else { break }
                switch text {
                case "transit_comp", "transit": request.views = (request.views ?? []).union([.transit])
                case "bike": request.views = (request.views ?? []).union([.bicycling])
                default: report(.unknownLayer, .note, "'lci=\(text)' is not supported; it is ignored", at: where_)
                }
            case "f":
                if decodedValue(parameter) == "d" { hasDirections = true }
            case "saddr":
                guard let text = decodedValue(parameter) else { break }
                directions.origin = waypoint(text, name: "saddr", at: where_)
                hasDirections = true
            case "daddr":
                guard let text = decodedValue(parameter) else { break }
                // Old multi-stop links chain stops with "+to:".
                let stops = text.splitOnSubstring(" to:")
                directions.destination = waypoint(stops.last!, name: "daddr", at: where_)
                directions.waypoints = stops.dropLast().compactMap {
                    waypoint($0, name: "daddr", at: where_)
                }
                hasDirections = true
            case "dirflg":
                guard let text = decodedValue(parameter) else { break }
                readDirectionFlags(text, into: &directions, at: where_)
                hasDirections = true
            case "nav":
                if decodedValue(parameter) == "1" {
                    directions.navigate = true
                    hasDirections = true
                }
            case "hl", "gl", "ie", "oe", "output", "source", "authuser", "entry", "g_ep", "g_st", "ved", "sa", "usp",
                "hq", "cid", "ftid", "api":
                continue
            default:
                unknownParameter(parameter)
            }
        }
        if request.center == nil, let searchCenter { request.center = searchCenter }
        if request.span == nil, let searchSpan { request.span = searchSpan }
        if hasDirections { request.directions = directions }
    }

    /// `dirflg`: one letter per flag; d, r, w, b choose the mode, h and t avoid highways and tolls.
    private mutating func readDirectionFlags(_ text: String, into directions: inout Directions, at range: Range<Int>) {
        for flag in text {
            switch flag {
            case "d": directions.travelMode = .driving
            case "r": directions.travelMode = .transit
            case "w": directions.travelMode = .walking
            case "b": directions.travelMode = .bicycling
            case "h": directions.avoid.insert(.highways)
            case "t": directions.avoid.insert(.tolls)
            default:
                report(.unknownDirflg, .warning, "'dirflg' letter '\(flag)' is not known; it is ignored", at: range)
            }
        }
    }

    mutating func spanValue(_ parameter: Parameter) -> CoordinateSpan? {
        guard let parsed = withValueBytes(parameter, Coordinate.parsePair(bytes:)) else { return nil }
        let where_ = parameter.value ?? parameter.nameRange
        guard let pair = parsed else {
            report(
                .badSpan, .error, "'\(parameter.name)' must be two decimal degree extents; it is ignored", at: where_)
            return nil
        }
        let span = CoordinateSpan(latitudeDelta: pair.latitude, longitudeDelta: pair.longitude)
        guard span.isValid else {
            report(
                .spanOutOfRange, .error, "'\(parameter.name)' is outside 0...180, 0...360; it is ignored",
                at: where_)
            return nil
        }
        return span
    }

    // MARK: Maps URLs (api=1)

    private enum APIAction { case search, directions, map, pano }

    private mutating func readMapsURLsAPI(segments: [Range<Int>], parameters: [Parameter]) {
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
        for parameter in parameters {
            guard !parameter.isRepeat else {
                duplicateParameter(parameter)
                continue
            }
            let where_ = parameter.value ?? parameter.nameRange
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
    private mutating func readAPIDirectionsParameter(
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
            var stops = text.splitOnSubstring("|")
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
            guard let text = decodedValue(parameter) else { break }
            if let mode = TravelMode(rawValue: text.lowercased()) {
                directions.travelMode = mode
            } else {
                report(
                    .unknownTravelmode, .warning,
                    "'travelmode' must be driving, walking, bicycling, two-wheeler or transit; '\(text)' is ignored",
                    at: where_)
            }
        case "dir_action":
            if decodedValue(parameter) == "navigate" { directions.navigate = true }
        case "avoid":
            guard let text = decodedValue(parameter) else { break }
            for item in text.split(separator: ",") {
                if let avoidance = RouteAvoidance(rawValue: item.trimmingCharacters(in: " ")) {
                    directions.avoid.insert(avoidance)
                } else {
                    report(.unknownAvoid, .warning, "'avoid' item '\(item)' is not known; it is ignored", at: where_)
                }
            }
        default:
            return false
        }
        return true
    }

    /// `center`, `zoom`, `basemap`, `layer`; false for other names.
    private mutating func readAPIMapParameter(_ parameter: Parameter, at where_: Range<Int>) -> Bool {
        switch parameter.name {
        case "center":
            if let center = coordinateValue(parameter) { request.center = center }
        case "zoom":
            request.zoom = numberValue(parameter, limits: Self.webZoomLimits)
        case "basemap":
            guard let text = decodedValue(parameter) else { break }
            switch text {
            case "roadmap": request.views = request.views ?? []
            case "satellite": request.views = (request.views ?? []).union([.satellite])
            case "terrain": request.views = (request.views ?? []).union([.terrain])
            default:
                report(.unknownBasemap, .warning, "'basemap' must be roadmap, satellite or terrain", at: where_)
            }
        case "layer":
            guard let text = decodedValue(parameter) else { break }
            switch text {
            case "none": request.views = request.views ?? []
            case "transit", "traffic", "bicycling":
                request.views = (request.views ?? []).union([MapsView(rawValue: text)!])
            default:
                report(.unknownLayer, .warning, "'layer' must be none, transit, traffic or bicycling", at: where_)
            }
        default:
            return false
        }
        return true
    }

    /// `viewpoint`, `pano`, `heading`, `pitch`, `fov`; false for other names.
    private mutating func readAPIPanoParameter(_ parameter: Parameter, into camera: inout StreetViewCamera) -> Bool {
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
}
