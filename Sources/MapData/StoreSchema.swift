import Foundation

/// The store's tables on each engine: the same tables, columns and meaning
/// (``MapStore``'s documentation), each engine with its own indexes.
///
/// - SQLite: `feature_box` an R*Tree, `search_index` an FTS5 table (its words read from the
///   `fts5vocab` view), the version in `PRAGMA user_version`.
/// - PostGIS: `feature_box` holds the four limits and a `box` polygon made from them (SRID 4326)
///   under a GiST index; `search_index` holds a `document` (`tsvector`: names weight A, address
///   B, category words C, folded as ``SearchVocabulary/words(_:)`` folds) under a GIN index;
///   `search_word(source, word)` holds each source's distinct index words (written with its
///   features) under a `C`-collated B-tree for prefix ranges, compared with a mistyped word by
///   `fuzzystrmatch`'s `levenshtein_less_equal` (a trusted extension, created with the tables); the version in
///   `openmaps_schema`. A new database gets its indexes after its first import's rows.
///   Features name their source without a foreign key (checked per row, it would double the
///   time of a `COPY`) and without an index: a source's features are its block of ids
///   (``MapStore/sourceID(ofFeature:)``), found by the primary key; ``StoreUpdate`` replaces
///   a source and its rows together.
enum StoreSchema {
    /// Creates every table in an empty database, with its indexes; on PostGIS, with
    /// `deferIndexes`, the tables only, and ``createDeferredIndexes(on:)`` builds the indexes
    /// once the first import's rows are in (a sorted build, much faster than row by row: what
    /// osm2pgsql does on `--create`).
    static func create(on database: StoreConnection, deferIndexes: Bool = false) throws {
        switch database.engine {
        case .sqlite: try database.execute(sqlite)
        case .postgis: try database.execute(deferIndexes ? postgisTables : postgisTables + postgisIndexes)
        }
    }

    /// The indexes ``create(on:deferIndexes:)`` left for later.
    static func createDeferredIndexes(on database: StoreConnection) throws {
        try database.execute(postgisIndexes)
    }

    /// True when the database has no store yet.
    static func isEmpty(_ database: StoreConnection) throws -> Bool {
        switch database.engine {
        case .sqlite:
            return try database.map("PRAGMA user_version") { $0.integer(0) }.first == 0
        case .postgis:
            return try database.map("SELECT to_regclass('openmaps_schema') IS NULL") { $0.integer(0) }.first == 1
        }
    }

    /// The store's schema version, nil when it has none.
    static func version(_ database: StoreConnection) throws -> Int64? {
        switch database.engine {
        case .sqlite: try database.map("PRAGMA user_version") { $0.integer(0) }.first ?? nil
        case .postgis: try database.map("SELECT version FROM openmaps_schema") { $0.integer(0) }.first ?? nil
        }
    }

    private static let sqlite = """
        CREATE TABLE source (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
            attribution TEXT NOT NULL, licence TEXT NOT NULL, path TEXT,
            min_lat REAL, min_lon REAL, max_lat REAL, max_lon REAL, fingerprint TEXT);
        CREATE TABLE feature (id INTEGER PRIMARY KEY, source INTEGER NOT NULL REFERENCES source(id),
            osm_type TEXT, osm_id INTEGER, class TEXT NOT NULL, kind TEXT NOT NULL, name TEXT,
            geometry_type INTEGER NOT NULL, geometry BLOB NOT NULL, layer INTEGER, level TEXT,
            height REAL, levels REAL, bridge INTEGER, tunnel INTEGER, oneway INTEGER, ref TEXT,
            detail TEXT, population INTEGER, colour TEXT, tags TEXT);
        CREATE TABLE raster (name TEXT PRIMARY KEY, source INTEGER NOT NULL REFERENCES source(id), path TEXT NOT NULL,
            width INTEGER, height INTEGER, min_lat REAL, min_lon REAL, max_lat REAL, max_lon REAL);
        CREATE INDEX feature_source ON feature(source);
        CREATE INDEX feature_osm ON feature(osm_type, osm_id);
        CREATE INDEX feature_class ON feature(class, kind);
        CREATE VIRTUAL TABLE feature_box USING rtree(id, min_lon, max_lon, min_lat, max_lat);
        CREATE VIRTUAL TABLE search_index USING fts5(names, categories, address,
            tokenize = "unicode61 remove_diacritics 2 tokenchars '\(SearchVocabulary.wordMarks)'", prefix = '2 3');
        CREATE TABLE road_way (source INTEGER NOT NULL, osm_id INTEGER NOT NULL, nodes BLOB NOT NULL,
            points BLOB NOT NULL, tags TEXT NOT NULL);
        CREATE INDEX road_way_source ON road_way(source);
        CREATE TABLE road_node (source INTEGER NOT NULL, osm_id INTEGER NOT NULL, tags TEXT NOT NULL);
        CREATE INDEX road_node_source ON road_node(source);
        CREATE TABLE road_restriction (source INTEGER NOT NULL, osm_id INTEGER NOT NULL, kind TEXT NOT NULL,
            from_way INTEGER NOT NULL, via_nodes TEXT NOT NULL, via_ways TEXT NOT NULL, to_way INTEGER NOT NULL,
            except_modes TEXT NOT NULL, modes TEXT NOT NULL);
        CREATE INDEX road_restriction_source ON road_restriction(source);
        CREATE TABLE road_graph (mode TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, data BLOB NOT NULL);
        \(timetableSQLite);
        \(realtimeTable(.sqlite));
        \(pyramidTables(.sqlite).joined(separator: ";\n"));
        \(pieceTables(.sqlite).joined(separator: ";\n"));
        PRAGMA user_version = \(MapStore.schemaVersion);
        """

    /// The timetables' table on SQLite, created when missing (stores made before it).
    static let timetableSQLite =
        "CREATE TABLE IF NOT EXISTS transit_timetable (source TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB NOT NULL)"

    /// The imported rasters' tile tables (``RasterPyramid``: elevation models' and aerial
    /// images'), created when missing (stores made before them), one statement each.
    static func pyramidTables(_ engine: StoreEngine) -> [String] {
        [SourceKind.elevation, .imagery].map { kind in
            let table = RasterPyramid.table(of: kind)
            return switch engine {
            case .sqlite:
                "CREATE TABLE IF NOT EXISTS \(table) (source INTEGER NOT NULL, z INTEGER NOT NULL, x INTEGER NOT NULL, "
                    + "y INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (z, x, y, source))"
            case .postgis:
                "CREATE TABLE IF NOT EXISTS \(table) (source bigint NOT NULL, z integer NOT NULL, x integer NOT NULL, "
                    + "y integer NOT NULL, data bytea NOT NULL, PRIMARY KEY (z, x, y, source))"
            }
        }
    }

    /// The pieces of large areas (``AreaPieces``), with their own spatial index: `feature_piece(id,
    /// feature, geometry)` (the piece's id in its source's block of ids, the feature it is part
    /// of, the piece's rings as ``Geometry/encoded``) and `feature_piece_box` as `feature_box`;
    /// created when missing (stores made before them), one statement each.
    static func pieceTables(_ engine: StoreEngine) -> [String] {
        switch engine {
        case .sqlite:
            [
                "CREATE TABLE IF NOT EXISTS feature_piece (id INTEGER PRIMARY KEY, feature INTEGER NOT NULL, "
                    + "geometry BLOB NOT NULL)",
                "CREATE INDEX IF NOT EXISTS feature_piece_feature ON feature_piece(feature)",
                "CREATE VIRTUAL TABLE IF NOT EXISTS feature_piece_box USING rtree(id, min_lon, max_lon, min_lat, max_lat)",
            ]
        case .postgis:
            [
                "CREATE TABLE IF NOT EXISTS feature_piece (id bigint PRIMARY KEY, feature bigint NOT NULL, "
                    + "geometry bytea NOT NULL)",
                "CREATE INDEX IF NOT EXISTS feature_piece_feature ON feature_piece(feature)",
                "CREATE TABLE IF NOT EXISTS feature_piece_box (id bigint PRIMARY KEY, min_lon float8 NOT NULL, "
                    + "max_lon float8 NOT NULL, min_lat float8 NOT NULL, max_lat float8 NOT NULL, "
                    + "box geometry(Polygon, 4326) GENERATED ALWAYS AS "
                    + "(ST_MakeEnvelope(min_lon, min_lat, max_lon, max_lat, 4326)) STORED)",
                "CREATE INDEX IF NOT EXISTS feature_piece_box_box ON feature_piece_box USING gist (box)",
            ]
        }
    }

    /// On PostGIS, the routing graphs' bytes kept out of line and uncompressed: a hierarchy's
    /// arrays hardly compress, and PostgreSQL's compressor spent 0.1 s on each of Monaco's
    /// (3 MB) for nothing, a quarter of an update's time.
    static let uncompressedGraphs = "ALTER TABLE road_graph ALTER COLUMN data SET STORAGE EXTERNAL"

    private static let postgisTables = """
        CREATE EXTENSION IF NOT EXISTS postgis;
        CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;
        CREATE TABLE source (id bigint PRIMARY KEY, name text NOT NULL UNIQUE, kind text NOT NULL,
            attribution text NOT NULL, licence text NOT NULL, path text,
            min_lat float8, min_lon float8, max_lat float8, max_lon float8, fingerprint text);
        CREATE TABLE feature (id bigint NOT NULL, source bigint NOT NULL,
            osm_type text, osm_id bigint, class text NOT NULL, kind text NOT NULL, name text,
            geometry_type integer NOT NULL, geometry bytea NOT NULL, layer integer, level text,
            height float8, levels float8, bridge integer, tunnel integer, oneway integer, ref text,
            detail text, population bigint, colour text, tags text);
        CREATE TABLE raster (name text PRIMARY KEY, source bigint NOT NULL REFERENCES source(id), path text NOT NULL,
            width integer, height integer, min_lat float8, min_lon float8, max_lat float8, max_lon float8);
        CREATE TABLE feature_box (id bigint NOT NULL, min_lon float8 NOT NULL, max_lon float8 NOT NULL,
            min_lat float8 NOT NULL, max_lat float8 NOT NULL,
            box geometry(Polygon, 4326) GENERATED ALWAYS AS (ST_MakeEnvelope(min_lon, min_lat, max_lon, max_lat, 4326)) STORED);
        CREATE TABLE search_index (rowid bigint NOT NULL, names text, categories text, address text,
            document tsvector NOT NULL);
        CREATE TABLE search_word (source bigint NOT NULL, word text NOT NULL);
        CREATE TABLE road_way (rowid bigserial, source bigint NOT NULL, osm_id bigint NOT NULL,
            nodes bytea NOT NULL, points bytea NOT NULL, tags text NOT NULL);
        CREATE TABLE road_node (source bigint NOT NULL, osm_id bigint NOT NULL, tags text NOT NULL);
        CREATE TABLE road_restriction (source bigint NOT NULL, osm_id bigint NOT NULL, kind text NOT NULL,
            from_way bigint NOT NULL, via_nodes text NOT NULL, via_ways text NOT NULL, to_way bigint NOT NULL,
            except_modes text NOT NULL, modes text NOT NULL);
        CREATE TABLE road_graph (mode text PRIMARY KEY, fingerprint text NOT NULL, data bytea NOT NULL);
        \(uncompressedGraphs);
        CREATE TABLE transit_timetable (source text PRIMARY KEY, size bigint NOT NULL, data bytea NOT NULL);
        \(realtimeTable(.postgis));
        \(pyramidTables(.postgis).joined(separator: ";\n"));
        \(pieceTables(.postgis).joined(separator: ";\n"));
        CREATE TABLE openmaps_schema (version integer NOT NULL);
        INSERT INTO openmaps_schema VALUES (\(MapStore.schemaVersion));

        """

    private static let postgisIndexes = """
        ALTER TABLE feature ADD PRIMARY KEY (id);
        CREATE INDEX feature_osm ON feature(osm_type, osm_id);
        CREATE INDEX feature_class ON feature(class, kind);
        ALTER TABLE feature_box ADD PRIMARY KEY (id);
        CREATE INDEX feature_box_box ON feature_box USING gist (box);
        ALTER TABLE search_index ADD PRIMARY KEY (rowid);
        CREATE INDEX search_index_document ON search_index USING gin (document);
        CREATE INDEX search_word_word ON search_word (word COLLATE "C");
        CREATE INDEX search_word_source ON search_word (source);
        ALTER TABLE road_way ADD PRIMARY KEY (rowid);
        CREATE INDEX road_way_source ON road_way(source);
        CREATE INDEX road_node_source ON road_node(source);
        CREATE INDEX road_restriction_source ON road_restriction(source);
        """
}
