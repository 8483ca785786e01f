import GeoCore

/// The durations and distances from each of a set of points to each of another, as OSRM's
/// `table` service answers them, and where each point met the road network.
public struct RouteTable: Sendable {
    /// Where a point met the network: the snapped location, how far it moved (metres) and the
    /// road's name (or ref), as a route's waypoints say.
    public struct Waypoint: Sendable, Equatable {
        /// The snapped location.
        public var location: Coordinate
        /// Metres from the point to it.
        public var distance: Double
        /// The road's name, else its ref; nil for neither.
        public var name: String?

        /// A waypoint at `location`, `distance` metres from its point, on the road `name`.
        public init(location: Coordinate, distance: Double, name: String?) {
            self.location = location
            self.distance = distance
            self.name = name
        }
    }

    /// Seconds from source i to destination j (`durations[i][j]`), the duration of the
    /// fastest route as ``Router/route(_:avoiding:)`` counts it; nil where none joins them.
    public var durations: [[Double?]]
    /// Metres along the same routes; nil where none joins them.
    public var distances: [[Double?]]
    /// Where each source met the network, in order.
    public var sources: [Waypoint]
    /// Where each destination met the network, in order.
    public var destinations: [Waypoint]

    /// A table of these cells and waypoints.
    public init(durations: [[Double?]], distances: [[Double?]], sources: [Waypoint], destinations: [Waypoint]) {
        self.durations = durations
        self.distances = distances
        self.sources = sources
        self.destinations = destinations
    }
}

extension Router {
    /// The table from each of `sources` to each of `destinations`: with a contraction hierarchy
    /// one many-to-many search (each destination's backward search once, in buckets; each
    /// source's forward search once, meeting them), not a route a cell; without one, a route
    /// a cell. Points snap to their nearest road as routes' points do (on a large piece of the
    /// network when the nearest road is on a small one).
    ///
    /// - Throws: ``RoutingError/noRoad(point:at:mode:)`` for a point with no road near it,
    ///   numbered sources first, then destinations.
    public func table(from sources: [Coordinate], to destinations: [Coordinate]) throws -> RouteTable {
        // Each point's nearest road, and its nearest on a large piece of the network, as a
        // route's ends: a cell from nearest to nearest, else (where they are not connected)
        // from large piece to large piece.
        var nearest: [RoadGraph.Snap] = []
        var large: [RoadGraph.Snap] = []
        for (index, point) in (sources + destinations).enumerated() {
            guard let snap = try graph.snap(point, within: graph.covers(point) ? .infinity : Self.snapRadius) else {
                throw RoutingError.noRoad(point: index, at: point, mode: graph.profile.mode)
            }
            nearest.append(snap)
            large.append(
                graph.isInLargePiece(snap)
                    ? snap : try graph.snapToLargePiece(point, within: snap.distance + Self.snapRadius) ?? snap)
        }
        let split = { (snaps: [RoadGraph.Snap]) in
            (Array(snaps.prefix(sources.count)), Array(snaps.dropFirst(sources.count)))
        }
        let (nearestSources, nearestDestinations) = split(nearest)
        var cells = try cellTable(
            from: nearestSources, to: nearestDestinations, sources: sources, destinations: destinations)
        let moved = zip(nearest, large).map { $0.point != $1.point }
        if moved.contains(true) {
            let (largeSources, largeDestinations) = split(large)
            let again = try cellTable(
                from: largeSources, to: largeDestinations, sources: sources, destinations: destinations)
            for row in cells.indices {
                for column in cells[row].indices where cells[row][column] == nil {
                    guard moved[row] || moved[sources.count + column] else { continue }
                    cells[row][column] = again[row][column]
                }
            }
        }
        let waypoints = zip(nearest, large).map { near, far -> RouteTable.Waypoint in
            // Where most of the point's cells start or end: its nearest road unless that is cut off.
            let snap = graph.isInLargePiece(near) ? near : far
            let segment = graph.segments[Int(snap.segment)]
            let way = graph.way(of: segment.forward >= 0 ? segment.forward : segment.backward)
            return RouteTable.Waypoint(location: snap.point, distance: snap.distance, name: way.name ?? way.ref)
        }
        return RouteTable(
            durations: cells.map { $0.map { $0.map { Double(max($0.duration, 0)) } } },
            distances: cells.map { $0.map { $0.map { Double(max($0.distance, 0)) } } },
            sources: Array(waypoints.prefix(sources.count)), destinations: Array(waypoints.dropFirst(sources.count)))
    }

    /// The cells between snapped sources and destinations (the points themselves for a router
    /// without a hierarchy, a route a cell).
    private func cellTable(
        from sourceSnaps: [RoadGraph.Snap], to destinationSnaps: [RoadGraph.Snap], sources: [Coordinate],
        destinations: [Coordinate]
    ) throws -> [[ContractionHierarchy.Cell?]] {
        guard let hierarchy else {
            return sources.map { source in
                destinations.map { destination in
                    (try? route([source, destination])).map {
                        ContractionHierarchy.Cell(
                            weight: Float($0.duration), duration: Float($0.duration), distance: Float($0.distance))
                    }
                }
            }
        }
        let weight = { (edge: Int32) in self.graph.edgeWeight[Int(edge)] }
        let duration = { (edge: Int32) in self.graph.edgeDuration[Int(edge)] }
        let length = { (edge: Int32) in
            Float(
                self.graph.positions[Int(self.graph.edgeFrom[Int(edge)])].distance(
                    to: self.graph.positions[Int(self.graph.edgeTo[Int(edge)])]))
        }
        // A source starts partway along an edge: what is left of it ahead. A destination ends
        // partway: what is left of its edge is taken back (the arc onto it counts it whole).
        let starts = sourceSnaps.map { departures($0) }
        let ends = destinationSnaps.map { arrivals($0) }
        var cells = hierarchy.table(
            from: starts.map { edges in
                edges.map { edge, at in
                    let left = Float(1 - at)
                    return .init(
                        node: edge, weight: left * weight(edge), duration: left * duration(edge),
                        distance: left * length(edge))
                }
            },
            to: ends.map { edges in
                edges.map { edge, at in
                    let left = Float(1 - at)
                    return .init(
                        node: edge, weight: -left * weight(edge), duration: -left * duration(edge),
                        distance: -left * length(edge))
                }
            }, annotations: hierarchy.annotations(on: graph))
        for (row, departures) in starts.enumerated() {
            for (column, arrivals) in ends.enumerated()
            where departures.contains(where: { start in arrivals.contains { $0.edge == start.edge } }) {
                // Both ends on one edge: the hierarchy has no loop back to an edge it climbs from
                // (the destination may lie behind the source on it), so the cell is a route of its
                // own, along the edge or round.
                cells[row][column] = leg(from: sourceSnaps[row], to: destinationSnaps[column], weights: nil).map {
                    .init(weight: Float($0.duration), duration: Float($0.duration), distance: Float($0.distance))
                }
            }
        }
        return cells
    }
}
