import Foundation
import GeoCore

/// A GTFS-Realtime feed kept with the store for one of its GTFS feeds: where it is read from,
/// how often a server polls it, how old it may be, and the last message read.
///
/// Kept in the `transit_realtime` table, one row per GTFS feed and location (an agency may
/// publish trip updates, alerts and vehicle positions at three URLs), written atomically like
/// every import.
public struct StoredRealtimeFeed: Sendable {
    /// The GTFS feed's source name.
    public var source: String
    /// Where the feed is read from: an `http(s)://` URL or a file's path.
    public var location: String
    /// When the message was read, POSIX seconds.
    public var fetched: Int
    /// Seconds between two polls by a server: 30 by default.
    public var interval: Int
    /// Seconds after which a message is stale and ignored by a server (by its timestamp, else
    /// when it was read): 300 by default.
    public var maxAge: Int
    /// The message as read.
    public var bytes: [UInt8]

    /// Seconds between two polls unless told: 30.
    public static let defaultInterval = 30
    /// Seconds a message stays fresh unless told: 300.
    public static let defaultMaxAge = 300

    public init(source: String, location: String, fetched: Int, interval: Int, maxAge: Int, bytes: [UInt8]) {
        self.source = source
        self.location = location
        self.fetched = fetched
        self.interval = interval
        self.maxAge = maxAge
        self.bytes = bytes
    }

    /// Whether `location` is a URL a server polls, rather than a file.
    public var isURL: Bool { Self.isURL(location) }

    /// Whether `location` is an `http://` or `https://` URL.
    public static func isURL(_ location: String) -> Bool {
        location.hasPrefix("http://") || location.hasPrefix("https://")
    }

    /// The message read (``RealtimeFeed/init(bytes:named:)``).
    public func feed() throws(DataError) -> RealtimeFeed { try RealtimeFeed(bytes: bytes, named: location) }

    /// The bytes at `location`: a file's, or a URL's answer (`200` only) by `client` (by
    /// default a new one, whose requests time out after 30 s).
    ///
    /// - Throws: ``DataError`` of kind `.file` or `.download` saying what failed.
    public static func read(_ location: String, client: HTTPGet = HTTPGet()) throws(DataError) -> [UInt8] {
        guard isURL(location) else {
            guard let data = FileManager.default.contents(atPath: location) else {
                throw DataError(.file, message: "cannot read the realtime feed", path: location)
            }
            return [UInt8](data)
        }
        guard let url = URL(string: location) else {
            throw DataError(.download, message: "not a URL", path: location)
        }
        let answer: HTTPGet.Answer
        do { answer = try client.get(url) } catch {
            throw DataError(.download, message: error.message, path: location)
        }
        guard answer.status == 200 else {
            throw DataError(.download, message: "the host answered \(answer.status)", path: location)
        }
        return answer.body
    }
}

extension StoreSchema {
    /// The realtime feeds' table, created when missing (stores made before it).
    static func realtimeTable(_ engine: StoreEngine) -> String {
        let (text, integer, blob) = engine == .sqlite ? ("TEXT", "INTEGER", "BLOB") : ("text", "bigint", "bytea")
        return "CREATE TABLE IF NOT EXISTS transit_realtime (source \(text) NOT NULL, location \(text) NOT NULL, "
            + "fetched \(integer) NOT NULL, interval_seconds \(integer) NOT NULL, max_age \(integer) NOT NULL, "
            + "data \(blob) NOT NULL, PRIMARY KEY (source, location))"
    }
}

extension MapStore {
    /// The realtime feeds kept with the store's GTFS feeds, by feed and location.
    ///
    /// - Throws: ``DataError`` when the store cannot be read.
    public func realtimeFeeds() throws(DataError) -> [StoredRealtimeFeed] {
        guard try hasTable("transit_realtime") else { return [] }
        do {
            return try database.map(
                "SELECT source, location, fetched, interval_seconds, max_age, data FROM transit_realtime "
                    + "ORDER BY source, location"
            ) { row in
                StoredRealtimeFeed(
                    source: row.text(0) ?? "", location: row.text(1) ?? "", fetched: Int(row.integer(2) ?? 0),
                    interval: Int(row.integer(3) ?? 30), maxAge: Int(row.integer(4) ?? 300),
                    bytes: row.withBlob(5) { [UInt8]($0) } ?? [])
            }
        } catch {
            throw DataError(.database, message: "reading the realtime feeds failed", underlying: error)
        }
    }
}

/// Keeps a GTFS-Realtime feed with a store (`openmaps import --realtime`).
public enum RealtimeImport {
    /// What an import did: the feed it was kept for, and what applying it to that feed's
    /// timetable does.
    public struct Report: Sendable {
        /// The GTFS feed's source name.
        public var source: String
        /// Where it was read from.
        public var location: String
        /// The message read.
        public var feed: RealtimeFeed
        /// What applying it does.
        public var applied: LiveTimetable.Report
    }

    /// Reads the feed at `location` (a file or a URL) and keeps it with the store for the GTFS
    /// feed `source` (nil: the imported feed whose trips, routes and stops it names most),
    /// replacing the message kept for the same feed and location.
    ///
    /// - Throws: ``DataError``: an unreadable or malformed feed (by field), a store without
    ///   timetables, a feed that names nothing of any; the store is left as it was.
    public static func importFeed(
        _ location: String, into storePath: String, source: String? = nil,
        interval: Int = StoredRealtimeFeed.defaultInterval, maxAge: Int = StoredRealtimeFeed.defaultMaxAge,
        now: Date = Date()
    ) throws -> Report {
        let bytes = try StoredRealtimeFeed.read(location)
        let feed = try RealtimeFeed(bytes: bytes, named: location)
        let timetables = try MapStore(path: storePath).timetables()
        guard !timetables.isEmpty else {
            throw DataError(
                .missingData,
                message: "the store has no GTFS timetable for a realtime feed to update (import a feed first)",
                path: storePath)
        }
        let chosen: (source: String, timetable: Timetable)
        if let source {
            guard let found = timetables.first(where: { $0.source == source }) else {
                throw DataError(
                    .missingData,
                    message:
                        "the store has no GTFS feed '\(source)' (it has: \(timetables.map(\.source).joined(separator: ", ")))",
                    path: storePath)
            }
            chosen = found
        } else {
            let scored = timetables.map { ($0, matches(feed, $0.timetable)) }
            guard let best = scored.max(by: { $0.1 < $1.1 }), best.1 > 0 else {
                throw DataError(
                    .invalidData,
                    message:
                        "the realtime feed names no trip, route or stop of the store's GTFS feeds (\(timetables.map(\.source).joined(separator: ", "))); say which with --feed",
                    path: location)
            }
            chosen = best.0
        }
        let applied = LiveTimetable(timetable: chosen.timetable, feed: feed).report
        let stored = StoredRealtimeFeed(
            source: chosen.source, location: location, fetched: Int(now.timeIntervalSince1970), interval: interval,
            maxAge: maxAge, bytes: bytes)
        try StoreUpdate.apply(to: storePath) { database in
            try database.execute(StoreSchema.realtimeTable(database.engine))
            try database.run(
                "DELETE FROM transit_realtime WHERE source = ? AND location = ?",
                [.text(stored.source), .text(stored.location)])
            try database.run(
                "INSERT INTO transit_realtime (source, location, fetched, interval_seconds, max_age, data) "
                    + "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    .text(stored.source), .text(stored.location), .integer(Int64(stored.fetched)),
                    .integer(Int64(interval)), .integer(Int64(maxAge)), .blob(stored.bytes),
                ])
        }
        return Report(source: chosen.source, location: location, feed: feed, applied: applied)
    }

    /// How many of the feed's trip, route and stop ids `timetable` has.
    static func matches(_ feed: RealtimeFeed, _ timetable: Timetable) -> Int {
        let trips = Set(timetable.trips.map { $0.id.split(separator: "@").first.map(String.init) ?? $0.id })
        let routes = Set(timetable.routes.map(\.id))
        let stops = Set(timetable.stops.map(\.id))
        var count = 0
        for update in feed.tripUpdates {
            if let id = update.trip.tripID, trips.contains(id) { count += 1 }
            if let id = update.trip.routeID, routes.contains(id) { count += 1 }
            count += update.stopTimeUpdates.filter { $0.stopID.map(stops.contains) ?? false }.count
        }
        for alert in feed.alerts {
            count +=
                alert.informed.filter { selector in
                    selector.routeID.map(routes.contains) ?? false || selector.stopID.map(stops.contains) ?? false
                        || selector.trip?.tripID.map(trips.contains) ?? false
                }.count
        }
        for vehicle in feed.vehicles {
            if let id = vehicle.trip?.tripID, trips.contains(id) { count += 1 }
        }
        return count
    }
}
