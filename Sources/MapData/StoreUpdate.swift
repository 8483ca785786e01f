import Foundation
import GeoCore
import OSMReader
import PostgresKit
import SQLiteKit

/// The one way the store is changed, atomically on either engine.
///
/// - SQLite: in a temporary copy beside the store, inside a transaction, renamed into place
///   only after the commit. A failure leaves the previous store untouched and no temporary
///   file behind. Small changes to a large store (``applyInPlace(to:_:)``) are made in the
///   store's own file under SQLite's rollback journal instead.
/// - PostGIS: in one transaction (rows sent with `COPY`), committed at the end: readers see the
///   previous data until the commit, and a killed or failed update is rolled back by the
///   server. Updates of one database run one at a time (a transaction-level advisory lock).
enum StoreUpdate {
    /// Runs `body` on a connection to the store at `location` (a SQLite file's path or a
    /// `postgresql://` URL), creating the store when there is none, and makes its changes
    /// visible all at once.
    static func apply(to location: String, _ body: (StoreConnection) throws -> Void) throws {
        switch StoreEngine(location: location) {
        case .sqlite: try applySQLite(to: location, body)
        case .postgis: try applyPostGIS(to: location, body)
        }
    }

    /// ``apply(to:_:)`` for a change to a small part of an existing store (an OpenStreetMap
    /// change file): on SQLite, made in the store's own file inside a transaction under
    /// SQLite's rollback journal instead of in a copy of the whole file. As atomic: readers see
    /// the previous store until the commit, and a killed update leaves a journal that puts the
    /// previous store back when the store is next opened (``MapStore/init(path:)``). On
    /// PostGIS the same as ``apply(to:_:)``.
    static func applyInPlace(to location: String, _ body: (StoreConnection) throws -> Void) throws {
        guard StoreEngine(location: location) == .sqlite, FileManager.default.fileExists(atPath: location) else {
            return try apply(to: location, body)
        }
        let lock = try StoreLock(storePath: location)
        defer { lock.release() }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: location, mode: .readWrite)
            // The journal holds the pages changed, synced before the store is written; readers
            // are waited for (up to a minute) at the commit.
            try database.execute(
                "PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 60000")
        } catch {
            throw DataError(.database, message: "cannot open the store to update it", path: location, underlying: error)
        }
        let connection = SQLiteStoreConnection(database)
        try MapStore.checkVersion(try StoreSchema.version(connection), path: location)
        try database.transaction { try body(connection) }
    }

    /// The advisory lock key that serializes updates of one PostgreSQL store.
    private static let postgresLockKey: Int64 = 0x6F70_656E_6D61_7073

    private static func applyPostGIS(to location: String, _ body: (StoreConnection) throws -> Void) throws {
        let address = PostgresConnection.redacted(location)
        let connection: PostgresConnection
        do { connection = try PostgresConnection(location) } catch {
            throw DataError(.database, message: "cannot open the store", path: address, underlying: error)
        }
        let database = PostGISStoreConnection(connection)
        var changed: [String] = []
        do {
            try connection.transaction {
                try database.run("SELECT pg_advisory_xact_lock(?)", [.integer(postgresLockKey)])
                // The update is on disk before it is reported done, whatever the server's
                // default; and the vacuum after it can mark its rows visible to all (it cannot
                // while the commit is not flushed).
                try database.execute("SET LOCAL synchronous_commit = on")
                let creating = try StoreSchema.isEmpty(database)
                if creating {
                    try StoreSchema.create(on: database, deferIndexes: true)
                    // The tables are this transaction's own: rows go in frozen and all-visible,
                    // so the first reads do not rewrite every page to mark them.
                    database.freezesRows = true
                } else {
                    try MapStore.checkVersion(try StoreSchema.version(database), path: address)
                }
                do {
                    try body(database)
                    try database.flush()
                } catch {
                    // The rollback must not meet a batch still being sent on the connection.
                    database.waitForSentRows()
                    throw error
                }
                if creating {
                    // The first import's rows are in: its indexes are built once, sorted.
                    try StoreSchema.createDeferredIndexes(on: database)
                    try database.execute("ANALYZE")
                } else if database.wroteRows {
                    // Rows added to an existing GIN index wait in its pending list, which every
                    // search reads through until a vacuum merges it (searches 5× slower after
                    // `data install`): merged now, before readers see the rows.
                    try database.run("SELECT gin_clean_pending_list('search_index_document'::regclass)")
                    changed = try tablesChangedPastAutoanalyze(database)
                    if !changed.isEmpty { try database.execute("ANALYZE " + changed.joined(separator: ", ")) }
                }
            }
        } catch let error as DataError {
            throw error
        } catch let error as PostgresError {
            throw DataError(
                .database, message: "the update failed and was rolled back", path: address, underlying: error)
        }
        if !changed.isEmpty {
            // Rows added to existing tables are marked visible to all by a vacuum (outside a
            // transaction; it visits only the pages not yet marked), else readers check each
            // row's transaction until autovacuum comes by (a search: 1.3 ms against 0.9). The
            // update is committed: a failure here leaves that to autovacuum.
            try? connection.execute("VACUUM " + changed.joined(separator: ", "))
        }
    }

    /// The tables analysed and vacuumed after a write to an existing PostGIS store.
    static let maintainedTables = ["source", "feature", "feature_box", "search_index", "search_word", "road_way"]

    /// Those of ``maintainedTables`` whose rows this transaction inserted, updated or deleted
    /// number more than a tenth of the rows they held (or any, in a table never analysed), as
    /// PostgreSQL's autoanalyze counts (`autovacuum_analyze_scale_factor` 0.1, threshold 50):
    /// a region imported into the store gets its statistics before readers plan on it, while a
    /// minutely change file touching a few hundred rows of millions is left to autovacuum,
    /// which comes by when enough such changes add up.
    static func tablesChangedPastAutoanalyze(_ database: PostGISStoreConnection) throws -> [String] {
        var changed: Set<String> = []
        let names = maintainedTables.map { "'\($0)'" }.joined(separator: ", ")
        try database.forEachRow(
            "SELECT s.relname::text, (s.n_tup_ins + s.n_tup_upd + s.n_tup_del)::int8, c.reltuples::float8 "
                + "FROM pg_stat_xact_user_tables s JOIN pg_class c ON c.oid = s.relid "
                + "WHERE s.schemaname = current_schema() AND s.relname IN (\(names))", []
        ) { row in
            guard let table = row.text(0), let written = row.integer(1), let rows = row.real(2) else { return }
            if written > 0 && (rows < 0 || Double(written) > 50 + 0.1 * rows) { changed.insert(table) }
        }
        return maintainedTables.filter(changed.contains)
    }

    /// Updates of one SQLite store run one at a time (an exclusive `flock` on `STORE.lock`,
    /// released by the kernel if the process dies); a temporary file left by a killed update is
    /// removed by the next one. The new store is synced to disk before `rename(2)` swaps it in,
    /// so the path always names a complete store.
    private static func applySQLite(to storePath: String, _ body: (StoreConnection) throws -> Void) throws {
        let parent = (storePath as NSString).deletingLastPathComponent
        if !parent.isEmpty {
            do { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) } catch {
                throw DataError(.file, message: "cannot create the store's folder", path: parent, underlying: error)
            }
        }
        let lock = try StoreLock(storePath: storePath)
        defer { lock.release() }
        let directory = (storePath as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        let prefix = "." + (storePath as NSString).lastPathComponent + "."
        for stale in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where stale.hasPrefix(prefix) && stale.hasSuffix(".importing.sqlite") {
            try? FileManager.default.removeItem(atPath: folder + "/" + stale)
        }
        let temporary = folder + "/" + prefix + UUID().uuidString + ".importing.sqlite"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        if FileManager.default.fileExists(atPath: storePath) {
            try FileManager.default.copyItem(atPath: storePath, toPath: temporary)
        }
        do {
            let database = try SQLiteDatabase(path: temporary)
            try database.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            let connection = SQLiteStoreConnection(database)
            if try StoreSchema.isEmpty(connection) {
                try StoreSchema.create(on: connection)
            }
            try database.transaction { try body(connection) }
        }
        guard let handle = FileHandle(forUpdatingAtPath: temporary) else {
            throw DataError(.file, message: "cannot reopen the new store to sync it", path: temporary)
        }
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, storePath) == 0 else {
            throw DataError(
                .file, message: "cannot move the new store into place: \(String(cString: strerror(errno)))",
                path: storePath)
        }
    }

    /// Deletes a source's old rows (features, boxes, names, rasters) and inserts it afresh.
    ///
    /// - Returns: the source's id.
    static func replaceSource(
        named name: String, kind: SourceKind, attribution: String, licence: String, path: String?,
        bounds: CoordinateBounds, fingerprint: String? = nil, in database: StoreConnection
    ) throws -> Int64 {
        if database.engine == .sqlite { try database.execute(StoreSchema.timetableSQLite) }
        for table in StoreSchema.pyramidTables(database.engine) + StoreSchema.pieceTables(database.engine)
            + OSMElementStore.tables(database.engine)
        {
            try database.execute(table)
        }
        try database.run("DELETE FROM transit_timetable WHERE source = ?", [.text(name)])
        if let old = try database.map("SELECT id FROM source WHERE name = ?", [.text(name)], { $0.integer(0) }).first
            ?? nil
        {
            // The source's features are its block of ids (``FeatureWriter/next``), found by the
            // primary keys.
            let ids = FeatureWriter.idBlock(of: old)
            let block: [StoreValue] = [.integer(ids.lowerBound), .integer(ids.upperBound)]
            for sql in [
                "DELETE FROM feature_box WHERE id IN (SELECT id FROM feature WHERE id BETWEEN ? AND ?)",
                "DELETE FROM search_index WHERE rowid IN (SELECT id FROM feature WHERE id BETWEEN ? AND ?)",
                "DELETE FROM feature WHERE id BETWEEN ? AND ?",
                "DELETE FROM feature_piece_box WHERE id BETWEEN ? AND ?",
                "DELETE FROM feature_piece WHERE id BETWEEN ? AND ?",
            ] {
                try database.run(sql, block)
            }
            let words = database.engine == .postgis ? ["DELETE FROM search_word WHERE source = ?"] : []
            let tiles = ["DELETE FROM elevation_tile WHERE source = ?", "DELETE FROM imagery_tile WHERE source = ?"]
            for sql in ["DELETE FROM raster WHERE source = ?"] + tiles + words
                + RoadNetwork.deletions + OSMElementStore.deletions + [
                    "DELETE FROM source WHERE id = ?"
                ]
            {
                try database.run(sql, [.integer(old)])
            }
        }
        let next = try database.map("SELECT coalesce(max(id), 0) + 1 FROM source") { $0.integer(0) }.first
        let sourceID = (next ?? nil) ?? 1
        try database.run(
            "INSERT INTO source (id, name, kind, attribution, licence, path, min_lat, min_lon, max_lat, max_lon, "
                + "fingerprint) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            [
                .integer(sourceID), .text(name), .text(kind.rawValue), .text(attribution), .text(licence),
                path.map { .text($0) } ?? .null, .real(bounds.southWest?.latitude ?? -90),
                .real(bounds.southWest?.longitude ?? -180), .real(bounds.northEast?.latitude ?? 90),
                .real(bounds.northEast?.longitude ?? 180), fingerprint.map { .text($0) } ?? .null,
            ])
        return sourceID
    }
}

/// Writes features, their boxes and their index entries (with the `tsvector` and the source's
/// words on PostGIS), numbering them in the order written.
struct FeatureWriter {
    let insertFeature: RowInserter
    let insertBox: RowInserter
    /// Pieces of large areas (``AreaPieces``) and their boxes.
    let insertPiece: RowInserter
    let insertPieceBox: RowInserter
    let insertName: RowInserter
    /// PostGIS: the source's distinct index words (`search_word`), each written once.
    let insertWord: RowInserter?
    private var writtenWords: Set<IndexWord> = []
    let engine: StoreEngine
    let source: Int64
    /// The next feature id: the source's block of 2^40 (``MapStore/sourceID(ofFeature:)``),
    /// numbered in input order, so the same input gives the same ids.
    var next: Int64
    /// The next piece id, in the same block (pieces have a table of their own): after the
    /// block's last piece.
    var nextPiece: Int64
    /// PostGIS: writes the source's words with its features (false when the writer adds to a
    /// source whose words are gathered again afterwards, as an update does).
    let writesWords: Bool

    /// The ids of source `source`'s features: its block of 2^40.
    static func idBlock(of source: Int64) -> ClosedRange<Int64> { (source << 40)...((source + 1) << 40 - 1) }

    init(database: StoreConnection, source: Int64, writesWords: Bool = true) throws {
        self.writesWords = writesWords
        insertFeature = try database.inserter(
            table: "feature",
            columns: [
                "id", "source", "osm_type", "osm_id", "class", "kind", "name", "geometry_type", "geometry", "layer",
                "level", "height", "levels", "bridge", "tunnel", "oneway", "ref", "detail", "population", "colour",
                "tags",
            ])
        insertBox = try database.inserter(
            table: "feature_box", columns: ["id", "min_lon", "max_lon", "min_lat", "max_lat"])
        for table in StoreSchema.pieceTables(database.engine) { try database.execute(table) }
        insertPiece = try database.inserter(table: "feature_piece", columns: ["id", "feature", "geometry"])
        insertPieceBox = try database.inserter(
            table: "feature_piece_box", columns: ["id", "min_lon", "max_lon", "min_lat", "max_lat"])
        engine = database.engine
        insertName = try database.inserter(
            table: "search_index",
            columns: ["rowid", "names", "categories", "address"] + (engine == .postgis ? ["document"] : []))
        insertWord =
            engine == .postgis ? try database.inserter(table: "search_word", columns: ["source", "word"]) : nil
        self.source = source
        let block = Self.idBlock(of: source)
        next = block.lowerBound
        let lastPiece =
            try database.map(
                "SELECT max(id) FROM feature_piece WHERE id BETWEEN ? AND ?",
                [.integer(block.lowerBound), .integer(block.upperBound)]
            ) { $0.integer(0) }.first ?? nil
        nextPiece = lastPiece.map { $0 + 1 } ?? block.lowerBound
    }

    /// Writes one feature; tags supply the name, layer, level, heights and road flags, and
    /// (with `names`, default every name the tags hold) the index entry.
    mutating func write(
        type: OSMElementType?, id: Int64?, kind: FeatureKind, tags: [(key: String, value: String)],
        geometry: Geometry, names: [String]? = nil, detail: DetailLevel? = nil, population: Int64? = nil
    ) throws {
        func value(_ key: String) -> String? { tags.first { $0.key == key }?.value }
        func text(_ text: String?) -> StoreValue { text.map { .text($0) } ?? .null }
        func integer(_ number: Int64?) -> StoreValue { number.map { .integer($0) } ?? .null }
        func number(_ key: String) -> StoreValue {
            guard let text = value(key)?.split(separator: " ").first, let number = Double(text), number.isFinite else {
                return .null
            }
            return .real(number)
        }
        func flag(_ key: String) -> StoreValue {
            guard let text = value(key) else { return .null }
            return .integer(["yes", "true", "1", "-1"].contains(text) ? 1 : 0)
        }
        let featureID = next
        next += 1
        try insertFeature.insert([
            .integer(featureID), .integer(source), text(type?.code), integer(id), .text(kind.featureClass.rawValue),
            .text(kind.kind), text(value("name")), .integer(geometry.typeCode), .blob(geometry.encoded),
            integer(value("layer").flatMap { Int64($0) }), text(value("level")), number("height"),
            number("building:levels"), flag("bridge"), flag("tunnel"), flag("oneway"), text(value("ref")),
            text(detail?.rawValue), integer(population), text(value("colour").flatMap(FeatureColour.normalized)),
            text(SearchVocabulary.json(SearchVocabulary.keptTags(tags))),
        ])
        try insert(box: geometry.boundingBox, id: featureID, into: insertBox)
        if case .polygon(let rings) = geometry, AreaPieces.classes.contains(kind.featureClass) {
            for piece in AreaPieces.pieces(of: rings) {
                let pieceGeometry = Geometry.polygon(piece)
                try insertPiece.insert([.integer(nextPiece), .integer(featureID), .blob(pieceGeometry.encoded)])
                try insert(box: pieceGeometry.boundingBox, id: nextPiece, into: insertPieceBox)
                nextPiece += 1
            }
        }
        let allNames = names ?? FeatureClassifier.names(tags)
        let address = SearchVocabulary.addressLine(tags)
        guard !allNames.isEmpty || !address.isEmpty else { return }
        let categories = SearchVocabulary.categoryWords(kind: kind.kind, tags: tags)
        var entry: [StoreValue] = [
            .integer(featureID), .text(allNames.joined(separator: " \u{1F} ")),
            .text(categories.joined(separator: " \u{1F} ")), .text(address),
        ]
        guard let insertWord else { return try insertName.insert(entry) }
        let document = SearchVocabulary.tsvector(names: allNames, address: address, categories: categories)
        entry.append(.blob(document.binary))
        try insertName.insert(entry)
        guard writesWords else { return }
        for word in document.lexemes where writtenWords.insert(IndexWord(word)).inserted {
            try insertWord.insert([.integer(source), .text(word)])
        }
    }
}

extension FeatureWriter {
    /// Writes a feature's or a piece's box.
    private func insert(
        box: (minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double), id: Int64,
        into inserter: RowInserter
    ) throws {
        try inserter.insert([
            .integer(id), .real(box.minLongitude), .real(box.maxLongitude), .real(box.minLatitude),
            .real(box.maxLatitude),
        ])
    }
}

/// A word of the index, told apart from others by its UTF-8 bytes (as PostgreSQL tells
/// lexemes apart), hashed without Unicode normalization.
private struct IndexWord: Hashable {
    let word: String

    init(_ word: String) { self.word = word }

    static func == (left: IndexWord, right: IndexWord) -> Bool { left.word.utf8.elementsEqual(right.word.utf8) }

    func hash(into hasher: inout Hasher) {
        var word = word
        word.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// An exclusive advisory lock on `STORE.lock`, held for one update.
private struct StoreLock {
    private let descriptor: Int32

    /// Waits until no other process or thread holds the store's lock.
    init(storePath: String) throws {
        let path = storePath + ".lock"
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw DataError(
                .file, message: "cannot open the lock file: \(String(cString: strerror(errno)))", path: path)
        }
        guard flock(descriptor, LOCK_EX) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw DataError(.file, message: "cannot lock the store: \(reason)", path: path)
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
