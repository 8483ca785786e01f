import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import PlaceSearch

/// Plus codes typed into the search box: a full code anywhere, a short code near the place
/// its words name or near the search's centre (the fixture store: central Helsinki with its
/// gazetteer).
@Suite struct PlusCodeSearchTests {
    let search: PlaceSearch

    init() throws {
        search = PlaceSearch(store: try MapStore(path: FixtureStore.path()))
    }

    @Test func aFullCodeIsItsCellWhereverItIs() throws {
        let results = try search.search(SearchQuery("8FVC9G8F+6X"))
        #expect(results.count == 1)
        let place = try #require(results.first)
        #expect(place.name == "8FVC9G8F+6X" && place.featureClass == "plus_code")
        #expect(abs(place.coordinate.latitude - 47.365_562_5) < 1e-6)
        #expect(place.bounds.contains(place.coordinate))
        // Lower case, with words after it that do not matter for a full code.
        #expect(try search.search(SearchQuery("8fvc9g8f+6x Zurich")).first?.name == "8FVC9G8F+6X")
    }

    @Test func aShortCodeIsRecoveredNearThePlaceItsWordsName() throws {
        // Kaivokatu's corner in central Helsinki, shortened by four characters.
        let code = try PlusCode(Coordinate(latitude: 60.1701, longitude: 24.9412))
        let short = String(code.code.dropFirst(4))
        for text in ["\(short) Helsinki", "\(short), Helsinki"] {
            let place = try #require(try search.search(SearchQuery(text)).first, "\(text)")
            #expect(place.name == code.code, "\(text)")
            #expect(place.why.contains("near Helsinki"))
        }
        // Without words, near the search's centre; with neither, not a plus code search.
        let near = try search.search(SearchQuery(short, near: Coordinate(latitude: 60.17, longitude: 24.94)))
        #expect(near.first?.name == code.code)
        #expect(try search.search(SearchQuery(short)).allSatisfy { $0.featureClass != "plus_code" })
    }

    @Test func textsThatAreNotCodesAreSearchedAsText() throws {
        for text in ["8FVC9G8F", "C+", "9C3W2+XX", "Mannerheimintie 5+7"] {
            #expect(try search.search(SearchQuery(text)).allSatisfy { $0.featureClass != "plus_code" }, "\(text)")
        }
    }
}
