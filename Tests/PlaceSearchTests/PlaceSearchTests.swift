import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import PlaceSearch

/// Scenarios in the manner of Nominatim's: each kind of query on the fixture store (a made-up
/// street grid over central Helsinki with named places, addresses and a GeoNames-like gazetteer).
@Suite struct PlaceSearchTests {
    let search: PlaceSearch
    let centre = Coordinate(latitude: 60.1699, longitude: 24.9384)

    init() throws {
        search = PlaceSearch(store: try MapStore(path: FixtureStore.path()))
    }

    func names(_ text: String, near: Coordinate? = nil, language: Language? = nil, limit: Int = 5) throws -> [String] {
        try search.search(SearchQuery(text, near: near, limit: limit, language: language)).map(\.name)
    }

    func first(_ text: String, near: Coordinate? = nil, language: Language? = nil) throws -> PlaceResult? {
        try search.search(SearchQuery(text, near: near, limit: 5, language: language)).first
    }

    // MARK: Names

    @Test(arguments: [
        ("Stockmann", "Stockmann"), ("stockmann", "Stockmann"), ("Hotel Kämp", "Hotel Kämp"),
        ("hotel kamp", "Hotel Kämp"), ("Havis Amanda", "Havis Amanda"), ("Kluuvi", "Kluuvi"),
        ("Esplanadinpuisto", "Esplanadinpuisto"),
    ])
    func namesAsWrittenAndFolded(text: String, name: String) throws {
        #expect(try first(text, near: centre)?.name == name)
    }

    @Test func aNameInAnotherLanguageFindsThePlace() throws {
        // Finnish and Swedish names both find the street and the restaurant.
        #expect(try first("Mannerheimvägen", near: centre)?.name == "Mannerheimintie")
        #expect(try first("Restaurang Savoy", near: centre)?.name == "Ravintola Savoy")
        // Asked in Swedish's absence, the local name; the data's Swedish name is not an OpenMaps language.
        #expect(try first("Ravintola Savoy", near: centre, language: .es)?.name == "Ravintola Savoy")
    }

    @Test(arguments: [
        (Language.en, "Esplanade Park"), (.es, "Parque de la Explanada"), (.it, "Parco dell'Esplanade"),
        (.hi, "एस्प्लेनेड पार्क"),
    ])
    func namesComeInTheAskedLanguageAndFindThePlace(language: Language, name: String) throws {
        #expect(try first("Esplanadinpuisto", near: centre, language: language)?.name == name)
        #expect(try first("Esplanadinpuisto", near: centre)?.name == "Esplanadinpuisto", "local names by default")
        #expect(try first(name, near: centre)?.tags["name"] == "Esplanadinpuisto", "its name in \(language) finds it")
    }

    @Test func aStreetMappedAsManyWaysIsOneResult() throws {
        #expect(try names("Mannerheimintie", near: centre).filter { $0 == "Mannerheimintie" }.count == 1)
    }

    // MARK: Addresses

    @Test(arguments: [
        "Aleksanterinkatu 52", "52 Aleksanterinkatu", "Aleksanterinkatu 52, 00100 Helsinki",
        "aleksanterinkatu 52 helsinki",
    ])
    func addressesInTheOrderPeopleWriteThem(text: String) throws {
        let result = try #require(try first(text, near: centre))
        #expect(result.name == "Stockmann")
        #expect(result.address["road"] == "Aleksanterinkatu" && result.address["house_number"] == "52")
        #expect(result.addressLine == "Aleksanterinkatu 52, 00100 Helsinki")
    }

    @Test func aHouseNumberTheStreetDoesNotHaveGivesTheStreet() throws {
        let result = try #require(try first("Kaivokatu 5", near: centre))
        #expect(result.name == "Kaivokatu" && result.why.hasPrefix("closest match"))
    }

    @Test func abbreviationsAreReadInFull() throws {
        #expect(QueryText.forms(of: "st") == ["st", "street", "saint"])
        #expect(QueryText.forms(of: "k") == ["k", "katu"])
        #expect(QueryText("Main St.")?.words == ["main", "st"])
    }

    // MARK: Categories

    @Test(arguments: [
        ("cafe", Language.en), ("café", .en), ("kahvila", .en), ("caffè", .it), ("cafetería", .es), ("कैफ़े", .hi),
    ])
    func aCategoryByItsWordInEachLanguage(word: String, language: Language) throws {
        #expect(try first(word, near: centre, language: language)?.name == "Fazer 8th Floor")
    }

    @Test(arguments: ["department store", "tavaratalo", "grandes almacenes", "grande magazzino", "डिपार्टमेंट स्टोर"])
    func aShopByItsKind(text: String) throws {
        #expect(try first(text, near: centre)?.name == "Stockmann")
    }

    @Test func pizzaFindsARestaurantThatServesIt() throws {
        let result = try #require(try first("pizza", near: centre))
        #expect(result.name == "Ravintola Savoy" && result.kind == "amenity=restaurant")
        #expect(try first("pizzeria", near: centre)?.name == "Ravintola Savoy")
        #expect(try first("पिज़्ज़ा", near: centre)?.name == "Ravintola Savoy")
    }

    @Test(arguments: [
        "cafe near Kluuvi", "café cerca de Kluuvi", "caffè vicino a Kluuvi", "Kluuvi के पास कैफ़े", "kahvila lähellä Kluuvi",
    ])
    func aCategoryNearAPlace(text: String) throws {
        let result = try #require(try first(text))
        #expect(result.name == "Fazer 8th Floor")
        #expect(result.why.hasSuffix("near Kluuvi"))
    }

    // MARK: Typos and typing

    @Test(arguments: [
        ("Stokmann", "Stockmann"), ("Stockman", "Stockmann"), ("Mannerhiemintie", "Mannerheimintie"),
        ("Manerheimintei", "Mannerheimintie"), ("Esplanadinpusto", "Esplanadinpuisto"),
    ])
    func typosOfOneOrTwoEdits(text: String, name: String) throws {
        #expect(try first(text, near: centre)?.name == name)
    }

    @Test func shortWordsAreNotGuessed() throws {
        // "Kamp" is four letters: no edits are tried, and nothing begins with "kamq".
        #expect(try names("Kamq", near: centre).isEmpty)
    }

    @Test(arguments: [("Stoc", "Stockmann"), ("Mannerh", "Mannerheimintie"), ("Hotel K", "Hotel Kämp")])
    func resultsWhileTyping(text: String, name: String) throws {
        #expect(try names(text, near: centre).contains(name))
        var whole = SearchQuery(text, near: centre)
        whole.autocomplete = false
        #expect(try !search.search(whole).map(\.name).contains(name), "a link's text is read whole")
    }

    // MARK: Ranking

    @Test func ambiguousNamesResolveTheWayAPersonExpects() throws {
        let sanFrancisco = Coordinate(latitude: 37.7749, longitude: -122.4194)
        #expect(try first("Santa Cruz", near: sanFrancisco)?.coordinate.latitude ?? 0 > 36)
        #expect(try first("Paris")?.coordinate.longitude ?? 0 > 2, "the capital when nothing is near")
        let boston = Coordinate(latitude: 42.3601, longitude: -71.0589)
        #expect(try first("Springfield", near: boston)?.coordinate.longitude ?? 0 > -73)
        #expect(try first("Springfield")?.coordinate.longitude ?? 0 > -73, "the larger one alone")
    }

    @Test func resultsCarryWhatAPersonReads() throws {
        let stockmann = try #require(try first("Stockmann", near: centre))
        #expect(stockmann.source == "Helsinki" && stockmann.licence == "ODbL 1.0")
        #expect(stockmann.attribution == "© OpenStreetMap contributors")
        #expect(stockmann.tags["wikidata"] == "Q644390")
        #expect(stockmann.distance ?? 0 > 50 && stockmann.distance ?? 0 < 200)
        #expect(stockmann.featureClass == "poi" && stockmann.kind == "shop=department_store")
        let helsinki = try #require(try first("Helsinki"))
        #expect(helsinki.address["country_code"] == "FI" && helsinki.address["country"] == "Finland")
        #expect(helsinki.source == "gazetteer")
    }

    // MARK: Reverse

    @Test func reverseGivesTheNearestAddressWithItsHierarchy() throws {
        let result = try #require(try search.reverse(Coordinate(latitude: 60.16871, longitude: 24.94105)))
        #expect(result.name == "Stockmann" && result.why == "the nearest address")
        #expect(result.address["house_number"] == "52" && result.address["road"] == "Aleksanterinkatu")
        #expect(result.address["country"] == "Finland" && result.address["suburb"] == "Kluuvi")
        #expect(result.distance ?? 99 < 5)
    }

    @Test func reverseNamesTheStreetThePointIsOnBeforeAnAddressRoundTheCorner() throws {
        // On "Tie 24.941", 5 m north of Stockmann, whose address is on Aleksanterinkatu.
        let corner = try #require(try search.reverse(Coordinate(latitude: 60.16875, longitude: 24.9410)))
        #expect(corner.name == "Tie 24.941" && corner.why == "the street the point is on")
        #expect(corner.address["road"] == "Tie 24.941" && corner.distance ?? 99 < 8)
        // At the shop itself, the shop.
        #expect(try search.reverse(Coordinate(latitude: 60.1687, longitude: 24.9410))?.name == "Stockmann")
    }

    @Test(arguments: [
        // Two words that are one, one that is two, the other way round.
        ("Mannerheim intie", "Mannerheimintie"), ("Pohjois esplanadi", "Pohjoisesplanadi"),
        ("esplanadi pohjois", "Pohjoisesplanadi"), ("HavisAmanda", "Havis Amanda"),
        ("Ravintolasavoy", "Ravintola Savoy"),
        // Letters swapped; a short name with a letter dropped.
        ("Stokcmann", "Stockmann"), ("Savy", "Ravintola Savoy"), ("Hotel Kmp", "Hotel Kämp"),
    ])
    func wordsSpacedOrSpelledOtherwise(text: String, name: String) throws {
        var query = SearchQuery(text, near: centre)
        query.autocomplete = false
        #expect(try search.search(query).first?.name == name)
    }

    @Test func houseNumberRangesAndLetters() throws {
        // Pohjoisesplanadi 29 is Hotel Kämp's address: a range from it, and with a letter.
        for text in ["Pohjoisesplanadi 29-31", "Pohjoisesplanadi 29–31", "Pohjoisesplanadi 29 - 31"] {
            #expect(try first(text, near: centre)?.name == "Hotel Kämp", "\(text)")
        }
        #expect(QueryText("Kaivokatu 11 B")?.words == ["kaivokatu", "11b"])
        #expect(QueryText("Kaivokatu 11b")?.words == ["kaivokatu", "11b"])
        #expect(QueryText("Calle 5 y 7")?.words == ["calle", "5", "y", "7"])
        #expect(SearchVocabulary.houseNumber("14 B") == "14B" && SearchVocabulary.houseNumber("3-5") == "3-5")
        #expect(SearchVocabulary.houseNumber("2, 2. krs") == "2, 2. krs")
    }

    @Test func reverseGivesTheStreetWhereNoAddressIsNear() throws {
        // On Kaivokatu (60.1705–60.1707 N), away from every address.
        let result = try #require(try search.reverse(Coordinate(latitude: 60.17062, longitude: 24.9440)))
        #expect(result.name == "Kaivokatu" && result.why == "the nearest street")
        #expect(result.address["road"] == "Kaivokatu" && result.address["city"] == "Helsinki")
        #expect(result.distance ?? 99 < 20)
    }

    @Test func reverseGivesThePlaceAwayFromStreets() throws {
        let result = try #require(try search.reverse(Coordinate(latitude: 37.39, longitude: -122.08)))
        #expect(result.name == "Mountain View" && result.why == "the nearest place")
        #expect(result.address["country_code"] == "US")
        #expect(try search.reverse(Coordinate(latitude: 0, longitude: -30)) == nil, "the middle of the Atlantic")
    }

    // MARK: Formats and bad input

    @Test func geoJSONAndNominatimShapes() throws {
        let results = try search.search(SearchQuery("Stockmann", near: centre, limit: 1))
        let geojson = try #require(
            try JSONSerialization.jsonObject(with: Data(ResultFormat.geojson.document(results).utf8)) as? [String: Any])
        #expect(geojson["type"] as? String == "FeatureCollection")
        let feature = try #require((geojson["features"] as? [[String: Any]])?.first)
        let point = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(point == [24.941, 60.1687], "longitude first")
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["display_name"] as? String == "Stockmann, Aleksanterinkatu 52, 00100 Helsinki")
        #expect(properties["category"] as? String == "shop" && properties["type"] as? String == "department_store")
        let jsonv2 = try #require(
            try JSONSerialization.jsonObject(with: Data(ResultFormat.jsonv2.document(results).utf8)) as? [[String: Any]]
        )
        let place = try #require(jsonv2.first)
        #expect(place["lat"] as? String == "60.1687" && place["lon"] as? String == "24.941")
        #expect(place["osm_type"] as? String == "node" && place["place_rank"] as? Int == 30)
        #expect((place["boundingbox"] as? [String])?.count == 4)
        let nothing = ResultFormat.jsonv2.document([], reverse: true)
        #expect(nothing.contains("\"error\" : \"Unable to geocode\""))
    }

    @Test(arguments: [
        (SearchQuery("   "), SearchError.emptyQuery), (SearchQuery("!!! ???"), .emptyQuery),
        (SearchQuery(String(repeating: "a", count: 300)), .queryTooLong(300)),
        (SearchQuery("Stockmann", limit: 0), .limitOutOfRange(0)),
        (SearchQuery("Stockmann", limit: 51), .limitOutOfRange(51)),
    ])
    func queriesThatCannotBeSearchedSayWhy(query: SearchQuery, error: SearchError) {
        #expect(throws: error) { try search.search(query) }
    }

    @Test(arguments: [
        ("kitten", "sitting", 3, 3), ("stockmann", "stokmann", 2, 1), ("mannerheimintie", "mannerhiemintie", 2, 1),
        ("abc", "abc", 1, 0), ("abcdef", "abcxyz", 1, 2), ("", "abc", 3, 3),
    ])
    func editDistances(a: String, b: String, limit: Int, distance: Int) {
        #expect(editDistance(a, b, limit: limit) == distance)
    }
}
