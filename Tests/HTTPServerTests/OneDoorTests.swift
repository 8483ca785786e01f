import Foundation
import GeoCore
import MapData
import MapsApp
import MapsCLI
import MapsServer
import TestSupport
import Testing

/// `openmaps route`, OSRM's `/route/v1` and a directions link ask one function
/// (`MapsApp.directions`): the same question gets the same route, steps and journeys.
@Suite struct OneDoorTests {
    func body(_ server: MapsServer, _ target: String) -> String? {
        exchange(port: server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")?.body
    }

    func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test func theCLITheServerAndALinkGiveTheSameRouteAndSteps() throws {
        let store = try SeedPlaces.westVillageStore()
        let app = try MapsApp.onStore(path: store)
        let server = try MapsServer(app: app, options: .loopback())
        defer { server.stop() }
        // Stonewall Inn to Think Coffee on foot, with Italian steps.
        let cli = OpenMapsCLI.run([
            "route", "40.73381,-74.00219", "40.73878,-74.00366", "--mode", "walking", "--steps", "--lang", "it",
            "--store", store,
        ])
        #expect(cli.exitCode == 0, "\(cli.standardError)")
        let served = try #require(
            body(server, "/route/v1/walking/-74.00219,40.73381;-74.00366,40.73878?steps=true&hl=it"))
        #expect(cli.standardOutput.trimmingCharacters(in: .newlines) == served)
        var italian = AnswerOptions()
        italian.language = .it
        let link = try app.answer(
            "comgooglemaps://?saddr=40.73381,-74.00219&daddr=40.73878,-74.00366&directionsmode=walking",
            options: italian)
        let route = try #require((json(served)["routes"] as? [[String: Any]])?.first)
        let best = try #require(link.route)
        #expect(abs((route["distance"] as? Double ?? 0) - best.distance) < 0.1)
        #expect(abs((route["duration"] as? Double ?? 0) - best.duration) < 0.1)
        let written = ((route["legs"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]] ?? []).compactMap {
            $0["instruction"] as? String
        }
        #expect(written.count >= 3 && written == link.steps.joined().map { link.instructions.text(for: $0) })
        // A text end is placed by the same search everywhere: the CLI says where.
        let named = OpenMapsCLI.run([
            "route", "40.73381,-74.00219", "Think Coffee", "--mode", "walking", "--store", store,
        ])
        #expect(named.exitCode == 0 && named.standardError.contains("note: 'Think Coffee' is Think Coffee"))
        let missing = OpenMapsCLI.run(["route", "40.73381,-74.00219", "Atlantis", "--store", store])
        #expect(missing.exitCode == 1)
        #expect(missing.standardError.contains("note: the destination 'Atlantis' is not in the map data"))
        #expect(missing.standardError.contains("no route: not every end of the directions could be placed"))
        // A clock time asks for a timetable: refused by name for a road route, on both doors.
        let timed = OpenMapsCLI.run([
            "route", "40.73381,-74.00219", "40.73878,-74.00366", "--depart", "2024-05-07T08:00", "--store", store,
        ])
        #expect(timed.exitCode == 64 && timed.standardError.contains("'--depart' goes with transit directions only"))
        let timedServed = json(
            body(server, "/route/v1/driving/-74.00219,40.73381;-74.00366,40.73878?depart=2024-05-07T08:00") ?? "")
        #expect(timedServed["code"] as? String == "InvalidOptions")
        #expect(timedServed["message"] as? String == "'depart' goes with transit directions only")
    }

    @Test func theCLITheServerAndALinkGiveTheSameJourneys() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-door-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: try FixtureStore.path(), toPath: store)
        let feed = folder.appendingPathComponent("timetable.zip").path
        try Data(FixtureTimetable.zip()).write(to: URL(fileURLWithPath: feed))
        _ = try GTFSImporter.importFeed(feed, into: store, name: "example-transit")
        let app = try MapsApp.onStore(path: store)
        let server = try MapsServer(app: app, options: .loopback())
        defer { server.stop() }
        let cli = OpenMapsCLI.run([
            "route", "60.1650,24.9360", "60.1790,24.9325", "--mode", "transit", "--depart", "2024-05-07T07:59",
            "--lang", "es", "--store", store,
        ])
        #expect(cli.exitCode == 0, "\(cli.standardError)")
        let served = try #require(
            body(server, "/route/v1/transit/24.9360,60.1650;24.9325,60.1790?depart=2024-05-07T07:59&hl=es"))
        #expect(cli.standardOutput.trimmingCharacters(in: .newlines) == served)
        // Arriving by a time: the same on both doors, and only one of the two times at once.
        let arriving = OpenMapsCLI.run([
            "route", "60.1650,24.9360", "60.1790,24.9325", "--mode", "transit", "--arrive", "2024-05-07T08:30",
            "--store", store,
        ])
        let arrivingServed = body(server, "/route/v1/transit/24.9360,60.1650;24.9325,60.1790?arrive=2024-05-07T08:30")
        #expect(arriving.exitCode == 0 && arriving.standardOutput.trimmingCharacters(in: .newlines) == arrivingServed)
        let both = OpenMapsCLI.run([
            "route", "60.1650,24.9360", "60.1790,24.9325", "--mode", "transit", "--arrive", "2024-05-07T08:30",
            "--depart", "2024-05-07T07:30", "--store", store,
        ])
        #expect(both.exitCode == 64)
        // A time that is not one is refused by name on both doors, in the same words.
        let badTime = OpenMapsCLI.run([
            "route", "60.1650,24.9360", "60.1790,24.9325", "--mode", "transit", "--depart", "2024-13-07T07:55",
            "--store", store,
        ])
        let badServed = json(
            body(server, "/route/v1/transit/24.9360,60.1650;24.9325,60.1790?depart=2024-13-07T07:55") ?? "")
        let message = try #require(badServed["message"] as? String)
        #expect(
            badServed["code"] as? String == "InvalidOptions" && message.hasPrefix("'depart' must be YYYY-MM-DDTHH:MM"))
        #expect(
            badTime.exitCode == 64
                && badTime.standardError.contains("'--depart' " + message.dropFirst("'depart' ".count)))
        // The link's journey is the first of those served.
        var options = AnswerOptions()
        options.departure = try #require(
            ISO8601DateFormatter().date(from: "2024-05-07T04:59:00Z"))  // 07:59 in Helsinki
        let link = try app.answer(
            "comgooglemaps://?saddr=60.1650,24.9360&daddr=60.1790,24.9325&directionsmode=transit", options: options)
        let first = try #require((json(served)["routes"] as? [[String: Any]])?.first)
        let journey = try #require(link.journey)
        #expect(first["departure"] as? String == JourneyClock.text(journey.departure))
        #expect(first["arrival"] as? String == JourneyClock.text(journey.arrival))
    }

    /// `openmaps isochrone`, `/isochrone/v1` and Valhalla's and GraphHopper's `/isochrone` ask
    /// one function (`MapsApp.isochrone`): the same contours, written each door's way.
    @Test func theCLIAndEveryIsochroneDoorDrawTheSameAreas() throws {
        let store = try SeedPlaces.westVillageStore()
        let server = try MapsServer(app: try MapsApp.onStore(path: store), options: .loopback())
        defer { server.stop() }
        let cli = OpenMapsCLI.run([
            "isochrone", "40.73381,-74.00219", "--minutes", "3,6", "--mode", "walking", "--polygons", "false",
            "--denoise", "1", "--store", store,
        ])
        #expect(cli.exitCode == 0, "\(cli.standardError)")
        let served = body(
            server, "/isochrone/v1/walking/-74.00219,40.73381?contours_minutes=3,6&polygons=false&denoise=1")
        #expect(json(cli.standardOutput) as NSDictionary == json(served ?? "") as NSDictionary)
        let lines = json(cli.standardOutput)["features"] as? [[String: Any]] ?? []
        #expect(lines.map { ($0["geometry"] as? [String: Any])?["type"] as? String } == ["LineString", "LineString"])
        // Valhalla's request, with its defaults (these), the same lines.
        let request =
            #"{"locations":[{"lat":40.73381,"lon":-74.00219}],"costing":"pedestrian","contours":[{"time":3},{"time":6}]}"#
        let valhalla = body(
            server, "/isochrone?json=" + request.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        #expect(json(valhalla ?? "") as NSDictionary == json(cli.standardOutput) as NSDictionary)
        // A bad option in the same words by the CLI and the server, each naming its own.
        let refused = OpenMapsCLI.run([
            "isochrone", "40.73381,-74.00219", "--minutes", "3", "--denoise", "2", "--store", store,
        ])
        let message = try #require(
            json(body(server, "/isochrone/v1/walking/-74.00219,40.73381?contours_minutes=3&denoise=2") ?? "")["message"]
                as? String)
        #expect(refused.exitCode == 64 && message.hasPrefix("'denoise' "))
        #expect(refused.standardError.contains("'--denoise' " + message.dropFirst("'denoise' ".count)))
    }

    @Test func anOptionIsRefusedInTheSameWordsByTheCLIAndTheServer() throws {
        let store = try FixtureStore.path()
        let server = try MapsServer(app: try MapsApp.onStore(path: store), options: .loopback())
        defer { server.stop() }
        let link = "comgooglemaps%3A%2F%2F%3Fcenter%3D60.17%2C24.94"
        for (flag, name, value) in [
            ("--tilt", "tilt", "120"), ("--size", "size", "10x10"), ("--lang", "hl", "fr"),
            ("--style", "scheme", "sepia"),
        ] {
            let cli = OpenMapsCLI.run(["view", "comgooglemaps://?center=60.17,24.94", flag, value, "--store", store])
            let served = json(body(server, "/api/answer?url=\(link)&\(name)=\(value)") ?? "")
            let message = try #require(served["error"] as? String)
            #expect(cli.exitCode == 64)
            #expect(message.hasPrefix("'\(name)' "))
            #expect(
                cli.standardError.contains("'\(flag)' " + message.dropFirst(name.count + 3)), "\(cli.standardError)")
        }
    }
}

/// `HH:MM` of seconds after midnight, as the journeys' documents write them.
enum JourneyClock {
    static func text(_ seconds: Int) -> String { String(format: "%02d:%02d", seconds / 3600 % 24, seconds / 60 % 60) }
}
