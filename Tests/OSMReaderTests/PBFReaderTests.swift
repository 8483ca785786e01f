import Foundation
import GeoCore
import OSMReader
import TestSupport
import Testing

/// Exact decoding of files written by the tests' own PBF writer, and refusal of broken ones.
@Suite struct PBFReaderTests {
    let dense = [
        TestNode(
            id: 100, latitude: 601_699_000, longitude: 249_384_000,
            tags: [("railway", "station"), ("name", "Helsinki")]),
        TestNode(id: 101, latitude: 601_700_000, longitude: 249_385_000),
        // A smaller id and negative coordinates: the deltas go down.
        TestNode(id: 99, latitude: -338_683_000, longitude: -1_512_086_000, tags: [("name", "Syd")]),
    ]
    let ways = [
        TestWay(
            id: 5_000_000_001, refs: [100, 101, 99, 100], tags: [("highway", "residential"), ("name", "Kaivokatu")])
    ]
    let relations = [
        TestRelation(
            id: 42, members: [(1, 5_000_000_001, "outer"), (0, 100, "label"), (2, 7, "subarea")],
            tags: [("type", "multipolygon")])
    ]

    func read(_ bytes: [UInt8]) throws -> (PBFReader, [OSMBlock]) {
        let path = PBFWriter.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try PBFReader(path: path)
        var blocks: [OSMBlock] = []
        try reader.forEachBlock { blocks.append($0) }
        return (reader, blocks)
    }

    @Test(arguments: [true, false])
    func decodesEveryElementExactly(compressed: Bool) throws {
        let plain = [TestNode(id: -7, latitude: 1, longitude: -1, tags: [("amenity", "cafe")])]
        let (reader, blocks) = try read(
            PBFWriter.file(dense: dense, plain: plain, ways: ways, relations: relations, compress: compressed))
        #expect(reader.header.requiredFeatures == ["OsmSchema-V0.6", "DenseNodes"])
        #expect(reader.header.writingProgram == "openmaps-tests")
        #expect(reader.header.bounds?.southWest == Coordinate(latitude: 60.16, longitude: 24.93))
        let block = try #require(blocks.first)
        #expect(blocks.count == 1 && block.index == 1)
        #expect(block.nodes.map(\.id) == [100, 101, 99, -7])
        #expect(block.nodes[0].coordinate == Coordinate(latitude: 60.1699, longitude: 24.9384))
        #expect(block.nodes[2].latitudeNano == -33_868_300_000 && block.nodes[2].longitudeNano == -151_208_600_000)
        #expect(
            block.nodes[0].tags.map(\.key) == ["railway", "name"]
                && block.nodes[0].tags.map(\.value) == ["station", "Helsinki"])
        #expect(block.nodes[1].tags.isEmpty)
        #expect(block.nodes[3].tags.first?.value == "cafe" && block.nodes[3].latitudeNano == 100)
        let way = try #require(block.ways.first)
        #expect(way.id == 5_000_000_001 && way.nodeIDs == [100, 101, 99, 100])
        #expect(way.tags.map(\.value) == ["residential", "Kaivokatu"])
        let relation = try #require(block.relations.first)
        #expect(relation.members.map(\.type) == [.way, .node, .relation])
        #expect(relation.members.map(\.id) == [5_000_000_001, 100, 7])
        #expect(relation.members.map(\.role) == ["outer", "label", "subarea"])
    }

    @Test func onlyTheKindsAskedForAreDecoded() throws {
        let file = TestExtracts.path(of: "monaco-centre.osm.pbf")
        let reader = try OSMFile(path: file)
        var all: [Int64] = []
        var nodes = 0
        try reader.forEachBlock { block in
            all += block.relations.map(\.id)
            nodes += block.nodes.count
        }
        var relations: [OSMRelation] = []
        var others = 0
        try reader.forEachBlock(only: [.relation]) { block in
            relations += block.relations
            others += block.nodes.count + block.ways.count
        }
        #expect(!all.isEmpty && nodes > 1000)
        #expect(relations.map(\.id) == all && others == 0)
        #expect(relations.allSatisfy { !$0.members.isEmpty })
        var ways = 0
        var relationsSeen = 0
        var nodesSeen = 0
        try reader.forEachBlock(only: [.node, .way]) { block in
            ways += block.ways.count
            nodesSeen += block.nodes.count
            relationsSeen += block.relations.count
        }
        #expect(ways > 100 && nodesSeen == nodes && relationsSeen == 0)
    }

    @Test func summaryCounts() throws {
        let path = PBFWriter.temporaryFile(PBFWriter.file(dense: dense, ways: ways, relations: relations))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let summary = try PBFReader(path: path).summary()
        #expect(summary == PBFReader.Summary(blocks: 1, nodes: 3, ways: 1, relations: 1))
    }

    @Test func unsupportedRequiredFeatureIsRefused() {
        let bytes = PBFWriter.file(dense: dense, required: ["OsmSchema-V0.6", "Sort.Geographic.Future"])
        let path = PBFWriter.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: OSMReaderError.self) { try PBFReader(path: path) }
        do {
            _ = try PBFReader(path: path)
        } catch {
            #expect(error.kind == .unsupported && error.block == 0)
        }
    }

    /// Every prefix of a valid file either reads cleanly (cut at a block boundary) or throws
    /// a truncation or format error; none crashes.
    @Test func everyTruncationIsAnErrorNotACrash() throws {
        let bytes = PBFWriter.file(dense: dense, ways: ways, relations: relations)
        var errors = 0
        for length in stride(from: 0, to: bytes.count, by: 1) {
            let path = PBFWriter.temporaryFile(Array(bytes.prefix(length)))
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                let reader = try PBFReader(path: path)
                _ = try reader.summary()
            } catch let error as OSMReaderError {
                errors += 1
                #expect(error.offset <= length, "offset \(error.offset) beyond the \(length) bytes read")
            }
        }
        #expect(errors >= bytes.count - 2)
    }

    @Test func truncatedBlobNamesItsOffsetAndBlock() throws {
        let bytes = PBFWriter.file(dense: dense)
        let path = PBFWriter.temporaryFile(Array(bytes.dropLast(5)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try PBFReader(path: path)
        do {
            _ = try reader.summary()
            Issue.record("a truncated file was read")
        } catch let error as OSMReaderError {
            #expect(error.kind == .truncated && error.block == 1)
            #expect(error.offset == bytes.count - 5)
        }
    }

    /// Flipping single bytes anywhere yields clean errors or (rarely) still-valid files.
    @Test func corruptedBytesNeverCrash() throws {
        let bytes = PBFWriter.file(dense: dense, ways: ways, relations: relations, compress: false)
        var state: UInt64 = 99
        for _ in 0..<400 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            var corrupted = bytes
            let position = Int(state >> 33) % corrupted.count
            corrupted[position] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
            let path = PBFWriter.temporaryFile(corrupted)
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                let reader = try PBFReader(path: path)
                _ = try reader.summary()
            } catch is OSMReaderError {
                continue
            }
        }
    }

    @Test func missingFileIsAnIOError() {
        do {
            _ = try PBFReader(path: "/nonexistent/file.osm.pbf")
            Issue.record("opened a missing file")
        } catch {
            #expect(error.kind == .io)
        }
    }
}
