import Foundation
import GDALKit
import GeoCore

/// Imports a digital elevation model (GeoTIFF or Cloud Optimized GeoTIFF, SRTM `.hgt`, or any
/// single-band raster of heights GDAL reads, in any projection it knows) into the store as
/// ``Elevation``'s tile pyramid, atomically: a model that cannot be read, or is larger than
/// the limit, leaves the store as it was.
public enum ElevationImporter {
    /// What an import did.
    public struct Report: Sendable, Equatable {
        /// The model's name in the store (its source).
        public var name: String
        /// GDAL's driver that read it (`GTiff`, `SRTMHGT`, …).
        public var format: String
        /// Its finest zoom and its coarsest.
        public var maxZoom: Int
        public var minZoom: Int
        /// Tiles written, every zoom.
        public var tiles: Int
        /// Where it is (WGS 84).
        public var bounds: CoordinateBounds
        /// The size of its pixels on the ground, metres.
        public var metresPerPixel: Double
        /// Its lowest and highest heights, metres (at its finest zoom).
        public var lowest: Double
        public var highest: Double
    }

    /// The most tiles a model may have at its finest zoom: 4,096 by default (a 64 × 64 tile
    /// square; a 1° SRTM cell needs about 200). Its heights are held in memory while it is
    /// imported: 256 KB a tile, 1 GB at the limit.
    public static let defaultTileLimit = 4_096

    /// The finest zoom a model needs: the one whose pixels at `latitude` (degrees) are nearest
    /// the model's in size (on a log scale), 0...15: a 3″ SRTM cell (67 m at 43.5°) is read at
    /// zoom 11 (55 m), a 1″ cell (23 m) at 12 (28 m).
    public static func zoom(forMetresPerPixel metres: Double, latitude: Double) -> Int {
        let equator = 40_075_016.686 / Double(Elevation.tileSize)
        let wanted = log2(equator * cos(latitude * .pi / 180) / max(metres, 0.01))
        return min(max(Int(wanted.rounded()), 0), 15)
    }

    /// Imports the model at `path` into the store at `storePath`.
    ///
    /// - Parameters:
    ///   - name: the model's name in the store (default: the file's name); importing a name
    ///     again replaces it.
    ///   - attribution, licence: its credit line and licence, kept as for other sources.
    ///   - tileLimit: the most tiles at its finest zoom (``defaultTileLimit``).
    /// - Throws: ``DataError`` naming the file: unreadable, not heights (an image's bytes), or
    ///   larger than the limit.
    public static func importModel(
        _ path: String, into storePath: String, name: String? = nil, attribution: String? = nil,
        licence: String? = nil, tileLimit: Int = defaultTileLimit, progress: ((String, Double) -> Void)? = nil
    ) throws -> Report {
        let raster: RasterFile
        do { raster = try RasterFile(path: path) } catch {
            throw DataError(.invalidData, message: error.message, path: path)
        }
        guard raster.bands.count == 1, raster.bands[0].isMeasure else {
            throw DataError(
                .invalidData,
                message:
                    "not an elevation model: \(raster.bands.count) band(s) of \(raster.bands.map(\.rawValue).joined(separator: ", ")) (a model is one band of heights, 16-bit or wider)",
                path: path)
        }
        let bounds = CoordinateBounds(
            southWest: Coordinate(
                latitude: max(raster.bounds.south, -85.0511), longitude: max(raster.bounds.west, -180)),
            northEast: Coordinate(latitude: min(raster.bounds.north, 85.0511), longitude: min(raster.bounds.east, 180)))
        let latitude = (raster.bounds.south + raster.bounds.north) / 2
        let maxZoom = zoom(forMetresPerPixel: raster.metresPerPixel, latitude: latitude)
        let finest = TileID.covering(bounds, zoom: maxZoom)
        guard finest.count <= tileLimit else {
            throw DataError(
                .invalidData,
                message:
                    "the model is too large: \(finest.count) tiles at zoom \(maxZoom), more than the limit of \(tileLimit) (raise it with --max-tiles)",
                path: path)
        }
        let name = name ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        // The finest zoom from the file; every zoom below from the one above, until one tile
        // holds it all.
        var level: [TileID: [Float]] = [:]
        var lowest = Double.infinity
        var highest = -Double.infinity
        for (index, tile) in finest.enumerated() {
            progress?("elevation", Double(index) / Double(finest.count))
            let box = tile.webMercatorBox
            let heights: [Float]
            do { heights = try raster.measures(webMercator: box, size: Elevation.tileSize) } catch {
                throw DataError(.invalidData, message: error.message, path: path)
            }
            guard heights.contains(where: { !$0.isNaN }) else { continue }
            for value in heights where !value.isNaN {
                lowest = min(lowest, Double(value))
                highest = max(highest, Double(value))
            }
            level[tile] = heights
        }
        guard !level.isEmpty else {
            throw DataError(.invalidData, message: "the model has no heights (every pixel is 'no data')", path: path)
        }
        var levels: [(zoom: Int, tiles: [TileID: [Float]])] = [(maxZoom, level)]
        var zoom = maxZoom
        while zoom > 0 && levels.last!.tiles.count > 1 {
            zoom -= 1
            levels.append((zoom, Self.halved(levels.last!.tiles)))
        }
        let fingerprint = try FileFingerprint.of(path)
        var written = 0
        try StoreUpdate.apply(to: storePath) { database in
            let source = try StoreUpdate.replaceSource(
                named: name, kind: .elevation, attribution: attribution ?? "Elevation: \(name)",
                licence: licence ?? "", path: path, bounds: bounds, fingerprint: fingerprint, in: database)
            let insert = try database.inserter(table: "elevation_tile", columns: ["source", "z", "x", "y", "data"])
            for (_, tiles) in levels {
                for (tile, heights) in tiles.sorted(by: { ($0.key.y, $0.key.x) < ($1.key.y, $1.key.x) }) {
                    try insert.insert([
                        .integer(source), .integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.y)),
                        .blob(try Elevation.encode(heights)),
                    ])
                    written += 1
                }
            }
        }
        progress?("elevation", 1)
        return Report(
            name: name, format: raster.driver, maxZoom: maxZoom, minZoom: levels.last!.zoom, tiles: written,
            bounds: bounds, metresPerPixel: raster.metresPerPixel, lowest: lowest, highest: highest)
    }

    /// The zoom above `tiles`' own: each tile the average of the (up to four) under it, NaN
    /// where none of them has data.
    static func halved(_ tiles: [TileID: [Float]]) -> [TileID: [Float]] {
        let size = Elevation.tileSize
        var parents: [TileID: [Float]] = [:]
        for (tile, heights) in tiles {
            let parent = TileID(x: tile.x / 2, y: tile.y / 2, z: tile.z - 1)
            var sums = parents[parent] ?? [Float](repeating: .nan, count: size * size)
            let (offsetX, offsetY) = ((tile.x % 2) * size / 2, (tile.y % 2) * size / 2)
            for row in 0..<size / 2 {
                for column in 0..<size / 2 {
                    var total: Float = 0
                    var count: Float = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let value = heights[(row * 2 + dy) * size + column * 2 + dx]
                        if !value.isNaN {
                            total += value
                            count += 1
                        }
                    }
                    if count > 0 { sums[(offsetY + row) * size + offsetX + column] = total / count }
                }
            }
            parents[parent] = sums
        }
        return parents
    }
}

extension TileID {
    /// The tile's square in Web Mercator (EPSG:3857) metres: west, south, east, north.
    public var webMercatorBox: (west: Double, south: Double, east: Double, north: Double) {
        let half = 20_037_508.342789244
        let span = 2 * half / Double(1 << z)
        let west = -half + Double(x) * span
        let north = half - Double(y) * span
        return (west, north - span, west + span, north)
    }
}
