import CairoKit
import Foundation
import MapData
import MapsCLI
import MapsURL
import OSMReader
import SQLiteKit
import TestSupport
import Testing

/// The `openmaps url` commands, run in-process as a user would type them.
@Suite struct CLITests {
    @Test func parsePrintsTheRequestAsJSON() throws {
        let result = OpenMapsCLI.run([
            "url", "parse", "comgooglemaps://?center=40.765819,-73.975866&zoom=14&views=traffic",
        ])
        #expect(result.exitCode == 0)
        #expect(result.standardError == "")
        struct Output: Decodable {
            var form: LinkForm
            var action: MapsAction
            var request: MapsRequest
        }
        let output = try JSONDecoder().decode(Output.self, from: Data(result.standardOutput.utf8))
        #expect(output.form == .comgooglemaps)
        #expect(output.action == .map)
        #expect(output.request.zoom == 14)
        #expect(output.request.views == [.traffic])
    }

    @Test func parseReportsDiagnosticsOnStandardErrorAndFails() {
        let result = OpenMapsCLI.run(["url", "parse", "comgooglemaps://?center=nan,1&q=x"])
        #expect(result.exitCode == 1)
        #expect(result.standardOutput.contains("\"query\" : \"x\""))
        #expect(result.standardError.contains("                        ^^^^^"))
        #expect(result.standardError.contains("error[bad-coordinate] at 24"))
    }

    @Test func findListsEveryLinkWithItsOffsetAndFailsWhenThereIsNone() {
        let found = OpenMapsCLI.run([
            "url", "find",
            "Meet me here: https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8 (the café on the corner), or geo:41.89,12.49?z=15.",
        ])
        #expect(found.exitCode == 0)
        #expect(
            found.standardOutput
                == "14\tgoogle-short-link\tresolveShortLink\thttps://maps.app.goo.gl/V8oVAkbP9v3EBoXh8\n"
                + "85\tgeo\tmap\tgeo:41.89,12.49?z=15\n")
        let hostile = OpenMapsCLI.run(["url", "find", "https://maps.google.com.evil.example/?q=x javascript:alert(1)"])
        #expect(hostile.exitCode == 1 && hostile.standardError.contains("the text holds no Maps link"))
        let long = OpenMapsCLI.run(["url", "find", String(repeating: "x ", count: 40_000) + "geo:1,2"])
        #expect(long.exitCode == 1 && long.standardError.contains("first 65536 characters hold no Maps link"))
    }

    @Test func parseReadsTheOneLinkInAPastedText() {
        let result = OpenMapsCLI.run(["url", "parse", "see geo:1,2 and geo:3,4"])
        #expect(result.exitCode == 0)
        #expect(result.standardError.contains("note: read the Maps link in the text: geo:1,2"))
        #expect(result.standardError.contains("the text holds 2 Maps links; the first is read"))
    }

    @Test func validateExitsZeroOrOneWithACaret() {
        let good = OpenMapsCLI.run(["url", "validate", "https://www.google.com/maps/@42.585444,13.007813,6z"])
        #expect(good.exitCode == 0)
        #expect(good.standardOutput == "valid google-maps-web: map\n")
        let bad = OpenMapsCLI.run(["url", "validate", "https://maps.google.com.evil.com/maps/@1,2,3z"])
        #expect(bad.exitCode == 1)
        #expect(
            bad.standardError.hasPrefix(
                "https://maps.google.com.evil.com/maps/@1,2,3z\n        ^^^^^^^^^^^^^^^^^^^^^^^^\n"))
        #expect(bad.standardError.contains("error[host-not-maps]"))
    }

    @Test func convertToEachTarget() {
        let result = OpenMapsCLI.run([
            "url", "convert", "https://www.google.com/maps/@42.585444,13.007813,6z", "--to", "comgooglemaps",
        ])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "comgooglemaps://?center=42.585444,13.007813&zoom=6\n")
        let all = OpenMapsCLI.run([
            "url", "convert", "comgooglemaps://?q=Pizza&center=37.759748,-122.427135", "--to=all",
        ])
        #expect(all.exitCode == 0)
        #expect(
            all.standardOutput.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
                == ["comgooglemaps", "comgooglemapsurl", "desktop", "universal", "apple", "geo"])
        #expect(all.standardError.contains("skipped: cannot print as x-callback"))
        #expect(all.standardError.contains("warning: universal cannot express center"))
    }

    @Test func buildTheSeedsCentralParkLinks() {
        let plain = OpenMapsCLI.run([
            "url", "build", "--center", "40.765819,-73.975866", "--zoom", "14", "--views", "traffic",
        ])
        #expect(plain.standardOutput == "comgooglemaps://?center=40.765819,-73.975866&zoom=14&views=traffic\n")
        let callback = OpenMapsCLI.run([
            "url", "build", "--center", "40.765819,-73.975866", "--zoom", "14", "--x-source", "SourceApp",
            "--x-success",
            "sourceapp://?resume=true",
        ])
        #expect(callback.exitCode == 0)
        #expect(
            callback.standardOutput
                == "comgooglemaps-x-callback://?center=40.765819,-73.975866&zoom=14&x-source=SourceApp"
                + "&x-success=sourceapp://%3Fresume%3Dtrue\n")
    }

    @Test func buildDirectionsAndSearch() {
        let directions = OpenMapsCLI.run([
            "url", "build", "--saddr", "", "--daddr", "John F. Kennedy International Airport", "--directionsmode",
            "transit",
            "--to", "universal",
        ])
        #expect(directions.exitCode == 0)
        #expect(
            directions.standardOutput
                == "https://www.google.com/maps/dir/?api=1&destination=John+F.+Kennedy+International+Airport&travelmode=transit\n"
        )
        let search = OpenMapsCLI.run(["url", "build", "--query", "A & B", "--center", "1,2"])
        #expect(search.standardOutput == "comgooglemaps://?q=A+%26+B&center=1,2\n")
    }

    @Test(arguments: [
        ["url", "build", "--center", "nan,1"], ["url", "build", "--zoom", "99"], ["url", "build", "--x-source", "A"],
        ["url", "build", "--x-source", "A", "--x-success", "javascript:alert(1)"], ["url", "parse"],
        ["url", "parse", "a", "b"], ["url", "parse", "--bogus", "x"], ["url", "convert", "x"],
        ["url", "convert", "x", "--to", "fax"],
        ["url", "nope"], ["nope"], [], ["url", "build", "--zoom", "1", "--zoom", "2"], ["url", "build", "--zoom"],
    ])
    func usageErrorsExit64(_ arguments: [String]) {
        let result = OpenMapsCLI.run(arguments)
        #expect(result.exitCode == 64)
        #expect(result.standardError.hasPrefix("error: "))
    }

    @Test(arguments: [
        ["--help"], ["url", "--help"], ["url", "parse", "--help"], ["url", "build", "-h"], ["url", "choose", "--help"],
    ])
    func everyCommandHasHelp(_ arguments: [String]) {
        let result = OpenMapsCLI.run(arguments)
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("OVERVIEW:"))
        #expect(result.standardOutput.contains("USAGE: openmaps"))
    }

    @Test func theOverviewListsEveryCommandAndEachHasItsHelp() {
        let overview = OpenMapsCLI.run(["--help"]).standardOutput
        let listed = overview.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "COMMANDS:" }
            .dropFirst().prefix { !$0.isEmpty }
            .map { $0.split(separator: " ").prefix { !$0.isEmpty } }
        let names = listed.map { words -> String in
            // A group's command is two words ("url parse", "data info"), any other one.
            ["url", "osm", "data"].contains(String(words[0]))
                ? words.prefix(2).joined(separator: " ") : String(words[0])
        }
        for name in [
            "view", "open", "navigate", "search", "reverse", "route", "tiles", "import", "serve", "url parse",
            "data install", "data info", "osm info",
        ] {
            #expect(names.contains(name), "\(name) is not listed")
        }
        for name in names {
            let help = OpenMapsCLI.run(name.split(separator: " ").map(String.init) + ["--help"])
            #expect(
                help.exitCode == 0 && help.standardOutput.contains("USAGE: openmaps \(name)"),
                "\(name): \(help.standardError)")
        }
    }

    @Test func viewPrintsTheMapViewForALink() throws {
        let result = OpenMapsCLI.run([
            "view", "comgooglemaps://?center=40.765819,-73.975866&zoom=14&views=traffic", "--size", "800x600",
            "--style", "dark",
        ])
        #expect(result.exitCode == 0)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let content = try #require(json["content"] as? [String: Any])
        #expect(content["traffic"] as? Bool == true)
        #expect(content["colorScheme"] as? String == "dark")
        let camera = try #require(json["camera"] as? [String: Any])
        #expect(camera["zoom"] as? Double == 14)
        #expect(json["visibleRegion"] != nil && json["controls"] != nil)
        #expect(OpenMapsCLI.run(["view", "comgooglemaps://", "--size", "0x5"]).exitCode == 64)
        #expect(OpenMapsCLI.run(["view", "--help"]).standardOutput.contains("USAGE: openmaps view"))
    }

    @Test func chooseFollowsTheFallbackChain() {
        let link = "comgooglemaps-x-callback://?q=dessert&x-source=App&x-success=app://"
        let installed = OpenMapsCLI.run([
            "url", "choose", link, "--installed", "comgooglemaps,comgooglemaps-x-callback",
        ])
        let ranked = installed.standardOutput.split(separator: "\n").filter { $0.first?.isNumber == true }
            .map { String($0.split(separator: "\t")[0]) }
        #expect(ranked == ["1. x-callback", "2. comgooglemaps", "3. universal", "4. apple"])
        let none = OpenMapsCLI.run(["url", "choose", link])
        #expect(
            none.standardOutput.hasPrefix("1. universal\thttps://www.google.com/maps/search/?api=1&query=dessert\n"))
        #expect(none.standardOutput.contains("LSApplicationQueriesSchemes: comgooglemaps, comgooglemaps-x-callback"))
    }
}

/// The launcher's chain with an injected availability check and opener.
@Suite struct LauncherTests {
    final class Opened: @unchecked Sendable {
        private let lock = NSLock()
        private var links: [String] = []
        func append(_ link: String) { lock.withLock { links.append(link) } }
        var all: [String] { lock.withLock { links } }
    }

    let request = MapsRequest(query: "Pizza", callback: try! Callback(source: "App", success: "app://back"))

    @Test func prefersTheCallbackSchemeWhenInstalled() {
        let opened = Opened()
        let launcher = MapsLauncher(
            canOpen: { _ in true },
            open: {
                opened.append($0); return true
            })
        #expect(launcher.launch(request)?.target == .xCallback)
        #expect(opened.all == ["comgooglemaps-x-callback://?q=Pizza&x-source=App&x-success=app://back"])
    }

    @Test func fallsBackToThePlainSchemeWithoutACallback() {
        let launcher = MapsLauncher(canOpen: { $0 == "comgooglemaps://" }, open: { _ in true })
        #expect(launcher.launch(request)?.target == .comgooglemaps)
        var withoutCallback = request
        withoutCallback.callback = nil
        let everything = MapsLauncher(canOpen: { _ in true }, open: { _ in true })
        #expect(everything.candidates(for: withoutCallback).map(\.target) == [.comgooglemaps, .universal, .apple])
    }

    @Test func opensTheNextLinkWhenOneFails() {
        let opened = Opened()
        let launcher = MapsLauncher(
            canOpen: { _ in false },
            open: {
                opened.append($0); return $0.hasPrefix("https://maps.apple.com")
            })
        #expect(launcher.launch(request)?.target == .apple)
        #expect(
            opened.all == ["https://www.google.com/maps/search/?api=1&query=Pizza", "https://maps.apple.com/?q=Pizza"])
        let nothing = MapsLauncher(canOpen: { _ in false }, open: { _ in false })
        #expect(nothing.launch(request) == nil)
    }

    @Test func openRefusesPicturesItCannotWrite() {
        let result = OpenMapsCLI.run(["open", "comgooglemaps://?center=60.17,24.94&zoom=15", "-o", "map.jpg"])
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains("'-o' must end in .png, .svg or .pdf, not 'map.jpg'"))
        let scale = OpenMapsCLI.run(["open", "comgooglemaps://?center=60.17,24.94", "-o", "m.png", "--scale", "9"])
        #expect(scale.exitCode == 64 && scale.standardError.contains("'--scale' must be a number from 1 to 8"))
    }

    @Test
    func openWritesThePictureOfALink() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString).png")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = OpenMapsCLI.run([
            "open", "comgooglemaps://?center=60.1699,24.9384&zoom=15", "--size", "400x300", "--scale", "2", "-o", path,
            "--store", try FixtureStore.path(),
        ])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasPrefix("\(path): 400×300 points, zoom 15.00"))
        let picture = try Canvas(png: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(picture.width == 800 && picture.height == 600)
    }

    @Test func layerTurnsTheBicyclingLayerOnForAnyLink() throws {
        let store = try FixtureStore.path()
        let link = "comgooglemaps://?center=60.1680,24.9440&zoom=16"
        let plain = OpenMapsCLI.run(["view", link, "--store", store])
        let cycling = OpenMapsCLI.run(["view", link, "--layer", "bicycling,transit", "--store", store])
        #expect(plain.exitCode == 0 && cycling.exitCode == 0)
        #expect(plain.standardOutput.contains(#""bicycling" : false"#))
        #expect(
            cycling.standardOutput.contains(#""bicycling" : true"#)
                && cycling.standardOutput.contains(#""transit" : true"#))
        let wrong = OpenMapsCLI.run(["view", link, "--layer", "cycling", "--store", store])
        #expect(wrong.exitCode == 64)
        #expect(wrong.standardError.contains("'--layer' may list traffic, transit and bicycling, not 'cycling'"))
    }

    @Test
    func openWritesTheAnswerAsJSON() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = OpenMapsCLI.run([
            "open",
            "comgooglemaps-x-callback://?saddr=60.1713,24.9414&daddr=60.1675,24.9530&directionsmode=walking&x-success=sourceapp://?resume=true&x-source=SourceApp",
            "-o", folder + "/walk.png", "--answer", folder + "/walk.json", "--store", try FixtureStore.path(),
        ])
        #expect(result.exitCode == 0)
        struct Document: Decodable {
            struct End: Decodable { var role: String }
            struct Note: Decodable { var code: String }
            struct Callback: Decodable { var source: String, success: String }
            var asks: String
            var action: String
            var form: String
            var routeEnds: [End]
            var notes: [Note]
            var callback: Callback?
            var credits: [String]
            var regions: [String]
            struct Route: Decodable { var mode: String, distance: Double }
            var route: Route?
        }
        let document = try JSONDecoder().decode(
            Document.self, from: try Data(contentsOf: URL(fileURLWithPath: folder + "/walk.json")))
        #expect(
            document.asks
                == "Walking directions from 60.1713,24.9414 to 60.1675,24.953; a button back to SourceApp")
        #expect(document.action == "directions" && document.form == "comgooglemaps-x-callback")
        #expect(document.routeEnds.map(\.role) == ["start", "destination"])
        // The fixture's streets cross without shared nodes: no network to route on, and it says so.
        #expect(document.notes.map(\.code) == ["route-unavailable"])
        #expect(document.route == nil)
        #expect(document.callback?.source == "SourceApp" && document.callback?.success == "sourceapp://?resume=true")
        #expect(document.regions == ["Helsinki"] && document.credits.first == "© OpenStreetMap contributors")
    }

    @Test
    func importTellsExtractsAndFeedsByContent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/new/store.sqlite"
        let xml = folder + "/lake.osm"
        try Data(
            OSMXMLWriter.file(nodes: [
                TestNode(
                    id: 1, latitude: 601_000_000, longitude: 249_000_000,
                    tags: [("amenity", "cafe"), ("name", "Kahvila")])
            ])
        )
        .write(to: URL(fileURLWithPath: xml))
        let osm = OpenMapsCLI.run(["import", xml, "--store", store])
        #expect(osm.exitCode == 0)
        #expect(osm.standardOutput.hasPrefix("lake: 1 features into \(store)"))
        let feed = folder + "/metro.zip"
        try Data(FixtureFeed.zip()).write(to: URL(fileURLWithPath: feed))
        let gtfs = OpenMapsCLI.run(["import", feed, "--store", store, "--licence", "CC BY 4.0"])
        #expect(gtfs.exitCode == 0)
        #expect(
            gtfs.standardOutput.hasPrefix(
                "metro: 2 routes, 3 stations, 2 stops, 1 entrances, 0 timetabled trips into \(store)"))
        let info = OpenMapsCLI.run(["data", "info", "--store", store])
        #expect(info.standardOutput.contains("metro [gtfs]: 8 features"))
        #expect(info.standardOutput.contains("  Transit data: Example Metro, CC BY 4.0\n  from \(feed)"))
        try Data("<osm version='0.6'>\n<node id='1' lat='1'/>\n</osm>".utf8).write(to: URL(fileURLWithPath: xml))
        let bad = OpenMapsCLI.run(["import", xml, "--store", store])
        #expect(bad.exitCode == 1)
        #expect(bad.standardError.contains("\(xml): malformed at line 2, column 1: <node> has no 'lon' attribute"))
    }

    @Test
    func importBuildsTheRoutingGraphsAndRouteSaysWhenTheyAreMissing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/store.sqlite"
        let imported = OpenMapsCLI.run([
            "import", SeedPlaces.path(of: "nyc-west-village-8th-ave-2015.osm.pbf"), "--store", store,
        ])
        #expect(imported.exitCode == 0)
        #expect(imported.standardOutput.contains("routing graphs: driving "))
        #expect(imported.standardOutput.contains(", two-wheeler "))
        // The village's cars and two-wheelers have the same graph: one hierarchy, contracted once.
        #expect(
            imported.standardOutput.contains("the same graph as driving's")
                || imported.standardOutput.contains("the same graph as two-wheeler's"), "\(imported.standardOutput)")
        let route = OpenMapsCLI.run(["route", "40.73381,-74.00219", "40.73878,-74.00366", "--store", store])
        #expect(route.exitCode == 0 && !route.standardError.contains("routing graph"), "\(route.standardError)")
        // Without them (written empty), the route is still found, and the note says what to run.
        try RoadNetwork.write([], into: store)
        let slow = OpenMapsCLI.run(["route", "40.73381,-74.00219", "40.73878,-74.00366", "--store", store])
        #expect(slow.exitCode == 0)
        #expect(slow.standardError.contains("note: the store has no routing graph for driving"))
        #expect(slow.standardError.contains("'openmaps import --routing' builds it"))
        let rebuilt = OpenMapsCLI.run(["import", "--routing", "--store", store])
        #expect(rebuilt.exitCode == 0 && rebuilt.standardOutput.hasPrefix("routing graphs: driving "))
        let info = OpenMapsCLI.run(["data", "info", "--store", store])
        #expect(info.standardOutput.contains("routing graphs: bicycling "))
        #expect(info.standardOutput.contains(", two-wheeler "))
        // The itinerary written out, in Hindi; and OSRM's steps with their instructions.
        let text = OpenMapsCLI.run([
            "route", "40.73381,-74.00219", "40.73878,-74.00366", "--format", "text", "--lang", "hi", "--store", store,
        ])
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("1. ") == true && lines.first?.contains("की ओर चलें") == true)
        #expect(lines.last?.hasPrefix("कुल: ") == true && lines.contains { $0.contains("आप अपने गंतव्य पर पहुँच गए हैं") })
        let osrm = OpenMapsCLI.run([
            "route", "40.73381,-74.00219", "40.73878,-74.00366", "--steps", "--lang", "es", "--store", store,
        ])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(osrm.standardOutput.utf8)) as? [String: Any])
        let legs = try #require((document["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])
        let steps = try #require(legs.first?["steps"] as? [[String: Any]])
        #expect(steps.count >= 3)
        #expect((steps.first?["maneuver"] as? [String: Any])?["type"] as? String == "depart")
        #expect((steps.first?["instruction"] as? String)?.hasPrefix("Dirígete al ") == true)
        #expect((steps.last?["maneuver"] as? [String: Any])?["type"] as? String == "arrive")
        let gpx = OpenMapsCLI.run([
            "route", "40.73381,-74.00219", "40.73878,-74.00366", "--format", "gpx", "--store", store,
        ])
        #expect(gpx.standardOutput.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\""))
        #expect(gpx.standardOutput.contains("<name>Head ") && gpx.standardOutput.contains("<trkpt lat=\"40.73"))
        #expect(gpx.standardOutput.hasSuffix("</gpx>\n") || gpx.standardOutput.hasSuffix("</gpx>"))
        // A directions link opened in Italian: the route, then its steps written out.
        let folderPNG = folder + "/walk.png"
        let opened = OpenMapsCLI.run([
            "open", "comgooglemaps://?saddr=40.73381,-74.00219&daddr=40.73878,-74.00366&directionsmode=walking", "-o",
            folderPNG, "--lang", "it", "--answer", folder + "/walk.json", "--store", store,
        ])
        #expect(opened.exitCode == 0)
        #expect(opened.standardOutput.contains("\n1. Dirigiti verso "))
        #expect(
            opened.standardOutput.contains("Sei arrivato a destinazione") && opened.standardOutput.contains("Totale: "))
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/walk.json")))
                as? [String: Any])
        #expect(answer["language"] as? String == "it" && ((answer["steps"] as? [Any])?.count ?? 0) >= 3)
        // A link that navigates: the driver's camera and the state a navigation app starts in.
        let navigate =
            "https://www.google.com/maps/dir/?api=1&origin=40.73381,-74.00219&destination=40.73878,-74.00366&travelmode=walking&dir_action=navigate"
        let view = OpenMapsCLI.run(["view", navigate, "--store", store])
        let state = try #require(
            try JSONSerialization.jsonObject(with: Data(view.standardOutput.utf8)) as? [String: Any])
        let camera = try #require(state["camera"] as? [String: Any])
        #expect(camera["viewingAngle"] as? Double == 45 && camera["zoom"] as? Double == 18)
        #expect((camera["bearing"] as? Double ?? 0) != 0, "turned along the first step")
        let navigated = OpenMapsCLI.run([
            "open", navigate, "-o", folderPNG, "--answer", folder + "/nav.json", "--store", store,
        ])
        #expect(navigated.standardOutput.contains("\nnavigation: "))
        // The picture has the navigation banner across its top and the panel above the credits,
        // in Hindi with every glyph shaped (no missing-glyph boxes).
        let hindi = OpenMapsCLI.run(["open", navigate, "-o", folder + "/nav-hi.png", "--lang", "hi", "--store", store])
        #expect(hindi.exitCode == 0)
        let picture = try Canvas(png: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/nav-hi.png"))))
        let banner = try #require(picture.pixel(x: 400, y: 4))
        #expect(banner.red == 0x0B && banner.green == 0x6E && banner.blue == 0x4F)
        let sentence = try #require(hindi.standardOutput.split(separator: "\n").first { $0.hasPrefix("1. ") })
        let probe = try Canvas(width: 400, height: 60)
        #expect(TextLayout(String(sentence), size: 17, on: probe).unknownGlyphs == 0)
        // `navigate` at a later step, with the route as GPX.
        let navigateLink = "comgooglemaps://?saddr=40.73381,-74.00219&daddr=40.73878,-74.00366&directionsmode=walking"
        let later = OpenMapsCLI.run([
            "navigate", navigateLink,
            "--at-step", "2", "-o", folderPNG, "--gpx", folder + "/walk.gpx", "--store", store,
        ])
        #expect(later.exitCode == 0 && later.standardOutput.contains("\nnavigation: "))
        let track = try String(contentsOfFile: folder + "/walk.gpx", encoding: .utf8)
        #expect(track.contains("<rtept lat=") && track.contains("</gpx>"))
        let noFolder = OpenMapsCLI.run([
            "navigate", navigateLink, "-o", folderPNG, "--gpx", folder + "/missing/walk.gpx", "--store", store,
        ])
        #expect(noFolder.exitCode == 64)
        #expect(
            noFolder.standardError.contains("'--gpx' names a file in a folder that does not exist: \(folder)/missing"))
        let nowhere = OpenMapsCLI.run(["navigate", "comgooglemaps://?q=pizza", "-o", folderPNG, "--store", store])
        #expect(nowhere.exitCode == 1 && nowhere.standardError.contains("the link has no route to navigate"))
        let navAnswer = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/nav.json")))
                as? [String: Any])
        let navigation = try #require(navAnswer["navigation"] as? [String: Any])
        #expect(
            (navigation["arrival"] as? String)?.count == 5
                && (navigation["remaining"] as? String)?.hasSuffix(" min") == true)
        let nothing = OpenMapsCLI.run(["import", "--store", store])
        #expect(nothing.exitCode == 64)
        #expect(nothing.standardError.contains("import needs a file to import (or --routing"))
    }

    @Test
    func searchAndReverseFromTheCommandLine() throws {
        let store = try FixtureStore.path()
        let search = OpenMapsCLI.run(["search", "Aleksanterinkatu 52", "--near", "60.17,24.94", "--store", store])
        #expect(search.exitCode == 0)
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(search.standardOutput.utf8)) as? [String: Any])
        let first = try #require((collection["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])
        #expect(first["name"] as? String == "Stockmann")
        let nominatim = OpenMapsCLI.run(["search", "कैफ़े", "--format", "jsonv2", "--lang", "hi", "--store", store])
        #expect(nominatim.exitCode == 0 && nominatim.standardOutput.contains("\"name\" : \"Fazer 8th Floor\""))
        let reverse = OpenMapsCLI.run(["reverse", "60.16871,24.94105", "--format", "jsonv2", "--store", store])
        #expect(reverse.exitCode == 0)
        #expect(
            reverse.standardOutput.contains(
                "\"display_name\" : \"Stockmann, Aleksanterinkatu 52, Kluuvi, 00100 Helsinki, Finland\""))
        let nothing = OpenMapsCLI.run(["search", "Atlantis", "--store", store])
        #expect(nothing.exitCode == 0 && nothing.standardError.contains("no place in the map data matches 'Atlantis'"))
    }

    @Test(arguments: [
        (["search", ""], "the query has no word to search for"),
        (["search", "cafe", "--limit", "0"], "the limit must be 1 to 50, not 0"),
        (["search", "cafe", "--limit", "ten"], "'--limit' must be a whole number, not 'ten'"),
        (["search", "cafe", "--lang", "fr"], "'--lang' must be en, es, it or hi, not 'fr'"),
        (["search", "cafe", "--near", "91,0"], "'--near' must be LAT,LNG in decimal degrees, not '91,0'"),
        (["search", "cafe", "--format", "xml"], "'--format' must be geojson, jsonv2 or json, not 'xml'"),
        (
            ["reverse", "60.17,nan"],
            "the point must be LAT,LNG in decimal degrees within ±90 and ±180, not '60.17,nan'"
        ),
        (["reverse", "60.17,24.94", "--lang", "xx"], "'--lang' must be en, es, it or hi, not 'xx'"),
    ])
    func searchRefusesBadInput(arguments: [String], message: String) throws {
        let result = OpenMapsCLI.run(arguments + ["--store", try FixtureStore.path()])
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test(arguments: [
        (["route", "60.17,24.94"], "missing argument"),
        (["route", "60.17,24.94", "91,0"], "'91,0' is not a latitude within ±90 and a longitude within ±180"),
        (["route", "60.17,24.94", "60.16,24.95", "--mode", "flying"], "'--mode' must be driving, walking"),
        (["route", "60.17,24.94", "60.16,24.95", "--format", "kml"], "'--format' must be osrm, geojson, text or gpx"),
        (["route", "60.17,24.94", "60.16,24.95", "--geometries", "wkt"], "'--geometries' must be polyline"),
        (
            ["route", "60.17,24.94", "60.16,24.95", "--avoid", "tolls,hills"],
            "'--avoid' takes tolls, highways and ferries"
        ),
        (["route", "60.17,24.94", "60.16,24.95", "--lang", "fr"], "'--lang' must be en, es, it or hi, not 'fr'"),
        (["route", "60.17,24.94", "60.16,24.95", "--units", "parsecs"], "'--units' must be metric or imperial"),
    ])
    func routeRefusesBadInput(arguments: [String], message: String) throws {
        let result = OpenMapsCLI.run(arguments + ["--store", try FixtureStore.path()])
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test
    func routeSaysWhyThereIsNone() throws {
        let result = OpenMapsCLI.run(["route", "0,0", "60.17,24.94", "--store", try FixtureStore.path()])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("no route: point 1 (0,0) has no road for driving within 5 km"))
    }

    @Test
    func openOffersTheValidatedCallbackOnly() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString).svg")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let good = OpenMapsCLI.run([
            "open",
            "comgooglemaps-x-callback://?center=60.17,24.94&zoom=12&x-success=sourceapp://?resume=true&x-source=SourceApp",
            "-o", path, "--store", try FixtureStore.path(),
        ])
        #expect(good.exitCode == 0)
        #expect(good.standardOutput.contains("back button: \"SourceApp\" opens sourceapp://?resume=true when tapped"))
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).contains("<svg"))
        let hostile = OpenMapsCLI.run([
            "open",
            "comgooglemaps-x-callback://?center=60.17,24.94&zoom=12&x-success=javascript:alert(1)&x-source=Evil",
            "-o", path, "--store", try FixtureStore.path(),
        ])
        #expect(!hostile.standardOutput.contains("back button"))
        #expect(hostile.standardError.contains("x-success"))
    }

    @Test(arguments: [
        (["tiles", "--zooms", "12-16"], "'--out FILE.mbtiles' is required"),
        (["tiles", "--out", "t.mbtiles", "--zooms", "16-12"], "'--zooms' must be a zoom or a range like 10-16"),
        (["tiles", "--out", "t.mbtiles", "--zooms", "1-3"], "within 2-21, not '1-3'"),
        (["tiles", "--out", "t.mbtiles", "--bbox", "24.9,60.2,25.0"], "'--bbox' must be WEST,SOUTH,EAST,NORTH"),
        (["tiles", "--out", "t.mbtiles", "--bbox", "24.9,89,25.0,90"], "latitudes within ±85.0511"),
        (["tiles", "--out", "t.mbtiles", "--workers", "0"], "'--workers' must be a whole number from 1 to 256"),
        (["tiles", "--out", "t.mbtiles", "--metatile", "32"], "'--metatile' must be a whole number from 1 to 16"),
        (
            ["tiles", "--out", "t.mbtiles", "--store", " "],
            "'--store' must be a store file's path or a postgresql:// URL"
        ),
        (
            ["tiles", "--out", "t.mbtiles", "--bbox", "-180,-85,180,85", "--zooms", "2-12"],
            "the zooms make 22306128 tiles; at most 4000000 at once"
        ),
    ])
    func tilesRefusesBadOptions(arguments: [String], message: String) {
        let result = OpenMapsCLI.run(arguments)
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains(message))
    }

    @Test(
        arguments: [
            (["--level", "9"], "'--level' must be one of the floors in view (7, 1, 0), not '9'"),
            (["--accuracy", "30"], "'--accuracy' describes My Location, which is not given"),
            (["--tilt", "120"], "'--tilt' must be a number from 0 to 90, not '120'"),
            (["--bearing", "east"], "'--bearing' must be a number from -360 to 360, not 'east'"),
        ])
    func openRefusesBadViewOptions(options: [String], message: String) throws {
        let result = OpenMapsCLI.run(
            [
                "open", "comgooglemaps://?center=60.1688,24.9405&zoom=18", "-o", "/tmp/never-written.png", "--store",
                try FixtureStore.path(),
            ] + options)
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains(message))
        #expect(result.standardError.contains("Run 'openmaps open --help' for usage."))
    }

    @Test
    func openReadsTheTrafficFeedAndSaysWhenItIsNotShown() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let feed = directory.appendingPathComponent("traffic.csv").path
        try "way_id,congestion\n1000,slow\n".write(toFile: feed, atomically: true, encoding: .utf8)
        let picture = directory.appendingPathComponent("map.png").path
        let bad = OpenMapsCLI.run([
            "open", "comgooglemaps://?center=60.17,24.94&zoom=16&views=traffic", "--traffic", feed, "-o", picture,
            "--store", try FixtureStore.path(),
        ])
        #expect(bad.exitCode == 1 && bad.standardError.contains("traffic.csv:2: 'slow' is not a congestion level"))
        #expect(!FileManager.default.fileExists(atPath: picture))
        try "1000,heavy\n".write(toFile: feed, atomically: true, encoding: .utf8)
        let hidden = OpenMapsCLI.run([
            "open", "comgooglemaps://?center=60.17,24.94&zoom=16", "--traffic", feed, "-o", picture, "--store",
            try FixtureStore.path(),
        ])
        #expect(hidden.exitCode == 0 && hidden.standardError.contains("does not turn the traffic layer on"))
    }

    @Test
    func tilesWritesAnMBTilesFileOfTheImportedRegion() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-\(UUID().uuidString).mbtiles"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // No --bbox: the imported region (the fixture's Helsinki), 2 × 2 tiles at zoom 14 and 3 × 3 at zoom 15.
        let result = OpenMapsCLI.run([
            "tiles", "--zooms", "14-15", "--out", path, "--workers", "2", "--store", try FixtureStore.path(),
        ])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasPrefix("\(path): 13 tiles, zooms 14-15"))
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let rows = try database.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles").rows()
        #expect(rows.count == 13)
        for row in rows {
            guard case .blob(let png) = row[3] else { throw CLIProblem.notABlob }
            let tile = try Canvas(png: png)
            #expect(tile.width == 256 && tile.height == 256)
        }
        #expect(rows.contains { $0[0] == .integer(14) && $0[1] == .integer(9326) && $0[2] == .integer(16383 - 4742) })
    }

    @Test
    func shardsRenderDisjointPartsThatMakeTheWholeRun() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func tiles(_ file: String, _ extra: [String]) throws -> [String: [UInt8]] {
            let result = OpenMapsCLI.run(
                ["tiles", "--zooms", "14-16", "--metatile", "2", "--out", folder + "/" + file, "--store"]
                    + [try FixtureStore.path()] + extra)
            #expect(result.exitCode == 0, "\(result.standardError)")
            let database = try SQLiteDatabase(path: folder + "/" + file, mode: .readOnly)
            var found: [String: [UInt8]] = [:]
            for row in try database.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles").rows() {
                guard case .blob(let png) = row[3] else { throw CLIProblem.notABlob }
                found["\(row[0])/\(row[1])/\(row[2])"] = png
            }
            return found
        }
        let whole = try tiles("all.mbtiles", [])
        let parts = try (1...3).map { try tiles("part-\($0).mbtiles", ["--shard", "\($0)/3"]) }
        #expect(whole.count > 13 && parts.allSatisfy { !$0.isEmpty })
        #expect(parts.map(\.count).reduce(0, +) == whole.count)
        let merged = parts.reduce(into: [String: [UInt8]]()) { $0.merge($1) { first, _ in first } }
        #expect(merged == whole)
        for bad in ["0/3", "4/3", "2", "a/b", "1/0"] {
            let refused = OpenMapsCLI.run(["tiles", "--out", folder + "/x.mbtiles", "--shard", bad])
            #expect(refused.exitCode == 64 && refused.standardError.contains("'--shard' must be K/N"), "\(bad)")
        }
    }
}

enum CLIProblem: Error { case notABlob }

/// `openmaps update`: what it says of a change file, a replication feed and bad input.
@Suite struct UpdateCommandTests {
    @Test func changeFilesAndFeedsAreAppliedAndBadInputIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/store.sqlite"
        let extract = try FixtureStreet.write(in: folder)
        #expect(OpenMapsCLI.run(["import", extract, "--store", store, "--no-routing"]).exitCode == 0)
        let renamed: [OSMChange] = [
            FixtureStreet.renamed,
            .init(
                action: .create,
                element: .node(
                    OSMNode(
                        id: 3, latitudeNano: 60_170_500_000, longitudeNano: 24_940_500_000,
                        tags: [("amenity", "cafe"), ("name", "Kulma")]))),
        ]
        try ReplicationFeedWriter.publish(renamed, sequence: 8, timestamp: 1_764_800_000, in: folder + "/feed")
        let followed = OpenMapsCLI.run([
            "update", "--replication", folder + "/feed", "--sequence", "7", "--store", store, "--no-routing",
        ])
        #expect(followed.exitCode == 0, "\(followed.standardError)")
        #expect(followed.standardOutput.hasPrefix("corner: 2 changes from sequence 8 (2025-12-03T22:13:20Z) into"))
        #expect(followed.standardOutput.contains("1 created, 1 modified, 0 deleted"))
        #expect(followed.standardOutput.contains("corner: sequences 8 to 8 of \(folder)/feed applied"))
        let search = OpenMapsCLI.run(["search", FixtureStreet.newName, "--store", store])
        #expect(search.standardOutput.contains(FixtureStreet.newName), "\(search.standardOutput)")
        let upToDate = OpenMapsCLI.run(["update", "--replication", folder + "/feed", "--store", store])
        #expect(
            upToDate.exitCode == 0 && upToDate.standardOutput.contains("up to date with \(folder)/feed at sequence 8"))
        // Two sequences behind: caught up in one update, a café made in one and renamed in the next.
        func cafe(_ id: Int64, _ name: String, version: Int32) -> OSMChange.Element {
            .node(
                OSMNode(
                    id: id, latitudeNano: 60_170_600_000, longitudeNano: 24_940_600_000,
                    tags: [("amenity", "cafe"), ("name", name)], metadata: OSMMetadata(version: version)))
        }
        try ReplicationFeedWriter.publish(
            [.init(action: .create, element: cafe(4, "Toinen", version: 1))], sequence: 9, timestamp: 1_764_800_060,
            in: folder + "/feed")
        try ReplicationFeedWriter.publish(
            [.init(action: .modify, element: cafe(4, "Kolmas", version: 2))], sequence: 10, timestamp: 1_764_800_120,
            in: folder + "/feed")
        let behind = OpenMapsCLI.run(["update", "--replication", folder + "/feed", "--store", store, "--no-routing"])
        #expect(behind.exitCode == 0, "\(behind.standardError)")
        #expect(behind.standardOutput.hasPrefix("corner: 2 changes from sequences 9–10 (2025-12-03T22:15:20Z) into"))
        #expect(behind.standardOutput.contains("1 created, 0 modified, 0 deleted"), "\(behind.standardOutput)")
        #expect(OpenMapsCLI.run(["search", "Kolmas", "--store", store]).standardOutput.contains("Kolmas"))
        // Files given together: one update.
        let files = [
            [OSMChange(action: .create, element: cafe(5, "Neljäs", version: 1))],
            [OSMChange(action: .modify, element: cafe(5, "Viides", version: 2))],
        ].map { PBFWriter.temporaryFile(OSMChangeWriter.document($0)) }
        let together = OpenMapsCLI.run(["update", files[0], files[1], "--store", store, "--no-routing"])
        #expect(together.exitCode == 0, "\(together.standardError)\(together.standardOutput)")
        #expect(together.standardOutput.hasPrefix("corner: 2 changes from 2 files (\(files[0]) … \(files[1])) into"))
        #expect(OpenMapsCLI.run(["search", "Viides", "--store", store]).standardOutput.contains("Viides"))
        for size in ["0", "-1", "nan", "lots", ""] {
            let refused = OpenMapsCLI.run([
                "update", "--replication", folder + "/feed", "--max-diff-size", size, "--store", store,
            ])
            #expect(
                refused.exitCode == 64 && refused.standardError.contains("--max-diff-size"), "--max-diff-size \(size)")
        }
        #expect(OpenMapsCLI.run(["update", extract, "--max-diff-size", "5", "--store", store]).exitCode == 64)

        #expect(OpenMapsCLI.run(["update", "--store", store]).exitCode == 64)
        #expect(OpenMapsCLI.run(["update", extract, "--sequence", "3", "--store", store]).exitCode == 64)
        #expect(OpenMapsCLI.run(["update", extract, "--follow", "--store", store]).exitCode == 64)
        for interval in ["0", "99999999999", "nan", ""] {
            let refused = OpenMapsCLI.run([
                "update", "--replication", folder + "/feed", "--follow", "--interval", interval, "--store", store,
            ])
            #expect(refused.exitCode == 64, "--interval \(interval)")
        }
        // No store: said so, and none made.
        let none = OpenMapsCLI.run(["update", extract, "--store", folder + "/missing/store.sqlite"])
        #expect(none.exitCode == 1 && none.standardError.contains("no store here"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/missing"))
        #expect(OpenMapsCLI.run(["update", "--replication", "feed", extract, "--store", store]).exitCode == 64)
        let notChanges = OpenMapsCLI.run(["update", extract, "--store", store])
        #expect(notChanges.exitCode == 1 && notChanges.standardError.contains("not an OSM change file"))
        let elsewhere = OpenMapsCLI.run(["update", extract, "--region", "Oulu", "--store", store])
        #expect(elsewhere.exitCode == 1)
        let gone = OpenMapsCLI.run(["update", "--replication", folder + "/nowhere", "--store", store])
        #expect(gone.exitCode == 1 && gone.standardError.contains("no state.txt"), "\(gone.standardError)")
    }
}
