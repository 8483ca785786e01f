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
        /// The way's index in the graph.
        var way: Int32
        /// Whether the route may turn onto it here (the mode's access, one-way roads, turn
        /// restrictions).
        var enterable: Bool
        /// Whether the route takes it.
        var taken: Bool
        /// Whether its access is restricted (private, destination only: ``TravelProfile``).
        var restricted = false
    }

    let branches: [Branch]
    let graph: RoadGraph
    let wayIn: Int32
    /// Whether the road arrived by is restricted.
    let restrictedIn: Bool
    /// The junction's node, and the edge the route leaves it by.
    let node: Int
    let out: Int32

    /// The junction at the end of edge `into`, the route leaving by edge `out` at `angle`
    /// (the route's own heading change).
    init(graph: RoadGraph, into: Int32, out: Int32, angle: Double) {
        let node = Int(graph.edgeTo[Int(into)])
        let cameFrom = graph.edgeFrom[Int(into)]
        let heading = Double(Self.bearing(graph: graph, from: Int32(node), towards: cameFrom)) + 180
        self.graph = graph
        self.node = node
        self.out = out
        wayIn = graph.edgeWay[Int(into)]
        restrictedIn = graph.edgeRestricted[Int(into)]
        var branches: [Branch] = []
        var seen: [Int32] = [cameFrom]
        for edge in graph.outEdges(of: node) {
            let neighbour = graph.edgeTo[Int(edge)]
            guard !seen.contains(neighbour) || edge == out else { continue }
            seen.append(neighbour)
            let taken = edge == out
            branches.append(
                Branch(
                    angle: taken
                        ? angle
                        : RoadGraph.turn(
                            from: heading, to: Self.bearing(graph: graph, from: Int32(node), towards: neighbour)),
                    way: graph.edgeWay[Int(edge)], enterable: graph.allows(into, edge), taken: taken,
                    restricted: graph.edgeRestricted[Int(edge)]))
        }
        // Roads one may only arrive by (one-way towards the junction): there, but not enterable.
        for edge in graph.inEdges(of: node) {
            let neighbour = graph.edgeFrom[Int(edge)]
            guard !seen.contains(neighbour) else { continue }
            seen.append(neighbour)
            branches.append(
                Branch(
                    angle: RoadGraph.turn(
                        from: heading, to: Self.bearing(graph: graph, from: Int32(node), towards: neighbour)),
                    way: graph.edgeWay[Int(edge)], enterable: false, taken: false,
                    restricted: graph.edgeRestricted[Int(edge)]))
        }
        self.branches = branches
    }

    /// The heading from `node` along the road through its neighbour `towards`, degrees
    /// clockwise from north, to the point ``Guidance/lookAhead`` metres on (on past nodes where
    /// only that road goes on; the last node reached where the road meets another sooner), as
    /// ``Guidance/bearing(along:from:forward:)`` takes the route's own.
    static func bearing(graph: RoadGraph, from node: Int32, towards neighbour: Int32) -> Double {
        let origin = graph.positions[Int(node)]
        let plane = LocalPlane(around: origin)
        var previous = node
        var current = neighbour
        var travelled = 0.0
        while true {
            if let reached = Guidance.lookAheadPoint(
                on: plane, from: graph.positions[Int(previous)], to: graph.positions[Int(current)],
                travelled: &travelled)
            {
                return RoadGraph.bearing(origin, reached)
            }
            guard travelled < Guidance.lookAhead, graph.degree[Int(current)] == 2 else { break }
            var next: Int32 = -1
            for edge in graph.outEdges(of: Int(current)) where graph.edgeTo[Int(edge)] != previous {
                next = graph.edgeTo[Int(edge)]
            }
            if next < 0 {
                for edge in graph.inEdges(of: Int(current)) where graph.edgeFrom[Int(edge)] != previous {
                    next = graph.edgeFrom[Int(edge)]
                }
            }
            guard next >= 0 else { break }
            previous = current
            current = next
        }
        return RoadGraph.bearing(origin, graph.positions[Int(current)])
    }

    /// A road's class (its `highway`) as a rank, 0 for motorways up to 14 for paths; a link
    /// ranks just below its road.
    static func rank(of highway: String) -> Int {
        let base = highway.hasSuffix("_link") ? String(highway.dropLast(5)) : highway
        return (classRanks[base] ?? 7) * 2 + (base == highway ? 0 : 1)
    }

    /// Road classes by importance, 0 for motorways; paths and the rest are 7.
    private static let classRanks = [
        "motorway": 0, "trunk": 1, "primary": 2, "secondary": 3, "tertiary": 4, "unclassified": 5, "residential": 5,
        "living_street": 5, "service": 6, "track": 7,
    ]

    /// Whether a rank is a link's (a ramp or slip road).
    static func isLink(_ rank: Int) -> Bool { rank % 2 == 1 }

    /// Whether a rank is a motorway's or a trunk road's (not their links).
    static func isFast(_ rank: Int) -> Bool { rank == 0 || rank == 2 }

    /// Whether a rank is a motorway's or a trunk road's link.
    static func isFastLink(_ rank: Int) -> Bool { rank == 1 || rank == 3 }

    /// A way's rank, by its index.
    func rank(_ way: Int32) -> Int { Int(graph.wayRank[Int(way)]) }

    /// Whether a way is a link (a ramp or slip road), by its index.
    func isLink(_ way: Int32) -> Bool { Self.isLink(rank(way)) }

    /// The rank of service roads (driveways, parking aisles, alleys): below it, the roads a
    /// roundabout's exits are counted by.
    static let serviceRank = 12

    /// The rank of footways, paths, cycleways, steps and the like: they fork and end at no T;
    /// their junctions are turns.
    static let pathRank = 14

    /// Whether the road `taken` goes on through the junction: another road of its class, within
    /// 20° of straight across from it, carries its name.
    func isThroughStreet(_ taken: Branch) -> Bool {
        branches.contains { other in
            guard !other.taken, rank(other.way) == rank(taken.way) else { return false }
            return abs(RoadGraph.turn(from: taken.angle, to: other.angle)) > 160
                && NameChange.isSameRoad(graph.ways[Int(taken.way)], graph.ways[Int(other.way)])
        }
    }

    /// The direction of a turn onto a through street: straight within 40° where the road taken
    /// runs on more than 60 m to the graph's next node (not a short link between two junctions),
    /// as OSRM says it; else the turn's own.
    func throughModifier(_ taken: Branch) -> Maneuver.Modifier {
        let onward = graph.positions[node].distance(to: graph.positions[Int(graph.edgeTo[Int(out)])])
        return abs(taken.angle) < 40 && onward > 60 ? .straight : Maneuver.Modifier(angle: taken.angle)
    }

    /// Whether a slip road joins a road whose traffic comes through the junction: a road of the
    /// class joined, of its name or ref, arrives from across it. A slip road onto a road that
    /// begins there is a new name, not a merge, as OSRM tells it.
    func joinsThroughTraffic() -> Bool {
        guard let taken = branches.first(where: \.taken) else { return false }
        return isThroughStreet(taken)
    }

    /// What is said where a motorway ends among slip roads, as OSRM tells it.
    enum MotorwayEnd: Equatable {
        /// Two slip roads go on: a fork, kept to this side.
        case fork(Maneuver.Modifier)
        /// One slip road goes on: nothing.
        case nothing
    }

    /// Where a motorway or trunk road ends among slip roads (every road there a slip road or a
    /// road of its class, none of its class open onward, those open within 60° of straight
    /// on): what is said there. Nil where the motorway goes on or other roads meet.
    func motorwayEnd() -> MotorwayEnd? {
        guard Self.isFast(rank(wayIn)),
            branches.allSatisfy({ isLink($0.way) || Self.isFast(rank($0.way)) }),
            !branches.contains(where: { $0.enterable && Self.isFast(rank($0.way)) }),
            branches.allSatisfy({ !$0.enterable || abs($0.angle) <= 60 }),
            let taken = branches.first(where: \.taken)
        else { return nil }
        let onward = branches.filter { !$0.taken && $0.enterable }
        guard branches.count == 2, let other = onward.first else { return .nothing }
        return .fork(.slight(taken.angle, beside: other.angle))
    }

    /// The side an exit leaves a fast road by: of the fast road going on, where it does (a
    /// curving motorway's exit may leave straight ahead and still be on its right); else of
    /// straight on.
    func rampSide() -> Maneuver.Modifier {
        guard let taken = branches.first(where: \.taken) else { return .slightRight }
        let onward = branches.filter { !$0.taken && $0.enterable && Self.isFast(rank($0.way)) && abs($0.angle) <= 40 }
            .min { abs($0.angle) < abs($1.angle) }
        return .slight(taken.angle, beside: onward?.angle ?? 0)
    }

    /// What is said here of the route's way on, nil for nothing (an obvious way on).
    func maneuver() -> (kind: Maneuver.Kind, modifier: Maneuver.Modifier)? {
        guard let taken = branches.first(where: \.taken) else { return nil }
        let others = branches.filter { !$0.taken && $0.enterable }
        let deviation = abs(taken.angle)
        let wayInInfo = graph.ways[Int(wayIn)]
        // A new name as OSRM says one (``NameChange``); the same road where both have a name or
        // a ref and it is not.
        let renamed = NameChange(from: wayInInfo, to: graph.ways[Int(taken.way)]).isAnnounced
        let modifier = Maneuver.Modifier(angle: taken.angle)
        // Nothing else to take: a bend, or a new name (as OSRM tells the only way on, however
        // sharp); a turn where other roads meet that the route may not enter (one-way against it).
        if others.isEmpty {
            if branches.count > 1 && deviation > 45 { return (.turn, modifier) }
            guard renamed else { return nil }
            return isThroughStreet(taken) ? (.turn, throughModifier(taken)) : (.newName, modifier)
        }
        // A link splitting in two links: a fork, whichever keeps the name (as OSRM tells ramps
        // apart where three links meet).
        let fork = forkSide(taken, others: others)
        if let fork, branches.count == 2, isLink(wayIn), branches.allSatisfy({ isLink($0.way) }) {
            return (.fork, fork)
        }
        // The way on that goes without saying (``obviousBranch()``): nothing, or its new name.
        let obvious = obviousBranch()
        if let obvious, branches[obvious].taken {
            guard renamed else { return nil }
            // Onto a street that goes on through the junction on the other side: a turn onto it,
            // however straight, as OSRM says it.
            return isThroughStreet(taken) ? (.turn, throughModifier(taken)) : (.newName, modifier)
        }
        // Two ways ahead, neither obvious: a fork.
        if let fork { return (.fork, fork) }
        // A T: the road arrived by ends, one road left and one right (whether enterable or not),
        // each within 20° of square (at wider angles OSRM mostly says a turn).
        if branches.count == 2, branches.allSatisfy({ (70...110).contains(abs($0.angle)) }),
            (branches[0].angle < 0) != (branches[1].angle < 0)
        {
            return (.endOfRoad, modifier)
        }
        // Else a turn; along the road's own name, a continue. Where a link and its road part,
        // three roads meeting, both straight on and the other the obvious way: a slight turn to
        // its side, as OSRM says (and the lanes that side lead there).
        var side = modifier
        if let obvious, branches.count == 2, modifier == .straight, isLink(taken.way) != isLink(branches[obvious].way),
            Maneuver.Modifier(angle: branches[obvious].angle) == .straight
        {
            side = .slight(taken.angle, beside: branches[obvious].angle)
        }
        let (nameIn, nameOut) = (wayInInfo.name ?? "", graph.ways[Int(taken.way)].name ?? "")
        return !nameIn.isEmpty && !nameOut.isEmpty && !renamed ? (.continue, side) : (.turn, side)
    }

    /// The side of a fork the route keeps to where `taken` and one other road are the two ways
    /// ahead (within 40° of straight on, every other road 90° off or more): of classes that
    /// fork (``isFork(_:_:)``), not paths, neither clearly the straighter; nil where they are
    /// not a fork.
    func forkSide(_ taken: Branch, others: [Branch]) -> Maneuver.Modifier? {
        let ahead = others.filter { abs($0.angle) <= 40 }
        let rank = self.rank(taken.way)
        guard abs(taken.angle) <= 40, ahead.count == 1, let other = ahead.first, abs(self.rank(other.way) - rank) <= 2,
            rank < Self.pathRank, isFork(taken, other),
            others.allSatisfy({ abs($0.angle) <= 40 || abs($0.angle) >= 90 }),
            !Self.isMuchStraighter(taken.angle, than: other.angle),
            !Self.isMuchStraighter(other.angle, than: taken.angle)
        else { return nil }
        return .slight(taken.angle, beside: other.angle)
    }

    /// Whether two roads ahead can be a fork by their classes, as OSRM tells: both links or
    /// neither, and neither the way on by its class alone (``RoadClass/isObvious(beside:after:)``).
    func isFork(_ one: Branch, _ other: Branch) -> Bool {
        let (a, b) = (RoadClass(graph.ways[Int(one.way)]), RoadClass(graph.ways[Int(other.way)]))
        let arrival = RoadClass(graph.ways[Int(wayIn)])
        return a.isLink == b.isLink && !a.isObvious(beside: b, after: arrival)
            && !b.isObvious(beside: a, after: arrival)
    }

    /// Whether a road at `angle` from straight on is clearly the way on beside one at `other`
    /// (degrees, either side): the other bends over 25° and 40 % more, as OSRM tells a fork's
    /// two roads apart.
    static func isMuchStraighter(_ angle: Double, than other: Double) -> Bool {
        abs(other) > 1.4 * abs(angle) && abs(other) - abs(angle) > 25
    }
}
