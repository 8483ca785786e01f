import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import PlaceSearch
import TestSupport
import Testing

/// The app wired to a real store (the fixture): its place search and gazetteer, the renderer.
@Suite struct StoreEnginesTests {
    let finder: PlaceSearch
    let app: MapsApp

    init() throws {
        let path = try FixtureStore.path()
        finder = PlaceSearch(store: try MapStore(path: path))
        app = try MapsApp.onStore(path: path)
    }

    func first(_ text: String, near: Coordinate? = nil) throws -> FoundPlace? {
        try finder.places(matching: text, near: near, limit: 5, names: nil).first
    }

    @Test func ambiguousNamesResolveTheWayAPersonExpects() throws {
        let sanFrancisco = Coordinate(latitude: 37.7749, longitude: -122.4194)
        #expect(try first("Santa Cruz", near: sanFrancisco)?.position.latitude ?? 0 > 36)
        #expect(try first("Paris")?.position.longitude ?? 0 > 2)
        let boston = Coordinate(latitude: 42.3601, longitude: -71.0589)
        #expect(try first("Springfield", near: boston)?.position.longitude ?? 0 > -73)
        let near = try #require(try first("Santa Cruz", near: sanFrancisco))
        #expect(near.distance ?? 0 > 80_000 && near.distance ?? 0 < 120_000 && near.source == "gazetteer")
    }

    @Test func addressesAreReadFromTheirBroadestPartToTheirNarrowest() throws {
        let tokyo = try #require(try first("Tokyo Tower, Tokyo, Japan"))
        #expect(tokyo.name == "Tokyo" && tokyo.closestMatch == "Tokyo")
        // "Jamaica" here is the Queens neighbourhood within reach of New York, not the country.
        let jfk = try #require(
            try first("John F. Kennedy International Airport, Van Wyck Expressway, Jamaica, New York"))
        #expect(jfk.name == "Jamaica" && jfk.position.latitude > 40)
        // A street with its house number: the street.
        #expect(try first("Kaivokatu 5, Helsinki")?.name == "Kaivokatu")
        #expect(try first("Atlantis, Lemuria").map(\.name) == nil)
    }

    @Test func aDirectionsLinkWithTextEndsIsAnsweredAndDrawn() throws {
        let answer = try app.answer("comgooglemaps://?saddr=Cupertino&daddr=Mountain+View&directionsmode=walking")
        #expect(answer.routeEnds.map { $0.place?.name } == ["Cupertino", "Mountain View"])
        // Fitted to the two towns, the view is at a street zoom where the store has no streets.
        #expect(answer.notes.map(\.code) == [.routeUnavailable, .noStreetData])
        #expect(answer.coverage?.credits == ["GSHHG, NASA", "GeoNames"])
        let picture = try app.picture(of: answer)
        #expect(picture.labels > 0)
        // Street zooms outside the imported region say there is no street data there.
        let paris = try app.answer("comgooglemaps://?center=48.8584,2.2945&zoom=15")
        #expect(paris.notes.map(\.code) == [.noStreetData])
        #expect(try app.answer("comgooglemaps://?center=60.17,24.94&zoom=15").coverage?.regions == ["Helsinki"])
    }

    @Test func aSearchLinkMarksTheStoresMatchesNearItsCenter() throws {
        let answer = try app.answer("comgooglemaps://?q=Stockmann&center=60.1699,24.9384&zoom=16")
        #expect(answer.places.first?.name == "Stockmann" && answer.mapView.overlays.count == answer.places.count)
        #expect(answer.places.first?.source == "Helsinki", "the region it was found in")
    }
}
