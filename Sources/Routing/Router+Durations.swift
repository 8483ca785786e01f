import GeoCore

extension Router {
    /// The seconds from `origin` to each of `targets`, up to `limit` seconds: what a journey
    /// planner needs to walk to every stop near a place. With a contraction hierarchy the origin
    /// is snapped once and searched upwards once, met with each target's backward search space
    /// (kept between calls: a planner asks for the same stops again and again); without one,
    /// each target is a route. A target off the network, in another piece of it, or beyond
    /// `limit` is nil.
    ///
    /// Times are the edges' weights and turn costs, as routes count them; ends are snapped as
    /// routes snap them (their nearest road), without routes' fallback to a large piece.
    public func durations(from origin: Coordinate, to targets: [Coordinate], limit: Double) throws -> [Double?] {
        guard let hierarchy else {
            return targets.map { target in
                (try? route([origin, target])).map(\.duration).flatMap { $0 <= limit ? $0 : nil }
            }
        }
        guard let start = try graph.snap(origin, within: Self.snapRadius) else {
            return Array(repeating: nil, count: targets.count)
        }
        let starts = departures(start)
        var ends: [[(edge: Int32, at: Double)]] = []
        for target in targets {
            ends.append(try graph.snap(target, within: Self.snapRadius).map(arrivals) ?? [])
        }
        let weight = { (edge: Int32) in self.graph.edgeWeight[Int(edge)] }
        let spaces = zip(targets, ends).map { target, arrivals in
            arrivals.isEmpty ? [] : backwardSpace(of: target, arrivals: arrivals, in: hierarchy)
        }
        let met = hierarchy.weights(from: starts.map { ($0.edge, Float(1 - $0.at) * weight($0.edge)) }, to: spaces)
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

    /// A target's backward search space in the hierarchy, made once and kept (up to
    /// ``maxKeptSpaces`` targets, then started afresh).
    private func backwardSpace(
        of target: Coordinate, arrivals: [(edge: Int32, at: Double)], in hierarchy: ContractionHierarchy
    ) -> [(node: Int32, weight: Float)] {
        if let kept = keptSpaces[target] { return kept }
        if keptSpaces.count >= Self.maxKeptSpaces { keptSpaces.removeAll(keepingCapacity: true) }
        let weight = { (edge: Int32) in self.graph.edgeWeight[Int(edge)] }
        let space = hierarchy.space(
            from: arrivals.map { ($0.edge, Float($0.at) * weight($0.edge) - weight($0.edge)) }, upwards: false)
        keptSpaces[target] = space
        return space
    }

    /// How many targets' search spaces a router keeps: 20,000 (a city's stops).
    static let maxKeptSpaces = 20_000
}
