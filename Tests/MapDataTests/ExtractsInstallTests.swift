import Foundation
import MapData
import TestSupport
import Testing

/// `data install --extracts DIR`: every listed extract and feed imported once, kept when unchanged.
@Suite struct ExtractsInstallTests {
    static let manifest = """
        # file	name	credit	licence
        lake.osm	lake	© OpenStreetMap contributors	ODbL 1.0

        metro.zip	metro	Transit data © Example Metro, CC-BY 4.0	CC BY 4.0

        """

    func folder(manifest: String = manifest) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-extracts-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let xml = OSMXMLWriter.file(nodes: ImportTests.nodes, ways: ImportTests.ways, relations: ImportTests.relations)
        try Data(xml).write(to: URL(fileURLWithPath: folder + "/lake.osm"))
        try Data(GTFSImportTests.feed()).write(to: URL(fileURLWithPath: folder + "/metro.zip"))
        try manifest.write(toFile: folder + "/sources.tsv", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func importsOnceAndKeepsWhatIsThere() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let installer = DataInstaller(directory: folder + "/data")
        var imported: [String] = []
        #expect(try installer.installExtracts(from: folder, imported: { imported.append($0.name) }) == [])
        #expect(imported == ["lake", "metro"])
        let sources = try MapStore(path: installer.storePath).sources()
        #expect(sources.map(\.name) == ["lake", "metro"])
        #expect(sources.map(\.kind) == [.osm, .gtfs])
        #expect(
            sources[1].attribution == "Transit data © Example Metro, CC-BY 4.0" && sources[1].licence == "CC BY 4.0")
        #expect(sources[0].attribution == "© OpenStreetMap contributors", "OpenStreetMap data keeps its own credit")

        imported = []
        #expect(
            try installer.installExtracts(from: folder, imported: { imported.append($0.name) }) == ["lake", "metro"])
        #expect(imported.isEmpty, "unchanged files are kept, not imported again")

        var files = GTFSImportTests.files
        files["routes.txt"] = "route_id,route_short_name,route_type\nE,E,1\nB,B,3\n"
        try Data(GTFSImportTests.feed(files)).write(to: URL(fileURLWithPath: folder + "/metro.zip"))
        #expect(try installer.installExtracts(from: folder, imported: { imported.append($0.name) }) == ["lake"])
        #expect(imported == ["metro"], "a changed file is imported again")
    }

    @Test(arguments: [
        ("lake.osm\tlake\tcredit\n", "line 1: expected four tab-separated fields (file, name, credit line, licence)"),
        ("# comment\nlake.osm  lake  credit  licence\n", "line 2: expected four tab-separated fields"),
        ("gone.osm\tgone\tcredit\tlicence\n", "line 1: no file 'gone.osm' here"),
    ])
    func badListsNameTheirLine(manifest: String, says: String) throws {
        let folder = try folder(manifest: manifest)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = #expect(throws: DataError.self) { try DataInstaller.extracts(in: folder) }
        #expect(error?.message.hasPrefix(says) == true, "\(error?.message ?? "no error")")
        #expect(error?.path == folder + "/sources.tsv")
    }
}
