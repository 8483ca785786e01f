import CairoKit
import Foundation
import GeoCore
import MapRenderer
import Testing

/// The decoded-image cache keeps within its budget and notices a changed file.
@Suite struct RasterCacheTests {
    /// A `width` × 10 PNG of one colour at a new temporary path.
    func image(width: Double, color: Color, at path: String? = nil) throws -> String {
        let canvas = try Canvas(width: width, height: 10)
        canvas.fill(all: color)
        let path =
            path
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString).png").path
        try canvas.write(to: path)
        return path
    }

    @Test func theLeastRecentlyUsedImagesGoFirst() throws {
        // Each 100 × 10 RGBA image is 4,000 bytes; the budget holds two.
        let cache = RasterCache(capacity: 8_000)
        let paths = try (0..<3).map { _ in try image(width: 100, color: .white) }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        _ = try cache.image(at: paths[0])
        _ = try cache.image(at: paths[1])
        // The first is used again, so the second is now the least recently used: it goes.
        _ = try cache.image(at: paths[0])
        _ = try cache.image(at: paths[2])
        #expect(cache.holds(paths[0]) && !cache.holds(paths[1]) && cache.holds(paths[2]))
        #expect(cache.size == 8_000)
        // An image larger than the whole budget is still returned, and kept alone.
        let large = try image(width: 400, color: .black)
        defer { try? FileManager.default.removeItem(atPath: large) }
        #expect(try cache.image(at: large).width == 400)
        #expect(cache.size == 400 * 10 * 4 && cache.holds(large) && !cache.holds(paths[0]))
    }

    @Test func aChangedFileIsDecodedAgain() throws {
        let cache = RasterCache()
        let path = try image(width: 20, color: .white)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try cache.image(at: path).width == 20)
        _ = try image(width: 30, color: .black, at: path)
        #expect(try cache.image(at: path).width == 30)
    }
}
