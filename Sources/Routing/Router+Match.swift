import Foundation
import GeoCore

/// One point of a GPS trace: where it was recorded, when, and how precise it is.
public struct TracePoint: Sendable, Equatable {
    /// The recorded position.
    public var coordinate: Coordinate
    /// Seconds (any epoch, the same for the whole trace); nil when unknown.
    public var time: Double?
    /// The fix's standard deviation, metres (above 0); nil for ``Router/defaultTraceAccuracy``.
    public var accuracy: Double?
    /// Whether the matched route stops here (OSRM's match `waypoints`): never dropped when the
    /// trace is tidied. False by default.
    public var isWaypoint: Bool

    /// A point at `coordinate`, recorded at `time` with `accuracy`; a stop of the matched route
    /// when `isWaypoint`.
    public init(_ coordinate: Coordinate, time: Double? = nil, accuracy: Double? = nil, isWaypoint: Bool = false) {
        self.coordinate = coordinate
        self.time = time
        self.accuracy = accuracy
        self.isWaypoint = isWaypoint
    }
}

/// A trace matched to the roads (OSRM's `match` service): the stretches of it that could be
/// matched, each a route through its points, and where each point was placed.
public struct TraceMatch: Sendable {
    /// The match with its one matching's legs only between `stops` (trace points by index,
    /// ascending; OSRM's match `waypoints`), the points between passed through, and each
    /// stop's placement numbered among the stops, the others' none; nil where the trace split
    /// into more than one matching or a stop was not placed (OSRM's `NoMatch`).
    public func stopping(at stops: [Int]) -> TraceMatch? {
        guard matchings.count == 1, let matching = matchings.first else { return nil }
        var positions: [Int] = []
        for stop in stops {
            guard stop < placements.count, let placed = placements[stop], let position = placed.waypoint else {
                return nil
            }
            positions.append(position)
        }
        var result = self
        result.matchings[0].route = matching.route.stopping(at: positions)
        let number = Dictionary(zip(stops, stops.indices), uniquingKeysWith: { first, _ in first })
        for index in result.placements.indices where result.placements[index] != nil {
            result.placements[index]?.waypoint = number[index]
        }
        return result
    }

    /// A stretch of the trace matched without a break: a route with a leg between each of its
    /// points and the next.
    public struct Matching: Sendable {
        /// The route through the matched points, in the trace's order; its waypoints are where
        /// they were placed.
        public var route: Route
        /// The trace's points this matching places, by index, in order.
        public var points: [Int]
        /// How sure the match is, 0 to 1: how directly the route joins the placed points (the
        /// straight distances between consecutive ones over the route's distance), times the
        /// share of the stretch's points it places.
        public var confidence: Double
    }

    /// Where a trace point was placed.
    public struct Placement: Sendable, Equatable {
        /// The matching it belongs to, by index into ``matchings``.
        public var matching: Int
        /// Its place among that matching's points (and waypoints); among the stops alone once
        /// the matching stops only at some (``stopping(at:)``), nil for a point passed through.
        public var waypoint: Int?
        /// The point on the road it was placed at.
        public var location: Coordinate
        /// Metres from the recorded point.
        public var distance: Double
        /// The road's name, else its ref; nil for neither.
        public var name: String?
        /// Other roads nearly as likely for it (within a hundredth of the chosen one's
        /// probability, given the trace up to it).
        public var alternatives: Int
        /// Where it met the roads, as OSRM's `hint` (``RoadGraph/hint(of:)``).
        public var hint: RoadGraph.Hint?
    }

    /// The matched stretches, in the trace's order.
    public var matchings: [Matching]
    /// Each trace point's placement; nil for a point no road was near, one dropped as tidying
    /// or as an outlier, or one alone between breaks.
    public var placements: [Placement?]
}

extension Router {
    /// Most points a trace may have: 10,000.
    public static let maxTracePoints = 10_000
    /// A fix's standard deviation when the trace does not say: 5 m (OSRM's default).
    public static let defaultTraceAccuracy = 5.0
    /// The scale of the transition probability: a route this many metres longer (or shorter)
    /// than the straight line between two fixes is e times less likely (Newson and Krumm's β).
    static let matchBeta = 10.0
    /// The same for time: a route taking this many seconds more than the straight line at the
    /// network's top speed is e times less likely, so that of two roads side by side the one a
    /// route would take (a street rather than its service road, a road rather than a footway
    /// a cyclist walks) wins where the fixes cannot tell them apart.
    static let matchBetaSeconds = 5.0
    /// A break in time splits the trace (OSRM's `gaps=split`) when it is longer than this many
    /// seconds and than ``maxSkippedFixes`` times the trace's median interval, as OSRM
    /// measures a gap against the trace's own sampling.
    public static let maxTraceGap = 60.0

    /// Seconds a break in `trace`'s times must exceed to split it.
    static func gapLimit(_ trace: [TracePoint]) -> Double {
        var intervals: [Double] = []
        for (a, b) in zip(trace, trace.dropFirst()) {
            if let start = a.time, let end = b.time { intervals.append(end - start) }
        }
        intervals.sort()
        let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        return max(maxTraceGap, Double(maxSkippedFixes) * median)
    }
    /// Most consecutive points passed over as outliers before the trace is split.
    static let maxSkippedFixes = 10
    /// Roads considered for a fix: the nearest segments within three standard deviations (at
    /// least 50 m), the nearest place on each of at most 16 ways.
    static let maxFixCandidates = 16
    static let minFixSearchRadius = 50.0
    /// Fastest a trace is taken to move between timed fixes, metres a second (180 km/h, OSRM's).
    static let maxTraceSpeed = 50.0
    /// Tidying drops a fix within this many metres of the last one kept.
    public static let tidyDistance = 10.0

    /// The trace matched to this mode's roads by a hidden Markov model (Newson and Krumm,
    /// "Hidden Markov map matching through noise and sparseness", as OSRM matches): each
    /// fix's candidates are the road positions near it (emission: a normal distribution of
    /// the distance, the fix's accuracy its deviation), each move between consecutive fixes
    /// the cheapest way by road between two candidates, in the direction each candidate
    /// travels (transition: exponential in what it costs beyond the straight line between
    /// them, ``MatchCosts``);
    /// Viterbi keeps the likeliest sequence. A fix no candidate of the last one reaches is
    /// passed over as an outlier (up to ``maxSkippedFixes`` in a row); past that, or across
    /// a break in time longer than ``gapLimit(_:)`` when `splitsAtGaps`, the trace splits
    /// into separate matchings. `tidy` first drops fixes within ``tidyDistance`` of the
    /// last one kept and fixes not later than it.
    ///
    /// - Throws: ``RoutingError/waypointCount(_:)`` for fewer than 2 points or more than
    ///   ``maxTracePoints``.
    public func match(_ trace: [TracePoint], splitsAtGaps: Bool = true, tidy: Bool = false) throws -> TraceMatch {
        guard (2...Self.maxTracePoints).contains(trace.count) else {
            throw RoutingError.waypointCount(trace.count, max: Self.maxTracePoints)
        }
        let costs = graph.matchCostBox.lock.withLock {
            if let made = graph.matchCostBox.value { return made }
            let made = MatchCosts(graph: graph)
            graph.matchCostBox.value = made
            return made
        }
        let fixes = tidy ? Self.tidied(trace) : Array(trace.indices)
        let gapLimit = Self.gapLimit(trace)
        var result = TraceMatch(matchings: [], placements: Array(repeating: nil, count: trace.count))
        var layers: [MatchLayer] = []
        var skipped: [Int] = []
        var position = 0
        while position < fixes.count {
            let index = fixes[position]
            position += 1
            let states = candidates(trace[index])
            guard !states.isEmpty else { continue }
            let accuracy = Self.accuracy(of: trace[index])
            let emissions = states.map { -0.5 * ($0.snap.distance / accuracy) * ($0.snap.distance / accuracy) }
            guard let last = layers.last,
                !(splitsAtGaps && Self.gap(trace[last.fix], trace[index]) > gapLimit)
            else {
                finish(&layers, trace: trace, costs: costs, into: &result)
                skipped = []
                layers = [
                    MatchLayer(
                        fix: index, order: position - 1, states: states, scores: emissions, back: [], backCost: [],
                        stays: [])
                ]
                continue
            }
            if let layer = step(
                from: last, to: index, order: position - 1, states: states, emissions: emissions, trace: trace,
                costs: costs)
            {
                layers.append(layer)
                skipped = []
                continue
            }
            // Nothing reaches this fix from the one before: when the fix before that does, the
            // one before was the outlier (placed on a road the trace does not take), and is
            // dropped.
            if skipped.isEmpty, layers.count >= 3,
                let layer = step(
                    from: layers[layers.count - 2], to: index, order: position - 1, states: states,
                    emissions: emissions, trace: trace, costs: costs)
            {
                layers[layers.count - 1] = layer
                continue
            }
            // Else this fix is an outlier, passed over; after too many in a row, the trace
            // splits and starts again at the first passed over.
            skipped.append(position - 1)
            if skipped.count > Self.maxSkippedFixes {
                finish(&layers, trace: trace, costs: costs, into: &result)
                position = skipped[0]
                skipped = []
            }
        }
        finish(&layers, trace: trace, costs: costs, into: &result)
        return result
    }

    /// The Viterbi step from the fix of `last` to the fix `index` (its candidates `states`,
    /// their log emission probabilities `emissions`): each candidate's likeliest way from one
    /// of `last`'s, by a move up to ``detour(straight:seconds:)`` longer than the straight
    /// line; where none is reached so, by one up to what the time between the fixes allows
    /// (``timedDetour(seconds:mode:)``, as OSRM bounds every move: a sparse trace on winding roads,
    /// a fix a minute across a hairpin); nil when none is reached either way.
    private func step(
        from last: MatchLayer, to index: Int, order: Int, states: [MatchState], emissions: [Double],
        trace: [TracePoint], costs: MatchCosts
    ) -> MatchLayer? {
        let straight = trace[last.fix].coordinate.distance(to: trace[index].coordinate)
        let seconds = Self.gap(trace[last.fix], trace[index])
        let usual = Self.detour(straight: straight, seconds: seconds)
        let step = { (detour: Double) in
            self.step(
                from: last, to: index, order: order, states: states, emissions: emissions, trace: trace, costs: costs,
                bound: costs.perMetre * (straight + detour))
        }
        if let layer = step(usual) { return layer }
        guard let timed = Self.timedDetour(seconds: seconds, mode: graph.profile.mode), timed > usual else {
            return nil
        }
        return step(timed)
    }

    /// ``step(from:to:order:states:emissions:trace:costs:)`` with the moves' cost bounded by
    /// `bound`.
    private func step(
        from last: MatchLayer, to index: Int, order: Int, states: [MatchState], emissions: [Double],
        trace: [TracePoint], costs: MatchCosts, bound: Double
    ) -> MatchLayer? {
        var layer = MatchLayer(
            fix: index, order: order, states: states, scores: Array(repeating: -.infinity, count: states.count),
            back: Array(repeating: -1, count: states.count), backCost: Array(repeating: 0, count: states.count),
            stays: Array(repeating: false, count: states.count))
        let accuracy = Self.accuracy(of: trace[index])
        let straight = trace[last.fix].coordinate.distance(to: trace[index].coordinate)
        let best = last.scores.max() ?? -.infinity
        let tolerance = Self.backwardTolerance(trace[last.fix], trace[index])
        let plane = LocalPlane(around: trace[index].coordinate)
        let targets = states.map { plane.point($0.snap.point) }
        for (from, state) in last.states.enumerated() where last.scores[from] > best - 2 * Self.matchSlack {
            let (x, y) = plane.point(state.snap.point)
            var reach = 0.0
            for target in targets {
                let (dx, dy) = (target.x - x, target.y - y)
                reach = max(reach, (dx * dx + dy * dy).squareRoot())
            }
            let reached = distances(
                from: state, to: states, bound: bound, tolerance: tolerance, reach: reach, costs: costs)
            for (to, cost) in reached.costs.enumerated() {
                guard let cost else { continue }
                // Not having moved: placed where the candidate before is, and as unlikely as
                // the fixes' move is long (Newson and Krumm's transition for a route of 0 m).
                let emission =
                    reached.stays[to]
                    ? -0.5 * pow(trace[index].coordinate.distance(to: state.snap.point) / accuracy, 2)
                        - straight / Self.matchBeta
                    : emissions[to]
                let direct = state.snap.point.distance(to: states[to].snap.point)
                let score = last.scores[from] + emission - max(0, cost - costs.perMetre * direct)
                if score > layer.scores[to] {
                    layer.scores[to] = score
                    layer.back[to] = Int32(from)
                    layer.backCost[to] = cost
                    layer.stays[to] = reached.stays[to]
                }
            }
        }
        // A candidate best reached by not moving becomes the one before, at its place.
        for to in states.indices where layer.stays[to] {
            layer.states[to] = last.states[Int(layer.back[to])]
            layer.states[to].snap.distance = trace[index].coordinate.distance(to: layer.states[to].snap.point)
        }
        return layer.scores.contains(where: { $0 > -.infinity }) ? layer : nil
    }

    /// The fixes a tidied trace keeps, by index: the first, then each at least ``tidyDistance``
    /// from the last one kept and (when both are timed) later than it, and every waypoint.
    static func tidied(_ trace: [TracePoint]) -> [Int] {
        var kept = [0]
        for index in trace.indices.dropFirst() {
            if trace[index].isWaypoint {
                kept.append(index)
                continue
            }
            let last = trace[kept[kept.count - 1]]
            if last.coordinate.distance(to: trace[index].coordinate) < tidyDistance { continue }
            if let before = last.time, let now = trace[index].time, now <= before { continue }
            kept.append(index)
        }
        return kept
    }

    /// A fix's standard deviation, metres.
    static func accuracy(of point: TracePoint) -> Double {
        guard let accuracy = point.accuracy, accuracy > 0, accuracy.isFinite else { return defaultTraceAccuracy }
        return accuracy
    }

    /// Seconds between two fixes; 0 unless both are timed.
    static func gap(_ a: TracePoint, _ b: TracePoint) -> Double {
        guard let start = a.time, let end = b.time else { return 0 }
        return end - start
    }

    /// How much longer than the straight line between two fixes a move may be, metres: four
    /// times that line, at least 200 m, at most 2 km, and no more than ``maxTraceSpeed``
    /// covers in the `seconds` between them (when known).
    static func detour(straight: Double, seconds: Double) -> Double {
        let detour = min(max(4 * straight, 200), 2_000)
        return seconds > 0 ? min(detour, max(seconds * maxTraceSpeed, 200)) : detour
    }

    /// How much longer than the straight line a vehicle's move may be when no shorter one is
    /// found, as OSRM bounds every move: what ``maxTraceSpeed`` covers in the `seconds` between
    /// the fixes (at least 200 m), or 2 km when they are not timed. None for walkers and
    /// cyclists: their moves are bounded by their own pace, as OSRM's search is by its floor
    /// of 4 m/s, and a longer move only finds loops (on Monaco's bench traces the share of our
    /// line within 10 m of OSRM's fell from 97 % to 90–94 % with it).
    static func timedDetour(seconds: Double, mode: TravelProfile.Mode) -> Double? {
        guard mode == .driving || mode == .twoWheeler else { return nil }
        return seconds > 0 ? max(seconds * maxTraceSpeed, 200) : 2_000
    }

    /// A fix's candidates: the nearest place on each road near it (at most
    /// ``maxFixCandidates`` ways, nearest first), once per direction this mode travels it. Every
    /// road of the mode's counts, those no route starts on too (a ferry, a private service
    /// road), as OSRM's `match` takes them: a trace may run along one.
    private func candidates(_ point: TracePoint) -> [MatchState] {
        let radius = max(3 * Self.accuracy(of: point), Self.minFixSearchRadius)
        guard
            let near = try? graph.snaps(
                point.coordinate, count: 4 * Self.maxFixCandidates, within: radius, approach: Approach(anyRoad: true))
        else { return [] }
        var ways = Set<Int32>()
        var snaps: [RoadGraph.Snap] = []
        for snap in near where snaps.count < Self.maxFixCandidates {
            let segment = graph.segments[Int(snap.segment)]
            if ways.insert(graph.edgeWay[Int(segment.forward >= 0 ? segment.forward : segment.backward)]).inserted {
                snaps.append(snap)
            }
        }
        var states: [MatchState] = []
        for snap in snaps {
            let segment = graph.segments[Int(snap.segment)]
            if segment.forward >= 0 {
                states.append(MatchState(edge: segment.forward, at: snap.fraction, snap: snap))
            }
            if segment.backward >= 0 {
                states.append(MatchState(edge: segment.backward, at: 1 - snap.fraction, snap: snap))
            }
        }
        return states
    }

    /// The cost of the way by road from `source` to each of `targets` (travelling each in its
    /// edge's direction: ``MatchCosts``), by one search on the graph of turns up to `bound`;
    /// nil for those not reached within it. A target at most `tolerance` metres behind the source
    /// along the roads (the fixes' noise, not a u-turn) is 0 away and `stays`: the fix is
    /// taken not to have moved. `reach` is at least the straight metres from the source to the
    /// farthest target. With `keepingPaths`, each reached target's edges from the source's, in
    /// order (else none).
    private func distances(
        from source: MatchState, to targets: [MatchState], bound: Double, tolerance: Double, reach: Double,
        costs: MatchCosts, keepingPaths: Bool = false
    ) -> (costs: [Double?], stays: [Bool], paths: [[Int32]]) {
        let lengths = costs.lengths
        let edgeCosts = costs.edges
        var found = [Double?](repeating: nil, count: targets.count)
        var stays = [Bool](repeating: false, count: targets.count)
        var paths = [[Int32]](repeating: [], count: keepingPaths ? targets.count : 0)
        // Behind the source: back along its edge and the edges into it, up to the tolerance.
        // Each edge with the metres from its end on to the source (less than 0 for the source's
        // own: its end lies ahead).
        var behind: [(edge: Int32, toSource: Double)] = [
            (source.edge, -(1 - source.at) * Double(lengths[Int(source.edge)]))
        ]
        var frontier = 0
        while frontier < behind.count {
            let (edge, toSource) = behind[frontier]
            frontier += 1
            // Metres from the edge's start to the source.
            let fromStart = toSource + Double(lengths[Int(edge)])
            for (index, target) in targets.enumerated() where target.edge == edge && !stays[index] {
                let back = fromStart - target.at * Double(lengths[Int(edge)])
                if back >= 0 && back <= tolerance && (edge != source.edge || target.at <= source.at) {
                    (found[index], stays[index]) = (0, true)
                }
            }
            guard fromStart < tolerance, behind.count < 64 else { continue }
            let node = Int(graph.edgeFrom[Int(edge)])
            for slot in Int(graph.firstIn[node])..<Int(graph.firstIn[node + 1]) {
                let previous = graph.inEdge[slot]
                if graph.allows(previous, edge), !behind.contains(where: { $0.edge == previous }) {
                    behind.append((previous, fromStart))
                }
            }
        }
        var waiting = 0
        for (index, target) in targets.enumerated() where !stays[index] {
            guard target.edge == source.edge, target.at >= source.at else {
                waiting += 1
                continue
            }
            found[index] = (target.at - source.at) * Double(edgeCosts[Int(source.edge)])
            if keepingPaths { paths[index] = [source.edge] }
        }
        guard waiting > 0 else { return (found, stays, paths) }
        // A target reached ``matchSlack`` more than the cheapest (beyond what a farther target
        // may cost more) is too unlikely to matter: the search stops there.
        let slack = Self.matchSlack + costs.perMetre * reach
        var limit = min(bound, (found.compactMap { $0 }.min() ?? .infinity) + slack)
        generation &+= 1
        let current = generation
        if targetMarks.count != graph.edgeCount { targetMarks = [UInt32](repeating: 0, count: graph.edgeCount) }
        // The labels and marks as locals for the search (no exclusivity checks on each access
        // to the router's own), put back at the end.
        var forward = SearchLabels()
        var targetMarks: [UInt32] = []
        swap(&forward, &self.forward)
        swap(&targetMarks, &self.targetMarks)
        defer {
            swap(&forward, &self.forward)
            swap(&targetMarks, &self.targetMarks)
        }
        for target in targets { targetMarks[Int(target.edge)] = current }
        forward.queue.items.removeAll(keepingCapacity: true)
        forward.offer(
            source.edge, Float((1 - source.at) * Double(edgeCosts[Int(source.edge)])), parent: -1, in: current)
        while !forward.queue.isEmpty && waiting > 0 {
            let (cost, edge) = forward.queue.pop()
            guard cost <= forward.cost(edge) else { continue }
            if Double(cost) > limit { break }
            let node = Int(graph.edgeTo[Int(edge)])
            for slot in Int(graph.firstOut[node])..<Int(graph.firstOut[node + 1]) {
                let next = graph.outEdge[slot]
                guard graph.allows(edge, next) else { continue }
                if targetMarks[Int(next)] == current, next != source.edge, !forward.has(next, in: current) {
                    // The first time an edge is reached is by its nearest way in.
                    for (index, target) in targets.enumerated() where target.edge == next && found[index] == nil {
                        let reached = Double(cost) + target.at * Double(edgeCosts[Int(next)])
                        guard reached <= limit else { continue }
                        found[index] = reached
                        limit = min(limit, reached + slack)
                        if keepingPaths { paths[index] = forward.chain(from: edge).reversed() + [next] }
                        waiting -= 1
                    }
                }
                forward.offer(next, cost + edgeCosts[Int(next)], parent: edge, in: current)
            }
        }
        return (found, stays, paths)
    }

    /// How much less likely than the likeliest a move may be and still be followed: e⁻¹².
    static let matchSlack = 12.0

    /// Metres a fix may fall behind the one before along the roads and still be taken as not
    /// having moved: twice the larger of their accuracies, at least 15 m, at most 100 m.
    static func backwardTolerance(_ a: TracePoint, _ b: TracePoint) -> Double {
        min(max(2 * max(accuracy(of: a), accuracy(of: b)), 15), 100)
    }

    /// Ends the matching `layers` hold (clearing them): the likeliest sequence of candidates,
    /// back from the likeliest last one, routed leg by leg into `result`; a lone fix is left
    /// unplaced.
    private func finish(
        _ layers: inout [MatchLayer], trace: [TracePoint], costs: MatchCosts, into result: inout TraceMatch
    ) {
        defer { layers = [] }
        guard layers.count >= 2, let last = layers.last,
            var state = last.scores.indices.max(by: { last.scores[$0] < last.scores[$1] })
        else { return }
        var chosen = [Int](repeating: 0, count: layers.count)
        for layer in stride(from: layers.count - 1, through: 0, by: -1) {
            chosen[layer] = state
            if layer > 0 { state = Int(layers[layer].back[state]) }
        }
        let states = zip(layers, chosen).map { $0.states[$1] }
        var legs: [Route.Leg] = []
        for index in states.indices.dropFirst() {
            let (from, to) = (states[index - 1], states[index])
            let path = distances(
                from: from, to: [to], bound: layers[index].backCost[chosen[index]] + 0.01, tolerance: 0,
                reach: 0, costs: costs, keepingPaths: true
            ).paths[0]
            legs.append(
                assemble(
                    from: from.snap, to: to.snap, chain: path.isEmpty ? [from.edge] : path,
                    starts: [(from.edge, from.at)], ends: [(to.edge, to.at)]))
        }
        let matching = result.matchings.count
        var route = Route(
            legs: legs,
            snapped: states.map { state in
                let way = graph.way(of: state.edge)
                return (state.snap.point, state.snap.distance, way.name ?? way.ref, graph.hint(of: state.snap))
            }, mode: graph.profile.mode)
        route.requested = layers.map { trace[$0.fix].coordinate }
        let straight = zip(states, states.dropFirst()).reduce(0.0) {
            $0 + $1.0.snap.point.distance(to: $1.1.snap.point)
        }
        let directness = route.distance > 0 ? min(1, straight / route.distance) : 1
        let span = layers[layers.count - 1].order - layers[0].order + 1
        result.matchings.append(
            TraceMatch.Matching(
                route: route, points: layers.map(\.fix),
                confidence: directness * Double(layers.count) / Double(span)))
        for (position, layer) in layers.enumerated() {
            let state = states[position]
            let score = layer.scores[chosen[position]]
            let others = Set(
                layer.states.indices.filter {
                    layer.scores[$0] >= score - log(100) && layer.states[$0].snap.segment != state.snap.segment
                }.map { layer.states[$0].snap.segment })
            result.placements[layer.fix] = TraceMatch.Placement(
                matching: matching, waypoint: position, location: state.snap.point, distance: state.snap.distance,
                name: route.snapped[position].road, alternatives: others.count, hint: route.snapped[position].hint)
        }
    }
}

/// A candidate of a fix: a position on an edge, travelling in the edge's direction.
struct MatchState {
    /// The edge, and how far along it (0...1).
    var edge: Int32
    var at: Double
    /// The segment position it comes from (its point and distance from the fix).
    var snap: RoadGraph.Snap
}

/// What a move between two fixes costs, in log probability, edge by edge: its metres over
/// ``Router/matchBeta`` and its seconds (the profile's preferences counted; turns cost
/// nothing, the fixes say where the trace turned) over ``Router/matchBetaSeconds``. A move costs what its road way costs beyond
/// that of the straight line between its ends at the network's top speed (``perMetre``).
struct MatchCosts {
    /// Each edge's metres.
    let lengths: [Float]
    /// Each edge's cost.
    let edges: [Float]
    /// The cost of a metre in a straight line at the top speed.
    let perMetre: Double

    init(graph: RoadGraph) {
        lengths = graph.edgeLengths
        let perSecond = Float(1 / Router.matchBetaSeconds)
        let perLength = Float(1 / Router.matchBeta)
        edges = zip(lengths, graph.edgeWeight).map { $0 * perLength + $1 * perSecond }
        // Metres a second on the fastest edge (weights are seconds, or more where preferred less).
        let top = zip(lengths, graph.edgeWeight).reduce(Float(1)) { $1.1 > 0 ? max($0, $1.0 / $1.1) : $0 }
        perMetre = Double(perLength + perSecond / top)
    }
}

/// One fix's step of the Viterbi search: its candidates, the log probability of the likeliest
/// sequence ending at each, the candidate of the fix before it came from, and the cost of the
/// way by road from that one.
struct MatchLayer {
    /// The fix, by index into the trace, and by its place among the fixes matched.
    var fix: Int
    var order: Int
    var states: [MatchState]
    var scores: [Double]
    var back: [Int32]
    var backCost: [Double]
    /// Whether the likeliest way to each candidate is not to have moved from the one before.
    var stays: [Bool]
}
