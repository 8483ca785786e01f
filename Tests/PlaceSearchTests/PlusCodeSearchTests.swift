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
        // Without words, near the search's centre; with neither, refused saying what is missing.
        let near = try search.search(SearchQuery(short, near: Coordinate(latitude: 60.17, longitude: 24.94)))
        #expect(near.first?.name == code.code)
        #expect(throws: SearchError.shortPlusCodeUnplaced(short, locality: nil)) {
            try search.search(SearchQuery(short))
        }
        // Words naming no place the data has: refused by name, not recovered anywhere.
        #expect(throws: SearchError.shortPlusCodeUnplaced(short, locality: "Atlantis")) {
            try search.search(SearchQuery("\(short) Atlantis"))
        }
    }

    @Test func wordsWrittenAsCodesThatAreNotAreRefusedSayingWhy() throws {
        let cases: [(String, PlusCode.Failure)] = [
            ("88888888888888888888+XX", .separator), ("9C3W2+XX", .separator), ("8FVC9G8F+6", .lone),
            ("XFVC9G8F+6X", .outOfRange), ("8FVC00+", .padding), ("8FVC+0000 Zurich", .padding),
        ]
        for (text, failure) in cases {
            let word = String(text.split(separator: " ")[0])
            #expect(throws: SearchError.notAPlusCode(word, failure), "\(text)") { try search.search(SearchQuery(text)) }
        }
        #expect(SearchError.notAPlusCode("9C3W2+XX", .separator).description.hasPrefix("'9C3W2+XX' is not a plus code"))
    }

    @Test func textsThatAreNotCodesAreSearchedAsText() throws {
        for text in ["8FVC9G8F", "C+", "5+7 Mannerheimintie", "Mannerheimintie 5+7", "Kaivokatu+"] {
            #expect(try search.search(SearchQuery(text)).allSatisfy { $0.featureClass != "plus_code" }, "\(text)")
        }
    }

    @Test func everyReverseResultHasItsPlusCode() throws {
        let point = Coordinate(latitude: 60.1701, longitude: 24.9412)
        let place = try #require(try search.reverse(point))
        let code = try #require(place.plusCode)
        let area = try code.area()
        #expect(area.contains(place.coordinate), "\(place.coordinate) \(area) \(place.featureClass)")
        #expect(code.code.count == 11)
        // In a city, the short form with its name, which finds the same cell again.
        let compound = try #require(place.compoundPlusCode)
        #expect(compound == String(code.code.dropFirst(4)) + " Helsinki")
        #expect(try search.search(SearchQuery(compound)).first?.name == code.code)
        // Both forms in the documents, as Google's geocoding answers name them.
        for format in ResultFormat.allCases {
            let text = format.document([place], reverse: true)
            #expect(text.contains("\"global_code\" : \"\(code.code)\""), "\(format)")
            #expect(text.contains("\"compound_code\" : \"\(compound)\""), "\(format)")
        }
    }
}
