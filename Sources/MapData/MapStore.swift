import Foundation
import GeoCore
import OSMReader
import PostgresKit
import SQLiteKit

/// The store: every imported region's features, with a spatial index over their bounding
/// boxes and a full-text index over their names, in one SQLite file (the default: an R*Tree
/// and FTS5) or in a PostgreSQL database with PostGIS (GiST and a GIN `tsvector` index;
/// several servers share it). The location says which (``StoreEngine``); both hold the same
/// tables with the same meaning (``StoreSchema``) and answer every query here alike.
///
/// Schema version 4:
/// - `source(id, name, kind, attribution, licence, path, min_lat, min_lon, max_lat, max_lon,
///   fingerprint)`: one row per imported region or data set, replaced as a whole on re-import;
///   `fingerprint` identifies the file it was imported from (``FileFingerprint``);
/// - `feature(id, source, osm_type, osm_id, class, kind, name, geometry_type, geometry,
///   layer, level, height, levels, bridge, tunnel, oneway, ref, detail, population, colour, tags)`:
///   `geometry` is ``Geometry/encoded`` (1e-7-degree integers; polygon rings fill with the
///   even-odd rule); `colour` is a line's own colour as `#rrggbb` (OSM `colour`, GTFS
///   `route_color`); `tags` the tags a user expects to see, as a JSON object
///   (``SearchVocabulary/keptTags(_:)``: names in every language, address, contact, opening
///   hours, Wikidata and Wikipedia, cuisine, operator, brand, admin level, country code);
/// - `feature_box`: R*Tree `(id, min_lon, max_lon, min_lat, max_lat)`;
/// - `search_index`: FTS5, rowid = feature id, over `names` (every name of a feature: name,
///   name:xx, alternative names), `categories` (its category's words in every language,
///   ``SearchVocabulary``) and `address` (``SearchVocabulary/addressLine(_:)``); diacritics
///   folded, Devanagari signs kept inside words, prefixes of 2 and 3 characters indexed;
/// - indexes on `feature(source)`, `feature(osm_type, osm_id)` and `feature(class, kind)` (every
///   place at once for the search; queries by box write `+class` so that the spatial index
///   leads, not this one);
/// - the road network for routing: `road_way`, `road_node`, `road_restriction` (``RoadNetwork``);
/// - `raster(name, source, path, width, height, bounds)`: world images kept as files beside
///   the store (imagery, shaded relief), in plate carrée over their bounds.
///
/// `class` is a ``FeatureClass``, `source.kind` a ``SourceKind``, `raster.name` a
/// ``RasterName``, `osm_type` an ``OSMElementType`` code (`n`, `w`, `r`), `detail` a world
/// layer's ``DetailLevel`` (`c` crude … `f` full); `population` comes with gazetteer places.
/// Every query runs through a statement compiled once per connection.
public final class MapStore {
    /// The schema this build reads and writes; a store of another version is refused with ``DataError/Kind/schema``.
    public static let schemaVersion = 4

    let database: StoreConnection
    /// How many statements the store has run on its connection (on PostGIS, each a round trip).
    var statementCount: Int { database.statementCount }
    /// Whether the store has the tables of pieces, once ``hasPieces()`` has looked.
    private var piecesKnown: Bool?
    /// Where the store is: a SQLite file's path, or a `postgresql://` URL (its password left out).
    public let path: String

    /// The store's engine.
    public var engine: StoreEngine { database.engine }

    /// Opens an existing store for reading: a SQLite file at `path`, or the PostgreSQL database
    /// a `postgresql://user@host:port/db` URL names.
    ///
    /// - Throws: ``DataError`` of kind `.noStore` when nothing is at `path` (or the database has
    ///   no store), `.schema` when it is a store of another schema version, `.database` when the
    ///   engine cannot read it.
    public init(path: String) throws(DataError) {
        switch StoreEngine(location: path) {
        case .sqlite:
            self.path = path
            database = try Self.openSQLite(path)
        case .postgis:
            self.path = PostgresConnection.redacted(path)
            database = try Self.openPostGIS(path)
        }
    }

    /// The store on a connection an update holds (``StoreUpdate``): reads see its changes
    /// before they are committed.
    init(database: StoreConnection, path: String) {
        self.database = database
        self.path = StoreEngine(location: path) == .postgis ? PostgresConnection.redacted(path) : path
    }

    private static func openSQLite(_ path: String) throws(DataError) -> StoreConnection {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DataError(
                .noStore, message: "no store here (build one with 'openmaps data install' or 'openmaps import')",
                path: path)
        }
        rollBackKilledUpdate(of: path)
        let version: Int64?
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path, mode: .readOnly)
            version = try database.prepare("PRAGMA user_version").map { $0.integer(0) }.first ?? nil
            // Pages read in place from the file's mapping (up to 1 GiB of it) rather than copied
            // into the connection's cache: a picture reads thousands of rows.
            try database.execute("PRAGMA mmap_size = 1073741824")
        } catch {
            if FileManager.default.fileExists(atPath: path + "-journal") {
                throw DataError(
                    .database,
                    message:
                        "an update of the store was stopped before it finished and its journal could not be rolled back: run any openmaps command on the store with the right to write to its folder, which puts the previous store back",
                    path: path, underlying: error)
            }
            throw DataError(.database, message: "cannot open the store", path: path, underlying: error)
        }
        try checkVersion(version, path: path)
        return SQLiteStoreConnection(database)
    }

    /// Puts the previous store back where an update made in place (``StoreUpdate``'s
    /// `applyInPlace`) was killed before its commit: its journal is left beside the store, and
    /// a read-only connection cannot roll it back. A journal of an update still running is
    /// left alone (SQLite tells the two apart by its locks). Without the right to write here,
    /// nothing is done and the read-only open says what is wrong.
    private static func rollBackKilledUpdate(of path: String) {
        guard FileManager.default.fileExists(atPath: path + "-journal"),
            let database = try? SQLiteDatabase(path: path, mode: .readWrite)
        else { return }
        // The first read of a store with a hot journal rolls it back.
        _ = try? database.execute("PRAGMA busy_timeout = 60000; SELECT count(*) FROM sqlite_master")
    }

    private static func openPostGIS(_ location: String) throws(DataError) -> StoreConnection {
        let address = PostgresConnection.redacted(location)
        let connection: PostgresConnection
        do { connection = try PostgresConnection(location) } catch {
            throw DataError(.database, message: "cannot open the store", path: address, underlying: error)
        }
        let version: Int64?
        do {
            version = try connection.query("SELECT version FROM openmaps_schema").map { $0.integer(0) }.first ?? nil
        } catch let error where error.isUndefinedObject {
            throw DataError(
                .noStore,
                message:
                    "this database holds no store (build one with 'openmaps data install --store URL' or 'openmaps import --store URL')",
                path: address)
        } catch {
            throw DataError(.database, message: "cannot read the store's schema", path: address, underlying: error)
        }
        try checkVersion(version, path: address)
        do {
            // The store's reads are index lookups on tables the cache mostly holds: with the
            // default cost of a random page (4, for spinning disks) the planner scans the whole
            // search index rather than its GIN index for a rare word (13 ms against 0.5 ms).
            try connection.execute("SET random_page_cost = 1.1")
        } catch {
            throw DataError(.database, message: "cannot set up the connection", path: address, underlying: error)
        }
        return PostGISStoreConnection(connection)
    }

    /// Refuses a store of another schema version, saying how to build it again.
    static func checkVersion(_ version: Int64?, path: String) throws(DataError) {
        guard version == Int64(Self.schemaVersion) else {
            throw DataError(
                .schema,
                message:
                    "the store has schema \(version.map(String.init) ?? "none"), not \(Self.schemaVersion): move it aside and build it again with this version of openmaps ('openmaps data install', then your imports)",
                path: path)
        }
    }

    /// `location` as it may be shown: a URL's password left out.
    public static func displayName(of location: String) -> String {
        StoreEngine(location: location) == .postgis ? PostgresConnection.redacted(location) : location
    }

    /// What identifies the data the store holds, for caches of what is drawn from it: a new
    /// import changes it. SQLite: the file's size and modification time; PostGIS: a hash of
    /// every source's id, name and fingerprint.
    public func dataVersion() throws(DataError) -> String {
        switch engine {
        case .sqlite:
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
            let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return String(format: "%llx-%llx", size, UInt64(date * 1000))
        case .postgis:
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for source in try sources(counting: false) {
                for byte in "\(source.id)\u{1F}\(source.name)\u{1F}\(source.fingerprint ?? "")\u{1E}".utf8 {
                    hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
                }
            }
            return String(format: "pg-%016llx", hash)
        }
    }

    /// True when a store is at `location`: a file exists there, or the database holds the
    /// store's tables. A database that cannot be reached is an error, not an empty store.
    public static func exists(at location: String) throws(DataError) -> Bool {
        do {
            _ = try MapStore(path: location)
            return true
        } catch  where error.kind == .noStore {
            return false
        }
    }

    /// Runs a query on the store's connection, with errors naming the store.
    func query<T>(_ doing: String, _ body: () throws -> T) throws(DataError) -> T {
        do {
            return try body()
        } catch let error as DataError {
            throw error
        } catch {
            throw DataError(.database, message: doing, path: path, underlying: error)
        }
    }

    /// One imported region or data set.
    public struct Source: Sendable, Equatable {
        /// Its row id; the ids of its features are its block (``sourceID(ofFeature:)``).
        public var id: Int64
        /// The source's name (a region's, a feed's).
        public var name: String
        /// What kind of data: world layers, gazetteer, OSM region, GTFS feed.
        public var kind: SourceKind
        /// The credit shown with everything drawn or found from it.
        public var attribution: String
        /// Its licence.
        public var licence: String
        /// The extent of its features.
        public var bounds: CoordinateBounds
        /// Features per class; empty when read with `sources(counting: false)`.
        public var counts: [FeatureClass: Int]
        /// What identifies the file it was imported from (``FileFingerprint``), when known.
        public var fingerprint: String? = nil
        /// The file it was imported from, as given to the import.
        public var path: String? = nil
    }

    /// Every source, by name, with its feature counts when `counting` (a scan of every
    /// feature: leave it off where only names, kinds and bounds matter, as when rendering).
    public func sources(counting: Bool = true) throws(DataError) -> [Source] {
        try query("reading the data sets") {
            var counts: [Int64: [FeatureClass: Int]] = [:]
            if counting {
                try database.forEachRow("SELECT source, class, count(*) FROM feature GROUP BY source, class", []) {
                    row in
                    guard let source = row.integer(0), let count = row.integer(2) else { return }
                    counts[source, default: [:]][try Self.featureClass(row.text(1))] = Int(count)
                }
            }
            return try database.map(
                "SELECT id, name, kind, attribution, licence, min_lat, min_lon, max_lat, max_lon, fingerprint, path FROM source "
                    + "ORDER BY name"
            ) { row in
                guard let id = row.integer(0), let name = row.text(1), let kindText = row.text(2),
                    let kind = SourceKind(rawValue: kindText)
                else { throw DataError(.invalidData, message: "a data set has no name or an unknown kind") }
                let bounds: CoordinateBounds
                if let south = row.real(5), let west = row.real(6), let north = row.real(7), let east = row.real(8) {
                    bounds = CoordinateBounds(
                        southWest: Coordinate(latitude: south, longitude: west),
                        northEast: Coordinate(latitude: north, longitude: east))
                } else {
                    bounds = CoordinateBounds()
                }
                return Source(
                    id: id, name: name, kind: kind, attribution: row.text(3) ?? "", licence: row.text(4) ?? "",
                    bounds: bounds, counts: counts[id] ?? [:], fingerprint: row.text(9), path: row.text(10))
            }
        }
    }

    /// A stored feature.
    public struct Feature: Sendable, Equatable {
        /// The feature's id in the store (its source's block, ``sourceID(ofFeature:)``).
        public var id: Int64
        /// The kind of OpenStreetMap element it comes from, for features from OpenStreetMap.
        public var osmType: OSMElementType?
        /// The OpenStreetMap element's id, with ``osmType``.
        public var osmID: Int64?
        /// What the feature is, broadly (road, building, water, poi, …).
        public var featureClass: FeatureClass
        /// What it is within its class (`primary`, `cafe`, `station`).
        public var kind: String
        /// Its local name, when it has one.
        public var name: String?
        /// Its point, line or area, in degrees.
        public var geometry: Geometry
        /// A building's storeys above ground (`building:levels`), when tagged.
        public var levels: Double?
        /// A building's height in metres (`height`), when tagged.
        public var height: Double?
        /// The indoor level it is on (`level`, `0`, `1`, `-1;0`), when tagged.
        public var level: String?
        /// A place's population, when known.
        public var population: Int64?
        /// For a world-layer feature, the resolution it belongs to; nil for every other.
        public var detail: DetailLevel?
        /// OSM `layer`, -5...5; 0 when untagged.
        public var layer: Int = 0
        /// True on a bridge (`bridge=yes`).
        public var isBridge = false
        /// True in a tunnel (`tunnel=yes`).
        public var isTunnel = false
        /// The line's own colour (a transit line's), when the data gives one.
        public var colour: Color? = nil
    }

    /// The columns a ``Feature`` is read from, in the order ``feature(from:)`` reads them.
    static let featureColumns = featureColumns(nameColumn: "name")

    /// ``featureColumns`` with each feature's name in `language` where its tags have one
    /// (`name:es`), else its name as the data writes it locally.
    /// `geometry`: the column the geometry is read from (a piece's, ``AreaPieces``).
    func featureColumns(names language: Language?, geometry: String = "geometry") -> String {
        Self.featureColumns(
            nameColumn: language.map { language in
                switch engine {
                case .sqlite: "coalesce(json_extract(tags, '$.\"name:\(language.rawValue)\"'), name)"
                case .postgis: "coalesce(tags::jsonb ->> 'name:\(language.rawValue)', name)"
                }
            } ?? "name", geometry: geometry)
    }

    /// The class column in a query led by the spatial index: `+class` on SQLite, so that its
    /// planner does not take the class index instead.
    var classColumn: String { engine == .sqlite ? "+class" : "class" }

    private static func featureColumns(nameColumn name: String, geometry: String = "geometry") -> String {
        "feature.id, osm_type, osm_id, class, kind, \(name), geometry_type, \(geometry), levels, height, level, "
            + "population, detail, layer, bridge, tunnel, colour"
    }

    /// The feature in a row of ``featureColumns``.
    static func feature(from row: StoreRow) throws -> Feature {
        guard let id = row.integer(0), let typeCode = row.integer(6),
            let geometry = row.withBlob(7, { Geometry(typeCode: typeCode, bytes: $0) }) ?? nil
        else { throw DataError(.invalidData, message: "feature \(row.integer(0).map(String.init) ?? "?") is damaged") }
        return Feature(
            id: id, osmType: row.text(1).flatMap(OSMElementType.init(code:)), osmID: row.integer(2),
            featureClass: try featureClass(row.text(3)), kind: row.text(4) ?? "", name: row.text(5),
            geometry: geometry, levels: row.real(8), height: row.real(9), level: row.text(10),
            population: row.integer(11), detail: row.text(12).flatMap(DetailLevel.init(rawValue:)),
            layer: Int(row.integer(13) ?? 0), isBridge: (row.integer(14) ?? 0) != 0,
            isTunnel: (row.integer(15) ?? 0) != 0, colour: row.text(16).flatMap(FeatureColour.color(stored:)))
    }

    private static func featureClass(_ text: String?) throws -> FeatureClass {
        guard let text, let featureClass = FeatureClass(rawValue: text) else {
            throw DataError(.invalidData, message: "unknown feature class '\(text ?? "")'")
        }
        return featureClass
    }

    private func features(_ doing: String, _ sql: String, _ values: [StoreValue]) throws(DataError) -> [Feature] {
        try query(doing) { try database.map(sql, values, Self.feature(from:)) }
    }

    /// The source a feature belongs to: features are numbered in blocks of 2^40 per source.
    public static func sourceID(ofFeature id: Int64) -> Int64 { id >> 40 }

    /// Every name the index holds for a feature (its name, its names in other languages, its
    /// alternative names, a country's codes), in the order imported.
    public func names(ofFeature id: Int64) throws(DataError) -> [String] {
        try query("reading a feature's names") {
            try database.map("SELECT names FROM search_index WHERE rowid = ?", [.integer(id)]) { row in
                row.text(0)
            }.flatMap(Self.split)
        }
    }

    /// Features whose names (or category words, or address) hold every word of `text` (plain
    /// text: punctuation and operators are searched for, never interpreted), best match first.
    public func features(named text: String, limit: Int = 20) throws(DataError) -> [Feature] {
        try indexed(matching: IndexQuery(allWordsOf: text), limit: limit).map(\.feature)
    }

    /// True when world land of this level of detail (``DetailLevel/full`` comes with `data
    /// install --hires`) meets `bounds`. Asks the spatial index only: no geometry is read.
    public func hasWorldDetail(_ detail: DetailLevel, in bounds: CoordinateBounds = .world) throws(DataError) -> Bool {
        for part in bounds.antimeridianHalves {
            let (condition, values) = boxCondition(part)
            let sql =
                "SELECT 1 FROM feature_box JOIN feature ON feature.id = feature_box.id WHERE \(condition) "
                + "AND \(classColumn) = 'land' AND detail = ? LIMIT 1"
            let found = try query("looking for the world's detail") {
                try !database.map(sql, values + [.text(detail.rawValue)]) { _ in true }.isEmpty
            }
            if found { return true }
        }
        return false
    }

    /// The sources that have features of these classes (and, when given, these kinds) in
    /// `bounds`, by ``Source/id``. Asks the spatial index, the class and the kind only: no
    /// geometry is read.
    public func sources(
        withFeaturesIn bounds: CoordinateBounds, classes: [FeatureClass], kinds: [String]? = nil
    ) throws(DataError) -> Set<Int64> {
        guard !classes.isEmpty else { return [] }
        var found: Set<Int64> = []
        let kindList = kinds.map { " AND kind IN (\(Self.placeholders($0.count)))" } ?? ""
        let filter = classes.map { StoreValue.text($0.rawValue) } + (kinds ?? []).map { .text($0) }
        try forEachRow(meeting: bounds, "looking for the sources in view", values: filter) { condition in
            "SELECT DISTINCT feature.source FROM feature_box JOIN feature ON feature.id = feature_box.id "
                + "WHERE \(condition) AND \(classColumn) IN (\(Self.placeholders(classes.count)))\(kindList)"
        } _: { row in
            if let id = row.integer(0) { found.insert(id) }
        }
        return found
    }

    /// The spatial index's test for boxes meeting `bounds` (which must not cross the
    /// antimeridian), with its values: the R*Tree's columns on SQLite, the GiST-indexed box on
    /// PostGIS.
    func boxCondition(_ bounds: CoordinateBounds, table: String = "feature_box") -> (sql: String, values: [StoreValue])
    {
        guard let southWest = bounds.southWest, let northEast = bounds.northEast else { return ("1 = 0", []) }
        switch engine {
        case .sqlite:
            return (
                "\(table).min_lon <= ? AND \(table).max_lon >= ? AND \(table).min_lat <= ? AND \(table).max_lat >= ?",
                [
                    .real(northEast.longitude), .real(southWest.longitude), .real(northEast.latitude),
                    .real(southWest.latitude),
                ]
            )
        case .postgis:
            return (
                "\(table).box && ST_MakeEnvelope(?::float8, ?::float8, ?::float8, ?::float8, 4326)",
                [
                    .real(southWest.longitude), .real(southWest.latitude), .real(northEast.longitude),
                    .real(northEast.latitude),
                ]
            )
        }
    }

    /// Runs a query on the features whose boxes meet `bounds`, once each side of the
    /// antimeridian: `sql` makes the statement from the spatial index's test
    /// (``boxCondition(_:)``), whose values come first, then `values`; `body` gets each row.
    func forEachRow(
        meeting bounds: CoordinateBounds, _ doing: String, values: [StoreValue] = [],
        sql: (_ condition: String) -> String, _ body: (StoreRow) throws -> Void
    ) throws(DataError) {
        for part in bounds.antimeridianHalves {
            let (condition, boxValues) = boxCondition(part)
            try query(doing) { try database.forEachRow(sql(condition), boxValues + values, body) }
        }
    }

    /// `count` SQL parameters, comma-separated: the inside of an `IN (…)` list.
    static func placeholders(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ",") }

    /// Features whose bounding box meets `bounds`, optionally of some classes, at most
    /// `limit`, by id. `details`: nil for every level of detail, `[]` for features without one
    /// (street data and places), or the levels wanted (`[.intermediate, .full]`). `names`: the
    /// language of the names read, where the data has them (`name:xx`); nil for local names.
    ///
    /// `pieces`: large areas as their pieces meeting `bounds` (``AreaPieces``), each piece a
    /// feature of the area's id with the piece's rings, an area's pieces one after another
    /// (to be drawn in one path): what a picture reads. Not with `limit`.
    public func features(
        in bounds: CoordinateBounds, classes: [FeatureClass] = [], details: [DetailLevel]? = nil, limit: Int? = nil,
        names language: Language? = nil, pieces: Bool = false
    ) throws(DataError) -> [Feature] {
        try features(
            in: bounds, selecting: [FeatureSelection(classes: classes, details: details)], limit: limit,
            names: language, pieces: pieces)
    }

    /// Which features a query reads: of some classes (all when empty), levels of detail (as
    /// ``features(in:classes:details:limit:names:pieces:)`` takes them) and, when given, kinds.
    public struct FeatureSelection: Sendable, Equatable {
        /// The classes; empty for every class.
        public var classes: [FeatureClass]
        /// nil for every level of detail, `[]` for features without one, or the levels wanted.
        public var details: [DetailLevel]?
        /// Only these kinds (of the classes), when given.
        public var kinds: [String]?

        public init(classes: [FeatureClass], details: [DetailLevel]?, kinds: [String]? = nil) {
            self.classes = classes
            self.details = details
            self.kinds = kinds
        }
    }

    /// ``features(in:classes:details:limit:names:pieces:)`` for the features of any of
    /// `selections`, in one walk of the spatial index (a picture's world layers and street
    /// data together).
    public func features(
        in bounds: CoordinateBounds, selecting selections: [FeatureSelection], limit: Int? = nil,
        names language: Language? = nil, pieces: Bool = false
    ) throws(DataError) -> [Feature] {
        let columns = featureColumns(names: language)
        guard pieces, limit == nil, try hasPieces() else {
            return try rows(
                in: bounds, selecting: selections, limit: limit, columns: columns, id: \.id, Self.feature(from:))
        }
        let whole = try rows(
            in: bounds, selecting: selections, limit: nil, columns: columns, id: \.id, wholeOnly: true,
            Self.feature(from:))
        let pieceColumns = featureColumns(names: language, geometry: "feature_piece.geometry")
        var cut: [Feature] = []
        var seen: Set<Int64> = []
        for part in bounds.antimeridianHalves {
            let (condition, boxValues) = boxCondition(part, table: "feature_piece_box")
            var sql =
                "SELECT \(pieceColumns), feature_piece.id FROM feature_piece_box "
                + "JOIN feature_piece ON feature_piece.id = feature_piece_box.id "
                + "JOIN feature ON feature.id = feature_piece.feature WHERE \(condition)"
            var values = boxValues
            sql += filter(selecting: selections, values: &values)
            sql += " ORDER BY feature.id, feature_piece.id"
            try query("reading the pieces of the areas in view") {
                try database.forEachRow(sql, values) { row in
                    guard let piece = row.integer(17), seen.insert(piece).inserted else { return }
                    cut.append(try Self.feature(from: row))
                }
            }
        }
        guard !cut.isEmpty else { return whole }
        // Merged by area id, keeping each area's pieces in order.
        return (whole + cut).enumerated().sorted { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }
            .map(\.element)
    }

    /// Whether source `source`'s large areas are kept in pieces too (false for stores and
    /// sources imported before pieces were).
    func hasPieces(ofSource source: Int64) throws(DataError) -> Bool {
        guard try hasPieces() else { return false }
        let block = FeatureWriter.idBlock(of: source)
        return try query("looking for the pieces of large areas") {
            try !database.map(
                "SELECT 1 FROM feature_piece WHERE id BETWEEN ? AND ? LIMIT 1",
                [.integer(block.lowerBound), .integer(block.upperBound)]
            ) { _ in true }.isEmpty
        }
    }

    /// Whether the store has the tables of pieces (stores made before them have not), found once.
    private func hasPieces() throws(DataError) -> Bool {
        if let known = piecesKnown { return known }
        let sql =
            engine == .sqlite
            ? "SELECT count(*) FROM sqlite_master WHERE name = 'feature_piece'"
            : "SELECT count(*) FROM (SELECT to_regclass('feature_piece') AS found) t WHERE found IS NOT NULL"
        let found = try query("looking for the pieces of large areas") {
            try database.map(sql) { $0.integer(0) }.first == 1
        }
        piecesKnown = found
        return found
    }

    /// A feature with the tags the store keeps of it (``SearchVocabulary/keptTags(_:)``).
    public struct TaggedFeature: Sendable, Equatable {
        /// The feature.
        public var feature: Feature
        /// Its kept tags: names in every language, address, and what the tile schema reads
        /// (`surface`, `service`, `building:colour`, …).
        public var tags: [String: String]
    }

    /// ``features(in:classes:details:limit:names:)`` with each feature's kept tags, local names;
    /// only those of `kinds` where given.
    public func taggedFeatures(
        in bounds: CoordinateBounds, classes: [FeatureClass] = [], kinds: [String]? = nil,
        details: [DetailLevel]? = nil, limit: Int? = nil
    ) throws(DataError) -> [TaggedFeature] {
        try rows(
            in: bounds, selecting: [FeatureSelection(classes: classes, details: details, kinds: kinds)], limit: limit,
            columns: Self.featureColumns + ", feature.tags", id: \.feature.id
        ) { row in
            TaggedFeature(
                feature: try Self.feature(from: row), tags: row.text(17).map(SearchVocabulary.tags(json:)) ?? [:])
        }
    }

    /// The ids of the features ``features(in:classes:details:limit:names:)`` would read, each
    /// with its geometry's size in bytes, by id: no geometry is read (to read the large ones
    /// only when a cache does not hold them already).
    public func featureSizes(
        in bounds: CoordinateBounds, classes: [FeatureClass] = [], details: [DetailLevel]? = nil
    ) throws(DataError) -> [(id: Int64, bytes: Int)] {
        let size = engine == .sqlite ? "length(feature.geometry)" : "octet_length(feature.geometry)"
        return try rows(
            in: bounds, selecting: [FeatureSelection(classes: classes, details: details)], limit: nil,
            columns: "feature.id, \(size)", id: \.id
        ) { row in (id: row.integer(0) ?? 0, bytes: Int(row.integer(1) ?? 0)) }
    }

    /// The features of `ids` with their kept tags, by id; ids the store does not have are
    /// left out.
    public func taggedFeatures(ids: [Int64]) throws(DataError) -> [TaggedFeature] {
        var found: [TaggedFeature] = []
        var start = 0
        while start < ids.count {
            let part = Array(ids[start..<min(start + 500, ids.count)])
            start += part.count
            let sql =
                "SELECT \(Self.featureColumns), feature.tags FROM feature WHERE feature.id IN "
                + "(\(Self.placeholders(part.count))) ORDER BY feature.id"
            found += try query("reading features by id") {
                try database.map(sql, part.map { .integer($0) }) { row in
                    TaggedFeature(
                        feature: try Self.feature(from: row),
                        tags: row.text(17).map(SearchVocabulary.tags(json:)) ?? [:])
                }
            }
        }
        return found.sorted { $0.feature.id < $1.feature.id }
    }

    /// The rows of `columns` for the features meeting `bounds` of any of `selections` (see
    /// ``features(in:classes:details:limit:names:pieces:)``), each read by `read`, by id; once
    /// each side of the antimeridian, a feature in both read once. `wholeOnly`: leaves out the
    /// areas kept in pieces.
    private func rows<Row>(
        in bounds: CoordinateBounds, selecting selections: [FeatureSelection], limit: Int?, columns: String,
        id: (Row) -> Int64, wholeOnly: Bool = false, _ read: @escaping (StoreRow) throws -> Row
    ) throws(DataError) -> [Row] {
        let parts = bounds.antimeridianHalves
        if parts.count == 2 {
            let west = try rows(
                in: parts[0], selecting: selections, limit: limit, columns: columns, id: id, wholeOnly: wholeOnly,
                read)
            let seen = Set(west.map(id))
            let east = try rows(
                in: parts[1], selecting: selections, limit: limit, columns: columns, id: id, wholeOnly: wholeOnly,
                read
            ).filter { !seen.contains(id($0)) }
            let all = (west + east).sorted { id($0) < id($1) }
            return limit.map { Array(all.prefix($0)) } ?? all
        }
        guard let box = parts.first else { return [] }
        let (condition, boxValues) = boxCondition(box)
        var sql =
            "SELECT \(columns) FROM feature_box JOIN feature ON feature.id = feature_box.id WHERE \(condition)"
        var values = boxValues
        sql += filter(selecting: selections, values: &values)
        if wholeOnly {
            // Only an area of more points than the threshold can have pieces: its size says so
            // before the pieces' index is asked.
            let cut = AreaPieces.classes.map { "'\($0.rawValue)'" }.sorted().joined(separator: ",")
            let size = engine == .sqlite ? "length(geometry)" : "octet_length(geometry)"
            sql +=
                " AND NOT (\(size) > \(AreaPieces.threshold * 8) AND class IN (\(cut)) "
                + "AND EXISTS (SELECT 1 FROM feature_piece WHERE feature_piece.feature = feature.id))"
        }
        sql += " ORDER BY feature.id"
        if let limit {
            sql += " LIMIT ?"
            values.append(.integer(Int64(limit)))
        }
        return try query("reading the features in view") { try database.map(sql, values, read) }
    }

    /// The `AND …` condition on class, kind and detail of a query on features: any of
    /// `selections` (see ``features(in:classes:details:limit:names:pieces:)``); their values
    /// appended to `values`.
    private func filter(selecting selections: [FeatureSelection], values: inout [StoreValue]) -> String {
        let conditions = selections.map { selection in
            var terms: [String] = []
            if !selection.classes.isEmpty {
                terms.append("\(classColumn) IN (\(Self.placeholders(selection.classes.count)))")
                values += selection.classes.map { .text($0.rawValue) }
            }
            if let kinds = selection.kinds {
                terms.append("feature.kind IN (\(Self.placeholders(kinds.count)))")
                values += kinds.map { .text($0) }
            }
            if let details = selection.details {
                if details.isEmpty {
                    terms.append("detail IS NULL")
                } else {
                    terms.append("detail IN (\(Self.placeholders(details.count)))")
                    values += details.map { .text($0.rawValue) }
                }
            }
            return terms.isEmpty ? "1 = 1" : terms.joined(separator: " AND ")
        }
        guard !conditions.isEmpty else { return "" }
        return " AND (" + conditions.map { "(\($0))" }.joined(separator: " OR ") + ")"
    }

    /// A world raster registered in the store.
    public struct Raster: Sendable, Equatable {
        /// Which world raster (relief, imagery, elevation).
        public var name: RasterName
        /// The image file's path.
        public var path: String
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
    }

    /// The rasters, by name.
    public func rasters() throws(DataError) -> [Raster] {
        try query("reading the rasters") {
            try database.map("SELECT name, path, width, height FROM raster ORDER BY name") { row in
                guard let name = row.text(0).flatMap(RasterName.init(rawValue:)), let path = row.text(1),
                    let width = row.integer(2), let height = row.integer(3)
                else { throw DataError(.invalidData, message: "a raster's row is incomplete or of an unknown name") }
                return Raster(name: name, path: path, width: Int(width), height: Int(height))
            }
        }
    }

    /// The raster named `name`.
    ///
    /// - Throws: ``DataError`` of kind `.missingData` when the store has none by that name.
    public func raster(_ name: RasterName) throws(DataError) -> Raster {
        guard let raster = try rasters().first(where: { $0.name == name }) else {
            throw DataError(
                .missingData, message: "the store has no '\(name.rawValue)' raster (run 'openmaps data install')",
                path: path)
        }
        return raster
    }

    /// The feature made from an OSM element.
    public func feature(_ type: OSMElementType, id osmID: Int64) throws(DataError) -> Feature? {
        try features(
            "reading an OSM element",
            "SELECT \(Self.featureColumns) FROM feature WHERE osm_type = ? AND osm_id = ? ORDER BY id LIMIT 1",
            [.text(type.code), .integer(osmID)]
        )
        .first
    }
}
