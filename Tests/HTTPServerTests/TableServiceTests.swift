import Foundation
import GeoCore
import MapsApp
import TestSupport
import Testing

@testable import MapsServer

/// OSRM's `table` service as its clients call it: rows of sources, columns of destinations,
/// the routes' durations and distances, OSRM's refusals.
@Suite struct TableServiceTests: ServerExchanges {
    @Test func tablesAnswerAsOSRMsClientsReadThem() throws {
        let app = try MapsApp.onStore(path: try SeedPlaces.westVillageStore())
        var options = ServerOptions.loopback()
        options.maxTableCells = 6
        let server = try MapsServer(app: app, options: options)
        defer { server.stop() }
        func ask(_ target: String) -> (status: Int, json: [String: Any])? {
            get(server, target).map { ($0.status, json($0.body)) }
        }
        // Stonewall Inn, Think Coffee, Washington Square Arch: longitude first.
        let coordinates = "-74.00219,40.73381;-74.00366,40.73878;-73.99712,40.73116"
        let asked = try #require(
            ask("/table/v1/walking/\(coordinates)?annotations=duration,distance&sources=0;1"))
        #expect(asked.status == 200 && asked.json["code"] as? String == "Ok")
        let durations = try #require(asked.json["durations"] as? [[Double]])
        let distances = try #require(asked.json["distances"] as? [[Double]])
        #expect(durations.count == 2 && durations.allSatisfy { $0.count == 3 })
        #expect(durations[0][0] == 0 && durations[1][1] == 0)
        // The cell from Stonewall Inn to Think Coffee is the walking route's.
        let route = try #require(app.routing).route(
            [
                Coordinate(latitude: 40.73381, longitude: -74.00219),
                Coordinate(latitude: 40.73878, longitude: -74.00366),
            ],
            mode: .walking, avoiding: [])
        #expect(abs(durations[0][1] - route.duration) <= 0.1 && abs(distances[0][1] - route.distance) <= 0.1)
        let sources = try #require(asked.json["sources"] as? [[String: Any]])
        #expect(sources.count == 2 && (sources[0]["location"] as? [Double])?.count == 2)
        #expect(sources[0]["name"] is String && sources[0]["distance"] is Double)
        #expect((asked.json["destinations"] as? [Any])?.count == 3)
        // Durations alone by default; scaled.
        let scaled = try #require(ask("/table/v1/walking/\(coordinates)?sources=0;1&scale_factor=2"))
        #expect(scaled.json["distances"] == nil)
        let doubled = try #require(scaled.json["durations"] as? [[Double]])
        #expect(abs(doubled[0][1] - 2 * durations[0][1]) <= 0.2)
        // The points left out when asked, hints taken; roads kept off are the route's alone.
        let lean = try #require(ask("/table/v1/walking/\(coordinates)?sources=0&skip_waypoints=true&hints=;;"))
        #expect(lean.json["durations"] != nil && lean.json["sources"] == nil && lean.json["destinations"] == nil)
        let excluding = ask("/table/v1/walking/\(coordinates)?sources=0&exclude=toll")
        #expect(excluding?.status == 400 && excluding?.json["code"] as? String == "InvalidOptions")
        // Points met from the kerb's side, as the route between them meets them; lists that
        // do not fit the points refused, by trips too.
        let kerbside = try #require(ask("/table/v1/driving/\(coordinates)?sources=0&approaches=curb;curb;curb"))
        let kerbsideRoute = try #require(app.routing).route(
            [
                Coordinate(latitude: 40.73381, longitude: -74.00219),
                Coordinate(latitude: 40.73878, longitude: -74.00366),
            ],
            mode: .driving, avoiding: [], passing: .init(approaches: [.init(side: .curb), .init(side: .curb)]))
        let kerbsideCell = try #require((kerbside.json["durations"] as? [[Double]])?.first?[1])
        #expect(abs(kerbsideCell - kerbsideRoute.duration) <= 0.1)
        #expect(
            ask("/table/v1/driving/\(coordinates)?sources=0&approaches=curb;curb")?.json["code"] as? String
                == "InvalidOptions")
        #expect(ask("/trip/v1/driving/\(coordinates)?bearings=0,90")?.json["code"] as? String == "InvalidOptions")
        // A point farther from every road than its radius: no segment, for tables and trips too.
        #expect(
            ask("/table/v1/driving/\(coordinates)?sources=0&radiuses=0.001;;")?.json["code"] as? String == "NoSegment")
        #expect(ask("/table/v1/driving/\(coordinates)?sources=0&radiuses=500;500;500")?.json["code"] as? String == "Ok")
        #expect(ask("/trip/v1/driving/\(coordinates)?radiuses=;0.001;")?.json["code"] as? String == "NoSegment")
        #expect(ask("/trip/v1/driving/\(coordinates)?approaches=curb;;opposite")?.json["code"] as? String == "Ok")
        // A trip by car goes straight on past its stops unless told it may turn back.
        func tripDuration(_ query: String) -> Double? {
            ((ask("/trip/v1/driving/\(coordinates)?\(query)")?.json["trips"] as? [[String: Any]])?.first?["duration"])
                as? Double
        }
        let straightOn = try #require(tripDuration("continue_straight=default"))
        let turningBack = try #require(tripDuration("continue_straight=false"))
        #expect(tripDuration("continue_straight=true") == straightOn && turningBack <= straightOn + 1)
        #expect(
            ask("/trip/v1/driving/\(coordinates)?continue_straight=maybe")?.json["code"] as? String == "InvalidOptions")
        // Refusals as OSRM writes them.
        #expect(ask("/table/v1/walking/\(coordinates)")?.json["code"] as? String == "TooBig")
        #expect(ask("/table/v1/walking/\(coordinates)?sources=0;5")?.json["code"] as? String == "InvalidOptions")
        #expect(ask("/table/v1/walking/\(coordinates)?sources=0;x")?.json["code"] as? String == "InvalidOptions")
        #expect(
            ask("/table/v1/walking/\(coordinates)?sources=0&annotations=speed")?.json["code"] as? String
                == "InvalidOptions")
        #expect(ask("/table/v1/transit/\(coordinates)?sources=0")?.json["code"] as? String == "InvalidValue")
        #expect(ask("/table/v1/walking/200,40;-74,40.7")?.json["code"] as? String == "InvalidValue")
        #expect(ask("/table/v1/walking")?.json["code"] as? String == "InvalidUrl")
        let far = try #require(ask("/table/v1/driving/-74.00219,40.73381;2.35,48.85"))
        #expect(far.status == 400 && far.json["code"] as? String == "NoSegment")
        #expect((far.json["message"] as? String)?.hasSuffix("coordinate 1") == true)
    }

    /// OSRM's `nearest`: the N nearest road segments, nearest first, with the road's name and
    /// the OSM nodes its segment runs between; refusals as OSRM writes them.
    @Test func nearestAnswersAsOSRMsClientsReadIt() throws {
        let server = try MapsServer(
            app: try MapsApp.onStore(path: try SeedPlaces.westVillageStore()), options: .loopback())
        defer { server.stop() }
        func ask(_ target: String) -> (status: Int, json: [String: Any])? {
            get(server, target).map { ($0.status, json($0.body)) }
        }
        let found = try #require(ask("/nearest/v1/walking/-74.00219,40.73381?number=3"))
        #expect(found.status == 200 && found.json["code"] as? String == "Ok")
        let waypoints = try #require(found.json["waypoints"] as? [[String: Any]])
        #expect(waypoints.count == 3)
        let distances = waypoints.compactMap { $0["distance"] as? Double }
        #expect(distances == distances.sorted() && distances.count == 3 && distances[0] < 30)
        #expect(
            waypoints.allSatisfy { ($0["nodes"] as? [Int64])?.count == 2 && ($0["location"] as? [Double])?.count == 2 })
        #expect(Set(waypoints.compactMap { ($0["nodes"] as? [Int64]).map { "\($0)" } }).count == 3)
        #expect(ask("/nearest/v1/walking/-74.00219,40.73381")?.json["waypoints"].map { ($0 as? [Any])?.count } == 1)
        // Headed along the avenues (about 29°) or along the streets across them: other roads,
        // no nearer than the nearest of any heading.
        let anyWay = try #require(
            (ask("/nearest/v1/driving/-74.00219,40.73381")?.json["waypoints"] as? [[String: Any]])?.first)
        let headed = [29, 119].compactMap { degrees in
            (ask("/nearest/v1/driving/-74.00219,40.73381?bearings=\(degrees),20")?.json["waypoints"] as? [[String: Any]])?
                .first
        }
        #expect(headed.count == 2 && "\(headed[0]["nodes"]!)" != "\(headed[1]["nodes"]!)")
        #expect(headed.allSatisfy { ($0["distance"] as? Double ?? 0) >= (anyWay["distance"] as? Double ?? .infinity) })
        #expect(
            ask("/nearest/v1/driving/-74.00219,40.73381?bearings=29,20;29,20")?.json["code"] as? String
                == "InvalidOptions")
        #expect(ask("/nearest/v1/driving/-74.00219,40.73381?radiuses=0.001")?.json["code"] as? String == "NoSegment")
        // Values it cannot take are OSRM's InvalidOptions, like a count it cannot take.
        for bad in ["bearings=400,1", "approaches=kerb", "radiuses=-3", "bearings=90", "number=two"] {
            let refused = ask("/nearest/v1/driving/-74.00219,40.73381?\(bad)")
            #expect(refused?.status == 400 && refused?.json["code"] as? String == "InvalidOptions", "\(bad)")
        }
        #expect(ask("/nearest/v1/walking/-74.00219,40.73381?number=0")?.json["code"] as? String == "InvalidOptions")
        #expect(ask("/nearest/v1/walking/-74.00219,40.73381;-74,40.7")?.json["code"] as? String == "InvalidValue")
        #expect(ask("/nearest/v1/boat/-74.00219,40.73381")?.json["code"] as? String == "InvalidValue")
        let far = try #require(ask("/nearest/v1/driving/2.35,48.85"))
        #expect(far.status == 400 && far.json["code"] as? String == "NoSegment")
    }

    /// OSRM's `trip`: one trip visiting every point once, each waypoint with its place in it.
    @Test func tripsAnswerAsOSRMsClientsReadThem() throws {
        let server = try MapsServer(
            app: try MapsApp.onStore(path: try SeedPlaces.westVillageStore()), options: .loopback())
        defer { server.stop() }
        func ask(_ target: String) -> (status: Int, json: [String: Any])? {
            get(server, target).map { ($0.status, json($0.body)) }
        }
        let coordinates = "-74.00219,40.73381;-74.00366,40.73878;-73.99712,40.73116;-74.0050,40.7360"
        let round = try #require(ask("/trip/v1/walking/\(coordinates)?steps=true"))
        #expect(round.status == 200 && round.json["code"] as? String == "Ok")
        let trips = try #require(round.json["trips"] as? [[String: Any]])
        #expect(trips.count == 1 && (trips[0]["legs"] as? [[String: Any]])?.count == 4)
        #expect((trips[0]["legs"] as? [[String: Any]])?.first?["steps"] != nil)
        let waypoints = try #require(round.json["waypoints"] as? [[String: Any]])
        #expect(waypoints.compactMap { $0["waypoint_index"] as? Int }.sorted() == [0, 1, 2, 3])
        #expect(
            waypoints.first?["waypoint_index"] as? Int == 0 && waypoints.allSatisfy { $0["trips_index"] as? Int == 0 })
        let open = try #require(
            ask("/trip/v1/walking/\(coordinates)?roundtrip=false&source=first&destination=last&overview=false"))
        let legs = ((open.json["trips"] as? [[String: Any]])?.first?["legs"] as? [Any])?.count
        #expect(open.status == 200 && legs == 3)
        #expect((open.json["waypoints"] as? [[String: Any]])?.last?["waypoint_index"] as? Int == 3)
        #expect(ask("/trip/v1/walking/\(coordinates)?roundtrip=false")?.json["code"] as? String == "NotImplemented")
        #expect(ask("/trip/v1/walking/-74.00219,40.73381")?.json["code"] as? String == "InvalidValue")
        #expect(ask("/trip/v1/walking/\(coordinates)?source=middle")?.json["code"] as? String == "InvalidOptions")
        #expect(ask("/trip/v1/driving/-74.00219,40.73381;2.35,48.85")?.json["code"] as? String == "NoSegment")
    }

    /// OSRM's `match`: a trace made of a route's own line (timed by its pace) comes back as
    /// one matching as long as the route, every fix placed, with steps in the language asked;
    /// OSRM's refusals for lists that do not fit the points.
    @Test func matchesAnswerAsOSRMsClientsReadThem() throws {
        let app = try MapsApp.onStore(path: try SeedPlaces.westVillageStore())
        let server = try MapsServer(app: app, options: .loopback())
        defer { server.stop() }
        func ask(_ target: String) -> (status: Int, json: [String: Any])? {
            get(server, target).map { ($0.status, json($0.body)) }
        }
        // Stonewall Inn to Washington Square Arch, driving.
        let route = try #require(app.routing).route(
            [
                Coordinate(latitude: 40.73381, longitude: -74.00219),
                Coordinate(latitude: 40.73116, longitude: -73.99712),
            ],
            mode: .driving, avoiding: [])
        let line = route.geometry
        var seconds = [0.0]
        for (a, b) in zip(line, line.dropFirst()) {
            seconds.append(seconds.last! + a.distance(to: b) * route.duration / route.distance)
        }
        let coordinates = line.map { "\($0.longitude),\($0.latitude)" }.joined(separator: ";")
        let times = seconds.map { "\(1_764_580_000 + Int($0))" }.joined(separator: ";")
        let asked = try #require(ask("/match/v1/driving/\(coordinates)?timestamps=\(times)&steps=true&hl=es"))
        #expect(asked.status == 200 && asked.json["code"] as? String == "Ok")
        let matchings = try #require(asked.json["matchings"] as? [[String: Any]])
        #expect(matchings.count == 1)
        let distance = try #require(matchings[0]["distance"] as? Double)
        #expect(abs(distance - route.distance) <= 0.02 * route.distance, "\(distance) against \(route.distance)")
        #expect((matchings[0]["confidence"] as? Double ?? 0) > 0.9)
        let legs = try #require(matchings[0]["legs"] as? [[String: Any]])
        #expect(legs.count == line.count - 1)
        let steps = legs.compactMap { $0["steps"] as? [[String: Any]] }.joined()
        #expect(steps.contains { ($0["instruction"] as? String)?.contains("Gira") == true })
        let tracepoints = try #require(asked.json["tracepoints"] as? [Any])
        #expect(tracepoints.count == line.count)
        let placed = tracepoints.compactMap { $0 as? [String: Any] }
        #expect(placed.count == line.count)
        #expect(placed.map { $0["waypoint_index"] as? Int } == Array(0..<line.count))
        #expect(placed.allSatisfy { $0["matchings_index"] as? Int == 0 && ($0["distance"] as? Double ?? 99) < 1 })
        // OSRM's `waypoints`: legs only between the fixes named, the others passed through and
        // numbered null, the same line and distance.
        let middle = line.count / 2
        let stops = try #require(
            ask(
                "/match/v1/driving/\(coordinates)?timestamps=\(times)&waypoints=0;\(middle);\(line.count - 1)&tidy=true"
            ))
        #expect(stops.status == 200, "\(stops.json)")
        let stopping = try #require((stops.json["matchings"] as? [[String: Any]])?.first)
        #expect((stopping["legs"] as? [[String: Any]])?.count == 2)
        #expect(abs((stopping["distance"] as? Double ?? 0) - distance) < 0.5)
        let numbered = (stops.json["tracepoints"] as? [Any] ?? []).map {
            ($0 as? [String: Any])?["waypoint_index"] as? Int
        }
        #expect(numbered[0] == 0 && numbered[middle] == 1 && numbered[line.count - 1] == 2)
        #expect(numbered.compactMap { $0 }.count == 3)
        // A trace split by a break in time is two matchings: no route stops at all its waypoints.
        let broken = seconds.enumerated().map { "\(1_764_580_000 + Int($1) + ($0 > middle ? 3_600 : 0))" }
            .joined(separator: ";")
        let split = ask("/match/v1/driving/\(coordinates)?timestamps=\(broken)&waypoints=0;\(line.count - 1)")
        #expect(split?.status == 400 && split?.json["code"] as? String == "NoMatch")
        for wrong in ["1;\(line.count - 1)", "0;\(line.count - 2)", "0;\(middle);\(middle);\(line.count - 1)", "0;x"] {
            let refused = ask("/match/v1/driving/\(coordinates)?timestamps=\(times)&waypoints=\(wrong)")
            #expect(refused?.status == 400, "\(wrong)")
        }
        // Refusals as OSRM writes them.
        let two = "-74.00219,40.73381;-74.00366,40.73878"
        #expect(ask("/match/v1/driving/\(two)?timestamps=1")?.json["code"] as? String == "InvalidOptions")
        #expect(ask("/match/v1/driving/\(two)?timestamps=5;4")?.json["code"] as? String == "InvalidValue")
        #expect(ask("/match/v1/driving/\(two)?radiuses=5;0")?.json["code"] as? String == "InvalidValue")
        #expect(ask("/match/v1/driving/\(two)?radiuses=5;x")?.json["code"] as? String == "InvalidOptions")
        #expect(ask("/match/v1/driving/\(two)?gaps=sometimes")?.json["code"] as? String == "InvalidOptions")
        #expect(ask("/match/v1/driving/-74.00219,40.73381")?.json["code"] as? String == "InvalidValue")
        let far = try #require(ask("/match/v1/driving/2.35,48.85;2.36,48.86"))
        #expect(far.status == 400 && far.json["code"] as? String == "NoMatch")
    }

    /// Valhalla's own isochrone requests, as its clients send them (a POST's JSON body, or the
    /// `json` parameter of a GET), answered as Valhalla answers them: its defaults (each
    /// contour's largest area alone, as its outer ring's line), its options and its refusals.
    @Test func valhallasOwnIsochroneRequestsAreAnsweredAsValhallaAnswersThem() throws {
        let server = try MapsServer(
            app: try MapsApp.onStore(path: try SeedPlaces.westVillageStore()), options: .loopback())
        defer { server.stop() }
        func post(_ body: String) -> (status: Int, json: [String: Any])? {
            exchange(
                port: server.port,
                "POST /isochrone HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            ).map { ($0.status, json($0.body)) }
        }
        func features(_ answer: (status: Int, json: [String: Any])?) -> [[String: Any]] {
            answer?.json["features"] as? [[String: Any]] ?? []
        }
        let stonewall = #"{"lat": 40.73381, "lon": -74.00219}"#
        let request =
            #"{"locations": [\#(stonewall)], "costing": "pedestrian", "contours": [{"time": 3}, {"time": 6, "color": "ff0000"}]}"#
        let lines = post(request)
        #expect(lines?.status == 200 && lines?.json["type"] as? String == "FeatureCollection")
        #expect(
            features(lines).map { ($0["geometry"] as? [String: Any])?["type"] as? String } == [
                "LineString", "LineString",
            ])
        let properties = features(lines).compactMap { $0["properties"] as? [String: Any] }
        #expect(properties.compactMap { $0["contour"] as? Double } == [6, 3])
        #expect(
            properties.first?["color"] as? String == "#ff0000" && properties.first?["fillOpacity"] as? Double == 0.33)
        #expect(properties.last?["color"] == nil && properties.last?["metric"] as? String == "time")
        // The same request as a GET's `json` parameter: the same answer.
        let query = try #require(request.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        #expect(
            get(server, "/isochrone?json=\(query)").map { json($0.body) as NSDictionary } == lines?.json
                as NSDictionary?)
        // Areas, and every polygon kept: the area /isochrone/v1 draws.
        let areas = post(
            #"{"locations": [\#(stonewall)], "costing": "pedestrian", "contours": [{"time": 6}], "polygons": true, "denoise": 0}"#
        )
        let drawn = try #require(get(server, "/isochrone/v1/walking/-74.00219,40.73381?contours_minutes=6"))
        let ours = try #require(
            (json(drawn.body)["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any])
        let theirs = try #require(features(areas).first?["geometry"] as? [String: Any])
        #expect(theirs["type"] as? String == "MultiPolygon" && (theirs as NSDictionary) == (ours as NSDictionary))
        let polygon = post(
            #"{"locations": [\#(stonewall)], "costing": "pedestrian", "contours": [{"time": 6}], "polygons": true}"#)
        #expect((features(polygon).first?["geometry"] as? [String: Any])?["type"] as? String == "Polygon")
        // Distances in kilometres, said back as asked; generalised rings have fewer points.
        let far = post(#"{"locations": [\#(stonewall)], "costing": "pedestrian", "contours": [{"distance": 0.4}]}"#)
        let farProperties = features(far).first?["properties"] as? [String: Any]
        #expect(farProperties?["contour"] as? Double == 0.4 && farProperties?["metric"] as? String == "distance")
        func points(_ answer: (status: Int, json: [String: Any])?) -> Int {
            ((features(answer).first?["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])?.count ?? 0
        }
        let plain = post(#"{"locations": [\#(stonewall)], "costing": "pedestrian", "contours": [{"time": 6}]}"#)
        let simpler = post(
            #"{"locations": [\#(stonewall)], "costing": "pedestrian", "contours": [{"time": 6}], "generalize": 60}"#)
        #expect(points(simpler) >= 4 && points(simpler) < points(plain))
        // The point and where it met the roads, when asked.
        let shown = post(
            #"{"locations": [\#(stonewall)], "costing": "pedestrian", "contours": [{"time": 3}], "show_locations": true}"#
        )
        #expect(
            features(shown).compactMap { ($0["properties"] as? [String: Any])?["type"] as? String } == [
                "input", "snapped",
            ])
        // Refusals as Valhalla writes them.
        for (body, code) in [
            ("not json", 100), (#"{"costing": "auto", "contours": [{"time": 5}]}"#, 110),
            (#"{"locations": [\#(stonewall)], "costing": "taxi", "contours": [{"time": 5}]}"#, 125),
            (#"{"locations": [\#(stonewall)], "costing": "auto", "contours": []}"#, 112),
            (#"{"locations": [\#(stonewall)], "costing": "auto", "contours": [{"time": 500}]}"#, 112),
        ] {
            let refused = post(body)
            #expect(refused?.status == 400 && refused?.json["error_code"] as? Int == code, "\(body)")
        }
        // A page's preflight, and POST nowhere else.
        let preflight = exchange(
            port: server.port, "OPTIONS /isochrone HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(preflight?.status == 204 && preflight?.headers["access-control-allow-methods"] == "GET, POST")
        let elsewhere = exchange(
            port: server.port,
            "POST /route/v1/driving/-74.00219,40.73381;-74.00366,40.73878 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
        )
        #expect(elsewhere?.status == 405)
    }

    /// GraphHopper's isochrone requests (`point`, `profile`, `time_limit` or `distance_limit`,
    /// `buckets`), answered as GraphHopper answers them: a polygon a bucket, smallest first.
    @Test func graphHoppersIsochroneRequestsAreAnsweredAsGraphHopperAnswersThem() throws {
        let server = try MapsServer(
            app: try MapsApp.onStore(path: try SeedPlaces.westVillageStore()), options: .loopback())
        defer { server.stop() }
        func ask(_ target: String) -> (status: Int, json: [String: Any])? {
            get(server, target).map { ($0.status, json($0.body)) }
        }
        let split = try #require(ask("/isochrone?point=40.73381,-74.00219&profile=foot&time_limit=360&buckets=2"))
        let polygons = try #require(split.json["polygons"] as? [[String: Any]])
        #expect(split.status == 200 && split.json["info"] is [String: Any])
        #expect(polygons.compactMap { ($0["properties"] as? [String: Any])?["bucket"] as? Int } == [0, 1])
        #expect(polygons.allSatisfy { ($0["geometry"] as? [String: Any])?["type"] as? String == "Polygon" })
        // The buckets are the 3 and 6 minute contours, each its largest polygon.
        let valhalla = try #require(
            ask(
                "/isochrone?json="
                    + #"{"locations":[{"lat":40.73381,"lon":-74.00219}],"costing":"pedestrian","contours":[{"time":6},{"time":3}],"polygons":true}"#
                    .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!))
        let areas = try #require(valhalla.json["features"] as? [[String: Any]]).map { $0["geometry"] as? NSDictionary }
        #expect(polygons.map { $0["geometry"] as? NSDictionary } == Array(areas.reversed()))
        let asGeoJSON = try #require(
            ask("/isochrone?point=40.73381,-74.00219&profile=foot&distance_limit=400&type=geojson"))
        #expect(asGeoJSON.json["type"] as? String == "FeatureCollection")
        #expect((asGeoJSON.json["features"] as? [[String: Any]])?.count == 1)
        for refused in [
            "/isochrone?point=40.73381,-74.00219&profile=truck", "/isochrone?point=north&profile=car",
            "/isochrone?point=40.73381,-74.00219&reverse_flow=true",
            "/isochrone?point=40.73381,-74.00219&time_limit=100&buckets=4",
            "/isochrone?point=40.73381,-74.00219&buckets=9",
        ] {
            let answer = ask(refused)
            #expect(answer?.status == 400 && answer?.json["message"] is String, "\(refused)")
        }
    }

    /// Isochrones as Valhalla writes them: a GeoJSON feature a contour, the largest first.
    @Test func isochronesAreGeoJSONPolygonsByContour() throws {
        let server = try MapsServer(
            app: try MapsApp.onStore(path: try SeedPlaces.westVillageStore()), options: .loopback())
        defer { server.stop() }
        func ask(_ target: String) -> (status: Int, json: [String: Any])? {
            get(server, target).map { ($0.status, json($0.body)) }
        }
        let drawn = try #require(ask("/isochrone/v1/walking/-74.00219,40.73381?contours_minutes=3,6"))
        #expect(drawn.status == 200 && drawn.json["type"] as? String == "FeatureCollection")
        let features = try #require(drawn.json["features"] as? [[String: Any]])
        #expect(features.compactMap { ($0["properties"] as? [String: Any])?["contour"] as? Double } == [6, 3])
        let geometry = try #require(features.first?["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiPolygon")
        #expect(((geometry["coordinates"] as? [[[[Double]]]])?.first?.first?.count ?? 0) >= 4)
        let metres = try #require(ask("/isochrone/v1/walking/-74.00219,40.73381?contours_meters=400"))
        #expect(
            ((metres.json["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["metric"]
                as? String == "distance")
        #expect(ask("/isochrone/v1/walking/-74.00219,40.73381")?.json["code"] as? String == "InvalidOptions")
        #expect(
            ask("/isochrone/v1/walking/-74.00219,40.73381?contours_minutes=1,2,3,4,5")?.json["code"] as? String
                == "InvalidOptions")
        #expect(
            ask("/isochrone/v1/walking/-74.00219,40.73381?contours_minutes=500")?.json["code"] as? String
                == "InvalidOptions")
        #expect(ask("/isochrone/v1/driving/2.35,48.85?contours_minutes=5")?.json["code"] as? String == "NoSegment")
    }
}
