import Foundation
import GDALKit
import GeoCore

/// Builds an imported raster's tile pyramid depth first: the finest tiles read from the file,
/// each coarser tile made from the four under it as soon as they are done, so at most four
/// tiles a zoom are held at once however large the raster (the raster's pyramid at every zoom
/// from its finest up to the one whose single tile holds it all).
enum TilePyramid {
    /// The finest zoom a raster needs: the one whose pixels at `latitude` (degrees) are
    /// nearest the raster's (`metres` on the ground) in size, on a log scale, 0...`limit`.
    static func zoom(forMetresPerPixel metres: Double, latitude: Double, limit: Int) -> Int {
        let equator = 40_075_016.686 / 256
        let wanted = log2(equator * cos(latitude * .pi / 180) / max(metres, 0.001))
        return min(max(Int(wanted.rounded()), 0), limit)
    }

    /// The raster at `path`, opened by GDAL.
    ///
    /// - Throws: ``DataError`` naming the file with GDAL's reason when it cannot be read.
    static func open(_ path: String) throws(DataError) -> RasterFile {
        do { return try RasterFile(path: path) } catch {
            throw DataError(.invalidData, message: error.message, path: path)
        }
    }

    /// Where a raster's pyramid goes and how deep, checked against the import's limit.
    struct Plan {
        /// The raster's area (WGS 84), within Web Mercator's latitudes.
        var bounds: CoordinateBounds
        /// Its finest zoom.
        var maxZoom: Int
        /// Its tiles at that zoom.
        var leaves: Int

        /// The plan of `raster`, whose pixels are read at the zoom nearest their size (at most
        /// `zoomLimit`).
        ///
        /// - Throws: ``DataError`` naming `path` when it would take more than `tileLimit` tiles
        ///   at that zoom; `what` is what the raster is called there ("model", "image").
        init(_ raster: RasterFile, path: String, zoomLimit: Int, tileLimit: Int, what: String) throws(DataError) {
            bounds = CoordinateBounds(
                southWest: Coordinate(
                    latitude: max(raster.bounds.south, -85.0511), longitude: max(raster.bounds.west, -180)),
                northEast: Coordinate(
                    latitude: min(raster.bounds.north, 85.0511), longitude: min(raster.bounds.east, 180)))
            let latitude = (raster.bounds.south + raster.bounds.north) / 2
            maxZoom = TilePyramid.zoom(forMetresPerPixel: raster.metresPerPixel, latitude: latitude, limit: zoomLimit)
            leaves = TileID.covering(bounds, zoom: maxZoom).count
            guard leaves <= tileLimit else {
                throw DataError(
                    .invalidData,
                    message:
                        "the \(what) is too large: \(leaves) tiles at zoom \(maxZoom), more than the limit of \(tileLimit) (raise it with --max-tiles)",
                    path: path)
            }
        }
    }

    /// The coarsest zoom of a pyramid over `bounds` whose finest is `maxZoom`: the deepest zoom
    /// at which one tile holds all of `bounds` (0 when it straddles a zoom 1 tile's edge).
    static func minZoom(of bounds: CoordinateBounds, maxZoom: Int) -> Int {
        var zoom = maxZoom
        while zoom > 0 && TileID.covering(bounds, zoom: zoom).count > 1 { zoom -= 1 }
        return zoom
    }

    /// Visits the pyramid over `bounds` from `maxZoom` to ``minZoom(of:maxZoom:)``, every tile
    /// once, children before their parent.
    ///
    /// - Parameters:
    ///   - leaf: a finest tile's value read from the source, nil where it has no data.
    ///   - parent: a coarser tile's value from its four children's (in the order top left, top
    ///     right, bottom left, bottom right; nil where a child is empty or outside `bounds`);
    ///     only called when one of them has a value.
    ///   - emit: each tile's value that is not nil, as soon as it is made.
    /// - Returns: the coarsest zoom.
    @discardableResult
    static func build<Value>(
        over bounds: CoordinateBounds, maxZoom: Int, leaf: (TileID) throws -> Value?,
        parent: (TileID, [Value?]) throws -> Value?, emit: (TileID, Value) throws -> Void
    ) throws -> Int {
        let minZoom = minZoom(of: bounds, maxZoom: maxZoom)
        func visit(_ tile: TileID) throws -> Value? {
            let value: Value?
            if tile.z == maxZoom {
                value = try leaf(tile)
            } else {
                var children: [Value?] = []
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let child = TileID(x: tile.x * 2 + dx, y: tile.y * 2 + dy, z: tile.z + 1)
                    children.append(child.bounds.intersects(bounds) ? try visit(child) : nil)
                }
                value = children.contains(where: { $0 != nil }) ? try parent(tile, children) : nil
            }
            if let value { try emit(tile, value) }
            return value
        }
        for root in TileID.covering(bounds, zoom: minZoom) { _ = try visit(root) }
        return minZoom
    }
}
