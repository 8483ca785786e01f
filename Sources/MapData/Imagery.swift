import Foundation
import GDALKit
import GeoCore

/// Aerial images (orthophotos) imported into the store: the satellite and hybrid maps'
/// colours where they cover the view.
///
/// An image is kept as a pyramid of Web Mercator tiles of ``tileSize`` × ``tileSize`` pixels
/// (``RasterPyramid``) in the `imagery_tile` table on either engine: JPEG where every pixel is
/// covered, PNG with its transparency where the image ends, at the zoom whose pixels are
/// nearest the image's in size (at most ``zoomLimit``) and every zoom above it, each tile made
/// from the four under it, so a view reads only what it draws.
public enum Imagery {
    /// Pixels a tile side.
    public static let tileSize = 256

    /// The finest zoom an image is kept at: 20 (15 cm pixels at the equator, 11 cm at 43°);
    /// finer orthophotos are read at it.
    public static let zoomLimit = 20

    /// The most tiles an image may have at its finest zoom: 16,384 by default (a 128 × 128
    /// tile square: 17 km across at zoom 17 at 45°, 4 km at zoom 19). The pyramid is built
    /// depth first (``TilePyramid``), so memory does not grow with the image; the limit bounds
    /// the time and the store's size (about 15 to 40 KB a JPEG tile).
    public static let defaultTileLimit = 16_384

    /// What an import did.
    public struct Report: Sendable, Equatable {
        /// The image's name in the store (its source).
        public var name: String
        /// GDAL's driver that read it (`GTiff`, `MBTiles`, …).
        public var format: String
        /// How its bands made colours (RGB, grey, a palette, …).
        public var layout: String
        /// Its finest zoom and its coarsest.
        public var maxZoom: Int
        public var minZoom: Int
        /// Tiles written, every zoom, and their bytes.
        public var tiles: Int
        public var bytes: Int
        /// Where it is (WGS 84).
        public var bounds: CoordinateBounds
        /// The size of its pixels on the ground, metres.
        public var metresPerPixel: Double
    }

    /// Imports the image at `path` (a GeoTIFF or Cloud Optimized GeoTIFF, a raster MBTiles,
    /// or any image GDAL reads with its georeferencing, in any projection GDAL knows) into the
    /// store at `storePath`, atomically: an image that cannot be read, or is larger than the
    /// limit, leaves the store as it was.
    ///
    /// - Parameters:
    ///   - name: the image's name in the store (default: the file's name); importing a name
    ///     again replaces it.
    ///   - attribution, licence: its credit line and licence, kept as for other sources
    ///     (default credit: "Imagery: NAME").
    ///   - tileLimit: the most tiles at its finest zoom (``defaultTileLimit``).
    ///   - progress: "imagery" with the fraction of the finest tiles read, 0...1.
    /// - Throws: ``DataError`` naming the file: unreadable, not an image (heights, or bands
    ///   wider than a byte), entirely transparent, or larger than the limit.
    public static func importImage(
        _ path: String, into storePath: String, name: String? = nil, attribution: String? = nil,
        licence: String? = nil, tileLimit: Int = defaultTileLimit, progress: ((String, Double) -> Void)? = nil
    ) throws -> Report {
        let raster = try TilePyramid.open(path)
        return try importImage(
            raster, into: storePath, name: name, attribution: attribution, licence: licence, tileLimit: tileLimit,
            fingerprint: try FileFingerprint.of(path), progress: progress)
    }

    /// Imports the single-band rasters at `paths` as one image's bands (a satellite scene's
    /// red, green and blue files, in that order; they must cover the same place in the same
    /// projection), as ``importImage(_:into:name:attribution:licence:tileLimit:progress:)``
    /// imports one file; the name defaults to the first file's.
    public static func importImage(
        bands paths: [String], into storePath: String, name: String? = nil, attribution: String? = nil,
        licence: String? = nil, tileLimit: Int = defaultTileLimit, progress: ((String, Double) -> Void)? = nil
    ) throws -> Report {
        let raster: RasterFile
        do { raster = try RasterFile(bands: paths) } catch {
            throw DataError(.invalidData, message: error.message, path: error.path)
        }
        let name = name ?? ((paths[0] as NSString).lastPathComponent as NSString).deletingPathExtension
        let fingerprint = try paths.map { try FileFingerprint.of($0) }.joined(separator: "+")
        return try importImage(
            raster, into: storePath, name: name, attribution: attribution, licence: licence, tileLimit: tileLimit,
            fingerprint: fingerprint, progress: progress)
    }

    private static func importImage(
        _ raster: RasterFile, into storePath: String, name: String?, attribution: String?, licence: String?,
        tileLimit: Int, fingerprint: String, progress: ((String, Double) -> Void)?
    ) throws -> Report {
        let path = raster.path
        guard let layout = raster.colourLayoutReadingWideBands else {
            let ranges = raster.valueRanges.compactMap { $0 }
            let values =
                ranges.isEmpty
                ? ""
                : String(
                    format: ", values %g to %g", ranges.map(\.lowerBound).min()!, ranges.map(\.upperBound).max()!)
            throw DataError(
                .invalidData,
                message:
                    "not an image: \(raster.bands.count) band(s) of \(raster.bands.map(\.rawValue).joined(separator: ", "))\(values) (an image has grey, RGB or RGBA bands of values 0 to 255, or a palette; heights are imported with --kind elevation)",
                path: path)
        }
        let plan = try TilePyramid.Plan(raster, path: path, zoomLimit: zoomLimit, tileLimit: tileLimit, what: "image")
        let name = name ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var (written, bytes, read) = (0, 0, 0)
        var minZoom = plan.maxZoom
        try StoreUpdate.apply(to: storePath) { database in
            let source = try StoreUpdate.replaceSource(
                named: name, kind: .imagery, attribution: attribution ?? "Imagery: \(name)", licence: licence ?? "",
                path: path, bounds: plan.bounds, fingerprint: fingerprint, in: database)
            let insert = try database.inserter(table: "imagery_tile", columns: ["source", "z", "x", "y", "data"])
            minZoom = try TilePyramid.build(
                over: plan.bounds, maxZoom: plan.maxZoom,
                leaf: { tile in
                    progress?("imagery", Double(read) / Double(plan.leaves))
                    read += 1
                    let pixels: [UInt8]
                    do throws(GDALError) {
                        pixels = try raster.colours(webMercator: tile.webMercatorBox, size: tileSize)
                    } catch {
                        throw DataError(.invalidData, message: error.message, path: path)
                    }
                    return Self.covers(pixels) ? pixels : nil
                },
                parent: { _, children in Self.halved(children) },
                emit: { tile, pixels in
                    let encoded: [UInt8]
                    do throws(GDALError) {
                        encoded = try ImageTile.encode(rgba: pixels, width: tileSize, height: tileSize)
                    } catch {
                        throw DataError(
                            .invalidData, message: "cannot encode tile \(tile): \(error.message)", path: path)
                    }
                    try insert.insert([
                        .integer(source), .integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.y)),
                        .blob(encoded),
                    ])
                    written += 1
                    bytes += encoded.count
                })
            guard written > 0 else {
                throw DataError(
                    .invalidData, message: "the image has no pixels (every one is transparent or 'no data')",
                    path: path)
            }
        }
        progress?("imagery", 1)
        return Report(
            name: name, format: raster.driver, layout: layout.rawValue, maxZoom: plan.maxZoom, minZoom: minZoom,
            tiles: written, bytes: bytes, bounds: plan.bounds, metresPerPixel: raster.metresPerPixel)
    }

    /// Whether any of `rgba`'s pixels is not fully transparent.
    static func covers(_ rgba: [UInt8]) -> Bool {
        stride(from: 3, to: rgba.count, by: 4).contains { rgba[$0] != 0 }
    }

    /// A tile's pixels from the four tiles under it (top left, top right, bottom left, bottom
    /// right; nil where empty): each pixel the average of the four under it, weighted by their
    /// alpha (a pixel half covered is half transparent, its colour only the covered ones').
    static func halved(_ children: [[UInt8]?]) -> [UInt8] {
        let size = tileSize
        var parent = [UInt8](repeating: 0, count: size * size * 4)
        for (quadrant, child) in children.enumerated() {
            guard let pixels = child else { continue }
            let (offsetX, offsetY) = ((quadrant % 2) * size / 2, (quadrant / 2) * size / 2)
            for row in 0..<size / 2 {
                for column in 0..<size / 2 {
                    var (red, green, blue, alpha) = (0, 0, 0, 0)
                    for index in [
                        (row * 2 * size + column * 2) * 4, (row * 2 * size + column * 2 + 1) * 4,
                        ((row * 2 + 1) * size + column * 2) * 4, ((row * 2 + 1) * size + column * 2 + 1) * 4,
                    ] {
                        let weight = Int(pixels[index + 3])
                        red += Int(pixels[index]) * weight
                        green += Int(pixels[index + 1]) * weight
                        blue += Int(pixels[index + 2]) * weight
                        alpha += weight
                    }
                    guard alpha > 0 else { continue }
                    let target = ((offsetY + row) * size + offsetX + column) * 4
                    parent[target] = UInt8((red + alpha / 2) / alpha)
                    parent[target + 1] = UInt8((green + alpha / 2) / alpha)
                    parent[target + 2] = UInt8((blue + alpha / 2) / alpha)
                    parent[target + 3] = UInt8((alpha + 2) / 4)
                }
            }
        }
        return parent
    }
}

extension MapStore {
    /// The aerial images in the store, finest first (then the latest imported).
    public func imagery() throws(DataError) -> [RasterPyramid] { try pyramids(of: .imagery) }

    /// One stored image tile: a JPEG or a PNG file's bytes, nil where the image has none there.
    public func imageryTile(source: Int64, _ tile: TileID) throws(DataError) -> [UInt8]? {
        try pyramidTile(of: .imagery, source: source, tile) { (bytes) throws(DataError) in Array(bytes) }
    }
}
