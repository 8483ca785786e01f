import GeoCore

/// A junction on a route as guidance sees it: every road that meets it but the one arrived by,
/// each with its turn angle from the arrival's heading, whether the route may enter it, and
/// its class. From these it says what to tell a driver or walker there, if anything:
/// nothing where the way on is obvious (the road goes on, or is clearly the straightest of
/// its rank), a new name where an obvious way changes it, a fork between two ways ahead, the
/// end of the road at a T, and a turn otherwise.
struct Junction {
    /// A road leaving the junction.
    struct Branch {
        /// Turn from the arrival's heading, -180...180 degrees, positive to the right, taken
        /// ``Guidance/lookAhead`` along the road.
        var angle: Double
        var way: RoadGraph.WayInfo
        /// Whether the route may turn onto it here (the mode's access, one-way roads, turn
        /// restrictions).
        var enterable: Bool
        /// Whether the route takes it.
        var taken: Bool
    }

    let branches: [Branch]
    let wayIn: RoadGraph.WayInfo

    /// The junction at the end of edge `into`, the route leaving by edge `out` at `angle`
    /// (the route's own heading change).
    init(graph: RoadGraph, into: Int32, out: Int32, angle: Double) {
        let node = Int(graph.edgeTo[Int(into)])
        let cameFrom = graph.edgeFrom[Int(into)]
        let heading = Double(Self.bearing(graph: graph, from: Int32(node), towards: cameFrom)) + 180
        wayIn = graph.ways[Int(graph.edgeWay[Int(into)])]
        var branches: [Branch] = []
        var seen: Set<Int32> = [cameFrom]
        for edge in graph.outEdges(of: node) {
            let neighbour = graph.edgeTo[Int(edge)]
            guard seen.insert(neighbour).inserted || edge == out else { continue }
            let taken = edge == out
            branches.append(
                Branch(
                    angle: taken
                        ? angle
                        : RoadGraph.turn(
                            from: heading, to: Self.bearing(graph: graph, from: Int32(node), towards: neighbour)),
                    way: graph.ways[Int(graph.edgeWay[Int(edge)])], enterable: graph.allows(into, edge), taken: taken))
        }
        // Roads one may only arrive by (one-way towards the junction): there, but not enterable.
        for edge in graph.inEdges(of: node) {
            let neighbour = graph.edgeFrom[Int(edge)]
            guard seen.insert(neighbour).inserted else { continue }
            branches.append(
                Branch(
                    angle: RoadGraph.turn(
                        from: heading, to: Self.bearing(graph: graph, from: Int32(node), towards: neighbour)),
                    way: graph.ways[Int(graph.edgeWay[Int(edge)])], enterable: false, taken: false))
        }
        self.branches = branches
    }

    /// The heading from `node` along the road through its neighbour `towards`, degrees
    /// clockwise from north, taken ``Guidance/lookAhead`` metres on (on past nodes where only
    /// that road goes on), so that a short kink at the junction does not pass for the road's
    /// direction.
    static func bearing(graph: RoadGraph, from node: Int32, towards neighbour: Int32) -> Double {
        let origin = graph.positions[Int(node)]
        var previous = node
        var current = neighbour
        var travelled = origin.distance(to: graph.positions[Int(neighbour)])
        while travelled < Guidance.lookAhead && graph.degree[Int(current)] == 2 {
            let around =
                graph.outEdges(of: Int(current)).map { graph.edgeTo[Int($0)] }
                + graph.inEdges(of: Int(current)).map { graph.edgeFrom[Int($0)] }
            guard let next = around.first(where: { $0 != previous }) else { break }
            travelled += graph.positions[Int(current)].distance(to: graph.positions[Int(next)])
            previous = current
            current = next
        }
        return RoadGraph.bearing(origin, graph.positions[Int(current)])
    }

    /// A road's class as a rank, 0 for motorways up to 14 for paths; a link ranks just below
    /// its road.
    static func rank(_ way: RoadGraph.WayInfo) -> Int {
        let base = way.highway.hasSuffix("_link") ? String(way.highway.dropLast(5)) : way.highway
        let ranks = [
            "motorway": 0, "trunk": 1, "primary": 2, "secondary": 3, "tertiary": 4, "unclassified": 5,
            "residential": 5, "living_street": 6, "service": 6, "track": 7,
        ]
        return (ranks[base] ?? 7) * 2 + (base == way.highway ? 0 : 1)
    }

    static func isLink(_ way: RoadGraph.WayInfo) -> Bool { way.highway.hasSuffix("_link") }

    /// The rank of footways, paths, cycleways, steps and the like: they fork and end at no T;
    /// their junctions are turns.
    static let pathRank = 14

    /// What is said here of the route's way on, nil for nothing (an obvious way on).
    func maneuver() -> (kind: Maneuver.Kind, modifier: Maneuver.Modifier)? {
        guard let taken = branches.first(where: \.taken) else { return nil }
        let others = branches.filter { !$0.taken && $0.enterable }
        let deviation = abs(taken.angle)
        let label = Guidance.label(taken.way)
        let arrivedLabel = Guidance.label(wayIn)
        let keepsName = !arrivedLabel.isEmpty && label == arrivedLabel
        // A new name is said unless the road keeps its ref (a numbered road's local names).
        let keepsRef = taken.way.ref != nil && taken.way.ref == wayIn.ref
        let renamed = !label.isEmpty && !keepsName && !keepsRef
        let modifier = Maneuver.Modifier(angle: taken.angle)
        let rank = Self.rank(taken.way)
        // Nothing else to take: a bend, or a new name; a turn onto another road, or where other
        // roads meet that the route may not enter (one-way against it).
        if others.isEmpty {
            if (branches.count > 1 || renamed) && deviation > 45 { return (.turn, modifier) }
            return renamed ? (.newName, deviation <= 20 ? .straight : modifier) : nil
        }
        let comparable = others.filter { Self.rank($0.way) <= rank + 2 }
        let straighter = comparable.contains { abs($0.angle) + 20 < deviation }
        // The road goes on (its name or its ref; no other way keeps them): said only where it
        // bends off a straighter way of its rank.
        let goesOn = { (way: RoadGraph.WayInfo) in
            (!arrivedLabel.isEmpty && Guidance.label(way) == arrivedLabel) || (way.ref != nil && way.ref == wayIn.ref)
        }
        if goesOn(taken.way) && !others.contains(where: { goesOn($0.way) }) && deviation <= 100 {
            if straighter && deviation > 30 { return (.continue, modifier) }
            return renamed ? (.newName, deviation <= 20 ? .straight : modifier) : nil
        }
        // The clearly straightest way of its rank, or the only one of its rank ahead.
        let obvious =
            deviation <= 30
            && others.allSatisfy { other in
                (abs(other.angle) >= deviation + 30 && (rank >= Self.pathRank || Self.rank(other.way) >= rank - 2))
                    || ((Self.rank(other.way) > rank + 2 || Self.isLink(other.way) && !Self.isLink(taken.way))
                        && abs(other.angle) > deviation)
            }
        if obvious { return renamed ? (.newName, deviation <= 20 ? .straight : modifier) : nil }
        // Two ways ahead, neither obvious: a fork, kept by the side the route takes.
        let ahead = others.filter { abs($0.angle) <= 40 }
        if deviation <= 40, ahead.count == 1, let other = ahead.first, abs(Self.rank(other.way) - rank) <= 2,
            rank < Self.pathRank,
            others.allSatisfy({ abs($0.angle) <= 40 || abs($0.angle) >= 90 })
        {
            return (.fork, taken.angle < other.angle ? .slightLeft : .slightRight)
        }
        // A T: the road arrived by ends, one way left and one right.
        let physical = branches
        if physical.count == 2, physical.allSatisfy({ (60...120).contains(abs($0.angle)) }),
            (physical[0].angle < 0) != (physical[1].angle < 0)
        {
            return (.endOfRoad, modifier)
        }
        return (.turn, modifier)
    }
}
