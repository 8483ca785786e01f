import Foundation
import GeoCore

/// A GTFS-Realtime feed message (version 1.0 or 2.0, `FULL_DATASET`): the trip updates, service
/// alerts and vehicle positions an agency publishes for one of its GTFS feeds, read with the
/// project's protobuf reader.
///
/// The experimental parts the specification lists are tolerated: `TripUpdate.delay`,
/// `trip_properties` (an `ADDED` or `DUPLICATED` trip's id, start and headsign), the trip
/// relationships `DUPLICATED`, `DELETED` and `NEW`; unknown fields and extensions are skipped.
public struct RealtimeFeed: Sendable, Equatable {
    /// `gtfs_realtime_version` ("1.0", "2.0").
    public var version: String
    /// When the feed's content was made (`FeedHeader.timestamp`), POSIX seconds; nil when not given.
    public var timestamp: Int?
    /// The trip updates, in the feed's order.
    public var tripUpdates: [TripUpdate] = []
    /// The service alerts, in the feed's order.
    public var alerts: [Alert] = []
    /// The vehicles' positions, in the feed's order.
    public var vehicles: [VehiclePosition] = []
    /// Entities the feed marks deleted (`is_deleted`), which are left out.
    public var deletedEntities = 0

    /// How a trip relates to the timetable (`TripDescriptor.ScheduleRelationship`).
    public enum TripRelationship: Int, Sendable, Equatable {
        /// Runs as the timetable says, perhaps at other times.
        case scheduled = 0
        /// An extra trip the timetable does not have.
        case added = 1
        /// A trip run without a schedule (frequency-based): no times to change.
        case unscheduled = 2
        /// The timetable's trip does not run.
        case canceled = 3
        /// Deprecated in the specification: the trip replaces the timetable's (read as scheduled).
        case replacement = 5
        /// A copy of the timetable's trip, at another start time or date (`trip_properties`).
        case duplicated = 6
        /// Like canceled, and not to be shown to riders.
        case deleted = 7
        /// A new trip the timetable does not have (the successor of added).
        case new = 8
    }

    /// Which trip an update or a position is about (`TripDescriptor`).
    public struct TripDescriptor: Sendable, Equatable {
        /// `trip_id` of the timetable (or the feed's own id of an added trip).
        public var tripID: String?
        /// `route_id`.
        public var routeID: String?
        /// `direction_id`, 0 or 1.
        public var directionID: Int?
        /// `start_time`, seconds after the service day's midnight (past 24:00 after midnight).
        public var startTime: Int?
        /// `start_date`, `YYYYMMDD`: the service day the trip runs on.
        public var startDate: Int?
        /// How the trip relates to the timetable; scheduled when not given.
        public var relationship: TripRelationship = .scheduled

        public init(
            tripID: String? = nil, routeID: String? = nil, directionID: Int? = nil, startTime: Int? = nil,
            startDate: Int? = nil, relationship: TripRelationship = .scheduled
        ) {
            self.tripID = tripID
            self.routeID = routeID
            self.directionID = directionID
            self.startTime = startTime
            self.startDate = startDate
            self.relationship = relationship
        }
    }

    /// A predicted arrival or departure (`StopTimeEvent`): a delay against the timetable, an
    /// absolute time, or both (then the time wins).
    public struct StopTimeEvent: Sendable, Equatable {
        /// Seconds late (negative: early).
        public var delay: Int?
        /// POSIX seconds.
        public var time: Int?

        public init(delay: Int? = nil, time: Int? = nil) {
            self.delay = delay
            self.time = time
        }
    }

    /// How a call relates to the timetable (`StopTimeUpdate.ScheduleRelationship`).
    public enum StopRelationship: Int, Sendable, Equatable {
        /// The call is made, at the times given.
        case scheduled = 0
        /// The vehicle does not stop there.
        case skipped = 1
        /// No prediction from here on (until a later update gives one).
        case noData = 2
        /// A frequency-based trip's call: no schedule to compare with.
        case unscheduled = 3
    }

    /// A prediction for one call of a trip (`StopTimeUpdate`), named by its `stop_sequence`, its
    /// `stop_id` or both.
    public struct StopTimeUpdate: Sendable, Equatable {
        /// `stop_sequence` as `stop_times.txt` numbers the call.
        public var stopSequence: Int?
        /// `stop_id`.
        public var stopID: String?
        /// The predicted arrival.
        public var arrival: StopTimeEvent?
        /// The predicted departure.
        public var departure: StopTimeEvent?
        /// Whether the call is made; scheduled when not given.
        public var relationship: StopRelationship = .scheduled

        public init(
            stopSequence: Int? = nil, stopID: String? = nil, arrival: StopTimeEvent? = nil,
            departure: StopTimeEvent? = nil, relationship: StopRelationship = .scheduled
        ) {
            self.stopSequence = stopSequence
            self.stopID = stopID
            self.arrival = arrival
            self.departure = departure
            self.relationship = relationship
        }
    }

    /// An added or duplicated trip's own properties (`TripUpdate.TripProperties`, experimental).
    public struct TripProperties: Sendable, Equatable {
        /// The new trip's id.
        public var tripID: String?
        /// Its service day, `YYYYMMDD`.
        public var startDate: Int?
        /// Its start, seconds after the service day's midnight.
        public var startTime: Int?
        /// Where it goes, as its vehicle shows it.
        public var headsign: String?

        public init(tripID: String? = nil, startDate: Int? = nil, startTime: Int? = nil, headsign: String? = nil) {
            self.tripID = tripID
            self.startDate = startDate
            self.startTime = startTime
            self.headsign = headsign
        }
    }

    /// The vehicle running a trip (`VehicleDescriptor`).
    public struct VehicleDescriptor: Sendable, Equatable {
        /// The agency's internal id.
        public var id: String?
        /// What riders read on it ("7041").
        public var label: String?

        public init(id: String? = nil, label: String? = nil) {
            self.id = id
            self.label = label
        }
    }

    /// Predictions for one trip (`TripUpdate`).
    public struct TripUpdate: Sendable, Equatable {
        /// The entity's id in the feed.
        public var entity: String
        /// The trip.
        public var trip: TripDescriptor
        /// The vehicle running it, when given.
        public var vehicle: VehicleDescriptor?
        /// The calls' predictions, in the trip's order.
        public var stopTimeUpdates: [StopTimeUpdate]
        /// The whole trip's delay, seconds (experimental): for the calls no update names.
        public var delay: Int?
        /// When the prediction was made, POSIX seconds.
        public var timestamp: Int?
        /// An added or duplicated trip's properties.
        public var properties: TripProperties?

        public init(
            entity: String, trip: TripDescriptor, vehicle: VehicleDescriptor? = nil,
            stopTimeUpdates: [StopTimeUpdate] = [], delay: Int? = nil, timestamp: Int? = nil,
            properties: TripProperties? = nil
        ) {
            self.entity = entity
            self.trip = trip
            self.vehicle = vehicle
            self.stopTimeUpdates = stopTimeUpdates
            self.delay = delay
            self.timestamp = timestamp
            self.properties = properties
        }
    }

    /// Text in several languages (`TranslatedString`).
    public struct TranslatedText: Sendable, Equatable {
        /// Each translation: its BCP 47 language ("en", "es-ES"), nil for the feed's default, and its text.
        public var translations: [Translation]

        /// One translation of a text.
        public struct Translation: Sendable, Equatable {
            public var language: String?
            public var text: String

            public init(language: String?, text: String) {
                self.language = language
                self.text = text
            }
        }

        public init(_ translations: [Translation]) { self.translations = translations }

        /// The text in `language` (an ISO 639-1 code: a translation whose tag starts with it,
        /// "es" for "es-ES"), else the untagged one, else the first; nil when there is none.
        public func text(in language: String) -> String? {
            let wanted = language.lowercased()
            func matches(_ tag: String?) -> Bool {
                guard let tag = tag?.lowercased() else { return false }
                return tag == wanted || tag.hasPrefix(wanted + "-") || tag.hasPrefix(wanted + "_")
            }
            return
                (translations.first { matches($0.language) } ?? translations.first { $0.language == nil }
                ?? translations.first)?.text
        }
    }

    /// What an alert is about (`EntitySelector`): every field given must match.
    public struct EntitySelector: Sendable, Equatable {
        public var agencyID: String?
        public var routeID: String?
        /// GTFS `route_type`.
        public var routeType: Int?
        public var trip: TripDescriptor?
        public var stopID: String?
        public var directionID: Int?

        public init(
            agencyID: String? = nil, routeID: String? = nil, routeType: Int? = nil, trip: TripDescriptor? = nil,
            stopID: String? = nil, directionID: Int? = nil
        ) {
            self.agencyID = agencyID
            self.routeID = routeID
            self.routeType = routeType
            self.trip = trip
            self.stopID = stopID
            self.directionID = directionID
        }
    }

    /// A service alert (`Alert`).
    public struct Alert: Sendable, Equatable {
        /// The entity's id in the feed.
        public var entity: String
        /// When it is shown, POSIX seconds (either end open); always when empty.
        public var periods: [ClosedRange<Int>]
        /// What it is about; at least one.
        public var informed: [EntitySelector]
        /// `cause` (1 unknown … 12 medical emergency); 1 when not given.
        public var cause: Int
        /// `effect` (1 no service … 11 accessibility issue); 8 (unknown) when not given.
        public var effect: Int
        /// `header_text`.
        public var header: TranslatedText?
        /// `description_text`.
        public var description: TranslatedText?
        /// `url`.
        public var url: TranslatedText?

        public init(
            entity: String, periods: [ClosedRange<Int>] = [], informed: [EntitySelector], cause: Int = 1,
            effect: Int = 8, header: TranslatedText? = nil, description: TranslatedText? = nil,
            url: TranslatedText? = nil
        ) {
            self.entity = entity
            self.periods = periods
            self.informed = informed
            self.cause = cause
            self.effect = effect
            self.header = header
            self.description = description
            self.url = url
        }

        /// Whether it is shown at `time` (POSIX seconds).
        public func isActive(at time: Int) -> Bool {
            periods.isEmpty || periods.contains { $0.contains(time) }
        }

        /// The effect as the specification names it, lowercased (`no_service`, `significant_delays`).
        public var effectName: String {
            let names = [
                1: "no_service", 2: "reduced_service", 3: "significant_delays", 4: "detour", 5: "additional_service",
                6: "modified_service", 7: "other_effect", 9: "stop_moved", 10: "no_effect", 11: "accessibility_issue",
            ]
            return names[effect] ?? "unknown_effect"
        }
    }

    /// Where a vehicle is (`VehiclePosition`).
    public struct VehiclePosition: Sendable, Equatable {
        /// The entity's id in the feed.
        public var entity: String
        /// The trip it runs, when given.
        public var trip: TripDescriptor?
        /// The vehicle, when given.
        public var vehicle: VehicleDescriptor?
        /// Where it is, WGS 84 degrees.
        public var coordinate: Coordinate
        /// Its heading, degrees clockwise from north, when given.
        public var bearing: Double?
        /// Its speed, metres a second, when given.
        public var speed: Double?
        /// The stop it is at or going to (`stop_id`), when given.
        public var stopID: String?
        /// `current_status`: 0 incoming at, 1 stopped at, 2 in transit to; nil when not given.
        public var status: Int?
        /// When it was there, POSIX seconds.
        public var timestamp: Int?

        public init(
            entity: String, trip: TripDescriptor? = nil, vehicle: VehicleDescriptor? = nil, coordinate: Coordinate,
            bearing: Double? = nil, speed: Double? = nil, stopID: String? = nil, status: Int? = nil,
            timestamp: Int? = nil
        ) {
            self.entity = entity
            self.trip = trip
            self.vehicle = vehicle
            self.coordinate = coordinate
            self.bearing = bearing
            self.speed = speed
            self.stopID = stopID
            self.status = status
            self.timestamp = timestamp
        }
    }

    /// An empty feed of `version` made at `timestamp`.
    public init(version: String = "2.0", timestamp: Int? = nil) {
        self.version = version
        self.timestamp = timestamp
    }
}

// MARK: Reading

/// A wire-level failure while reading a feed: what was wrong, at which field path and byte.
struct RealtimeWireFailure: ProtobufFailure {
    /// The fields from the feed message down to the one at fault (`entity[3]`, `trip_update`, `trip`).
    var path: [String] = []
    var message: String
    var offset: Int
    init(protobuf message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The failure one field further up: `field` before its path.
    func within(_ field: String) -> RealtimeWireFailure {
        var outer = self
        outer.path.insert(field, at: 0)
        return outer
    }

    /// `entity[3].trip_update.trip.start_date: '2024-05-07' is not a date YYYYMMDD`.
    var description: String { path.isEmpty ? message : path.joined(separator: ".") + ": " + message }
}

extension RealtimeFeed {
    /// The feed message in `bytes` (`named` in errors: its file or URL).
    ///
    /// - Throws: ``DataError`` of kind `.invalidData` naming the field path and byte offset of
    ///   what is wrong: a truncated or malformed message, a missing required field
    ///   (`header`, `gtfs_realtime_version`, an entity's `id`, a trip update's `trip`, a
    ///   position's latitude and longitude), a date or time that is not one, a differential feed.
    public init(bytes: [UInt8], named name: String? = nil) throws(DataError) {
        let read: Result<RealtimeFeed, RealtimeWireFailure> = bytes.withUnsafeBytes { buffer in
            var reader = ProtobufReader<RealtimeWireFailure>(buffer)
            do throws(RealtimeWireFailure) { return .success(try RealtimeDecoder.feed(&reader)) } catch {
                return .failure(error)
            }
        }
        switch read {
        case .success(let feed): self = feed
        case .failure(let error):
            throw DataError(
                .invalidData, message: "not a GTFS-Realtime feed: \(error.description) (byte \(error.offset))",
                path: name)
        }
    }
}

/// Reads the messages of `gtfs-realtime.proto`, each at a field path errors name
/// (`entity[3].trip_update.stop_time_update[1].arrival.time`).
private enum RealtimeDecoder {
    typealias Reader = ProtobufReader<RealtimeWireFailure>

    /// A failure at `path`: `message` there, at the reader's offset.
    static func failure(_ reader: Reader, _ field: String, _ message: String) -> RealtimeWireFailure {
        reader.error(message).within(field)
    }

    /// Runs `body` on the message of the length-delimited field at the reader, its errors
    /// placed under `field`.
    static func message<T>(
        _ reader: inout Reader, _ type: ProtobufWireType, _ field: String,
        _ body: (inout Reader) throws(RealtimeWireFailure) -> T
    ) throws(RealtimeWireFailure) -> T {
        try expect(reader, type, .lengthDelimited, field)
        var inner = try reader.readMessage()
        do { return try body(&inner) } catch { throw error.within(field) }
    }

    /// Runs `body` on a message read before (`range` of the reader's bytes), its errors placed under `field`.
    static func message<T>(
        at range: Range<Int>, of reader: Reader, _ field: String,
        _ body: (inout Reader) throws(RealtimeWireFailure) -> T
    ) throws(RealtimeWireFailure) -> T {
        var inner = Reader(reader.bytes, range: range, baseOffset: reader.baseOffset)
        do { return try body(&inner) } catch { throw error.within(field) }
    }

    static func expect(_ reader: Reader, _ type: ProtobufWireType, _ wanted: ProtobufWireType, _ path: String)
        throws(RealtimeWireFailure)
    {
        guard type == wanted else {
            throw failure(reader, path, "has wire type \(type.rawValue), not \(wanted.rawValue)")
        }
    }

    static func string(_ reader: inout Reader, _ type: ProtobufWireType, _ path: String) throws(RealtimeWireFailure)
        -> String
    {
        try expect(reader, type, .lengthDelimited, path)
        return try reader.readString()
    }

    /// A varint read as a signed 64-bit value (`int32`, `int64` and `uint64` fields).
    static func integer(_ reader: inout Reader, _ type: ProtobufWireType, _ path: String) throws(RealtimeWireFailure)
        -> Int
    {
        try expect(reader, type, .varint, path)
        return Int(Int64(bitPattern: try reader.readVarint()))
    }

    /// An `int32` field (negative values are sent as 10-byte varints).
    static func int32(_ reader: inout Reader, _ type: ProtobufWireType, _ path: String) throws(RealtimeWireFailure)
        -> Int
    {
        try expect(reader, type, .varint, path)
        return Int(Int32(truncatingIfNeeded: Int64(bitPattern: try reader.readVarint())))
    }

    static func float(_ reader: inout Reader, _ type: ProtobufWireType, _ path: String) throws(RealtimeWireFailure)
        -> Double
    {
        try expect(reader, type, .fixed32, path)
        return Double(Float(bitPattern: try reader.readFixed32()))
    }

    static func double(_ reader: inout Reader, _ type: ProtobufWireType, _ path: String) throws(RealtimeWireFailure)
        -> Double
    {
        try expect(reader, type, .fixed64, path)
        return Double(bitPattern: try reader.readFixed64())
    }

    static func feed(_ reader: inout Reader) throws(RealtimeWireFailure) -> RealtimeFeed {
        var feed: RealtimeFeed?
        // The entities are read once the header is (a writer may put it last).
        var entities: [Range<Int>] = []
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: feed = try message(&reader, type, "header", header)
            case 2:
                try expect(reader, type, .lengthDelimited, "entity[\(entities.count)]")
                entities.append(try reader.readLengthDelimited())
            default: try reader.skip(type)
            }
        }
        guard var feed else { throw failure(reader, "header", "missing (FeedMessage.header is required)") }
        for (index, range) in entities.enumerated() {
            try message(at: range, of: reader, "entity[\(index)]") {
                (inner: inout Reader) throws(RealtimeWireFailure) in
                try entity(&inner, into: &feed)
            }
        }
        return feed
    }

    static func header(_ reader: inout Reader) throws(RealtimeWireFailure) -> RealtimeFeed {
        var version: String?
        var timestamp: Int?
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: version = try string(&reader, type, "gtfs_realtime_version")
            case 2:
                let incrementality = try integer(&reader, type, "incrementality")
                guard incrementality == 0 else {
                    throw failure(reader, "incrementality", "DIFFERENTIAL feeds are not supported (FULL_DATASET only)")
                }
            case 3: timestamp = try integer(&reader, type, "timestamp")
            default: try reader.skip(type)
            }
        }
        guard let version else { throw failure(reader, "gtfs_realtime_version", "missing (it is required)") }
        guard version.hasPrefix("1.") || version.hasPrefix("2.") else {
            throw failure(reader, "gtfs_realtime_version", "'\(version)' is not 1.x or 2.x")
        }
        return RealtimeFeed(version: version, timestamp: timestamp)
    }

    /// One `FeedEntity`, added to `feed` unless it is deleted.
    static func entity(_ reader: inout Reader, into feed: inout RealtimeFeed) throws(RealtimeWireFailure) {
        var id: String?
        var deleted = false
        // Its parts are read once its id is known.
        var parts: [(field: Int, range: Range<Int>)] = []
        let names = [3: "trip_update", 4: "vehicle", 5: "alert"]
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: id = try string(&reader, type, "id")
            case 2: deleted = try integer(&reader, type, "is_deleted") != 0
            case 3, 4, 5:
                try expect(reader, type, .lengthDelimited, names[field] ?? "")
                parts.append((field, try reader.readLengthDelimited()))
            default: try reader.skip(type)
            }
        }
        guard let id else { throw failure(reader, "id", "missing (FeedEntity.id is required)") }
        if deleted {
            feed.deletedEntities += 1
            return
        }
        for (field, range) in parts {
            try message(at: range, of: reader, names[field] ?? "") {
                (inner: inout Reader) throws(RealtimeWireFailure) in
                switch field {
                case 3: feed.tripUpdates.append(try tripUpdate(&inner, entity: id))
                case 4: if let position = try vehicle(&inner, entity: id) { feed.vehicles.append(position) }
                default: feed.alerts.append(try alert(&inner, entity: id))
                }
            }
        }
    }

    /// A `HH:MM:SS` time (hours past 24 allowed) at `path`.
    static func time(_ reader: Reader, _ text: String, _ path: String) throws(RealtimeWireFailure) -> Int {
        guard let seconds = Timetable.seconds(text) else {
            throw failure(reader, path, "'\(text)' is not a time HH:MM:SS")
        }
        return seconds
    }

    /// A `YYYYMMDD` date at `path`.
    static func date(_ reader: Reader, _ text: String, _ path: String) throws(RealtimeWireFailure) -> Int {
        guard let date = Timetable.date(text) else { throw failure(reader, path, "'\(text)' is not a date YYYYMMDD") }
        return date
    }

    static func trip(_ reader: inout Reader) throws(RealtimeWireFailure) -> RealtimeFeed.TripDescriptor {
        var trip = RealtimeFeed.TripDescriptor()
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: trip.tripID = try string(&reader, type, "trip_id")
            case 5: trip.routeID = try string(&reader, type, "route_id")
            case 6: trip.directionID = try integer(&reader, type, "direction_id")
            case 2: trip.startTime = try time(reader, try string(&reader, type, "start_time"), "start_time")
            case 3: trip.startDate = try date(reader, try string(&reader, type, "start_date"), "start_date")
            case 4:
                let raw = try integer(&reader, type, "schedule_relationship")
                guard let relationship = RealtimeFeed.TripRelationship(rawValue: raw) else {
                    throw failure(reader, "schedule_relationship", "\(raw) is not a trip relationship")
                }
                trip.relationship = relationship
            default: try reader.skip(type)
            }
        }
        return trip
    }

    static func vehicleDescriptor(_ reader: inout Reader) throws(RealtimeWireFailure) -> RealtimeFeed.VehicleDescriptor
    {
        var vehicle = RealtimeFeed.VehicleDescriptor()
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: vehicle.id = try string(&reader, type, "id")
            case 2: vehicle.label = try string(&reader, type, "label")
            default: try reader.skip(type)
            }
        }
        return vehicle
    }

    static func event(_ reader: inout Reader) throws(RealtimeWireFailure) -> RealtimeFeed.StopTimeEvent {
        var event = RealtimeFeed.StopTimeEvent()
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: event.delay = try int32(&reader, type, "delay")
            case 2: event.time = try integer(&reader, type, "time")
            default: try reader.skip(type)
            }
        }
        return event
    }

    static func stopTimeUpdate(_ reader: inout Reader) throws(RealtimeWireFailure) -> RealtimeFeed.StopTimeUpdate {
        var update = RealtimeFeed.StopTimeUpdate()
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: update.stopSequence = try integer(&reader, type, "stop_sequence")
            case 4: update.stopID = try string(&reader, type, "stop_id")
            case 2: update.arrival = try message(&reader, type, "arrival", event)
            case 3: update.departure = try message(&reader, type, "departure", event)
            case 5:
                let raw = try integer(&reader, type, "schedule_relationship")
                guard let relationship = RealtimeFeed.StopRelationship(rawValue: raw) else {
                    throw failure(reader, "schedule_relationship", "\(raw) is not a stop relationship")
                }
                update.relationship = relationship
            default: try reader.skip(type)
            }
        }
        return update
    }

    static func properties(_ reader: inout Reader) throws(RealtimeWireFailure) -> RealtimeFeed.TripProperties {
        var properties = RealtimeFeed.TripProperties()
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: properties.tripID = try string(&reader, type, "trip_id")
            case 2: properties.startDate = try date(reader, try string(&reader, type, "start_date"), "start_date")
            case 3: properties.startTime = try time(reader, try string(&reader, type, "start_time"), "start_time")
            case 5: properties.headsign = try string(&reader, type, "trip_headsign")
            default: try reader.skip(type)
            }
        }
        return properties
    }

    static func tripUpdate(_ reader: inout Reader, entity: String) throws(RealtimeWireFailure)
        -> RealtimeFeed.TripUpdate
    {
        var descriptor: RealtimeFeed.TripDescriptor?
        var update = RealtimeFeed.TripUpdate(entity: entity, trip: RealtimeFeed.TripDescriptor())
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: descriptor = try message(&reader, type, "trip", trip)
            case 3: update.vehicle = try message(&reader, type, "vehicle", vehicleDescriptor)
            case 2:
                let path = "stop_time_update[\(update.stopTimeUpdates.count)]"
                update.stopTimeUpdates.append(try message(&reader, type, path, stopTimeUpdate))
            case 4: update.timestamp = try integer(&reader, type, "timestamp")
            case 5: update.delay = try int32(&reader, type, "delay")
            case 6: update.properties = try message(&reader, type, "trip_properties", properties)
            default: try reader.skip(type)
            }
        }
        guard let descriptor else { throw failure(reader, "trip", "missing (TripUpdate.trip is required)") }
        update.trip = descriptor
        return update
    }

    static func translated(_ reader: inout Reader) throws(RealtimeWireFailure) -> RealtimeFeed.TranslatedText {
        var translations: [RealtimeFeed.TranslatedText.Translation] = []
        while let (field, type) = try reader.readTag() {
            guard field == 1 else {
                try reader.skip(type)
                continue
            }
            let path = "translation[\(translations.count)]"
            translations.append(
                try message(&reader, type, path) { (inner: inout Reader) throws(RealtimeWireFailure) in
                    var text: String?
                    var language: String?
                    while let (field, type) = try inner.readTag() {
                        switch field {
                        case 1: text = try string(&inner, type, "text")
                        case 2: language = try string(&inner, type, "language")
                        default: try inner.skip(type)
                        }
                    }
                    guard let text else { throw failure(inner, "text", "missing (Translation.text is required)") }
                    return .init(language: language, text: text)
                })
        }
        return RealtimeFeed.TranslatedText(translations)
    }

    static func selector(_ reader: inout Reader) throws(RealtimeWireFailure) -> RealtimeFeed.EntitySelector {
        var selector = RealtimeFeed.EntitySelector()
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: selector.agencyID = try string(&reader, type, "agency_id")
            case 2: selector.routeID = try string(&reader, type, "route_id")
            case 3: selector.routeType = try int32(&reader, type, "route_type")
            case 4: selector.trip = try message(&reader, type, "trip", trip)
            case 5: selector.stopID = try string(&reader, type, "stop_id")
            case 6: selector.directionID = try integer(&reader, type, "direction_id")
            default: try reader.skip(type)
            }
        }
        return selector
    }

    static func alert(_ reader: inout Reader, entity: String) throws(RealtimeWireFailure) -> RealtimeFeed.Alert {
        var alert = RealtimeFeed.Alert(entity: entity, informed: [])
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1:
                let path = "active_period[\(alert.periods.count)]"
                alert.periods.append(
                    try message(&reader, type, path) { (inner: inout Reader) throws(RealtimeWireFailure) in
                        var start = Int.min
                        var end = Int.max
                        while let (field, type) = try inner.readTag() {
                            switch field {
                            case 1: start = try integer(&inner, type, "start")
                            case 2: end = try integer(&inner, type, "end")
                            default: try inner.skip(type)
                            }
                        }
                        guard start <= end else { throw failure(inner, "end", "comes before start") }
                        return start...end
                    })
            case 5:
                let path = "informed_entity[\(alert.informed.count)]"
                alert.informed.append(try message(&reader, type, path, selector))
            case 6: alert.cause = try integer(&reader, type, "cause")
            case 7: alert.effect = try integer(&reader, type, "effect")
            case 8: alert.url = try message(&reader, type, "url", translated)
            case 10: alert.header = try message(&reader, type, "header_text", translated)
            case 11: alert.description = try message(&reader, type, "description_text", translated)
            default: try reader.skip(type)
            }
        }
        guard !alert.informed.isEmpty else {
            throw failure(reader, "informed_entity", "missing (an alert names at least one)")
        }
        return alert
    }

    /// A position, nil for an entity that gives a vehicle without one (a vehicle not yet out).
    static func vehicle(_ reader: inout Reader, entity: String) throws(RealtimeWireFailure)
        -> RealtimeFeed.VehiclePosition?
    {
        var descriptor: RealtimeFeed.TripDescriptor?
        var vehicle: RealtimeFeed.VehicleDescriptor?
        var position: (latitude: Double, longitude: Double, bearing: Double?, speed: Double?)?
        var stopID: String?
        var status: Int?
        var timestamp: Int?
        while let (field, type) = try reader.readTag() {
            switch field {
            case 1: descriptor = try message(&reader, type, "trip", trip)
            case 8: vehicle = try message(&reader, type, "vehicle", vehicleDescriptor)
            case 2:
                position = try message(&reader, type, "position") { (inner: inout Reader) throws(RealtimeWireFailure) in
                    var latitude: Double?
                    var longitude: Double?
                    var bearing: Double?
                    var speed: Double?
                    while let (field, type) = try inner.readTag() {
                        switch field {
                        case 1: latitude = try float(&inner, type, "latitude")
                        case 2: longitude = try float(&inner, type, "longitude")
                        case 3: bearing = try float(&inner, type, "bearing")
                        case 5: speed = try float(&inner, type, "speed")
                        default: try inner.skip(type)
                        }
                    }
                    guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude)
                    else { throw failure(inner, "latitude", "missing or out of range (both are required, in degrees)") }
                    return (latitude, longitude, bearing, speed)
                }
            case 7: stopID = try string(&reader, type, "stop_id")
            case 4: status = try integer(&reader, type, "current_status")
            case 5: timestamp = try integer(&reader, type, "timestamp")
            default: try reader.skip(type)
            }
        }
        guard let position else { return nil }
        return RealtimeFeed.VehiclePosition(
            entity: entity, trip: descriptor, vehicle: vehicle,
            coordinate: Coordinate(latitude: position.latitude, longitude: position.longitude),
            bearing: position.bearing, speed: position.speed, stopID: stopID, status: status, timestamp: timestamp)
    }
}

// MARK: Writing

extension RealtimeFeed {
    /// The feed as a GTFS-Realtime `FeedMessage` (`FULL_DATASET`), as an agency publishes it:
    /// what tests and benchmarks replay, and what ``init(bytes:named:)`` reads back equal.
    public func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        writer.message(1) { header in
            header.string(1, version)
            header.uint(2, 0)
            if let timestamp { header.uint(3, UInt64(max(0, timestamp))) }
        }
        for update in tripUpdates {
            writer.message(2) { entity in
                entity.string(1, update.entity)
                entity.message(3) { message in
                    message.message(1) { Self.write(update.trip, into: &$0) }
                    if let vehicle = update.vehicle { message.message(3) { Self.write(vehicle, into: &$0) } }
                    for stop in update.stopTimeUpdates {
                        message.message(2) { Self.write(stop, into: &$0) }
                    }
                    if let timestamp = update.timestamp { message.uint(4, UInt64(max(0, timestamp))) }
                    if let delay = update.delay { message.int(5, Int64(delay)) }
                    if let properties = update.properties {
                        message.message(6) { writer in
                            if let id = properties.tripID { writer.string(1, id) }
                            if let date = properties.startDate { writer.string(2, String(date)) }
                            if let time = properties.startTime { writer.string(3, Self.clock(time)) }
                            if let headsign = properties.headsign { writer.string(5, headsign) }
                        }
                    }
                }
            }
        }
        for alert in alerts {
            writer.message(2) { entity in
                entity.string(1, alert.entity)
                entity.message(5) { message in
                    for period in alert.periods {
                        message.message(1) { range in
                            if period.lowerBound > Int.min { range.uint(1, UInt64(max(0, period.lowerBound))) }
                            if period.upperBound < Int.max { range.uint(2, UInt64(max(0, period.upperBound))) }
                        }
                    }
                    for selector in alert.informed {
                        message.message(5) { writer in
                            if let agency = selector.agencyID { writer.string(1, agency) }
                            if let route = selector.routeID { writer.string(2, route) }
                            if let type = selector.routeType { writer.int(3, Int64(type)) }
                            if let trip = selector.trip { writer.message(4) { Self.write(trip, into: &$0) } }
                            if let stop = selector.stopID { writer.string(5, stop) }
                            if let direction = selector.directionID { writer.uint(6, UInt64(direction)) }
                        }
                    }
                    message.uint(6, UInt64(alert.cause))
                    message.uint(7, UInt64(alert.effect))
                    for (field, text) in [(8, alert.url), (10, alert.header), (11, alert.description)] {
                        guard let text else { continue }
                        message.message(field) { writer in
                            for translation in text.translations {
                                writer.message(1) { entry in
                                    entry.string(1, translation.text)
                                    if let language = translation.language { entry.string(2, language) }
                                }
                            }
                        }
                    }
                }
            }
        }
        for position in vehicles {
            writer.message(2) { entity in
                entity.string(1, position.entity)
                entity.message(4) { message in
                    if let trip = position.trip { message.message(1) { Self.write(trip, into: &$0) } }
                    if let vehicle = position.vehicle { message.message(8) { Self.write(vehicle, into: &$0) } }
                    message.message(2) { point in
                        point.float(1, Float(position.coordinate.latitude))
                        point.float(2, Float(position.coordinate.longitude))
                        if let bearing = position.bearing { point.float(3, Float(bearing)) }
                        if let speed = position.speed { point.float(5, Float(speed)) }
                    }
                    if let status = position.status { message.uint(4, UInt64(status)) }
                    if let timestamp = position.timestamp { message.uint(5, UInt64(max(0, timestamp))) }
                    if let stop = position.stopID { message.string(7, stop) }
                }
            }
        }
        return writer.bytes
    }

    /// `HH:MM:SS` of seconds after midnight (hours past 24 kept).
    static func clock(_ seconds: Int) -> String {
        String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    private static func write(_ trip: TripDescriptor, into writer: inout ProtobufWriter) {
        if let id = trip.tripID { writer.string(1, id) }
        if let time = trip.startTime { writer.string(2, clock(time)) }
        if let date = trip.startDate { writer.string(3, String(date)) }
        if trip.relationship != .scheduled { writer.uint(4, UInt64(trip.relationship.rawValue)) }
        if let route = trip.routeID { writer.string(5, route) }
        if let direction = trip.directionID { writer.uint(6, UInt64(direction)) }
    }

    private static func write(_ vehicle: VehicleDescriptor, into writer: inout ProtobufWriter) {
        if let id = vehicle.id { writer.string(1, id) }
        if let label = vehicle.label { writer.string(2, label) }
    }

    private static func write(_ stop: StopTimeUpdate, into writer: inout ProtobufWriter) {
        if let sequence = stop.stopSequence { writer.uint(1, UInt64(sequence)) }
        for (field, event) in [(2, stop.arrival), (3, stop.departure)] {
            guard let event else { continue }
            writer.message(field) { message in
                if let delay = event.delay { message.int(1, Int64(delay)) }
                if let time = event.time { message.int(2, Int64(time)) }
            }
        }
        if let id = stop.stopID { writer.string(4, id) }
        if stop.relationship != .scheduled { writer.uint(5, UInt64(stop.relationship.rawValue)) }
    }
}
