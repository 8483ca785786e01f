import Foundation
import GeoCore
import MapData

/// Why no route could be given.
public enum RoutingError: Error, Equatable, CustomStringConvertible {
    /// A point has no road of the mode within `within` metres: outside the road network's
    /// extent ``Router/snapRadius``, or the radius a request gives the point (OSRM's
    /// `radiuses`).
    case noRoad(point: Int, at: Coordinate, mode: TravelProfile.Mode, within: Double = Router.snapRadius)
    /// Two points are not connected for the mode.
    case noRoute(from: Int, to: Int, mode: TravelProfile.Mode)
    /// Fewer than two points, or more than `max` (a route's ``Router/maxPoints``, a trip's
    /// ``Router/maxTripPoints``, a trace's ``Router/maxTracePoints``).
    case waypointCount(Int, max: Int = Router.maxPoints)

    public var description: String { message(Phrasebook(.en)) }

    /// Why, in `words`' language.
    public func message(_ words: Phrasebook) -> String {
        switch self {
        case .noRoad(let point, let coordinate, let mode, let radius):
            words.note(
                "no road",
                [
                    "point": "\(point + 1)", "position": coordinate.description, "mode": words.word(mode.rawValue),
                    "radius": words.limit(metres: radius),
                ])
        case .noRoute(let from, let to, let mode):
            words.note("not connected", ["from": "\(from + 1)", "to": "\(to + 1)", "mode": words.word(mode.rawValue)])
        case .waypointCount(let count, let max):
            words.note("waypoint count", ["max": "\(max)", "count": "\(count)"])
        }
    }
}

/// A route through points in order: legs between consecutive points, each the fastest path
/// for the mode on the graph (bidirectional Dijkstra), starting and ending where the points
/// meet the network.
public struct Route: Sendable {
    /// One leg, from one point to the next.
    public struct Leg: Sendable {
        /// Metres and seconds.
        public var distance: Double
        /// Seconds.
        public var duration: Double
        /// The positions, from the snapped start to the snapped end.
        public var geometry: [Coordinate]
        /// Per segment between consecutive positions: metres, seconds, OSM way id.
        public var segmentDistances: [Double]
        /// Seconds of each segment.
        public var segmentDurations: [Double]
        /// The OSM way each segment is on.
        public var segmentWays: [Int64]
        /// Whether each segment is on a bridge or in a tunnel: its road is not on the ground
        /// under it (empty when not known).
        public var segmentsOffGround: [Bool] = []
        /// The OSM node at each position, as OSRM's `nodes` annotation gives them: at a snapped
        /// end between two nodes, the node at that end of its segment (the first position's the
        /// node the first segment starts from, the last's the node the last one runs to);
        /// empty when not known. An end snapped onto a node is that node (OSRM writes a segment
        /// of no length there, from the node before it or to the node after).
        public var nodes: [Int64] = []
        /// The names (else refs) of the ways travelled, in order, each once in a run.
        public var roads: [String]
        /// The graph's edges travelled, in order, with the metres and seconds of each (the first
        /// and last in part; seconds with the turn onto it).
        var edges: [Int32] = []
        var edgeDistances: [Double] = []
        var edgeDurations: [Double] = []
    }

    /// The legs, one between each point and the next.
    public var legs: [Leg]
    /// Where each point met the network, how far it was from it (metres), the road's name
    /// and the place's hint (``RoadGraph/hint(of:)``).
    public var snapped: [(point: Coordinate, distance: Double, road: String?, hint: RoadGraph.Hint?)]
    /// The way of travel the route was found for.
    public var mode: TravelProfile.Mode
    /// What a reader should know of how it was found.
    public var notes: [Note] = []
    /// How it climbs, where the store has an elevation model under all of it; nil otherwise.
    public var elevation: RouteElevation?
    /// The points asked for (the snapped ones are in ``snapped``).
    var requested: [Coordinate] = []

    /// Something a reader should know of a route.
    public enum Note: Sendable, Equatable {
        /// Leg `leg` (0 for the first) takes kinds of road it was asked to avoid, on the
        /// named roads (at most three; none when they have no name): there is no other way.
        case avoidanceUnmet(leg: Int, features: [TravelProfile.RoadFeature], roads: [String])
        /// The store has no routing graph for the mode: the route was found more slowly.
        case routingGraphMissing(TravelProfile.Mode)
        /// The store's routing graph for the mode was built from other roads or rules.
        case routingGraphStale(TravelProfile.Mode)

        /// What it says, in `words`' language.
        public func message(_ words: Phrasebook = Phrasebook(.en)) -> String {
            switch self {
            case .avoidanceUnmet(let leg, let features, let roads):
                words.note(
                    roads.isEmpty ? "avoidance unmet unnamed" : "avoidance unmet",
                    [
                        "from": "\(leg + 1)", "to": "\(leg + 2)",
                        "features": words.list(features.map { words.word($0.rawValue) }),
                        "roads": words.list(roads),
                    ])
            case .routingGraphMissing(let mode), .routingGraphStale(let mode):
                words.note(
                    self == .routingGraphMissing(mode) ? "graph missing" : "graph stale",
                    ["mode": words.word(mode.rawValue), "command": RoutingGraphs.buildCommand])
            }
        }
    }

    /// Metres, every leg's.
    public var distance: Double { legs.map(\.distance).reduce(0, +) }
    /// Seconds, every leg's.
    public var duration: Double { legs.map(\.duration).reduce(0, +) }
    /// The positions of every leg, joined (each joint once).
    public var geometry: [Coordinate] {
        legs.enumerated().flatMap { index, leg in index == 0 ? leg.geometry : Array(leg.geometry.dropFirst()) }
    }

    /// The line OSRM's `overview=simplified` draws: each leg's positions kept where they lie
    /// more than 5 pixels off the line through the others (Douglas–Peucker, on Web Mercator) at
    /// the zoom the whole route fits a screen of 2,048 × 1,280 pixels at (8 × 5 tiles; zoom 1
    /// to 18, whole zooms down), the legs joined, as OSRM simplifies its overview.
    public var simplifiedGeometry: [Coordinate] {
        let zoom = Self.overviewZoom(legs.flatMap(\.geometry))
        let size = WebMercator.worldSize(zoom: Double(zoom))
        return legs.enumerated().flatMap { index, leg -> [Coordinate] in
            // Each position as OSRM holds it, to a millionth of a degree, so that the same line
            // keeps the same positions.
            let points = leg.geometry.map { position in
                let point = WebMercator.project(RouteDocument.osrmHeld(position), worldSize: size)
                return (x: point.x, y: point.y)
            }
            let kept = Simplification.keptIndices(points, tolerance: 5, closed: false).map { leg.geometry[$0] }
            return index == 0 ? kept : Array(kept.dropFirst())
        }
    }

    /// The zoom, 1 to 18, at which `positions` fit 2,048 × 1,280 pixels, as OSRM fits its
    /// overview (a route of one position: zoom 1, as OSRM's).
    static func overviewZoom(_ positions: [Coordinate]) -> Int {
        guard let first = positions.first else { return 1 }
        var (west, east, south, north) = (first.longitude, first.longitude, first.latitude, first.latitude)
        for position in positions {
            (west, east) = (min(west, position.longitude), max(east, position.longitude))
            (south, north) = (min(south, position.latitude), max(north, position.latitude))
        }
        let size = WebMercator.worldSize(zoom: 18)
        let southWest = WebMercator.project(Coordinate(latitude: south, longitude: west), worldSize: size)
        let northEast = WebMercator.project(Coordinate(latitude: north, longitude: east), worldSize: size)
        let ratio = max((northEast.x - southWest.x) / 2_048, (southWest.y - northEast.y) / 1_280)
        let zoom = 18 - log2(ratio)
        return zoom.isFinite ? min(18, max(1, Int(zoom))) : 1
    }

    /// The route with legs only between the points `stops` names (indices into the points,
    /// ascending, the first and the last among them): the points between are passed through,
    /// their legs joined into one, as OSRM's `waypoints` option asks. The snapped points stay
    /// every point's.
    public func stopping(at stops: [Int]) -> Route {
        var route = self
        if !requested.isEmpty { route.requested = stops.map { requested[$0] } }
        route.legs = zip(stops, stops.dropFirst()).map { from, to in
            legs[from + 1..<to].reduce(legs[from]) { $0.joined($1) }
        }
        if let climb = elevation {
            route.elevation?.legs = zip(stops, stops.dropFirst()).map { from, to in
                climb.legs[from..<to].reduce((ascent: 0, descent: 0)) { sum, leg in
                    (sum.ascent + leg.ascent, sum.descent + leg.descent)
                }
            }
        }
        return route
    }
}

extension Route.Leg {
    /// This leg and `next`, which starts where it ends, as one leg: an edge the point between
    /// lies on is one edge travelled, not a turn from it onto itself.
    func joined(_ next: Route.Leg) -> Route.Leg {
        var leg = self
        leg.distance += next.distance
        leg.duration += next.duration
        leg.geometry += next.geometry.dropFirst()
        leg.segmentDistances += next.segmentDistances
        leg.segmentDurations += next.segmentDurations
        leg.segmentWays += next.segmentWays
        leg.segmentsOffGround =
            segmentsOffGround.isEmpty || next.segmentsOffGround.isEmpty
            ? [] : segmentsOffGround + next.segmentsOffGround
        leg.nodes = nodes.isEmpty || next.nodes.isEmpty ? [] : nodes + next.nodes.dropFirst()
        leg.roads += next.roads.drop { $0 == roads.last }
        if let last = edges.last, last == next.edges.first {
            leg.edgeDistances[leg.edgeDistances.count - 1] += next.edgeDistances[0]
            leg.edgeDurations[leg.edgeDurations.count - 1] += next.edgeDurations[0]
            leg.edges += next.edges.dropFirst()
            leg.edgeDistances += next.edgeDistances.dropFirst()
            leg.edgeDurations += next.edgeDurations.dropFirst()
        } else {
            leg.edges += next.edges
            leg.edgeDistances += next.edgeDistances
            leg.edgeDurations += next.edgeDurations
        }
        return leg
    }
}

/// Routes on one mode's graph.
public final class Router: @unchecked Sendable {
    /// The mode's road graph, shared read-only with the routers that share it.
    public let graph: RoadGraph
    /// How far a point outside the road network's extent and the imported regions may be from
    /// its nearest road: 5 km. A point inside snaps to its nearest road however far (a point
    /// out at sea off the coast), as OSRM snaps; the waypoint says how far it moved.
    public static let snapRadius = 5_000.0
    /// Points a route goes through, its start and destination among them: 500, as OSRM's
    /// route service takes by default. (A link's directions take fewer: Google's 9 stops.)
    public static let maxPoints = 500

    // Search state on edges, one per direction, reused between queries (a generation number
    // marks what is current). One query at a time: a thread routing at the same time uses a
    // router of its own (``sharingGraph()``).
    /// One direction's labels on edges: forward, the time to an edge's end having travelled
    /// it; backward, the time from its start to the end of the leg.
    var forward: SearchLabels
    private var backward: SearchLabels
    var generation: UInt32 = 0
    /// Per edge, the search (by ``generation``) that has a map-matching target on it.
    var targetMarks: [UInt32] = []
    /// Targets' backward search spaces in the hierarchy, kept between ``durations(from:to:limit:)``.
    var keptSpaces: [Coordinate: [(node: Int32, weight: Float)]] = [:]
    /// Edge weights avoiding kinds of road, by the kinds.
    private var avoidanceWeights: [Set<TravelProfile.RoadFeature>: [Float]?] = [:]

    /// The graph's contraction hierarchy, when there is one: queries in microseconds.
    public let hierarchy: ContractionHierarchy?

    /// A router on `graph`, with its contraction hierarchy when there is one (else plain bidirectional Dijkstra).
    public init(graph: RoadGraph, hierarchy: ContractionHierarchy? = nil) {
        self.graph = graph
        self.hierarchy = hierarchy
        forward = SearchLabels(nodes: graph.edgeCount)
        backward = SearchLabels(nodes: graph.edgeCount)
    }

    /// A router on the same graph and hierarchy, shared and never written (not copied), with
    /// search state of its own: another thread routes with it while this one does.
    public func sharingGraph() -> Router { Router(graph: graph, hierarchy: hierarchy?.sharingArcs()) }

    /// The fastest route through `points` in order, keeping off the kinds of road in `avoiding`
    /// where another way is at most ``TravelProfile/avoidanceFactor`` times as long (a note says
    /// which it still takes), passing the points as `passage` asks (by default any way, and by
    /// car straight on past its stops). Each leg starts where the one before ended.
    ///
    /// - Throws: ``RoutingError`` naming the point that has no road (none heading or lying as
    ///   its approach asks) or the two points that are not connected; never a straight line.
    public func route(
        _ points: [Coordinate], avoiding: Set<TravelProfile.RoadFeature> = [], passing passage: Passage = Passage()
    ) throws -> Route {
        try routeAndEnds(points, avoiding: avoiding, passing: passage).route
    }

    /// How a route passes its points, as OSRM's `bearings`, `approaches` and
    /// `continue_straight` ask. By default any way, and straight on past its stops as the
    /// mode goes (``TravelProfile/continuesStraightAtStops``).
    public struct Passage: Sendable, Equatable {
        /// How the route meets each point, one a point; empty for any way at every point.
        public var approaches: [Approach]
        /// Whether the route goes straight on past each point between its first and its last,
        /// rather than turning back at it (leaving it the way it came); nil for the mode's way.
        public var continuesStraight: Bool?

        /// A passage meeting the points as `approaches` ask (one a point, or none for any way),
        /// going straight on past the stops as `continuesStraight` says (nil: as the mode goes).
        public init(approaches: [Approach] = [], continuesStraight: Bool? = nil) {
            self.approaches = approaches
            self.continuesStraight = continuesStraight
        }

        /// How the route meets point `index`: its entry of ``approaches``, any way without one.
        public func approach(_ index: Int) -> Approach { index < approaches.count ? approaches[index] : .any }
    }

    /// The fastest route from `from` to `to` and up to `alternatives` (at most 2) others: each
    /// at most ``alternativeStretch`` times as long, sharing at most ``alternativeOverlap`` of
    /// its length with any route before it; found by searching again with the roads of the
    /// routes found weighing more (``alternativePenalty``), as many times as it takes, up to
    /// twice per alternative.
    public func routes(
        from: Coordinate, to: Coordinate, avoiding: Set<TravelProfile.RoadFeature> = [],
        passing passage: Passage = Passage(), alternatives: Int
    ) throws -> [Route] {
        let (best, ends) = try routeAndEnds([from, to], avoiding: avoiding, passing: passage)
        var found = [best]
        let wanted = min(max(alternatives, 0), 2)
        guard wanted > 0 else { return found }
        var weights = weights(avoiding: avoiding) ?? graph.edgeWeight
        var lastEdges = best.legs[0].edges
        for _ in 0..<(2 * wanted) where found.count <= wanted {
            for edge in lastEdges { weights[Int(edge)] *= Self.alternativePenalty }
            guard let leg = leg(from: ends[0], to: ends[1], weights: weights) else { break }
            lastEdges = leg.edges
            guard leg.duration <= best.duration * Self.alternativeStretch,
                found.allSatisfy({ shared(leg, $0.legs[0]) <= Self.alternativeOverlap * leg.distance })
            else { continue }
            var alternative = best
            alternative.legs = [leg]
            alternative.notes = []
            found.append(alternative)
        }
        return found
    }

    /// The turn-by-turn steps of each of `route`'s legs (a route this router found), each leg
    /// from its departure to its arrival, with the side of the road the stop lies on.
    public func steps(of route: Route) -> [[Step]] {
        route.legs.enumerated().map { index, leg in
            Guidance.steps(
                of: leg, graph: graph, mode: route.mode,
                destination: index + 1 < route.requested.count ? route.requested[index + 1] : nil)
        }
    }

    /// An alternative is at most 1.4 times as long as the best route…
    public static let alternativeStretch = 1.4
    /// …shares at most 70 % of its length with any route before it…
    public static let alternativeOverlap = 0.7
    /// …and is found with the roads of the routes before it weighing 1.5 times more.
    static let alternativePenalty: Float = 1.5

    /// Metres of `leg` along edges `other` also travels.
    private func shared(_ leg: Route.Leg, _ other: Route.Leg) -> Double {
        let theirs = Set(other.edges)
        var metres = 0.0
        for edge in leg.edges where theirs.contains(edge) {
            metres += graph.positions[Int(graph.edgeFrom[Int(edge)])].distance(
                to: graph.positions[Int(graph.edgeTo[Int(edge)])])
        }
        return metres
    }

    /// The route through `points`, passing them as `passage` asks, and where each of them met
    /// the network.
    private func routeAndEnds(
        _ points: [Coordinate], avoiding: Set<TravelProfile.RoadFeature>, passing passage: Passage
    ) throws -> (route: Route, ends: [RoadGraph.Snap]) {
        let weights = weights(avoiding: avoiding)
        guard (2...Self.maxPoints).contains(points.count) else { throw RoutingError.waypointCount(points.count) }
        // Each point's nearest road the route can meet it on, and its nearest such road on a
        // large piece of the network (at most ``snapRadius`` farther).
        var nearest: [RoadGraph.Snap] = []
        var nearestLarge: [RoadGraph.Snap?] = []
        for (index, point) in points.enumerated() {
            let met = try meeting(point, index: index, approach: passage.approach(index))
            nearest.append(met.nearest)
            nearestLarge.append(met.large)
        }
        var snaps = nearest
        var legs: [Route.Leg] = []
        for index in 1..<points.count {
            // From the nearest road to the nearest road; when they are not connected (an end in
            // a car park closed off from the streets, or on a one-way street leading out of the
            // extract), each end on a large piece of the network instead, as OSRM snaps; how far
            // an end moved is in the route's waypoints. Last, from where the leg before ended.
            let (a, b) = (nearest[index - 1], nearest[index])
            var candidates = [(a, b)]
            if let largeA = nearestLarge[index - 1], let largeB = nearestLarge[index],
                largeA.point != a.point || largeB.point != b.point
            {
                candidates.append((largeA, largeB))
            }
            let ended = snaps[index - 1]
            if index >= 2, ended.point != a.point {
                candidates += [(ended, b)] + (nearestLarge[index].map { [(ended, $0)] } ?? [])
            }
            var found: Route.Leg?
            for (from, to) in candidates {
                guard let leg = leg(from: from, to: to, weights: weights) else { continue }
                if index >= 2, from.point != ended.point {
                    // The leg before ended where this one does not start: route it again to
                    // here, or leave this start for one that does meet it.
                    guard let again = self.leg(from: snaps[index - 2], to: from, weights: weights) else { continue }
                    legs[index - 2] = again
                }
                found = leg
                (snaps[index - 1], snaps[index]) = (from, to)
                break
            }
            guard let leg = found else {
                throw RoutingError.noRoute(from: index - 1, to: index, mode: graph.profile.mode)
            }
            legs.append(leg)
        }
        if points.count > 2, passage.continuesStraight ?? graph.profile.continuesStraightAtStops,
            !goStraightOn(legs, through: snaps), let straight = legsGoingStraightOn(through: snaps, weights: weights)
        {
            legs = straight
        }
        var route = Route(
            legs: legs,
            snapped: snaps.map { snap in
                let way = graph.way(of: self.edge(of: snap))
                return (snap.point, snap.distance, way.name ?? way.ref, graph.hint(of: snap))
            }, mode: graph.profile.mode)
        route.requested = points
        for (index, leg) in legs.enumerated() where !avoiding.isEmpty {
            let taken = avoiding.sorted().filter { feature in
                leg.edges.contains { graph.features(of: $0, among: [feature]) == [feature] }
            }
            guard !taken.isEmpty else { continue }
            let roads = leg.edges.filter { !graph.features(of: $0, among: Set(taken)).isEmpty }.compactMap {
                graph.way(of: $0).name ?? graph.way(of: $0).ref
            }
            var named: [String] = []
            for road in roads where !named.contains(road) { named.append(road) }
            route.notes.append(.avoidanceUnmet(leg: index, features: taken, roads: Array(named.prefix(3))))
        }
        return (route, snaps)
    }

    /// Whether `legs` through `snaps` go straight on past each point between the first and the
    /// last: each leg leaves the point by the edge of the point's own segment the leg before
    /// reached it by. Legs found each on its own that do are the lightest that go straight on
    /// as well (every way of passing they could take includes those), so no search is needed
    /// for them again (``legsGoingStraightOn(through:weights:)``).
    private func goStraightOn(_ legs: [Route.Leg], through snaps: [RoadGraph.Snap]) -> Bool {
        legs.indices.dropFirst().allSatisfy { index in
            guard let reached = legs[index - 1].edges.last, legs[index].edges.first == reached else { return false }
            let segment = graph.segments[Int(snaps[index].segment)]
            return reached == segment.forward || reached == segment.backward
        }
    }

    /// The lightest legs through `snaps` that turn back at none of the points between the
    /// first and the last (OSRM's `continue_straight`): each such point met on its own segment
    /// and left the way it was reached, over every way of passing each; nil when there are
    /// none (a stop on a road that leads nowhere but back), and the legs that turn back stand.
    ///
    /// A dynamic programme over the ways each point is passed, as OSRM's: for each way of
    /// passing the next point, one search from every way of passing the last, each starting
    /// with the weight spent reaching it.
    private func legsGoingStraightOn(through snaps: [RoadGraph.Snap], weights: [Float]?) -> [Route.Leg]? {
        var held = snaps
        for index in 1..<(snaps.count - 1) { held[index].directions = held[index].directions ?? .both }
        /// A way of passing a point: the edge it is passed on and where along it, the lightest
        /// weight up to it, the leg that reaches it and the way of passing the point before
        /// that leg leaves by (its index in the layer before).
        struct Passing {
            var edge: Int32
            var at: Double
            var weight: Float
            var leg: Route.Leg?
            var previous: Int
        }
        var layers = [departures(held[0]).map { Passing(edge: $0.edge, at: $0.at, weight: 0, leg: nil, previous: -1) }]
        for index in 1..<held.count {
            let sources = layers[index - 1]
            guard let least = sources.map(\.weight).min() else { return nil }
            let starts = sources.map { (edge: $0.edge, at: $0.at, spent: $0.weight - least) }
            // Each way of passing a point between on its own; the destination reached any way.
            let arrivals = arrivals(held[index])
            let targets = index == held.count - 1 ? [arrivals] : arrivals.map { [$0] }
            var layer: [Passing] = []
            for target in targets {
                guard
                    let (leg, weight) = lightestLeg(
                        from: held[index - 1], to: held[index], starts: starts, ends: target, weights: weights),
                    let first = leg.edges.first, let source = sources.firstIndex(where: { $0.edge == first })
                else { continue }
                layer.append(
                    Passing(
                        edge: target[0].edge, at: target[0].at, weight: least + weight, leg: leg, previous: source))
            }
            layers.append(layer)
        }
        guard var way = layers[layers.count - 1].indices.min(by: { layers.last![$0].weight < layers.last![$1].weight })
        else { return nil }
        var legs: [Route.Leg] = []
        for index in stride(from: layers.count - 1, to: 0, by: -1) {
            let passing = layers[index][way]
            legs.append(passing.leg!)
            way = passing.previous
        }
        return legs.reversed()
    }

    /// Edge weights that avoid `features` (cached per set), nil for the graph's own.
    private func weights(avoiding features: Set<TravelProfile.RoadFeature>) -> [Float]? {
        guard !features.isEmpty else { return nil }
        if let cached = avoidanceWeights[features] { return cached }
        let weights = graph.weights(avoiding: features)
        avoidanceWeights[features] = weights
        return weights
    }

    /// How far from `point` its road may be: anywhere in the network's extent, else
    /// ``snapRadius``.
    func reach(_ point: Coordinate) -> Double {
        graph.covers(point) ? .infinity : Self.snapRadius
    }

    /// Where point `index`, at `point`, meets the network as `approach` asks: its nearest road
    /// within ``reach(_:)`` (and the approach's radius), and its nearest road on a large piece of
    /// the network (the same one where it lies on one; at most ``snapRadius`` farther; nil
    /// where there is none), as routes and tables snap their points.
    ///
    /// - Throws: ``RoutingError/noRoad(point:at:mode:within:)`` when no road is that near.
    func meeting(_ point: Coordinate, index: Int, approach: Approach) throws -> (
        nearest: RoadGraph.Snap, large: RoadGraph.Snap?
    ) {
        guard let snap = try graph.snap(point, within: reach(point), approach: approach) else {
            throw RoutingError.noRoad(
                point: index, at: point, mode: graph.profile.mode,
                within: approach.radius.map { min($0, reach(point)) } ?? Self.snapRadius)
        }
        let large =
            graph.isInLargePiece(snap)
            ? snap : try graph.snapToLargePiece(point, within: snap.distance + Self.snapRadius, approach: approach)
        return (snap, large)
    }

    /// An edge along a snap's segment (for its way).
    private func edge(of snap: RoadGraph.Snap) -> Int32 {
        let segment = graph.segments[Int(snap.segment)]
        return segment.forward >= 0 ? segment.forward : segment.backward
    }

    /// The fastest leg between two snaps, or nil when they are not connected.
    func leg(from start: RoadGraph.Snap, to end: RoadGraph.Snap, weights: [Float]?) -> Route.Leg? {
        lightestLeg(
            from: start, to: end, starts: departures(start).map { ($0.edge, $0.at, 0) }, ends: arrivals(end),
            weights: weights)?.leg
    }

    /// The lightest leg from one of `starts` (an edge, where along it the leg would start,
    /// 0...1, and the weight spent before reaching it) to one of `ends` (an edge and where
    /// along it the leg ends), with its weight, the spent one included; nil when none connects
    /// them. `start` and `end` are the snaps these lie at.
    ///
    /// The search runs on edges, not nodes, so that each turn can cost its own time and a
    /// turn restriction can forbid it: forward, an edge's label is the time to its end having
    /// travelled it; backward, the time from its start to the end of the leg. The halves meet
    /// at a node, across the turn between an edge into it and an edge out of it.
    func lightestLeg(
        from start: RoadGraph.Snap, to end: RoadGraph.Snap, starts: [(edge: Int32, at: Double, spent: Float)],
        ends: [(edge: Int32, at: Double)], weights: [Float]?
    ) -> (leg: Route.Leg, weight: Float)? {
        let placed = starts.map { (edge: $0.edge, at: $0.at) }
        // Through the hierarchy, unless roads are avoided (other weights) or the two ends share
        // an edge (the end may lie behind the start on it, which its labels cannot tell from
        // ahead).
        if weights == nil, let hierarchy, !starts.contains(where: { start in ends.contains { $0.edge == start.edge } })
        {
            let weight = { (edge: Int32) in self.graph.edgeWeight[Int(edge)] }
            guard
                let (chain, total) = hierarchy.path(
                    from: starts.map { ($0.edge, $0.spent + Float(1 - $0.at) * weight($0.edge)) },
                    to: ends.map { ($0.edge, Float($0.at) * weight($0.edge) - weight($0.edge)) })
            else { return nil }
            return (assemble(from: start, to: end, chain: chain, starts: placed, ends: ends), total)
        }
        guard
            let (chain, total) = search(starts: starts, ends: ends, weights: weights ?? graph.edgeWeight)
        else { return nil }
        return (assemble(from: start, to: end, chain: chain, starts: placed, ends: ends), total)
    }

    /// The lightest chain of edges by a bidirectional search on the graph of turns (no
    /// hierarchy), edges weighing `weights`, from one of `starts` to one of `ends` (as
    /// ``lightestLeg(from:to:starts:ends:weights:)`` takes them), and its weight.
    private func search(
        starts: [(edge: Int32, at: Double, spent: Float)], ends: [(edge: Int32, at: Double)], weights: [Float]
    ) -> (chain: [Int32], weight: Float)? {
        generation &+= 1
        let current = generation
        forward.queue.items.removeAll(keepingCapacity: true)
        backward.queue.items.removeAll(keepingCapacity: true)
        for (edge, at, spent) in starts {
            forward.offer(edge, spent + Float(1 - at) * weights[Int(edge)], parent: -1, in: current)
        }
        for (edge, at) in ends {
            backward.offer(edge, Float(at) * weights[Int(edge)], parent: -1, in: current)
        }
        var best = Float.infinity
        // The meeting: (edge into the node, edge out of it), or (-1, edge) along one edge.
        var meeting: (into: Int32, out: Int32) = (-1, -1)
        // Both on one edge, the end ahead of the start.
        for (edge, from, spent) in starts {
            for (other, to) in ends where other == edge && to >= from {
                let cost = spent + Float(to - from) * weights[Int(edge)]
                if cost < best {
                    best = cost
                    meeting = (-1, edge)
                }
            }
        }
        /// The two halves across the turn `into` → `out`, when both are labelled.
        func meet(_ into: Int32, _ out: Int32) {
            guard forward.has(into, in: current), backward.has(out, in: current), graph.allows(into, out) else {
                return
            }
            let cost = forward.cost(into) + graph.turnWeight(into, out) + backward.cost(out)
            if cost < best {
                best = cost
                meeting = (into, out)
            }
        }
        while !forward.queue.isEmpty || !backward.queue.isEmpty {
            if forward.queue.minimum + backward.queue.minimum >= best { break }
            if forward.queue.minimum <= backward.queue.minimum {
                let (cost, edge) = forward.queue.pop()
                guard cost <= forward.cost(edge) else { continue }
                let node = Int(graph.edgeTo[Int(edge)])
                for slot in Int(graph.firstOut[node])..<Int(graph.firstOut[node + 1]) {
                    let next = graph.outEdge[slot]
                    meet(edge, next)
                    guard graph.allows(edge, next) else { continue }
                    forward.offer(
                        next, cost + graph.turnWeight(edge, next) + weights[Int(next)], parent: edge,
                        in: current)
                }
            } else {
                let (cost, edge) = backward.queue.pop()
                guard cost <= backward.cost(edge) else { continue }
                let node = Int(graph.edgeFrom[Int(edge)])
                for slot in Int(graph.firstIn[node])..<Int(graph.firstIn[node + 1]) {
                    let previous = graph.inEdge[slot]
                    meet(previous, edge)
                    guard graph.allows(previous, edge) else { continue }
                    backward.offer(
                        previous, cost + graph.turnWeight(previous, edge) + weights[Int(previous)],
                        parent: edge,
                        in: current)
                }
            }
        }
        guard best.isFinite else { return nil }
        let chain =
            meeting.into < 0
            ? [meeting.out] : forward.chain(from: meeting.into).reversed() + backward.chain(from: meeting.out)
        return (chain, best)
    }

    /// Where a leg from `snap` may start: each edge it may leave by, and where along it
    /// (0...1 of its length) it starts. A point on a node leaves by any edge out of it.
    func departures(_ snap: RoadGraph.Snap) -> [(edge: Int32, at: Double)] {
        edges(at: snap, onNode: { graph.outEdges(of: $0) }, nodeAt: 0)
    }

    /// Where a leg to `snap` may end: each edge it may arrive by, and where along it (0...1)
    /// it ends. A point on a node is reached by any edge into it.
    func arrivals(_ snap: RoadGraph.Snap) -> [(edge: Int32, at: Double)] {
        edges(at: snap, onNode: { graph.inEdges(of: $0) }, nodeAt: 1)
    }

    /// The edges of `snap`'s segment with the snap's place along each (those of its
    /// ``RoadGraph/Snap/directions`` when it holds to some), and, for a snap on a node held to
    /// none, the node's edges `onNode` gives, the node `nodeAt` along them.
    private func edges(at snap: RoadGraph.Snap, onNode: (Int) -> ArraySlice<Int32>, nodeAt: Double) -> [(
        edge: Int32, at: Double
    )] {
        let segment = graph.segments[Int(snap.segment)]
        let directions = snap.directions ?? .both
        var options: [(edge: Int32, at: Double)] = []
        if segment.forward >= 0, directions.contains(.along) { options.append((segment.forward, snap.fraction)) }
        if segment.backward >= 0, directions.contains(.against) {
            options.append((segment.backward, 1 - snap.fraction))
        }
        if snap.directions == nil, let node = graph.node(at: snap) {
            for edge in onNode(node) where !options.contains(where: { $0.edge == edge }) {
                options.append((edge, nodeAt))
            }
        }
        return options
    }

    /// The leg's positions and annotations along `chain`, its edges in order (the first and
    /// last only in part, from and to the snapped points).
    func assemble(
        from start: RoadGraph.Snap, to end: RoadGraph.Snap, chain: [Int32],
        starts: [(edge: Int32, at: Double)], ends: [(edge: Int32, at: Double)]
    ) -> Route.Leg {
        var points = [start.point]
        var nodes = chain.first.map { [graph.osmNodes[Int(graph.edgeFrom[Int($0)])]] } ?? []
        var distances: [Double] = []
        var durations: [Double] = []
        var ways: [Int32] = []
        // Seconds of a piece of no length (a turn at a node the leg starts or ends on), carried
        // onto the segment before it, else the one after.
        var carried = 0.0
        /// Adds the segment to `point`, `metres` long, ending at OSM node `node`.
        func add(_ point: Coordinate, node: Int64, metres: Double, seconds: Double, way: Int32) {
            // A snapped point on a node adds no segment of its own; a start on the first edge's
            // end is at that edge's end node.
            guard point != points.last! else {
                if points.count == 1 { nodes[0] = node }
                if durations.isEmpty { carried += seconds } else { durations[durations.count - 1] += seconds }
                return
            }
            distances.append(metres)
            durations.append(seconds + carried)
            carried = 0
            ways.append(way)
            points.append(point)
            nodes.append(node)
        }
        /// Where along `edge` the leg starts and ends (0...1).
        func startAt(_ edge: Int32) -> Double { starts.first { $0.edge == edge }?.at ?? 0 }
        func endAt(_ edge: Int32) -> Double { ends.first { $0.edge == edge }?.at ?? 1 }
        var edgeDistances: [Double] = []
        var edgeDurations: [Double] = []
        for (position, edge) in chain.enumerated() {
            let seconds = Double(graph.edgeDuration[Int(edge)])
            let way = graph.edgeWay[Int(edge)]
            let isLast = position == chain.count - 1
            // The part of the first and last edges the leg travels.
            let from = position == 0 ? startAt(edge) : 0
            let to = isLast ? endAt(edge) : 1
            let turn = position > 0 ? Double(graph.turnDuration(chain[position - 1], edge)) : 0
            let point = isLast ? end.point : graph.positions[Int(graph.edgeTo[Int(edge)])]
            let metres = points.last!.distance(to: point)
            edgeDistances.append(metres)
            edgeDurations.append(max(0, to - from) * seconds + turn)
            add(
                point, node: graph.osmNodes[Int(graph.edgeTo[Int(edge)])], metres: metres,
                seconds: max(0, to - from) * seconds + turn, way: way)
        }
        var roads: [String] = []
        var lastWay: Int32 = -1
        for way in ways where way != lastWay {
            lastWay = way
            let info = graph.ways[Int(way)]
            if let road = info.name ?? info.ref, roads.last != road { roads.append(road) }
        }
        return Route.Leg(
            distance: distances.reduce(0, +), duration: durations.reduce(0, +), geometry: points,
            segmentDistances: distances, segmentDurations: durations,
            segmentWays: ways.map { graph.ways[Int($0)].osmID },
            segmentsOffGround: ways.map { graph.ways[Int($0)].isOffGround }, nodes: nodes, roads: roads, edges: chain,
            edgeDistances: edgeDistances, edgeDurations: edgeDurations)
    }
}
