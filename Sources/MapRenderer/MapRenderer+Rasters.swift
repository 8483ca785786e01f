import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

extension MapRenderer {
    /// A world raster (plate carrée, -180...180 by 90...-90) reprojected pixel by pixel into
    /// the view, whatever its bearing and tilt.
    func drawRaster(_ name: RasterName, on canvas: Canvas, projection: Projection) throws {
        let image = try rasters.image(at: try store.raster(name).path)
        try canvas.paintPixels { x, y in
            let coordinate = projection.coordinate(for: Point(x: x, y: y))
            return image.sample(u: (coordinate.longitude + 180) / 360, v: (90 - coordinate.latitude) / 180)
        }
    }

    /// Whether the store has the world raster `name` (a store of extracts alone has none).
    func hasRaster(_ name: RasterName) throws -> Bool { try store.rasters().contains { $0.name == name } }
}
