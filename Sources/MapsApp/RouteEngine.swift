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
}

/// ``RouteFinding`` on the store's road network: each mode's graph and stored hierarchy loaded
/// on first use and kept.
public final class StoreRouting: RouteFinding, @unchecked Sendable {
    public let store: MapStore
    private var routers: [TravelProfile.Mode: (router: Router, note: String?)] = [:]
    private let lock = NSLock()

    public init(store: MapStore) { self.store = store }

    /// The route, with a note when the store's routing graph for the mode is missing or stale
    /// (``RoutingGraphs/router(store:mode:)``).
    public func route(
        _ points: [Coordinate], mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature> = []
    ) throws -> Route {
        lock.lock()
        defer { lock.unlock() }
        let loaded: (router: Router, note: String?)
        if let cached = routers[mode] {
            loaded = cached
        } else {
            loaded = try RoutingGraphs.router(store: store, mode: mode)
            routers[mode] = loaded
        }
        var route = try loaded.router.route(points, avoiding: avoiding)
        if let note = loaded.note { route.notes.append(Route.Note(.routingGraphStale, note)) }
        return route
    }
}

extension MapsApp {
    /// The fastest route through `points` in order for `mode`, keeping off the kinds of road in
    /// `avoiding` where another way is not far longer (a note in the route says when it cannot).
    ///
    /// - Throws: ``AppError/noRoute(_:)`` saying which point has no road or which are not
    ///   connected; `engineMissing` without a road network.
    public func route(
        _ points: [Coordinate], mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature> = []
    ) throws(AppError) -> Route {
        guard let routing else { throw .engineMissing("routing") }
        do { return try routing.route(points, mode: mode, avoiding: avoiding) } catch let error as RoutingError {
            throw .noRoute(error.description)
        } catch {
            throw .engineFailed("routing", underlying: error)
        }
    }
}
