import Foundation
import GeoCore
import MapData
import Routing

/// Finds routes through points for a way of travel.
public protocol RouteFinding {
    func route(_ points: [Coordinate], mode: TravelProfile.Mode) throws -> Route
}

/// ``RouteFinding`` on the store's road network: each mode's graph built on first use and kept.
public final class StoreRouting: RouteFinding, @unchecked Sendable {
    public let store: MapStore
    private var routers: [TravelProfile.Mode: Router] = [:]
    private let lock = NSLock()

    public init(store: MapStore) { self.store = store }

    public func route(_ points: [Coordinate], mode: TravelProfile.Mode) throws -> Route {
        lock.lock()
        defer { lock.unlock() }
        let router: Router
        if let cached = routers[mode] {
            router = cached
        } else {
            router = Router(graph: try RoadGraph(store: store, profile: TravelProfile(mode)))
            routers[mode] = router
        }
        return try router.route(points)
    }
}

extension MapsApp {
    /// The fastest route through `points` in order for `mode`.
    ///
    /// - Throws: ``AppError/noRoute(_:)`` saying which point has no road or which are not
    ///   connected; `engineMissing` without a road network.
    public func route(_ points: [Coordinate], mode: TravelProfile.Mode) throws(AppError) -> Route {
        guard let routing else { throw .engineMissing("routing") }
        do { return try routing.route(points, mode: mode) } catch let error as RoutingError {
            throw .noRoute(error.description)
        } catch {
            throw .engineFailed("routing", underlying: error)
        }
    }
}
