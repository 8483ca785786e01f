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
    /// square; a 1° SRTM cell needs about 200). The pyramid is built depth first
    /// (``TilePyramid``), so memory does not grow with the model: the limit bounds the time
    /// and the store's size (at most 256 KB a tile).
    public static let defaultTileLimit = 4_096

    /// The finest zoom a model needs: the one whose pixels at `latitude` (degrees) are nearest
    /// the model's in size (on a log scale), 0...15: a 3″ SRTM cell (67 m at 43.5°) is read at
    /// zoom 11 (55 m), a 1″ cell (23 m) at 12 (28 m).
    public static func zoom(forMetresPerPixel metres: Double, latitude: Double) -> Int {
        TilePyramid.zoom(forMetresPerPixel: metres, latitude: latitude, limit: 15)
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
        let raster = try TilePyramid.open(path)
        guard raster.bands.count == 1, raster.bands[0].isMeasure else {
            throw DataError(
                .invalidData,
                message:
                    "not an elevation model: \(raster.bands.count) band(s) of \(raster.bands.map(\.rawValue).joined(separator: ", ")) (a model is one band of heights, 16-bit or wider)",
                path: path)
        }
        let plan = try TilePyramid.Plan(
            raster, path: path, zoomLimit: 15, tileLimit: tileLimit, what: "model")
        let (bounds, maxZoom) = (plan.bounds, plan.maxZoom)
        let name = name ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let fingerprint = try FileFingerprint.of(path)
        var lowest = Double.infinity
        var highest = -Double.infinity
        var written = 0
        var read = 0
        var minZoom = maxZoom
        try StoreUpdate.apply(to: storePath) { database in
            let source = try StoreUpdate.replaceSource(
                named: name, kind: .elevation, attribution: attribution ?? "Elevation: \(name)",
                licence: licence ?? "", path: path, bounds: bounds, fingerprint: fingerprint, in: database)
            let insert = try database.inserter(table: "elevation_tile", columns: ["source", "z", "x", "y", "data"])
            // The finest zoom from the file; every zoom above from the four tiles under it.
            minZoom = try TilePyramid.build(
                over: bounds, maxZoom: maxZoom,
                leaf: { tile in
                    progress?("elevation", Double(read) / Double(plan.leaves))
                    read += 1
                    let heights: [Float]
                    do throws(GDALError) {
                        heights = try raster.measures(webMercator: tile.webMercatorBox, size: Elevation.tileSize)
                    } catch {
                        throw DataError(.invalidData, message: error.message, path: path)
                    }
                    guard heights.contains(where: { !$0.isNaN }) else { return nil }
                    for value in heights where !value.isNaN {
                        lowest = min(lowest, Double(value))
                        highest = max(highest, Double(value))
                    }
                    return heights
                },
                parent: { _, children in Self.halved(children) },
                emit: { tile, heights in
                    try insert.insert([
                        .integer(source), .integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.y)),
                        .blob(try Elevation.encode(heights)),
                    ])
                    written += 1
                })
            guard written > 0 else {
                throw DataError(
                    .invalidData, message: "the model has no heights (every pixel is 'no data')", path: path)
            }
        }
        progress?("elevation", 1)
        return Report(
            name: name, format: raster.driver, maxZoom: maxZoom, minZoom: minZoom, tiles: written,
            bounds: bounds, metresPerPixel: raster.metresPerPixel, lowest: lowest, highest: highest)
    }

    /// A tile's heights from the four tiles under it (top left, top right, bottom left, bottom
    /// right; nil where empty): each height the average of the (up to four) under it, NaN where
    /// none of them has data.
    static func halved(_ children: [[Float]?]) -> [Float] {
        let size = Elevation.tileSize
        var parent = [Float](repeating: .nan, count: size * size)
        for (quadrant, child) in children.enumerated() {
            guard let heights = child else { continue }
            let (offsetX, offsetY) = ((quadrant % 2) * size / 2, (quadrant / 2) * size / 2)
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
                    if count > 0 { parent[(offsetY + row) * size + offsetX + column] = total / count }
                }
            }
        }
        return parent
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
