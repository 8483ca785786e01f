import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import MapsURL
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

    /// Plus codes in every link form that carries a text, and the notes when one cannot be read.
    @Test func linksCarryPlusCodes() throws {
        let kaivokatu = try PlusCode(Coordinate(latitude: 60.1701, longitude: 24.9412))
        let short = String(kaivokatu.code.dropFirst(4))
        let links = [
            "https://www.google.com/maps/place/\(kaivokatu.code)",
            "https://www.google.com/maps/place/\(short)+Helsinki",
            "https://www.google.com/maps/search/?api=1&query=\(short)%2C+Helsinki",
            "comgooglemaps://?q=\(short.replacingOccurrences(of: "+", with: "%2B"))&center=60.17,24.94",
            "comgooglemapsurl://www.google.com/maps?q=\(kaivokatu.code)",
        ]
        for link in links {
            let answer = try app.answer(link)
            let place = try #require(answer.places.first, "\(link)")
            #expect(place.name == kaivokatu.code && place.plusCode == kaivokatu.code, "\(link)")
            #expect(answer.notes.allSatisfy { $0.code != .plusCodeUnread }, "\(link)")
        }
        // A directions end.
        let directions = try app.answer("comgooglemaps://?saddr=Kamppi&daddr=\(short)+Helsinki&directionsmode=walking")
        #expect(directions.routeEnds.last?.place?.name == kaivokatu.code)
        // Unreadable codes: no place, a note saying why, in the link's language.
        var italian = AnswerOptions()
        italian.language = .it
        let hostile = try app.answer("comgooglemaps://?q=88888888888888888888%2BXX", options: italian)
        #expect(hostile.places.isEmpty)
        #expect(hostile.notes.first?.code == .plusCodeUnread)
        #expect(hostile.notes.first?.message.contains("non è un plus code") == true)
        var spanish = AnswerOptions()
        spanish.language = .es
        let unplaced = try app.answer(
            "comgooglemaps://?q=\(short.replacingOccurrences(of: "+", with: "%2B"))", options: spanish)
        #expect(unplaced.places.isEmpty && unplaced.notes.first?.code == .plusCodeUnread)
        #expect(unplaced.notes.first?.message.contains("código plus corto") == true)
        let end = try app.answer("comgooglemaps://?saddr=Kamppi&daddr=9C3W2%2BXX")
        #expect(end.routeEnds.last?.place == nil && end.notes.contains { $0.code == .plusCodeUnread })
    }

    @Test func aSearchLinkMarksTheStoresMatchesNearItsCenter() throws {
        let answer = try app.answer("comgooglemaps://?q=Stockmann&center=60.1699,24.9384&zoom=16")
        #expect(answer.places.first?.name == "Stockmann" && answer.mapView.overlays.count == answer.places.count)
        #expect(answer.places.first?.source == "Helsinki", "the region it was found in")
    }
}

/// One app on a store, asked from many threads at once: every engine answers each thread on a
/// connection and a router of its own, and gives the same answers as one thread does.
@Suite struct ConcurrentEnginesTests {
    @Test func manyThreadsGetTheAnswersOneThreadGets() throws {
        let app = try MapsApp.onStore(path: try SeedPlaces.westVillageStore())
        let starts = [
            Coordinate(latitude: 40.73381, longitude: -74.00219), Coordinate(latitude: 40.7358, longitude: -74.0010),
            Coordinate(latitude: 40.7365, longitude: -74.0020), Coordinate(latitude: 40.7334, longitude: -74.0027),
        ]
        let end = Coordinate(latitude: 40.73878, longitude: -74.00366)
        let modes: [TravelMode] = [.driving, .walking, .bicycling]
        let questions = starts.flatMap { start in
            modes.map { DirectionsQuery(ends: [.coordinate(start), .coordinate(end)], mode: $0) }
        }
        let texts = ["Think Coffee", "Stonewall Inn", "Christopher Street", "cafe", "pharmacy", "Jane Street"]
        /// What one question's answers are, to compare: a route's length and steps, a search's names.
        @Sendable func route(_ query: DirectionsQuery) throws -> String {
            let answer = try app.directions(query)
            let route = try #require(answer.routes.first)
            return "\(route.distance) \(route.duration) \(answer.steps.joined().joined().map(\.name))"
        }
        @Sendable func found(_ text: String) throws -> String {
            try app.search(SearchQuery(text, limit: 5)).map(\.name).joined(separator: "|")
        }
        let expectedRoutes = try questions.map(route)
        let expectedSearches = try texts.map(found)
        // 64 questions on 8 threads, in an order that mixes modes and searches.
        let results = Results(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            if index % 2 == 0 {
                let query = questions[(index / 2) % questions.count]
                results.set(index, (try? route(query)) == expectedRoutes[(index / 2) % questions.count])
            } else {
                let text = texts[(index / 2) % texts.count]
                results.set(index, (try? found(text)) == expectedSearches[(index / 2) % texts.count])
            }
        }
        #expect(results.all.allSatisfy { $0 }, "\(results.all.enumerated().filter { !$0.element }.map(\.offset))")
    }
}
