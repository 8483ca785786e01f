import Foundation
import GeoCore

/// OpenStreetMap's replication feeds, as planet.openstreetmap.org and Geofabrik publish them: a
/// folder holding `state.txt` (the newest sequence number and its time) and, for each sequence
/// `N`, `AAA/BBB/CCC.osc.gz` and `AAA/BBB/CCC.state.txt` (`N` in nine digits, three folders
/// deep: sequence 4,231,005 is `004/231/005`), minutely, hourly or daily alike.
public enum OSMReplication {
    /// One sequence of a feed: its number and the time of the data it brings up to.
    public struct State: Sendable, Equatable {
        /// The sequence number, from 0.
        public var sequence: Int64
        /// Seconds since 1970.
        public var timestamp: Int64

        /// Sequence `sequence` at `timestamp`.
        public init(sequence: Int64, timestamp: Int64) {
            self.sequence = sequence
            self.timestamp = timestamp
        }
    }

    /// Where a region stands: the feed it follows and the last sequence applied, when known,
    /// and the time of its data.
    public struct Position: Sendable, Equatable {
        /// The region's name.
        public var region: String
        /// The feed's URL, as the extract's header or the last update gave it.
        public var url: String?
        /// The last sequence in the data.
        public var sequence: Int64?
        /// The data's time (seconds since 1970): the sequence's, else the newest element's.
        public var timestamp: Int64?
    }

    /// The path of sequence `sequence`'s files under the feed, without the extension
    /// (`004/231/005`).
    public static func path(of sequence: Int64) -> String {
        let digits = String(format: "%09lld", sequence)
        let characters = Array(digits.suffix(9))
        return "\(String(characters[0..<3]))/\(String(characters[3..<6]))/\(String(characters[6..<9]))"
    }

    /// A state file's sequence and time (`sequenceNumber=4231005`,
    /// `timestamp=2026-12-04T12\:00\:00Z`: Java properties, colons escaped).
    ///
    /// - Throws: ``DataError`` (`.invalidData`) naming `source` and what is missing or wrong.
    public static func state(parsing text: String, from source: String) throws(DataError) -> State {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            values[key] = trimmed[trimmed.index(after: equals)...].replacingOccurrences(of: "\\", with: "")
                .trimmingCharacters(in: .whitespaces)
        }
        guard let text = values["sequenceNumber"], let sequence = Int64(text), sequence >= 0 else {
            throw DataError(
                .invalidData,
                message:
                    "the replication state has no sequence number (a line sequenceNumber=N): \(values["sequenceNumber"].map { "'\($0)'" } ?? "none")",
                path: source)
        }
        guard let time = values["timestamp"], let date = ISO8601DateFormatter().date(from: time) else {
            throw DataError(
                .invalidData,
                message:
                    "the replication state has no time (a line timestamp=YYYY-MM-DDTHH:MM:SSZ): \(values["timestamp"].map { "'\($0)'" } ?? "none")",
                path: source)
        }
        return State(sequence: sequence, timestamp: Int64(date.timeIntervalSince1970))
    }

    /// Where region `region` of the store at `storePath` stands (default: the store's only
    /// OpenStreetMap region).
    ///
    /// - Throws: ``DataError`` (`.missingData`) when there is no such region, or several and
    ///   none named, or the region keeps no elements for updates.
    public static func position(storePath: String, region: String?) throws -> Position {
        let store = try MapStore(path: storePath)
        let database = store.database
        let regions = try OSMElementStore.regions(in: database)
        let chosen: (id: Int64, name: String)
        if let region {
            chosen = try OSMElementStore.region(named: region, among: regions, path: store.path)
        } else {
            guard regions.count == 1 else {
                let names = regions.map { "'\($0.name)'" }.joined(separator: ", ")
                throw DataError(
                    .missingData,
                    message: regions.isEmpty
                        ? "the store holds no OpenStreetMap region to update"
                        : "the store holds several regions (\(names)): say which with --region", path: store.path)
            }
            chosen = regions[0]
        }
        guard try OSMElementStore.holdsElements(source: chosen.id, in: database) else {
            throw DataError(
                .missingData,
                message:
                    "region '\(chosen.name)' was imported before the store kept its elements for updates: import its extract again",
                path: store.path)
        }
        let row = try database.map(
            "SELECT replication, sequence, timestamp FROM osm_region WHERE source = ?", [.integer(chosen.id)]
        ) { ($0.text(0), $0.integer(1), $0.integer(2)) }.first
        return Position(region: chosen.name, url: row?.0, sequence: row?.1, timestamp: row?.2)
    }

    /// A feed read over HTTP(S), or from a folder (`file://` or a path).
    public struct Feed: Sendable {
        /// The feed's folder, ending with `/`.
        public let url: URL
        private let http: HTTPGet

        /// The feed at `location`.
        ///
        /// - Throws: ``DataError`` (`.download`) for a location that is no URL or folder.
        public init(_ location: String, timeout: TimeInterval = 60) throws(DataError) {
            let text = location.hasSuffix("/") ? location : location + "/"
            if let url = URL(string: text), ["http", "https", "file"].contains(url.scheme?.lowercased() ?? "") {
                self.url = url
            } else if !location.contains("://") {
                url = URL(fileURLWithPath: text, isDirectory: true)
            } else {
                throw DataError(
                    .download, message: "a replication feed is an http://, https:// or file:// URL, or a folder",
                    path: location)
            }
            http = HTTPGet(timeout: timeout)
        }

        /// The feed's URL as given to it, without the trailing `/`.
        public var name: String {
            var text = url.isFileURL ? url.path : url.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }

        /// The bytes at `path` under the feed; nil when there is none (404, or no such file).
        func read(_ path: String) throws(DataError) -> [UInt8]? {
            let target = url.appendingPathComponent(path)
            if target.isFileURL {
                guard let data = FileManager.default.contents(atPath: target.path) else { return nil }
                return [UInt8](data)
            }
            let answer: HTTPGet.Answer
            do { answer = try http.get(target) } catch {
                throw DataError(
                    .download, message: "cannot reach the replication feed: \(error)", path: target.absoluteString)
            }
            if answer.status == 404 || answer.status == 410 { return nil }
            guard answer.status == 200 else {
                throw DataError(
                    .download, message: "the replication feed answered HTTP \(answer.status)",
                    path: target.absoluteString)
            }
            return answer.body
        }

        /// The newest state (`state.txt`), or sequence `sequence`'s; nil when the feed has no
        /// such state.
        public func state(_ sequence: Int64? = nil) throws(DataError) -> State? {
            let path = sequence.map { OSMReplication.path(of: $0) + ".state.txt" } ?? "state.txt"
            guard let bytes = try read(path) else { return nil }
            return try OSMReplication.state(
                parsing: String(decoding: bytes, as: UTF8.self), from: url.appendingPathComponent(path).absoluteString)
        }

        /// Sequence `sequence`'s change file (gzip-compressed, as published).
        ///
        /// - Throws: ``DataError`` (`.download`) when the feed does not have it: a sequence is
        ///   never skipped.
        public func changes(_ sequence: Int64) throws(DataError) -> [UInt8] {
            let path = OSMReplication.path(of: sequence) + ".osc.gz"
            guard let bytes = try read(path) else {
                throw DataError(
                    .download,
                    message:
                        "the feed has no change file for sequence \(sequence): updates cannot skip a sequence (is the feed complete?)",
                    path: url.appendingPathComponent(path).absoluteString)
            }
            return bytes
        }

        /// The last sequence whose time is at or before `timestamp` (where data of that time
        /// stands), found by halving between sequence 0 and `newest`; missing states are
        /// passed over upwards. Nil when even the oldest state found is later.
        public func sequence(at timestamp: Int64, newest: State) throws(DataError) -> Int64? {
            guard newest.timestamp > timestamp else { return newest.sequence }
            var low: Int64 = 0
            var high = newest.sequence
            var found: Int64?
            while low <= high {
                let middle = low + (high - low) / 2
                guard let state = try state(middle) else {
                    low = middle + 1
                    continue
                }
                if state.timestamp <= timestamp {
                    found = middle
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            return found
        }
    }
}

extension OSMReplication {
    /// Consecutive sequences of a feed applied in one update: `first` to `state.sequence`,
    /// leaving the region at `state`.
    public struct Step: Sendable, Equatable {
        /// The feed's URL (``Feed/name``).
        public var feed: String
        /// The first sequence applied; the last is `state.sequence`.
        public var first: Int64
        /// The last sequence's state, where the region stands after the update.
        public var state: State

        /// Sequences `first` to `state.sequence` of `feed`.
        public init(feed: String, first: Int64, state: State) {
            self.feed = feed
            self.first = first
            self.state = state
        }

        /// The sequences as a person reads them: `sequence 101`, `sequences 101–104`.
        public var sequences: String {
            first == state.sequence ? "sequence \(first)" : "sequences \(first)–\(state.sequence)"
        }
    }

    /// How many bytes of change files (compressed, as the feed publishes them) a catch-up
    /// gathers into one update by default: 50 MB, as Nominatim's `REPLICATION_MAX_DIFF`.
    public static let defaultBatchBytes = 50 << 20

    /// Brings region `region` of the store at `storePath` up to `feed`'s newest sequence: the
    /// sequences after the region's applied in order, consecutive ones gathered into one
    /// update (``OSMUpdater/apply(_:to:region:replication:routing:)``) until their change files
    /// reach `batchBytes`, as osm2pgsql's and Nominatim's replication gather them, so that a
    /// region days behind is brought up with its routing graphs built once a batch, not once a
    /// minute. Each update is one transaction with the last sequence's state, so a kill between
    /// two leaves the region at the last batch applied and the next run goes on from there.
    ///
    /// The region's sequence is the last one applied from this feed, else the extract
    /// header's (for the same feed), else `start`, else the last sequence of the feed at or
    /// before the region's data time.
    ///
    /// - Parameters:
    ///   - batchBytes: the change files' size (compressed) at which a batch is closed; a batch
    ///     holds one sequence at least, so 1 applies each sequence on its own.
    ///   - routing: as for ``OSMUpdater/apply(_:to:region:replication:routing:)``, for each batch.
    ///   - applied: called after each batch's commit with its sequences and what it did (what
    ///     it throws stops the catch-up there, the batch kept).
    /// - Returns: the region's name, the sequence it stood at before, and the feed's newest
    /// state (where it stands now).
    /// - Throws: ``DataError`` when the feed cannot be read, misses a sequence, or the region's
    ///   place in it cannot be told; what the update throws (the batch it was on is not applied).
    @discardableResult
    public static func catchUp(
        _ feed: Feed, storePath: String, region: String? = nil, start: Int64? = nil,
        batchBytes: Int = defaultBatchBytes,
        routing: ((MapStore, RoadNetwork.GraphWriter) throws -> Void)? = nil,
        applied: (Step, OSMUpdater.Report) throws -> Void = { _, _ in }
    ) throws -> (region: String, from: Int64, newest: State) {
        let position = try OSMReplication.position(storePath: storePath, region: region)
        guard let newest = try feed.state() else {
            throw DataError(.download, message: "the feed has no state.txt", path: feed.name)
        }
        var current: Int64
        if let sequence = position.sequence, position.url == nil || position.url == feed.name {
            current = sequence
        } else if let start {
            current = start
        } else if let time = position.timestamp, let found = try feed.sequence(at: time, newest: newest) {
            current = found
        } else {
            throw DataError(
                .missingData,
                message:
                    "region '\(position.region)' does not say where its data stands in \(feed.name)\(position.url.map { " (it follows \($0))" } ?? ""): give the feed's last sequence in its data (update --sequence N)",
                path: storePath)
        }
        let from = current
        while current < newest.sequence {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "openmaps-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw DataError(.file, message: "cannot make a folder for the change files: \(error)", path: folder)
            }
            var files: [String] = []
            var bytes = 0
            var last = current
            repeat {
                last += 1
                let changes = try feed.changes(last)
                // Named after the sequence, so that a reading error says which one it was.
                let file = "\(folder)/sequence-\(last).osc.gz"
                guard FileManager.default.createFile(atPath: file, contents: Data(changes)) else {
                    throw DataError(.file, message: "cannot write the change file", path: file)
                }
                files.append(file)
                bytes += changes.count
            } while last < newest.sequence && bytes < batchBytes
            let step = Step(
                feed: feed.name, first: current + 1,
                state: try feed.state(last) ?? State(sequence: last, timestamp: newest.timestamp))
            let report = try OSMUpdater.apply(
                files, to: storePath, region: position.region, replication: step, routing: routing)
            current = last
            try applied(step, report)
        }
        return (position.region, from, newest)
    }
}
