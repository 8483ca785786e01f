import Foundation
import GeoCore
import TestSupport
import Testing

@testable import MapData
@testable import PlaceSearch

/// Search as you type on central Monaco: every keystroke answered alike on SQLite and PostGIS,
/// in one statement on PostGIS, and alike by a search that has read other places before.
@Suite struct TypingTests {
    static let centre = Coordinate(latitude: 43.7397, longitude: 7.4268)

    /// Texts as people type them: a street, a place, a street and number, a category.
    static let texts = ["Boulevard des Moulins", "Casino", "Avenue de la Costa 7", "pharmacie", "Place du Casino"]

    /// Every keystroke of `text` from two characters on, as the web app sends them.
    static func keystrokes(_ text: String) -> [String] {
        (2...text.count).map { String(text.prefix($0)).trimmingCharacters(in: .whitespaces) }
    }

    /// Central Monaco on PostGIS (the private cluster), once a process.
    static let postgis = Result<String, any Error> {
        let store = try PrivatePostgres.newDatabase()
        _ = try OSMImporter.importFile(TestExtracts.path(of: "monaco-centre.osm.pbf"), into: store, region: "Monaco")
        return store
    }

    static func answer(_ search: PlaceSearch, _ text: String) throws -> [PlaceResult] {
        try search.search(SearchQuery(text, near: centre, limit: 8))
    }

    @Test func everyKeystrokeIsOneStatementOnPostGISAndAnsweredAsOnSQLite() throws {
        let sqlite = PlaceSearch(store: try MapStore(path: TestExtracts.monacoStore()))
        let store = try MapStore(path: try Self.postgis.get())
        let postgis = PlaceSearch(store: store)
        // The sources and countries are read once, by the first search that needs them.
        _ = try Self.answer(postgis, "Monaco")
        _ = try postgis.countries()
        var answered = 0
        for text in Self.texts {
            for keystroke in Self.keystrokes(text) {
                let statements = store.statementCount
                let onPostGIS = try Self.answer(postgis, keystroke)
                let expected = try Self.answer(sqlite, keystroke)
                #expect(onPostGIS.first?.name == expected.first?.name, "\(keystroke)")
                #expect(Set(onPostGIS.map(\.id)) == Set(expected.map(\.id)), "\(keystroke)")
                guard !expected.isEmpty else { continue }
                answered += 1
                // Found in the first reading: the words as typed, every one.
                if expected.allSatisfy({ $0.closestMatch == nil }) {
                    #expect(store.statementCount == statements + 1, "\(keystroke): one round trip")
                }
            }
        }
        #expect(answered > 50)
    }

    @Test func placesReadBeforeAnswerAsIfReadAnew() throws {
        let path = try TestExtracts.monacoStore()
        let seasoned = PlaceSearch(store: try MapStore(path: path))
        // Read many places first: every keystroke of the texts, and the same again.
        for text in Self.texts + Self.texts {
            for keystroke in Self.keystrokes(text) { _ = try Self.answer(seasoned, keystroke) }
        }
        for text in Self.texts {
            for keystroke in Self.keystrokes(text) {
                let fresh = PlaceSearch(store: try MapStore(path: path))
                let expected = try Self.answer(fresh, keystroke)
                let found = try Self.answer(seasoned, keystroke)
                #expect(found.map(\.id) == expected.map(\.id), "\(keystroke)")
                #expect(found.map(\.score) == expected.map(\.score), "\(keystroke)")
            }
        }
    }

    @Test func aLoneWordFindsPlacesCalledSoBeforeTheAddressesOfTheirStreet() throws {
        let search = PlaceSearch(store: try MapStore(path: TestExtracts.monacoStore()))
        // "Albert" names a boulevard and is in the address of the buildings along it: typing
        // it gives the places called so, not every address of the boulevard.
        let found = try Self.answer(search, "Albert")
        #expect(!found.isEmpty && found.allSatisfy { $0.name.lowercased().contains("albert") })
        // With the house number, the address.
        let address = try Self.answer(search, "Avenue Albert II 25")
        #expect(address.first?.name == "Dubernet" || address.first?.address["house_number"] == "25")
    }

    @Test func aPlaceCalledSoByItsOwnNameAsMuchAsOneNamedAfterIt() throws {
        // The department store's tags list its local name before its name (`loc_name` sorts
        // before `name`); the bus stop in front, 100 m away, is named after it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(
            OSMXMLWriter.file(
                nodes: [
                    TestNode(
                        id: 1, latitude: 601_684_000, longitude: 249_420_000,
                        tags: [
                            ("loc_name", "Stokka"), ("name", "Stockmann"), ("shop", "department_store"),
                            ("wikidata", "Q644390"),
                        ]),
                    TestNode(
                        id: 2, latitude: 601_677_000, longitude: 249_428_000,
                        tags: [("highway", "bus_stop"), ("name", "Stockmann")]),
                ], ways: [])
        ).write(to: URL(fileURLWithPath: folder + "/centre.osm"))
        _ = try OSMImporter.importFile(folder + "/centre.osm", into: folder + "/store.sqlite", region: "Centre")
        let search = PlaceSearch(store: try MapStore(path: folder + "/store.sqlite"))
        let found = try search.search(SearchQuery("Stockmann", near: Coordinate(latitude: 60.1699, longitude: 24.9384)))
        #expect(found.first?.kind == "shop=department_store", "\(found.map(\.kind))")
    }
}
