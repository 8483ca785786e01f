import GeoCore

/// Google Maps desktop paths: `/@lat,lng,zoom`, `/place/NAME/@…`, `/search/…`, `/dir/A/B/…` and
/// their `data=` blobs.
extension LinkReader {

    private enum PathMode { case none, place, search, directions }

    /// Reads the path's segments into the request.
    ///
    /// - Returns: the parameters glued into the path (``gluedParameters(_:)``), for the
    ///   legacy reader.
    mutating func readDesktopPath(_ segments: [Range<Int>]) -> [Parameter] {
        var glued: [Parameter] = []
        var mode = PathMode.none
        var pathName: (text: String, range: Range<Int>)?
        var points: [(waypoint: Waypoint, range: Range<Int>)] = []
        points.reserveCapacity(4)
        var blob: GoogleDataBlob?
        for segment in segments {
            if hasPrefix(segment, "@") {
                readViewport(segment)
            } else if hasPrefix(segment, "data=") {
                blob = GoogleDataBlob(bytes, (segment.lowerBound + 5)..<segment.upperBound)
            } else if mode == .none, let keyword = pathKeyword(segment) {
                mode = keyword
            } else if mode == .none, firstIndex(in: segment, of: UInt8(ascii: "=")) < segment.upperBound,
                !hasPrefix(segment, "am="), !hasPrefix(segment, "entry=")
            {
                glued += gluedParameters(segment)
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
            } else if (mode == .place || mode == .search) && pathName == nil && !segment.isEmpty {
                guard let text = decodedText(segment, plusIsSpace: true, what: "the place name") else { continue }
                pathName = (text, segment)
            } else if mode == .search, pathName != nil, isBareViewport(segment) {
                // `/search/TEXT/LAT,LNG,ZOOMz`: the viewport without its '@'.
                readViewport(body: segment, whole: segment)
            } else if segment.isEmpty || isWord(segment, "preview") || hasPrefix(segment, "am=")
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
        if mode == .directions {
            let listed = blob?.directions
            request.directions = directionsFromPath(points, stops: listed?.positions ?? [])
            request.directions?.travelMode = listed?.travelMode ?? blob?.travelModeWithoutStops
        } else if let pin = blob?.pin {
            request.marker = pin
            request.center = pin
        }
        if let views = blob?.views, !views.isEmpty { request.views = (request.views ?? []).union(views) }
        if mode == .place, pathName == nil, request.marker == nil, let blob, blob.hasFeatureID,
            let data = segments.first(where: { hasPrefix($0, "data=") })
        {
            report(
                .placeIdIgnored, .note,
                "the place is named only by its Google feature id, which cannot be looked up here", at: data)
        }
        return glued
    }

    /// True for `LAT,LNG,ZOOMz`: a digit or a minus first, a comma inside, a `z` last.
    private func isBareViewport(_ segment: Range<Int>) -> Bool {
        guard let first = segment.first, let last = segment.last else { return false }
        return (isDigit(bytes[first]) || bytes[first] == UInt8(ascii: "-")) && bytes[last] == UInt8(ascii: "z")
            && firstIndex(in: segment, of: UInt8(ascii: ",")) < segment.upperBound
    }

    private func pathKeyword(_ segment: Range<Int>) -> PathMode? {
        if isWord(segment, "place") { return .place }
        if isWord(segment, "search") { return .search }
        if isWord(segment, "dir") { return .directions }
        return nil
    }

    /// `/dir/A/B/C`: the first segment is the start, the last the end, the others stops. When
    /// the `data=` blob lists as many stops as the path, each stop takes its position from the
    /// blob, in order, and keeps its name from the path (a named place); the user's location
    /// and coordinates stay as they are.
    private mutating func directionsFromPath(
        _ points: [(waypoint: Waypoint, range: Range<Int>)], stops: [Coordinate?]
    ) -> Directions {
        var waypoints = points.map(\.waypoint)
        if !stops.isEmpty {
            if stops.count == waypoints.count {
                for (index, position) in stops.enumerated() {
                    guard let position, case .query(let name) = waypoints[index] else { continue }
                    waypoints[index] = .place(name: name, coordinate: position)
                }
            } else if let first = points.first {
                report(
                    .directionsDataUnmatched, .note,
                    "the data blob lists \(stops.count) stops for the path's \(waypoints.count); the path's names are used",
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
        readViewport(body: (segment.lowerBound + 1)..<segment.upperBound, whole: segment)
    }

    /// The viewport in `body` (without its '@'); diagnostics point at `segment`.
    private mutating func readViewport(body: Range<Int>, whole segment: Range<Int>) {
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
                request.zoom = number(digits, name: "@ zoom", limits: DesktopVocabulary.zoomLimits, at: segment)
            case UInt8(ascii: "m"):
                // `500m`: the metres of ground the view shows (satellite and 3D links).
                if let metres = metres(digits, at: segment) {
                    request.span = CoordinateSpan(seenFrom: metres, at: coordinate)
                }
            case UInt8(ascii: "a"):
                // `3a` (a small number) opens Street View; `2848a` is the 3D view's camera
                // altitude in metres.
                if let mark = DecimalText.parse(digits), mark >= 0, mark < DesktopVocabulary.streetViewMarkLimit {
                    isStreetView = true
                } else if let altitude = metres(digits, at: segment) {
                    request.span = CoordinateSpan(seenFrom: altitude, at: coordinate)
                }
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

    /// A viewport's distance in metres (up to 9 integer digits), clamped to
    /// ``DesktopVocabulary/metresLimits``.
    private mutating func metres(_ digits: UnsafeBufferPointer<UInt8>, at segment: Range<Int>) -> Double? {
        clamp(
            DecimalText.parse(digits, maxIntegerDigits: 9), name: "@ metres", limits: DesktopVocabulary.metresLimits,
            at: segment)
    }
}
