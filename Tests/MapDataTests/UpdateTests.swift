import Foundation
import OSMReader
import PostgresKit
import Routing
import TestSupport
import Testing
import ZlibKit

@testable import MapData

/// `openmaps update`'s engine on real data: central Monaco edited as mappers edit (tags, moved
/// nodes, split and joined ways, deletions, creations, a relation's members), the change file
/// applied to a store of the original, compared table by table with a fresh import of the
/// edited copy, on both engines.
@Suite(.serialized) struct UpdateTests {
    static let monaco = TestExtracts.path(of: "monaco-centre.osm.pbf")

    /// The edited copy (a PBF) and its change file, made once a process.
    static let edits = Result<(copy: String, changes: String, list: [OSMChange]), any Error> {
        let (edited, changes) = OSMEdits.edit(try OSMExtract(path: monaco), share: 0.02, seed: 7)
        let copy = PBFWriter.temporaryFile(edited.pbf())
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString).osc")
            .path
        try Data(OSMChangeWriter.document(changes)).write(to: URL(fileURLWithPath: file))
        return (copy, file, changes)
    }

    /// The store's content without its ids, table by table, each row a line, sorted: features
    /// (every column), index entries (with their feature's OSM element), the road network,
    /// the regions' bounds and the routing graphs' fingerprints.
    static func content(_ location: String) throws -> [String: [String]] {
        let store = try MapStore(path: location)
        func blob(_ row: StoreRow, _ index: Int) -> String {
            row.withBlob(index) { $0.map { String($0, radix: 16) }.joined() } ?? "-"
        }
        func rows(_ sql: String, _ line: (StoreRow) -> [String?]) throws -> [String] {
            try store.database.map(sql) { row in line(row).map { $0 ?? "-" }.joined(separator: "|") }.sorted()
        }
        let number = { (row: StoreRow, index: Int) in row.integer(index).map(String.init) }
        let real = { (row: StoreRow, index: Int) in row.real(index).map { String($0) } }
        return [
            "feature": try rows(
                "SELECT osm_type, osm_id, class, kind, name, geometry_type, geometry, layer, level, height, levels, "
                    + "bridge, tunnel, oneway, ref, detail, population, colour, tags FROM feature"
            ) { row in
                [
                    row.text(0), number(row, 1), row.text(2), row.text(3), row.text(4), number(row, 5), blob(row, 6),
                    number(row, 7), row.text(8), real(row, 9), real(row, 10), number(row, 11), number(row, 12),
                    number(row, 13), row.text(14), row.text(15), number(row, 16), row.text(17), row.text(18),
                ]
            },
            "search_index": try rows(
                "SELECT f.osm_type, f.osm_id, f.kind, s.names, s.categories, s.address FROM search_index s "
                    + "JOIN feature f ON f.id = s.rowid"
            ) { row in [row.text(0), number(row, 1), row.text(2), row.text(3), row.text(4), row.text(5)] },
            "feature_box": try rows(
                "SELECT f.osm_type, f.osm_id, f.kind, b.min_lon, b.max_lon, b.min_lat, b.max_lat FROM feature_box b "
                    + "JOIN feature f ON f.id = b.id"
            ) { row in
                [row.text(0), number(row, 1), row.text(2), real(row, 3), real(row, 4), real(row, 5), real(row, 6)]
            },
            "feature_piece": try rows(
                "SELECT f.osm_type, f.osm_id, f.kind, p.geometry, b.min_lon, b.max_lat FROM feature_piece p "
                    + "JOIN feature f ON f.id = p.feature JOIN feature_piece_box b ON b.id = p.id"
            ) { row in [row.text(0), number(row, 1), row.text(2), blob(row, 3), real(row, 4), real(row, 5)] },
            "pieces without their area": try rows(
                "SELECT count(*) FROM feature_piece WHERE feature NOT IN (SELECT id FROM feature)"
            ) { [number($0, 0)] },
            "search_word": store.engine == .postgis
                ? try rows("SELECT word FROM search_word") { [$0.text(0)] } : [],
            "road_way": try rows("SELECT osm_id, nodes, points, tags FROM road_way") { row in
                [number(row, 0), blob(row, 1), blob(row, 2), row.text(3)]
            },
            "road_node": try rows("SELECT osm_id, tags FROM road_node") { [number($0, 0), $0.text(1)] },
            "road_restriction": try rows(
                "SELECT osm_id, kind, from_way, via_nodes, via_ways, to_way, except_modes, modes FROM road_restriction"
            ) { row in (0..<8).map { [0, 2, 5].contains($0) ? number(row, $0) : row.text($0) } },
            "source": try rows("SELECT name, kind, min_lat, min_lon, max_lat, max_lon FROM source") { row in
                [row.text(0), row.text(1), real(row, 2), real(row, 3), real(row, 4), real(row, 5)]
            },
            "road_graph": try rows("SELECT mode, fingerprint FROM road_graph") { [$0.text(0), $0.text(1)] },
        ]
    }

    /// Applies `changes` to the store with the routing graphs refreshed, as `openmaps update` does.
    @discardableResult
    static func update(_ store: String, _ changes: String..., region: String? = nil) throws -> (
        OSMUpdater.Report, [RoutingGraphs.Built]
    ) {
        var built: [RoutingGraphs.Built] = []
        let report = try OSMUpdater.apply(changes, to: store, region: region) { store, writer in
            built = try RoutingGraphs.refresh(store: store, writer: writer)
        }
        return (report, built)
    }

    static func imported(_ file: String, _ engine: StoreEngine, routing: Bool = true) throws -> String {
        let store = try StoreEngineTests.newStore(engine)
        _ = try OSMImporter.importFile(file, into: store, region: "Monaco")
        if routing { _ = try RoutingGraphs.build(storePath: store) }
        return store
    }

    @Test(arguments: [StoreEngine.sqlite, .postgis])
    func anUpdatedStoreEqualsAFreshImportOfTheEditedExtract(_ engine: StoreEngine) throws {
        let edits = try Self.edits.get()
        let updated = try Self.imported(Self.monaco, engine)
        let before = try Self.content(updated)
        let (report, built) = try Self.update(updated, edits.changes)
        let fresh = try Self.imported(edits.copy, engine)
        let after = try Self.content(updated)
        let expected = try Self.content(fresh)
        for table in expected.keys.sorted() {
            #expect(after[table] == expected[table], "\(table) differs from a fresh import (\(engine))")
        }
        #expect(before["feature"] != after["feature"] && before["road_way"] != after["road_way"])
        #expect(report.region == "Monaco" && report.changes == edits.list.count)
        #expect(report.created + report.modified + report.deleted == edits.list.count && report.outdated == 0)
        #expect(report.rebuiltWays > report.modified / 2 && report.featuresWritten > 0)
        // Every mode's roads changed: each graph was built again, and is the fresh import's;
        // each kept its stored hierarchy's contraction order.
        #expect(
            Set(built.map(\.mode.rawValue)) == Set(expected["road_graph"]!.map { String($0.split(separator: "|")[0]) }))
        #expect(built.allSatisfy { $0.keptOrder }, "\(built.map { ($0.mode, $0.keptOrder) })")
    }

    /// Two change files given together are one update: the same store as the two applied in
    /// turn and as a fresh import of the second edit, with the routing graphs built once. The
    /// second file also renames a café the first created and deletes a node the first created,
    /// so the files' changes meet on the same elements.
    @Test func changeFilesGivenTogetherAreAppliedAsOneUpdate() throws {
        let base = try OSMExtract(path: Self.monaco)
        let (first, firstChanges) = OSMEdits.edit(base, share: 0.01, seed: 21)
        var (second, secondChanges) = OSMEdits.edit(first, share: 0.01, seed: 22)
        let createdNodes = firstChanges.filter { $0.action == .create && $0.element.type == .node }.map(\.element.id)
        let touchedAgain = Set(secondChanges.map(\.element.id))
        let cafe = try #require(
            second.nodes.firstIndex {
                createdNodes.contains($0.id) && !$0.tags.isEmpty && !touchedAgain.contains($0.id)
            })
        second.nodes[cafe].tags = [("amenity", "cafe"), ("name", "Café renamed")]
        second.nodes[cafe].metadata = OSMMetadata(version: 2)
        secondChanges.append(.init(action: .modify, element: .node(second.nodes[cafe])))
        // A node the first made, taken off its footway by the second, then deleted by it.
        let footway = try #require(
            second.ways.firstIndex {
                $0.nodeIDs.contains(where: createdNodes.contains) && !touchedAgain.contains($0.id)
            })
        let looseID = second.ways[footway].nodeIDs.removeFirst()
        second.ways[footway].metadata = OSMMetadata(version: 2)
        secondChanges.append(.init(action: .modify, element: .way(second.ways[footway])))
        let loose = try #require(second.nodes.firstIndex { $0.id == looseID })
        secondChanges.append(
            .init(
                action: .delete,
                element: .node(
                    OSMNode(id: looseID, latitudeNano: 0, longitudeNano: 0, tags: [], metadata: OSMMetadata(version: 2))
                )))
        second.nodes.remove(at: loose)
        let files = [firstChanges, secondChanges].map { PBFWriter.temporaryFile(OSMChangeWriter.document($0)) }

        let together = try Self.imported(Self.monaco, .sqlite)
        let (report, built) = try Self.update(together, files[0], files[1])
        let inTurn = try Self.imported(Self.monaco, .sqlite)
        for file in files { try Self.update(inTurn, file) }
        let fresh = try Self.imported(PBFWriter.temporaryFile(second.pbf()), .sqlite)
        let expected = try Self.content(fresh)
        let once = try Self.content(together)
        let twice = try Self.content(inTurn)
        for table in expected.keys.sorted() {
            #expect(once[table] == expected[table], "\(table) differs from a fresh import of the second edit")
            #expect(once[table] == twice[table], "\(table) differs from the files applied in turn")
        }
        #expect(once["feature"]!.contains { $0.contains("Café renamed") })
        #expect(!once["feature"]!.contains { $0.hasPrefix("node|\(looseID)|") })
        #expect(report.changes == firstChanges.count + secondChanges.count)
        // Each element once: the café made and renamed as made, the node made and deleted as a
        // deletion of one the region never held.
        let elements = Set((firstChanges + secondChanges).map { "\($0.element.type)/\($0.element.id)" })
        #expect(report.created + report.modified + report.deleted + report.absent == elements.count)
        #expect(report.added == 0 && report.absent >= 1)
        #expect(!built.isEmpty)
    }

    @Test func postGISKeepsTheRoutingGraphsUncompressedEvenInAStoreMadeBefore() throws {
        let store = try Self.imported(Self.monaco, .postgis, routing: false)
        let database = PostGISStoreConnection(try PostgresConnection(store))
        func storage() throws -> String? {
            try database.map(
                "SELECT attstorage::text FROM pg_attribute WHERE attrelid = 'road_graph'::regclass AND attname = 'data'"
            ) { $0.text(0) }.first ?? nil
        }
        #expect(try storage() == "e", "a new store")
        try database.execute("ALTER TABLE road_graph ALTER COLUMN data SET STORAGE EXTENDED")
        let built = try RoutingGraphs.build(storePath: store)
        #expect(try storage() == "e" && built.map(\.mode) == TravelProfile.Mode.allCases)
        let (router, note) = try RoutingGraphs.router(store: MapStore(path: store), mode: .walking)
        #expect(router.hierarchy != nil && note == nil)
    }

    @Test func onlyTablesChangedPastAutoanalyzesThresholdAreAnalysedAfterAWrite() throws {
        // A store of Monaco, analysed at its import: a write of a few rows leaves every table
        // to autovacuum; deleting most of the features asks for the tables they were in.
        let store = try Self.imported(Self.monaco, .postgis, routing: false)
        let connection = try PostgresConnection(store)
        let database = PostGISStoreConnection(connection)
        struct Rollback: Error {}
        func changed(after sql: String) throws -> [String] {
            var tables: [String] = []
            do {
                try connection.transaction {
                    try database.execute(sql)
                    tables = try StoreUpdate.tablesChangedPastAutoanalyze(database)
                    throw Rollback()
                }
            } catch is Rollback {}
            return tables
        }
        #expect(try changed(after: "DELETE FROM feature WHERE id IN (SELECT id FROM feature LIMIT 3)") == [])
        #expect(
            try changed(
                after:
                    "DELETE FROM feature_box WHERE id IN (SELECT id FROM feature LIMIT (SELECT count(*) / 2 FROM feature)); "
                    + "DELETE FROM feature WHERE id IN (SELECT id FROM feature LIMIT (SELECT count(*) / 2 FROM feature))"
            )
                == ["feature", "feature_box"])
    }

    @Test func aMovedCoastlineNodeRedrawsTheRegionsLandAndSeaAsAFreshImportDoes() throws {
        var extract = try OSMExtract(path: Self.monaco)
        let coast = try #require(
            extract.ways.first { way in way.tags.contains { $0 == ("natural", "coastline") } && way.nodeIDs.count > 4 })
        let moved = coast.nodeIDs[coast.nodeIDs.count / 2]
        let index = try #require(extract.nodes.firstIndex { $0.id == moved })
        extract.nodes[index].latitudeNano += 2_000 * 100
        extract.nodes[index].metadata = OSMMetadata(version: (extract.nodes[index].metadata?.version ?? 0) + 1)
        let changes = PBFWriter.temporaryFile(
            OSMChangeWriter.document([.init(action: .modify, element: .node(extract.nodes[index]))]))
        let updated = try Self.imported(Self.monaco, .sqlite, routing: false)
        let before = try Self.content(updated)
        try Self.update(updated, changes)
        let fresh = try Self.imported(PBFWriter.temporaryFile(extract.pbf()), .sqlite, routing: false)
        let after = try Self.content(updated)
        func coastRows(_ content: [String: [String]]) -> [String] {
            content["feature"]!.filter { $0.contains("|land|coast|") || $0.contains("|water|sea|") }
        }
        #expect(coastRows(before).count >= 2 && coastRows(after) != coastRows(before))
        #expect(after["feature"] == (try Self.content(fresh))["feature"], "the coast differs from a fresh import")
    }

    @Test func aChangeFileAppliedTwiceOrWithOlderVersionsChangesNothingMore() throws {
        let edits = try Self.edits.get()
        let store = try Self.imported(Self.monaco, .sqlite)
        try Self.update(store, edits.changes)
        let once = try Self.content(store)
        let (again, built) = try Self.update(store, edits.changes)
        #expect(try Self.content(store) == once)
        #expect(again.created + again.modified + again.deleted == 0 && built.isEmpty)
        #expect(again.outdated == edits.list.filter { $0.action != .delete }.count)
        // Out of order: an older version of a modified way after its newer one loses, as osmium merges.
        guard case .way(var way) = edits.list.first(where: { $0.action == .modify && $0.element.type == .way })?.element
        else { Issue.record("the edits modify no way"); return }
        let newer = way
        way.tags = [("highway", "motorway")]
        way.metadata = OSMMetadata(version: (newer.metadata?.version ?? 1) - 1)
        let merged = OSMUpdater.merged([
            .init(action: .modify, element: .way(newer)), .init(action: .modify, element: .way(way)),
        ])
        guard case .way(let kept) = merged.first?.element else { Issue.record("no way kept"); return }
        #expect(merged.count == 1 && kept.tags.map(\.value) == newer.tags.map(\.value))
    }

    @Test func aChangeFileOfAnotherRegionIsRefusedByNameAndChangesNothing() throws {
        let store = try Self.imported(Self.monaco, .sqlite, routing: false)
        let before = try Self.content(store)
        let elsewhere = OSMChangeWriter.document([
            .init(
                action: .modify,
                element: .node(
                    OSMNode(
                        id: 1, latitudeNano: 60_170_000_000, longitudeNano: 24_940_000_000, tags: [],
                        metadata: OSMMetadata(version: 9)))),
            .init(
                action: .delete, element: .way(OSMWay(id: 2, nodeIDs: [], tags: [], metadata: OSMMetadata(version: 3)))),
        ])
        let file = PBFWriter.temporaryFile(elsewhere)
        #expect {
            try Self.update(store, file)
        } throws: { error in
            let message = "\(error)"
            return message.contains("region 'Monaco'") && message.contains("node/1")
                && message.contains("another region")
        }
        #expect(throws: DataError.self) { try Self.update(store, file, region: "Helsinki") }
        // A broken file: the changes before the break are not applied either.
        let edits = try Self.edits.get()
        let text = try String(contentsOfFile: edits.changes, encoding: .utf8)
        let broken = PBFWriter.temporaryFile(Array(text.prefix(text.count / 2).utf8))
        #expect {
            try Self.update(store, broken)
        } throws: { error in
            (error as? DataError)?.path == broken && (error as? DataError)?.underlying is OSMReaderError
        }
        // Nor those of a good file given with it.
        #expect(throws: DataError.self) { try Self.update(store, edits.changes, broken) }
        // A failure inside the update (here, the routing graphs' build) leaves the store as it was.
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try OSMUpdater.apply([edits.changes], to: store) { _, _ in throw Stop() }
        }
        #expect(try Self.content(store) == before)
    }
}

/// A real `kill -9` in the middle of `openmaps update`, and the command's own account of what
/// it did.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: openmapsDebugBinary)
            && FileManager.default.fileExists(atPath: DataInstaller().path(of: .helsinki)),
        "needs the debug openmaps binary and the installed Helsinki extract: run 'make test'"))
struct KilledUpdateTests {
    @Test func aKilledUpdateLeavesThePreviousStoreAndTheNextOneApplies() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let helsinki = DataInstaller().path(of: .helsinki)
        _ = try OSMImporter.importFile(helsinki, into: store)
        let (_, changes) = OSMEdits.edit(try OSMExtract(path: helsinki), share: 0.05, seed: 11)
        let file = directory.appendingPathComponent("changes.osc.gz").path
        try Data(try Zlib.gzip(OSMChangeWriter.document(changes))).write(to: URL(fileURLWithPath: file))
        let before = try UpdateTests.content(store)
        func run(_ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: openmapsDebugBinary)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        var killed = 0
        // The update with the routing graphs (all missing here: built in the same transaction)
        // runs long enough in a debug build to be killed at each of these moments.
        for delay in [0.02, 0.1, 0.4, 1.5] {
            let process = try run(["update", file, "--store", store])
            Thread.sleep(forTimeInterval: delay)
            guard process.isRunning else {
                process.waitUntilExit()
                break
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            killed += 1
            #expect(try UpdateTests.content(store) == before, "the store changed after a kill at \(delay) s")
        }
        #expect(killed > 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openmapsDebugBinary)
        process.arguments = ["update", file, "--store", store, "--no-routing"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed.hasPrefix("Helsinki: \(changes.count) changes from \(file)"), "\(printed)")
        #expect(printed.contains("built again:"))
        #expect(try UpdateTests.content(store)["feature"] != before["feature"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".importing.sqlite") || $0.hasSuffix("-journal")
        }
        #expect(leftovers.isEmpty)
    }
}
