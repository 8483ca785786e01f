import Foundation
import GeoCore
import ZlibKit

/// Heights from the digital elevation models imported into the store (``ElevationImporter``).
///
/// A model is kept as a pyramid of Web Mercator tiles of ``tileSize`` × ``tileSize`` heights
/// (metres above sea level, 32-bit floats, NaN where the model has no data; rows from the
/// north; stored as ``encode(_:)`` says), in the `elevation_tile` table on either engine: at
/// the zoom whose pixels are nearest the model's in size
/// (``ElevationImporter/zoom(forMetresPerPixel:latitude:)``) and every zoom below, each tile
/// the average of the four under it, so a view reads only what it draws.
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

        /// The heights at a lattice of world points (a flat picture's pixels), metres, each as
        /// ``height(worldX:worldY:zoom:)`` gives it (NaN where it gives nil), rows from the top:
        /// the point of column `c` and row `r` is `origin + (c × step.x, r × step.y)`.
        ///
        /// The lattice's columns share their pixels' columns and weights, and its rows theirs,
        /// so each row of the model's pixels is gathered once from its tiles and every height
        /// is four reads and three blends. nil where no model has a height at any point.
        public mutating func heights(
            origin: (x: Double, y: Double), step: (x: Double, y: Double), columns: Int, rows: Int, zoom: Int
        ) throws(DataError) -> [Float]? {
            var heights = [Float](repeating: .nan, count: columns * rows)
            var any = false
            for (index, model) in models.enumerated() {
                let box = worldBounds[index]
                let level = min(max(zoom, model.minZoom), model.maxZoom)
                let axes = Lattice(
                    origin: origin, step: step, columns: columns, rows: rows, zoom: level, box: box)
                guard let axes else { continue }
                any = try tiles.fill(&heights, columns: columns, axes: axes, model: model) || any
            }
            return any ? heights : nil
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

    /// Where a lattice of world points falls in one model's pixels at one zoom: for each
    /// column the pixel column left of it and the weight of the one right of it, for each row
    /// the pixel row above it and the weight of the one below; only the columns and rows inside
    /// the model's bounds.
    struct Lattice {
        /// The zoom of the pixels.
        let zoom: Int
        /// The lattice's columns inside the model's bounds, first and last.
        let columns: ClosedRange<Int>
        /// The lattice's rows inside the model's bounds, first and last.
        let rows: ClosedRange<Int>
        /// For each lattice column (from `columns.lowerBound`), its left pixel column in the
        /// world (clamped to it) and the right one's weight (0...1).
        let left: [Int]
        let rightWeight: [Float]
        /// For each lattice row (from `rows.lowerBound`), its upper pixel row and the lower's
        /// weight.
        let top: [Int]
        let bottomWeight: [Float]

        /// nil where no point of the lattice lies inside `box` (west, north, east, south).
        init?(
            origin: (x: Double, y: Double), step: (x: Double, y: Double), columns: Int, rows: Int, zoom: Int,
            box: (west: Double, north: Double, east: Double, south: Double)
        ) {
            self.zoom = zoom
            let count = (1 << zoom) * Elevation.tileSize
            /// The lattice indices inside `low...high` along one axis, and their pixels.
            func axis(_ start: Double, _ step: Double, _ n: Int, _ low: Double, _ high: Double)
                -> (ClosedRange<Int>, [Int], [Float])?
            {
                var inside: [Int] = []
                var pixels: [Int] = []
                var weights: [Float] = []
                for i in 0..<n {
                    let world = start + Double(i) * step
                    guard world >= low, world <= high else { continue }
                    guard inside.isEmpty || inside[inside.count - 1] == i - 1 else { break }
                    let position = world * Double(count) - 0.5
                    let pixel = Int(position.rounded(.down))
                    inside.append(i)
                    pixels.append(pixel)
                    weights.append(Float(position - Double(pixel)))
                }
                guard let first = inside.first, let last = inside.last else { return nil }
                return (first...last, pixels, weights)
            }
            guard let x = axis(origin.x, step.x, columns, box.west, box.east),
                let y = axis(origin.y, step.y, rows, box.north, box.south)
            else { return nil }
            (self.columns, left, rightWeight) = x
            (self.rows, top, bottomWeight) = y
        }
    }

    /// A tile's heights as stored: a Zstandard frame of the heights' 32-bit patterns, each
    /// the difference (wrapping) from the one left of it in its row (the row's first as it
    /// is), laid out in four planes of bytes (every lowest byte, then every second, …). It is
    /// lossless; the high planes of a smooth surface are nearly all alike, so a tile takes
    /// about half its 256 KB and decodes at memory speed. Tiles of stores written before
    /// (zlib streams of little-endian floats) are read as they are.
    static func encode(_ heights: [Float]) throws(DataError) -> [UInt8] {
        let count = heights.count
        let bytes = [UInt8](unsafeUninitializedCapacity: count * 4) { planes, initialized in
            for row in stride(from: 0, to: count, by: tileSize) {
                var previous: UInt32 = 0
                for index in row..<min(row + tileSize, count) {
                    let bits = heights[index].bitPattern
                    let difference = bits &- previous
                    previous = bits
                    for plane in 0..<4 {
                        planes[plane * count + index] = UInt8(truncatingIfNeeded: difference >> (plane * 8))
                    }
                }
            }
            initialized = count * 4
        }
        do { return try Zstd.compress(bytes, level: 3) } catch {
            throw DataError(.invalidData, message: "cannot compress an elevation tile", underlying: error)
        }
    }

    /// A stored tile's heights (``encode(_:)``, or the zlib floats of older stores).
    static func decode(_ bytes: UnsafeRawBufferPointer, tile: TileID) throws(DataError) -> [Float] {
        guard Zstd.isFrame(bytes) else { return try decodeZlib(bytes, tile: tile) }
        let count = tileSize * tileSize
        var failure: ZlibError?
        // Bytes need no initializing: the frame fills every one, or the tile is refused.
        let planes = [UInt8](unsafeUninitializedCapacity: count * 4) { planes, initialized in
            do throws(ZlibError) {
                try Zstd.decompress(bytes, into: UnsafeMutableRawBufferPointer(planes))
            } catch { failure = error }
            initialized = count * 4
        }
        if let failure {
            throw DataError(.invalidData, message: "elevation tile \(tile) is damaged", underlying: failure)
        }
        return [Float](unsafeUninitializedCapacity: count) { heights, initialized in
            planes.withUnsafeBufferPointer { planes in
                let (p0, p1, p2, p3) = (
                    planes.baseAddress!, planes.baseAddress! + count, planes.baseAddress! + 2 * count,
                    planes.baseAddress! + 3 * count
                )
                for row in stride(from: 0, to: count, by: tileSize) {
                    var bits: UInt32 = 0
                    for index in row..<row + tileSize {
                        let difference =
                            UInt32(p0[index]) | UInt32(p1[index]) << 8 | UInt32(p2[index]) << 16
                            | UInt32(p3[index]) << 24
                        bits = bits &+ difference
                        heights[index] = Float(bitPattern: bits)
                    }
                }
            }
            initialized = count
        }
    }

    /// A tile of the zlib-compressed little-endian floats stores held before.
    private static func decodeZlib(_ bytes: UnsafeRawBufferPointer, tile: TileID) throws(DataError) -> [Float] {
        let count = tileSize * tileSize
        var failure: ZlibError?
        // The little-endian floats inflated straight into the tile's numbers.
        var heights = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Floats need no initializing: inflate writes every byte, or the tile is refused.
            do throws(ZlibError) {
                try Zlib.inflate(bytes, into: UnsafeMutableRawBufferPointer(buffer))
            } catch { failure = error }
            initialized = count
        }
        if let failure {
            throw DataError(.invalidData, message: "elevation tile \(tile) is damaged", underlying: failure)
        }
        #if _endian(big)
            for index in heights.indices {
                heights[index] = Float(bitPattern: UInt32(littleEndian: heights[index].bitPattern))
            }
        #endif
        return heights
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

        /// The pixels of world row `row` (clamped to the world) from world column `first`
        /// through `last` (each clamped), NaN where the model has no tile; one tile read a
        /// 256 pixels.
        mutating func pixelRow(_ row: Int, from first: Int, through last: Int, model: Model, zoom: Int)
            throws(DataError) -> [Float]
        {
            let size = Elevation.tileSize
            let count = (1 << zoom) * size
            let r = min(max(row, 0), count - 1)
            var line = [Float](repeating: .nan, count: last - first + 1)
            var column = first
            while column <= last {
                let c = min(max(column, 0), count - 1)
                // The run of lattice columns that read one tile: up to its edge, or all the
                // clamped ones beyond the world's.
                let runEnd =
                    column < 0 ? min(last, -1) : c == count - 1 ? last : min(last, column + size - 1 - c % size)
                if let heights = try tile(model: model, TileID(x: c / size, y: r / size, z: zoom)) {
                    let base = (r % size) * size
                    if column >= 0 && runEnd < count {
                        // Inside the world: the run is one stretch of the tile's row.
                        line.withUnsafeMutableBufferPointer { line in
                            heights.withUnsafeBufferPointer { heights in
                                let source = heights.baseAddress! + base + c % size
                                (line.baseAddress! + column - first).update(from: source, count: runEnd - column + 1)
                            }
                        }
                    } else {
                        for at in column...runEnd {
                            line[at - first] = heights[base + min(max(at, 0), count - 1) % size]
                        }
                    }
                }
                column = runEnd + 1
            }
            return line
        }

        /// Fills the NaN heights of a lattice `columns` wide with the model's, bilinear between
        /// the four pixel centres around each point (NaN where any of them has none); whether
        /// any was filled.
        mutating func fill(_ heights: inout [Float], columns: Int, axes: Lattice, model: Model) throws(DataError)
            -> Bool
        {
            guard let firstPixel = axes.left.first, let lastPixel = axes.left.last.map({ $0 + 1 }) else { return false }
            var any = false
            // The two pixel rows a lattice row reads, kept while the next rows read them too.
            var upper: (row: Int, line: [Float])?
            var lower: (row: Int, line: [Float])?
            func line(_ row: Int) throws(DataError) -> [Float] {
                if let upper, upper.row == row { return upper.line }
                if let lower, lower.row == row { return lower.line }
                return try pixelRow(row, from: firstPixel, through: lastPixel, model: model, zoom: axes.zoom)
            }
            for (rowIndex, row) in axes.rows.enumerated() {
                let pixelRow = axes.top[rowIndex]
                let above = try line(pixelRow)
                let below = try line(pixelRow + 1)
                (upper, lower) = ((pixelRow, above), (pixelRow + 1, below))
                let fy = axes.bottomWeight[rowIndex]
                let written = heights.withUnsafeMutableBufferPointer { out in
                    above.withUnsafeBufferPointer { above in
                        below.withUnsafeBufferPointer { below in
                            axes.left.withUnsafeBufferPointer { left in
                                axes.rightWeight.withUnsafeBufferPointer { rightWeight in
                                    let target = out.baseAddress! + row * columns + axes.columns.lowerBound
                                    var written = false
                                    for index in 0..<left.count where target[index].isNaN {
                                        let at = left[index] - firstPixel
                                        let fx = rightWeight[index]
                                        let top = above[at] + (above[at + 1] - above[at]) * fx
                                        let bottom = below[at] + (below[at + 1] - below[at]) * fx
                                        let value = top + (bottom - top) * fy
                                        // NaN where any of the four is: the arithmetic carries it.
                                        target[index] = value
                                        written = written || !value.isNaN
                                    }
                                    return written
                                }
                            }
                        }
                    }
                }
                any = any || written
            }
            return any
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
