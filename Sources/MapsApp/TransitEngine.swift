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

    /// The realtime feeds followed and those left out, for notes; none by default.
    func realtimeState() throws -> RealtimeState

    /// The vehicles of the realtime feeds followed; none by default.
    func vehicles() throws -> [LiveVehicle]

    /// The alerts of the realtime feeds followed that name stops, active at `time` (POSIX
    /// seconds); none by default.
    func stopAlerts(at time: Int) throws -> [StopAlert]
}

extension TransitFinding {
    public func realtimeState() throws -> RealtimeState { RealtimeState() }
    public func vehicles() throws -> [LiveVehicle] { [] }
    public func stopAlerts(at time: Int) throws -> [StopAlert] { [] }
}

/// Which realtime feeds the journeys follow.
public struct RealtimeState: Sendable, Equatable {
    /// The feeds followed: GTFS feed, location, and when the message was made or read (POSIX seconds).
    public var followed: [Feed] = []
    /// The feeds left out because they are older than their maximum age, or do not read.
    public var ignored: [Feed] = []

    /// A realtime feed kept for a GTFS feed.
    public struct Feed: Sendable, Equatable {
        public var source: String
        public var location: String
        /// When its message was made (its timestamp), else read; POSIX seconds.
        public var time: Int
        /// Why it is left out: "stale" or what failed; nil when followed.
        public var problem: String?
        /// How old its message was when judged by a clock, seconds; nil without a clock.
        public var age: Int?
    }

    public init() {}
}

/// ``TransitFinding`` on a store: its timetables, laid out once (on first use) and then read
/// by several threads at once, and walks by the store's walking graph, straight lines where no
/// street data covers a stop.
public final class StoreTransit: TransitFinding, @unchecked Sendable {
    let connections: StorePool
    let walking: StoreRouting
    // Guarded by `lock`; once built, a planner is only read (a new feed makes a new one).
    private let lock = NSLock()
    private var base: JourneyPlanner?
    private var planner: JourneyPlanner?
    /// The realtime messages followed, by GTFS feed and location; nil until read from the store.
    private var messages: [String: StoredRealtimeFeed]?
    private var state = RealtimeState()
    /// When the first message followed goes stale by the clock, POSIX seconds.
    private var staleAt = Double.infinity
    /// The clock realtime feeds are judged against (a server's), nil to follow the last message
    /// kept whatever its age (the command line replays a feed).
    private var clock: (@Sendable () -> Date)?

    init(connections: StorePool, walking: StoreRouting) {
        self.connections = connections
        self.walking = walking
    }

    /// Judges realtime messages against `clock` from now on: one older than its feed's
    /// maximum age is left out, and said so.
    public func judgeRealtime(by clock: @escaping @Sendable () -> Date) {
        lock.withLock {
            self.clock = clock
            planner = nil
        }
    }

    /// Follows `message` (a realtime feed polled again) instead of the one kept for its feed
    /// and location; journeys planned from now on use it.
    public func receive(_ message: StoredRealtimeFeed) throws {
        _ = try loaded()
        lock.withLock {
            messages?["\(message.source)\u{1F}\(message.location)"] = message
            planner = nil
        }
    }

    /// The realtime feeds kept with the store, as last read or received.
    public func realtimeFeeds() throws -> [StoredRealtimeFeed] {
        _ = try loaded()
        return lock.withLock { messages.map { Array($0.values) } ?? [] }.sorted {
            ($0.source, $0.location) < ($1.source, $1.location)
        }
    }

    public func realtimeState() throws -> RealtimeState {
        _ = try loaded()
        return lock.withLock { state }
    }

    public func vehicles() throws -> [LiveVehicle] { try loaded().network.vehicles }

    public func stopAlerts(at time: Int) throws -> [StopAlert] { try loaded().network.stopAlerts(at: time) }

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

    /// The planner on the timetables at the realtime feeds' times, built on first use and again
    /// after a feed is received.
    private func loaded() throws -> JourneyPlanner {
        lock.lock()
        defer { lock.unlock() }
        let now = clock?().timeIntervalSince1970
        // A message followed goes stale as the clock runs, without a new one coming.
        if let planner, now.map({ $0 <= staleAt }) ?? true { return planner }
        let base = try self.base ?? published()
        self.base = base
        if messages == nil {
            let kept = try connections.with { try $0.realtimeFeeds() }
            messages = Dictionary(kept.map { ("\($0.source)\u{1F}\($0.location)", $0) }, uniquingKeysWith: { $1 })
        }
        let kept = messages.map { Array($0.values) } ?? []
        let (live, state) = Self.live(kept, network: base.network, now: now)
        self.state = state
        staleAt =
            state.followed.compactMap { feed in
                kept.first { $0.source == feed.source && $0.location == feed.location }.map {
                    Double(feed.time + $0.maxAge)
                }
            }.min() ?? .infinity
        let built =
            live.isEmpty
            ? base : JourneyPlanner(network: base.network.following(live), walk: base.walk, walkTimes: base.walkTimes)
        planner = built
        return built
    }

    /// The feeds' timetables at the times of `messages`, merged per GTFS feed, with those older
    /// than their maximum age at `now` (POSIX seconds; nil: none is too old) left out.
    static func live(_ messages: [StoredRealtimeFeed], network: TransitNetwork, now: Double?) -> (
        [String: LiveTimetable], RealtimeState
    ) {
        var state = RealtimeState()
        var merged: [String: RealtimeFeed] = [:]
        for message in messages.sorted(by: { ($0.source, $0.location) < ($1.source, $1.location) }) {
            guard network.feeds.contains(where: { $0.source == message.source }) else { continue }
            let feed: RealtimeFeed
            do { feed = try message.feed() } catch {
                state.ignored.append(
                    .init(
                        source: message.source, location: message.location, time: message.fetched, problem: "\(error)"))
                continue
            }
            let time = feed.timestamp ?? message.fetched
            var entry = RealtimeState.Feed(source: message.source, location: message.location, time: time)
            entry.age = now.map { Int($0) - time }
            if let now, now - Double(time) > Double(message.maxAge) {
                entry.problem = "stale"
                state.ignored.append(entry)
                continue
            }
            state.followed.append(entry)
            var combined = merged[message.source] ?? RealtimeFeed(version: feed.version, timestamp: feed.timestamp)
            combined.tripUpdates += feed.tripUpdates
            combined.alerts += feed.alerts
            combined.vehicles += feed.vehicles
            combined.timestamp = [combined.timestamp, feed.timestamp].compactMap { $0 }.min()
            merged[message.source] = combined
        }
        var live: [String: LiveTimetable] = [:]
        for (source, feed) in merged {
            guard let timetable = network.feeds.first(where: { $0.source == source })?.timetable else { continue }
            live[source] = LiveTimetable(timetable: timetable, feed: feed)
        }
        return (live, state)
    }

    /// The planner on the timetables as published.
    private func published() throws -> JourneyPlanner {
        let feeds = try connections.with { try $0.timetables() }
        // Changes between stops are timed along straight lines (thousands of stop pairs in a
        // city's feed); the walks at the journey's ends go by the streets.
        let network = TransitNetwork(feeds: feeds) { from, to in Walk.straight(from, to).seconds }
        let routing = walking
        return JourneyPlanner(network: network, walk: walker()) { from, targets in
            // One search from the point, as far as the farthest stop could be walked (half as
            // far again as the straight line, at 5 km/h).
            let farthest = targets.map { from.distance(to: $0) }.max() ?? 0
            let limit = farthest * 1.5 / 1.39 + 60
            let times =
                (try? routing.durations(from: from, to: targets, mode: .walking, limit: limit))
                ?? Array(repeating: nil, count: targets.count)
            return times.map { $0.map { Int($0.rounded()) } }
        }
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
