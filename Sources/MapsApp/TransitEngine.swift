import Foundation
import GeoCore
import MapData
import Routing
import Transit

/// Plans public transport journeys on the imported feeds' timetables. A server calls it from
/// several threads at once.
public protocol TransitFinding: Sendable {
    /// The time zone of the imported timetables (the first feed's), nil without one.
    func timezone() throws -> String?

    /// The journeys from `origin` to `destination` leaving at `time` (the feeds' local time;
    /// nil: now), earliest arrival first; empty when no feed is imported or none gets there.
    func journeys(from origin: Coordinate, to destination: Coordinate, leaving time: ServiceTime?) throws
        -> [Journey]

    /// The journey leaving latest that arrives by `time` (the feeds' local time), and the walk
    /// all the way when it arrives in time.
    func journeys(from origin: Coordinate, to destination: Coordinate, arrivingBy time: ServiceTime) throws
        -> [Journey]
}

/// ``TransitFinding`` on a store: its timetables, laid out once (on first use) and then read
/// by several threads at once, and walks by the store's walking graph, straight lines where no
/// street data covers a stop.
public final class StoreTransit: TransitFinding, @unchecked Sendable {
    let connections: StorePool
    let walking: StoreRouting
    // Guarded by `lock`; once built, the planner is only read.
    private let lock = NSLock()
    private var planner: JourneyPlanner?

    init(connections: StorePool, walking: StoreRouting) {
        self.connections = connections
        self.walking = walking
    }

    /// The first imported feed's time zone (an IANA name), nil without a timetable.
    public func timezone() throws -> String? { try loaded().network.feeds.first?.timetable.timezone }

    /// Journeys from `origin` to `destination` leaving at `time` (now in the feed's time zone when nil), with the walks' turns.
    public func journeys(from origin: Coordinate, to destination: Coordinate, leaving time: ServiceTime?) throws
        -> [Journey]
    {
        let planner = try loaded()
        guard let zone = planner.network.feeds.first.flatMap({ TimeZone(identifier: $0.timetable.timezone) }) else {
            return []
        }
        return withTurns(
            planner.journeys(from: origin, to: destination, leaving: time ?? ServiceTime(Date(), in: zone)))
    }

    /// Journeys from `origin` to `destination` arriving by `time`, the latest departure first found, with the walks' turns.
    public func journeys(from origin: Coordinate, to destination: Coordinate, arrivingBy time: ServiceTime) throws
        -> [Journey]
    {
        withTurns(try loaded().journeys(from: origin, to: destination, arrivingBy: time))
    }

    /// `journeys` with the turns of their walks by the streets, for those with a ride (the walk
    /// all the way keeps its line: `route --mode walking` gives its turns).
    private func withTurns(_ journeys: [Journey]) -> [Journey] {
        journeys.map { journey in
            guard journey.rides > 0 else { return journey }
            var turned = journey
            for index in turned.legs.indices {
                guard case .walk(var leg) = turned.legs[index], let route = leg.walk.route else { continue }
                leg.walk.steps = Array(((try? walking.steps(of: route)) ?? []).joined())
                turned.legs[index] = .walk(leg)
            }
            return turned
        }
    }

    /// The planner, built on first use.
    private func loaded() throws -> JourneyPlanner {
        lock.lock()
        defer { lock.unlock() }
        if let planner { return planner }
        let feeds = try connections.with { try $0.timetables() }
        // Changes between stops are timed along straight lines (thousands of stop pairs in a
        // city's feed); the walks at the journey's ends go by the streets.
        let network = TransitNetwork(feeds: feeds) { from, to in Walk.straight(from, to).seconds }
        let routing = walking
        let built = JourneyPlanner(network: network, walk: walker()) { from, targets in
            // One search from the point, as far as the farthest stop could be walked (half as
            // far again as the straight line, at 5 km/h).
            let farthest = targets.map { from.distance(to: $0) }.max() ?? 0
            let limit = farthest * 1.5 / 1.39 + 60
            let times =
                (try? routing.durations(from: from, to: targets, mode: .walking, limit: limit))
                ?? Array(repeating: nil, count: targets.count)
            return times.map { $0.map { Int($0.rounded()) } }
        }
        planner = built
        return built
    }

    /// A walk by streets where the store has a walking graph around both points, else a
    /// straight line (said by ``Walk/straightLine``).
    private func walker() -> (Coordinate, Coordinate) -> Walk {
        let routing = walking
        return { from, to in
            guard let route = try? routing.route([from, to], mode: .walking), route.distance < 50_000,
                // A snap far from either point means the streets do not reach it.
                route.snapped.allSatisfy({ $0.distance < 200 })
            else { return Walk.straight(from, to) }
            return Walk(route: route)
        }
    }
}
