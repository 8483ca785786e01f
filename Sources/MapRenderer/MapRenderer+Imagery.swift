import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

/// The aerial images imported into the store (``Imagery``), drawn for the satellite and
/// hybrid maps over the world's imagery: each image read from its tiles at the zoom nearest
/// the picture's pixels, the finer over the coarser, and blended into what lies under it over
/// ``feather`` points at its edges.
struct ImageryPainter {
    /// The images in view, finest first.
    let images: [RasterPyramid]
    let store: MapStore

    /// How far inside an image's edge it fades in from what lies under it: 12 points.
    static let feather = 12.0

    /// The painter of the images reaching `bounds`, nil where none does.
    init?(store: MapStore, bounds: CoordinateBounds) throws {
        images = try store.imagery().filter { $0.bounds.intersects(bounds) }
        guard !images.isEmpty else { return nil }
        self.store = store
    }

    /// Paints the images over the canvas, whose view `projection` shows at map zoom `zoom`.
    ///
    /// The images are sampled on the canvas's device pixels and ``feather`` points beyond
    /// each edge, so an image's fade at its edge is the same in every tile that shows it.
    func paint(on canvas: Canvas, projection: Projection, zoom: Double) throws {
        let scale = canvas.scale
        let margin = Int((Self.feather * scale).rounded(.up))
        let width = Int((canvas.width * scale).rounded(.up)) + 2 * margin
        let height = Int((canvas.height * scale).rounded(.up)) + 2 * margin
        // Where each device pixel's centre is in the world (0...1 across, from the north-west).
        var worldX = [Double](repeating: 0, count: width * height)
        var worldY = [Double](repeating: 0, count: width * height)
        for row in 0..<height {
            for column in 0..<width {
                let point = Point(
                    x: (Double(column - margin) + 0.5) / scale, y: (Double(row - margin) + 0.5) / scale)
                let world = WebMercator.project(projection.coordinate(for: point), worldSize: 1)
                worldX[row * width + column] = world.x
                worldY[row * width + column] = world.y
            }
        }
        // The layers composited from the coarsest up, premultiplied by alpha, 0...1.
        var composite = [Float](repeating: 0, count: width * height * 4)
        var drawn = false
        let level = Int((zoom + log2(scale)).rounded())
        for image in images.reversed() {
            let layer = try sample(image, zoom: min(max(level, image.minZoom), image.maxZoom), worldX, worldY)
            guard layer.contains(where: { $0 > 0 }) else { continue }
            let alpha = Self.feathered(layer, width: width, height: height, by: Double(margin))
            for index in 0..<width * height where alpha[index] > 0 {
                let a = alpha[index]
                for channel in 0..<3 {
                    composite[index * 4 + channel] =
                        layer[index * 4 + channel] * a + composite[index * 4 + channel] * (1 - a)
                }
                composite[index * 4 + 3] = a + composite[index * 4 + 3] * (1 - a)
            }
            drawn = true
        }
        guard drawn else { return }
        try canvas.paintPixels { x, y in
            let column = min(max(Int(x * scale), 0), width - 2 * margin - 1) + margin
            let row = min(max(Int(y * scale), 0), height - 2 * margin - 1) + margin
            let index = (row * width + column) * 4
            let a = composite[index + 3]
            guard a > 0.002 else { return nil }
            func byte(_ value: Float) -> UInt8 { UInt8(min(max(value / a * 255, 0), 255).rounded()) }
            return Pixel(
                red: byte(composite[index]), green: byte(composite[index + 1]), blue: byte(composite[index + 2]),
                alpha: UInt8(min(max(a * 255, 0), 255).rounded()))
        }
    }

    /// `image`'s colours at each world point, read from its tiles at `zoom` (bilinear between
    /// the four pixel centres around it): red, green, blue (straight) and alpha, 0...1, a pixel.
    private func sample(_ image: RasterPyramid, zoom: Int, _ worldX: [Double], _ worldY: [Double]) throws
        -> [Float]
    {
        let count = (1 << zoom) * Imagery.tileSize
        var tiles: [TileID: RasterImage?] = [:]
        func tile(_ id: TileID) throws -> RasterImage? {
            if let cached = tiles[id] { return cached }
            let decoded = try store.imageryTile(source: image.source, id).map { try RasterImage(bytes: $0) }
            tiles[id] = decoded
            return decoded
        }
        /// The pixel at world pixel (`column`, `row`), premultiplied; clear outside the image.
        func pixel(_ column: Int, _ row: Int) throws -> (Float, Float, Float, Float) {
            let c = (column % count + count) % count
            guard row >= 0, row < count else { return (0, 0, 0, 0) }
            let size = Imagery.tileSize
            guard let found = try tile(TileID(x: c / size, y: row / size, z: zoom)) else { return (0, 0, 0, 0) }
            let p = found.pixel(x: c % size, y: row % size)
            let a = Float(p.alpha) / 255
            return (Float(p.red) / 255 * a, Float(p.green) / 255 * a, Float(p.blue) / 255 * a, a)
        }
        var layer = [Float](repeating: 0, count: worldX.count * 4)
        for index in worldX.indices {
            let x = worldX[index] * Double(count) - 0.5
            let y = worldY[index] * Double(count) - 0.5
            let (column, row) = (Int(x.rounded(.down)), Int(y.rounded(.down)))
            let (fx, fy) = (Float(x - Double(column)), Float(y - Double(row)))
            let (p00, p10) = (try pixel(column, row), try pixel(column + 1, row))
            let (p01, p11) = (try pixel(column, row + 1), try pixel(column + 1, row + 1))
            func mix(_ a: Float, _ b: Float, _ c: Float, _ d: Float) -> Float {
                let top = a + (b - a) * fx
                return top + (c + (d - c) * fx - top) * fy
            }
            let alpha = mix(p00.3, p10.3, p01.3, p11.3)
            guard alpha > 0 else { continue }
            layer[index * 4] = mix(p00.0, p10.0, p01.0, p11.0) / alpha
            layer[index * 4 + 1] = mix(p00.1, p10.1, p01.1, p11.1) / alpha
            layer[index * 4 + 2] = mix(p00.2, p10.2, p01.2, p11.2) / alpha
            layer[index * 4 + 3] = alpha
        }
        return layer
    }

    /// Each pixel's alpha faded by its distance from the nearest uncovered pixel (alpha 0):
    /// full `feather` pixels in, linearly less nearer the edge (chamfer distances: 1 along a row
    /// or column, √2 diagonally). Returns the alphas, one a pixel.
    static func feathered(_ layer: [Float], width: Int, height: Int, by feather: Double) -> [Float] {
        let far = Float(feather) + 2
        var distance = [Float](repeating: far, count: width * height)
        for index in distance.indices where layer[index * 4 + 3] <= 0 { distance[index] = 0 }
        let diagonal = Float(2.0.squareRoot())
        // Forward from the top left, then back from the bottom right.
        for row in 0..<height {
            for column in 0..<width {
                let index = row * width + column
                var d = distance[index]
                guard d > 0 else { continue }
                if column > 0 { d = min(d, distance[index - 1] + 1) }
                if row > 0 {
                    d = min(d, distance[index - width] + 1)
                    if column > 0 { d = min(d, distance[index - width - 1] + diagonal) }
                    if column < width - 1 { d = min(d, distance[index - width + 1] + diagonal) }
                }
                distance[index] = d
            }
        }
        for row in stride(from: height - 1, through: 0, by: -1) {
            for column in stride(from: width - 1, through: 0, by: -1) {
                let index = row * width + column
                var d = distance[index]
                guard d > 0 else { continue }
                if column < width - 1 { d = min(d, distance[index + 1] + 1) }
                if row < height - 1 {
                    d = min(d, distance[index + width] + 1)
                    if column < width - 1 { d = min(d, distance[index + width + 1] + diagonal) }
                    if column > 0 { d = min(d, distance[index + width - 1] + diagonal) }
                }
                distance[index] = d
            }
        }
        let span = Float(max(feather, 1))
        return distance.indices.map { layer[$0 * 4 + 3] * min(1, distance[$0] / span) }
    }
}
