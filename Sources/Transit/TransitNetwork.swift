import Foundation
import GeoCore
import MapData

/// The imported feeds' timetables laid out for a round-based search (RAPTOR): stops of every
/// feed numbered together, trips grouped into patterns (the trips of one route calling at the
/// same stops in the same order), each pattern's trips ordered by departure, and the stops
/// near each stop to walk to.
public struct TransitNetwork: Sendable {
    /// A stop of some feed.
    public struct Stop: Sendable {
        /// The stop's name as the feed gives it.
        public var name: String
        /// Where the stop is.
        public var coordinate: Coordinate
        /// Its feed, by index in ``feeds``.
        public var feed: Int
    }

    /// Trips calling at the same stops in the same order, on one route.
    struct Pattern: Sendable {
        var feed: Int
        var route: Int
        var stops: [Int]
        /// Its trips (by index in their feed's timetable), ordered by departure at the first stop.
        var trips: [Int]
        /// `times[trip * stops.count + position]`: arrival and departure, seconds after midnight.
        var arrivals: [Int32]
        var departures: [Int32]
        /// Per stop of the pattern: whether riders may board, and get off, there (its trips share
        /// these rules: they are part of what makes a pattern).
        var boarding: [Bool]
        var alighting: [Bool]
    }

    /// The feeds laid out, each with the source it was imported from.
    public private(set) var feeds: [(source: String, timetable: Timetable)]
    /// Per feed, the realtime feed its timetable follows (``LiveTimetable``), nil for the
    /// timetable as published.
    public private(set) var live: [LiveTimetable?]
    /// Every feed's stops, numbered together.
    public private(set) var stops: [Stop] = []
    var patterns: [Pattern] = []
    /// For each stop, the patterns calling there and at which position.
    var stopPatterns: [[(pattern: Int, position: Int)]] = []
    /// For each stop, the stops a walk away and the seconds it takes.
    var footpaths: [[(stop: Int, seconds: Int)]] = []
    /// The first network stop of each feed.
    var feedOffsets: [Int] = []
    /// The stops by cell, to find those near a point.
    var grid = StopGrid([], cell: 1)
    /// A stop's own change time between two rides where `transfers.txt` gives one (from the
    /// stop to itself); nil for the planner's default.
    var changeTimes: [Int?] = []

    /// The farthest a transfer walks between two stops: 800 m (as Valhalla allows).
    public static let transferRadius = 800.0

    /// The network of `feeds`; `walk` gives the seconds to walk between two stops (nil: not
    /// walkable), asked for pairs closer than ``transferRadius``.
    public init(feeds: [(source: String, timetable: Timetable)], walk: (Coordinate, Coordinate) -> Int?) {
        self.feeds = feeds
        live = Array(repeating: nil, count: feeds.count)
        for entry in feeds {
            feedOffsets.append(stops.count)
            stops += entry.timetable.stops.map {
                Stop(name: $0.name, coordinate: $0.coordinate, feed: feedOffsets.count - 1)
            }
        }
        layOutPatterns()
        footpaths = Array(repeating: [], count: stops.count)
        grid = StopGrid(stops.map(\.coordinate), cell: Self.transferRadius)
        for stop in stops.indices {
            for other in grid.near(stops[stop].coordinate, within: Self.transferRadius) where other != stop {
                if let seconds = walk(stops[stop].coordinate, stops[other].coordinate) {
                    footpaths[stop].append((other, seconds))
                }
            }
        }
        // The feeds' own transfers: their minimum times, and no walk where forbidden.
        changeTimes = Array(repeating: nil, count: stops.count)
        for (feed, entry) in feeds.enumerated() {
            for transfer in entry.timetable.transfers {
                let from = Int(transfer.from) + feedOffsets[feed]
                let to = Int(transfer.to) + feedOffsets[feed]
                if from == to {
                    changeTimes[from] = Int(transfer.minimumTime)
                    continue
                }
                footpaths[from].removeAll { $0.stop == to }
                if !transfer.forbidden { footpaths[from].append((to, Int(transfer.minimumTime))) }
            }
        }
    }

    /// The network with the feeds named in `live` (by source) at their predicted times: the
    /// same stops and walks, the patterns laid out again.
    public func following(_ live: [String: LiveTimetable]) -> TransitNetwork {
        var network = self
        for (index, feed) in feeds.enumerated() {
            network.live[index] = live[feed.source]
            network.feeds[index].timetable = live[feed.source]?.timetable ?? feed.timetable
        }
        network.layOutPatterns()
        return network
    }

    /// Groups every feed's trips into patterns: the trips of one route calling at the same stops
    /// with the same boarding rules, split so that no trip of a pattern overtakes another (a
    /// round-based search boards the first trip leaving after a time: it must arrive first
    /// everywhere too, which a delayed trip may not).
    mutating func layOutPatterns() {
        patterns = []
        for (feed, entry) in feeds.enumerated() {
            let timetable = entry.timetable
            var byKey: [[Int]: Int] = [:]
            var groups: [(route: Int, stops: [Int], rules: [UInt8], trips: [Int])] = []
            for trip in timetable.trips.indices where timetable.trips[trip].callCount > 1 {
                let calls = timetable.calls(of: trip)
                let sequence = calls.map { Int(timetable.callStops[$0]) + feedOffsets[feed] }
                // Trips whose calls allow boarding and getting off at the same stops.
                let rules = calls.map { timetable.callRestrictions.isEmpty ? 0 : timetable.callRestrictions[$0] }
                let key = [Int(timetable.trips[trip].route)] + sequence + rules.map(Int.init)
                if let group = byKey[key] {
                    groups[group].trips.append(trip)
                } else {
                    byKey[key] = groups.count
                    groups.append((Int(timetable.trips[trip].route), sequence, rules, [trip]))
                }
            }
            for group in groups {
                let ordered = group.trips.sorted {
                    timetable.departures[timetable.calls(of: $0).lowerBound]
                        < timetable.departures[timetable.calls(of: $1).lowerBound]
                }
                // Each trip in the first lane whose last trip it does not overtake.
                func overtakes(_ later: Int, _ earlier: Int) -> Bool {
                    zip(timetable.calls(of: later), timetable.calls(of: earlier)).contains { a, b in
                        timetable.departures[a] < timetable.departures[b]
                            || timetable.arrivals[a] < timetable.arrivals[b]
                    }
                }
                var lanes: [[Int]] = []
                for trip in ordered {
                    if let lane = lanes.firstIndex(where: { !overtakes(trip, $0[$0.count - 1]) }) {
                        lanes[lane].append(trip)
                    } else {
                        lanes.append([trip])
                    }
                }
                for lane in lanes {
                    var arrivals: [Int32] = []
                    var departures: [Int32] = []
                    for trip in lane {
                        let calls = timetable.calls(of: trip)
                        arrivals += calls.map { timetable.arrivals[$0] }
                        departures += calls.map { timetable.departures[$0] }
                    }
                    patterns.append(
                        Pattern(
                            feed: feed, route: group.route, stops: group.stops, trips: lane, arrivals: arrivals,
                            departures: departures, boarding: group.rules.map { $0 & 1 == 0 },
                            alighting: group.rules.map { $0 & 2 == 0 }))
                }
            }
        }
        stopPatterns = Array(repeating: [], count: stops.count)
        for (index, pattern) in patterns.enumerated() {
            for (position, stop) in pattern.stops.enumerated() { stopPatterns[stop].append((index, position)) }
        }
    }

    /// The stops within `radius` metres of `point` (straight line), nearest first.
    public func stops(near point: Coordinate, within radius: Double) -> [Int] {
        grid.near(point, within: radius).map { ($0, stops[$0].coordinate.distance(to: point)) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
    }
}

/// Points in square cells, to find those near a point without looking at all.
struct StopGrid {
    let points: [Coordinate]
    let cellDegrees: Double
    var cells: [Int64: [Int]] = [:]

    init(_ points: [Coordinate], cell metres: Double) {
        self.points = points
        cellDegrees = metres / 111_000
        for (index, point) in points.enumerated() where point.isValid { cells[key(point), default: []].append(index) }
    }

    /// A cell: `cellDegrees` of latitude high and of longitude wide (narrower in metres away
    /// from the equator, so searches look further east and west).
    func key(_ point: Coordinate, dx: Int = 0, dy: Int = 0) -> Int64 {
        let x = Int64((point.longitude / cellDegrees).rounded(.down)) + Int64(dx)
        let y = Int64((point.latitude / cellDegrees).rounded(.down)) + Int64(dy)
        return x << 32 ^ (y & 0xFFFF_FFFF)
    }

    /// The points within `radius` metres of `point`.
    func near(_ point: Coordinate, within radius: Double) -> [Int] {
        guard point.isValid else { return [] }
        let rows = Int((radius / (cellDegrees * 111_000)).rounded(.up))
        let across = Int((Double(rows) / max(cos(point.latitude * .pi / 180), 0.05)).rounded(.up))
        var found: [Int] = []
        for dx in -across...across {
            for dy in -rows...rows {
                for index in cells[key(point, dx: dx, dy: dy)] ?? [] where points[index].distance(to: point) <= radius {
                    found.append(index)
                }
            }
        }
        return found
    }
}

/// A vehicle of a realtime feed where it is, with the route it runs as riders know it.
public struct LiveVehicle: Sendable, Equatable {
    /// The feed entity's id.
    public var id: String
    /// What riders read on it, when the feed says.
    public var label: String?
    /// Where it is.
    public var coordinate: Coordinate
    /// Degrees clockwise from north, when the feed says.
    public var bearing: Double?
    /// Metres a second, when the feed says.
    public var speed: Double?
    /// The trip it runs, when known.
    public var tripID: String?
    /// The route it runs, when known.
    public var route: Timetable.Route?
    /// When it was there, POSIX seconds.
    public var timestamp: Int?
    /// The GTFS feed's source name.
    public var feed: String
}

extension TransitNetwork {
    /// The vehicles of the realtime feeds followed, each with its route (the one its trip or
    /// its descriptor names).
    public var vehicles: [LiveVehicle] {
        var found: [LiveVehicle] = []
        for (index, entry) in feeds.enumerated() {
            guard let live = live[index], !live.vehicles.isEmpty else { continue }
            let timetable = entry.timetable
            for (vehicle, route) in zip(live.vehicles, live.vehicleRoutes) {
                found.append(
                    LiveVehicle(
                        id: vehicle.entity, label: vehicle.vehicle?.label ?? vehicle.vehicle?.id,
                        coordinate: vehicle.coordinate, bearing: vehicle.bearing, speed: vehicle.speed,
                        tripID: vehicle.trip?.tripID, route: route.map { timetable.routes[$0] },
                        timestamp: vehicle.timestamp, feed: entry.source))
            }
        }
        return found
    }
}

/// A service alert about a stop, where the stop is.
public struct StopAlert: Sendable, Equatable {
    /// The stop's name as its feed gives it.
    public var stop: String
    /// Where the stop is.
    public var coordinate: Coordinate
    /// The alert.
    public var alert: RealtimeFeed.Alert
    /// The GTFS feed's source name.
    public var feed: String
}

extension TransitNetwork {
    /// The alerts of the realtime feeds followed that name a stop (an informed entity with a
    /// `stop_id`), active at `time` (POSIX seconds), one a stop and alert.
    public func stopAlerts(at time: Int) -> [StopAlert] {
        var found: [StopAlert] = []
        for (index, entry) in feeds.enumerated() {
            guard let live = live[index], !live.alerts.isEmpty else { continue }
            let stops = Dictionary(
                entry.timetable.stops.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            for alert in live.alerts where alert.isActive(at: time) {
                let named = Set(alert.informed.compactMap(\.stopID))
                for id in named.sorted() {
                    guard let stop = stops[id].map({ entry.timetable.stops[$0] }), stop.coordinate.isValid else {
                        continue
                    }
                    found.append(
                        StopAlert(stop: stop.name, coordinate: stop.coordinate, alert: alert, feed: entry.source))
                }
            }
        }
        return found
    }
}
