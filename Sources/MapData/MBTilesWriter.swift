import Foundation
import GeoCore
import SQLiteKit

/// Writes an MBTiles 1.3 file (SQLite: `metadata` name/value rows, `tiles` with zoom_level,
/// tile_column, tile_row and tile_data, rows counted from the south as TMS does) atomically:
/// everything goes into a temporary file beside the target, which ``finish()`` syncs and
/// renames into place. A writer dropped before `finish()` leaves the target untouched and
/// removes its temporary file.
///
/// Not `Sendable`: one owner at a time.
public final class MBTilesWriter {
    /// The file `finish()` creates or replaces.
    public let path: String
    private let temporaryPath: String
    private var database: SQLiteDatabase?
    private let insert: SQLiteStatement
    /// Tiles written so far.
    public private(set) var count = 0

    /// What the `metadata` table says of the tiles.
    public struct Metadata: Sendable {
        /// The tileset's name.
        public var name: String
        public var description: String
        /// The credit a map drawn from the tiles shows.
        public var attribution: String
        /// The area the tiles cover.
        public var bounds: CoordinateBounds
        /// The lowest and highest zoom written.
        public var zooms: ClosedRange<Int>
        /// "png", "jpg" or "pbf" (gzip-compressed vector tiles).
        public var format = "png"
        /// For vector tiles: the JSON object with their `vector_layers`, as MBTiles 1.3 asks.
        public var json: String?

        /// The metadata of a tileset of these tiles.
        public init(
            name: String, description: String, attribution: String, bounds: CoordinateBounds,
            zooms: ClosedRange<Int>
        ) {
            self.name = name
            self.description = description
            self.attribution = attribution
            self.bounds = bounds
            self.zooms = zooms
        }
    }

    /// Starts a new file for `path`, with its metadata written.
    public init(path: String, metadata: Metadata) throws(DataError) {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        temporaryPath = folder + "/." + (path as NSString).lastPathComponent + "." + UUID().uuidString + ".tmp"
        do {
            let database = try SQLiteDatabase(path: temporaryPath)
            try database.execute(
                """
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096;
                CREATE TABLE metadata (name TEXT NOT NULL PRIMARY KEY, value TEXT);
                CREATE TABLE tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,
                    tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL);
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                BEGIN;
                """)
            let row = try database.prepare("INSERT INTO metadata (name, value) VALUES (?, ?)")
            for (name, value) in Self.rows(metadata) { try row.run([.text(name), .text(value)]) }
            insert = try database.prepare(
                "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
            self.database = database
        } catch {
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw DataError(.database, message: "cannot create the tile file", path: path, underlying: error)
        }
    }

    deinit {
        if database != nil {
            database = nil
            try? FileManager.default.removeItem(atPath: temporaryPath)
        }
    }

    /// The metadata rows: name, format, bounds and centre (west,south,east,north in degrees),
    /// zooms, attribution, type and version.
    static func rows(_ metadata: Metadata) -> [(String, String)] {
        let south = metadata.bounds.southWest?.latitude ?? -85
        let west = metadata.bounds.southWest?.longitude ?? -180
        let north = metadata.bounds.northEast?.latitude ?? 85
        let east = metadata.bounds.northEast?.longitude ?? 180
        let centre = metadata.bounds.center ?? Coordinate(latitude: 0, longitude: 0)
        let zoom = (metadata.zooms.lowerBound + metadata.zooms.upperBound) / 2
        func text(_ value: Double) -> String { String(format: "%.6f", value) }
        return [
            ("name", metadata.name), ("description", metadata.description), ("format", metadata.format),
            ("bounds", [west, south, east, north].map(text).joined(separator: ",")),
            ("center", "\(text(centre.longitude)),\(text(centre.latitude)),\(zoom)"),
            ("minzoom", String(metadata.zooms.lowerBound)), ("maxzoom", String(metadata.zooms.upperBound)),
            ("attribution", metadata.attribution), ("type", "baselayer"), ("version", "1.0"),
        ] + (metadata.json.map { [("json", $0)] } ?? [])
    }

    /// Adds one tile (replacing an earlier one of the same place).
    public func add(_ tile: TileID, data: [UInt8]) throws(DataError) {
        let row = (1 << tile.z) - 1 - tile.y
        do {
            try insert.run([.integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(row)), .blob(data)])
        } catch {
            throw DataError(.database, message: "cannot write tile \(tile)", path: path, underlying: error)
        }
        count += 1
    }

    /// Commits, syncs and renames the file into place; the writer takes no tiles after this.
    public func finish() throws(DataError) {
        guard let database else { throw DataError(.file, message: "the tile file is already finished", path: path) }
        do {
            try database.execute("COMMIT")
            self.database = nil
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temporaryPath))
            try handle.synchronize()
            try handle.close()
            guard rename(temporaryPath, path) == 0 else {
                throw DataError(
                    .file, message: "cannot move the tile file into place: \(String(cString: strerror(errno)))",
                    path: path)
            }
        } catch {
            self.database = nil
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw DataError(.database, message: "cannot finish the tile file", path: path, underlying: error)
        }
    }
}
