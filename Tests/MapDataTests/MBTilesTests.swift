import Foundation
import GeoCore
import MapData
import SQLiteKit
import Testing

struct MBTilesTests {
    func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("tiles.mbtiles").path
    }

    let metadata = MBTilesWriter.Metadata(
        name: "test", description: "a test", attribution: "© OpenStreetMap contributors",
        bounds: CoordinateBounds(
            southWest: Coordinate(latitude: 60.16, longitude: 24.93),
            northEast: Coordinate(latitude: 60.18, longitude: 24.96)), zooms: 12...16)

    @Test func writesTheStandardTablesWithRowsCountedFromTheSouth() throws {
        let path = try temporaryPath()
        let writer = try MBTilesWriter(path: path, metadata: metadata)
        try writer.add(TileID(x: 9326, y: 4740, z: 14), data: [1, 2, 3])
        try writer.add(TileID(x: 0, y: 0, z: 2), data: [4])
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.finish()
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let rows = try database.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY 1")
            .rows()
        #expect(
            rows == [
                [.integer(2), .integer(0), .integer(3), .blob([4])],
                [.integer(14), .integer(9326), .integer(16383 - 4740), .blob([1, 2, 3])],
            ])
        let value = try database.prepare("SELECT value FROM metadata WHERE name = ?")
        #expect(try value.rows([.text("format")]) == [[.text("png")]])
        #expect(try value.rows([.text("bounds")]) == [[.text("24.930000,60.160000,24.960000,60.180000")]])
        #expect(try value.rows([.text("minzoom")]) == [[.text("12")]])
        #expect(try value.rows([.text("maxzoom")]) == [[.text("16")]])
        #expect(try value.rows([.text("center")]) == [[.text("24.945000,60.170000,14")]])
    }

    @Test func anUnfinishedFileLeavesTheOldOneAndNoTemporaryFile() throws {
        let path = try temporaryPath()
        let first = try MBTilesWriter(path: path, metadata: metadata)
        try first.add(TileID(x: 1, y: 1, z: 2), data: [7])
        try first.finish()
        do {
            let second = try MBTilesWriter(path: path, metadata: metadata)
            try second.add(TileID(x: 2, y: 2, z: 2), data: [8])
            // Dropped without finish(), as when rendering fails half-way.
        }
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["tiles.mbtiles"])
        let rows = try SQLiteDatabase(path: path, mode: .readOnly).prepare("SELECT tile_data FROM tiles").rows()
        #expect(rows == [[.blob([7])]])
    }

    @Test func anUnwritableTargetIsAClearError() {
        #expect(throws: DataError.self) {
            try MBTilesWriter(path: "/nonexistent-directory/tiles.mbtiles", metadata: metadata)
        }
    }
}

struct TrafficFeedTests {
    @Test func readsWaysAndLevelsSkippingCommentsAndTheHeader() throws {
        let feed = try TrafficFeed(
            text: "# Helsinki, 08:00\nway_id,congestion\n4247642,heavy\n\n26428941, Moderate \n4247642,stopped\n")
        #expect(feed.levels == [4_247_642: .stopped, 26_428_941: .moderate])
        #expect(feed[way: 26_428_941] == .moderate && feed[way: 1] == nil)
    }

    @Test(arguments: [
        (
            "way_id,congestion\n12,jammed\n",
            "feed.csv:2: 'jammed' is not a congestion level (free, moderate, heavy, stopped)"
        ),
        ("12,heavy,extra\n", "feed.csv:1: expected WAY_ID,LEVEL, found 3 fields"),
        ("12,heavy\nway/13,free\n", "feed.csv:2: 'way/13' is not an OpenStreetMap way id"),
        ("12,heavy\nway_id,congestion\n", "feed.csv:2: 'way_id' is not an OpenStreetMap way id"),
    ])
    func badLinesAreErrorsNamingTheLine(text: String, message: String) {
        #expect {
            try TrafficFeed(text: text, path: "feed.csv")
        } throws: { error in
            (error as? DataError)?.message.hasPrefix(message) == true
        }
    }

    @Test func theExampleFeedReads() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Examples/helsinki-traffic.csv"
        ).path
        let feed = try TrafficFeed(contentsOf: path)
        #expect(feed.levels.count > 300 && Set(feed.levels.values) == Set(TrafficFeed.Congestion.allCases))
    }
}
