import Foundation
import GeoCore
import MapData
import Routing

/// Finds routes through points for a way of travel.
public protocol RouteFinding {
    /// The route through `points` in order for `mode`, keeping off the kinds of road in
    /// `avoiding` where it can.
    func route(_ points: [Coordinate], mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature>) throws
        -> Route
    /// The turn-by-turn steps of a route it found, per leg.
    func steps(of route: Route) throws -> [[Step]]
    /// The best route from `from` to `to` and up to `alternatives` (at most 2) others.
    func routes(
        from: Coordinate, to: Coordinate, mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature>,
        alternatives: Int
    ) throws -> [Route]
}

/// ``RouteFinding`` on the store's road network: each mode's graph and stored hierarchy loaded
/// on first use and kept.
public final class StoreRouting: RouteFinding, @unchecked Sendable {
    public let store: MapStore
    private var routers: [TravelProfile.Mode: (router: Router, note: Route.Note?)] = [:]
    private let lock = NSLock()

    public init(store: MapStore) { self.store = store }

    /// The route, with a note when the store's routing graph for the mode is missing or stale
    /// (``RoutingGraphs/router(store:mode:)``).
    public func route(
        _ points: [Coordinate], mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature> = []
    ) throws -> Route {
        lock.lock()
        defer { lock.unlock() }
        let (router, note) = try loaded(mode)
        var route = try router.route(points, avoiding: avoiding)
        if let note { route.notes.append(note) }
        return route
    }

    public func routes(
        from: Coordinate, to: Coordinate, mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature> = [],
        alternatives: Int
    ) throws -> [Route] {
        lock.lock()
        defer { lock.unlock() }
        let (router, note) = try loaded(mode)
        var routes = try router.routes(from: from, to: to, avoiding: avoiding, alternatives: alternatives)
        if let note { routes[0].notes.append(note) }
        return routes
    }

    /// Seconds from `origin` to each of `targets` for `mode`, by one search up to `limit`
    /// seconds (``Router/durations(from:to:limit:)``); nil for those not reached.
    public func durations(
        from origin: Coordinate, to targets: [Coordinate], mode: TravelProfile.Mode, limit: Double
    ) throws -> [Double?] {
        lock.lock()
        defer { lock.unlock() }
        return try loaded(mode).router.durations(from: origin, to: targets, limit: limit)
    }

    public func steps(of route: Route) throws -> [[Step]] {
        lock.lock()
        defer { lock.unlock() }
        return try loaded(route.mode).router.steps(of: route)
    }

    /// The mode's router, loaded on first use (callers hold the lock).
    private func loaded(_ mode: TravelProfile.Mode) throws -> (router: Router, note: Route.Note?) {
        if let cached = routers[mode] { return cached }
        let loaded = try RoutingGraphs.router(store: store, mode: mode)
        routers[mode] = loaded
        return loaded
    }
}
