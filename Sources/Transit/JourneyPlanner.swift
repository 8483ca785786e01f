import Foundation
import GeoCore
import MapData
import Routing

/// A walk between two points as the planner needs it: seconds, metres and the way walked.
public struct Walk: Sendable {
    /// How long it takes, seconds.
    public var seconds: Int
    /// How far it is, metres.
    public var metres: Double
    /// The line walked, from start to end.
    public var geometry: [Coordinate]
    /// Its turn-by-turn steps by the streets (none for a straight line, nor until asked for:
    /// ``route`` makes them).
    public var steps: [Step] = []
    /// The route walked by the streets, nil for a straight line.
    public var route: Route?

    /// A walk by the streets: `route`'s time, length and line.
    public init(route: Route) {
        seconds = Int(route.duration.rounded())
        metres = route.distance
        geometry = route.geometry
        self.route = route
    }

    private init(seconds: Int, metres: Double, geometry: [Coordinate]) {
        self.seconds = seconds
        self.metres = metres
        self.geometry = geometry
    }

    /// True when no street data covered it and it was taken as a straight line.
    public var straightLine: Bool { route == nil }

    /// Walking speed where streets are not known: 1.25 m/s (4.5 km/h), along a straight line
    /// made a quarter longer.
    public static let straightLineSpeed = 1.25

    /// A straight-line walk from `from` to `to`.
    public static func straight(_ from: Coordinate, _ to: Coordinate) -> Walk {
        let metres = from.distance(to: to) * 1.25
        return Walk(seconds: Int((metres / straightLineSpeed).rounded()), metres: metres, geometry: [from, to])
    }
}

/// A trip from one place to another by public transport: walks and rides, at their times.
public struct Journey: Sendable {
    /// Seconds after the departure day's midnight (past 86,400 on the next day), local time.
    public var departure: Int
    /// Seconds after the departure day's midnight, local time.
    public var arrival: Int
    /// The walks and rides, in order.
    public var legs: [Leg]
    /// The day whose timetable the journey follows, `YYYYMMDD`.
    public var serviceDate = 0
    /// The service alerts of the realtime feeds that touch its rides (their route, trip, agency
    /// or a stop boarded or left at) while it runs.
    public var alerts: [RealtimeFeed.Alert] = []
    /// When the realtime feeds its times follow were made (the oldest), POSIX seconds; nil when
    /// it follows the timetables only.
    public var liveFeedTime: Int?
    /// The time zone its times are in (its first ride's feed's), nil for a walk.
    public var timezone: String?
    /// Cancelled runs the rider would have met: of a ride's route, from its boarding stop,
    /// timetabled to leave after the journey sets out and before the ride leaves.
    public var cancelled: [CancelledRun] = []

    /// A cancelled run of a route at a stop.
    public struct CancelledRun: Sendable, Equatable {
        /// The route, as riders know it.
        public var route: Timetable.Route
        /// The stop it would have left, by name.
        public var stop: String
        /// When it would have left, seconds after the departure day's midnight.
        public var departure: Int
    }

    /// One part of a journey: a walk or a ride.
    public enum Leg: Sendable {
        case walk(WalkLeg)
        case ride(Ride)
    }

    /// A walk to, from or between stops.
    public struct WalkLeg: Sendable {
        /// Where the walk starts.
        public var from: Coordinate
        /// Where the walk ends.
        public var to: Coordinate
        /// The stop walked from or to, by name; nil for the journey's own ends.
        public var fromName: String?
        /// The stop walked to, by name; nil for the journey's own end.
        public var toName: String?
        /// When the walk starts, seconds after the departure day's midnight.
        public var departure: Int
        /// The walk itself: its time, length, line and steps.
        public var walk: Walk
    }

    /// A ride on one trip, from the stop boarded to the stop left.
    public struct Ride: Sendable {
        /// The line ridden.
        public var route: Timetable.Route
        /// Where the trip goes, as its vehicles show it.
        public var headsign: String?
        /// The trip's id in its feed.
        public var tripID: String
        /// The stop boarded at, by name.
        public var from: String
        /// Where the stop boarded at is.
        public var fromPoint: Coordinate
        /// The stop left at, by name.
        public var to: String
        /// Where the stop left at is.
        public var toPoint: Coordinate
        /// When the trip leaves the stop boarded at, seconds after the departure day's midnight.
        public var departure: Int
        /// When the trip reaches the stop left at, seconds after the departure day's midnight.
        public var arrival: Int
        /// Stops the ride calls at after boarding, the alighting one included.
        public var stops: Int
        /// Along the trip's shape where the feed has one, else from stop to stop.
        public var geometry: [Coordinate]
        /// The feed's source name.
        public var feed: String
        /// Seconds late (negative: early) leaving the stop boarded at, as the realtime feed
        /// predicts; nil without a prediction (the timetable's time).
        public var departureDelay: Int? = nil
        /// Seconds late (negative: early) reaching the stop left at; nil without a prediction.
        public var arrivalDelay: Int? = nil
        /// `stop_id` of the stops boarded at and left at (service alerts name stops by them).
        public var stopIDs: [String] = []

        /// Whether its times come from a realtime feed.
        public var isLive: Bool { departureDelay != nil || arrivalDelay != nil }
    }

    /// Rides taken.
    public var rides: Int { legs.filter { if case .ride = $0 { true } else { false } }.count }
    /// Seconds on foot.
    public var walkingSeconds: Int { Self.walkingSeconds(legs[...]) }

    /// Seconds on foot in `legs`.
    static func walkingSeconds(_ legs: ArraySlice<Leg>) -> Int {
        legs.reduce(0) { total, leg in if case .walk(let walk) = leg { total + walk.walk.seconds } else { total } }
    }
    /// Every point of its walks and rides, in order.
    public var geometry: [Coordinate] {
        legs.flatMap { leg in
            switch leg {
            case .walk(let walk): walk.walk.geometry
            case .ride(let ride): ride.geometry
            }
        }
    }

    /// True when some walk had no street data.
    public var walksStraightLines: Bool {
        legs.contains { if case .walk(let walk) = $0 { walk.walk.straightLine } else { false } }
    }
}

/// A day and a time of departure in a feed's time zone.
public struct ServiceTime: Sendable, Equatable {
    /// `YYYYMMDD`.
    public var date: Int
    /// 0 Monday … 6 Sunday.
    public var weekday: Int
    /// Seconds after midnight.
    public var seconds: Int

    /// A departure on `date` (`YYYYMMDD`, whose `weekday` is 0 Monday … 6 Sunday) at `seconds` after midnight.
    public init(date: Int, weekday: Int, seconds: Int) {
        self.date = date
        self.weekday = weekday
        self.seconds = seconds
    }

    /// `YYYY-MM-DDTHH:MM` (or with `:SS`), as a local time; nil when it is not one.
    public init?(local text: String) {
        let parts = text.split(separator: "T")
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-").compactMap { Int($0) }
        let time = parts[1].split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, (2...3).contains(time.count), (1...9999).contains(day[0]), (1...12).contains(day[1]),
            (0..<24).contains(time[0]), (0..<60).contains(time[1]), time.count == 2 || (0..<60).contains(time[2])
        else { return nil }
        let date = day[0] * 10_000 + day[1] * 100 + day[2]
        // A day the month has (not 30 February).
        guard Self.date(ofDay: Self.day(of: date)) == date else { return nil }
        self.init(
            date: date, weekday: Self.weekday(ofDay: Self.day(of: date)),
            seconds: time[0] * 3600 + time[1] * 60 + (time.count == 3 ? time[2] : 0))
    }

    /// The moment `date` in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        self.init(
            date: (parts.year ?? 1970) * 10_000 + (parts.month ?? 1) * 100 + (parts.day ?? 1),
            weekday: ((parts.weekday ?? 1) + 5) % 7,
            seconds: (parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0))
    }

    /// `YYYYMMDD` as `YYYY-MM-DD`.
    public static func written(_ date: Int) -> String {
        String(format: "%04d-%02d-%02d", date / 10_000, date / 100 % 100, date % 100)
    }

    /// The same weekday and time in the last week up to `last` (`YYYYMMDD`), for a timetable
    /// that has ended; itself when it falls on or before `last`.
    public func within(last: Int) -> ServiceTime {
        ServiceTime(date: CivilDay.within(date, last: last), weekday: weekday, seconds: seconds)
    }

    /// The day before, as `YYYYMMDD` and weekday.
    var previousDay: (date: Int, weekday: Int) {
        (Self.date(ofDay: Self.day(of: date) - 1), (weekday + 6) % 7)
    }

    /// Days since 1970-01-01 of a `YYYYMMDD` date (``CivilDay/number(of:)``).
    static func day(of date: Int) -> Int { CivilDay.number(of: date) }

    /// The `YYYYMMDD` date `day` days after 1970-01-01 (``CivilDay/date(ofDay:)``).
    static func date(ofDay day: Int) -> Int { CivilDay.date(ofDay: day) }

    /// 0 Monday … 6 Sunday of a day since 1970-01-01 (``CivilDay/weekday(ofDay:)``).
    static func weekday(ofDay day: Int) -> Int { CivilDay.weekday(ofDay: day) }
}

/// Plans journeys with RAPTOR (Delling, Pajor and Werneck, "Round-Based Public Transit
/// Routing", 2012): round k finds the earliest arrival at every stop with k rides, so the
/// rounds give the Pareto set of earlier arrival against fewer rides. Access and egress are
/// walks to the stops near each end; transfers are the network's footpaths.
public struct JourneyPlanner {
    /// The stops, patterns and footpaths searched.
    public let network: TransitNetwork
    /// Walks between two points, by streets where the caller knows them.
    public let walk: (Coordinate, Coordinate) -> Walk
    /// Seconds to walk from a point to each of several (nil where the streets do not reach),
    /// by one search: the access and egress walks are timed with it, and walked out with
    /// ``walk`` only for the journeys given.
    public let walkTimes: (Coordinate, [Coordinate]) -> [Int?]

    /// The farthest an end is walked from a stop: 2,000 m in a straight line.
    public static let accessRadius = 2_000.0
    /// The most stops an end is walked to or from, the nearest first: 24 (each is one walk on
    /// the street graph).
    public static let accessStops = 24
    /// The most rides in a journey: 5.
    public static let maxRides = 5
    /// Seconds to change between two rides at one stop, unless `transfers.txt` gives the stop its
    /// own: 60.
    public static let changeTime = 60

    /// A planner over `network` that walks with `walk` and times many walks at once with `walkTimes` (by default, one `walk` each).
    public init(
        network: TransitNetwork, walk: @escaping (Coordinate, Coordinate) -> Walk,
        walkTimes: ((Coordinate, [Coordinate]) -> [Int?])? = nil
    ) {
        self.network = network
        self.walk = walk
        self.walkTimes = walkTimes ?? { from, targets in targets.map { walk(from, $0).seconds } }
    }

    private enum Label {
        case none
        case access(seconds: Int)
        case ride(pattern: Int, trip: Int, board: Int, alight: Int, shift: Int)
        case transfer(from: Int, seconds: Int)
    }

    /// The journeys from `origin` leaving at `time` to `destination`: for each number of
    /// rides, the one arriving earliest when it arrives earlier than every journey with fewer;
    /// the walk all the way; and, where every journey with a ride walks over
    /// ``lessWalkingFrom`` seconds, the one a search weighing walks ``walkAversion`` times finds
    /// when it walks at least two minutes less (the third criterion: less walking). Earliest
    /// arrival first.
    public func journeys(from origin: Coordinate, to destination: Coordinate, leaving time: ServiceTime) -> [Journey] {
        journeys(
            from: origin, to: destination, leaving: time,
            reach: reach(origin, destination, radius: Self.accessRadius, stops: Self.accessStops))
    }

    /// ``journeys(from:to:leaving:)`` from the ends' walks of `reach` (an arrive-by search asks
    /// again and again with the same).
    private func journeys(
        from origin: Coordinate, to destination: Coordinate, leaving time: ServiceTime, reach: Reach
    ) -> [Journey] {
        var found = search(from: origin, to: destination, leaving: time, reach: reach)
        // Where no ride is within reach of an end but the walk is long, reach twice as far (an
        // evening's few lines may run a longer walk away).
        if !found.contains(where: { $0.rides > 0 }), found.first?.walkingSeconds ?? 0 > 3_600 {
            let wider = self.reach(
                origin, destination, radius: Self.accessRadius * 2, stops: Self.accessStops * 2, direct: reach.direct)
            found = search(from: origin, to: destination, leaving: time, reach: wider)
        }
        guard let leastWalking = found.filter({ $0.rides > 0 }).map(\.walkingSeconds).min(),
            leastWalking > Self.lessWalkingFrom
        else { return found }
        let averse = search(
            from: origin, to: destination, leaving: time, reach: reach, walkFactor: Self.walkAversion
        ).filter { $0.rides > 0 && $0.walkingSeconds + 120 <= leastWalking }
        guard let lessWalking = averse.min(by: { ($0.walkingSeconds, $0.arrival) < ($1.walkingSeconds, $1.arrival) })
        else { return found }
        return (found + [lessWalking]).sorted { ($0.arrival, $0.rides) < ($1.arrival, $1.rides) }
    }

    /// Walking, in seconds, above which a journey's rider is offered one walking less: 300.
    public static let lessWalkingFrom = 300
    /// How many times its seconds a walk weighs in the search for a journey walking less: 3.
    public static let walkAversion = 3

    /// The stops near each end of a journey and the seconds to walk to them (a straight line
    /// where the streets do not reach), the walk all the way, and how far it may bound the
    /// search.
    struct Reach {
        var radius: Double
        var access: [(stop: Int, seconds: Int)]
        var egress: [(stop: Int, seconds: Int)]
        var direct: Walk
    }

    /// The `stops` nearest stops within `radius` metres of each end, timed; `direct`, the walk
    /// all the way when already walked.
    func reach(
        _ origin: Coordinate, _ destination: Coordinate, radius: Double, stops count: Int, direct: Walk? = nil
    ) -> Reach {
        func near(_ point: Coordinate) -> [(stop: Int, seconds: Int)] {
            let stops = Array(network.stops(near: point, within: radius).prefix(count))
            let points = stops.map { network.stops[$0].coordinate }
            let times = walkTimes(point, points)
            return stops.indices.map { index in
                (stops[index], times[index] ?? Walk.straight(point, points[index]).seconds)
            }
        }
        // Walking is the same both ways: the egress walks are timed from the destination.
        return Reach(
            radius: radius, access: near(origin), egress: near(destination),
            direct: direct ?? walk(origin, destination))
    }

    /// One RAPTOR search with the ends' walks of `reach`, walks weighing `walkFactor` times
    /// their seconds (the journeys keep their real times).
    private func search(
        from origin: Coordinate, to destination: Coordinate, leaving time: ServiceTime, reach: Reach,
        walkFactor: Int = 1
    ) -> [Journey] {
        let stopCount = network.stops.count
        let infinity = Int.max / 4
        // Trips running today, and yesterday's running past midnight.
        // A feed whose timetable has ended is read for the same weekday of its last week.
        let days = network.feeds.map { time.within(last: $0.timetable.lastServiceDate) }
        let active: [[Bool]] = zip(network.feeds, days).map { feed, day in
            feed.timetable.services.map { $0.runs(on: day.date, weekday: day.weekday) }
        }
        let activeYesterday: [[Bool]] = zip(network.feeds, days).map { feed, day in
            let yesterday = day.previousDay
            return feed.timetable.services.map { $0.runs(on: yesterday.date, weekday: yesterday.weekday) }
        }
        // Per feed: today's trips as they are, yesterday's a day earlier.
        let runningDays: [[(shift: Int, running: [Bool])]] = network.feeds.indices.map { feed in
            [(0, active[feed]), (-86_400, activeYesterday[feed])]
        }
        var best = Array(repeating: infinity, count: stopCount)
        var rounds: [[Int]] = [Array(repeating: infinity, count: stopCount)]
        var labels: [[Label]] = [Array(repeating: .none, count: stopCount)]
        var marked = Set<Int>()
        for (stop, walked) in reach.access {
            let seconds = walked * walkFactor
            let arrival = time.seconds + seconds
            if arrival < rounds[0][stop] {
                rounds[0][stop] = arrival
                best[stop] = arrival
                labels[0][stop] = .access(seconds: seconds)
                marked.insert(stop)
            }
        }
        let egress = Dictionary(reach.egress.map { ($0.stop, $0.seconds * walkFactor) }, uniquingKeysWith: min)
        // Walking all the way is always a way there; within twice the access radius it also
        // bounds the search (a ride arriving later is no better), farther it does not (a long
        // walk is not what a rider compares a ride with). The search weighing walks more looks
        // for rides only.
        let direct = reach.direct
        var journeys: [Journey] = []
        var bestArrival = infinity
        if walkFactor == 1 {
            journeys.append(
                Journey(
                    departure: time.seconds, arrival: time.seconds + direct.seconds,
                    legs: [
                        .walk(
                            .init(
                                from: origin, to: destination, fromName: nil, toName: nil, departure: time.seconds,
                                walk: direct))
                    ]))
            if direct.metres <= reach.radius * 2 { bestArrival = time.seconds + direct.seconds }
        }
        for round in 1...Self.maxRides {
            guard !marked.isEmpty else { break }
            rounds.append(rounds[round - 1])
            labels.append(Array(repeating: .none, count: stopCount))
            // The patterns through a marked stop, from their earliest marked position.
            var queue: [Int: Int] = [:]
            for stop in marked {
                for (pattern, position) in network.stopPatterns[stop] {
                    queue[pattern] = min(queue[pattern] ?? Int.max, position)
                }
            }
            marked.removeAll()
            for (patternIndex, start) in queue {
                let pattern = network.patterns[patternIndex]
                let width = pattern.stops.count
                let services = network.feeds[pattern.feed].timetable
                var trip: (index: Int, shift: Int, board: Int)?
                for position in start..<width {
                    let stop = pattern.stops[position]
                    if let current = trip, pattern.alighting[position] {
                        let arrival = Int(pattern.arrivals[current.index * width + position]) + current.shift
                        if arrival < min(best[stop], bestArrival) {
                            rounds[round][stop] = arrival
                            best[stop] = arrival
                            labels[round][stop] = .ride(
                                pattern: patternIndex, trip: current.index, board: current.board, alight: position,
                                shift: current.shift)
                            marked.insert(stop)
                        }
                    }
                    // Catch an earlier trip here?
                    let ready = rounds[round - 1][stop]
                    guard ready < infinity, pattern.boarding[position] else { continue }
                    // Changing at the stop the last ride left you at takes its change time; a walk
                    // from another stop has taken its own.
                    var arrivedByRide = false
                    for earlier in stride(from: round - 1, through: 0, by: -1) {
                        if case .none = labels[earlier][stop] { continue }
                        if case .ride = labels[earlier][stop] { arrivedByRide = true }
                        break
                    }
                    let earliest = ready + (arrivedByRide ? network.changeTimes[stop] ?? Self.changeTime : 0)
                    if let current = trip,
                        Int(pattern.departures[current.index * width + position]) + current.shift < earliest
                    {
                        continue
                    }
                    for (shift, running) in runningDays[pattern.feed] {
                        for (index, tripNumber) in pattern.trips.enumerated() {
                            let departure = Int(pattern.departures[index * width + position]) + shift
                            guard departure >= earliest, running[Int(services.trips[tripNumber].service)] else {
                                continue
                            }
                            let better = trip.map {
                                departure < Int(pattern.departures[$0.index * width + position]) + $0.shift
                            }
                            if better ?? true { trip = (index, shift, position) }
                            break
                        }
                    }
                }
            }
            // Walks to the stops nearby.
            for stop in Array(marked) {
                for (other, walked) in network.footpaths[stop] {
                    let seconds = walked * walkFactor
                    let arrival = rounds[round][stop] + seconds
                    if arrival < min(best[other], bestArrival) {
                        rounds[round][other] = arrival
                        best[other] = arrival
                        labels[round][other] = .transfer(from: stop, seconds: seconds)
                        marked.insert(other)
                    }
                }
            }
            // The best way out this round.
            var exit: (stop: Int, arrival: Int)?
            for (stop, walkOut) in egress where rounds[round][stop] < infinity {
                guard case .ride = labels[round][stop] else { continue }
                let arrival = rounds[round][stop] + walkOut
                if arrival < bestArrival && arrival < (exit?.arrival ?? Int.max) { exit = (stop, arrival) }
            }
            if let exit, let walkOut = egress[exit.stop],
                let journey = reconstruct(
                    round: round, stop: exit.stop, labels: labels, origin: origin,
                    destination: destination, leaving: time.seconds, egress: walkOut, walkFactor: walkFactor)
            {
                bestArrival = exit.arrival
                journeys.append(journey)
            }
        }
        // The day the journey's timetable was read for: its first ride's feed's.
        for index in journeys.indices {
            let feed = journeys[index].legs.lazy.compactMap { leg -> Int? in
                guard case .ride(let ride) = leg else { return nil }
                return self.network.feeds.firstIndex { $0.source == ride.feed }
            }.first
            journeys[index].serviceDate = feed.map { days[$0].date } ?? time.date
            annotate(&journeys[index], on: time.date)
        }
        return journeys.sorted { ($0.arrival, $0.rides) < ($1.arrival, $1.rides) }
    }

    /// Gives `journey` (planned for `date`, `YYYYMMDD`, as asked) the alerts of the realtime
    /// feeds that touch its rides while it runs, and the time of the feeds followed.
    func annotate(_ journey: inout Journey, on date: Int) {
        var seen = Set<String>()
        var feedTimes: [Int] = []
        for leg in journey.legs {
            guard case .ride(let ride) = leg, let feed = network.feeds.firstIndex(where: { $0.source == ride.feed })
            else { continue }
            if journey.timezone == nil { journey.timezone = network.feeds[feed].timetable.timezone }
            guard let live = network.live[feed] else { continue }
            if let time = live.feedTime { feedTimes.append(time) }
            journey.cancelled += cancelledRuns(
                before: ride, since: journey.departure, in: live, on: journey.serviceDate)
            let zone = TimeZone(identifier: network.feeds[feed].timetable.timezone) ?? .gmt
            let start = LiveTimetable.serviceDayStart(date, in: zone)
            let during = (start + ride.departure)...(start + max(ride.departure, ride.arrival))
            for alert in live.alerts where !seen.contains(alert.entity) {
                let active = alert.periods.isEmpty || alert.periods.contains { $0.overlaps(during) }
                if active && alert.informed.contains(where: { Self.touches($0, ride) }) {
                    seen.insert(alert.entity)
                    journey.alerts.append(alert)
                }
            }
        }
        journey.liveFeedTime = feedTimes.min()
    }

    /// The cancelled runs of `ride`'s route timetabled to leave its boarding stop from `start`
    /// until the ride leaves, on service day `date`, earliest first.
    func cancelledRuns(before ride: Journey.Ride, since start: Int, in live: LiveTimetable, on date: Int)
        -> [Journey.CancelledRun]
    {
        guard let boarded = ride.stopIDs.first else { return [] }
        let timetable = live.timetable
        var found: [Journey.CancelledRun] = []
        for (trip, days) in live.cancelled where days.contains(date) {
            guard timetable.routes[Int(timetable.trips[trip].route)].id == ride.route.id else { continue }
            for call in timetable.calls(of: trip)
            where timetable.stops[Int(timetable.callStops[call])].id == boarded {
                let departure = Int(timetable.departures[call])
                if departure >= start && departure < ride.departure {
                    found.append(.init(route: ride.route, stop: ride.from, departure: departure))
                }
            }
        }
        return found.sorted { $0.departure < $1.departure }
    }

    /// Whether an alert's selector names `ride`: every field it gives matches.
    static func touches(_ selector: RealtimeFeed.EntitySelector, _ ride: Journey.Ride) -> Bool {
        let named =
            selector.agencyID != nil || selector.routeID != nil || selector.routeType != nil || selector.trip != nil
            || selector.stopID != nil
        guard named else { return false }
        // A route without `agency_id` is the feed's one agency's.
        if let agency = selector.agencyID, let own = ride.route.agency, own != agency { return false }
        if let route = selector.routeID, ride.route.id != route { return false }
        if let type = selector.routeType, ride.route.type != type { return false }
        if let trip = selector.trip {
            if let id = trip.tripID, id != ride.tripID { return false }
            if let route = trip.routeID, route != ride.route.id { return false }
        }
        if let stop = selector.stopID, !ride.stopIDs.contains(stop) { return false }
        return true
    }

    /// Journeys as a rider is offered them: the earliest arriving with a ride first (a transit
    /// request asks for transit, even where walking all the way is as quick), then the others
    /// by arrival.
    public static func ranked(_ journeys: [Journey]) -> [Journey] {
        guard let first = journeys.firstIndex(where: { $0.rides > 0 }) else { return journeys }
        var ordered = journeys
        let preferred = ordered.remove(at: first)
        return [preferred] + ordered
    }

    /// How far apart the departures an arrive-by search tries are: 5 minutes.
    public static let arriveByStep = 300
    /// How long before the arrival an arrive-by search looks: 4 hours.
    public static let arriveByWindow = 4 * 3600

    /// The journey leaving latest that arrives at `destination` by `time` (tried every
    /// ``arriveByStep`` back to ``arriveByWindow``, then made to leave as late as its first ride
    /// allows), with the walk all the way when it arrives in time; earliest arrival first.
    public func journeys(from origin: Coordinate, to destination: Coordinate, arrivingBy time: ServiceTime)
        -> [Journey]
    {
        var found: [Journey] = []
        let reach = reach(origin, destination, radius: Self.accessRadius, stops: Self.accessStops)
        for offset in stride(from: Self.arriveByStep, through: Self.arriveByWindow, by: Self.arriveByStep) {
            guard time.seconds - offset >= 0 else { break }
            let leaving = ServiceTime(date: time.date, weekday: time.weekday, seconds: time.seconds - offset)
            let journeys = journeys(from: origin, to: destination, leaving: leaving, reach: reach).filter {
                $0.arrival <= time.seconds
            }
            if found.isEmpty, let walk = journeys.first(where: { $0.rides == 0 }) {
                found.append(Self.leavingLate(walk, arrivingBy: time.seconds))
            }
            if let ride = journeys.filter({ $0.rides > 0 }).min(by: { $0.arrival > $1.arrival }) {
                return (found + [Self.leavingLate(ride, arrivingBy: time.seconds)]).sorted { $0.arrival < $1.arrival }
            }
        }
        return found
    }

    /// `journey` leaving as late as it can: a walk so that it arrives at `arrival`, a journey
    /// with rides so that its first walk ends as its first ride leaves.
    static func leavingLate(_ journey: Journey, arrivingBy arrival: Int) -> Journey {
        var late = journey
        guard let firstRide = journey.legs.firstIndex(where: { if case .ride = $0 { true } else { false } }),
            case .ride(let ride) = journey.legs[firstRide]
        else {
            let shift = arrival - journey.arrival
            late.departure += shift
            late.arrival += shift
            if case .walk(var walk) = late.legs.first {
                walk.departure += shift
                late.legs[0] = .walk(walk)
            }
            return late
        }
        let walked = Journey.walkingSeconds(journey.legs[..<firstRide])
        late.departure = max(journey.departure, ride.departure - walked)
        if case .walk(var walk) = late.legs.first, firstRide > 0 {
            walk.departure = late.departure
            late.legs[0] = .walk(walk)
        }
        return late
    }

    /// The journey whose last ride ends at `stop` in `round`, walked back through the labels.
    private func reconstruct(
        round: Int, stop: Int, labels: [[Label]], origin: Coordinate, destination: Coordinate, leaving: Int,
        egress seconds: Int, walkFactor: Int
    ) -> Journey? {
        // The walks' departures are set by `timed`, leg after leg.
        var egress = walk(network.stops[stop].coordinate, destination)
        egress.seconds = seconds / walkFactor
        var legs: [Journey.Leg] = [
            .walk(
                .init(
                    from: network.stops[stop].coordinate, to: destination, fromName: network.stops[stop].name,
                    toName: nil, departure: 0, walk: egress))
        ]
        var current = stop
        var k = round
        // Back through at most every round's ride and walk.
        for _ in 0..<(4 * Self.maxRides + 4) {
            switch labels[k][current] {
            case .none:
                // Reached in an earlier round: look there.
                guard k > 0 else { return nil }
                k -= 1
            case .access(let seconds):
                var walk = self.walk(origin, network.stops[current].coordinate)
                walk.seconds = seconds / walkFactor
                legs.append(
                    .walk(
                        .init(
                            from: origin, to: network.stops[current].coordinate, fromName: nil,
                            toName: network.stops[current].name, departure: 0, walk: walk)))
                return Self.timed(Journey(departure: leaving, arrival: leaving, legs: legs.reversed()))
            case .transfer(let from, let seconds):
                var walk = self.walk(network.stops[from].coordinate, network.stops[current].coordinate)
                walk.seconds = seconds / walkFactor
                legs.append(
                    .walk(
                        .init(
                            from: network.stops[from].coordinate, to: network.stops[current].coordinate,
                            fromName: network.stops[from].name, toName: network.stops[current].name,
                            departure: 0, walk: walk)))
                current = from
            case .ride(let patternIndex, let tripIndex, let board, let alight, let shift):
                legs.append(.ride(ride(patternIndex, tripIndex, board, alight, shift)))
                current = network.patterns[patternIndex].stops[board]
                k -= 1
            }
        }
        return nil
    }

    /// `journey` with each walk leaving when the leg before it ends (the first at the
    /// departure) and its arrival at the end of its last leg.
    static func timed(_ journey: Journey) -> Journey {
        var timed = journey
        var clock = journey.departure
        for index in timed.legs.indices {
            switch timed.legs[index] {
            case .walk(var walk):
                walk.departure = clock
                clock += walk.walk.seconds
                timed.legs[index] = .walk(walk)
            case .ride(let ride):
                clock = ride.arrival
            }
        }
        timed.arrival = clock
        return timed
    }

    /// The ride on a pattern's trip between two positions.
    private func ride(_ patternIndex: Int, _ tripIndex: Int, _ board: Int, _ alight: Int, _ shift: Int)
        -> Journey.Ride
    {
        let pattern = network.patterns[patternIndex]
        let width = pattern.stops.count
        let timetable = network.feeds[pattern.feed].timetable
        let trip = timetable.trips[pattern.trips[tripIndex]]
        let live = network.live[pattern.feed]?.delays[pattern.trips[tripIndex]]
        let offset = network.feedOffsets[pattern.feed]
        let from = network.stops[pattern.stops[board]]
        let to = network.stops[pattern.stops[alight]]
        let stopPoints = pattern.stops[board...alight].map { network.stops[$0].coordinate }
        var geometry = stopPoints
        if trip.shape >= 0, let shape = EncodedPolyline.decode(timetable.shapes[Int(trip.shape)], precision: 6),
            shape.count >= 2
        {
            geometry = Self.slice(shape, from: from.coordinate, to: to.coordinate)
        }
        return Journey.Ride(
            route: timetable.routes[Int(trip.route)], headsign: trip.headsign, tripID: trip.id, from: from.name,
            fromPoint: from.coordinate, to: to.name, toPoint: to.coordinate,
            departure: Int(pattern.departures[tripIndex * width + board]) + shift,
            arrival: Int(pattern.arrivals[tripIndex * width + alight]) + shift, stops: alight - board,
            geometry: geometry, feed: network.feeds[pattern.feed].source,
            departureDelay: live?[board] ?? nil, arrivalDelay: live?[alight] ?? nil,
            stopIDs: [pattern.stops[board], pattern.stops[alight]].map { timetable.stops[$0 - offset].id })
    }

    /// The part of `shape` between the points nearest `from` and `to` (in order along it).
    static func slice(_ shape: [Coordinate], from: Coordinate, to: Coordinate) -> [Coordinate] {
        func nearest(_ point: Coordinate, after start: Int) -> Int {
            var best = start
            for index in start..<shape.count where shape[index].distance(to: point) < shape[best].distance(to: point) {
                best = index
            }
            return best
        }
        let first = nearest(from, after: 0)
        let last = nearest(to, after: first)
        return [from] + shape[first...last] + [to]
    }
}
