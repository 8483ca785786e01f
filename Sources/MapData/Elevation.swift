import Foundation
import GeoCore
import ZlibKit

/// Heights from the digital elevation models imported into the store (``ElevationImporter``).
///
/// A model is kept as a pyramid of Web Mercator tiles of ``tileSize`` × ``tileSize`` heights
/// (metres above sea level, 32-bit floats, NaN where the model has no data; rows from the
/// north), in the `elevation_tile` table on either engine: at the zoom whose pixels are nearest
/// the model's in size (``ElevationImporter/zoom(forMetresPerPixel:latitude:)``) and every zoom
/// below, each tile the average of the four under it, so a view reads only what it draws.
public enum Elevation {
    /// Heights a tile side.
    public static let tileSize = 256

    /// A height where a model covers a point.
    public struct Sample: Sendable, Equatable {
        /// Metres above sea level.
        public var metres: Double
        /// The size on the ground of the model's pixels there, metres.
        public var resolution: Double
    }

    /// One imported model: its source, its finest and coarsest zooms and where it is.
    public typealias Model = RasterPyramid

    /// The height at each of `points`, from the finest model covering it (nil where none does).
    ///
    /// - Throws: ``DataError`` when the store cannot be read or a tile is damaged.
    public static func heights(at points: [Coordinate], in store: MapStore) throws(DataError) -> [Sample?] {
        var reader = try Reader(store: store, within: .world)
        guard !reader.models.isEmpty else { return points.map { _ in nil } }
        var samples: [Sample?] = []
        samples.reserveCapacity(points.count)
        for point in points { samples.append(try reader.sample(at: point)) }
        return samples
    }

    /// The heights of tile `tile` from the finest model reaching it: the stored tile at the
    /// model's zooms, resampled (bilinear) from its finest tiles deeper than them and from its
    /// coarsest above them; nil where no model covers it.
    public static func tile(_ tile: TileID, in store: MapStore) throws(DataError) -> [Float]? {
        let models = try store.elevationModels().filter { $0.bounds.intersects(tile.bounds) }
        guard !models.isEmpty else { return nil }
        var reader = TileReader(store: store)
        var heights = [Float](repeating: .nan, count: tileSize * tileSize)
        var any = false
        for model in models {
            if (model.minZoom...model.maxZoom).contains(tile.z) {
                guard let stored = try reader.tile(model: model, tile) else { continue }
                for index in heights.indices where heights[index].isNaN && !stored[index].isNaN {
                    heights[index] = stored[index]
                    any = true
                }
            } else {
                // Deeper than the model, or coarser than its coarsest tile: each pixel's centre
                // sampled from its tiles at the nearest zoom it has.
                let level = min(max(tile.z, model.minZoom), model.maxZoom)
                let count = Double(1 << tile.z) * Double(tileSize)
                for row in 0..<tileSize {
                    for column in 0..<tileSize where heights[row * tileSize + column].isNaN {
                        let x = (Double(tile.x * tileSize + column) + 0.5) / count
                        let y = (Double(tile.y * tileSize + row) + 0.5) / count
                        if let value = try reader.bilinear(worldX: x, worldY: y, model: model, zoom: level) {
                            heights[row * tileSize + column] = Float(value)
                            any = true
                        }
                    }
                }
            }
        }
        return any ? heights : nil
    }

    /// Reads the heights of many points near each other (a picture's pixels), each tile once.
    public struct Reader {
        /// The models that reach the area asked for, finest first.
        public let models: [Model]
        var tiles: TileReader

        /// The models' bounds as world points (0...1 from the north-west): west, north, east,
        /// south.
        let worldBounds: [(west: Double, north: Double, east: Double, south: Double)]

        /// A reader of the models reaching `bounds`.
        public init(store: MapStore, within bounds: CoordinateBounds) throws(DataError) {
            models = try store.elevationModels().filter { $0.bounds.intersects(bounds) }
            tiles = TileReader(store: store)
            worldBounds = models.map { model in
                let northWest = WebMercator.project(
                    Coordinate(
                        latitude: model.bounds.northEast?.latitude ?? 0,
                        longitude: model.bounds.southWest?.longitude ?? 0),
                    worldSize: 1)
                let southEast = WebMercator.project(
                    Coordinate(
                        latitude: model.bounds.southWest?.latitude ?? 0,
                        longitude: model.bounds.northEast?.longitude ?? 0),
                    worldSize: 1)
                return (northWest.x, northWest.y, southEast.x, southEast.y)
            }
        }

        /// The height at the world point (`x`, `y`: 0...1 across the Web Mercator world from
        /// the north-west) from the finest model covering it, read at `zoom` (within the
        /// model's zooms); nil where no model has one. The same as ``height(at:zoom:)`` without
        /// a projection each point: for a picture's pixels, whose world points it lays out.
        public mutating func height(worldX x: Double, worldY y: Double, zoom: Int) throws(DataError) -> Double? {
            for (index, model) in models.enumerated() {
                let box = worldBounds[index]
                guard x >= box.west, x <= box.east, y >= box.north, y <= box.south else { continue }
                let level = min(max(zoom, model.minZoom), model.maxZoom)
                if let value = try tiles.bilinear(worldX: x, worldY: y, model: model, zoom: level) { return value }
            }
            return nil
        }

        /// The height at `point` (metres) from the finest model covering it, read from its
        /// tiles at `zoom` (within the model's zooms: coarser for a distant view); nil where no
        /// model has one.
        public mutating func height(at point: Coordinate, zoom: Int) throws(DataError) -> Double? {
            try found(at: point, zoom: zoom)?.metres
        }

        /// The height at `point` at its finest, with the size of the pixels it was read from.
        public mutating func sample(at point: Coordinate) throws(DataError) -> Sample? {
            guard let (metres, level) = try found(at: point, zoom: .max) else { return nil }
            let resolution = 40_075_016.686 * cos(point.latitude * .pi / 180) / Double((1 << level) * tileSize)
            return Sample(metres: metres, resolution: resolution)
        }

        /// The finest model's height at `point` read at `zoom` (within its zooms), and that zoom.
        private mutating func found(at point: Coordinate, zoom: Int) throws(DataError) -> (metres: Double, zoom: Int)? {
            for model in models where model.bounds.contains(point) {
                let level = min(max(zoom, model.minZoom), model.maxZoom)
                if let value = try tiles.bilinear(at: point, model: model, zoom: level) { return (value, level) }
            }
            return nil
        }
    }

    /// A tile's heights as stored: little-endian 32-bit floats, zlib-compressed.
    static func encode(_ heights: [Float]) throws(DataError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: heights.count * 4)
        for (index, value) in heights.enumerated() {
            let bits = value.bitPattern.littleEndian
            bytes[index * 4] = UInt8(truncatingIfNeeded: bits)
            bytes[index * 4 + 1] = UInt8(truncatingIfNeeded: bits >> 8)
            bytes[index * 4 + 2] = UInt8(truncatingIfNeeded: bits >> 16)
            bytes[index * 4 + 3] = UInt8(truncatingIfNeeded: bits >> 24)
        }
        do { return try Zlib.deflate(bytes) } catch {
            throw DataError(.invalidData, message: "cannot compress an elevation tile", underlying: error)
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, tile: TileID) throws(DataError) -> [Float] {
        let raw: [UInt8]
        do { raw = try Zlib.inflate(bytes, rawSize: tileSize * tileSize * 4) } catch {
            throw DataError(.invalidData, message: "elevation tile \(tile) is damaged", underlying: error)
        }
        guard raw.count == tileSize * tileSize * 4 else {
            throw DataError(
                .invalidData, message: "elevation tile \(tile) has \(raw.count) bytes, not \(tileSize * tileSize * 4)")
        }
        return raw.withUnsafeBytes { buffer in
            (0..<tileSize * tileSize).map {
                Float(bitPattern: UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        }
    }

    /// Reads a query's tiles once each.
    struct TileReader {
        let store: MapStore
        var cache: [Key: [Float]?] = [:]

        struct Key: Hashable {
            var source: Int64
            var tile: TileID
        }

        init(store: MapStore) { self.store = store }

        /// The tile read last: most reads in a row are of one tile.
        var last: (key: Key, heights: [Float]?)?

        mutating func tile(model: Model, _ tile: TileID) throws(DataError) -> [Float]? {
            let key = Key(source: model.source, tile: tile)
            if let last, last.key == key { return last.heights }
            if let cached = cache[key] {
                last = (key, cached)
                return cached
            }
            defer { last = (key, cache[key] ?? nil) }
            // A long run of points (a region's roads) keeps at most 256 tiles (64 MB) at once.
            if cache.count >= 256 { cache.removeAll(keepingCapacity: true) }
            let heights = try store.elevationTile(source: model.source, tile)
            cache[key] = heights
            return heights
        }

        /// The height at `point` at `zoom`, bilinear between the four pixel centres around it;
        /// nil where any of them has no data.
        mutating func bilinear(at point: Coordinate, model: Model, zoom: Int) throws(DataError) -> Double? {
            let world = WebMercator.project(point, worldSize: 1)
            return try bilinear(worldX: world.x, worldY: world.y, model: model, zoom: zoom)
        }

        /// The height at world point (`worldX`, `worldY`: 0...1 from the north-west) at `zoom`,
        /// as ``bilinear(at:model:zoom:)``.
        mutating func bilinear(worldX: Double, worldY: Double, model: Model, zoom: Int) throws(DataError) -> Double? {
            let size = Elevation.tileSize
            let count = (1 << zoom) * size
            let x = worldX * Double(count) - 0.5
            let y = worldY * Double(count) - 0.5
            let (column, row) = (Int(x.rounded(.down)), Int(y.rounded(.down)))
            let (fx, fy) = (x - Double(column), y - Double(row))
            // Most points have all four pixels in one tile: read it once.
            let (inColumn, inRow) = (column % size, row % size)
            if column >= 0, row >= 0, inColumn < size - 1, inRow < size - 1, column < count, row < count {
                guard let heights = try tile(model: model, TileID(x: column / size, y: row / size, z: zoom)) else {
                    return nil
                }
                let index = inRow * size + inColumn
                let (topLeft, topRight) = (heights[index], heights[index + 1])
                let (bottomLeft, bottomRight) = (heights[index + size], heights[index + size + 1])
                guard !topLeft.isNaN, !topRight.isNaN, !bottomLeft.isNaN, !bottomRight.isNaN else { return nil }
                let top = Double(topLeft) + Double(topRight - topLeft) * fx
                let bottom = Double(bottomLeft) + Double(bottomRight - bottomLeft) * fx
                return top + (bottom - top) * fy
            }
            /// The pixel `dx`, `dy` on from the top left one; nil at "no data".
            func corner(_ dx: Int, _ dy: Int) throws(DataError) -> Double? {
                let c = min(max(column + dx, 0), count - 1)
                let r = min(max(row + dy, 0), count - 1)
                let id = TileID(x: c / Elevation.tileSize, y: r / Elevation.tileSize, z: zoom)
                guard let heights = try tile(model: model, id) else { return nil }
                let value = heights[(r % Elevation.tileSize) * Elevation.tileSize + c % Elevation.tileSize]
                return value.isNaN ? nil : Double(value)
            }
            guard let topLeft = try corner(0, 0), let topRight = try corner(1, 0), let bottomLeft = try corner(0, 1),
                let bottomRight = try corner(1, 1)
            else { return nil }
            let top = topLeft + (topRight - topLeft) * fx
            let bottom = bottomLeft + (bottomRight - bottomLeft) * fx
            return top + (bottom - top) * fy
        }
    }
}

extension MapStore {
    /// The elevation models in the store, finest first (then the latest imported).
    public func elevationModels() throws(DataError) -> [Elevation.Model] { try pyramids(of: .elevation) }

    /// One stored elevation tile's heights, nil where the model has none there.
    func elevationTile(source: Int64, _ tile: TileID) throws(DataError) -> [Float]? {
        try pyramidTile(of: .elevation, source: source, tile) { (bytes) throws(DataError) in
            try Elevation.decode(bytes, tile: tile)
        }
    }
}
