/// Which way on from a junction goes without saying, as OSRM's guidance decides it: the road
/// that keeps its name where no other road looks as much like the way on; else the straightest
/// road of its class or better that stands apart from the rest; else the straightest road that
/// may be taken, where it stands apart and bends no more than 60° (or is the only one ahead).
/// A driver taking the obvious way hears nothing (or the new name); any other way is a turn,
/// or a `continue` where the road keeps its name.
extension Junction {
    /// A road's class as OSRM's profiles weigh it at junctions.
    struct RoadClass: Equatable {
        /// Priority, 0 for motorways down to 18 for footways and 31 for other ways (OSRM's
        /// road priority classes); a link is one below its road.
        var priority: Int
        var isLink: Bool
        /// A way only for getting somewhere (service roads, tracks, paths): never a main road
        /// at a junction.
        var isMinor: Bool
        var isMotorway: Bool
        /// Lanes both ways, 0 when untagged.
        var lanes: Int

        init(_ way: RoadGraph.WayInfo) {
            let highway = way.highway
            priority = Self.priorities[highway] ?? 31
            isLink = highway.hasSuffix("_link")
            isMinor = !Self.mainRoads.contains(highway)
            isMotorway = Self.motorways.contains(highway)
            lanes = way.lanes
        }

        static let priorities = [
            "motorway": 0, "motorway_link": 1, "trunk": 2, "trunk_link": 3, "primary": 4, "primary_link": 5,
            "secondary": 6, "secondary_link": 7, "tertiary": 8, "tertiary_link": 9, "residential": 10,
            "living_street": 11, "service": 12, "unclassified": 15, "track": 16, "path": 16, "cycleway": 16,
            "footway": 18, "pedestrian": 18, "steps": 18,
        ]

        static let motorways: Set<String> = ["motorway", "motorway_link", "trunk", "trunk_link"]

        static let mainRoads: Set<String> = [
            "motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary",
            "secondary_link", "tertiary", "tertiary_link", "unclassified", "residential", "living_street",
        ]

        /// The group of similar classes the priority belongs to: motorways, trunk roads, main
        /// roads, residential streets, unclassified roads, cycle paths, footways, the rest.
        var group: Int {
            switch priority {
            case 0...1: 0
            case 2...3: 1
            case 4...9: 2
            case 10...13: 3
            case 14...15: 4
            case 16...17: 5
            case 18: 6
            default: 7
            }
        }

        /// Whether this class is of a lower kind of road than `other` altogether.
        func isStrictlyBelow(_ other: RoadClass) -> Bool {
            if isMinor != other.isMinor { return isMinor }
            return group > other.group
        }

        /// Whether this road is the way on beside `other` by class alone, after a road of
        /// `arrival`'s class: it goes on in that class and `other` is of far less priority (over
        /// 1.75 times its number), or `other` is a minor way and neither this nor the road
        /// arrived by is.
        func isObvious(beside other: RoadClass, after arrival: RoadClass) -> Bool {
            (1.75 * Double(priority) < Double(other.priority) && arrival == self)
                || (!isMinor && !arrival.isMinor && other.isMinor)
        }

        /// Whether this is the link of `road`'s class (a primary link to a primary road).
        func isLink(to road: RoadClass) -> Bool {
            isLink && !road.isLink && priority <= 9 && priority == road.priority + 1
        }
    }

    /// A road at the junction for the question of what is obvious: a branch, or the road
    /// arrived by (at 180°).
    private struct Road {
        var angle: Double
        var way: Int32
        var enterable: Bool
        var restricted: Bool
        var roundabout: Bool
        var roadClass: RoadClass
    }

    /// Degrees between two directions, 0...180.
    private static func deviation(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return difference > 180 ? 360 - difference : difference
    }

    /// The index in ``branches`` of the way on that goes without saying, nil where none does.
    func obviousBranch() -> Int? {
        guard branches.count > 1 else { return branches.isEmpty ? nil : 0 }
        let wayInInfo = graph.ways[Int(wayIn)]
        let arrival = Road(
            angle: 180, way: wayIn, enterable: false, restricted: restrictedIn, roundabout: wayInInfo.isRoundabout,
            roadClass: RoadClass(wayInInfo))
        let roads = branches.map { branch in
            let info = graph.ways[Int(branch.way)]
            return Road(
                angle: branch.angle, way: branch.way, enterable: branch.enterable, restricted: branch.restricted,
                roundabout: info.isRoundabout, roadClass: RoadClass(info))
        }
        func named(_ way: Int32) -> Bool { NameChange.hasName(graph.ways[Int(way)]) }
        func renamed(_ from: Int32, _ to: Int32) -> Bool {
            NameChange(from: graph.ways[Int(from)], to: graph.ways[Int(to)]).isAnnounced
        }
        /// The straightest of the roads `keeps` keeps.
        func straightest(_ keeps: (Road) -> Bool) -> Int? {
            roads.indices.filter { keeps(roads[$0]) }.min { abs(roads[$0].angle) < abs(roads[$1].angle) }
        }
        /// The index, unless the road leaves or joins a roundabout the road arrived by is not of.
        func valid(_ index: Int) -> Int? { roads[index].roundabout == arrival.roundabout ? index : nil }
        let distinct = { (index: Int) in
            self.isDistinct(index, among: roads, arrival: arrival, renamed: renamed)
        }
        // The road going on by its name, of its class or better, not a link off it.
        let continuing = straightest { road in
            road.enterable && (named(wayIn) || arrival.roadClass.isMinor) && (named(road.way) || road.roadClass.isMinor)
                && named(wayIn) == named(road.way) && !road.roadClass.isStrictlyBelow(arrival.roadClass)
                && !road.roadClass.isLink(to: arrival.roadClass) && !renamed(wayIn, road.way)
        }
        if let continuing, distinct(continuing) { return valid(continuing) }
        // The straightest road of the class arrived by or better.
        let straightmost = straightest { road in
            road.enterable && !road.roadClass.isStrictlyBelow(arrival.roadClass)
                && !road.roadClass.isLink(to: arrival.roadClass)
        }
        if let straightmost, distinct(straightmost) { return valid(straightmost) }
        // The straightest road that may be taken, where it bends little or is the only way
        // ahead.
        guard let open = straightest({ $0.enterable }) else { return nil }
        let ahead = roads.count { abs($0.angle) <= 90 }
        let onlyAhead = abs(roads[open].angle) <= 90 && ahead == 1
        if open != straightmost, abs(roads[open].angle) <= 60 || onlyAhead, !roads[open].roadClass.isMinor,
            distinct(open)
        {
            return valid(open)
        }
        // A motorway's only way on, nearly straight.
        if roads[open].roadClass.isMotorway && abs(roads[open].angle) <= 60 && roads.count(where: \.enterable) == 1 {
            return valid(open)
        }
        // One road splitting in two of its own name, one of them one way against the route:
        // unless it ends in a T.
        let sameName = roads.allSatisfy { road in
            named(wayIn) && graph.ways[Int(road.way)].name == wayInInfo.name
                && graph.ways[Int(road.way)].ref == wayInInfo.ref
        }
        if roads.count == 2, sameName, roads.count(where: \.enterable) == 1 {
            let sorted = roads.sorted { $0.angle > $1.angle }
            if Self.deviation(sorted[0].angle, 90) > 40 || Self.deviation(sorted[1].angle, -90) > 40 {
                return valid(open)
            }
        }
        return nil
    }

    /// Whether road `index` stands apart from the others as the way on: for a road bending
    /// less than 60°, no other looks as much like the way on (one bending over twice as much
    /// and 12.5° more, or with another name where this keeps it, of a lower class, a link,
    /// restricted, or going on across the junction is not like it); for a wider turn, no other
    /// bends less than twice as much, whatever its class or access.
    private func isDistinct(
        _ index: Int, among roads: [Road], arrival: Road, renamed: (Int32, Int32) -> Bool
    ) -> Bool {
        let candidate = roads[index]
        let bend = abs(candidate.angle)
        let lowerClass = { (compare: Road) in
            (compare.roadClass.isStrictlyBelow(arrival.roadClass)
                && compare.roadClass.isStrictlyBelow(candidate.roadClass)
                && compare.roadClass.lanes > 0 && compare.roadClass.lanes + 1 < arrival.roadClass.lanes)
                || (compare.roadClass.isLink(to: arrival.roadClass)
                    && compare.roadClass.isLink(to: candidate.roadClass))
        }
        guard bend < 60 else {
            return !roads.indices.contains { other in
                guard other != index else { return false }
                let compare = roads[other]
                if abs(compare.angle) > 20 && lowerClass(compare) { return false }
                return abs(compare.angle) <= 2 * bend
            }
        }
        let keepsName = !renamed(wayIn, candidate.way)
        let all = roads + [arrival]
        return !roads.indices.contains { other in
            guard other != index else { return false }
            let compare = roads[other]
            if bend < 40 && !compare.enterable { return false }
            let compareBend = abs(compare.angle)
            let laneFork =
                compare.roadClass.lanes > 0 && candidate.roadClass.lanes == compare.roadClass.lanes
                && arrival.roadClass.lanes == candidate.roadClass.lanes + compare.roadClass.lanes
                && Self.deviation(candidate.angle, compare.angle) < 60
            let clearlyApart = compareBend > 2 * bend && abs(compareBend - bend) > 12.5
            let somewhatApart = compareBend > 1.4 * bend
            if !arrival.restricted && !candidate.restricted && compare.restricted && clearlyApart { return false }
            if arrival.roundabout == candidate.roundabout && arrival.roundabout != compare.roundabout
                && bend < compareBend
            {
                return false
            }
            let compareRenamed = renamed(wayIn, compare.way)
            if (keepsName || compareRenamed) && !laneFork && clearlyApart { return false }
            // The road across the junction from the other one: if it carries the other's name
            // on, or lies straight across, the other is a street crossing, not a way on.
            let across = all.min {
                Self.deviation($0.angle, compare.angle + 180) < Self.deviation($1.angle, compare.angle + 180)
            }!
            let acrossKeeps = !renamed(across.way, compare.way)
            let acrossAngle = Self.deviation(compare.angle, across.angle)
            let fourWays = all.count >= 4
            if fourWays && (acrossKeeps || acrossAngle > 140) && clearlyApart { return false }
            if fourWays && keepsName && compareRenamed && somewhatApart && acrossKeeps && acrossAngle > 155 {
                return false
            }
            if !fourWays && keepsName && compareRenamed && clearlyApart && !laneFork && acrossAngle > 120 {
                return false
            }
            // From a lesser road, any road clearly apart is not like the way on.
            if arrival.roadClass.priority > 6 && clearlyApart { return false }
            if candidate.roadClass.lanes > 0 && candidate.roadClass.lanes == arrival.roadClass.lanes && bend < 25
                && clearlyApart
            {
                return false
            }
            let samePriority = arrival.roadClass.priority == candidate.roadClass.priority
            if samePriority && keepsName && somewhatApart
                && (candidate.roadClass.priority < compare.roadClass.priority
                    || candidate.roadClass.priority > compare.roadClass.priority + 4)
            {
                return false
            }
            if lowerClass(compare) { return false }
            if samePriority && arrival.roadClass.group < compare.roadClass.group && renamed(candidate.way, compare.way)
                && compareRenamed
            {
                return false
            }
            if samePriority && compare.roadClass.isLink { return false }
            return true
        }
    }
}
