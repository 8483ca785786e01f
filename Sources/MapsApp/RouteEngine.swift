import Foundation
import GeoCore
import MapData
import Routing

/// Finds routes through points for a way of travel. A server calls it from several threads at
/// once.
public protocol RouteFinding: Sendable {
    /// The route through `points` in order for `mode`, keeping off the kinds of road in
    /// `avoiding` where it can, passing the points as `passage` asks.
    func route(
        _ points: [Coordinate], mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature>,
        passing passage: Router.Passage
    ) throws -> Route
    /// The turn-by-turn steps of a route it found, per leg.
    func steps(of route: Route) throws -> [[Step]]
    /// The best route from `from` to `to` and up to `alternatives` (at most 2) others.
    func routes(
        from: Coordinate, to: Coordinate, mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature>,
        passing passage: Router.Passage, alternatives: Int
    ) throws -> [Route]
    /// The durations and distances from the `points` `sources` names (by index) to those
    /// `destinations` names, for `mode`, each point met as its entry of `approaches` asks (one
    /// a point; none for any way).
    func table(
        _ points: [Coordinate], sources: [Int], destinations: [Int], mode: TravelProfile.Mode, approaches: [Approach]
    ) throws -> RouteTable
    /// The `count` nearest road segments `mode` travels to `point`, nearest first.
    func nearest(_ point: Coordinate, count: Int, mode: TravelProfile.Mode, approach: Approach) throws
        -> [NearestRoad]
    /// The quickest trip through `points` for `mode`, passing them as `passage` asks (its
    /// approaches one a point, in the order given: ``Router/trip(_:roundTrip:passing:)``).
    func trip(_ points: [Coordinate], roundTrip: Bool, mode: TravelProfile.Mode, passing passage: Router.Passage)
        throws -> Trip
    /// The area reached from `origin` within each limit for `mode`: seconds, or metres when
    /// `byDistance` (``Router/isochrone(from:seconds:)``).
    func isochrone(from origin: Coordinate, limits: [Double], byDistance: Bool, mode: TravelProfile.Mode) throws
        -> Isochrone
    /// `trace` matched to `mode`'s roads (``Router/match(_:splitsAtGaps:tidy:)``).
    func match(_ trace: [TracePoint], splitsAtGaps: Bool, tidy: Bool, mode: TravelProfile.Mode) throws -> TraceMatch
}

extension RouteFinding {
    /// The route through `points` in order for `mode`, keeping off the kinds of road in
    /// `avoiding` where it can, meeting the points any way and going straight on past the stops
    /// as the mode goes.
    public func route(_ points: [Coordinate], mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature> = [])
        throws -> Route
    {
        try route(points, mode: mode, avoiding: avoiding, passing: Router.Passage())
    }

    /// Without a road graph of its own: the snapped start of a route from the point to itself.
    public func nearest(_ point: Coordinate, count: Int, mode: TravelProfile.Mode, approach: Approach) throws
        -> [NearestRoad]
    {
        let start = try route(
            [point, point], mode: mode, avoiding: [], passing: Router.Passage(approaches: [approach, approach])
        ).snapped.first
        return start.map { [NearestRoad(location: $0.point, distance: $0.distance, name: $0.road, nodes: [])] } ?? []
    }

    /// No road graph of its own: no trace is matched.
    public func match(_ trace: [TracePoint], splitsAtGaps: Bool, tidy: Bool, mode: TravelProfile.Mode) throws
        -> TraceMatch
    {
        throw RoutingError.noRoad(
            point: 0, at: trace.first?.coordinate ?? Coordinate(latitude: 0, longitude: 0), mode: mode)
    }

    /// No road graph of its own: no isochrone.
    public func isochrone(from origin: Coordinate, limits: [Double], byDistance: Bool, mode: TravelProfile.Mode)
        throws -> Isochrone
    {
        throw RoutingError.noRoad(point: 0, at: origin, mode: mode)
    }

    /// A trip ordered by the table's durations (``Router/tripOrder(_:roundTrip:)``), routed
    /// through in that order.
    public func trip(_ points: [Coordinate], roundTrip: Bool, mode: TravelProfile.Mode, passing passage: Router.Passage)
        throws -> Trip
    {
        let all = Array(points.indices)
        let table = try table(points, sources: all, destinations: all, mode: mode, approaches: passage.approaches)
        let order = Router.tripOrder(table.durations.map { $0.map { $0 ?? .infinity } }, roundTrip: roundTrip)
        let visits = roundTrip ? order + [0] : order
        let visiting = Router.Passage(
            approaches: visits.map(passage.approach), continuesStraight: passage.continuesStraight)
        var route = try self.route(visits.map { points[$0] }, mode: mode, avoiding: [], passing: visiting)
        route.snapped = Array(route.snapped.prefix(order.count))
        return Trip(order: order, route: route)
    }

    /// A table of a route a cell, where points meet the roads as each route's first says.
    public func table(
        _ points: [Coordinate], sources: [Int], destinations: [Int], mode: TravelProfile.Mode, approaches: [Approach]
    ) throws -> RouteTable {
        let passage = Router.Passage(approaches: approaches)
        var table = RouteTable(durations: [], distances: [], sources: [], destinations: [])
        func waypoint(
            _ snapped: (point: Coordinate, distance: Double, road: String?, hint: RoadGraph.Hint?)?, _ point: Coordinate
        )
            -> RouteTable.Waypoint
        {
            RouteTable.Waypoint(
                location: snapped?.point ?? point, distance: snapped?.distance ?? 0, name: snapped?.road,
                hint: snapped?.hint)
        }
        for (row, source) in sources.enumerated() {
            let routes = destinations.map {
                try? route(
                    [points[source], points[$0]], mode: mode, avoiding: [],
                    passing: Router.Passage(approaches: [passage.approach(source), passage.approach($0)]))
            }
            table.durations.append(routes.map { $0?.duration })
            table.distances.append(routes.map { $0?.distance })
            if row == 0 {
                table.destinations = zip(destinations, routes).map { waypoint($1?.snapped.last, points[$0]) }
            }
            table.sources.append(waypoint(routes.compactMap { $0?.snapped.first }.first, points[source]))
        }
        return table
    }
}

/// ``RouteFinding`` on the store's road network: each mode's graph and stored hierarchy loaded
/// on first use and kept, shared read-only by routers that each hold their own search state,
/// so that several threads route at once (one router per thread routing, made on demand).
public final class StoreRouting: RouteFinding, @unchecked Sendable {
    let connections: StorePool
    // Guarded by `lock`: each mode's first router (and its note), and the routers not in use.
    private let lock = NSLock()
    private var loaded: [TravelProfile.Mode: (router: Router, note: Route.Note?)] = [:]
    private var idle: [TravelProfile.Mode: [Router]] = [:]

    init(connections: StorePool) { self.connections = connections }

    /// Routes on the store at `path` (a SQLite file or a `postgresql://` URL).
    public convenience init(storePath path: String) { self.init(connections: StorePool(path: path)) }

    /// The route, with a note when the store's routing graph for the mode is missing or stale
    /// (``RoutingGraphs/router(store:mode:)``).
    public func route(
        _ points: [Coordinate], mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature>,
        passing passage: Router.Passage
    ) throws -> Route {
        try routing(mode) { router, note in
            var route = try router.route(points, avoiding: avoiding, passing: passage)
            if let note { route.notes.append(note) }
            return route
        }
    }

    /// The best route from `from` to `to` for `mode` and up to `alternatives` others (0...2), on a router of its own for the calling thread.
    public func routes(
        from: Coordinate, to: Coordinate, mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature> = [],
        passing passage: Router.Passage = Router.Passage(), alternatives: Int
    ) throws -> [Route] {
        try routing(mode) { router, note in
            var routes = try router.routes(
                from: from, to: to, avoiding: avoiding, passing: passage, alternatives: alternatives)
            if let note { routes[0].notes.append(note) }
            return routes
        }
    }

    /// Seconds from `origin` to each of `targets` for `mode`, by one search up to `limit`
    /// seconds (``Router/durations(from:to:limit:)``); nil for those not reached.
    public func durations(
        from origin: Coordinate, to targets: [Coordinate], mode: TravelProfile.Mode, limit: Double
    ) throws -> [Double?] {
        try routing(mode) { router, _ in try router.durations(from: origin, to: targets, limit: limit) }
    }

    /// The table from the `points` `sources` names to those `destinations` names for `mode`,
    /// by one many-to-many search (``Router/table(_:sources:destinations:approaches:)``).
    public func table(
        _ points: [Coordinate], sources: [Int], destinations: [Int], mode: TravelProfile.Mode, approaches: [Approach]
    ) throws -> RouteTable {
        try routing(mode) { router, _ in
            try router.table(points, sources: sources, destinations: destinations, approaches: approaches)
        }
    }

    /// The `count` nearest road segments `mode` travels to `point` (``Router/nearest(_:count:)``).
    public func nearest(_ point: Coordinate, count: Int, mode: TravelProfile.Mode, approach: Approach) throws
        -> [NearestRoad]
    {
        try routing(mode) { router, _ in try router.nearest(point, count: count, approach: approach) }
    }

    /// The quickest trip through `points` for `mode` (``Router/trip(_:roundTrip:passing:)``).
    public func trip(_ points: [Coordinate], roundTrip: Bool, mode: TravelProfile.Mode, passing passage: Router.Passage)
        throws -> Trip
    {
        try routing(mode) { router, _ in try router.trip(points, roundTrip: roundTrip, passing: passage) }
    }

    /// The area reached from `origin` within each limit for `mode` (``Router/isochrone(from:seconds:)``).
    public func isochrone(from origin: Coordinate, limits: [Double], byDistance: Bool, mode: TravelProfile.Mode)
        throws -> Isochrone
    {
        try routing(mode) { router, _ in
            byDistance
                ? try router.isochrone(from: origin, metres: limits)
                : try router.isochrone(from: origin, seconds: limits)
        }
    }

    /// `trace` matched to `mode`'s roads (``Router/match(_:splitsAtGaps:tidy:)``).
    public func match(_ trace: [TracePoint], splitsAtGaps: Bool, tidy: Bool, mode: TravelProfile.Mode) throws
        -> TraceMatch
    {
        try routing(mode) { router, _ in try router.match(trace, splitsAtGaps: splitsAtGaps, tidy: tidy) }
    }

    /// The turn-by-turn steps of each of `route`'s legs.
    public func steps(of route: Route) throws -> [[Step]] {
        try routing(route.mode) { router, _ in router.steps(of: route) }
    }

    /// `body` with a router for `mode` that no other thread is using, and the mode's note.
    private func routing<T>(_ mode: TravelProfile.Mode, _ body: (Router, Route.Note?) throws -> T) throws -> T {
        let (router, note) = try taken(mode)
        defer { lock.withLock { idle[mode, default: []].append(router) } }
        return try body(router, note)
    }

    /// An idle router for `mode`, else a new one on the mode's graph (loaded from the store on
    /// first use).
    private func taken(_ mode: TravelProfile.Mode) throws -> (Router, Route.Note?) {
        lock.lock()
        defer { lock.unlock() }
        if loaded[mode] == nil {
            loaded[mode] = try connections.with { try RoutingGraphs.router(store: $0, mode: mode) }
            return loaded[mode]!
        }
        let first = loaded[mode]!
        return (idle[mode]?.popLast() ?? first.router.sharingGraph(), first.note)
    }
}
