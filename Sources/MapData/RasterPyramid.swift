import GeoCore

/// One raster imported into the store as a tile pyramid (an elevation model's heights,
/// ``Elevation``; an aerial image's colours, ``Imagery``): Web Mercator tiles of 256 × 256
/// pixels at the zoom whose pixels are nearest the raster's in size and every zoom above, up
/// to the one whose single tile holds it all (``TilePyramid``).
public struct RasterPyramid: Sendable, Equatable {
    /// Its source's id in the store.
    public var source: Int64
    /// Its name in the store (the file's, or the one given at import).
    public var name: String
    /// The zoom of its finest tiles, and of its coarsest (one tile holding it all).
    public var maxZoom: Int
    public var minZoom: Int
    /// Where it is (WGS 84).
    public var bounds: CoordinateBounds
    /// Its credit line, as given at import.
    public var attribution: String

    public init(
        source: Int64, name: String, maxZoom: Int, minZoom: Int, bounds: CoordinateBounds, attribution: String = ""
    ) {
        self.source = source
        self.name = name
        self.maxZoom = maxZoom
        self.minZoom = minZoom
        self.bounds = bounds
        self.attribution = attribution
    }

    /// The table of the tiles of each kind of pyramid.
    static func table(of kind: SourceKind) -> String { kind == .imagery ? "imagery_tile" : "elevation_tile" }
}

extension MapStore {
    /// The pyramids of `kind` (`.elevation` or `.imagery`) in the store, finest first (then the
    /// latest imported).
    func pyramids(of kind: SourceKind) throws(DataError) -> [RasterPyramid] {
        // One look at the (small) source table first: a store without them pays no more than
        // that on every route and every picture.
        let any = try query("reading the sources") {
            try database.map("SELECT 1 FROM source WHERE kind = ? LIMIT 1", [.text(kind.rawValue)]) { $0.integer(0) }
        }
        let table = RasterPyramid.table(of: kind)
        guard !any.isEmpty, try hasTable(table) else { return [] }
        return try query("reading the \(kind.rawValue) sources") {
            try database.map(
                "SELECT source.id, source.name, max(z), min(z), source.min_lat, source.min_lon, source.max_lat, "
                    + "source.max_lon, source.attribution FROM \(table) JOIN source ON source.id = \(table).source "
                    + "GROUP BY source.id, source.name, source.min_lat, source.min_lon, source.max_lat, source.max_lon, "
                    + "source.attribution ORDER BY max(z) DESC, source.id DESC"
            ) { row in
                RasterPyramid(
                    source: row.integer(0) ?? 0, name: row.text(1) ?? "", maxZoom: Int(row.integer(2) ?? 0),
                    minZoom: Int(row.integer(3) ?? 0),
                    bounds: CoordinateBounds(
                        southWest: Coordinate(latitude: row.real(4) ?? 0, longitude: row.real(5) ?? 0),
                        northEast: Coordinate(latitude: row.real(6) ?? 0, longitude: row.real(7) ?? 0)),
                    attribution: row.text(8) ?? "")
            }
        }
    }

    /// One stored tile of a pyramid of `kind`, read by `decode` from its bytes; nil where the
    /// pyramid has no tile there.
    func pyramidTile<Value>(
        of kind: SourceKind, source: Int64, _ tile: TileID,
        decode: (UnsafeRawBufferPointer) throws(DataError) -> Value
    ) throws(DataError) -> Value? {
        let rows = try query("reading \(kind.rawValue) tile \(tile)") {
            try database.map(
                "SELECT data FROM \(RasterPyramid.table(of: kind)) WHERE z = ? AND x = ? AND y = ? AND source = ?",
                [.integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.y)), .integer(source)]
            ) { row in try row.withBlob(0) { bytes in try decode(bytes) } }
        }
        return rows.first ?? nil
    }

    /// Whether the store has `table` (tables added after a store was made are created by the
    /// first import that writes them).
    func hasTable(_ table: String) throws(DataError) -> Bool {
        try query("reading the store's tables") {
            switch database.engine {
            case .sqlite:
                try database.map("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])
                {
                    $0.integer(0)
                }.first == 1
            case .postgis:
                try database.map("SELECT to_regclass(?) IS NOT NULL", [.text(table)]) { $0.integer(0) }.first == 1
            }
        }
    }
}
