import Foundation
import GeoCore
import SQLiteKit

/// The embedded store: one SQLite file holding every imported region's features, with an
/// R*Tree over their bounding boxes and an FTS5 index over their names.
///
/// Schema version 1:
/// - `source(id, name, kind, attribution, licence, path, min_lat, min_lon, max_lat, max_lon)`:
///   one row per imported region or data set, replaced as a whole on re-import;
/// - `feature(id, source, osm_type, osm_id, class, kind, name, geometry_type, geometry,
///   layer, level, height, levels, bridge, tunnel, oneway, ref, detail, population)`: `geometry` is
///   ``Geometry/encoded`` (1e-7-degree integers; polygon rings fill with the even-odd rule);
/// - `feature_box`: R*Tree `(id, min_lon, max_lon, min_lat, max_lat)`;
/// - `feature_name`: FTS5 over every name of a feature (name, name:xx, alternative names),
///   rowid = feature id;
/// - `raster(name, source, path, width, height, bounds)`: world images kept as files beside
///   the store (imagery, shaded relief), in plate carrée over their bounds.
///
/// `detail` is a world layer's level of detail (`c` crude, `l` low, `i` intermediate);
/// `population` comes with gazetteer places.
public final class MapStore {
    public static let schemaVersion = 1

    let database: SQLiteDatabase
    public let path: String

    /// Opens an existing store for reading.
    public init(path: String) throws(DataError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DataError(
                message: "no store here (build one with 'openmaps data install' or 'openmaps import')", path: path)
        }
        do {
            database = try SQLiteDatabase(path: path, mode: .readOnly)
            let version = try database.prepare("PRAGMA user_version").rows()
            guard version == [[.integer(Int64(Self.schemaVersion))]] else {
                throw DataError(message: "store schema \(version) is not version \(Self.schemaVersion)", path: path)
            }
        } catch let error as SQLiteError {
            throw DataError(message: "\(error)", path: path)
        } catch let error as DataError {
            throw error
        } catch {
            throw DataError(message: "\(error)", path: path)
        }
        self.path = path
    }

    init(database: SQLiteDatabase, path: String) {
        self.database = database
        self.path = path
    }

    /// Creates the schema in an empty database.
    static func createSchema(_ database: SQLiteDatabase) throws(SQLiteError) {
        try database.execute(
            """
            CREATE TABLE source (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
                attribution TEXT NOT NULL, licence TEXT NOT NULL, path TEXT,
                min_lat REAL, min_lon REAL, max_lat REAL, max_lon REAL);
            CREATE TABLE feature (id INTEGER PRIMARY KEY, source INTEGER NOT NULL REFERENCES source(id),
                osm_type TEXT, osm_id INTEGER, class TEXT NOT NULL, kind TEXT NOT NULL, name TEXT,
                geometry_type INTEGER NOT NULL, geometry BLOB NOT NULL, layer INTEGER, level TEXT,
                height REAL, levels REAL, bridge INTEGER, tunnel INTEGER, oneway INTEGER, ref TEXT,
                detail TEXT, population INTEGER);
            CREATE TABLE raster (name TEXT PRIMARY KEY, source INTEGER NOT NULL REFERENCES source(id), path TEXT NOT NULL,
                width INTEGER, height INTEGER, min_lat REAL, min_lon REAL, max_lat REAL, max_lon REAL);
            CREATE INDEX feature_source ON feature(source);
            CREATE INDEX feature_osm ON feature(osm_type, osm_id);
            CREATE VIRTUAL TABLE feature_box USING rtree(id, min_lon, max_lon, min_lat, max_lat);
            CREATE VIRTUAL TABLE feature_name USING fts5(names);
            PRAGMA user_version = \(schemaVersion);
            """)
    }

    /// One imported region or data set.
    public struct Source: Sendable, Equatable {
        public var name: String
        public var kind: String
        public var attribution: String
        public var licence: String
        public var bounds: CoordinateBounds
        /// Features per class; empty when read with `sources(counting: false)`.
        public var counts: [String: Int]
    }

    /// Every source, by name, with its feature counts when `counting` (a scan of every
    /// feature: leave it off where only names, kinds and bounds matter, as when rendering).
    public func sources(counting: Bool = true) throws(DataError) -> [Source] {
        do {
            let rows = try database.prepare(
                "SELECT id, name, kind, attribution, licence, min_lat, min_lon, max_lat, max_lon FROM source ORDER BY name"
            ).rows()
            let counts =
                counting
                ? try database.prepare("SELECT source, class, count(*) FROM feature GROUP BY source, class").rows() : []
            return rows.map { row in
                let id = row[0]
                var perClass: [String: Int] = [:]
                for count in counts where count[0] == id {
                    if case .text(let name) = count[1], case .integer(let number) = count[2] {
                        perClass[name] = Int(number)
                    }
                }
                return Source(
                    name: row[1].text, kind: row[2].text, attribution: row[3].text, licence: row[4].text,
                    bounds: CoordinateBounds(
                        southWest: Coordinate(latitude: row[5].real, longitude: row[6].real),
                        northEast: Coordinate(latitude: row[7].real, longitude: row[8].real)),
                    counts: perClass)
            }
        } catch {
            throw DataError(message: "\(error)", path: path)
        }
    }

    /// A stored feature.
    public struct Feature: Sendable, Equatable {
        public var id: Int64
        public var osmType: String?
        public var osmID: Int64?
        public var featureClass: String
        public var kind: String
        public var name: String?
        public var geometry: Geometry
        public var levels: Double?
        public var height: Double?
        public var level: String?
        public var population: Int64?
        public var detail: String?
        /// OSM `layer`, -5...5; 0 when untagged.
        public var layer: Int = 0
        public var isBridge = false
        public var isTunnel = false
    }

    static let featureColumns =
        "feature.id, osm_type, osm_id, class, kind, name, geometry_type, geometry, levels, height, level, population, detail, "
        + "layer, bridge, tunnel"

    func features(_ sql: String, _ values: [SQLiteValue]) throws(DataError) -> [Feature] {
        do {
            return try database.prepare(sql).rows(values).compactMap { row in
                guard case .blob(let blob) = row[7], let geometry = Geometry(typeCode: row[6].integer, blob: blob)
                else {
                    return nil
                }
                return Feature(
                    id: row[0].integer, osmType: row[1].optionalText, osmID: row[2].optionalInteger,
                    featureClass: row[3].text,
                    kind: row[4].text, name: row[5].optionalText, geometry: geometry, levels: row[8].optionalReal,
                    height: row[9].optionalReal, level: row[10].optionalText, population: row[11].optionalInteger,
                    detail: row[12].optionalText, layer: Int(row[13].optionalInteger ?? 0),
                    isBridge: (row[14].optionalInteger ?? 0) != 0, isTunnel: (row[15].optionalInteger ?? 0) != 0)
            }
        } catch {
            throw DataError(message: "\(error)", path: path)
        }
    }

    /// Features whose names match an FTS5 query, best match first.
    public func features(matching query: String, limit: Int = 20) throws(DataError) -> [Feature] {
        try features(
            "SELECT \(Self.featureColumns) FROM feature_name JOIN feature ON feature.id = feature_name.rowid "
                + "WHERE feature_name MATCH ? ORDER BY rank LIMIT ?", [.text(query), .integer(Int64(limit))])
    }

    /// Features whose names hold every word of `text` (plain text, not FTS5 syntax: each
    /// word is quoted, so punctuation and operators are searched for, never interpreted),
    /// best match first.
    public func features(named text: String, limit: Int = 20) throws(DataError) -> [Feature] {
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "," })
        guard !words.isEmpty else { return [] }
        let query = words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ")
        return try features(matching: query, limit: limit)
    }

    /// True when world land of this level of detail (`"f"` comes with `data install --hires`)
    /// meets `bounds`. Asks the spatial index only: no geometry is read.
    public func hasWorldDetail(_ detail: String, in bounds: CoordinateBounds = .world) throws(DataError) -> Bool {
        for part in bounds.antimeridianHalves {
            let (condition, values) = Self.boxCondition(part)
            do {
                let sql =
                    "SELECT 1 FROM feature_box JOIN feature ON feature.id = feature_box.id WHERE \(condition) "
                    + "AND class = 'land' AND detail = ? LIMIT 1"
                if try !database.prepare(sql).rows(values + [.text(detail)]).isEmpty { return true }
            } catch {
                throw DataError(message: "\(error)", path: path)
            }
        }
        return false
    }

    /// The spatial index's test for boxes meeting `bounds` (which must not cross the
    /// antimeridian), with its values.
    private static func boxCondition(_ bounds: CoordinateBounds) -> (sql: String, values: [SQLiteValue]) {
        guard let southWest = bounds.southWest, let northEast = bounds.northEast else { return ("0", []) }
        return (
            "feature_box.min_lon <= ? AND feature_box.max_lon >= ? AND feature_box.min_lat <= ? AND feature_box.max_lat >= ?",
            [
                .real(northEast.longitude), .real(southWest.longitude), .real(northEast.latitude),
                .real(southWest.latitude),
            ]
        )
    }

    /// Features whose bounding box meets `bounds`, optionally of some classes, of one level of
    /// detail, at most `limit`.
    public func features(
        in bounds: CoordinateBounds, classes: [String] = [], detail: String? = nil, limit: Int? = nil
    ) throws(DataError) -> [Feature] {
        try features(in: bounds, classes: classes, details: detail.map { [$0] }, limit: limit)
    }

    /// Features whose bounding box meets `bounds`, optionally of some classes, at most
    /// `limit`, by id. `details`: nil for every level of detail, `[]` for features without one
    /// (street data and places), or the levels wanted (`["i", "f"]`).
    public func features(
        in bounds: CoordinateBounds, classes: [String] = [], details: [String]?, limit: Int? = nil
    ) throws(DataError) -> [Feature] {
        let parts = bounds.antimeridianHalves
        if parts.count == 2 {
            // Two queries, west and east of the antimeridian; a feature in both comes once.
            let west = try features(in: parts[0], classes: classes, details: details, limit: limit)
            let seen = Set(west.map(\.id))
            let east = try features(in: parts[1], classes: classes, details: details, limit: limit).filter {
                !seen.contains($0.id)
            }
            let all = (west + east).sorted { $0.id < $1.id }
            return limit.map { Array(all.prefix($0)) } ?? all
        }
        guard let box = parts.first else { return [] }
        let (condition, boxValues) = Self.boxCondition(box)
        var sql =
            "SELECT \(Self.featureColumns) FROM feature_box JOIN feature ON feature.id = feature_box.id WHERE \(condition)"
        var values = boxValues
        if !classes.isEmpty {
            sql += " AND class IN (\(classes.map { _ in "?" }.joined(separator: ",")))"
            values += classes.map { .text($0) }
        }
        if let details {
            if details.isEmpty {
                sql += " AND detail IS NULL"
            } else {
                sql += " AND detail IN (\(details.map { _ in "?" }.joined(separator: ",")))"
                values += details.map { .text($0) }
            }
        }
        sql += " ORDER BY feature.id"
        if let limit {
            sql += " LIMIT ?"
            values.append(.integer(Int64(limit)))
        }
        return try features(sql, values)
    }

    /// A world raster registered in the store.
    public struct Raster: Sendable, Equatable {
        public var name: String
        public var path: String
        public var width: Int
        public var height: Int
    }

    /// The rasters, by name.
    public func rasters() throws(DataError) -> [Raster] {
        do {
            return try database.prepare("SELECT name, path, width, height FROM raster ORDER BY name").rows().map {
                Raster(name: $0[0].text, path: $0[1].text, width: Int($0[2].integer), height: Int($0[3].integer))
            }
        } catch {
            throw DataError(message: "\(error)", path: path)
        }
    }

    /// The feature made from an OSM element ("n", "w" or "r").
    public func feature(osmType: String, osmID: Int64) throws(DataError) -> Feature? {
        try features(
            "SELECT \(Self.featureColumns) FROM feature WHERE osm_type = ? AND osm_id = ?",
            [.text(osmType), .integer(osmID)]
        )
        .first
    }
}

extension SQLiteValue {
    var text: String { if case .text(let text) = self { return text } else { return "" } }
    var optionalText: String? { if case .text(let text) = self { return text } else { return nil } }
    var integer: Int64 { if case .integer(let number) = self { return number } else { return 0 } }
    var optionalInteger: Int64? { if case .integer(let number) = self { return number } else { return nil } }
    var real: Double {
        switch self {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: return 0
        }
    }
    var optionalReal: Double? {
        switch self {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: return nil
        }
    }
}
