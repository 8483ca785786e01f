import CairoKit
import Foundation
import GeoCore
import MapCore
import MapRenderer
import MapsApp
import MapsURL
import Routing
import TestSupport
import Testing

/// A place search over a fixed table: each text finds its places; every call is recorded.
final class FakePlaces: PlaceFinding, @unchecked Sendable {
    var table: [String: [FoundPlace]]
    private(set) var calls: [(text: String, near: Coordinate?, names: Language?, typing: Bool)] = []

    init(_ table: [String: [FoundPlace]]) { self.table = table }

    func places(matching text: String, near: Coordinate?, limit: Int, names: Language?, typing: Bool) throws
        -> [FoundPlace]
    {
        calls.append((text, near, names, typing))
        return Array((table[text] ?? []).prefix(limit))
    }

    static func place(_ name: String, _ latitude: Double, _ longitude: Double) -> FoundPlace {
        FoundPlace(
            name: name, position: Coordinate(latitude: latitude, longitude: longitude), why: "name matches '\(name)'")
    }
}

/// A map engine with fixed floors and coverage, drawing a blank canvas.
struct FakeDrawing: MapDrawing {
    var hasTrafficFeed = false
    var building: IndoorBuilding?
    var notice: String?

    func indoorBuilding(in view: MapView) throws -> IndoorBuilding? { building }
    func coverage(of view: MapView, language: Language?) throws -> MapCoverage {
        MapCoverage(credits: ["GSHHG, NASA"], regions: [], notice: notice)
    }
    func draw(_ view: MapView, format: PictureFormat, scale: Double, language: Language?) throws -> DrawnMap {
        DrawnMap(
            canvas: try Canvas(width: view.frame.size.width, height: view.frame.size.height), features: 0, labels: 0)
    }
}

/// The maps app's answers to links, with small fakes for its engines.
@Suite struct MapsAppTests {
    let size = Size(width: 800, height: 600)
    let bayArea = FakePlaces([
        "Cupertino": [FakePlaces.place("Cupertino", 37.323, -122.03218)],
        "Mountain View": [FakePlaces.place("Mountain View", 37.38605, -122.08385)],
        "Pizza": [
            FakePlaces.place("Pizzeria Delfina", 37.76125, -122.42441),
            FakePlaces.place("Little Star Pizza", 37.77747, -122.43804),
        ],
    ])

    func answer(_ link: String, _ app: MapsApp = MapsApp(), options: AnswerOptions = AnswerOptions()) throws -> Answer {
        var options = options
        options.size = size
        return try app.answer(link, options: options)
    }

    /// True when `coordinate` lies inside the view, at least `inset` points from its edges.
    func isInside(_ coordinate: Coordinate, _ view: MapView, inset: Double = 64) -> Bool {
        let point = view.projection.point(for: coordinate)
        return point.x >= inset - 1e-6 && point.x <= size.width - inset + 1e-6 && point.y >= inset - 1e-6
            && point.y <= size.height - inset + 1e-6
    }

    func codes(_ answer: Answer) -> [Note.Code] { answer.notes.map(\.code) }

    @Test func theSeedsCentralParkLink() throws {
        let answer = try answer("comgooglemaps://?center=40.765819,-73.975866&zoom=14&views=traffic")
        let view = answer.mapView
        #expect(view.camera.target == Coordinate(latitude: 40.765819, longitude: -73.975866))
        #expect(view.camera.zoom == 14)
        #expect(view.content.traffic && view.mapType == .normal)
        #expect(view.frame.size == size)
        #expect(answer.notes.isEmpty && answer.form == .comgooglemaps && answer.callback == nil)
    }

    @Test func satelliteViewShowsHybridAndClearedViewsTheRoadMap() throws {
        #expect(try answer("comgooglemaps://?center=1,2&views=satellite,transit").mapView.mapType == .hybrid)
        #expect(try answer("comgooglemaps://?center=1,2&views=satellite,transit").mapView.content.transit)
        #expect(try answer("comgooglemaps://?center=1,2&views=").mapView.mapType == .normal)
    }

    @Test func centerWithoutZoomUsesTheDefaultAndStreetViewIsANote() throws {
        let answer = try answer("comgooglemaps://?center=46.414382,10.013988&mapmode=streetview")
        #expect(answer.mapView.camera.zoom == MapsApp.defaultZoom)
        #expect(codes(answer) == [.streetViewUnavailable])
    }

    @Test func aPinnedSearchCentresOnItsMarkerWithoutSearching() throws {
        let answer = try answer("https://maps.google.com/?q=@37.3161,-122.1836", MapsApp(places: bayArea))
        #expect(answer.mapView.camera.target == Coordinate(latitude: 37.3161, longitude: -122.1836))
        #expect(answer.mapView.overlays.count == 1)
        #expect(bayArea.calls.isEmpty)
    }

    @Test func aRouteBetweenCoordinatesFitsBothEnds() throws {
        let answer = try answer("comgooglemaps://?saddr=60.17,24.94&daddr=60.20,24.97")
        for end in [Coordinate(latitude: 60.17, longitude: 24.94), Coordinate(latitude: 60.20, longitude: 24.97)] {
            #expect(isInside(end, answer.mapView))
        }
        #expect(answer.mapView.overlays.count == 2)
        #expect(answer.routeEnds.map(\.role) == [.start, .destination])
        #expect(codes(answer) == [.routeUnavailable])
    }

    /// With padding (a panel over the view's left, controls along its bottom), the ends fit in
    /// the part left visible and the camera's target is that part's centre.
    @Test func aRouteFitsThePartOfTheViewThePaddingLeaves() throws {
        var options = AnswerOptions()
        options.padding = EdgeInsets(top: 0, left: 360, bottom: 40, right: 0)
        let mapView = try answer("comgooglemaps://?saddr=60.17,24.94&daddr=60.20,24.97", options: options).mapView
        for end in [Coordinate(latitude: 60.17, longitude: 24.94), Coordinate(latitude: 60.20, longitude: 24.97)] {
            let point = mapView.projection.point(for: end)
            #expect(point.x >= 360 + 64 - 1e-6 && point.x <= 800 - 64 + 1e-6, "\(point)")
            #expect(point.y >= 64 - 1e-6 && point.y <= 600 - 40 - 64 + 1e-6, "\(point)")
        }
        let target = mapView.projection.point(for: mapView.camera.target)
        #expect(abs(target.x - (360 + 440 / 2)) < 1e-6 && abs(target.y - 560 / 2) < 1e-6)
        #expect(MapViewState(mapView).padding == options.padding)
    }

    /// An answer with isochrones draws each contour's areas from the link's centre, the
    /// largest first, and its view lists them.
    @Test func isochronesAreDrawnFromTheLinksCentre() throws {
        let app = try MapsApp.onStore(path: try TestExtracts.monacoStore())
        var options = try AnswerOptions(parameters: [("isochrone", "5,10"), ("isochronemode", "walking")])
        options.size = size
        let answer = try app.answer("comgooglemaps://?center=43.7347,7.4206&zoom=15", options: options)
        let areas = MapViewState(answer.mapView).areas
        #expect(!areas.isEmpty && areas.first?.title == "10 min" && areas.last?.title == "5 min")
        #expect(areas.allSatisfy { !$0.rings.isEmpty && $0.fill != nil })
        #expect(throws: AppError.self) { try AnswerOptions(parameters: [("isochrone", "5,500")]) }
        #expect(throws: AppError.self) { try AnswerOptions(parameters: [("isochronemode", "transit")]) }
        #expect(throws: AppError.self) {
            try MapsApp().answer("comgooglemaps://?center=43.7347,7.4206&zoom=15", options: options)
        }
    }

    /// OSRM's `snapping`: by default a point beside a private service road meets the nearest
    /// road a route may start on (as OSRM's car profile, never such a road); `any` meets the
    /// private road itself, on nearest, route and table alike.
    @Test func snappingAnyMeetsRoadsRoutesDoNotStartOn() throws {
        let app = try MapsApp.onStore(path: try TestExtracts.monacoStore())
        // On way 95825511 (highway=service, access=private), between its second and third nodes.
        let point = Coordinate(latitude: 43.738535, longitude: 7.425955)
        let privateNodes: Set<Int64> = [1_110_560_545, 1_110_560_526]
        func nearest(_ parameters: [(name: String, value: String)]) throws -> (nodes: Set<Int64>, metres: Double) {
            let answer = try app.nearest(point, mode: .driving, parameters: parameters)
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(answer.document.utf8)) as? [String: Any])
            let waypoint = try #require((document["waypoints"] as? [[String: Any]])?.first)
            let nodes = try #require(waypoint["nodes"] as? [NSNumber]).map(\.int64Value)
            return (Set(nodes), try #require(waypoint["distance"] as? Double))
        }
        let byDefault = try nearest([])
        let anyRoad = try nearest([("snapping", "any")])
        #expect(byDefault.nodes.isDisjoint(with: privateNodes) && byDefault.metres > 5, "\(byDefault)")
        #expect(anyRoad.nodes == privateNodes && anyRoad.metres < 1)
        #expect(try nearest([("snapping", "default")]).nodes == byDefault.nodes)
        #expect(try app.nearest(point, mode: .driving, parameters: [("snapping", "some")]).code == "InvalidOptions")
        // A route from the point starts on the private road with `any`, on the other without.
        let destination = Coordinate(latitude: 43.7394, longitude: 7.4230)
        func startMetres(_ parameters: [(name: String, value: String)]) throws -> Double {
            let (query, _) = try DirectionsQuery.osrm(
                points: [point, destination], mode: .driving, parameters: parameters)
            return try #require(app.directions(query).routes.first?.snapped.first?.distance)
        }
        #expect(try startMetres([("snapping", "any")]) < 1)
        let defaultStart = try startMetres([])
        #expect(abs(defaultStart - byDefault.metres) < 0.5, "\(defaultStart) \(byDefault)")
        // A table's sources meet the roads as the route's start does.
        var table = try TableQuery(points: [point, destination], mode: .driving, parameters: [("snapping", "any")])
        #expect(try #require(app.table(table, maxCells: 4).sources.first).distance < 1)
        table.snapsToAnyRoad = false
        #expect(abs(try #require(app.table(table, maxCells: 4).sources.first).distance - byDefault.metres) < 0.5)
    }

    /// OSRM's hints: every waypoint carries where it met the roads, and a later request giving
    /// the same point with that hint meets the roads there again, whatever else it asks; a hint
    /// of another point or server is passed over, and `generate_hints=false` writes none.
    @Test func aHintMeetsThePointWhereAnEarlierAnswerDid() throws {
        let app = try MapsApp.onStore(path: try TestExtracts.monacoStore())
        // Between Avenue de l'Hermitage (the nearest road) and Avenue Henri Dunant, heading east.
        let point = Coordinate(latitude: 43.738535, longitude: 7.425955)
        let destination = Coordinate(latitude: 43.7311, longitude: 7.4203)
        func json(_ text: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        func nearest(_ parameters: [(name: String, value: String)]) throws -> [String: Any] {
            let document = try json(try app.nearest(point, mode: .driving, parameters: parameters).document)
            return try #require((document["waypoints"] as? [[String: Any]])?.first)
        }
        let plain = try nearest([])
        let eastward = try nearest([("bearings", "90,20")])
        #expect(
            plain["name"] as? String == "Avenue de l'Hermitage" && eastward["name"] as? String == "Avenue Henri Dunant")
        let hint = try #require(eastward["hint"] as? String)
        #expect(hint != plain["hint"] as? String && hint.count > 20)
        #expect(try nearest([("generate_hints", "false")])["hint"] == nil)

        func routeStart(_ parameters: [(name: String, value: String)], from start: Coordinate = point) throws -> (
            road: String?, hint: String?
        ) {
            let (query, output) = try DirectionsQuery.osrm(
                points: [start, destination], mode: .driving, parameters: parameters)
            let document = try json(try app.directions(query).osrm(hints: output.hints))
            let waypoint = try #require((document["waypoints"] as? [[String: Any]])?.first)
            return (waypoint["name"] as? String, waypoint["hint"] as? String)
        }
        // The route from the point starts on the road the hint names, without the bearing.
        #expect(try routeStart([]).road == "Avenue de l'Hermitage")
        let hinted = try routeStart([("hints", "\(hint);")])
        #expect(hinted.road == "Avenue Henri Dunant" && hinted.hint == hint)
        // Another server's hint, or this one given with another point: snapped as usual.
        let osrms =
            "lOcBgCT0sIkmAAAAAAAAAAAAAAAAAAAA-pFrQQAAAAAAAAAAJgAAAAAAAAAAAAAAxA4AAAbUfgDMH24ASNR-AN8fbgACAL8A6W44Yg=="
        #expect(try routeStart([("hints", "\(osrms);")]).road == "Avenue de l'Hermitage")
        let nearby = Coordinate(latitude: 43.738536, longitude: 7.425955)
        #expect(try routeStart([("hints", "\(hint);")], from: nearby).road == "Avenue de l'Hermitage")
        #expect(try routeStart([("hints", "\(hint);"), ("generate_hints", "false")]).hint == nil)
        // One entry a point, as OSRM asks.
        #expect(throws: AppError.self) {
            let (query, _) = try DirectionsQuery.osrm(
                points: [point, destination], mode: .driving, parameters: [("hints", hint)])
            _ = try app.directions(query)
        }
        // A table and a trip meet it there too, and write the hints of the points they met.
        let table = try app.table(
            try TableQuery(points: [point, destination], mode: .driving, parameters: [("hints", "\(hint);")]),
            maxCells: 4)
        #expect(table.sources.first?.name == "Avenue Henri Dunant" && table.sources.first?.hint?.text == hint)
        let tableDocument = try json(table.osrm)
        #expect((tableDocument["destinations"] as? [[String: Any]])?.allSatisfy { $0["hint"] is String } == true)
        let trip = try json(
            try app.trip(
                try TripQuery(
                    points: [point, destination, Coordinate(latitude: 43.7445, longitude: 7.4280)], mode: .driving,
                    parameters: [("hints", "\(hint);;")])
            ).document)
        let stops = try #require(trip["waypoints"] as? [[String: Any]])
        #expect(stops.first?["name"] as? String == "Avenue Henri Dunant" && stops.allSatisfy { $0["hint"] is String })
    }

    @Test func aSpanFitsItsBox() throws {
        let mapView = try answer("https://maps.google.com/maps?ll=35.6586,139.7454&spn=0.2,0.1").mapView
        let projection = mapView.projection
        let southWest = projection.point(for: Coordinate(latitude: 35.5586, longitude: 139.6954))
        let northEast = projection.point(for: Coordinate(latitude: 35.7586, longitude: 139.7954))
        // The box fills the view in its tighter dimension (height here) and fits in the other.
        #expect(abs(southWest.y - 600) < 1e-6 && abs(northEast.y) < 1e-6)
        #expect(southWest.x >= 0 && northEast.x <= 800)
        #expect(abs(mapView.camera.target.latitude - 35.6586) < 1e-3)
    }

    @Test func theEndsAreNamedInTheAnswersLanguage() throws {
        // The ends' names in the answer's language.
        for (language, roles) in [
            (Language.es, ["Salida", "Destino"]), (.it, ["Partenza", "Destinazione"]),
            (.hi, ["प्रस्थान", "गंतव्य"]),
        ] {
            var options = AnswerOptions()
            options.language = language
            let translated = try self.answer(
                "comgooglemaps://?saddr=Cupertino&daddr=Mountain+View", MapsApp(places: bayArea), options: options)
            let snippets = translated.mapView.overlays.compactMap { overlay -> String? in
                if case .marker(let marker) = overlay { marker.snippet } else { nil }
            }
            #expect(snippets == roles)
        }
        // The link's hl, when no language is asked for: Spanish from es-419, English from fr.
        for (hl, start) in [("es-419", "Salida"), ("it_IT", "Partenza"), ("fr", "Start")] {
            let answer = try self.answer(
                "http://maps.google.com/maps?saddr=Cupertino&daddr=Mountain+View&hl=\(hl)", MapsApp(places: bayArea))
            let first = answer.mapView.overlays.compactMap { overlay -> String? in
                if case .marker(let marker) = overlay { marker.snippet } else { nil }
            }.first
            #expect(first == start, "hl=\(hl)")
        }
    }

    @Test func notesAreWrittenInTheAnswersLanguageAndPlacesNamedInIt() throws {
        var options = AnswerOptions()
        options.language = .es
        let places = FakePlaces(bayArea.table)
        let spanish = try answer(
            "comgooglemaps://?saddr=Cupertino&daddr=Sunnyvale", MapsApp(places: places), options: options)
        #expect(
            spanish.notes.map(\.message) == [
                "el destino «Sunnyvale» no está en los datos del mapa",
                "todavía no se calcula ninguna ruta: se marcan los extremos de las indicaciones",
            ])
        #expect(places.calls.map(\.names) == [.es, .es], "places are asked for in the answer's language")
        options.language = .hi
        let hindi = try answer(
            "comgooglemaps://?q=Kebab&center=37.759748,-122.427135",
            MapsApp(places: FakePlaces(["Kebab": [FakePlaces.place("Kebab Helsinki", 60.17, 24.94)]])),
            options: options)
        #expect(
            hindi.notes.map(\.message) == [
                "मानचित्र के केंद्र के पास कोई जगह “Kebab” से मेल नहीं खाती; सबसे नज़दीकी मेल, Kebab Helsinki, 8,724 किमी दूर है"
            ])
        // The link's hl chooses too; without a choice, English notes and local names.
        let italian = try answer(
            "http://maps.google.com/maps?q=Sushi&ll=1,2&hl=it", MapsApp(places: FakePlaces([:])))
        #expect(italian.notes.map(\.message) == ["nessun luogo nei dati della mappa corrisponde a «Sushi»"])
        #expect(italian.language == .it)
        let english = FakePlaces([:])
        let plain = try answer("comgooglemaps://?q=Sushi&center=1,2", MapsApp(places: english))
        #expect(plain.notes.map(\.message) == ["no place in the map data matches 'Sushi'"])
        #expect(plain.language == nil && english.calls.first.map { $0.names == nil } == true)
    }

    @Test func directionsWithTextEndsAreLookedUpMarkedAndFitted() throws {
        let answer = try answer("comgooglemaps://?saddr=Cupertino&daddr=Mountain+View", MapsApp(places: bayArea))
        #expect(answer.routeEnds.map { $0.place?.name } == ["Cupertino", "Mountain View"])
        let markers = answer.mapView.overlays.compactMap { overlay -> Marker? in
            if case .marker(let marker) = overlay { marker } else { nil }
        }
        #expect(markers.map(\.title) == ["Cupertino", "Mountain View"])
        #expect(markers.map(\.snippet) == ["Start", "Destination"])
        for marker in markers { #expect(isInside(marker.position, answer.mapView)) }
        #expect(answer.mapView.camera.zoom > 10)
        // Each end is the first result of a search of its text; without a viewport in the link,
        // the start by match alone, each later end near the end placed before it.
        #expect(bayArea.calls.map(\.text) == ["Cupertino", "Mountain View"])
        #expect(bayArea.calls.map(\.near) == [nil, answer.routeEnds[0].place?.position])
        #expect(codes(answer) == [.routeUnavailable])
    }

    @Test func textEndsAreLookedUpNearTheLinksCenter() throws {
        let center = Coordinate(latitude: 37.422185, longitude: -122.083898)
        let answer = try answer(
            "comgooglemaps://?saddr=Cupertino&daddr=Mountain+View&center=37.422185,-122.083898&zoom=10",
            MapsApp(places: bayArea))
        #expect(bayArea.calls.count == 2 && bayArea.calls.allSatisfy { $0.near == center })
        // The link's camera stands; the ends are marked where they are.
        #expect(answer.mapView.camera.target == center && answer.mapView.camera.zoom == 10)
        #expect(answer.mapView.overlays.count == 2)
    }

    @Test func anEndThatIsNotFoundIsNamedInANote() throws {
        let answer = try answer("comgooglemaps://?saddr=Cupertino&daddr=Atlantis", MapsApp(places: bayArea))
        #expect(answer.routeEnds.map { $0.place?.name } == ["Cupertino", nil])
        let note = try #require(answer.notes.first { $0.code == .endNotPlaced })
        #expect(note.message.contains("destination 'Atlantis'"))
        // The one end found is shown at the default zoom, not the whole world.
        #expect(answer.mapView.camera.zoom == MapsApp.defaultZoom)
    }

    @Test func aLinkWhoseEndsCannotBePlacedNeverOpensTheWorldSilently() throws {
        let answer = try answer("comgooglemaps://?saddr=Atlantis&daddr=Lemuria", MapsApp(places: bayArea))
        #expect(answer.mapView.overlays.isEmpty)
        #expect(codes(answer).contains(.nothingPlaced))
        #expect(codes(answer).filter { $0 == .endNotPlaced }.count == 2)
        let withoutSearch = try self.answer("comgooglemaps://?saddr=Cupertino&daddr=Mountain+View")
        #expect(codes(withoutSearch).filter { $0 == .searchUnavailable }.count == 2)
        #expect(codes(withoutSearch).contains(.nothingPlaced))
    }

    @Test func aBlankStartIsMyLocationWhenItIsKnown() throws {
        var options = AnswerOptions()
        options.myLocation = Coordinate(latitude: 37.33, longitude: -122.0)
        let known = try answer(
            "comgooglemaps://?saddr=&daddr=Mountain+View", MapsApp(places: bayArea), options: options)
        #expect(known.routeEnds.first?.place?.position == options.myLocation)
        #expect(known.mapView.isMyLocationEnabled)
        let unknown = try answer("comgooglemaps://?daddr=Mountain+View", MapsApp(places: bayArea))
        #expect(unknown.routeEnds.first?.waypoint == .currentLocation && unknown.routeEnds.first?.place == nil)
        #expect(unknown.notes.contains { $0.code == .endNotPlaced && $0.message.contains("user's location") })
    }

    @Test func aSearchLinkMarksTheResultsNearItsCenter() throws {
        let answer = try answer("comgooglemaps://?q=Pizza&center=37.759748,-122.427135", MapsApp(places: bayArea))
        #expect(answer.places.map(\.name) == ["Pizzeria Delfina", "Little Star Pizza"])
        #expect(answer.mapView.overlays.count == 2)
        #expect(bayArea.calls.first?.near == Coordinate(latitude: 37.759748, longitude: -122.427135))
        // The link's center keeps the camera.
        #expect(answer.mapView.camera.target == Coordinate(latitude: 37.759748, longitude: -122.427135))
    }

    @Test func aSearchWithoutCenterFitsItsResultsAndNoMatchIsANote() throws {
        let fitted = try answer("comgooglemaps://?q=Pizza", MapsApp(places: bayArea))
        for place in fitted.places { #expect(isInside(place.position, fitted.mapView)) }
        let none = try answer("comgooglemaps://?q=Sushi&center=1,2", MapsApp(places: bayArea))
        #expect(codes(none) == [.noMatch] && none.mapView.overlays.isEmpty)
        let unsearched = try answer("comgooglemaps://?q=Sushi&center=1,2")
        #expect(codes(unsearched) == [.searchUnavailable])
    }

    @Test func aSearchKeepsToTheAreaAroundTheLinksCenter() throws {
        let places = FakePlaces([
            "Pizza": [
                FakePlaces.place("Pizza Helsinki", 60.17, 24.94),
                FakePlaces.place("Pizzeria Delfina", 37.76125, -122.42441),
            ],
            "Kebab": [FakePlaces.place("Kebab Helsinki", 60.17, 24.94)],
        ])
        let mixed = try answer("comgooglemaps://?q=Pizza&center=37.759748,-122.427135", MapsApp(places: places))
        #expect(mixed.places.map(\.name) == ["Pizzeria Delfina"], "a match 8,600 km away is not a result")
        #expect(mixed.notes.isEmpty)
        let far = try answer("comgooglemaps://?q=Kebab&center=37.759748,-122.427135", MapsApp(places: places))
        #expect(far.places.isEmpty)
        #expect(far.notes.map(\.code) == [.noMatchNearby])
        #expect(
            far.notes.first?.message
                == "no place near the map's center matches 'Kebab'; the nearest match, Kebab Helsinki, is 8,724 km away"
        )
        let anywhere = try answer("comgooglemaps://?q=Kebab", MapsApp(places: places))
        #expect(anywhere.places.map(\.name) == ["Kebab Helsinki"], "without a center the whole map is searched")
        let city = FoundPlace(
            name: "Cupertino", position: Coordinate(latitude: 37.323, longitude: -122.03218), kind: "city",
            why: "name matches 'Cupertino'")
        let fromSanFrancisco = try answer(
            "comgooglemaps://?q=Cupertino&center=37.7749,-122.4194&zoom=15",
            MapsApp(places: FakePlaces(["Cupertino": [city]])))
        #expect(fromSanFrancisco.places.map(\.name) == ["Cupertino"], "a town 60 km away is found wherever it is")
    }

    @Test func anXCallbackLinkOffersItsValidatedButtonExceptInNavigation() throws {
        let answer = try answer(
            "comgooglemaps-x-callback://?center=40.765819,-73.975866&zoom=14&x-success=sourceapp://?resume=true&x-source=SourceApp"
        )
        #expect(answer.callback?.source == "SourceApp" && answer.callback?.success == "sourceapp://?resume=true")
        let navigating = try self.answer(
            "comgooglemapsurl://maps.google.com/maps?f=d&daddr=Tokyo+Tower,+Tokyo,+Japan&sll=35.6586,139.7454&sspn=0.2,0.1&nav=1&x-source=SourceApp&x-success=sourceapp://?resume=true"
        )
        #expect(navigating.callback == nil && codes(navigating).contains(.callbackHiddenInNavigation))
        let hostile = try self.answer(
            "comgooglemaps-x-callback://?center=1,2&x-success=javascript:alert(1)&x-source=Evil")
        #expect(hostile.callback == nil && hostile.diagnostics.contains { $0.severity == .error })
    }

    @Test func placeIdsAndShortLinksSayWhyTheyAreNotFollowed() throws {
        let placeID = try answer("https://www.google.com/maps/search/?api=1&query=Pizza&query_place_id=ChIJ123")
        #expect(codes(placeID).contains(.placeIDUnresolved))
        let short = try answer("https://maps.app.goo.gl/abc123")
        #expect(codes(short) == [.shortLinkUnresolved])
    }

    @Test func theFloorIsChosenAmongTheFloorsInView() throws {
        let building = IndoorBuilding(
            id: "levels in view", levels: [IndoorLevel(name: "7"), IndoorLevel(name: "0")], defaultLevelIndex: 1)
        let app = MapsApp(drawing: FakeDrawing(building: building))
        var options = AnswerOptions()
        options.level = "7"
        let answer = try answer("comgooglemaps://?center=60.1688,24.9405&zoom=18", app, options: options)
        #expect(answer.mapView.activeLevel?.name == "7")
        options.level = "3"
        #expect(throws: AppError.self) {
            try self.answer("comgooglemaps://?center=60.1688,24.9405&zoom=18", app, options: options)
        }
        // Below the indoor zoom there are no floors to choose from.
        options.level = "7"
        #expect(throws: AppError.self) {
            try self.answer("comgooglemaps://?center=60.1688,24.9405&zoom=12", app, options: options)
        }
    }

    @Test func theEnginesNotesReachTheAnswer() throws {
        let app = MapsApp(drawing: FakeDrawing(hasTrafficFeed: true, notice: "No street data here"))
        let answer = try answer("comgooglemaps://?center=37.42,-122.08&zoom=16", app)
        #expect(codes(answer) == [.trafficFeedUnused, .noStreetData])
        #expect(answer.coverage?.credits == ["GSHHG, NASA"])
        let picture = try app.picture(of: answer)
        #expect(picture.canvas.width == 800)
        #expect(throws: AppError.self) { try MapsApp().picture(of: answer) }
    }

    @Test func optionsApplyAfterTheLink() throws {
        var options = AnswerOptions()
        options.style = .dark
        options.mapType = .terrain
        options.bearing = 30
        options.tilt = 20
        let answer = try answer("comgooglemaps://?center=60.17,24.94&zoom=16", options: options)
        #expect(answer.mapView.mapType == .terrain && answer.mapView.content.colorScheme == .dark)
        #expect(answer.mapView.camera.bearing == 30 && answer.mapView.camera.viewingAngle == 20)
        options = AnswerOptions()
        options.accuracy = 10
        #expect(throws: AppError.self) { try self.answer("comgooglemaps://?center=1,2", options: options) }
    }

    @Test func anUnreadableLinkThrowsWithItsDiagnostics() {
        #expect {
            try MapsApp().answer("https://evil.example/maps/@1,2,3z")
        } throws: { error in
            guard case .unreadableLink(let diagnostics) = error as? AppError else { return false }
            return !diagnostics.isEmpty
        }
    }

    @Test func tileRunsAreSettledBeforeRendering() throws {
        struct NoRegions: TileRendering {
            func rasterCredits(for mapType: MapType) throws -> [String] { [] }
            func regions() throws -> [CoordinateBounds] { [] }
            func render(_ plan: TilePlan, into output: String, progress: (Double) -> Void) throws -> TileSummary {
                Issue.record("nothing should be rendered")
                return TileSummary(tiles: 0, metatiles: 0, workers: 1, seconds: 0)
            }
            func render(_ block: Metatile, style: TileStyle) throws -> [RenderedTile] {
                Issue.record("nothing should be rendered")
                return []
            }
            func vectorTile(_ tile: TileID) throws -> [UInt8] {
                Issue.record("nothing should be cut")
                return []
            }
        }
        let app = MapsApp(tiles: NoRegions())
        #expect(throws: AppError.self) { try app.plan(TileRequest()) }
        var world = TileRequest()
        world.bounds = .world
        world.zooms = 2...16
        #expect(throws: AppError.self) { try app.plan(world) }
        world.zooms = 2...4
        #expect(try app.plan(world).count == 16 + 64 + 256)
    }

    @Test func regionsFarApartAreTiledEachOnItsOwn() throws {
        struct TwoCities: TileRendering {
            func rasterCredits(for mapType: MapType) throws -> [String] { [] }
            func regions() throws -> [CoordinateBounds] {
                [
                    CoordinateBounds(
                        southWest: Coordinate(latitude: 60.164, longitude: 24.935),
                        northEast: Coordinate(latitude: 60.179, longitude: 24.953)),
                    CoordinateBounds(
                        southWest: Coordinate(latitude: 40.745, longitude: -74.01),
                        northEast: Coordinate(latitude: 40.775, longitude: -73.96)),
                ]
            }
            func render(_ plan: TilePlan, into output: String, progress: (Double) -> Void) throws -> TileSummary {
                TileSummary(tiles: 0, metatiles: 0, workers: 1, seconds: 0)
            }
            func render(_ block: Metatile, style: TileStyle) throws -> [RenderedTile] { [] }
            func vectorTile(_ tile: TileID) throws -> [UInt8] { [] }
        }
        var request = TileRequest()
        request.zooms = 12...16
        let plan = try MapsApp(tiles: TwoCities()).plan(request)
        #expect(plan.areas.count == 2)
        let expected = try TwoCities().regions().reduce(0) { total, area in
            (12...16).reduce(total) { $0 + TileID.count(covering: area, zoom: $1) }
        }
        #expect(plan.count == expected && plan.tiles.count == expected && expected < 500, "not the ocean between them")
        #expect(Set(plan.tiles).count == plan.tiles.count)
    }

    @Test(arguments: [
        (
            "comgooglemaps://?center=40.765819,-73.975866&zoom=14&views=traffic",
            "A map at 40.765819,-73.975866, zoom 14, with traffic"
        ),
        ("comgooglemaps://?q=Pizza&center=37.759748,-122.427135", "Search for 'Pizza' near 37.759748,-122.427135"),
        (
            "comgooglemaps://?saddr=&daddr=John+F.+Kennedy+International+Airport&directionsmode=transit",
            "Transit directions from your location to 'John F. Kennedy International Airport'"
        ),
        (
            "https://www.google.com/maps/dir/?api=1&origin=Cupertino&destination=Mountain+View&waypoints=Palo+Alto&travelmode=bicycling&dir_action=navigate",
            "Bicycling directions from 'Cupertino' via 'Palo Alto' to 'Mountain View', navigating"
        ),
        ("comgooglemaps://?center=46.414382,10.013988&mapmode=streetview", "Street View at 46.414382,10.013988"),
        (
            "comgooglemaps-x-callback://?q=dessert&x-success=sourceapp://?resume=true&x-source=Nom+Nom",
            "Search for 'dessert'; a button back to Nom Nom"
        ),
        (
            "https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8",
            "A short link to resolve: https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8"
        ),
        (
            "https://www.google.com/maps/@42.585444,13.007813,6z/data=!5m1!1e1",
            "A map at 42.585444,13.007813, zoom 6, with traffic"
        ),
    ])
    func anAnswerSaysWhatTheLinkAsksFor(link: String, asks: String) throws {
        #expect(try answer(link).asks == asks)
    }

    @Test(arguments: [
        (
            Language.es,
            [
                "Indicaciones en bicicleta desde «Cupertino» pasando por «Palo Alto» hasta «Mountain View», con navegación",
                "Un mapa en 42.585444,13.007813, zoom 6, con tráfico; un botón para volver a Nom Nom",
                "Buscar «Pizza» cerca de 37.759748,-122.427135",
            ]
        ),
        (
            .it,
            [
                "Indicazioni in bicicletta da «Cupertino» passando per «Palo Alto» a «Mountain View», in navigazione",
                "Una mappa in 42.585444,13.007813, zoom 6, con traffico; un pulsante per tornare a Nom Nom",
                "Cerca «Pizza» vicino a 37.759748,-122.427135",
            ]
        ),
        (
            .hi,
            [
                "“Cupertino” से “Palo Alto” होते हुए “Mountain View” तक साइकिल से जाने के दिशा-निर्देश, नेविगेशन के साथ",
                "42.585444,13.007813 पर एक मानचित्र, ज़ूम 6, यातायात के साथ; Nom Nom पर वापस जाने का बटन",
                "37.759748,-122.427135 के पास “Pizza” की खोज",
            ]
        ),
    ])
    func whatALinkAsksForIsSaidInTheAnswersLanguage(language: Language, sentences: [String]) throws {
        var options = AnswerOptions()
        options.language = language
        let links = [
            "https://www.google.com/maps/dir/?api=1&origin=Cupertino&destination=Mountain+View&waypoints=Palo+Alto&travelmode=bicycling&dir_action=navigate",
            "comgooglemaps-x-callback://?center=42.585444,13.007813&zoom=6&views=traffic&x-success=sourceapp://?resume=true&x-source=Nom+Nom",
            "comgooglemaps://?q=Pizza&center=37.759748,-122.427135",
        ]
        #expect(try links.map { try answer($0, options: options).asks } == sentences)
    }

    @Test func everyFormThatCarriesTheBicyclingLayerTurnsItOnWithoutANote() throws {
        let links = [
            "https://www.google.com/maps/@?api=1&map_action=map&center=60.1680,24.9440&zoom=16&layer=bicycling",
            "https://maps.google.com/maps?ll=60.1680,24.9440&z=16&lci=bike",
            "comgooglemapsurl://maps.google.com/maps?ll=60.1680,24.9440&z=16&lci=bike",
        ]
        for link in links {
            let found = try answer(link)
            #expect(found.mapView.content.bicycling, "\(link)")
            #expect(found.notes.isEmpty, "\(link): \(found.notes)")
            #expect(found.asks.contains("bicycling"), "\(found.asks)")
        }
        // And the user's own switch, for a link without it.
        var options = AnswerOptions()
        options.layers = [.bicycling]
        #expect(
            try answer("comgooglemaps://?center=60.1680,24.9440&zoom=16", options: options).mapView.content.bicycling)
    }

    @Test func aSearchForACoordinateAsksForAPin() throws {
        let asks = try answer("https://maps.google.com/?q=@37.3161,-122.1836").asks
        #expect(asks == "A map with a pin at 37.3161,-122.1836")
    }

    @Test func searchResultsAreNumberedPinsWithTheBestSelected() throws {
        var first = FakePlaces.place("Pizzeria Delfina", 37.76125, -122.42441)
        first.address = "3621 18th Street, San Francisco"
        let places = FakePlaces(["Pizza": [first, FakePlaces.place("Little Star Pizza", 37.77747, -122.43804)]])
        let found = try answer("comgooglemaps://?q=Pizza&center=37.759748,-122.427135", MapsApp(places: places))
        let markers = found.mapView.overlays.compactMap { overlay -> Marker? in
            if case .marker(let marker) = overlay { return marker }
            return nil
        }
        #expect(markers.map(\.glyph) == ["1", "2"])
        #expect(markers.first?.snippet == "3621 18th Street, San Francisco")
        #expect(found.mapView.selectedMarker == 0, "the best result shows its title and address")
        let state = MapViewState(found.mapView)
        #expect(state.selectedMarker == 0 && state.markers.map(\.glyph) == ["1", "2"])
        #expect(state.markers.first?.snippet == "3621 18th Street, San Francisco" && state.lines.isEmpty)
        let none = try answer("comgooglemaps://?center=37.759748,-122.427135&zoom=14", MapsApp(places: places))
        #expect(none.mapView.selectedMarker == nil)
    }
}
