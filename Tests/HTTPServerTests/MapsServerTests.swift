import Foundation
import GeoCore
import MapsApp
import MapsServer
import TestSupport
import Testing

/// The maps app over HTTP on a loopback port: its routes, statuses, JSON and refusals.
@Suite struct MapsServerTests {
    func get(_ server: MapsServer, _ target: String) -> (status: Int, headers: [String: String], json: [String: Any])? {
        guard let answer = exchange(port: server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        else { return nil }
        let json = (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [String: Any] ?? [:]
        return (answer.status, answer.headers, json)
    }

    @Test func aLinkIsAnsweredAsTheAppAnswersIt() throws {
        let app = try MapsApp.onStore(path: try FixtureStore.path())
        let server = try MapsServer(app: app, options: .loopback())
        defer { server.stop() }
        #expect(get(server, "/health")?.json["status"] as? String == "ok")
        let link = "comgooglemaps://?center=60.1699,24.9384&zoom=15&views=transit"
        let encoded = link.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let answered = try #require(get(server, "/api/answer?url=\(encoded)"))
        #expect(answered.status == 200 && answered.headers["content-type"] == "application/json; charset=utf-8")
        #expect(answered.json["asks"] as? String == (try app.answer(link)).asks)
        #expect(answered.json["asks"] as? String == "A map at 60.1699,24.9384, zoom 15, with transit")
        // hl picks the answer's language.
        let spanish = get(server, "/api/answer?url=\(encoded)&hl=es-419")
        #expect(spanish?.json["asks"] as? String == "Un mapa en 60.1699,24.9384, zoom 15, con transporte público")
    }

    @Test func nominatimsSearchAndReverseAnswerAsItsClientsRead() throws {
        let server = try MapsServer(app: try MapsApp.onStore(path: try FixtureStore.path()), options: .loopback())
        defer { server.stop() }
        let answer = try #require(
            exchange(
                port: server.port,
                "GET /search?q=Esplanadinpuisto&format=json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        let places = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [[String: Any]])
        #expect(answer.status == 200 && places.first?["display_name"] as? String != nil)
        #expect(places.first?["class"] as? String == "leisure" && places.first?["lat"] is String)
        // The names in the language asked for, where the data has them.
        let spanish = exchange(
            port: server.port,
            "GET /search?q=Esplanadinpuisto&accept-language=es-ES,es;q=0.9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        #expect(spanish?.body.contains("Parque de la Explanada") == true)
        let reverse = get(server, "/reverse?lat=60.1675&lon=24.9480&format=jsonv2")
        #expect(reverse?.status == 200 && reverse?.json["display_name"] as? String != nil)
        #expect(get(server, "/search?q=Esplanadinpuisto&format=xml")?.status == 400)
        #expect(get(server, "/search?q=Esplanadinpuisto&limit=500")?.status == 400)
        #expect(get(server, "/reverse?lat=91&lon=0")?.status == 400)
        #expect(get(server, "/reverse?lat=abc&lon=0")?.status == 400)
    }

    @Test func theSearchBoxAnswersTypingAsItAnswersEnter() throws {
        let app = try MapsApp.onStore(path: try FixtureStore.path())
        let server = try MapsServer(app: app, options: .loopback())
        defer { server.stop() }
        // Near Helsinki's centre, typed: the park, with its name in Spanish.
        let typed = try #require(get(server, "/api/search?q=Esplanadinpuis&near=60.1675,24.9480&hl=es&typing=1"))
        #expect(typed.status == 200)
        let places = try #require(typed.json["places"] as? [[String: Any]])
        #expect(places.first?["name"] as? String == "Parque de la Explanada")
        // Far away, nothing nearby is offered and the note says where the nearest is, as the
        // answer to the same search entered says.
        let far = try #require(get(server, "/api/search?q=Esplanadinpuisto&near=40.7128,-74.0060"))
        let notes = try #require(far.json["notes"] as? [[String: Any]])
        #expect((far.json["places"] as? [Any])?.isEmpty == true)
        #expect(notes.first?["code"] as? String == "no-match-nearby")
        let entered = try app.answer("comgooglemaps://?q=Esplanadinpuisto&center=40.7128,-74.0060")
        #expect(entered.notes.first { $0.code == .noMatchNearby }?.message == notes.first?["message"] as? String)
        #expect(get(server, "/api/search?q=park&near=91,0")?.status == 400)
        #expect(get(server, "/api/search?q=park&limit=99")?.status == 400)
        #expect(get(server, "/api/search")?.status == 400)
        let blank = try #require(get(server, "/api/search?q=%20%21%3F"))
        #expect(blank.status == 400 && blank.json["error"] as? String == "'q' the query has no word to search for")
        let long = try #require(get(server, "/api/search?q=" + String(repeating: "a", count: 300)))
        #expect(long.status == 400 && (long.json["error"] as? String)?.contains("at most 256") == true)
    }

    @Test func osrmsRouteServiceAnswersAsOSRMsClientsRead() throws {
        let app = try MapsApp.onStore(path: try SeedPlaces.westVillageStore())
        let server = try MapsServer(app: app, options: .loopback())
        defer { server.stop() }
        // Stonewall Inn to Think Coffee, as OSRM's clients write it: longitude first.
        let points = "-74.00219,40.73381;-74.00366,40.73878"
        let walked = try #require(get(server, "/route/v1/walking/\(points)?steps=true&hl=it&geometries=geojson"))
        #expect(walked.status == 200 && walked.json["code"] as? String == "Ok")
        let route = try #require((walked.json["routes"] as? [[String: Any]])?.first)
        let expected = try #require(app.routing).route(
            [
                Coordinate(latitude: 40.73381, longitude: -74.00219),
                Coordinate(latitude: 40.73878, longitude: -74.00366),
            ],
            mode: .walking, avoiding: [])
        #expect(abs((route["duration"] as? Double ?? 0) - expected.duration) < 0.1)
        let steps = (route["legs"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]] ?? []
        #expect(steps.count >= 2 && (steps.first?["instruction"] as? String)?.hasPrefix("Dirigiti verso") == true)
        // Each step's intersections as OSRM's clients decode them: as many entry flags as
        // bearings, the way in and out indices into them (no way in at the departure, no way
        // out at the arrival), the first where the manoeuvre is.
        for (number, step) in steps.enumerated() {
            let intersections = step["intersections"] as? [[String: Any]] ?? []
            #expect(!intersections.isEmpty)
            #expect(
                intersections.first?["location"] as? [Double]
                    == (step["maneuver"] as? [String: Any])?["location"] as? [Double])
            for (index, intersection) in intersections.enumerated() {
                let bearings = intersection["bearings"] as? [Int] ?? []
                #expect(!bearings.isEmpty && (intersection["entry"] as? [Bool])?.count == bearings.count)
                #expect(bearings == bearings.sorted() && bearings.allSatisfy { (0..<360).contains($0) })
                let (way, taken) = (intersection["in"] as? Int, intersection["out"] as? Int)
                #expect((way == nil) == (number == 0 && index == 0))
                #expect((taken == nil) == (number == steps.count - 1))
                #expect([way, taken].allSatisfy { $0 == nil || bearings.indices.contains($0!) })
                if let taken { #expect((intersection["entry"] as? [Bool])?[taken] == true, "the way taken is open") }
            }
        }
        #expect((route["geometry"] as? [String: Any])?["type"] as? String == "LineString")
        #expect(get(server, "/route/v1/driving/\(points)?alternatives=true")?.status == 200)
        // Refusals as OSRM writes them.
        #expect(get(server, "/route/v1/boat/\(points)")?.json["code"] as? String == "InvalidValue")
        #expect(get(server, "/route/v1/driving/-74.00219,40.73381")?.json["code"] as? String == "InvalidQuery")
        #expect(get(server, "/route/v1/driving/200,40;-74,40.7")?.json["code"] as? String == "InvalidValue")
        // overview=false: no route geometry, as OSRM leaves it out.
        let bare = try #require(
            (get(server, "/route/v1/driving/\(points)?overview=false")?.json["routes"] as? [[String: Any]])?.first)
        #expect(bare["geometry"] == nil && bare["duration"] is Double)
        #expect(get(server, "/route/v1/driving/\(points)?overview=some")?.json["code"] as? String == "InvalidOptions")
        // Transit by timetable is answered through links once a feed is imported; here, why not.
        let transit = get(server, "/route/v1/transit/\(points)")
        #expect(transit?.status == 400 && transit?.json["code"] as? String == "NoRoute")
        let far = get(server, "/route/v1/driving/-74.00219,40.73381;2.35,48.85")
        #expect(far?.status == 400 && far?.json["code"] as? String == "NoSegment")
    }

    @Test func osrmsRouteOptionsAreTakenAsItsClientsSendThem() throws {
        let server = try MapsServer(
            app: try MapsApp.onStore(path: try SeedPlaces.westVillageStore()), options: .loopback())
        defer { server.stop() }
        func routes(_ target: String) -> [[String: Any]] {
            get(server, target)?.json["routes"] as? [[String: Any]] ?? []
        }
        func legs(_ target: String) -> [[String: Any]] { routes(target).first?["legs"] as? [[String: Any]] ?? [] }
        // Stonewall Inn, Washington Square's corner, Think Coffee; then the same as polylines.
        let ends = [
            Coordinate(latitude: 40.73381, longitude: -74.00219), Coordinate(latitude: 40.7308, longitude: -73.9973),
            Coordinate(latitude: 40.73878, longitude: -74.00366),
        ]
        let plain = ends.map { "\($0.longitude),\($0.latitude)" }.joined(separator: ";")
        let duration = try #require(routes("/route/v1/driving/\(plain)").first?["duration"] as? Double)
        for (form, precision) in [("polyline", 5), ("polyline6", 6)] {
            let line = EncodedPolyline.encode(ends, precision: precision)
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            #expect(routes("/route/v1/driving/\(form)(\(line))").first?["duration"] as? Double == duration, "\(form)")
        }
        #expect(get(server, "/route/v1/driving/polyline(%7B%7B)")?.json["code"] as? String == "InvalidValue")
        // Every OSRM service reads its points the same way.
        let table = get(server, "/table/v1/driving/\(plain)")?.json["durations"] as? [[Double]]
        let line = EncodedPolyline.encode(ends).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let tableByLine = get(server, "/table/v1/driving/polyline(\(line))")?.json["durations"] as? [[Double]]
        #expect(table != nil && tableByLine == table)
        // Annotations only as asked: none by default, the kinds named, or all.
        #expect(legs("/route/v1/driving/\(plain)").allSatisfy { $0["annotation"] == nil })
        let named = try #require(
            legs("/route/v1/driving/\(plain)?annotations=nodes,distance").first?["annotation"] as? [String: Any])
        #expect(Set(named.keys) == ["nodes", "distance"])
        #expect((named["nodes"] as? [Int64])?.count == ((named["distance"] as? [Double])?.count ?? 0) + 1)
        let all = try #require(
            legs("/route/v1/driving/\(plain)?annotations=true").first?["annotation"] as? [String: Any])
        #expect(
            Set(all.keys) == ["nodes", "distance", "duration", "datasources", "weight", "speed", "ways", "metadata"])
        let unknown = get(server, "/route/v1/driving/\(plain)?annotations=congestion")
        #expect(unknown?.json["code"] as? String == "InvalidOptions")
        // Waypoints left out, hints taken (and not needed), as Leaflet Routing Machine sends them.
        let lean = try #require(
            get(server, "/route/v1/driving/\(plain)?skip_waypoints=true&hints=;;&generate_hints=false"))
        #expect(lean.status == 200 && lean.json["waypoints"] == nil)
        // Points passed through: one leg, every point still among the waypoints.
        let through = try #require(get(server, "/route/v1/driving/\(plain)?waypoints=0;2&steps=true"))
        #expect((through.json["waypoints"] as? [Any])?.count == 3)
        let joined = try #require((through.json["routes"] as? [[String: Any]])?.first)
        #expect((joined["legs"] as? [Any])?.count == 1 && joined["duration"] as? Double == duration)
        // A radius a point cannot meet is OSRM's NoSegment; one it meets changes nothing.
        let tight = try #require(get(server, "/route/v1/driving/\(plain)?radiuses=0.001;;unlimited"))
        #expect(tight.status == 400 && tight.json["code"] as? String == "NoSegment")
        #expect(routes("/route/v1/driving/\(plain)?radiuses=400;400;400").first?["duration"] as? Double == duration)
        #expect(get(server, "/route/v1/driving/\(plain)?radiuses=300")?.json["code"] as? String == "InvalidOptions")
        // Classes excluded: none of these here, so the same route; an unknown class refused.
        #expect(routes("/route/v1/driving/\(plain)?exclude=motorway,toll").first?["duration"] as? Double == duration)
        #expect(get(server, "/route/v1/driving/\(plain)?exclude=tunnel")?.json["code"] as? String == "InvalidOptions")
        // How stops are passed: by car straight on by default, no quicker than turning back;
        // approaches and bearings taken; a list that does not fit the points refused.
        let turningBack = try #require(routes("/route/v1/driving/\(plain)?continue_straight=false").first)
        let straightOn = try #require(routes("/route/v1/driving/\(plain)?continue_straight=true").first)
        #expect(straightOn["duration"] as? Double == duration)
        #expect((straightOn["duration"] as? Double ?? 0) >= (turningBack["duration"] as? Double ?? .infinity) - 0.1)
        let kerbside = get(server, "/route/v1/driving/\(plain)?approaches=curb;curb;curb&bearings=;0,180;")
        #expect(kerbside?.status == 200 && kerbside?.json["code"] as? String == "Ok")
        #expect(get(server, "/route/v1/driving/\(plain)?bearings=90,10")?.json["code"] as? String == "InvalidOptions")
        #expect(get(server, "/route/v1/driving/\(plain)?bearings=400,10;;")?.status == 400)
        // More stops than a link takes: OSRM's clients send dozens.
        let many = (0..<30).map { ends[$0 % 3] }.map { "\($0.longitude),\($0.latitude)" }.joined(separator: ";")
        #expect(legs("/route/v1/walking/\(many)?overview=false").count == 29)
    }

    @Test func badRequestsAreRefusedInWordsAndTheServerGoesOn() throws {
        let server = try MapsServer(app: MapsApp(), options: .loopback(threads: 1))
        defer { server.stop() }
        #expect(get(server, "/api/answer")?.status == 400)
        let unreadable = get(server, "/api/answer?url=https%3A%2F%2Fexample.com%2Fmaps")
        #expect(unreadable?.status == 400 && (unreadable?.json["details"] as? [String])?.isEmpty == false)
        #expect(get(server, "/api/answer?url=comgooglemaps%3A%2F%2F%3Fq%3Dx&hl=fr")?.status == 400)
        // A look-alike host is not a Maps link; a script URL is never offered as the way back.
        let lookAlike = get(server, "/api/answer?url=https%3A%2F%2Fwww.google.com.evil.example%2Fmaps%2F%401%2C2%2C3z")
        #expect(
            lookAlike?.status == 400
                && (lookAlike?.json["details"] as? [String])?.first?.contains("host-not-maps") == true)
        let scripted = get(
            server,
            "/api/answer?url=comgooglemaps-x-callback%3A%2F%2F%3Fq%3Dx%26x-success%3Djavascript%3Aalert(1)%26x-source%3DEvil"
        )
        #expect(scripted?.status == 200 && scripted?.json["callback"] == nil)
        let long = String(repeating: "a", count: MapsServer.maxLinkLength + 1)
        #expect(get(server, "/api/answer?url=\(long)")?.status == 414)
        let traversal = get(server, "/../../etc/passwd")
        #expect(traversal?.status == 404 || traversal?.status == 400)
        #expect(get(server, "/nowhere")?.json["error"] as? String == "no such path: /nowhere")
        let posted = exchange(
            port: server.port, "POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(posted?.status == 405)
        // A request line or headers beyond the connection's memory are refused by the library.
        let hugeHeader = exchange(
            port: server.port,
            "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 40_000))\r\nConnection: close\r\n\r\n"
        )
        #expect(hugeHeader?.status == 431)
        #expect(get(server, "/health?x=\(String(repeating: "a", count: 40_000))")?.status == 414)
        #expect(get(server, "/health")?.status == 200)
    }
}

extension ServerOptions {
    /// A server on any free loopback port, its pictures cached in memory only.
    static func loopback(threads: Int = 2) -> ServerOptions {
        var options = ServerOptions()
        options.port = 0
        options.threads = threads
        return options
    }
}
