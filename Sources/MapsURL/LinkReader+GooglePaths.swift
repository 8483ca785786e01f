import GeoCore

/// Google Maps desktop paths: `/@lat,lng,zoom`, `/place/NAME/@…`, `/search/…`, `/dir/A/B/…` and
/// their `data=` blobs.
extension LinkReader {

    private enum PathMode { case none, place, search, directions }

    mutating func readDesktopPath(_ segments: [Range<Int>]) {
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
                request.zoom = number(digits, name: "@ zoom", limits: DesktopVocabulary.zoomLimits, at: segment)
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
}
