import Foundation
import GeoCore
import Testing

@testable import VectorTiles

/// PMTiles v3: tile IDs along the Hilbert curve, directories, and archives that read back.
@Suite struct PMTilesTests {
    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)-\(name)").path
    }

    /// The specification's numbering: 0/0/0 is 0; zoom 1 runs 0/0, 0/1, 1/1, 1/0 as 1 to 4;
    /// zoom 2 starts at 5.
    @Test func tileIDsFollowTheSpecification() {
        #expect(PMTiles.tileID(TileID(x: 0, y: 0, z: 0)) == 0)
        #expect(PMTiles.tileID(TileID(x: 0, y: 0, z: 1)) == 1)
        #expect(PMTiles.tileID(TileID(x: 0, y: 1, z: 1)) == 2)
        #expect(PMTiles.tileID(TileID(x: 1, y: 1, z: 1)) == 3)
        #expect(PMTiles.tileID(TileID(x: 1, y: 0, z: 1)) == 4)
        #expect(PMTiles.tileID(TileID(x: 0, y: 0, z: 2)) == 5)
        #expect(PMTiles.tileID(TileID(x: 3, y: 0, z: 2)) == 20)
        var seen: Set<UInt64> = []
        for z in 0...6 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let tile = TileID(x: x, y: y, z: z)
                    let id = PMTiles.tileID(tile)
                    #expect(PMTiles.tile(id: id) == tile)
                    seen.insert(id)
                }
            }
        }
        // Every ID from 0 up to the last of zoom 6, once each.
        #expect(seen == Set(0..<UInt64(5461)))
        // Central Helsinki at zoom 14, as the `pmtiles` package numbers it.
        let deep = TileID(x: 9327, y: 4742, z: 14)
        #expect(PMTiles.tileID(deep) == 319_433_622)
        #expect(PMTiles.tile(id: PMTiles.tileID(deep)) == deep)
    }

    @Test func directoriesReadBackWithRunsAndGaps() throws {
        let entries = [
            PMTiles.Entry(tileID: 0, offset: 0, length: 10, runLength: 1),
            PMTiles.Entry(tileID: 1, offset: 10, length: 5, runLength: 3),
            PMTiles.Entry(tileID: 9, offset: 0, length: 10, runLength: 1),
            PMTiles.Entry(tileID: 1_000_000, offset: 15, length: 20, runLength: 1),
        ]
        #expect(try PMTiles.deserialize(PMTiles.serialize(entries)) == entries)
        #expect(PMTilesArchive.find(2, in: entries) == entries[1])
        #expect(PMTilesArchive.find(4, in: entries) == nil)
        #expect(PMTilesArchive.find(9, in: entries) == entries[2])
    }

    /// 30,000 tiles of distinct content need leaf directories; runs of one content become one
    /// entry; every tile reads back, and missing ones are nil.
    @Test func archivesReadBackThroughLeavesRunsAndDeduplication() throws {
        let path = temporary("archive.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try PMTilesWriter(path: path)
        var expected: [TileID: [UInt8]] = [:]
        // Zoom 8: distinct tiles; zoom 9: 2,000 tiles of the same sea.
        for x in 0..<150 {
            for y in 0..<200 {
                let tile = TileID(x: x, y: y, z: 8)
                let bytes = Array("tile \(x)/\(y) ".utf8) + [UInt8(x % 251), UInt8(y % 251)]
                try writer.add(tile, bytes: bytes)
                expected[tile] = bytes
            }
        }
        let sea = [UInt8](repeating: 7, count: 300)
        for x in 0..<40 {
            for y in 0..<50 {
                try writer.add(TileID(x: x, y: y, z: 9), bytes: sea)
                expected[TileID(x: x, y: y, z: 9)] = sea
            }
        }
        try writer.finish(
            header: PMTilesWriter.Header(zooms: 8...9, bounds: CoordinateBounds.world),
            metadata: #"{"name":"test","vector_layers":[]}"#)
        let archive = try PMTilesArchive(path: path)
        #expect(archive.zooms == 8...9)
        #expect(archive.metadata.contains("\"vector_layers\""))
        for (tile, bytes) in expected { #expect(try archive.tile(tile) == bytes) }
        #expect(try archive.tile(TileID(x: 199, y: 0, z: 8)) == nil)
        #expect(try archive.tile(TileID(x: 0, y: 0, z: 10)) == nil)
        // The header's counts: every tile addressed, the sea's once among the contents.
        let head = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 127)
        func u64(_ offset: Int) -> UInt64 { head[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        #expect(u64(72) == 32_000)
        #expect(u64(88) == 30_001)
        #expect(u64(80) < 32_000)
        #expect(u64(48) > 0, "30,000 entries do not fit in the root directory")
    }

    @Test func aFileThatIsNotPMTilesIsRefused() throws {
        let path = temporary("not.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x50, count: 200).write(to: URL(fileURLWithPath: path))
        do {
            _ = try PMTilesArchive(path: path)
            Issue.record("a file without the magic was read")
        } catch {
            #expect(error.message.contains("not a PMTiles archive"))
        }
        #expect(throws: PMTilesError.self) { try PMTilesArchive(path: path + ".missing") }
        // A location is a file unless it is an http(s) URL; a host that cannot be reached says so.
        #expect(throws: PMTilesError.self) { try PMTilesArchive(location: path) }
        do {
            _ = try PMTilesArchive(location: "http://127.0.0.1:1/archive.pmtiles")
            Issue.record("an archive was read from a closed port")
        } catch {
            #expect(error.message.hasPrefix("GET http://127.0.0.1:1/archive.pmtiles bytes=0-0 failed"), "\(error)")
        }
    }

    @Test func anUnfinishedArchiveLeavesNothingBehind() throws {
        let path = temporary("unfinished.pmtiles")
        do {
            let writer = try PMTilesWriter(path: path)
            try writer.add(TileID(x: 0, y: 0, z: 0), bytes: [1, 2, 3])
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(name) }.isEmpty)
    }
}
