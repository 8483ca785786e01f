import Foundation
import GeoCore

/// A feed's timetable with a GTFS-Realtime feed applied: what a journey planner rides when it
/// plans on predicted times.
///
/// Each updated run of a trip (a trip on one service day) becomes a trip of its own that runs on
/// that day only, at the predicted times; the timetable's trip no longer runs that day. So the
/// result is a plain ``Timetable``: the planner needs nothing else, and planning on it equals
/// planning on a feed whose `stop_times.txt` was edited the same way.
///
/// - Delays propagate along the trip until a later call's update says otherwise (`NO_DATA`
///   stops the propagation); calls before the first update keep their times. A time given
///   (`StopTimeEvent.time`) wins over a delay. Times never run backwards along a trip.
/// - `SKIPPED` calls can be neither boarded nor left; `CANCELED` and `DELETED` trips do not run;
///   `ADDED` and `NEW` trips run at the times their updates give; `DUPLICATED` trips run the
///   timetable's trip again from `trip_properties.start_time`.
/// - Trips are matched by `trip_id` (and `start_time` for the runs of a frequency-based trip),
///   else by route, direction and start time, as the specification says. Updates that match no
///   trip are counted and left out.
/// - A service day after the timetable's last is read as the same weekday of its last week (as
///   the planner reads such a timetable), so a feed made for today applies to the day planned.
public struct LiveTimetable: Sendable {
    /// The timetable at predicted times.
    public var timetable: Timetable
    /// Per trip of ``timetable`` running on predicted times: per call, seconds late (negative:
    /// early), nil where the feed predicts nothing.
    public var delays: [Int: [Int?]] = [:]
    /// The runs that do not run: trip of ``timetable`` to the service days (`YYYYMMDD`).
    public var cancelled: [Int: Set<Int>] = [:]
    /// The feed's alerts.
    public var alerts: [RealtimeFeed.Alert]
    /// The feed's vehicles.
    public var vehicles: [RealtimeFeed.VehiclePosition]
    /// Per vehicle, the route it runs (index in ``timetable``'s routes: its descriptor's
    /// `route_id`, else its trip's route), nil when neither is known.
    public var vehicleRoutes: [Int?] = []
    /// When the feed was made (its header's timestamp), POSIX seconds.
    public var feedTime: Int?
    /// What applying the feed did.
    public var report = Report()

    /// What applying a feed did, for the person who imported it.
    public struct Report: Sendable, Equatable {
        /// Trip updates read.
        public var tripUpdates = 0
        /// Runs given predicted times.
        public var updated = 0
        /// Runs cancelled.
        public var cancelled = 0
        /// Trips added (added, new or duplicated).
        public var added = 0
        /// Calls skipped.
        public var skippedCalls = 0
        /// Updates naming no trip of the timetable (their trip ids, as many as ``unknownShown``).
        public var unknownTrips: [String] = []
        /// Updates naming no trip, counted in full.
        public var unknown = 0
        /// Updates left out for another reason, with why (the first ``unknownShown``).
        public var unusable: [String] = []
        /// Stop time updates naming no call of their trip.
        public var unmatchedStops = 0

        /// How many unknown trip ids and unusable updates are kept to show: 10.
        public static let unknownShown = 10

        public init() {}
    }

    /// The timetable `timetable` at the times of `feed`; `now` (POSIX seconds) stands for the
    /// moment updates without a service day are about, by default the feed's own timestamp.
    public init(timetable: Timetable, feed: RealtimeFeed, now: Int? = nil) {
        self.timetable = timetable
        alerts = feed.alerts
        vehicles = feed.vehicles
        feedTime = feed.timestamp
        var editor = LiveEditor(timetable: timetable, now: now ?? feed.timestamp)
        for update in feed.tripUpdates { editor.apply(update) }
        editor.finish()
        self.timetable = editor.timetable
        vehicleRoutes = feed.vehicles.map { vehicle in
            vehicle.trip?.routeID.flatMap { editor.routeIndex[$0] }
                ?? vehicle.trip?.tripID.flatMap { editor.tripIndex[$0] }.map { Int(timetable.trips[$0].route) }
        }
        delays = editor.delays
        cancelled = editor.cancelled
        report = editor.report
    }

    /// The service days' first moments: POSIX seconds of noon minus 12 hours, local, as GTFS
    /// counts times (so a day with a clock change still starts 12 hours before its noon).
    public static func serviceDayStart(_ date: Int, in zone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let noon = calendar.date(
            from: DateComponents(year: date / 10_000, month: date / 100 % 100, day: date % 100, hour: 12))
        return Int((noon?.timeIntervalSince1970 ?? 0).rounded()) - 43_200
    }

    /// The service day (`YYYYMMDD`) of POSIX time `time` in `zone`.
    public static func serviceDate(at time: Int, in zone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(time)))
        return (parts.year ?? 1970) * 10_000 + (parts.month ?? 1) * 100 + (parts.day ?? 1)
    }
}

/// Edits a timetable one trip update at a time (``LiveTimetable``).
private struct LiveEditor {
    var timetable: Timetable
    let now: Int?
    let zone: TimeZone
    let lastDate: Int
    var delays: [Int: [Int?]] = [:]
    var cancelled: [Int: Set<Int>] = [:]
    var report = LiveTimetable.Report()
    /// The timetable's trips by id, and frequency runs (`id@n`) by template id.
    var tripIndex: [String: Int] = [:]
    var runs: [String: [Int]] = [:]
    var routeIndex: [String: Int] = [:]
    var stopIndex: [String: Int32] = [:]
    /// Per static trip, the service days taken from it.
    var removed: [Int: Set<Int>] = [:]
    /// The service running on one day only, by day.
    var dayServices: [Int: Int32] = [:]
    /// The run already updated, by static trip and day: the trip made for it (a later update of
    /// the same run replaces it).
    var made: [String: Int] = [:]
    let staticTrips: Int

    init(timetable: Timetable, now: Int?) {
        self.timetable = timetable
        // A timetable stored before calls had boarding rules: every call open.
        if timetable.callRestrictions.isEmpty {
            self.timetable.callRestrictions = Array(repeating: 0, count: timetable.callStops.count)
        }
        self.now = now
        zone = TimeZone(identifier: timetable.timezone) ?? TimeZone(identifier: "UTC")!
        lastDate = timetable.lastServiceDate
        staticTrips = timetable.trips.count
        for (index, trip) in timetable.trips.enumerated() {
            tripIndex[trip.id] = index
            if let at = trip.id.lastIndex(of: "@") { runs[String(trip.id[..<at]), default: []].append(index) }
        }
        for (index, route) in timetable.routes.enumerated() { routeIndex[route.id] = index }
        for (index, stop) in timetable.stops.enumerated() { stopIndex[stop.id] = Int32(index) }
    }

    mutating func unusable(_ update: RealtimeFeed.TripUpdate, _ why: String) {
        if report.unusable.count < LiveTimetable.Report.unknownShown {
            report.unusable.append("entity '\(update.entity)': \(why)")
        }
    }

    /// The first scheduled departure of a trip, seconds after midnight.
    func start(of trip: Int) -> Int {
        let calls = timetable.calls(of: trip)
        return calls.isEmpty ? 0 : Int(timetable.departures[calls.lowerBound])
    }

    /// Whether static trip `trip` runs on `date`.
    func runs(_ trip: Int, on date: Int) -> Bool {
        timetable.services[Int(timetable.trips[trip].service)].runs(on: date, weekday: CivilDay.weekday(of: date))
    }

    /// The day the planner reads for service day `date`.
    func planned(_ date: Int) -> Int { CivilDay.within(date, last: lastDate) }

    /// The service day of a run of `trip` starting `start` seconds after midnight, where the
    /// update names none: the day (today or yesterday at `now`) on which it runs nearest now.
    func inferredDate(trip: Int?, start: Int, at time: Int?) -> Int? {
        guard let time = time ?? now else { return nil }
        let today = LiveTimetable.serviceDate(at: time, in: zone)
        let candidates = [today, CivilDay.adding(-1, to: today)]
        let running = candidates.filter { day in trip.map { runs($0, on: planned(day)) } ?? true }
        return running.min { a, b in
            abs(LiveTimetable.serviceDayStart(a, in: zone) + start - time)
                < abs(LiveTimetable.serviceDayStart(b, in: zone) + start - time)
        } ?? today
    }

    /// The timetable's trip an update is about, nil when none matches.
    func match(_ descriptor: RealtimeFeed.TripDescriptor, date: Int?) -> Int? {
        if let id = descriptor.tripID {
            if let index = tripIndex[id], timetable.trips[index].callCount > 0 { return index }
            // A run of a frequency-based trip: by its start time.
            if let copies = runs[id], let start = descriptor.startTime {
                return copies.first { self.start(of: $0) == start }
            }
            if descriptor.routeID == nil { return nil }
        }
        guard let route = descriptor.routeID.flatMap({ routeIndex[$0] }), let start = descriptor.startTime else {
            return nil
        }
        return timetable.trips.indices.first { trip in
            let candidate = timetable.trips[trip]
            return trip < staticTrips && Int(candidate.route) == route && candidate.callCount > 0
                && (descriptor.directionID == nil || candidate.direction.map(Int.init) == descriptor.directionID)
                && self.start(of: trip) == start && (date.map { runs(trip, on: planned($0)) } ?? true)
        }
    }

    mutating func apply(_ update: RealtimeFeed.TripUpdate) {
        report.tripUpdates += 1
        let trip = update.trip
        switch trip.relationship {
        case .added, .new:
            addTrip(update)
            return
        case .unscheduled:
            unusable(update, "an unscheduled trip has no timetable to predict against")
            return
        default: break
        }
        guard let index = match(trip, date: trip.startDate) else {
            report.unknown += 1
            if report.unknownTrips.count < LiveTimetable.Report.unknownShown {
                report.unknownTrips.append(trip.tripID ?? "route \(trip.routeID ?? "?") at \(trip.startTime ?? 0)")
            }
            return
        }
        guard let day = trip.startDate ?? inferredDate(trip: index, start: start(of: index), at: update.timestamp)
        else {
            unusable(update, "no start_date, and the feed has no timestamp to tell the day")
            return
        }
        let date = planned(day)
        switch trip.relationship {
        case .canceled, .deleted:
            guard runs(index, on: date) else {
                return unusable(update, "trip '\(timetable.trips[index].id)' does not run on \(day)")
            }
            take(index, from: date)
            // An earlier update's run of it stops running too.
            if let earlier = made.removeValue(forKey: "\(index)/\(date)") {
                timetable.trips[earlier].callCount = 0
                delays[earlier] = nil
            }
            cancelled[index, default: []].insert(date)
            report.cancelled += 1
        case .duplicated:
            guard let properties = update.properties, let newStart = properties.startTime else {
                return unusable(update, "a duplicated trip without trip_properties.start_time")
            }
            let newDay = planned(properties.startDate ?? day)
            let shift = newStart - start(of: index)
            var copy = timetable.trips[index]
            copy.id = properties.tripID ?? "\(copy.id)+\(newDay)T\(newStart)"
            if let headsign = properties.headsign { copy.headsign = headsign }
            write(copy, from: index, shift: shift, update: update, date: newDay, replacing: nil)
            report.added += 1
        default:
            guard runs(index, on: date) else {
                return unusable(update, "trip '\(timetable.trips[index].id)' does not run on \(day)")
            }
            take(index, from: date)
            let key = "\(index)/\(date)"
            write(timetable.trips[index], from: index, shift: 0, update: update, date: date, replacing: made[key])
            made[key] = timetable.trips.count - 1
            report.updated += 1
        }
    }

    /// Takes `date` from the days static trip `trip` runs.
    mutating func take(_ trip: Int, from date: Int) { removed[trip, default: []].insert(date) }

    /// The service running on `date` only.
    mutating func dayService(_ date: Int) -> Int32 {
        if let service = dayServices[date] { return service }
        let index = Int32(timetable.services.count)
        timetable.services.append(
            Timetable.Service(id: "realtime \(date)", weekdays: 0, start: 0, end: 0, added: [date], removed: []))
        dayServices[date] = index
        return index
    }

    /// Writes `model` (static trip `source`'s calls, `shift` seconds later) as a new trip running
    /// on `date` at the times `update` predicts; an earlier trip made for the same run
    /// (`replacing`) stops running.
    mutating func write(
        _ model: Timetable.Trip, from source: Int, shift: Int, update: RealtimeFeed.TripUpdate, date: Int,
        replacing: Int?
    ) {
        if let replacing {
            timetable.trips[replacing].callCount = 0
            delays[replacing] = nil
        }
        let calls = timetable.calls(of: source)
        let dayStart = LiveTimetable.serviceDayStart(date, in: zone)
        // Each update's call: by stop_sequence where both give one, else by stop_id from the
        // last call matched on.
        var byCall: [Int: RealtimeFeed.StopTimeUpdate] = [:]
        var from = 0
        for stop in update.stopTimeUpdates {
            let offsets = Array(0..<calls.count)
            let found: Int?
            if let sequence = stop.stopSequence, timetable.callSequences.count == timetable.callStops.count {
                found = offsets.first { Int(timetable.callSequences[calls.lowerBound + $0]) == sequence }
            } else if let id = stop.stopID, let wanted = stopIndex[id] {
                found = offsets[min(from, offsets.count)...].first {
                    timetable.callStops[calls.lowerBound + $0] == wanted
                }
            } else {
                found = nil
            }
            guard let found else {
                report.unmatchedStops += 1
                continue
            }
            byCall[found] = stop
            from = found
        }
        func delay(_ event: RealtimeFeed.StopTimeEvent?, scheduled: Int) -> Int? {
            guard let event else { return nil }
            if let time = event.time { return time - (dayStart + scheduled) }
            return event.delay
        }
        var trip = model
        trip.service = dayService(date)
        trip.firstCall = Int32(timetable.callStops.count)
        var current = update.delay
        var live: [Int?] = []
        var previousDeparture = Int.min
        for offset in 0..<calls.count {
            let call = calls.lowerBound + offset
            let arrival = Int(timetable.arrivals[call]) + shift
            let departure = Int(timetable.departures[call]) + shift
            var restriction = timetable.callRestrictions[call]
            var arrivalDelay = current
            var departureDelay = current
            if let stop = byCall[offset] {
                switch stop.relationship {
                case .skipped:
                    restriction = 3
                    report.skippedCalls += 1
                case .noData:
                    current = nil
                    arrivalDelay = nil
                    departureDelay = nil
                case .scheduled, .unscheduled:
                    let arriving = delay(stop.arrival, scheduled: arrival)
                    let departing = delay(stop.departure, scheduled: departure)
                    if arriving != nil || departing != nil {
                        arrivalDelay = arriving ?? departing
                        // A vehicle late at a stop leaves late; one early waits for its time
                        // unless the update says it leaves early.
                        departureDelay = departing ?? max(arrivalDelay ?? 0, 0)
                        current = departing ?? arrivalDelay
                    }
                }
            }
            var predictedArrival = arrival + (arrivalDelay ?? 0)
            predictedArrival = max(predictedArrival, previousDeparture)
            let predictedDeparture = max(departure + (departureDelay ?? 0), predictedArrival)
            previousDeparture = predictedDeparture
            timetable.callStops.append(timetable.callStops[call])
            timetable.arrivals.append(Int32(clamping: predictedArrival))
            timetable.departures.append(Int32(clamping: predictedDeparture))
            timetable.callRestrictions.append(restriction)
            if timetable.callSequences.count == timetable.callStops.count - 1 {
                timetable.callSequences.append(timetable.callSequences[call])
            }
            live.append(departureDelay ?? arrivalDelay)
        }
        timetable.trips.append(trip)
        delays[timetable.trips.count - 1] = live
    }

    /// An added trip: its calls and times all from its stop time updates.
    mutating func addTrip(_ update: RealtimeFeed.TripUpdate) {
        let trip = update.trip
        guard let route = trip.routeID.flatMap({ routeIndex[$0] }) else {
            return unusable(update, "an added trip names no route of the timetable (route_id '\(trip.routeID ?? "")')")
        }
        let first = update.stopTimeUpdates.first.flatMap { $0.departure?.time ?? $0.arrival?.time }
        guard
            let day = trip.startDate ?? update.properties?.startDate
                ?? first.map({ LiveTimetable.serviceDate(at: $0, in: zone) })
        else { return unusable(update, "an added trip without a start_date or times") }
        let date = planned(day)
        let dayStart = LiveTimetable.serviceDayStart(day, in: zone)
        var calls: [(stop: Int32, arrival: Int, departure: Int, restriction: UInt8)] = []
        for stop in update.stopTimeUpdates {
            guard let id = stop.stopID, let index = stopIndex[id] else {
                return unusable(update, "an added trip's call names no stop of the timetable ('\(stop.stopID ?? "")')")
            }
            guard let time = stop.arrival?.time ?? stop.departure?.time else {
                return unusable(update, "an added trip's call at '\(id)' has no time")
            }
            let arrival = max(time - dayStart, calls.last?.departure ?? Int.min)
            let departure = max((stop.departure?.time ?? time) - dayStart, arrival)
            calls.append((index, arrival, departure, stop.relationship == .skipped ? 3 : 0))
        }
        guard calls.count >= 2 else { return unusable(update, "an added trip with fewer than two calls") }
        let id = trip.tripID ?? update.properties?.tripID ?? update.entity
        let added = Timetable.Trip(
            id: id, route: Int32(route), service: dayService(date), headsign: update.properties?.headsign, shape: -1,
            firstCall: Int32(timetable.callStops.count), callCount: Int32(calls.count),
            direction: trip.directionID.map { Int8(clamping: $0) })
        for (offset, call) in calls.enumerated() {
            timetable.callStops.append(call.stop)
            timetable.arrivals.append(Int32(clamping: call.arrival))
            timetable.departures.append(Int32(clamping: call.departure))
            timetable.callRestrictions.append(call.restriction)
            if !timetable.callSequences.isEmpty { timetable.callSequences.append(Int32(offset)) }
        }
        timetable.trips.append(added)
        delays[timetable.trips.count - 1] = Array(repeating: 0, count: calls.count)
        report.added += 1
    }

    /// Gives each static trip that lost days a service without them (one per service and set
    /// of days).
    mutating func finish() {
        var clones: [String: Int32] = [:]
        for (trip, days) in removed.sorted(by: { $0.key < $1.key }) {
            let service = Int(timetable.trips[trip].service)
            let sorted = days.sorted()
            let key = "\(service)/\(sorted)"
            if let clone = clones[key] {
                timetable.trips[trip].service = clone
                continue
            }
            var copy = timetable.services[service]
            copy.id += " without \(sorted.map(String.init).joined(separator: ","))"
            copy.removed += sorted
            copy.added.removeAll { days.contains($0) }
            let index = Int32(timetable.services.count)
            timetable.services.append(copy)
            clones[key] = index
            timetable.trips[trip].service = index
        }
    }
}
