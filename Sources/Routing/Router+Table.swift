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
        /// Where the point met the road, as OSRM's `hint` (``RoadGraph/hint(of:)``); nil for none.
        public var hint: RoadGraph.Hint?

        /// A waypoint at `location`, `distance` metres from its point, on the road `name`, met
        /// there as `hint` says.
        public init(location: Coordinate, distance: Double, name: String?, hint: RoadGraph.Hint? = nil) {
            self.location = location
            self.distance = distance
            self.name = name
            self.hint = hint
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
        try table(
            sources + destinations, sources: Array(sources.indices),
            destinations: Array(sources.count..<sources.count + destinations.count))
    }

    /// The table from the `points` `sources` names (by index) to those `destinations` names,
    /// each point snapped and searched from once however often it is named, as OSRM's `table`
    /// takes them, and met as its entry of `approaches` asks (one a point; none for any way).
    ///
    /// - Throws: ``RoutingError/noRoad(point:at:mode:)`` naming the point, by index, that has
    ///   no road near it.
    public func table(_ points: [Coordinate], sources: [Int], destinations: [Int], approaches: [Approach] = [])
        throws -> RouteTable
    {
        let passage = Passage(approaches: approaches)
        // Each point's nearest road, and its nearest on a large piece of the network, as a
        // route's ends: a cell from nearest to nearest, else (where they are not connected)
        // from large piece to large piece.
        var nearest: [Int: RoadGraph.Snap] = [:]
        var large: [Int: RoadGraph.Snap] = [:]
        for index in Set(sources + destinations).sorted() {
            let met = try meeting(points[index], index: index, approach: passage.approach(index))
            nearest[index] = met.nearest
            large[index] = met.large ?? met.nearest
        }
        let moved = Set(nearest.keys.filter { nearest[$0]!.point != large[$0]!.point })
        let cells: [[ContractionHierarchy.Cell?]]
        if let hierarchy {
            cells = hierarchyCells(
                hierarchy, sources: sources, destinations: destinations, nearest: nearest, large: large, moved: moved)
        } else {
            cells = sources.map { source in
                destinations.map { destination in
                    (try? route(
                        [points[source], points[destination]],
                        passing: Passage(approaches: [passage.approach(source), passage.approach(destination)])
                    )).map {
                        ContractionHierarchy.Cell(
                            weight: Float($0.duration), duration: Float($0.duration), distance: Float($0.distance))
                    }
                }
            }
        }
        let waypoint = { (index: Int) -> RouteTable.Waypoint in
            // Where most of the point's cells start or end: its nearest road unless that is cut off.
            let snap = moved.contains(index) ? large[index]! : nearest[index]!
            let segment = self.graph.segments[Int(snap.segment)]
            let way = self.graph.way(of: segment.forward >= 0 ? segment.forward : segment.backward)
            return RouteTable.Waypoint(
                location: snap.point, distance: snap.distance, name: way.name ?? way.ref,
                hint: self.graph.hint(of: snap))
        }
        return RouteTable(
            durations: cells.map { $0.map { $0.map { Double(max($0.duration, 0)) } } },
            distances: cells.map { $0.map { $0.map { Double(max($0.distance, 0)) } } },
            sources: sources.map(waypoint), destinations: destinations.map(waypoint))
    }

    /// The cells by the hierarchy: every source's forward search and every destination's
    /// backward search once, from their nearest roads, met; then the cells left empty where an
    /// end moved to a large piece, from there (only the moved ends searched again).
    private func hierarchyCells(
        _ hierarchy: ContractionHierarchy, sources: [Int], destinations: [Int], nearest: [Int: RoadGraph.Snap],
        large: [Int: RoadGraph.Snap], moved: Set<Int>
    ) -> [[ContractionHierarchy.Cell?]] {
        let annotations = hierarchy.annotations(on: graph)
        var forward: [Int: [ContractionHierarchy.Label]] = [:]
        var backward: [Int: [ContractionHierarchy.Label]] = [:]
        var forwardLarge: [Int: [ContractionHierarchy.Label]] = [:]
        var backwardLarge: [Int: [ContractionHierarchy.Label]] = [:]
        func space(of snap: RoadGraph.Snap, upwards: Bool) -> [ContractionHierarchy.Label] {
            hierarchy.tableSpace(from: starts(of: snap, leaving: upwards), upwards: upwards, annotations: annotations)
        }
        for index in Set(sources) { forward[index] = space(of: nearest[index]!, upwards: true) }
        for index in Set(destinations) { backward[index] = space(of: nearest[index]!, upwards: false) }
        var cells = hierarchy.combine(sources.map { forward[$0]! }, destinations.map { backward[$0]! })
        fixSharedEdges(&cells, from: sources.map { nearest[$0]! }, to: destinations.map { nearest[$0]! })
        // The empty cells an end that moved may fill: those rows by those columns, again.
        var rows: [Int] = []
        var columns = Set<Int>()
        for (row, source) in sources.enumerated() {
            let empty = destinations.indices.filter {
                cells[row][$0] == nil && (moved.contains(source) || moved.contains(destinations[$0]))
            }
            if !empty.isEmpty { rows.append(row) }
            columns.formUnion(empty)
        }
        guard !rows.isEmpty else { return cells }
        let wanted = columns.sorted()
        for index in Set(rows.map { sources[$0] }) where moved.contains(index) {
            forwardLarge[index] = space(of: large[index]!, upwards: true)
        }
        for index in Set(wanted.map { destinations[$0] }) where moved.contains(index) {
            backwardLarge[index] = space(of: large[index]!, upwards: false)
        }
        var again = hierarchy.combine(
            rows.map { forwardLarge[sources[$0]] ?? forward[sources[$0]]! },
            wanted.map { backwardLarge[destinations[$0]] ?? backward[destinations[$0]]! })
        fixSharedEdges(&again, from: rows.map { large[sources[$0]]! }, to: wanted.map { large[destinations[$0]]! })
        for (at, row) in rows.enumerated() {
            for (place, column) in wanted.enumerated() where cells[row][column] == nil {
                guard moved.contains(sources[row]) || moved.contains(destinations[column]) else { continue }
                cells[row][column] = again[at][place]
            }
        }
        return cells
    }

    /// Where a table's search starts from `snap`: leaving (a source's, what is left ahead of
    /// each edge it may leave by) or arriving (a destination's, what is left of each edge it
    /// may arrive by taken back: the arc onto it counts it whole).
    private func starts(of snap: RoadGraph.Snap, leaving: Bool) -> [ContractionHierarchy.Label] {
        let lengths = graph.edgeLengths
        return (leaving ? departures(snap) : arrivals(snap)).map { edge, at in
            let part = Float(1 - at) * (leaving ? 1 : -1)
            return .init(
                node: edge, weight: part * graph.edgeWeight[Int(edge)], duration: part * graph.edgeDuration[Int(edge)],
                distance: part * lengths[Int(edge)])
        }
    }

    /// The cells whose two ends lie on one edge (rows from `sources`, columns to
    /// `destinations`), each a route of its own (along the edge or round): the hierarchy has no
    /// loop back to an edge it climbs from, and the destination may lie behind the source on it.
    private func fixSharedEdges(
        _ cells: inout [[ContractionHierarchy.Cell?]], from sources: [RoadGraph.Snap], to destinations: [RoadGraph.Snap]
    ) {
        let arriving = destinations.map { Set(arrivals($0).map(\.edge)) }
        for (row, source) in sources.enumerated() {
            let leaving = departures(source).map(\.edge)
            for (column, destination) in destinations.enumerated()
            where leaving.contains(where: arriving[column].contains) {
                cells[row][column] = leg(from: source, to: destination, weights: nil).map {
                    .init(weight: Float($0.duration), duration: Float($0.duration), distance: Float($0.distance))
                }
            }
        }
    }
}
