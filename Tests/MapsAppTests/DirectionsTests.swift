import Foundation
import GeoCore
import MapsApp
import MapsURL
import Testing

@testable import MapData
@testable import Routing
@testable import Transit

/// A router that draws a straight leg between consecutive points, at 10 m/s; every call is
/// recorded, and a point at latitude 0 has no road.
final class FakeRouting: RouteFinding, @unchecked Sendable {
    struct Call: Equatable {
        var points: [Coordinate]
        var mode: TravelProfile.Mode
        var avoiding: Set<TravelProfile.RoadFeature>
        var alternatives: Int?
        var passage = Router.Passage()
    }
    private(set) var calls: [Call] = []
    /// Notes every route found carries.
    var notes: [Route.Note] = []

    func route(
        _ points: [Coordinate], mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature>,
        passing passage: Router.Passage
    ) throws -> Route {
        calls.append(Call(points: points, mode: mode, avoiding: avoiding, alternatives: nil, passage: passage))
        return try Self.straight(points, mode: mode, notes: notes)
    }

    func routes(
        from: Coordinate, to: Coordinate, mode: TravelProfile.Mode, avoiding: Set<TravelProfile.RoadFeature>,
        passing passage: Router.Passage, alternatives: Int
    ) throws -> [Route] {
        calls.append(
            Call(points: [from, to], mode: mode, avoiding: avoiding, alternatives: alternatives, passage: passage))
        let best = try Self.straight([from, to], mode: mode, notes: notes)
        var other = best
        other.legs[0].duration *= 1.2
        other.notes = []
        return [best] + Array(repeating: other, count: alternatives)
    }

    func steps(of route: Route) throws -> [[Step]] {
        route.legs.map { leg in
            [
                Step(
                    maneuver: Maneuver(kind: .depart, location: leg.geometry[0], bearingBefore: 0, bearingAfter: 0),
                    name: "Test Street", ref: "", destinations: "", distance: leg.distance, duration: leg.duration,
                    geometry: leg.geometry, mode: "driving", intersections: []),
                Step(
                    maneuver: Maneuver(kind: .arrive, location: leg.geometry[1], bearingBefore: 0, bearingAfter: 0),
                    name: "Test Street", ref: "", destinations: "", distance: 0, duration: 0,
                    geometry: [leg.geometry[1]], mode: "driving", intersections: []),
            ]
        }
    }

    static func straight(_ points: [Coordinate], mode: TravelProfile.Mode, notes: [Route.Note]) throws -> Route {
        if let index = points.firstIndex(where: { $0.latitude == 0 }) {
            throw RoutingError.noRoad(point: index, at: points[index], mode: mode)
        }
        let legs = zip(points, points.dropFirst()).map { from, to in
            let metres = from.distance(to: to)
            return Route.Leg(
                distance: metres, duration: metres / 10, geometry: [from, to], segmentDistances: [metres],
                segmentDurations: [metres / 10], segmentWays: [1], roads: ["Test Street"])
        }
        return Route(legs: legs, snapped: points.map { ($0, 0, "Test Street", nil) }, mode: mode, notes: notes)
    }
}

/// A timetable in Europe/Rome that offers, from any place to any other, a walk all the way
/// arriving at 08:20 and a ride arriving at 08:30 (so a rider is offered the ride first),
/// running on one day only; every call is recorded.
final class FakeTransit: TransitFinding, @unchecked Sendable {
    enum Call: Equatable {
        case leaving(ServiceTime?)
        case arrivingBy(ServiceTime)
    }
    private(set) var calls: [Call] = []
    /// The day the timetable runs, `YYYYMMDD`.
    let serviceDate = 2024_05_07

    func timezone() throws -> String? { "Europe/Rome" }

    func journeys(from origin: Coordinate, to destination: Coordinate, leaving time: ServiceTime?) throws
        -> [Journey]
    {
        calls.append(.leaving(time))
        return offered(from: origin, to: destination)
    }

    func journeys(from origin: Coordinate, to destination: Coordinate, arrivingBy time: ServiceTime) throws
        -> [Journey]
    {
        calls.append(.arrivingBy(time))
        return offered(from: origin, to: destination)
    }

    private func offered(from origin: Coordinate, to destination: Coordinate) -> [Journey] {
        let walk = Walk.straight(origin, destination)
        let walking = Journey(
            departure: 8 * 3600, arrival: 8 * 3600 + 20 * 60,
            legs: [.walk(.init(from: origin, to: destination, departure: 8 * 3600, walk: walk))],
            serviceDate: serviceDate)
        let ride = Journey.Ride(
            route: .init(id: "1", shortName: "1", longName: "", type: 0, colour: nil, textColour: nil),
            headsign: "Centro", tripID: "t1", from: "A", fromPoint: origin, to: "B", toPoint: destination,
            departure: 8 * 3600 + 5 * 60, arrival: 8 * 3600 + 30 * 60, stops: 4, geometry: [origin, destination],
            feed: "test")
        let riding = Journey(
            departure: 8 * 3600 + 5 * 60, arrival: 8 * 3600 + 30 * 60, legs: [.ride(ride)], serviceDate: serviceDate)
        return [walking, riding]
    }
}

/// `MapsApp.directions`: one answer for links, `openmaps route` and `/route/v1`.
@Suite struct DirectionsTests {
    let rome = Coordinate(latitude: 41.9028, longitude: 12.4964)
    let ostia = Coordinate(latitude: 41.7325, longitude: 12.2783)
    let places = FakePlaces([
        "Colosseo": [FakePlaces.place("Colosseo", 41.8902, 12.4922)],
        "Ostia Antica": [FakePlaces.place("Ostia Antica", 41.7556, 12.2916)],
    ])

    @Test func eachTravelModeRoutesOnItsProfileAndTransitOnTheTimetables() throws {
        let routing = FakeRouting()
        let transit = FakeTransit()
        let app = MapsApp(routing: routing, transit: transit)
        for mode in TravelMode.allCases {
            let answer = try app.directions(DirectionsQuery(ends: [.coordinate(rome), .coordinate(ostia)], mode: mode))
            #expect(answer.failure == nil)
            if mode == .transit {
                #expect(answer.routes.isEmpty && answer.journeys.count == 2 && answer.timezone == "Europe/Rome")
            } else {
                #expect(answer.routes.count == 1 && answer.journeys.isEmpty)
                #expect(routing.calls.last?.mode.rawValue == mode.rawValue)
            }
        }
        #expect(routing.calls.count == 4 && transit.calls.count == 1)
    }

    @Test func alternativesAreOfferedBetweenTwoEndsOnly() throws {
        let routing = FakeRouting()
        let app = MapsApp(routing: routing)
        var query = DirectionsQuery(ends: [.coordinate(rome), .coordinate(ostia)])
        query.alternatives = 2
        query.avoid = [.tolls, .ferries]
        let two = try app.directions(query)
        #expect(two.routes.count == 3 && two.steps.count == 3)
        #expect(
            routing.calls.last
                == .init(points: [rome, ostia], mode: .driving, avoiding: [.tolls, .ferries], alternatives: 2))
        query.ends.insert(.coordinate(Coordinate(latitude: 41.8, longitude: 12.4)), at: 1)
        let three = try app.directions(query)
        #expect(three.routes.count == 1 && three.routes[0].legs.count == 2)
        #expect(routing.calls.last?.alternatives == nil && routing.calls.last?.points.count == 3)
        // Without steps asked for, none are found.
        query.steps = .none
        #expect(try app.directions(query).steps.isEmpty)
    }

    @Test func textEndsAreSearchedNearTheQuerysPointElseNearTheEndBefore() throws {
        let app = MapsApp(places: places, routing: FakeRouting())
        let answer = try app.directions(DirectionsQuery(ends: [.query("Colosseo"), .query("Ostia Antica")]))
        #expect(answer.ends.map { $0.place?.name } == ["Colosseo", "Ostia Antica"])
        #expect(answer.ends.map(\.role) == [.start, .destination])
        #expect(places.calls.map(\.near) == [nil, answer.ends[0].place?.position])
        var near = DirectionsQuery(ends: [.query("Colosseo"), .query("Ostia Antica")])
        near.near = rome
        near.language = .it
        _ = try app.directions(near)
        #expect(places.calls.suffix(2).allSatisfy { $0.near == rome && $0.names == .it })
    }

    @Test func whyThereIsNoRouteIsAnAnswerInTheQuerysLanguage() throws {
        var query = DirectionsQuery(ends: [.coordinate(rome), .query("Atlantide")])
        query.language = .es
        let unplaced = try MapsApp(places: places, routing: FakeRouting()).directions(query)
        guard case .endsNotPlaced = unplaced.failure else { Issue.record("\(unplaced)"); return }
        #expect(unplaced.notes.map(\.message) == ["el destino «Atlantide» no está en los datos del mapa"])
        #expect(unplaced.allNotes.last?.code == .routeUnavailable)
        #expect(unplaced.osrmFailure?.code == "NoSegment")

        let noRoad = try MapsApp(routing: FakeRouting()).directions(
            DirectionsQuery(ends: [.coordinate(rome), .coordinate(Coordinate(latitude: 0, longitude: 12))]))
        guard case .noRoute(.noRoad(let point, _, _, _)) = noRoad.failure else { Issue.record("\(noRoad)"); return }
        #expect(point == 1 && noRoad.osrmFailure?.code == "NoSegment")
        #expect(noRoad.failureNote?.message.hasPrefix("no route: point 2 (0,12) has no road for driving") == true)
        // OSRM's message too is in the question's language.
        var farInItalian = DirectionsQuery(ends: [
            .coordinate(rome), .coordinate(Coordinate(latitude: 0, longitude: 12)),
        ])
        farInItalian.language = .it
        let italian = try MapsApp(routing: FakeRouting()).directions(farInItalian)
        #expect(italian.osrmFailure?.message.hasPrefix("il punto 2 (0,12) non ha strade percorribili") == true)

        let noEngine = try MapsApp().directions(DirectionsQuery(ends: [.coordinate(rome), .coordinate(ostia)]))
        guard case .noRouting = noEngine.failure else { Issue.record("\(noEngine)"); return }
        #expect(noEngine.osrmFailure == nil && noEngine.ends.allSatisfy { $0.place != nil })
        let noTimetable = try MapsApp().directions(
            DirectionsQuery(ends: [.coordinate(rome), .coordinate(ostia)], mode: .transit))
        guard case .noTimetable = noTimetable.failure else { Issue.record("\(noTimetable)"); return }
        #expect(noTimetable.osrmFailure?.code == "NoRoute")
    }

    @Test func routeNotesBecomeTheAnswersNotes() throws {
        let routing = FakeRouting()
        routing.notes = [.routingGraphMissing(.walking)]
        var query = DirectionsQuery(ends: [.coordinate(rome), .coordinate(ostia)], mode: .walking)
        query.language = .hi
        let answer = try MapsApp(routing: routing).directions(query)
        #expect(answer.notes.map(\.code) == [.routingGraphStale])
        #expect(answer.notes[0].message.contains("openmaps import --routing"))
    }

    @Test func osrmsExcludeIsNoRouteWhereALinksAvoidIsARouteWithANote() throws {
        let routing = FakeRouting()
        routing.notes = [.avoidanceUnmet(leg: 0, features: [.tolls], roads: ["A12"])]
        let app = MapsApp(routing: routing)
        var query = DirectionsQuery(ends: [.coordinate(rome), .coordinate(ostia)])
        query.avoid = [.tolls]
        let soft = try app.directions(query)
        #expect(soft.failure == nil && soft.routes.count == 1 && soft.notes.map(\.code) == [.avoidanceUnmet])
        #expect(try query.readOSRM("exclude", "toll") && query.avoidsStrictly && query.avoid == [.tolls])
        let strict = try app.directions(query)
        #expect(strict.routes.isEmpty && strict.osrmFailure?.code == "NoRoute")
        #expect(strict.osrmFailure?.message == "no way between points 1 and 2 avoids tolls: the route takes A12")
        #expect(throws: AppError.self) { try query.readOSRM("exclude", "toll,bridge") }
    }

    @Test func osrmsRouteOptionsAreReadAndCheckedAgainstThePoints() throws {
        let app = MapsApp(routing: FakeRouting())
        let via = Coordinate(latitude: 41.85, longitude: 12.45)
        var query = DirectionsQuery(ends: [.coordinate(rome), .coordinate(via), .coordinate(ostia)])
        #expect(try query.readOSRM("waypoints", "0;2") && query.legEnds == [0, 2])
        #expect(
            try query.readOSRM("radiuses", "unlimited;;25.5") && query.approaches?.map(\.radius) == [nil, nil, 25.5])
        #expect(try query.readOSRM("alternatives", "3") && query.alternatives == 2)
        #expect(try query.readOSRM("continue_straight", "true") && !(try query.readOSRM("foo", "bar")))
        let answer = try app.directions(query)
        #expect(answer.routes.first?.legs.count == 1 && answer.routes.first?.snapped.count == 3)
        for (name, value) in [("waypoints", "0;1"), ("waypoints", "1;2")] {
            var wrong = query
            _ = try wrong.readOSRM(name, value)
            #expect(throws: AppError.self, "\(name)=\(value)") { try app.directions(wrong) }
        }
        // Radiuses for two of the three points: refused.
        var two = DirectionsQuery(ends: query.ends)
        _ = try two.readOSRM("radiuses", "5;5")
        #expect(throws: AppError.self) { try app.directions(two) }
        #expect(throws: AppError.self) { try query.readOSRM("radiuses", "5;5") }
        for (name, value) in [("waypoints", "0;x"), ("radiuses", "-1;;"), ("alternatives", "maybe")] {
            var wrong = query
            #expect(throws: AppError.self, "\(name)=\(value)") { try wrong.readOSRM(name, value) }
        }
    }

    @Test func osrmsBearingsApproachesAndContinueStraightAreHandedToTheRouter() throws {
        let routing = FakeRouting()
        let app = MapsApp(routing: routing)
        let via = Coordinate(latitude: 41.85, longitude: 12.45)
        var query = DirectionsQuery(ends: [.coordinate(rome), .coordinate(via), .coordinate(ostia)])
        _ = try app.directions(query)
        #expect(routing.calls.last?.passage == Router.Passage())
        #expect(try query.readOSRM("bearings", "90,20;;359.5,180") && query.readOSRM("approaches", ";curb;opposite"))
        #expect(try query.readOSRM("continue_straight", "false") && query.continuesStraight == false)
        _ = try app.directions(query)
        let expected = Router.Passage(
            approaches: [
                Approach(bearing: (90, 20)), Approach(side: .curb), Approach(bearing: (359.5, 180), side: .opposite),
            ],
            continuesStraight: false)
        #expect(routing.calls.last?.passage == expected)
        // Alternatives between two ends meet them as asked too.
        var two = DirectionsQuery(ends: [.coordinate(rome), .coordinate(ostia)])
        two.alternatives = 1
        #expect(try two.readOSRM("approaches", "curb;") && two.readOSRM("continue_straight", "default"))
        _ = try app.directions(two)
        #expect(routing.calls.last?.passage == Router.Passage(approaches: [Approach(side: .curb), .any]))
        #expect(routing.calls.last?.alternatives == 1 && two.continuesStraight == nil)
        // snapping=any lets every point meet any road, each keeping what it asked besides.
        #expect(try two.readOSRM("snapping", "any") && two.snapsToAnyRoad)
        _ = try app.directions(two)
        #expect(
            routing.calls.last?.passage
                == Router.Passage(approaches: [Approach(side: .curb, anyRoad: true), Approach(anyRoad: true)]))
        #expect(try two.readOSRM("snapping", "default") && !two.snapsToAnyRoad)
        // Lists that do not fit the points, or each other, and values out of range are refused.
        var short = DirectionsQuery(ends: [.coordinate(rome), .coordinate(via), .coordinate(ostia)])
        _ = try short.readOSRM("bearings", "90,20;")
        #expect(throws: AppError.self) { try app.directions(short) }
        #expect(throws: AppError.self) { try short.readOSRM("approaches", "curb;curb;curb") }
        for (name, value) in [
            ("bearings", "361,20;;"), ("bearings", "90,181;;"), ("bearings", "90;;"), ("approaches", "kerb;;"),
            ("continue_straight", "yes"), ("snapping", "all"),
        ] {
            var wrong = DirectionsQuery(ends: [.coordinate(rome), .coordinate(via), .coordinate(ostia)])
            #expect(throws: AppError.self, "\(name)=\(value)") { try wrong.readOSRM(name, value) }
        }
    }

    @Test func transitLeavesAtTheClockTimeAskedOrArrivesByIt() throws {
        let transit = FakeTransit()
        let app = MapsApp(transit: transit)
        var query = DirectionsQuery(ends: [.coordinate(rome), .coordinate(ostia)], mode: .transit)
        query.time = .leavingLocal(try #require(LocalTime("2024-05-07T07:55")))
        let leaving = try app.directions(query)
        #expect(transit.calls.last == .leaving(ServiceTime(date: 2024_05_07, weekday: 1, seconds: 7 * 3600 + 55 * 60)))
        // The ride first, though walking is quicker: a transit question asks for transit.
        #expect(leaving.journeys.map(\.rides) == [1, 0] && leaving.notes.isEmpty)
        query.time = .arrivingLocal(try #require(LocalTime("2024-05-07T09:00")))
        _ = try app.directions(query)
        #expect(transit.calls.last == .arrivingBy(ServiceTime(date: 2024_05_07, weekday: 1, seconds: 9 * 3600)))
        // A moment on another day: that day's timetable does not run, said so.
        query.time = .leaving(Date(timeIntervalSince1970: 1_796_104_740))
        let later = try app.directions(query)
        #expect(later.notes.map(\.code) == [.timetableDate])
    }

    @Test func transitLeavesOutStopsAndAvoidancesAndSaysSo() throws {
        var query = DirectionsQuery(
            ends: [.coordinate(rome), .coordinate(Coordinate(latitude: 41.8, longitude: 12.4)), .coordinate(ostia)],
            mode: .transit)
        query.time = .leavingLocal(try #require(LocalTime("2024-05-07T07:55")))
        query.avoid = [.tolls]
        query.language = .it
        let answer = try MapsApp(transit: FakeTransit()).directions(query)
        #expect(answer.failure == nil && answer.journeys.count == 2)
        #expect(answer.notes.map(\.code) == [.stopsLeftOut, .avoidanceUnmet])
        #expect(answer.notes[1].message.contains("non possono evitare i pedaggi"))
    }

    @Test func questionsNoAnswerCanFollowAreRefusedByOption() throws {
        let app = MapsApp(routing: FakeRouting())
        var timed = DirectionsQuery(ends: [.coordinate(rome), .coordinate(ostia)])
        timed.time = .arrivingLocal(try #require(LocalTime("2024-05-07T09:00")))
        #expect(throws: AppError.self) { try app.directions(timed) }
        do {
            _ = try app.directions(timed)
        } catch {
            #expect(error.description == "'arrive' goes with transit directions only")
        }
        let many = DirectionsQuery(ends: Array(repeating: .coordinate(rome), count: 501))
        do {
            _ = try app.directions(many)
            Issue.record("501 ends were routed")
        } catch {
            #expect(error.description == "'via' takes at most 498 stops between the start and the destination, not 499")
        }
        #expect(LocalTime("2024-02-30T08:00") == nil && LocalTime("08:00") == nil)
        #expect(throws: AppError.self) { try DirectionsQuery.end("91,0") }
        #expect(try DirectionsQuery.end("41.9,12.5") == .coordinate(Coordinate(latitude: 41.9, longitude: 12.5)))
        #expect(try DirectionsQuery.end("Roma Termini") == .query("Roma Termini"))
    }

    @Test func aLinksDirectionsAreTheQuerysAnswer() throws {
        let routing = FakeRouting()
        let app = MapsApp(places: places, routing: routing)
        let link =
            "https://www.google.com/maps/dir/?api=1&origin=Colosseo&destination=Ostia+Antica&travelmode=bicycling&avoid=tolls"
        let answer = try app.answer(link)
        var query = DirectionsQuery(ends: [.query("Colosseo"), .query("Ostia Antica")], mode: .bicycling)
        query.avoid = [.tolls]
        query.alternatives = 2
        let direct = try app.directions(query)
        #expect(answer.route?.geometry == direct.routes.first?.geometry)
        #expect(answer.alternatives.count == 2 && answer.steps.count == 1)
        #expect(routing.calls.map(\.alternatives) == [2, 2])
        #expect(routing.calls.allSatisfy { $0.mode == .bicycling && $0.avoiding == [.tolls] })
    }
}

/// The search box's one policy, typed or entered.
@Suite struct SearchBoxTests {
    let places = FakePlaces([
        "Cupertino": [
            FoundPlace(
                name: "Cupertino", position: Coordinate(latitude: 37.323, longitude: -122.03218), kind: "city",
                why: "name matches 'Cupertino'")
        ],
        "Pizza": [FakePlaces.place("Pizzeria Delfina", 37.76125, -122.42441)],
    ])
    let rome = Coordinate(latitude: 41.9028, longitude: 12.4964)

    @Test func typingAndEnteringFindAndLeaveOutTheSamePlaces() throws {
        let app = MapsApp(places: places)
        let typed = try app.searchBox("Pizza", near: rome, language: .es, typing: true)
        var spanish = AnswerOptions()
        spanish.language = .es
        let entered = try app.answer("comgooglemaps://?q=Pizza&center=41.9028,12.4964", options: spanish)
        #expect(typed.places.isEmpty && entered.places.isEmpty)
        #expect(typed.notes == entered.notes.filter { $0.code == .noMatchNearby })
        #expect(typed.notes.map(\.code) == [.noMatchNearby])
        #expect(places.calls.map(\.typing) == [true, false])
        // A town is found wherever it is.
        #expect(try app.searchBox("Cupertino", near: rome, typing: true).places.map(\.name) == ["Cupertino"])
        #expect(try MapsApp().searchBox("Pizza", near: nil).notes.map(\.code) == [.searchUnavailable])
    }
}
