import Bzip2Kit
import Foundation
import GeoCore
import TestSupport
import Testing
import ZlibKit

@testable import OSMReader

/// OSM XML read exactly, in every wrapping, and every kind of bad XML refused with its line and column.
@Suite struct OSMXMLReaderTests {
    /// An extract as Overpass and JOSM write them: declaration, note, meta, bounds, comments,
    /// entities, single quotes, non-ASCII, deleted elements, negative ids, nested extras.
    static let extract = """
        \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="Overpass API 0.7.62.8 e802775f">
        <note>The data included in this document is from www.openstreetmap.org. <![CDATA[ODbL <1.0>]]></note>
        <meta osm_base="2025-09-02T05:02:28Z"/>
          <bounds minlat="40.7450000" minlon="-74.0100000" maxlat="40.7750000" maxlon="-73.9600000"/>
          <!-- a comment -- with dashes <node id="9"/> -->
          <node id="42421969" lat="40.7692956" lon="-73.9810586" version="3" user="A &amp; B">
            <tag k="highway" v="traffic_signals"/>
            <tag k='name' v='Columbus Circle &#x2013; &quot;south&quot;'/>
            <tag k="name:hi" v="कोलंबस सर्कल"/>
            <tag k="note" v="two
        lines&#10;kept"/>
          </node>
          <node id="-5" lat="-33.8683" lon="151.2086"/>
          <node id="7" visible="false" version="2"/>
          <node id="8" lat="1" lon="1" action="delete"/>
          <node id="9" lat="0.000000001" lon="-179.9999999995"></node>
          <way id="5000000001">
            <bounds minlat="40" minlon="-74" maxlat="41" maxlon="-73"/>
            <nd ref="42421969"/>
            <nd ref="-5" lat="-33.8683" lon="151.2086"/>
            <nd ref="9"/>
            <tag k="highway" v="primary"/>
          </way>
          <relation id="42">
            <member type="way" ref="5000000001" role="outer"/>
            <member type="node" ref="42421969" role=""/>
            <member type="relation" ref="7"/>
            <tag k="type" v="multipolygon"/>
          </relation>
        </osm>

        """

    static func temporary(_ bytes: [UInt8], name: String = "extract.osm") -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    static func read(_ bytes: [UInt8], name: String = "extract.osm", blockSize: Int = 8192) throws -> (
        OSMFile, [OSMBlock]
    ) {
        let path = temporary(bytes, name: name)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let file = try OSMFile(path: path)
        var blocks: [OSMBlock] = []
        try file.forEachBlock { blocks.append($0) }
        return (file, blocks)
    }

    enum Wrapping: String, CaseIterable {
        case plain, gzip, bzip2
        func wrap(_ bytes: [UInt8]) throws -> [UInt8] {
            switch self {
            case .plain: bytes
            case .gzip: try Zlib.gzip(bytes)
            case .bzip2: try Bzip2.compress(bytes)
            }
        }
    }

    @Test(arguments: Wrapping.allCases)
    func readsEveryElementExactly(wrapping: Wrapping) throws {
        let (file, blocks) = try Self.read(try wrapping.wrap(Array(Self.extract.utf8)), name: "x.data")
        #expect(file.format == .xml)
        #expect(file.compression == (wrapping == .plain ? "none" : wrapping.rawValue))
        #expect(file.header.writingProgram == "Overpass API 0.7.62.8 e802775f")
        #expect(file.header.requiredFeatures == ["OsmSchema-V0.6"])
        #expect(file.header.bounds?.southWest == Coordinate(latitude: 40.745, longitude: -74.01))
        #expect(file.header.bounds?.northEast == Coordinate(latitude: 40.775, longitude: -73.96))
        let block = try #require(blocks.first)
        #expect(blocks.count == 1)
        #expect(block.nodes.map(\.id) == [42_421_969, -5, 9])
        #expect(block.nodes[0].latitudeNano == 40_769_295_600 && block.nodes[0].longitudeNano == -73_981_058_600)
        #expect(block.nodes[1].latitudeNano == -33_868_300_000 && block.nodes[1].longitudeNano == 151_208_600_000)
        #expect(block.nodes[2].latitudeNano == 1 && block.nodes[2].longitudeNano == -180_000_000_000)
        let tags = block.nodes[0].tags
        #expect(tags.map(\.key) == ["highway", "name", "name:hi", "note"])
        #expect(tags[1].value == "Columbus Circle – \"south\"")
        #expect(tags[2].value == "कोलंबस सर्कल")
        #expect(tags[3].value == "two lines\nkept", "literal line breaks are normalized, &#10; is kept")
        #expect(block.nodes[1].tags.isEmpty)
        let way = try #require(block.ways.first)
        #expect(way.id == 5_000_000_001 && way.nodeIDs == [42_421_969, -5, 9])
        #expect(way.tags.map(\.value) == ["primary"])
        let relation = try #require(block.relations.first)
        #expect(relation.members.map(\.type) == [.way, .node, .relation])
        #expect(relation.members.map(\.id) == [5_000_000_001, 42_421_969, 7])
        #expect(relation.members.map(\.role) == ["outer", "", ""])
        #expect(relation.tags.map(\.key) == ["type"])
    }

    @Test func deliversBlocksOfTheAskedSizeInFileOrder() throws {
        var text = "<osm version='0.6'>\n"
        for id in 1...25 { text += "<node id='\(id)' lat='60.\(id)' lon='24.\(id)'/>\n" }
        for id in 1...5 { text += "<way id='\(id)'><nd ref='\(id)'/><nd ref='\(id + 1)'/></way>\n" }
        text += "</osm>"
        let path = Self.temporary(Array(text.utf8))
        var reader = try OSMXMLReader(path: path)
        reader.blockSize = 7
        var blocks: [OSMBlock] = []
        try reader.forEachBlock { blocks.append($0) }
        #expect(blocks.map(\.index) == [1, 2, 3, 4, 5])
        #expect(blocks.map { $0.nodes.count + $0.ways.count } == [7, 7, 7, 7, 2])
        #expect(blocks.flatMap { $0.nodes.map(\.id) } == Array(1...25))
        #expect(blocks.flatMap { $0.ways.map(\.id) } == Array(1...5))
        #expect(reader.header.bounds == nil)
    }

    @Test func theFormatIsToldByTheContentNotTheName() throws {
        let pbf = PBFWriter.file(dense: [TestNode(id: 1, latitude: 600_000_000, longitude: 240_000_000)])
        let (asXMLName, blocks) = try Self.read(pbf, name: "really-pbf.osm")
        #expect(asXMLName.format == .pbf && blocks.first?.nodes.map(\.id) == [1])
        let (gzippedPBF, _) = try Self.read(try Zlib.gzip(pbf), name: "a.osm.bz2")
        #expect(gzippedPBF.format == .pbf && gzippedPBF.compression == "gzip")
        let (xmlAsPBF, _) = try Self.read(Array("<osm version='0.6'/>".utf8), name: "a.osm.pbf")
        #expect(xmlAsPBF.format == .xml)
    }

    @Test func filesThatAreNeitherAreNamedByTheirFirstBytes() throws {
        let text = #expect(throws: OSMReaderError.self) { try Self.read(Array("hello, world".utf8)) }
        #expect(text?.message == "neither OSM PBF nor OSM XML: the file starts with 68 65 6C 6C 6F 2C 20 77")
        let zip = #expect(throws: OSMReaderError.self) { try Self.read([0x50, 0x4B, 0x03, 0x04, 0, 0, 0, 0]) }
        #expect(zip?.message.contains("zip archive") == true)
        let empty = #expect(throws: OSMReaderError.self) { try Self.read([]) }
        #expect(empty?.message == "the file is empty")
        let gzippedText = #expect(throws: OSMReaderError.self) { try Self.read(try Zlib.gzip(Array("plain".utf8))) }
        #expect(gzippedText?.message.contains("inside its gzip compression") == true)
        let folder = (Self.temporary([], name: "extract.osm") as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let directory = #expect(throws: OSMReaderError.self) { try OSMFile(path: folder) }
        #expect(directory?.message == "this is a directory, not an extract")
    }

    /// One kind of bad XML: the text, and where and how it must be refused.
    struct Bad: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var line: Int
        var column: Int
        var kind: OSMReaderError.Kind = .malformed
        var says: String
        var testDescription: String { name }
    }

    static let bad: [Bad] = [
        Bad(
            name: "end tag closes the wrong element",
            text: "<osm version='0.6'>\n <node id='1' lat='1' lon='2'>\n </way>",
            line: 3, column: 2, says: "</way> closes <node> opened at line 2, column 2"),
        Bad(
            name: "unquoted value", text: "<osm version='0.6'>\n<node id=1 lat='1' lon='2'/>", line: 2, column: 10,
            says: "the value of 'id' in <node> must be quoted, found '1'"),
        Bad(
            name: "missing equals", text: "<osm version='0.6'><node id '1'/>", line: 1, column: 29,
            says: "expected '=' after attribute 'id' in <node>, found '''"),
        Bad(
            name: "duplicate attribute", text: "<osm version='0.6'><node id='1' id='2' lat='1' lon='1'/>", line: 1,
            column: 33, says: "attribute 'id' appears twice in <node>"),
        Bad(
            name: "attributes run together", text: "<osm version='0.6'><node id='1'lat='1' lon='1'/>", line: 1,
            column: 32, says: "attributes of <node> must be separated by a space"),
        Bad(
            name: "unknown entity",
            text: "<osm version='0.6'>\n<node id='1' lat='1' lon='1'><tag k='a' v='&nbsp;'/></node></osm>",
            line: 2, column: 44, says: "unknown entity &nbsp;"),
        Bad(
            name: "bare ampersand", text: "<osm version='0.6'><node id='1' lat='1' lon='1'><tag k='a' v='A & B'/>",
            line: 1, column: 65, says: "'&' must start an entity"),
        Bad(
            name: "character reference to nothing",
            text: "<osm version='0.6'><node id='1' lat='1' lon='1'><tag k='a' v='&#0;'/>",
            line: 1, column: 63, says: "&#0; is not a character"),
        Bad(
            name: "less-than in a value", text: "<osm version='0.6'><node id='1' lat='1' lon='1'><tag k='a' v='<b>'/>",
            line: 1, column: 63, says: "'<' inside the value of 'v'"),
        Bad(
            name: "document type declaration",
            text: "<?xml version='1.0'?>\n<!DOCTYPE osm [<!ENTITY a 'aaaa'>]>\n<osm version='0.6'/>", line: 2,
            column: 1,
            kind: .unsupported, says: "document type declaration"),
        Bad(
            name: "another encoding", text: "<?xml version='1.0' encoding='ISO-8859-1'?><osm version='0.6'/>", line: 1,
            column: 1, kind: .unsupported, says: "the file is in ISO-8859-1"),
        Bad(
            name: "declaration not first", text: "\n<?xml version='1.0'?><osm version='0.6'/>", line: 2, column: 1,
            says: "the XML declaration must come first"),
        Bad(
            name: "another root", text: "<gpx version='1.1'><trk/></gpx>", line: 1, column: 1,
            says: "the root element is <gpx>, not <osm>"),
        Bad(
            name: "osmChange", text: "<osmChange version='0.6'><create/></osmChange>", line: 1, column: 1,
            kind: .unsupported, says: "osmChange file"),
        Bad(
            name: "another version", text: "<osm version='0.5'/>", line: 1, column: 1, kind: .unsupported,
            says: "OSM XML version 0.5 is not supported"),
        Bad(
            name: "node without id", text: "<osm version='0.6'>\n  <node lat='1' lon='2'/>", line: 2, column: 3,
            says: "<node> has no 'id' attribute"),
        Bad(
            name: "id not an integer", text: "<osm version='0.6'><way id='12a'/></osm>", line: 1, column: 25,
            says: "'id' of <way> is '12a', not an integer"),
        Bad(
            name: "latitude not a number", text: "<osm version='0.6'><node id='1' lat='north' lon='2'/>", line: 1,
            column: 33, says: "'lat' of <node> is 'north', not a number of degrees within ±90"),
        Bad(
            name: "longitude out of range", text: "<osm version='0.6'><node id='1' lat='1' lon='180.5'/>", line: 1,
            column: 41, says: "'lon' of <node> is '180.5', not a number of degrees within ±180"),
        Bad(
            name: "node without position", text: "<osm version='0.6'><node id='1' lat='1'/>", line: 1, column: 20,
            says: "<node> has no 'lon' attribute"),
        Bad(
            name: "member of no type",
            text: "<osm version='0.6'><relation id='1'><member type='area' ref='2' role=''/></relation></osm>",
            line: 1, column: 45, says: "a member's type is 'area', not node, way or relation"),
        Bad(
            name: "tag without value", text: "<osm version='0.6'><way id='1'><tag k='highway'/></way></osm>", line: 1,
            column: 32, says: "<tag> has no 'v' attribute"),
        Bad(
            name: "nested element", text: "<osm version='0.6'><way id='1'>\n<node id='2' lat='1' lon='1'/></way></osm>",
            line: 2, column: 1, says: "a <node> inside another element"),
        Bad(
            name: "text before the root", text: "osm version=0.6", line: 1, column: 1,
            says: "neither OSM PBF nor OSM XML"),
        Bad(
            name: "text after the root", text: "<osm version='0.6'></osm>\ntrailing", line: 2, column: 1,
            says: "text after the root element ends"),
        Bad(
            name: "second root", text: "<osm version='0.6'></osm><osm version='0.6'></osm>", line: 1, column: 26,
            says: "a second root element"),
        Bad(
            name: "tag name missing", text: "<osm version='0.6'>< node id='1'/>", line: 1, column: 21,
            says: "expected a tag name after '<', found ' '"),
        Bad(
            name: "cut inside a value", text: "<osm version='0.6'>\n<node id='1' lat='1' lon='2", line: 2, column: 28,
            kind: .truncated, says: "the file ends inside the value of 'lon' opened at line 2, column 26"),
        Bad(
            name: "cut inside an element", text: "<osm version='0.6'>\n<way id='1'>\n<nd ref='1'/>\n", line: 4,
            column: 1, kind: .truncated, says: "the file ends inside <way> opened at line 2, column 1"),
        Bad(
            name: "cut inside a comment", text: "<osm version='0.6'><!-- never closed", line: 1, column: 37,
            kind: .truncated, says: "the file ends inside a comment opened at line 1, column 20"),
        Bad(
            name: "column counts characters",
            text: "<osm version='0.6'><node id='1' lat='1' lon='1'><tag k='名前' v='x'></node>",
            line: 1, column: 67, says: "</node> closes <tag> opened at line 1, column 49"),
    ]

    @Test(arguments: bad)
    func badXMLIsRefusedWithItsLineAndColumn(_ bad: Bad) throws {
        let error = #expect(throws: OSMReaderError.self) { try Self.read(Array(bad.text.utf8)) }
        #expect(error?.kind == bad.kind)
        #expect(error?.message.contains(bad.says) == true, "\(error?.message ?? "no error")")
        if bad.says != "neither OSM PBF nor OSM XML" {
            #expect(error?.line == bad.line && error?.column == bad.column, "\(String(describing: error))")
        }
    }

    @Test(arguments: [Wrapping.gzip, .bzip2])
    func compressedFilesCutShortAreRefused(wrapping: Wrapping) throws {
        let compressed = try wrapping.wrap(Array(Self.extract.utf8))
        let error = #expect(throws: OSMReaderError.self) {
            try Self.read(Array(compressed.prefix(compressed.count - 12)))
        }
        #expect(error?.kind == .truncated)
        #expect(error?.message.contains("the \(wrapping.rawValue) data ends before its stream does") == true)
        if wrapping == .gzip {
            #expect(error?.line != nil, "a cut after some XML says the line it reached")
        }
    }

    @Test(arguments: [Wrapping.gzip, .bzip2])
    func largeCompressedFilesStreamThrough(wrapping: Wrapping) throws {
        // About 4 MB of XML: more than the pieces inflated ahead of the reader.
        var text = "<osm version='0.6'>\n"
        for id in 1...40_000 {
            text +=
                "  <node id='\(id)' lat='60.\(id % 100_000)' lon='24.\(id % 77_777)'><tag k='ref' v='\(id)'/></node>\n"
        }
        text += "</osm>\n"
        let path = Self.temporary(try wrapping.wrap(Array(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let file = try OSMFile(path: path)
        var ids: [Int64] = []
        var offsets: [Int] = []
        try file.forEachBlock { block in
            ids += block.nodes.map(\.id)
            offsets.append(block.byteOffset)
        }
        #expect(ids == Array(1...40_000))
        #expect(offsets == offsets.sorted() && offsets.last ?? 0 <= file.fileSize, "progress in the file's own bytes")
        // Readers that stop early (a header read) leave nothing running behind them.
        for _ in 0..<20 { _ = try OSMFile(path: path).header }
    }

    @Test func everyCutAndDamagedByteIsAnErrorNotACrash() throws {
        let bytes = Array(Self.extract.utf8)
        var refused = 0
        for cut in stride(from: 0, to: bytes.count, by: 5) {
            do { _ = try Self.read(Array(bytes.prefix(cut))) } catch is OSMReaderError { refused += 1 }
        }
        #expect(refused >= bytes.count / 5 - 2, "a cut file is refused, but where only text after the root is lost")
        for (index, position) in stride(from: 0, to: bytes.count, by: 3).enumerated() {
            var damaged = bytes
            damaged[position] = [0x3C, 0x3E, 0x22, 0x26, 0x00, 0xFF, 0x2F, 0x3D][index % 8]
            do { _ = try Self.read(damaged) } catch is OSMReaderError {}
        }
    }

    @Test func damagedCompressionIsRefused() throws {
        var compressed = try Zlib.gzip(Array(String(repeating: Self.extract, count: 20).utf8))
        for index in 30..<60 { compressed[index] ^= 0xA5 }
        let error = #expect(throws: OSMReaderError.self) { try Self.read(compressed) }
        #expect(error?.kind == .malformed)
        #expect(error?.message.contains("gzip data is corrupt") == true)
    }

    @Test(arguments: [
        ("40.7692956", Int64(40_769_295_600)), ("-73.9810586", -73_981_058_600), ("0", 0), ("+1.5", 1_500_000_000),
        ("180", 180_000_000_000), ("1.0E-5", 10_000), ("-0.0000000004", 0), ("12.3456789016", 12_345_678_902),
        (".5", 500_000_000),
    ])
    func nanodegrees(_ written: String, _ expected: Int64) {
        #expect(OSMXMLParser.nanodegrees(written) == expected)
    }

    @Test(arguments: ["", "-", ".", "1.2.3", "1,5", "nan", "inf", "0x10", "12345"])
    func notDegrees(_ written: String) {
        #expect(OSMXMLParser.nanodegrees(written) == nil)
    }
}
