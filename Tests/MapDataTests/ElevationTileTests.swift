import Foundation
import GeoCore
import TestSupport
import Testing
import ZlibKit

@testable import MapData

/// How an elevation model's tiles are kept and read: every height back bit for bit, tiles of
/// older stores still read, damage refused by name, and a picture's lattice of points read
/// in rows equal to reading each point.
@Suite struct ElevationTileTests {
    /// A tile of a rolling surface with every kind of value a model holds: negatives, no data
    /// (NaN), a cliff, fractions, and the extremes of the type.
    static func surface() -> [Float] {
        var generator = SeededGenerator(seed: 7)
        var heights = (0..<Elevation.tileSize * Elevation.tileSize).map { index -> Float in
            let (row, column) = (Double(index / Elevation.tileSize), Double(index % Elevation.tileSize))
            return Float(300 * sin(row / 40) * cos(column / 25) + 0.37 * column - 12)
                + Float.random(in: -0.5...0.5, using: &generator)
        }
        for index in 1_000..<1_300 { heights[index] = .nan }
        for index in stride(from: 40_000, to: 40_256, by: 1) { heights[index] += 2_500 }
        heights[5] = -Float.greatestFiniteMagnitude
        heights[6] = .greatestFiniteMagnitude
        heights[7] = -0.0
        heights[8] = .leastNonzeroMagnitude
        return heights
    }

    @Test func storedTilesKeepEveryHeightBitForBit() throws {
        let heights = Self.surface()
        let stored = try Elevation.encode(heights)
        #expect(stored.withUnsafeBytes { Zstd.isFrame($0) })
        // Smaller than the raw 256 KB, and than the zlib floats stores held before.
        let raw = heights.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value.bitPattern >> ($0 * 8)) } }
        #expect(stored.count < (try Zlib.deflate(raw)).count)
        let back = try stored.withUnsafeBytes { try Elevation.decode($0, tile: TileID(x: 1, y: 2, z: 3)) }
        #expect(back.map(\.bitPattern) == heights.map(\.bitPattern))
    }

    @Test func tilesOfOlderStoresStillRead() throws {
        let heights = Self.surface()
        let raw = heights.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value.bitPattern >> ($0 * 8)) } }
        let older = try Zlib.deflate(raw)
        let back = try older.withUnsafeBytes { try Elevation.decode($0, tile: TileID(x: 1, y: 2, z: 3)) }
        #expect(back.map(\.bitPattern) == heights.map(\.bitPattern))
    }

    @Test func aDamagedTileIsRefusedByName() throws {
        var stored = try Elevation.encode(Self.surface())
        let tile = TileID(x: 4, y: 5, z: 6)
        let cut = Array(stored.prefix(stored.count - 100))
        let error = #expect(throws: DataError.self) { try cut.withUnsafeBytes { try Elevation.decode($0, tile: tile) } }
        #expect(error?.message.contains("elevation tile \(tile) is damaged") == true)
        for index in 20..<200 { stored[index] = 0 }
        #expect(throws: DataError.self) { try stored.withUnsafeBytes { try Elevation.decode($0, tile: tile) } }
        let junk: [UInt8] = [0x78, 0x9C, 1, 2, 3]
        #expect(throws: DataError.self) { try junk.withUnsafeBytes { try Elevation.decode($0, tile: tile) } }
    }

    /// A lattice of world points: its north-west corner, its step (world units, 0...1 across the
    /// world; rows 0.8 of it), its size and the zoom it is read at.
    struct Lattice: Sendable, CustomTestStringConvertible {
        var latitude: Double
        var longitude: Double
        var step: Double
        var columns: Int
        var rows: Int
        var zoom: Int
        var testDescription: String { "\(columns)×\(rows) from \(latitude),\(longitude) at zoom \(zoom)" }
    }

    static let lattices: [Lattice] = [
        Lattice(latitude: 43.60, longitude: 7.40, step: 1.0 / 2_097_152, columns: 300, rows: 200, zoom: 11),
        Lattice(latitude: 43.02, longitude: 6.97, step: 1.0 / 1_048_576, columns: 200, rows: 150, zoom: 11),
        Lattice(latitude: 43.95, longitude: 7.95, step: 1.0 / 4_194_304, columns: 180, rows: 120, zoom: 12),
        Lattice(latitude: 43.50, longitude: 7.10, step: 1.0 / 131_072, columns: 100, rows: 90, zoom: 8),
        Lattice(latitude: 43.99, longitude: 7.99, step: 1.0 / 262_144, columns: 64, rows: 64, zoom: 9),
        Lattice(latitude: 43.30, longitude: 7.30, step: 1.0 / 700_000, columns: 257, rows: 33, zoom: 10),
    ]

    /// Lattices inside the model, across its edge (no height beyond it), finer and coarser
    /// than its pixels, at its zoom, above it and deeper: each height the point's own reading.
    @Test(arguments: lattices)
    func aLatticeReadsWhatEachPointReads(lattice case: Lattice) throws {
        let (latitude, longitude, step, columns, rows, zoom) = (
            `case`.latitude, `case`.longitude, `case`.step, `case`.columns, `case`.rows, `case`.zoom
        )
        let store = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-lattice-\(UUID().uuidString).sqlite"
        ).path
        defer { try? FileManager.default.removeItem(atPath: store) }
        _ = try ElevationImporter.importModel(try FixtureElevation.writeHGT(), into: store)
        let mapStore = try MapStore(path: store)
        let origin = WebMercator.project(Coordinate(latitude: latitude, longitude: longitude), worldSize: 1)
        var reader = try Elevation.Reader(store: mapStore, within: .world)
        let lattice = try #require(
            try reader.heights(
                origin: (origin.x, origin.y), step: (step, step * 0.8), columns: columns, rows: rows, zoom: zoom))
        var pointReader = try Elevation.Reader(store: mapStore, within: .world)
        var (outside, inside) = (0, 0)
        for row in 0..<rows {
            for column in 0..<columns {
                let expected = try pointReader.height(
                    worldX: origin.x + Double(column) * step, worldY: origin.y + Double(row) * step * 0.8, zoom: zoom)
                let found = lattice[row * columns + column]
                if let expected {
                    inside += 1
                    #expect(abs(Double(found) - expected) < 0.01, "column \(column), row \(row)")
                } else {
                    outside += 1
                    #expect(found.isNaN, "column \(column), row \(row)")
                }
            }
        }
        #expect(inside > 0)
    }
}
