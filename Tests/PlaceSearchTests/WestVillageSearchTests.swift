import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import PlaceSearch

/// The search on real OpenStreetMap data: the West Village extract of the seed places
/// (`data/seed-places`, 1,744 addresses and 108 named places around 8th Avenue, 2015).
@Suite struct WestVillageSearchTests {
    let search: PlaceSearch
    let village = Coordinate(latitude: 40.7376, longitude: -74.0030)

    init() throws {
        search = PlaceSearch(store: try MapStore(path: SeedPlaces.westVillageStore()))
    }

    func first(_ text: String) throws -> PlaceResult? {
        try search.search(SearchQuery(text, near: village, limit: 3)).first
    }

    @Test(arguments: [
        ("53 Christopher St", "Christopher Street", "53"),
        ("Christopher Street 53, New York, NY 10014", "Christopher Street", "53"), ("71 8th Ave", "8th Avenue", "71"),
        ("569 Hudson Street", "Hudson Street", "569"),
    ])
    func addressesAsAmericansWriteThem(text: String, road: String, number: String) throws {
        let result = try #require(try first(text))
        #expect(result.address["road"] == road && result.address["house_number"] == number, "\(result.name)")
    }

    @Test(arguments: [
        ("Stonewall Inn", "Stonewall Inn"), ("stonewal inn", "Stonewall Inn"), ("Think Cof", "Think Coffee"),
        ("pharmacy", "Duane Reade"), ("farmacia", "Duane Reade"), ("फार्मेसी", "Duane Reade"),
    ])
    func namesTyposTypingAndCategories(text: String, name: String) throws {
        #expect(try first(text)?.name == name)
    }

    @Test func aCafeNearTheStonewallInnIsNearIt() throws {
        let stonewall = try #require(try first("Stonewall Inn")).coordinate
        let cafe = try #require(try first("cafe near Stonewall Inn"))
        #expect(cafe.kind == "amenity=cafe" && cafe.why == "cafe near Stonewall Inn")
        #expect(cafe.coordinate.distance(to: stonewall) < 400)
    }

    @Test func reverseNamesTheAddressAtAPoint() throws {
        let result = try #require(try search.reverse(Coordinate(latitude: 40.73381, longitude: -74.00219)))
        #expect(result.address["road"] == "Christopher Street" && result.address["house_number"] == "53")
        #expect(result.why == "the nearest address")
    }

    @Test func aNumberTheStreetLacksIsPlacedBetweenItsNeighbours() throws {
        let result = try #require(try first("Christopher Street 60"))
        #expect(result.kind == "interpolated" && result.name == "Christopher Street 60")
        #expect(result.why.hasPrefix("between Christopher Street "), "\(result.why)")
        let stonewall = try #require(try first("53 Christopher Street")).coordinate
        #expect(result.coordinate.distance(to: stonewall) < 300)
        #expect(try first("Christopher Street 53")?.kind != "interpolated", "a number the data has is not guessed")
    }
}
