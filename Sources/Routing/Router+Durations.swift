import GeoCore

extension Router {
    /// The seconds from `origin` to each of `targets`, up to `limit` seconds: what a journey
    /// planner needs to walk to every stop near a place. The origin is snapped once; each target
    /// is a query of the contraction hierarchy where the graph has one, else all are found by
    /// one search over the graph of turns (Dijkstra from the origin). A target off the network,
    /// in another piece of it, or beyond `limit` is nil.
    ///
    /// Times are the edges' durations and turn costs, as routes count them; ends are snapped as
    /// routes snap them (their nearest road), without routes' fallback to a large piece.
    public func durations(from origin: Coordinate, to targets: [Coordinate], limit: Double) throws -> [Double?] {
        guard let start = try graph.snap(origin, within: Self.snapRadius) else {
            return Array(repeating: nil, count: targets.count)
        }
        var ends: [[(edge: Int32, at: Double)]] = []
        for target in targets {
            ends.append(try graph.snap(target, within: Self.snapRadius).map(arrivalEdges) ?? [])
        }
        // With a hierarchy: the origin's upward search, met with each target's backward search
        // space (kept between calls: a journey planner asks for the same stops again and again).
        if let hierarchy {
            let starts = departureEdges(start)
            let weight = { (edge: Int32) in self.graph.edgeWeight[Int(edge)] }
            let spaces = zip(targets, ends).map { target, arrivals in
                arrivals.isEmpty ? [] : backwardSpace(of: target, arrivals: arrivals, in: hierarchy)
            }
            let met = hierarchy.weights(
                from: starts.map { ($0.edge, Float(1 - $0.at) * weight($0.edge)) }, to: spaces)
            return ends.indices.map { index -> Double? in
                var best = met[index]
                // Both on one edge, the target ahead: along it.
                for (edge, from) in starts {
                    for (other, to) in ends[index] where other == edge && to >= from {
                        best = min(best, Float(to - from) * weight(edge))
                    }
                }
                return Double(best) <= limit ? Double(best) : nil
            }
        }
        // Per edge: the cheapest time at its start (after the turn into it), and at its end.
        let labels = durationLabels ?? DurationLabels(edges: graph.edgeCount)
        durationLabels = labels
        labels.next()
        var queue = MinQueue()
        let starts = departureEdges(start)
        for (edge, at) in starts {
            let cost = Float(1 - at) * graph.edgeDuration[Int(edge)]
            if cost < labels.end(edge) {
                labels.setEnd(edge, cost)
                queue.push(edge, cost)
            }
        }
        let bound = Float(limit)
        while let (edge, cost) = queue.pop() {
            guard cost <= labels.end(edge) else { continue }
            guard cost <= bound else { break }
            let node = Int(graph.edgeTo[Int(edge)])
            for out in graph.outEdges(of: node) where graph.allows(edge, out) {
                let entered = cost + graph.turnWeight(edge, out)
                if entered < labels.start(out) { labels.setStart(out, entered) }
                let through = entered + graph.edgeDuration[Int(out)]
                if through < labels.end(out) {
                    labels.setEnd(out, through)
                    queue.push(out, through)
                }
            }
        }
        return ends.map { arrivals in
            var best = Float.infinity
            for (edge, at) in arrivals {
                best = min(best, labels.start(edge) + Float(at) * graph.edgeDuration[Int(edge)])
                // On the origin's own edge, ahead of it.
                for (startEdge, from) in starts where startEdge == edge && at >= from {
                    best = min(best, Float(at - from) * graph.edgeDuration[Int(edge)])
                }
            }
            return best <= bound ? Double(best) : nil
        }
    }

    /// A target's backward search space in the hierarchy, made once and kept (up to
    /// ``maxKeptSpaces`` targets, then started afresh).
    private func backwardSpace(
        of target: Coordinate, arrivals: [(edge: Int32, at: Double)], in hierarchy: ContractionHierarchy
    ) -> [(node: Int32, weight: Float)] {
        let key = TargetKey(target)
        if let kept = keptSpaces[key] { return kept }
        if keptSpaces.count >= Self.maxKeptSpaces { keptSpaces.removeAll(keepingCapacity: true) }
        let weight = { (edge: Int32) in self.graph.edgeWeight[Int(edge)] }
        let space = hierarchy.space(
            from: arrivals.map { ($0.edge, Float($0.at) * weight($0.edge) - weight($0.edge)) }, upwards: false)
        keptSpaces[key] = space
        return space
    }

    /// How many targets' search spaces a router keeps: 20,000 (a city's stops).
    static let maxKeptSpaces = 20_000

    /// The edges a route may leave a snap by, and where along each it starts.
    private func departureEdges(_ snap: RoadGraph.Snap) -> [(edge: Int32, at: Double)] {
        let segment = graph.segments[Int(snap.segment)]
        var options: [(edge: Int32, at: Double)] = []
        if segment.forward >= 0 { options.append((segment.forward, snap.fraction)) }
        if segment.backward >= 0 { options.append((segment.backward, 1 - snap.fraction)) }
        return options
    }

    /// The edges a route may arrive at a snap by, and where along each it ends.
    private func arrivalEdges(_ snap: RoadGraph.Snap) -> [(edge: Int32, at: Double)] { departureEdges(snap) }
}

/// A binary heap of edges by cost, cheapest first (stale entries are skipped by the caller).
private struct MinQueue {
    private var items: [(edge: Int32, cost: Float)] = []

    mutating func push(_ edge: Int32, _ cost: Float) {
        items.append((edge, cost))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].cost < items[parent].cost else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (Int32, Float)? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count, items[left].cost < items[smallest].cost { smallest = left }
                if right < items.count, items[right].cost < items[smallest].cost { smallest = right }
                guard smallest != parent else { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (first.edge, first.cost)
    }
}

/// The labels of one-to-many searches on edges, kept between searches: a label counts only when
/// stamped with the current search's number, so a search starts without clearing anything.
final class DurationLabels {
    private var atStart: [Float]
    private var atEnd: [Float]
    private var startStamp: [UInt32]
    private var endStamp: [UInt32]
    private var current: UInt32 = 0

    init(edges: Int) {
        atStart = Array(repeating: .infinity, count: edges)
        atEnd = Array(repeating: .infinity, count: edges)
        startStamp = Array(repeating: 0, count: edges)
        endStamp = Array(repeating: 0, count: edges)
    }

    /// Starts a new search.
    func next() {
        current &+= 1
        if current == 0 {
            startStamp = startStamp.map { _ in 0 }
            endStamp = endStamp.map { _ in 0 }
            current = 1
        }
    }

    func start(_ edge: Int32) -> Float { startStamp[Int(edge)] == current ? atStart[Int(edge)] : .infinity }
    func end(_ edge: Int32) -> Float { endStamp[Int(edge)] == current ? atEnd[Int(edge)] : .infinity }

    func setStart(_ edge: Int32, _ value: Float) {
        atStart[Int(edge)] = value
        startStamp[Int(edge)] = current
    }

    func setEnd(_ edge: Int32, _ value: Float) {
        atEnd[Int(edge)] = value
        endStamp[Int(edge)] = current
    }
}

/// A target as a key of the kept search spaces: its coordinate's bits.
struct TargetKey: Hashable {
    var latitude: UInt64
    var longitude: UInt64
    init(_ point: Coordinate) {
        latitude = point.latitude.bitPattern
        longitude = point.longitude.bitPattern
    }
}
