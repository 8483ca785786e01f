import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import Routing

/// How routes pass their points when a client says (OSRM's `continue_straight`, `approaches`
/// and `bearings`), on the West Village extract's streets, with the hierarchy and without.
@Suite struct PassageTests {
    let store: MapStore
    let graph: RoadGraph
    let contracted: Router
    let plain: Router

    init() throws {
        store = try MapStore(path: SeedPlaces.westVillageStore())
        graph = try RoadGraph(store: store, profile: TravelProfile(.driving))
        contracted = Router(graph: graph, hierarchy: ContractionHierarchy(graph: graph))
        plain = Router(graph: graph)
    }

    /// `count` points over the village, a fixed sequence from `seed`.
    static func points(_ count: Int, seed: UInt64) -> [Coordinate] {
        let (south, west, north, east) = (40.7290, -74.0100, 40.7400, -73.9980)
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            Coordinate(
                latitude: south + (north - south) * Double.random(in: 0..<1, using: &generator),
                longitude: west + (east - west) * Double.random(in: 0..<1, using: &generator))
        }
    }

    /// Whether `b` runs along `a`'s segment the other way on `graph`: a turn back.
    static func reverses(_ a: Int32, _ b: Int32, on graph: RoadGraph) -> Bool {
        graph.edgeFrom[Int(a)] == graph.edgeTo[Int(b)] && graph.edgeTo[Int(a)] == graph.edgeFrom[Int(b)]
    }

    /// Whether `point` lies on the right of edge `edge`'s direction of travel (or on it).
    func isOnTheRight(_ point: Coordinate, of edge: Int32) -> Bool {
        let (from, to) = (
            graph.positions[Int(graph.edgeFrom[Int(edge)])], graph.positions[Int(graph.edgeTo[Int(edge)])]
        )
        let plane = LocalPlane(around: from)
        let (a, b, p) = (plane.point(from), plane.point(to), plane.point(point))
        return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) <= 0
    }

    /// Whether the road of `edge` is travelled both ways.
    func isTwoWay(_ edge: Int32) -> Bool {
        graph.segments.contains { ($0.forward == edge && $0.backward >= 0) || ($0.backward == edge && $0.forward >= 0) }
    }

    /// Going straight on, each stop is left by the edge it was reached by; free to turn back,
    /// some routes do, and are no heavier for it. By car that is the default, on foot not.
    @Test func aCarGoesStraightOnPastItsStopsWhereItMayBeToldToTurnBack() throws {
        let points = Self.points(600, seed: 11)
        var turnedBack = 0
        var compared = 0
        for index in stride(from: 0, to: points.count - 2, by: 3) {
            let stops = Array(points[index..<(index + 3)])
            guard let straight = try? contracted.route(stops, passing: .init(continuesStraight: true)),
                let free = try? contracted.route(stops, passing: .init(continuesStraight: false))
            else { continue }
            compared += 1
            for (leg, next) in zip(straight.legs, straight.legs.dropFirst()) {
                #expect(leg.edges.last == next.edges.first, "\(stops)")
            }
            // Either way each leg starts where the one before ended, though a stop's nearest road
            // cannot be reached and it is met on a large piece of the network instead.
            for route in [straight, free] {
                for (index, (leg, next)) in zip(route.legs, route.legs.dropFirst()).enumerated() {
                    #expect(
                        leg.geometry.last == next.geometry.first && leg.geometry.last == route.snapped[index + 1].point)
                }
            }
            // The default by car is straight on.
            #expect(abs(try contracted.route(stops).duration - straight.duration) < 0.01)
            // The plain search finds the same.
            let plainStraight = try plain.route(stops, passing: .init(continuesStraight: true))
            #expect(abs(plainStraight.duration - straight.duration) < 0.01 * max(1, straight.duration), "\(stops)")
            if zip(free.legs, free.legs.dropFirst()).contains(where: {
                Self.reverses($0.edges.last!, $1.edges.first!, on: graph)
            }) {
                turnedBack += 1
                #expect(straight.duration > free.duration - 1, "\(stops)")
            }
        }
        #expect(compared >= 150)
        #expect(turnedBack >= 3, "free to turn back, \(turnedBack) of \(compared) routes did")

        // On foot, turning back at a stop is the default.
        let walkingGraph = try RoadGraph(store: store, profile: TravelProfile(.walking))
        let walking = Router(graph: walkingGraph)
        var walkedBack = 0
        for index in stride(from: 0, to: points.count - 2, by: 3) {
            guard let route = try? walking.route(Array(points[index..<(index + 3)])) else { continue }
            if Self.reverses(route.legs[0].edges.last!, route.legs[1].edges.first!, on: walkingGraph) {
                walkedBack += 1
            }
        }
        #expect(walkedBack >= 3)
    }

    /// A point met from the kerb's side lies on the right of the road the route arrives and
    /// leaves by, wherever that road is travelled both ways; from the far side, on the left.
    @Test func curbAndOppositeApproachesMeetThePointOnTheAskedSide() throws {
        let points = Self.points(60, seed: 5)
        var (changed, checked, unrouted) = (0, 0, 0)
        for index in stride(from: 0, to: points.count - 1, by: 2) {
            let ends = [points[index], points[index + 1]]
            guard let free = try? contracted.route(ends) else { continue }
            for side in [Approach.Side.curb, .opposite] {
                let approach = Approach(side: side)
                guard let route = try? contracted.route(ends, passing: .init(approaches: [approach, approach])) else {
                    unrouted += 1
                    continue
                }
                let (first, last) = (route.legs[0].edges.first!, route.legs[0].edges.last!)
                checked += 1
                if isTwoWay(first) { #expect(isOnTheRight(ends[0], of: first) == (side == .curb), "\(ends)") }
                if isTwoWay(last) { #expect(isOnTheRight(ends[1], of: last) == (side == .curb), "\(ends)") }
                if abs(route.duration - free.duration) > 1 { changed += 1 }
                let plainRoute = try plain.route(ends, passing: .init(approaches: [approach, approach]))
                #expect(abs(plainRoute.duration - route.duration) < 0.01 * max(1, route.duration), "\(ends)")
            }
        }
        #expect(checked >= 40 && changed >= 10, "\(changed) of \(checked) routes changed, \(unrouted) not routed")
    }

    /// A bearing picks the direction a route leaves its start by, and a road heading
    /// elsewhere is passed over for the nearest one heading that way.
    @Test func bearingsPickTheDirectionOfTravel() throws {
        let points = Self.points(40, seed: 3)
        var checked = 0
        for index in stride(from: 0, to: points.count - 1, by: 2) {
            let ends = [points[index], points[index + 1]]
            guard let free = try? contracted.route(ends) else { continue }
            let heading = Double(graph.edgeBearing[Int(free.legs[0].edges[0])])
            for wanted in [heading, heading + 180] {
                let degrees = (wanted + 360).truncatingRemainder(dividingBy: 360)
                let approach = Approach(bearing: (degrees, 20))
                guard let route = try? contracted.route(ends, passing: .init(approaches: [approach, .any])) else {
                    continue
                }
                checked += 1
                let first = Double(graph.edgeBearing[Int(route.legs[0].edges[0])])
                let off = abs((first - degrees + 540).truncatingRemainder(dividingBy: 360) - 180)
                #expect(off <= 20.5, "\(ends): left at \(first)°, asked \(degrees)°")
                let nearest = try #require(try graph.snap(ends[0], within: .infinity))
                let nearestHeaded = try #require(try graph.snap(ends[0], within: .infinity, approach: approach))
                #expect(nearestHeaded.distance >= nearest.distance)
            }
        }
        #expect(checked >= 30)
    }

    /// A table's cells meet their points as asked, as the routes between them do; a trip's
    /// route meets each point from the asked side.
    /// A waypoint's hint gives its place back for its own point on the graph it was made on,
    /// the same segment and place along it, and nothing for another point, another graph or
    /// text that is no hint of ours.
    @Test func aHintGivesBackThePlaceItWasMadeFor() throws {
        let walking = try RoadGraph(store: store, profile: TravelProfile(.walking))
        var checked = 0
        for point in Self.points(200, seed: 11) {
            guard let snap = try graph.snap(point) else { continue }
            let hint = graph.hint(of: snap).text
            let again = try #require(graph.snap(hinted: hint, at: point, approach: .any))
            #expect(again.segment == snap.segment && abs(again.fraction - snap.fraction) < 1e-6)
            #expect(again.point.distance(to: snap.point) < 0.01 && abs(again.distance - snap.distance) < 0.01)
            // Through the snapping every service uses: the hinted place, even where another road
            // is nearer to a point asked with it.
            #expect(try graph.snap(point, approach: Approach(hint: hint))?.segment == snap.segment)
            let moved = Coordinate(latitude: point.latitude + 2e-6, longitude: point.longitude)
            #expect(graph.snap(hinted: hint, at: moved, approach: .any) == nil)
            // The walking graph numbers its segments otherwise: its segment of that index runs
            // between other nodes (or there is none).
            let other = walking.snap(hinted: hint, at: point, approach: .any)
            #expect(
                other == nil
                    || walking.osmNodes[Int(walking.segments[Int(other!.segment)].from)]
                        == graph.osmNodes[Int(graph.segments[Int(snap.segment)].from)]
            )
            checked += 1
        }
        #expect(checked > 150)
        // The text is base64url without padding, as Foundation's base64 with the URL's alphabet.
        var generator = SeededGenerator(seed: 5)
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encoded(bytes) == foundation)
            #expect(
                Base64URL.decoded(foundation) == bytes && Base64URL.decoded(Data(bytes).base64EncodedString()) == bytes)
        }
        let point = Self.points(1, seed: 11)[0]
        for text in [
            "", "AQ", "not a hint", String(repeating: "A", count: 44),
            "lOcBgCT0sIkmAAAAAAAAAAAAAAAAAAAA-pFrQQAAAAAAAAAAJgAAAAAAAAAAAAAAxA4AAAbUfgDMH24ASNR-AN8fbgACAL8A6W44Yg==",
        ] {
            #expect(graph.snap(hinted: text, at: point, approach: .any) == nil, "\(text)")
        }
    }

    /// OSRM's `overview=simplified`: each leg's line with the positions dropped that lie within
    /// 5 pixels of the line kept, at the zoom the route fits 2,048 × 1,280 pixels at.
    @Test func theSimplifiedOverviewStaysWithinFivePixelsOfTheRoute() throws {
        // The zoom: a box just under 8 tiles wide at zoom 15 on the equator fits at 15, just over
        // at 14; one point at 1.
        let wide = 360 * 2_048 / (256 * 32_768.0)
        #expect(
            Route.overviewZoom([Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: wide * 0.99)])
                == 15)
        #expect(
            Route.overviewZoom([Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: wide * 1.01)])
                == 14)
        #expect(Route.overviewZoom([Coordinate(latitude: 40.73, longitude: -74.0)]) == 1)
        var dropped = 0
        var routes = 0
        let points = Self.points(40, seed: 3)
        for (from, to) in zip(points, points.dropFirst()) {
            // (Some of the random points lie on pieces of one-way streets no route joins.)
            guard let route = try? contracted.route([from, to, points[0]]) else { continue }
            routes += 1
            let full = route.geometry
            let simplified = route.simplifiedGeometry
            #expect(simplified.first == full.first && simplified.last == full.last)
            // A subsequence of the line, each leg's joint kept.
            var next = full.startIndex
            for position in simplified {
                guard let found = full[next...].firstIndex(of: position) else {
                    Issue.record("a position not on the route")
                    break
                }
                next = full.index(after: found)
            }
            let joint = route.legs[0].geometry.last!
            #expect(simplified.contains(joint))
            // No position dropped lies more than 5 pixels from the line kept, at the route's zoom.
            let size = WebMercator.worldSize(zoom: Double(Route.overviewZoom(full)))
            let kept = simplified.map { WebMercator.project($0, worldSize: size) }
            for position in full where !simplified.contains(position) {
                let p = WebMercator.project(position, worldSize: size)
                let nearest =
                    zip(kept, kept.dropFirst()).map { a, b -> Double in
                        let (dx, dy) = (b.x - a.x, b.y - a.y)
                        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / max(dx * dx + dy * dy, 1e-12)))
                        return
                            ((p.x - a.x - t * dx) * (p.x - a.x - t * dx) + (p.y - a.y - t * dy) * (p.y - a.y - t * dy))
                            .squareRoot()
                    }.min() ?? 0
                #expect(nearest <= 5.0001)
                dropped += 1
            }
        }
        #expect(routes > 25 && dropped > 100, "\(routes) routes, \(dropped) positions dropped")
    }

    @Test func tablesAndTripsMeetTheirPointsAsAsked() throws {
        let points = Self.points(12, seed: 19)
        let kerbside = Array(repeating: Approach(side: .curb), count: points.count)
        let all = Array(points.indices)
        let table = try contracted.table(points, sources: all, destinations: all, approaches: kerbside)
        let free = try contracted.table(points, sources: all, destinations: all)
        var differing = 0
        for source in all {
            for destination in all where destination != source {
                let route = try? contracted.route(
                    [points[source], points[destination]],
                    passing: .init(approaches: [kerbside[source], kerbside[destination]]))
                let cell = table.durations[source][destination]
                #expect((route == nil) == (cell == nil))
                guard let route, let cell else { continue }
                #expect(abs(route.duration - cell) < 1, "\(source) → \(destination)")
                if let other = free.durations[source][destination], abs(other - cell) > 1 { differing += 1 }
            }
        }
        #expect(differing >= 5, "\(differing) cells changed")

        let trip = try contracted.trip(
            Array(points.prefix(6)), roundTrip: true, passing: .init(approaches: Array(kerbside.prefix(6))))
        #expect(trip.order.count == 6)
        for (index, leg) in trip.route.legs.enumerated() {
            let (first, last) = (leg.edges.first!, leg.edges.last!)
            let (from, to) = (trip.route.requested[index], trip.route.requested[index + 1])
            if isTwoWay(first) { #expect(isOnTheRight(from, of: first)) }
            if isTwoWay(last) { #expect(isOnTheRight(to, of: last)) }
        }
    }
}
