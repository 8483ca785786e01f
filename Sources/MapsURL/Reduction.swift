import GeoCore

/// A request being cut down to what a target can carry, with the list of what was cut.
struct Reduction {
    var request: MapsRequest
    var dropped: [UnexpressedPart] = []

    mutating func drop<Value>(_ field: WritableKeyPath<MapsRequest, Value?>, _ name: String, _ reason: String) {
        guard request[keyPath: field] != nil else { return }
        request[keyPath: field] = nil
        dropped.append(UnexpressedPart(field: name, reason: reason))
    }

    /// Drops every field but `kept`.
    mutating func dropAll(except kept: [PartialKeyPath<MapsRequest>], reason: String) {
        func dropUnlessKept<Value>(_ field: WritableKeyPath<MapsRequest, Value?>, _ name: String) {
            if !kept.contains(field) { drop(field, name, reason) }
        }
        dropUnlessKept(\.center, "center")
        dropUnlessKept(\.zoom, "zoom")
        dropUnlessKept(\.span, "span")
        dropUnlessKept(\.mapMode, "mapMode")
        dropUnlessKept(\.views, "views")
        dropUnlessKept(\.query, "query")
        dropUnlessKept(\.placeID, "placeID")
        dropUnlessKept(\.marker, "marker")
        dropUnlessKept(\.directions, "directions")
        dropUnlessKept(\.streetView, "streetView")
        dropUnlessKept(\.callback, "callback")
        dropUnlessKept(\.shortLink, "shortLink")
        dropUnlessKept(\.language, "language")
    }

    /// Drops a query that would read back as a coordinate when printed without its marker
    /// (only crafted links carry such texts, for example `q=a@1,2@3,4`).
    mutating func dropQueryReadingAsCoordinate() {
        guard request.marker == nil, let query = request.query, !PlaceText.readsBackAsText(query) else { return }
        request.query = nil
        dropped.append(UnexpressedPart(field: "query", reason: "the text would read back as a coordinate"))
    }

    mutating func dropStreetViewCamera(_ reason: String) {
        drop(\.streetView, "streetView", reason)
    }

    /// Keeps only `allowed` views; the others are reported.
    mutating func keepViews(_ allowed: Set<MapsView>, _ reason: String) {
        guard let views = request.views else { return }
        let removed = views.subtracting(allowed)
        guard !removed.isEmpty else { return }
        // Views the target cannot show leave the map as the app has it, not cleared.
        let kept = views.intersection(allowed)
        request.views = kept.isEmpty ? nil : kept
        dropped.append(
            UnexpressedPart(field: "views", reason: "\(reason); \(removed.sorted().map(\.rawValue)) left out"))
    }

    /// Keeps at most one of `group` (the first in `group`'s declared order).
    mutating func exclusiveViews(_ group: [MapsView], _ reason: String) {
        guard let views = request.views else { return }
        let present = group.filter(views.contains)
        guard present.count > 1 else { return }
        request.views = views.subtracting(present.dropFirst())
        dropped.append(
            UnexpressedPart(field: "views", reason: "\(reason); \(present.dropFirst().map(\.rawValue)) left out"))
    }

    mutating func clampZoom(_ limits: ClosedRange<Double>) {
        guard let zoom = request.zoom else { return }
        let clamped = min(max(zoom, limits.lowerBound), limits.upperBound)
        guard clamped != zoom else { return }
        request.zoom = clamped
        dropped.append(
            UnexpressedPart(field: "zoom", reason: "outside \(limits); clamped to \(DecimalText.format(clamped))"))
    }

    /// Turns the directions' named places into their positions, for targets whose ends carry
    /// no names; the names are reported.
    mutating func dropPlaceNames(_ reason: String) {
        guard let directions = request.directions else { return }
        func position(_ waypoint: Waypoint) -> Waypoint {
            if case .place(_, let coordinate) = waypoint { .coordinate(coordinate) } else { waypoint }
        }
        var positions = directions
        positions.origin = directions.origin.map(position)
        positions.destination = directions.destination.map(position)
        positions.waypoints = directions.waypoints.map(position)
        guard positions != directions else { return }
        request.directions = positions
        dropped.append(UnexpressedPart(field: "directions.names", reason: reason))
    }

    /// Cuts directions down to what a target carries; a nil reason means the target carries it.
    mutating func reduceDirections(
        waypoints: String?, navigate: String?, avoid: String, modes: Set<TravelMode>, needsEnds: Bool,
        avoidable: Set<RouteAvoidance> = []
    ) {
        guard var directions = request.directions else { return }
        if let waypoints, !directions.waypoints.isEmpty {
            directions.waypoints = []
            dropped.append(UnexpressedPart(field: "directions.waypoints", reason: waypoints))
        }
        if let navigate, directions.navigate {
            directions.navigate = false
            dropped.append(UnexpressedPart(field: "directions.navigate", reason: navigate))
        }
        if !directions.avoid.isSubset(of: avoidable) {
            directions.avoid.formIntersection(avoidable)
            dropped.append(UnexpressedPart(field: "directions.avoid", reason: avoid))
        }
        if let mode = directions.travelMode, !modes.contains(mode) {
            directions.travelMode = nil
            dropped.append(
                UnexpressedPart(field: "directions.travelMode", reason: "'\(mode.rawValue)' is not available"))
        }
        if needsEnds && directions.origin == nil && directions.destination == nil && directions.travelMode == nil {
            request.directions = nil
            dropped.append(
                UnexpressedPart(field: "directions", reason: "an empty directions request cannot be written"))
            return
        }
        request.directions = directions
    }

    /// Drops the intermediate stops when, written into one value (joined by `separator`, with
    /// the destination after them when `withDestination`), they would be longer than
    /// ``MapsURLParser/maxTextLength`` bytes, the longest value a reader accepts.
    mutating func dropStopsLongerThanAValue(separator: String, withDestination: Bool) {
        guard let directions = request.directions, !directions.waypoints.isEmpty else { return }
        var stops = directions.waypoints
        if withDestination, let destination = directions.destination { stops.append(destination) }
        let length =
            stops.reduce(0) { $0 + MapsURLPrinter.waypointText($1).utf8.count }
            + separator.utf8.count * (stops.count - 1)
        guard length > MapsURLParser.maxTextLength else { return }
        request.directions?.waypoints = []
        dropped.append(
            UnexpressedPart(
                field: "directions.waypoints",
                reason: "the stops written into one value would pass \(MapsURLParser.maxTextLength) bytes"))
    }
}
