import Foundation
import GeoCore
import ZlibKit

/// A GTFS feed's timetable, as a journey planner reads it: stops (with their stations), routes,
/// trips with their calls (arrival and departure in seconds after the service day's midnight,
/// past 24:00 for trips running after midnight; blank times interpolated), the services' days,
/// transfers and shapes. Trips of `frequencies.txt` are written out one by one.
///
/// Stored beside the feed's network in the `transit_timetable` table (one compressed row a
/// feed, by the feed's source name), written in the import's transaction.
public struct Timetable: Codable, Sendable, Equatable {
    /// The feed's time zone (`agency_timezone`), an IANA name; times are local to it.
    public var timezone: String
    /// Every stop, station and entrance, by the index calls refer to.
    public var stops: [Stop]
    /// The routes, by the index trips refer to.
    public var routes: [Route]
    /// The trips, each with its run of calls.
    public var trips: [Trip]
    /// Every trip's calls, trip after trip (``Trip/firstCall`` and ``Trip/callCount``).
    public var callStops: [Int32]
    /// Per call: arrival, seconds after the service day's midnight.
    public var arrivals: [Int32]
    /// Per call: departure, seconds after the service day's midnight.
    public var departures: [Int32]
    /// Per call: its `stop_sequence` (GTFS-Realtime's stop time updates name calls by it);
    /// empty in a timetable stored before it was kept.
    public var callSequences: [Int32]
    /// Per call: 1 when riders may not board there (`pickup_type` 1), 2 when they may not get
    /// off (`drop_off_type` 1), 3 for neither; 0 otherwise.
    public var callRestrictions: [UInt8]
    /// The services' running days, by the index trips refer to.
    public var services: [Service]
    /// The transfers `transfers.txt` gives between stops.
    public var transfers: [Transfer]
    /// Shapes as polylines at 6 decimals, by ``Trip/shape``.
    public var shapes: [String]

    /// A stop, station or entrance of `stops.txt`.
    public struct Stop: Codable, Sendable, Equatable {
        /// `stop_id`, unique in the feed.
        public var id: String
        /// `stop_name`.
        public var name: String
        /// `stop_lat`, degrees.
        public var latitude: Double
        /// `stop_lon`, degrees.
        public var longitude: Double
        /// The station's index, or -1.
        public var parent: Int32

        /// Where the stop is.
        public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
    }

    /// A route of `routes.txt`: a line as riders know it.
    public struct Route: Codable, Sendable, Equatable {
        /// `route_id`, unique in the feed.
        public var id: String
        /// `route_short_name` ("7", "A"), when given.
        public var shortName: String?
        /// `route_long_name`, when given.
        public var longName: String?
        /// GTFS `route_type` (0 tram, 1 subway, 2 rail, 3 bus, …).
        public var type: Int
        /// `#rrggbb` (``FeatureColour/normalized(_:)``), when the feed gives one.
        public var colour: String?
        /// `#rrggbb` for text drawn on ``colour``, when the feed gives one.
        public var textColour: String?
        /// `agency_id`, when the feed gives one.
        public var agency: String?
    }

    /// A trip of `trips.txt`: one vehicle's run along a route.
    public struct Trip: Codable, Sendable, Equatable {
        /// `trip_id`, unique in the feed.
        public var id: String
        /// Index in ``Timetable/routes``.
        public var route: Int32
        /// Index in ``Timetable/services``.
        public var service: Int32
        /// `trip_headsign`: where the vehicle says it goes, when given.
        public var headsign: String?
        /// Index in ``Timetable/shapes``, or -1.
        public var shape: Int32
        /// Index of its first call in ``Timetable/callStops``, ``Timetable/arrivals`` and ``Timetable/departures``.
        public var firstCall: Int32
        /// How many calls it makes, 2 or more.
        public var callCount: Int32
        /// `direction_id` (0 or 1), when given.
        public var direction: Int8?
    }

    /// A service's running days: weekdays between two dates, with dates added and removed.
    public struct Service: Codable, Sendable, Equatable {
        /// `service_id`.
        public var id: String
        /// Monday (bit 0) to Sunday (bit 6).
        public var weekdays: Int
        /// `YYYYMMDD`; 0 when the service has only `calendar_dates`.
        public var start: Int
        /// `YYYYMMDD`, the last day; 0 when the service has only `calendar_dates`.
        public var end: Int
        /// Dates added (`exception_type` 1), `YYYYMMDD`.
        public var added: [Int]
        /// Dates removed (`exception_type` 2), `YYYYMMDD`.
        public var removed: [Int]

        /// Whether the service runs on `date` (`YYYYMMDD`), which falls on `weekday` (0 Monday).
        public func runs(on date: Int, weekday: Int) -> Bool {
            if removed.contains(date) { return false }
            if added.contains(date) { return true }
            return start <= date && date <= end && weekdays & (1 << weekday) != 0
        }
    }

    /// A transfer `transfers.txt` gives: from one stop to another, at least `minimumTime`
    /// seconds; `forbidden` when its type is 3.
    public struct Transfer: Codable, Sendable, Equatable {
        /// The stop left, by index in ``Timetable/stops``.
        public var from: Int32
        /// The stop reached, by index in ``Timetable/stops``.
        public var to: Int32
        /// Seconds the transfer takes at the least.
        public var minimumTime: Int32
        /// True when riders may not transfer there (`transfer_type` 3).
        public var forbidden: Bool
    }

    private enum CodingKeys: String, CodingKey {
        case timezone, stops, routes, trips, callStops, arrivals, departures, callRestrictions, services, transfers
        case shapes, callSequences
    }

    /// The last day any service runs, `YYYYMMDD` (0 for none).
    public var lastServiceDate: Int {
        services.map { max($0.end, $0.added.max() ?? 0) }.max() ?? 0
    }

    /// The calls of `trip`, as index ranges into the call arrays.
    public func calls(of trip: Int) -> Range<Int> {
        let first = Int(trips[trip].firstCall)
        return first..<(first + Int(trips[trip].callCount))
    }
}

extension Timetable {
    /// A stored timetable; one stored before calls had boarding rules has none (every call open).
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        timezone = try values.decode(String.self, forKey: .timezone)
        stops = try values.decode([Stop].self, forKey: .stops)
        routes = try values.decode([Route].self, forKey: .routes)
        trips = try values.decode([Trip].self, forKey: .trips)
        callStops = try values.decode([Int32].self, forKey: .callStops)
        arrivals = try values.decode([Int32].self, forKey: .arrivals)
        departures = try values.decode([Int32].self, forKey: .departures)
        callRestrictions = try values.decodeIfPresent([UInt8].self, forKey: .callRestrictions) ?? []
        callSequences = try values.decodeIfPresent([Int32].self, forKey: .callSequences) ?? []
        services = try values.decode([Service].self, forKey: .services)
        transfers = try values.decode([Transfer].self, forKey: .transfers)
        shapes = try values.decode([String].self, forKey: .shapes)
    }
}

// MARK: Reading a feed

extension Timetable {
    /// A `H:MM:SS` or `HH:MM:SS` time in seconds (hours may pass 24), nil when it is not one.
    static func seconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]),
            parts[1].count == 2, parts[2].count == 2, (0..<48).contains(hours), (0..<60).contains(minutes),
            (0..<60).contains(seconds)
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// A `YYYYMMDD` date, nil when it is not one.
    static func date(_ text: String) -> Int? {
        guard text.count == 8, let value = Int(text), (1900_01_01...2999_12_31).contains(value),
            (1...12).contains(value / 100 % 100), (1...31).contains(value % 100)
        else { return nil }
        return value
    }

    /// The timetable of the feed at `feed` (a zip).
    ///
    /// - Throws: ``DataError`` naming the file, line and field of bad data: a missing required
    ///   file or column, a time that is not one (`25:61:00`), an unknown stop, trip, route or
    ///   service, a trip whose first or last call has no time.
    public init(feed: String) throws(DataError) { try self.init(files: try GTFSFiles(path: feed)) }

    /// The timetable of a feed whose files may be read already (``GTFSFiles``).
    init(files: GTFSFiles) throws(DataError) {
        let feed = files.feed
        func table(_ file: String) throws(DataError) -> CSVTable? { try files.table(file) }
        func required(_ file: String) throws(DataError) -> CSVTable {
            guard let found = try table(file) else {
                throw DataError(.invalidData, message: "the feed has no \(file), which a timetable needs", path: feed)
            }
            return found
        }
        var reader = TimetableReader(feed: feed)
        do {
            try reader.readAgency(try required("agency.txt"))
            try reader.readStops(try required("stops.txt"))
            try reader.readRoutes(try required("routes.txt"))
            let calendar = try table("calendar.txt")
            let dates = try table("calendar_dates.txt")
            guard calendar != nil || dates != nil else {
                throw DataError(
                    .invalidData, message: "the feed has neither calendar.txt nor calendar_dates.txt", path: feed)
            }
            if let calendar { try reader.readCalendar(calendar) }
            if let dates { try reader.readCalendarDates(dates) }
            if let shapes = try table("shapes.txt") { try reader.readShapes(shapes) }
            try reader.readTrips(try required("trips.txt"))
            try reader.readStopTimes(try required("stop_times.txt"))
            if let frequencies = try table("frequencies.txt") { try reader.readFrequencies(frequencies) }
            if let transfers = try table("transfers.txt") { try reader.readTransfers(transfers) }
        } catch let error as DataError {
            throw error
        } catch {
            throw DataError(.invalidData, message: "\(error)", path: feed)
        }
        self = reader.timetable
    }
}

/// Reads a feed's files into a ``Timetable``, one file at a time.
private struct TimetableReader {
    let feed: String
    var timetable = Timetable(
        timezone: "UTC", stops: [], routes: [], trips: [], callStops: [], arrivals: [], departures: [],
        callSequences: [], callRestrictions: [],
        services: [], transfers: [], shapes: [])
    var stopIndex: [String: Int32] = [:]
    var routeIndex: [String: Int32] = [:]
    var serviceIndex: [String: Int32] = [:]
    var tripIndex: [String: Int32] = [:]
    var shapeIndex: [String: Int32] = [:]

    init(feed: String) { self.feed = feed }

    func invalid(_ table: CSVTable, _ row: CSVTable.Row, _ message: String) -> DataError {
        GTFSRows.invalid(table, row, message, feed: feed)
    }

    mutating func readAgency(_ table: CSVTable) throws {
        let zone = try table.requiredColumn("agency_timezone", feed: feed)
        var first: String?
        try table.forEachRow { row in
            guard let name = row.value(zone), TimeZone(identifier: name) != nil else {
                throw invalid(table, row, "agency_timezone '\(row.string(zone))' is not a time zone")
            }
            if first == nil { first = name }
        }
        timetable.timezone = first ?? "UTC"
    }

    /// The stops (``GTFSRows/stops(_:feed:)``; one without a position, nor its station's, has
    /// NaN for it).
    mutating func readStops(_ table: CSVTable) throws {
        for row in try GTFSRows.stops(table, feed: feed) {
            stopIndex[row.id] = Int32(timetable.stops.count)
            timetable.stops.append(
                Timetable.Stop(
                    id: row.id, name: row.name, latitude: row.coordinate?.latitude ?? .nan,
                    longitude: row.coordinate?.longitude ?? .nan, parent: row.parent.map(Int32.init) ?? -1))
        }
    }

    mutating func readRoutes(_ table: CSVTable) throws {
        for route in try GTFSRows.routes(table, feed: feed) {
            routeIndex[route.id] = Int32(timetable.routes.count)
            timetable.routes.append(
                Timetable.Route(
                    id: route.id, shortName: route.shortName, longName: route.longName, type: route.type,
                    colour: route.colour, textColour: route.textColour, agency: route.agency))
        }
    }

    mutating func service(_ id: String) -> Int32 {
        if let index = serviceIndex[id] { return index }
        let index = Int32(timetable.services.count)
        serviceIndex[id] = index
        timetable.services.append(Timetable.Service(id: id, weekdays: 0, start: 0, end: 0, added: [], removed: []))
        return index
    }

    mutating func readCalendar(_ table: CSVTable) throws {
        let id = try table.requiredColumn("service_id", feed: feed)
        let days = try ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map {
            try table.requiredColumn($0, feed: feed)
        }
        let start = try table.requiredColumn("start_date", feed: feed)
        let end = try table.requiredColumn("end_date", feed: feed)
        try table.forEachRow { row in
            guard let serviceID = row.value(id) else { throw invalid(table, row, "service_id is empty") }
            var weekdays = 0
            for (bit, column) in days.enumerated() {
                switch row.string(column) {
                case "1": weekdays |= 1 << bit
                case "0": break
                default:
                    throw invalid(table, row, "\(table.columns[column]) '\(row.string(column))' is not 0 or 1")
                }
            }
            guard let first = Timetable.date(row.string(start)), let last = Timetable.date(row.string(end)) else {
                throw invalid(
                    table, row, "start_date '\(row.string(start))' or end_date '\(row.string(end))' is not YYYYMMDD")
            }
            let index = Int(service(serviceID))
            timetable.services[index].weekdays = weekdays
            timetable.services[index].start = first
            timetable.services[index].end = last
        }
    }

    mutating func readCalendarDates(_ table: CSVTable) throws {
        let id = try table.requiredColumn("service_id", feed: feed)
        let date = try table.requiredColumn("date", feed: feed)
        let type = try table.requiredColumn("exception_type", feed: feed)
        try table.forEachRow { row in
            guard let serviceID = row.value(id) else { throw invalid(table, row, "service_id is empty") }
            guard let day = Timetable.date(row.string(date)) else {
                throw invalid(table, row, "date '\(row.string(date))' is not YYYYMMDD")
            }
            let index = Int(service(serviceID))
            switch row.string(type) {
            case "1": timetable.services[index].added.append(day)
            case "2": timetable.services[index].removed.append(day)
            default: throw invalid(table, row, "exception_type '\(row.string(type))' is not 1 or 2")
            }
        }
    }

    mutating func readShapes(_ table: CSVTable) throws {
        for (shapeID, points) in try GTFSShapes.read(table, feed: feed).sorted(by: { $0.key < $1.key }) {
            shapeIndex[shapeID] = Int32(timetable.shapes.count)
            timetable.shapes.append(EncodedPolyline.encode(points, precision: 6))
        }
    }

    mutating func readTrips(_ table: CSVTable) throws {
        let route = try table.requiredColumn("route_id", feed: feed)
        let serviceColumn = try table.requiredColumn("service_id", feed: feed)
        let trip = try table.requiredColumn("trip_id", feed: feed)
        let headsign = table.column("trip_headsign")
        let shape = table.column("shape_id")
        let direction = table.column("direction_id")
        try table.forEachRow { row in
            guard let tripID = row.value(trip) else { throw invalid(table, row, "trip_id is empty") }
            guard let routeIndex = routeIndex[row.string(route)] else {
                throw invalid(table, row, "route_id '\(row.string(route))' is not in routes.txt")
            }
            guard let serviceIndex = serviceIndex[row.string(serviceColumn)] else {
                throw invalid(
                    table, row, "service_id '\(row.string(serviceColumn))' is not in calendar.txt or calendar_dates.txt"
                )
            }
            tripIndex[tripID] = Int32(timetable.trips.count)
            timetable.trips.append(
                Timetable.Trip(
                    id: tripID, route: routeIndex, service: serviceIndex, headsign: row.value(headsign),
                    shape: row.value(shape).flatMap { shapeIndex[$0] } ?? -1, firstCall: 0, callCount: 0,
                    direction: row.value(direction).flatMap { Int8($0) }))
        }
    }

    /// Reads every call; a call without times between two with times is given one in
    /// proportion to the distance travelled (`shape_dist_traveled` where given, else straight
    /// lines between the stops).
    mutating func readStopTimes(_ table: CSVTable) throws {
        let trip = try table.requiredColumn("trip_id", feed: feed)
        let stop = try table.requiredColumn("stop_id", feed: feed)
        let sequence = try table.requiredColumn("stop_sequence", feed: feed)
        let arrival = try table.requiredColumn("arrival_time", feed: feed)
        let departure = try table.requiredColumn("departure_time", feed: feed)
        let distance = table.column("shape_dist_traveled")
        let pickup = table.column("pickup_type")
        let dropOff = table.column("drop_off_type")
        struct Call {
            var sequence: Int
            var stop: Int32
            var restriction: UInt8
            var arrival: Int?
            var departure: Int?
            var distance: Double?
            var line: Int
        }
        var calls: [[Call]] = Array(repeating: [], count: timetable.trips.count)
        try table.forEachRow { row in
            guard let tripNumber = tripIndex[row.string(trip)] else {
                throw invalid(table, row, "trip_id '\(row.string(trip))' is not in trips.txt")
            }
            guard let stopNumber = stopIndex[row.string(stop)] else {
                throw invalid(table, row, "stop_id '\(row.string(stop))' is not in stops.txt")
            }
            guard let number = Int(row.string(sequence)), number >= 0 else {
                throw invalid(table, row, "stop_sequence '\(row.string(sequence))' is not a whole number")
            }
            func time(_ column: Int) throws -> Int? {
                let text = row.string(column)
                guard !text.isEmpty else { return nil }
                guard let seconds = Timetable.seconds(text) else {
                    throw invalid(table, row, "\(table.columns[column]) '\(text)' is not a time HH:MM:SS")
                }
                return seconds
            }
            let arriving = try time(arrival)
            let departing = try time(departure)
            calls[Int(tripNumber)].append(
                Call(
                    sequence: number, stop: stopNumber,
                    restriction: (pickup.map(row.string) == "1" ? 1 : 0) | (dropOff.map(row.string) == "1" ? 2 : 0),
                    arrival: arriving ?? departing,
                    departure: departing ?? arriving,
                    distance: distance.map(row.string).flatMap(Double.init), line: row.line))
        }
        for tripNumber in calls.indices {
            var list = calls[tripNumber].sorted { $0.sequence < $1.sequence }
            guard let first = list.first, let last = list.last else { continue }
            guard first.departure != nil, last.arrival != nil else {
                throw DataError(
                    .invalidData,
                    message:
                        "stop_times.txt line \((first.departure == nil ? first : last).line): trip '\(timetable.trips[tripNumber].id)' has no time at its \(first.departure == nil ? "first" : "last") stop",
                    path: feed)
            }
            // Distances along the trip, for interpolation.
            var along: [Double] = [0]
            for index in list.indices.dropFirst() {
                if let start = list[0].distance, let here = list[index].distance {
                    along.append(here - start)
                } else {
                    let a = timetable.stops[Int(list[index - 1].stop)].coordinate
                    let b = timetable.stops[Int(list[index].stop)].coordinate
                    along.append(along[index - 1] + (a.isValid && b.isValid ? a.distance(to: b) : 0))
                }
            }
            var previous = 0
            for index in list.indices where index > 0 && list[index].arrival != nil {
                // Fill the calls between two timed ones.
                let from = list[previous].departure ?? 0
                let to = list[index].arrival ?? from
                let span = along[index] - along[previous]
                for gap in (previous + 1)..<index {
                    let share =
                        span > 0
                        ? (along[gap] - along[previous]) / span : Double(gap - previous) / Double(index - previous)
                    let time = from + Int((Double(to - from) * share).rounded())
                    list[gap].arrival = time
                    list[gap].departure = time
                }
                previous = index
            }
            timetable.trips[tripNumber].firstCall = Int32(timetable.callStops.count)
            timetable.trips[tripNumber].callCount = Int32(list.count)
            for call in list {
                timetable.callStops.append(call.stop)
                timetable.arrivals.append(Int32(call.arrival ?? 0))
                timetable.departures.append(Int32(call.departure ?? call.arrival ?? 0))
                timetable.callRestrictions.append(call.restriction)
                timetable.callSequences.append(Int32(clamping: call.sequence))
            }
        }
    }

    /// Writes out the trips of `frequencies.txt`: one trip a headway between its start and end
    /// times, each with the template trip's calls shifted.
    mutating func readFrequencies(_ table: CSVTable) throws {
        let trip = try table.requiredColumn("trip_id", feed: feed)
        let start = try table.requiredColumn("start_time", feed: feed)
        let end = try table.requiredColumn("end_time", feed: feed)
        let headway = try table.requiredColumn("headway_secs", feed: feed)
        // A trip may have several rows (periods of service): it stands for them only once all
        // are read, and its copies are numbered across them.
        var copies: [Int32: Int] = [:]
        try table.forEachRow { row in
            guard let template = tripIndex[row.string(trip)] else {
                throw invalid(table, row, "trip_id '\(row.string(trip))' is not in trips.txt")
            }
            guard let first = Timetable.seconds(row.string(start)), let last = Timetable.seconds(row.string(end)),
                first <= last
            else {
                throw invalid(
                    table, row,
                    "start_time '\(row.string(start))' and end_time '\(row.string(end))' are not times in order")
            }
            guard let step = Int(row.string(headway)), step > 0 else {
                throw invalid(table, row, "headway_secs '\(row.string(headway))' is not a positive number")
            }
            let model = timetable.trips[Int(template)]
            let calls = timetable.calls(of: Int(template))
            guard let origin = calls.first.map({ Int(timetable.departures[$0]) }) else { return }
            var departure = first
            var copy = copies[template, default: 0]
            while departure < last {
                let shift = Int32(departure - origin)
                var trip = model
                trip.id = "\(model.id)@\(copy)"
                trip.firstCall = Int32(timetable.callStops.count)
                for call in calls {
                    timetable.callStops.append(timetable.callStops[call])
                    timetable.arrivals.append(timetable.arrivals[call] + shift)
                    timetable.departures.append(timetable.departures[call] + shift)
                    timetable.callRestrictions.append(timetable.callRestrictions[call])
                    timetable.callSequences.append(timetable.callSequences[call])
                }
                timetable.trips.append(trip)
                departure += step
                copy += 1
            }
            copies[template] = copy
        }
        // The templates stand for their frequencies only.
        for template in copies.keys { timetable.trips[Int(template)].callCount = 0 }
    }

    mutating func readTransfers(_ table: CSVTable) throws {
        let from = try table.requiredColumn("from_stop_id", feed: feed)
        let to = try table.requiredColumn("to_stop_id", feed: feed)
        let type = table.column("transfer_type")
        let minimum = table.column("min_transfer_time")
        try table.forEachRow { row in
            guard let a = stopIndex[row.string(from)], let b = stopIndex[row.string(to)] else {
                throw invalid(
                    table, row, "from_stop_id '\(row.string(from))' or to_stop_id '\(row.string(to))' is not a stop")
            }
            let kind = Int(type.map(row.string) ?? "0") ?? 0
            timetable.transfers.append(
                Timetable.Transfer(
                    from: a, to: b, minimumTime: Int32(Int(minimum.map(row.string) ?? "") ?? 0),
                    forbidden: kind == 3))
        }
    }
}

// MARK: The store

extension Timetable {
    /// Writes the timetable of the source `name` (replacing an earlier one), compressed.
    func write(source name: String, into database: StoreConnection) throws {
        let json = Array(try JSONEncoder().encode(self))
        try database.run("DELETE FROM transit_timetable WHERE source = ?", [.text(name)])
        try database.run(
            "INSERT INTO transit_timetable (source, size, data) VALUES (?, ?, ?)",
            [.text(name), .integer(Int64(json.count)), .blob(try Zlib.deflate(json))])
    }
}

extension MapStore {
    /// Every imported feed's timetable, by its source's name (none in a store without feeds).
    ///
    /// - Throws: ``DataError`` when a stored timetable is damaged.
    public func timetables() throws(DataError) -> [(source: String, timetable: Timetable)] {
        do {
            if engine == .sqlite {
                // Stores made before timetables were kept have no table for them.
                let exists = try database.map(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'transit_timetable'"
                ) { _ in true }
                guard !exists.isEmpty else { return [] }
            }
            var found: [(String, Timetable)] = []
            try database.forEachRow(
                "SELECT transit_timetable.source, size, data FROM transit_timetable "
                    + "JOIN source ON source.name = transit_timetable.source ORDER BY source.id", []
            ) { row in
                guard let name = row.text(0), let size = row.integer(1),
                    let json = try row.withBlob(2, { try Zlib.inflate($0, rawSize: Int(size)) })
                else { throw DataError(.invalidData, message: "a stored timetable is damaged") }
                found.append((name, try JSONDecoder().decode(Timetable.self, from: Data(json))))
            }
            return found
        } catch let error as DataError {
            throw error
        } catch {
            throw DataError(.invalidData, message: "reading the timetables failed", underlying: error)
        }
    }
}
