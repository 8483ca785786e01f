import Foundation
import GeoCore
import PostgresKit
import TestSupport
import Testing

@testable import MapData

/// The store's operations on both engines, on real data (central Monaco, the Toei timetable):
/// every read gives the same answer from SQLite and from PostGIS, imports replace a region
/// atomically, and a store of another schema version is refused.
@Suite struct StoreEngineTests {
    /// A new empty store on `engine`: a file in a fresh directory, or a new database of the
    /// private cluster.
    static func newStore(_ engine: StoreEngine) throws -> String {
        switch engine {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "openmaps-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory.appendingPathComponent("store.sqlite").path
        case .postgis:
            return try PrivatePostgres.newDatabase()
        }
    }

    static let monaco = TestExtracts.path(of: "monaco-centre.osm.pbf")
    static let centre = CoordinateBounds(
        Coordinate(latitude: 43.735, longitude: 7.415), Coordinate(latitude: 43.745, longitude: 7.43))

    /// Monaco imported into a new store of each engine, once a process.
    static let both = Result<[StoreEngine: String], any Error> {
        var stores: [StoreEngine: String] = [:]
        for engine in [StoreEngine.sqlite, .postgis] {
            let store = try newStore(engine)
            _ = try OSMImporter.importFile(monaco, into: store, region: "Monaco")
            stores[engine] = store
        }
        return stores
    }

    static func stores() throws -> (sqlite: MapStore, postgis: MapStore) {
        let both = try both.get()
        return (try MapStore(path: both[.sqlite]!), try MapStore(path: both[.postgis]!))
    }

    @Test func theEngineIsToldByTheLocation() {
        #expect(StoreEngine(location: "/var/lib/openmaps/openmaps.sqlite") == .sqlite)
        #expect(StoreEngine(location: "postgresql://maps@db.internal:5432/openmaps") == .postgis)
        #expect(StoreEngine(location: "postgres://db/openmaps") == .postgis)
        #expect(StoreEngine(location: "postgresql-backup.sqlite") == .sqlite)
    }

    @Test func sourcesAndFeaturesInABoxAreTheSame() throws {
        let (sqlite, postgis) = try Self.stores()
        #expect(postgis.engine == .postgis && sqlite.engine == .sqlite)
        let sources = try sqlite.sources()
        #expect(sources.count == 1 && sources[0].counts[.road, default: 0] > 100)
        #expect(try postgis.sources() == sources)
        for classes in [[], [FeatureClass.road], [.building, .poi]] {
            let expected = try sqlite.features(in: Self.centre, classes: classes)
            #expect(!expected.isEmpty)
            try Self.expectSame(try postgis.features(in: Self.centre, classes: classes), expected, in: Self.centre)
        }
        let all = try postgis.features(in: Self.centre)
        #expect(try postgis.features(in: Self.centre, limit: 25) == Array(all.prefix(25)))
        try Self.expectSame(
            try postgis.features(in: Self.centre, classes: [.place], names: .it),
            try sqlite.features(in: Self.centre, classes: [.place], names: .it), in: Self.centre)
        #expect(try postgis.features(in: Self.centre, details: [.full]).isEmpty)
        #expect(
            try postgis.sources(withFeaturesIn: Self.centre, classes: [.road])
                == sqlite.sources(withFeaturesIn: Self.centre, classes: [.road]))
        let anyRoad = try #require(try sqlite.features(in: Self.centre, classes: [.road]).first { $0.osmID != nil })
        #expect(try postgis.feature(anyRoad.osmType!, id: anyRoad.osmID!) == anyRoad)
        #expect(try postgis.feature(.way, id: anyRoad.osmID!) == sqlite.feature(.way, id: anyRoad.osmID!))
        #expect(try postgis.tags(ofFeature: anyRoad.id) == sqlite.tags(ofFeature: anyRoad.id))
    }

    /// The features of both engines are the same, but for boxes within a few centimetres of the
    /// edge: each engine's spatial index keeps its boxes in 32-bit floats, rounded outwards
    /// (SQLite's R*Tree, PostGIS's GiST), so a box that only touches the edge may be in one
    /// answer and not the other.
    static func expectSame(
        _ found: [MapStore.Feature], _ expected: [MapStore.Feature], in bounds: CoordinateBounds,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let byID = Dictionary(uniqueKeysWithValues: expected.map { ($0.id, $0) })
        for feature in found {
            if let same = byID[feature.id] { #expect(feature == same, sourceLocation: sourceLocation) }
        }
        let foundIDs = Set(found.map(\.id))
        let onlyOne = found.filter { byID[$0.id] == nil } + expected.filter { !foundIDs.contains($0.id) }
        let south = try #require(bounds.southWest), north = try #require(bounds.northEast)
        for feature in onlyOne {
            let box = feature.geometry.boundingBox
            let gap =
                [
                    box.minLatitude - north.latitude, south.latitude - box.maxLatitude,
                    box.minLongitude - north.longitude, south.longitude - box.maxLongitude,
                ].max() ?? 0
            #expect(abs(gap) < 1e-5, "feature \(feature.id) is \(gap)° from the edge", sourceLocation: sourceLocation)
        }
        #expect(onlyOne.count * 100 <= expected.count, sourceLocation: sourceLocation)
    }

    @Test func searchFindsTheSamePlaces() throws {
        let (sqlite, postgis) = try Self.stores()
        // Names, streets, and category words in four languages (the index's third weight).
        for text in ["Casino", "Boulevard des Moulins", "Monte-Carlo", "pharmacie", "farmacia", "फार्मेसी", "drugstore"] {
            let expected = Set(try sqlite.features(named: text, limit: 50).map(\.id))
            #expect(!expected.isEmpty, "\(text)")
            #expect(Set(try postgis.features(named: text, limit: 50).map(\.id)) == expected, "\(text)")
        }
        let typing = IndexQuery([[.init("boulevard"), .init("bd")], [.init("mou", isPrefix: true)]])
        let typed = Set(try sqlite.indexed(matching: typing, limit: 50).map(\.feature.id))
        #expect(!typed.isEmpty)
        #expect(Set(try postgis.indexed(matching: typing, limit: 50).map(\.feature.id)) == typed)
        // With an area: the best of all, then the best inside it that were not among them, in
        // one statement on PostGIS.
        let short = IndexQuery([[.init("mo", isPrefix: true)]])
        let matching = Set(try sqlite.indexed(matching: short, limit: 500).map(\.feature.id))
        let best = try sqlite.indexed(matching: short, limit: 20).map(\.feature.id)
        let near = try sqlite.indexed(matching: short, limit: 20, alsoIn: Self.centre)
        #expect(Array(near.prefix(20).map(\.feature.id)) == best && near.count > 20)
        #expect(Set(near.map(\.feature.id)).count == near.count && Set(near.map(\.feature.id)).isSubset(of: matching))
        #expect(
            near.dropFirst(20).allSatisfy { place in
                let box = place.feature.geometry.boundingBox
                return Self.centre.intersects(
                    CoordinateBounds(
                        Coordinate(latitude: box.minLatitude, longitude: box.minLongitude),
                        Coordinate(latitude: box.maxLatitude, longitude: box.maxLongitude)))
            })
        let statements = postgis.statementCount
        let nearOnPostGIS = try postgis.indexed(matching: short, limit: 20, alsoIn: Self.centre)
        #expect(postgis.statementCount == statements + 1, "one round trip")
        #expect(nearOnPostGIS.count > 20 && Set(nearOnPostGIS.map(\.feature.id)).isSubset(of: matching))
        #expect(Set(try postgis.indexed(matching: typing, limit: 50, alsoIn: Self.centre).map(\.feature.id)) == typed)
        // Names and category words only: a street's name, not the addresses on it.
        let named = IndexQuery([[.init("albert")]], columns: .names)
        let streets = try sqlite.indexed(matching: named, limit: 500)
        #expect(!streets.isEmpty && streets.allSatisfy { $0.names.joined().lowercased().contains("albert") })
        #expect(try sqlite.indexed(matching: IndexQuery([[.init("albert")]]), limit: 500).count > streets.count)
        #expect(
            Set(try postgis.indexed(matching: named, limit: 500).map(\.feature.id)) == Set(streets.map(\.feature.id)))
        let street = IndexQuery([[.init("gabian")]], columns: .address)
        let addresses = try sqlite.indexed(matching: street, limit: 500)
        #expect(!addresses.isEmpty && addresses.allSatisfy { $0.address.lowercased().contains("gabian") })
        #expect(
            Set(try postgis.indexed(matching: street, limit: 500).map(\.feature.id)) == Set(addresses.map(\.feature.id))
        )
        let index = try sqlite.indexed(matching: typing, limit: 1)[0]
        let same = try #require(
            try postgis.indexed(matching: typing, limit: 50).first { $0.feature.id == index.feature.id })
        #expect(same.names == index.names && same.categories == index.categories && same.address == index.address)
        #expect(same.tags == index.tags)
        #expect(try postgis.names(ofFeature: index.feature.id) == sqlite.names(ofFeature: index.feature.id))
        #expect(
            Set(try postgis.indexWords(startingWith: "m", length: 5...7))
                == Set(try sqlite.indexWords(startingWith: "m", length: 5...7)))
        #expect(try postgis.indexWords(startingWith: "moulin", length: 6...99).contains("moulins"))
        #expect(try postgis.indexWords(startingWith: "moulin", length: 6...99, limit: 1).count == 1)
        // A mistyped word's candidates: PostGIS leaves out the far ones, never a near one.
        let all = try sqlite.indexWords(startingWith: "m", length: 6...8)
        let candidates = try postgis.indexWords(startingWith: "m", length: 6...8, near: "moulnis", edits: 1)
        #expect(candidates.contains("moulins") && candidates.count < all.count / 4)
        #expect(Set(candidates).isSubset(of: Set(all)))
        for kind in [MapStore.Nearby.addresses, .streets] {
            try Self.expectSame(
                try postgis.nearby(kind, in: Self.centre, limit: 5000).map(\.feature),
                try sqlite.nearby(kind, in: Self.centre, limit: 5000).map(\.feature), in: Self.centre)
        }
        try Self.expectSame(
            try postgis.indexed(in: Self.centre, classes: [.poi], limit: 5000).map(\.feature),
            try sqlite.indexed(in: Self.centre, classes: [.poi], limit: 5000).map(\.feature), in: Self.centre)
        // Operators and quotes are searched for, never interpreted.
        #expect(try postgis.features(named: "\"AND OR NEAR( * : ' \\ & | ! <->").isEmpty)
        #expect(try postgis.features(named: "  ").isEmpty)
    }

    @Test func theRoadNetworkAndItsGraphsAreTheSame() throws {
        let (sqlite, postgis) = try Self.stores()
        let ways = try sqlite.roadWays()
        #expect(ways.count > 100)
        #expect(try postgis.roadWays() == ways)
        #expect(try postgis.roadNodes() == sqlite.roadNodes())
        #expect(try postgis.roadRestrictions() == sqlite.roadRestrictions())
        let store = try Self.newStore(.postgis)
        let graph = RoadNetwork.StoredGraph(
            mode: "walking", fingerprint: "f1", data: (0..<70_000).map { UInt8($0 % 251) })
        _ = try OSMImporter.importFile(Self.monaco, into: store, region: "Monaco")
        try RoadNetwork.write([graph], into: store)
        let reopened = try MapStore(path: store)
        #expect(try reopened.roadGraph(mode: "walking") == graph)
        #expect(try reopened.roadGraphFingerprints() == ["walking": "f1"])
        #expect(try reopened.roadGraphSizes().map(\.bytes) == [70_000])
        #expect(try reopened.roadGraph(mode: "driving") == nil)
    }

    @Test(arguments: [StoreEngine.sqlite, .postgis])
    func aFailedImportLeavesThePreviousRegionServed(_ engine: StoreEngine) throws {
        let store = try Self.newStore(engine)
        _ = try OSMImporter.importFile(Self.monaco, into: store, region: "Monaco")
        let before = try MapStore(path: store)
        let counts = try before.sources().map(\.counts)
        let features = try before.features(in: Self.centre, classes: [.building])
        #expect(throws: DataError.self) {
            _ = try OSMImporter.importFile(Self.monaco, into: store, region: "Monaco", failAfter: 500)
        }
        let after = try MapStore(path: store)
        #expect(try after.sources().map(\.counts) == counts)
        #expect(try after.features(in: Self.centre, classes: [.building]) == features)
        // Imported again, the region is replaced, not doubled, with the same ids.
        _ = try OSMImporter.importFile(Self.monaco, into: store, region: "Monaco")
        #expect(try MapStore(path: store).sources().map(\.counts) == counts)
        #expect(try MapStore(path: store).features(in: Self.centre, classes: [.building]) == features)
    }

    @Test(arguments: [StoreEngine.sqlite, .postgis])
    func feedsKeepTheirTimetables(_ engine: StoreEngine) throws {
        let store = try Self.newStore(engine)
        let feed = SeedPlaces.path(of: "toei-train-2026.zip")
        _ = try DataImport.importFile(feed, into: store, name: "toei")
        let opened = try MapStore(path: store)
        let timetables = try opened.timetables()
        #expect(timetables.map(\.source) == ["toei"])
        #expect(timetables[0].timetable.stops.count > 50)
        #expect(try opened.features(named: "大江戸線").contains { $0.name == "大江戸線" })
        // Imported again: one timetable, replaced.
        _ = try DataImport.importFile(feed, into: store, name: "toei")
        #expect(try MapStore(path: store).timetables().count == 1)
    }

    @Test func aStoreOfAnotherSchemaOrNoneIsRefused() throws {
        let empty = try PrivatePostgres.newDatabase()
        #expect(throws: DataError.self) { _ = try MapStore(path: empty) }
        do {
            _ = try MapStore(path: empty)
        } catch {
            #expect(error.kind == .noStore)
            #expect(!error.description.contains("password"))
        }
        #expect(try MapStore.exists(at: empty) == false)
        _ = try OSMImporter.importFile(Self.monaco, into: empty, region: "Monaco")
        #expect(try MapStore.exists(at: empty))
        try PostgresConnection(empty).execute("UPDATE openmaps_schema SET version = 1")
        do {
            _ = try MapStore(path: empty)
            Issue.record("a store of schema 1 was opened")
        } catch {
            #expect(error.kind == .schema && error.description.contains("schema 1"))
        }
        #expect(throws: DataError.self) {
            _ = try OSMImporter.importFile(Self.monaco, into: empty, region: "Monaco")
        }
    }

    @Test func everyImportLeavesTheStoreReadyForReaders() throws {
        let store = try PrivatePostgres.newDatabase()
        /// Pages of the store's main tables not yet marked visible to every reader.
        func unmarkedPages() throws -> Int64? {
            try PostgresConnection(store).query(
                "SELECT sum(relpages - relallvisible)::int8 FROM pg_class "
                    + "WHERE relname IN ('feature', 'feature_box', 'search_index', 'search_word')"
            ).row(0).integer(0)
        }
        _ = try OSMImporter.importFile(Self.monaco, into: store, region: "Monaco")
        // The first import's rows went in frozen.
        #expect(try unmarkedPages() == 0)
        _ = try DataImport.importFile(SeedPlaces.path(of: "toei-train-2026.zip"), into: store, name: "toei")
        // A later import's rows were vacuumed after the commit, and its index rows merged into
        // the GIN index, not left in its pending list for every search to read through.
        #expect(try unmarkedPages() == 0)
        let pending = try PostgresConnection(store).query(
            "SELECT gin_clean_pending_list('search_index_document'::regclass)::int8"
        ).row(0).integer(0)
        #expect(pending == 0)
        #expect(try MapStore(path: store).features(named: "大江戸線").contains { $0.name == "大江戸線" })
    }

    @Test func aRowThatDoesNotFitItsColumnsIsRefusedByName() throws {
        let store = try PrivatePostgres.newDatabase()
        _ = try OSMImporter.importFile(Self.monaco, into: store, region: "Monaco")
        let before = try MapStore(path: store).sources()
        func refusal(_ write: (StoreConnection) throws -> Void) -> String {
            do {
                try StoreUpdate.apply(to: store, write)
                return ""
            } catch {
                return "\(error)"
            }
        }
        // A layer past a 32-bit integer, text for a number, a column the table lacks, too few values.
        #expect(
            refusal {
                try $0.inserter(table: "feature", columns: ["id", "layer"]).insert([.integer(1), .integer(1 << 40)])
            }.contains("integer 1099511627776) does not fit the column feature.layer"))
        #expect(
            refusal { try $0.inserter(table: "feature_box", columns: ["min_lon"]).insert([.text("west")]) }
                .contains("(text) does not fit the column feature_box.min_lon"))
        #expect(
            refusal { _ = try $0.inserter(table: "feature", columns: ["id", "elevation"]) }
                .contains("table feature has no column elevation"))
        #expect(
            refusal { try $0.inserter(table: "feature", columns: ["id", "kind"]).insert([.integer(1)]) }
                .contains("1 values for the 2 columns written to feature"))
        // Each update was rolled back whole.
        #expect(try MapStore(path: store).sources() == before)
    }

    @Test func anUnreachableServerIsAClearError() throws {
        let port =
            1
            + (try PrivatePostgres.templateURL().split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }
                ?? 5432)
        do {
            _ = try MapStore(path: "postgresql://maps:secret@127.0.0.1:\(port)/openmaps")
            Issue.record("a store was opened on a closed port")
        } catch {
            #expect(error.kind == .database)
            #expect(error.description.contains("127.0.0.1") && !error.description.contains("secret"))
        }
        #expect(
            PostgresConnection.redacted("postgresql://maps:secret@db:5432/openmaps")
                == "postgresql://maps:***@db:5432/openmaps")
        #expect(PostgresConnection.redacted("host=db password=secret dbname=x") == "host=db password=*** dbname=x")
    }

    @Test func theFlatNodeCacheImportsWhatMemoryImports() throws {
        let inMemory = try Self.newStore(.sqlite)
        let flat = try Self.newStore(.sqlite)
        let cache = (flat as NSString).deletingLastPathComponent + "/nodes.bin"
        let memoryReport = try OSMImporter.importFile(Self.monaco, into: inMemory, region: "Monaco", nodeCache: .memory)
        let flatReport = try OSMImporter.importFile(Self.monaco, into: flat, region: "Monaco", nodeCache: .file(cache))
        #expect(flatReport == memoryReport)
        #expect(memoryReport.features > 8000 && memoryReport.restrictions > 0)
        // Kept for the next import; sparse: far less on disk than its length.
        var status = stat()
        #expect(stat(cache, &status) == 0)
        #expect(status.st_size > 0 && Int(status.st_blocks) * 512 < Int(status.st_size))
        let a = try MapStore(path: inMemory)
        let b = try MapStore(path: flat)
        #expect(try a.features(in: .world) == b.features(in: .world))
        #expect(try a.roadWays() == b.roadWays())
        #expect(try a.sources() == b.sources())
    }

    @Test func nodesAfterWaysAreRefusedByName() throws {
        let header = PBFWriter.blob(
            type: "OSMHeader", payload: PBFWriter.headerBlock(required: ["OsmSchema-V0.6", "DenseNodes"]),
            compress: true)
        let first = PBFWriter.blob(
            type: "OSMData",
            payload: PBFWriter.primitiveBlock(
                dense: [
                    TestNode(id: 1, latitude: 601_000_000, longitude: 249_000_000),
                    TestNode(id: 2, latitude: 601_000_000, longitude: 249_100_000),
                ], plain: [], ways: [TestWay(id: 10, refs: [1, 2, 3], tags: [("highway", "residential")])],
                relations: []), compress: true)
        let late = PBFWriter.blob(
            type: "OSMData",
            payload: PBFWriter.primitiveBlock(
                dense: [TestNode(id: 3, latitude: 601_100_000, longitude: 249_100_000)], plain: [], ways: [],
                relations: []), compress: true)
        let file = PBFWriter.temporaryFile(header + first + late)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let store = try Self.newStore(.sqlite)
        do {
            _ = try OSMImporter.importFile(file, into: store, region: "unsorted")
            Issue.record("an unsorted file was imported")
        } catch {
            #expect("\(error)".contains("node 3 comes after way 10") && "\(error)".contains("osmium sort"))
        }
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
