import Foundation
import GeoCore

/// A manoeuvre where a route's step begins, in OSRM's vocabulary (`maneuver.type` and
/// `modifier`), with Google's name for it.
public struct Maneuver: Sendable, Equatable {
    /// The manoeuvre's type, as OSRM's `maneuver.type` writes it (the raw value).
    public enum Kind: String, Sendable, CaseIterable {
        case depart, arrive, turn, `continue`
        case newName = "new name"
        case merge
        case onRamp = "on ramp"
        case offRamp = "off ramp"
        case fork
        case endOfRoad = "end of road"
        case roundabout
        case notification
    }

    /// The direction of a manoeuvre, from the angle of the turn.
    public enum Modifier: String, Sendable, CaseIterable {
        case uturn
        case sharpRight = "sharp right"
        case right
        case slightRight = "slight right"
        case straight
        case slightLeft = "slight left"
        case left
        case sharpLeft = "sharp left"

        /// The modifier of a turn of `angle` degrees (-180...180, positive to the right), at
        /// OSRM's angles: straight within 20°, slight to 40°, plain below 120°, sharp below
        /// 178°, then a u-turn.
        public init(angle: Double) {
            let size = abs(angle)
            switch size {
            case ...20: self = .straight
            case ...40: self = angle > 0 ? .slightRight : .slightLeft
            case ..<120: self = angle > 0 ? .right : .left
            case ..<178: self = angle > 0 ? .sharpRight : .sharpLeft
            default: self = .uturn
            }
        }

        var isLeft: Bool { [.slightLeft, .left, .sharpLeft].contains(self) }

        /// Slight left where a road at `angle` lies left of one at `other` (degrees, positive to
        /// the right; straight on by default), else slight right: the side of a fork or a ramp.
        static func slight(_ angle: Double, beside other: Double = 0) -> Modifier {
            angle < other ? .slightLeft : .slightRight
        }
    }

    /// What kind of manoeuvre.
    public var kind: Kind
    /// Its direction; nil for depart and arrive where there is none.
    public var modifier: Modifier?
    /// The exit taken, for a roundabout (1 the first).
    public var exit: Int?
    /// Where it is, and the headings before and after (degrees clockwise from north, 0...360).
    public var location: Coordinate
    /// The heading arriving, degrees clockwise from north, 0...360.
    public var bearingBefore: Double
    /// The heading leaving, degrees clockwise from north, 0...360.
    public var bearingAfter: Double
    /// For a notification: the way of travel it begins (`ferry`, or the mode after one).
    public var mode: String?
    /// For a roundabout: what OSRM calls it (its `maneuver.type`); nil for other kinds.
    public var ring: Ring? = nil

    /// OSRM's `maneuver.type`: the kind's, a roundabout's ``Ring``'s.
    public var osrmType: String { kind == .roundabout ? (ring ?? .roundabout).rawValue : kind.rawValue }

    /// Google's name for it: `turn-slight-left`, `roundabout-right`, `ramp-left`, `fork-right`,
    /// `merge`, `ferry`, `straight`, … (empty for depart and arrive).
    public var googleName: String {
        let side = modifier?.isLeft == true ? "left" : "right"
        switch kind {
        case .depart, .arrive: return ""
        case .turn, .continue, .endOfRoad, .newName:
            switch modifier ?? .straight {
            case .straight: return "straight"
            case .uturn: return "uturn-\(side)"
            case .left, .right: return "turn-\(side)"
            case .slightLeft, .slightRight: return "turn-slight-\(side)"
            case .sharpLeft, .sharpRight: return "turn-sharp-\(side)"
            }
        case .merge: return "merge"
        case .onRamp, .offRamp: return "ramp-\(side)"
        case .fork: return "fork-\(side)"
        case .roundabout: return "roundabout-\(side)"
        case .notification: return mode == "ferry" ? "ferry" : "straight"
        }
    }
}

/// A step of a route: a manoeuvre and the way followed after it, up to the next one.
public struct Step: Sendable {
    /// The manoeuvre the step begins with.
    public var maneuver: Maneuver
    /// The road's name and ref after the manoeuvre ("" when it has none), and its signposted
    /// destinations (`destination:ref: destination`) for ramps and forks.
    public var name: String
    /// The road's ref after the manoeuvre (`E18`, `D6007`); "" when it has none.
    public var ref: String
    /// The signposted destinations, for ramps and forks; "" when none are tagged.
    public var destinations: String
    /// The exit numbers of the road taken (`junction:ref` of a slip road: `12`, or `12; 13` for
    /// `12;13`, as OSRM writes them); "" when none are tagged.
    public var exits = ""
    /// Metres and seconds to the next manoeuvre.
    public var distance: Double
    /// Seconds to the next manoeuvre.
    public var duration: Double
    /// The positions from this manoeuvre to the next.
    public var geometry: [Coordinate]
    /// `driving`, `walking`, `cycling`, `pushing bike` or `ferry`.
    public var mode: String
    /// The nodes where roads meet along the step, as OSRM's `intersections` list them: the
    /// manoeuvre's first (the departure's and the arrival's point for those), then each node
    /// passed where three roads or more meet.
    public var intersections: [Intersection]
    /// The lanes of the road arriving at the manoeuvre, left to right, where `turn:lanes` tags
    /// them: each lane's arrows and whether it leads where the route goes.
    public var lanes: [Lane] = []
    /// For a roundabout whose ring has a name of its own (a rotary, in OSRM's words: "Enter
    /// Place de l'Étoile and take the 3rd exit"): that name; "" otherwise.
    public var rotaryName = ""

    /// A node where roads meet, as OSRM's `intersections` describe it: every road there of the
    /// mode's network, whether the route could take it, and which it came by and took.
    public struct Intersection: Sendable, Equatable {
        /// The node's position.
        public var location: Coordinate
        /// Each road's direction out of the node, whole degrees clockwise from north (0..<360),
        /// ascending: the way arrived by is among them, pointing back along it.
        public var bearings: [Int]
        /// For each of `bearings`, whether the road can be taken from the way arrived by (an
        /// allowed turn: not a one-way road against its direction, a banned turn or a u-turn
        /// the profile forbids).
        public var entry: [Bool]
        /// The index in `bearings` of the way arrived by (OSRM's `in`); nil at the departure.
        public var arrival: Int?
        /// The index in `bearings` of the way taken (OSRM's `out`); nil at the arrival.
        public var departure: Int?
        /// What the way taken is, in the words of OSRM's profiles: `toll`, `motorway`, `ferry`,
        /// `restricted` (private or destination-only access); empty for none.
        public var classes: [String] = []
    }

    /// A lane as `turn:lanes` draws it.
    public struct Lane: Sendable, Equatable {
        /// Its arrows: `left`, `slight_left`, `through`, `right`, … (`none` when unmarked).
        public var indications: [String]
        /// Whether the lane leads where the route goes.
        public var valid: Bool
    }

    /// The lanes `turn:lanes` tags (`left|through;right|`), each valid when one of its arrows
    /// goes the manoeuvre's way.
    static func lanes(_ tag: String, for modifier: Maneuver.Modifier) -> [Lane] {
        let wanted: Set<String> =
            switch modifier {
            case .straight: ["through", "none"]
            case .slightLeft: ["slight_left", "left"]
            case .left: ["left"]
            case .sharpLeft: ["sharp_left", "left"]
            case .slightRight: ["slight_right", "right"]
            case .right: ["right"]
            case .sharpRight: ["sharp_right", "right"]
            case .uturn: ["reverse"]
            }
        return tag.split(separator: "|", omittingEmptySubsequences: false).map { lane in
            let arrows = lane.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let indications = arrows.isEmpty || arrows == [""] ? ["none"] : arrows
            return Lane(indications: indications, valid: !wanted.isDisjoint(with: indications))
        }
    }
}

/// Turn-by-turn steps from a route's edges and the graph: where to turn, keep, merge or take a
/// roundabout's exit, with the obvious manoeuvres left out (a road keeping its name through a
/// junction, a bend) and those people need kept (the road followed bending off where another
/// goes straight on).
///
/// The steps follow OSRM's types and modifiers (roundabouts classified by ``Ring``), with two
/// differences kept on purpose: a very short step (a footway's jog across a street, a divided
/// road's two carriageways) is folded into one turn where OSRM says two, and a roundabout is
/// one step to its exit, without OSRM's separate `exit roundabout` step.
enum Guidance {
    /// How far along the route a manoeuvre's headings are taken: 10 m, as OSRM takes a road's
    /// heading at a junction (its coordinate 10 m along the road, not the first vertex).
    static let lookAhead = 10.0
    /// OSRM's headings at a junction as its answers carry them: 15° steps (24 to the circle).
    static let headingStep = 15.0

    static func steps(of leg: Route.Leg, graph: RoadGraph, mode: TravelProfile.Mode, destination: Coordinate?) -> [Step]
    {
        let chain = leg.edges
        guard !chain.isEmpty else { return [] }
        // Where each edge's end lies in the leg's geometry.
        var ends: [Int] = []
        var index = 0
        for position in 0..<chain.count {
            if leg.edgeDistances[position] > 0 { index += 1 }
            ends.append(min(index, leg.geometry.count - 1))
        }
        var boundaries: [(position: Int, maneuver: Maneuver)] = []
        /// The names of the rotaries entered, by the position of their boundary.
        var rotaryNames: [Int: String] = [:]
        let departBearing = bearing(along: leg.geometry, from: 0, forward: true)
        boundaries.append(
            (
                0,
                Maneuver(
                    kind: .depart, modifier: nil, exit: nil, location: leg.geometry[0], bearingBefore: 0,
                    bearingAfter: normalized(departBearing), mode: nil)
            ))
        var position = 1
        while position < chain.count {
            let into = chain[position - 1]
            let out = chain[position]
            let node = Int(graph.edgeTo[Int(into)])
            // Along one way through a node where nothing else meets: nothing to say.
            if graph.degree[node] <= 2 && graph.edgeWay[Int(into)] == graph.edgeWay[Int(out)] {
                position += 1
                continue
            }
            let wayIn = graph.way(of: into)
            let wayOut = graph.way(of: out)
            let at = ends[position - 1]
            let before = bearing(along: leg.geometry, from: at, forward: false)
            let after = bearing(along: leg.geometry, from: at, forward: true)
            let angle = RoadGraph.turn(from: before, to: after)
            func maneuver(_ kind: Maneuver.Kind, _ modifier: Maneuver.Modifier?, exit: Int? = nil, mode: String? = nil)
                -> Maneuver
            {
                Maneuver(
                    kind: kind, modifier: modifier, exit: exit, location: graph.positions[node],
                    bearingBefore: normalized(before), bearingAfter: normalized(after), mode: mode)
            }
            // Onto or off a ferry.
            if wayOut.isFerry != wayIn.isFerry {
                boundaries.append(
                    (position, maneuver(.notification, .straight, mode: wayOut.isFerry ? "ferry" : mode.rawValue)))
                position += 1
                continue
            }
            // Into a roundabout: one step to the exit taken, counting the exits passed (for
            // vehicles: a walker's way around it is told as streets are, as OSRM tells it). An
            // exit counts where the route could leave: not onto a road entered only at a route's
            // end, nor a service road or track (as OSRM counts them), but the exit taken always.
            // Where the ring is entered at an exit (a road the route could take at the entry,
            // more to the right than the ring, to elsewhere than it came from), that exit counts
            // too, as OSRM counts it; a road ahead or to the left there is reached only round
            // the ring, and is not.
            let aroundRoundabouts = mode != .walking
            if aroundRoundabouts && wayOut.isRoundabout && !wayIn.isRoundabout {
                /// Whether a road other than a service road or track leaves the ring at the end
                /// of ring edge `ring`.
                func exitLeaves(after ring: Int32) -> Bool {
                    graph.outEdges(of: Int(graph.edgeTo[Int(ring)])).contains {
                        !graph.way(of: $0).isRoundabout && graph.allows(ring, $0) && !graph.edgeRestricted[Int($0)]
                            && graph.rank(of: $0) < Junction.serviceRank
                    }
                }
                let cameFrom = graph.edgeFrom[Int(into)]
                let ringTurn = RoadGraph.turn(from: graph.edgeBearing[Int(into)], to: graph.edgeBearing[Int(out)])
                let exitAtEntry = graph.outEdges(of: node).contains {
                    !graph.way(of: $0).isRoundabout && graph.allows(into, $0) && graph.edgeTo[Int($0)] != cameFrom
                        && !graph.edgeRestricted[Int($0)]
                        && RoadGraph.turn(from: graph.edgeBearing[Int(into)], to: graph.edgeBearing[Int($0)]) > ringTurn
                }
                var exits = exitAtEntry ? 1 : 0
                var last = position
                while last < chain.count && graph.way(of: chain[last]).isRoundabout {
                    let leaving =
                        last + 1 < chain.count && !graph.way(of: chain[last + 1]).isRoundabout
                    if exitLeaves(after: chain[last]) || leaving { exits += 1 }
                    last += 1
                }
                // The modifier, as OSRM gives it: for a roundabout turn the way from the road
                // in to the road out; for a roundabout or rotary the turn onto the ring.
                let (ring, name) = Ring.classify(entering: out, on: graph)
                let modifier: Maneuver.Modifier
                if ring == .roundaboutTurn {
                    let exitAt = ends[max(position, last - 1)]
                    // OSRM turns the junctions' headings in its answer (in 15° steps) into the
                    // roundabout turn's modifier: the road in at the entry, the road out at the exit.
                    let exitBearing = bearing(along: leg.geometry, from: exitAt, forward: true)
                    modifier = Maneuver.Modifier(
                        angle: RoadGraph.turn(from: Self.inSteps(before), to: Self.inSteps(exitBearing)))
                } else {
                    modifier = Maneuver.Modifier(
                        angle: RoadGraph.turn(from: before, to: Double(graph.edgeBearing[Int(out)])))
                }
                var step = maneuver(.roundabout, modifier, exit: max(1, exits))
                step.bearingAfter = normalized(after)
                step.ring = ring
                rotaryNames[position] = name
                boundaries.append((position, step))
                position = last + 1
                continue
            }
            if aroundRoundabouts && wayIn.isRoundabout {
                position += 1
                continue
            }
            if graph.isUTurn(into, out) {
                boundaries.append((position, maneuver(.continue, .uturn)))
                position += 1
                continue
            }
            let (rankIn, rankOut) = (graph.rank(of: into), graph.rank(of: out))
            let side = Maneuver.Modifier.slight(angle)
            let modifier = Maneuver.Modifier(angle: angle)
            let junction = Junction(graph: graph, into: into, out: out, angle: angle)
            if let end = junction.motorwayEnd() {
                if case .fork(let side) = end { boundaries.append((position, maneuver(.fork, side))) }
            } else if Junction.isLink(rankOut) && Junction.isFast(rankIn) {
                boundaries.append((position, maneuver(.offRamp, junction.rampSide())))
            } else if Junction.isFast(rankOut) && Junction.isLink(rankIn), junction.joinsThroughTraffic() {
                // Joining from the right is merging left into the traffic, and the other way.
                boundaries.append((position, maneuver(.merge, angle > 0 ? .slightLeft : .slightRight)))
            } else if Junction.isFastLink(rankOut) && !Junction.isLink(rankIn) {
                boundaries.append((position, maneuver(.onRamp, modifier == .straight ? side : modifier)))
            } else if let said = junction.maneuver() {
                boundaries.append((position, maneuver(said.kind, said.modifier)))
            }
            position += 1
        }
        boundaries = collapsed(boundaries, leg: leg, within: collapseDistance(mode))
        boundaries = withoutShortNames(boundaries, leg: leg, graph: graph)
        // The steps between the manoeuvres, then the arrival with the side of the road.
        var steps: [Step] = []
        for (number, boundary) in boundaries.enumerated() {
            let end = number + 1 < boundaries.count ? boundaries[number + 1].position : chain.count
            let range = boundary.position..<end
            let wayIndex =
                boundary.maneuver.kind == .roundabout
                ? chain[max(boundary.position, end - 1)] : chain[boundary.position]
            let way = graph.way(of: wayIndex)
            let startIndex = boundary.position == 0 ? 0 : ends[boundary.position - 1]
            let endIndex = ends[end - 1]
            // The manoeuvre's node (the departure's point for the first step; for a manoeuvre
            // folded from two, the first's node), then each node passed where three roads or
            // more meet.
            let first =
                number == 0
                ? 0
                : (min(boundaries[number - 1].position + 1, boundary.position)...boundary.position).last {
                    graph.positions[Int(graph.edgeFrom[Int(chain[$0])])] == boundary.maneuver.location
                } ?? boundary.position
            var intersections =
                boundary.position == 0
                ? [
                    Step.Intersection(
                        location: leg.geometry[0], bearings: [Int(boundary.maneuver.bearingAfter.rounded()) % 360],
                        entry: [true], arrival: nil, departure: 0, classes: classes(of: chain[0], on: graph))
                ]
                : [intersection(from: chain[first - 1], to: chain[first], on: graph)]
            for position in (first + 1)..<end
            where graph.degree[Int(graph.edgeTo[Int(chain[position - 1])])] >= 3 {
                intersections.append(intersection(from: chain[position - 1], to: chain[position], on: graph))
            }
            let pushing = graph.edgePushing[Int(chain[boundary.position])]
            var lanes: [Step.Lane] = []
            if boundary.position > 0, let modifier = boundary.maneuver.modifier {
                let approach = chain[boundary.position - 1]
                let wayBefore = graph.way(of: approach)
                let tag = graph.edgeAlong[Int(approach)] ? wayBefore.turnLanesForward : wayBefore.turnLanesBackward
                if let tag { lanes = Step.lanes(tag, for: modifier) }
            }
            steps.append(
                Step(
                    maneuver: boundary.maneuver, name: way.name ?? "", ref: way.ref ?? "",
                    destinations: [way.destinationRef, way.destination].compactMap { $0 }.joined(separator: ": "),
                    exits: (way.exits ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                        .filter { !$0.isEmpty }.joined(separator: "; "),
                    distance: range.map { leg.edgeDistances[$0] }.reduce(0, +),
                    duration: range.map { leg.edgeDurations[$0] }.reduce(0, +),
                    geometry: Array(leg.geometry[startIndex...max(startIndex, endIndex)]),
                    mode: way.isFerry ? "ferry" : pushing ? "pushing bike" : modeName(mode),
                    intersections: intersections,
                    lanes: lanes,
                    rotaryName: boundary.maneuver.ring == .rotary
                        ? rotaryNames[boundary.position]
                            ?? Ring.classify(entering: chain[boundary.position], on: graph).name : ""))
        }
        let lastPoint = leg.geometry[leg.geometry.count - 1]
        let arrivalBearing = bearing(along: leg.geometry, from: leg.geometry.count - 1, forward: false)
        var side: Maneuver.Modifier = .straight
        // The side of the road, seen along the way arrived by (none on a leg without length).
        if let destination, destination.distance(to: lastPoint) > 1, leg.distance >= 1 {
            let toPoint = RoadGraph.bearing(lastPoint, destination)
            side = RoadGraph.turn(from: arrivalBearing, to: toPoint) < 0 ? .left : .right
        }
        let lastWay = graph.way(of: chain[chain.count - 1])
        steps.append(
            Step(
                maneuver: Maneuver(
                    kind: .arrive, modifier: side, exit: nil, location: lastPoint,
                    bearingBefore: normalized(arrivalBearing), bearingAfter: 0, mode: nil),
                name: lastWay.name ?? "", ref: lastWay.ref ?? "", destinations: "", distance: 0, duration: 0,
                geometry: [lastPoint, lastPoint], mode: modeName(mode),
                intersections: [
                    Step.Intersection(
                        location: lastPoint, bearings: [Int((normalized(arrivalBearing) + 180).rounded()) % 360],
                        entry: [true], arrival: 0, departure: nil)
                ]))
        return steps
    }

    /// Steps shorter than this (metres) are folded into the manoeuvre after them: 30 m on
    /// roads (across a divided road's two carriageways), 15 m on foot (a jog across a
    /// junction's islands, a kink of a footway).
    static func collapseDistance(_ mode: TravelProfile.Mode) -> Double { mode == .walking ? 15 : 30 }

    /// The manoeuvres with those that begin a very short step (a jog across a junction's
    /// islands, a kink of a footway) folded into the next one, which then turns by the angle
    /// of both.
    static func collapsed(_ boundaries: [(position: Int, maneuver: Maneuver)], leg: Route.Leg, within: Double) -> [(
        position: Int, maneuver: Maneuver
    )] {
        var result = boundaries
        var index = 1
        while index < result.count - 1 {
            let (position, maneuver) = result[index]
            let next = result[index + 1]
            let length = (position..<next.position).map { leg.edgeDistances[$0] }.reduce(0, +)
            let foldable: Set<Maneuver.Kind> = [.turn, .continue, .newName, .endOfRoad]
            guard length < within, foldable.contains(maneuver.kind), foldable.contains(next.maneuver.kind)
            else {
                index += 1
                continue
            }
            var merged = next.maneuver
            merged.bearingBefore = maneuver.bearingBefore
            merged.location = maneuver.location
            let angle = RoadGraph.turn(from: merged.bearingBefore, to: merged.bearingAfter)
            merged.modifier = Maneuver.Modifier(angle: angle)
            // Folded to nearly straight on, the end of a road is no longer a T.
            if merged.kind == .endOfRoad && abs(angle) <= 40 { merged.kind = .turn }
            if merged.modifier == .straight && merged.kind == .turn { merged.kind = .newName }
            // The step goes on from the later junction, by the road taken there.
            result[index] = (next.position, merged)
            result.remove(at: index + 1)
        }
        return result
    }

    /// A new name is said only when the road keeps it this far (metres) before the next
    /// manoeuvre: 105 m, as OSRM says it.
    static let nameSegmentLength = 105.0

    /// The manoeuvres without the new names nobody needs told, as OSRM leaves them out: a name
    /// the route had before its last manoeuvre said (the road's name back after a bridge's),
    /// and a name kept for less than ``nameSegmentLength`` before the next manoeuvre. A new
    /// name with lanes to keep, or onto another mode (a ferry, pushing a bicycle), stays.
    static func withoutShortNames(_ boundaries: [(position: Int, maneuver: Maneuver)], leg: Route.Leg, graph: RoadGraph)
        -> [(position: Int, maneuver: Maneuver)]
    {
        let chain = leg.edges
        /// How a step from `position` travels (by ferry, pushed or not).
        func travel(at position: Int) -> Int {
            let edge = Int(chain[position])
            return graph.way(of: chain[position]).isFerry ? 2 : graph.edgePushing[edge] ? 1 : 0
        }
        func hasLanes(at position: Int) -> Bool {
            let approach = chain[position - 1]
            let way = graph.way(of: approach)
            return (graph.edgeAlong[Int(approach)] ? way.turnLanesForward : way.turnLanesBackward) != nil
        }
        var kept: [(position: Int, maneuver: Maneuver)] = []
        for (index, boundary) in boundaries.enumerated() {
            guard let said = kept.last, boundary.maneuver.kind == .newName, !hasLanes(at: boundary.position),
                travel(at: boundary.position) == travel(at: said.position)
            else {
                kept.append(boundary)
                continue
            }
            let end = index + 1 < boundaries.count ? boundaries[index + 1].position : chain.count
            let length = (boundary.position..<end).reduce(0) { $0 + leg.edgeDistances[$1] }
            // The road the last said step is named by: a roundabout's, the road it leaves by.
            var named = said.position
            if said.maneuver.kind == .roundabout {
                while named + 1 < boundary.position && graph.way(of: chain[named]).isRoundabout { named += 1 }
            }
            let saidWay = graph.way(of: chain[named])
            let way = graph.way(of: chain[boundary.position])
            if NameChange.isSameRoad(saidWay, way) || length < nameSegmentLength { continue }
            kept.append(boundary)
        }
        return kept
    }

    static func modeName(_ mode: TravelProfile.Mode) -> String {
        switch mode {
        case .driving, .twoWheeler: "driving"
        case .walking: "walking"
        case .bicycling: "cycling"
        }
    }

    /// The node where edge `into` ends and `out` begins, as OSRM's intersection: each road
    /// there once (a two-way road's edge out and edge in are one road, named by the OSM node at
    /// its other end), with its direction out of the node, whether a turn from `into` may take
    /// it, and which roads were arrived by and taken.
    static func intersection(from into: Int32, to out: Int32, on graph: RoadGraph) -> Step.Intersection {
        let node = Int(graph.edgeTo[Int(into)])
        // Each road's far OSM node, its direction (degrees, -180...180) and whether it can be
        // taken; an edge out of the node gives the road's direction before an edge into it.
        var roads: [(far: Int64, bearing: Float, entry: Bool)] = []
        func road(to far: Int32, bearing: Float, entry: Bool) {
            let osm = graph.osmNodes[Int(far)]
            if let index = roads.firstIndex(where: { $0.far == osm }) {
                roads[index].entry = roads[index].entry || entry
            } else {
                roads.append((osm, bearing, entry))
            }
        }
        for edge in graph.outEdges(of: node) {
            road(to: graph.edgeTo[Int(edge)], bearing: graph.edgeBearing[Int(edge)], entry: graph.allows(into, edge))
        }
        for edge in graph.inEdges(of: node) {
            road(to: graph.edgeFrom[Int(edge)], bearing: graph.edgeBearing[Int(edge)] + 180, entry: false)
        }
        let sorted = roads.map { road in
            (far: road.far, bearing: Int(normalized(Double(road.bearing)).rounded()) % 360, entry: road.entry)
        }.sorted { ($0.bearing, $0.far) < ($1.bearing, $1.far) }
        let (came, going) = (
            graph.osmNodes[Int(graph.edgeFrom[Int(into)])], graph.osmNodes[Int(graph.edgeTo[Int(out)])]
        )
        return Step.Intersection(
            location: graph.positions[node], bearings: sorted.map(\.bearing), entry: sorted.map(\.entry),
            arrival: sorted.firstIndex { $0.far == came }, departure: sorted.firstIndex { $0.far == going },
            classes: classes(of: out, on: graph))
    }

    /// The classes of OSRM's profiles that the way of `edge` is: `toll`, `motorway` (a motorway,
    /// its link or a motorroad), `ferry`, `restricted` (private or destination-only access).
    static func classes(of edge: Int32, on graph: RoadGraph) -> [String] {
        let features = graph.wayFeatures[Int(graph.edgeWay[Int(edge)])]
        var classes: [String] = []
        if features & TravelProfile.RoadFeature.tolls.bit != 0 { classes.append("toll") }
        if features & TravelProfile.RoadFeature.highways.bit != 0 { classes.append("motorway") }
        if features & TravelProfile.RoadFeature.ferries.bit != 0 { classes.append("ferry") }
        if graph.edgeRestricted[Int(edge)] { classes.append("restricted") }
        return classes
    }

    /// Degrees in 0..<360.
    static func normalized(_ degrees: Double) -> Double {
        let value = degrees.truncatingRemainder(dividingBy: 360)
        return ((value < 0 ? value + 360 : value) * 10).rounded() / 10
    }

    /// The point ``lookAhead`` metres along a line if it lies on its segment from `a` to `b`,
    /// `travelled` metres along it already; else nil, with the segment's length added to
    /// `travelled`.
    static func lookAheadPoint(on plane: LocalPlane, from a: Coordinate, to b: Coordinate, travelled: inout Double)
        -> Coordinate?
    {
        let (p, q) = (plane.point(a), plane.point(b))
        let length = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
        guard travelled + length > lookAhead else {
            travelled += length
            return nil
        }
        let t = (lookAhead - travelled) / length
        return plane.coordinate(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
    }

    /// A heading rounded to OSRM's ``headingStep``, degrees.
    static func inSteps(_ degrees: Double) -> Double { (degrees / headingStep).rounded() * headingStep }

    /// The heading at `index` of `points`, forward (to the point ``lookAhead`` metres on, or
    /// the last point if the line is shorter) or backward (from the point as far back),
    /// degrees -180...180.
    static func bearing(along points: [Coordinate], from index: Int, forward: Bool) -> Double {
        let origin = points[index]
        var travelled = 0.0
        var current = index
        var target = origin
        let plane = LocalPlane(around: origin)
        while true {
            let next = forward ? current + 1 : current - 1
            guard next >= 0, next < points.count else { break }
            if let reached = lookAheadPoint(on: plane, from: points[current], to: points[next], travelled: &travelled) {
                target = reached
                break
            }
            target = points[next]
            current = next
            if travelled >= lookAhead { break }
        }
        if target == origin { return 0 }
        return forward ? RoadGraph.bearing(origin, target) : RoadGraph.bearing(target, origin)
    }
}
