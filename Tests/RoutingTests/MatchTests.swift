import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import Routing

/// Map matching (OSRM's `match`): GPS traces made from real routes on the committed Monaco
/// extract, with noise and dropped fixes, matched back to the route's roads.
@Suite struct MatchTests {
    /// A fixed sequence of numbers in 0..<1 (the same every run).
    struct Sequence {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        /// A normally distributed number (Box–Muller), mean 0, deviation 1.
        mutating func normal() -> Double {
            sqrt(-2 * log(max(next(), 1e-12))) * cos(2 * .pi * next())
        }
    }

    /// A trace of `route` (one leg): a fix every `spacing` metres along its line, each moved
    /// by noise of `noise` metres root mean square (a normal deviation of noise/√2 east and
    /// as much north, as a receiver's accuracy of `noise` metres is meant), every `dropEvery`-th left out,
    /// none in `tunnels` (ways by OSM id: a receiver loses the sky there), timed by the
    /// route's pace.
    static func trace(
        of route: Route, spacing: Double, noise: Double, dropEvery: Int, seed: UInt64, tunnels: Set<Int64> = []
    ) -> [TracePoint] {
        var numbers = Sequence(state: seed)
        let line = route.geometry
        let seconds = route.duration / max(route.distance, 1)
        var fixes: [TracePoint] = []
        var along = 0.0
        var next = 0.0
        for (segment, (a, b)) in zip(line, line.dropFirst()).enumerated() {
            let length = a.distance(to: b)
            let isTunnel = tunnels.contains(route.legs[0].segmentWays[segment])
            while next <= along + length {
                let share = length > 0 ? (next - along) / length : 0
                let exact = Coordinate(
                    latitude: a.latitude + (b.latitude - a.latitude) * share,
                    longitude: a.longitude + (b.longitude - a.longitude) * share)
                let plane = LocalPlane(around: exact)
                let deviation = noise / 2.0.squareRoot()
                let moved = plane.coordinate(x: numbers.normal() * deviation, y: numbers.normal() * deviation)
                if !isTunnel { fixes.append(TracePoint(moved, time: next * seconds, accuracy: max(noise, 5))) }
                next += spacing
            }
            along += length
        }
        return fixes.enumerated().filter { $0.offset % dropEvery != dropEvery - 1 }.map(\.element)
    }

    /// The share of `route`'s length on the ways `matched` travels, and the share of
    /// `matched`'s length on the ways `route` travels.
    static func overlap(_ route: Route, _ matched: [Route]) -> (recall: Double, precision: Double) {
        func lengths(_ routes: [Route]) -> [Int64: Double] {
            var byWay: [Int64: Double] = [:]
            for leg in routes.flatMap(\.legs) {
                for (way, metres) in zip(leg.segmentWays, leg.segmentDistances) { byWay[way, default: 0] += metres }
            }
            return byWay
        }
        let expected = lengths([route])
        let found = lengths(matched)
        let recall = expected.filter { found[$0.key] != nil }.values.reduce(0, +) / expected.values.reduce(0, +)
        let precision = found.filter { expected[$0.key] != nil }.values.reduce(0, +) / found.values.reduce(0, +)
        return (recall, precision)
    }

    static let ends: [(Coordinate, Coordinate)] = [
        (Coordinate(latitude: 43.7310, longitude: 7.4180), Coordinate(latitude: 43.7440, longitude: 7.4290)),
        (Coordinate(latitude: 43.7395, longitude: 7.4270), Coordinate(latitude: 43.7300, longitude: 7.4160)),
        (Coordinate(latitude: 43.7350, longitude: 7.4210), Coordinate(latitude: 43.7480, longitude: 7.4330)),
    ]

    /// Traces of routes across Monaco (two traces of each of three routes, each its own
    /// noise), with 5 to 30 m of noise, a fix in five dropped and none in tunnels, come back as
    /// the route's roads: over all of them, at least 95 % of the routes' length on the ways
    /// matched and at least 93 % of the matched length on the routes' ways, no trace below
    /// 85 %; each in one matching, nearly every fix placed, within a few deviations of where
    /// it was recorded.
    @Test(arguments: [
        (TravelProfile.Mode.driving, 5.0), (.driving, 15.0), (.driving, 30.0), (.walking, 10.0), (.bicycling, 20.0),
    ])
    func noisyTracesOfRoutesMatchTheirRoads(mode: TravelProfile.Mode, noise: Double) throws {
        let store = try MapStore(path: try TestExtracts.monacoStore())
        let graph = try RoadGraph(store: store, profile: TravelProfile(mode))
        let router = Router(graph: graph)
        let tunnels = Set(
            try store.roadWays().filter { $0.tags["tunnel"] != nil && $0.tags["tunnel"] != "no" }.map(\.osmID))
        var total = (route: 0.0, recalled: 0.0, matched: 0.0, precise: 0.0)
        for (number, (from, to)) in Self.ends.enumerated() {
            let route = try router.route([from, to])
            for seed in 0..<2 {
                let trace = Self.trace(
                    of: route, spacing: mode == .walking ? 15 : 30, noise: noise, dropEvery: 5,
                    seed: UInt64(10 * seed + number + 1), tunnels: tunnels)
                // Across the tunnels' gaps (longer than a minute on foot or by bicycle) as one.
                let matched = try router.match(trace, splitsAtGaps: false)
                let label = "\(mode) \(noise) m, route \(number), seed \(seed)"
                #expect(matched.matchings.count == 1, "\(label): \(matched.matchings.count) matchings")
                let routes = matched.matchings.map(\.route)
                let (recall, precision) = Self.overlap(route, routes)
                #expect(recall >= 0.85 && precision >= 0.85, "\(label): recall \(recall), precision \(precision)")
                let length = routes.map(\.distance).reduce(0, +)
                total.route += route.distance
                total.recalled += recall * route.distance
                total.matched += length
                total.precise += precision * length
                let placed = matched.placements.compactMap { $0 }
                #expect(placed.count >= trace.count * 9 / 10, "\(label): \(placed.count) of \(trace.count) placed")
                #expect(placed.allSatisfy { $0.distance <= 5 * noise + 10 })
                #expect(matched.matchings.allSatisfy { (0...1).contains($0.confidence) })
            }
        }
        #expect(total.recalled / total.route >= 0.95, "\(mode) \(noise) m: recall \(total.recalled / total.route)")
        #expect(total.precise / total.matched >= 0.93, "\(mode) \(noise) m: precision \(total.precise / total.matched)")
    }

    /// A clean trace is matched with high confidence; the matching's route is as long as the
    /// route it was made from (within 5 %).
    @Test func aCleanTraceIsMatchedConfidently() throws {
        let graph = try RoadGraph(
            store: try MapStore(path: try TestExtracts.monacoStore()), profile: TravelProfile(.driving))
        let router = Router(graph: graph)
        let route = try router.route([Self.ends[0].0, Self.ends[0].1])
        let matched = try router.match(Self.trace(of: route, spacing: 25, noise: 2, dropEvery: 1_000, seed: 7))
        let matching = try #require(matched.matchings.first)
        #expect(matching.confidence > 0.8, "\(matching.confidence)")
        #expect(abs(matching.route.distance - route.distance) <= 0.05 * route.distance)
    }

    /// A trace along a road no route starts on (a private service road) is matched onto it,
    /// as OSRM's `match` considers every road of the mode's for a fix.
    @Test func aTraceAlongAPrivateServiceRoadIsMatchedOntoIt() throws {
        let graph = try RoadGraph(
            store: try MapStore(path: try TestExtracts.monacoStore()), profile: TravelProfile(.driving))
        let router = Router(graph: graph)
        // Way 201079688 (highway=service, access=private, 179 m), from end to end.
        let anyRoad = Approach(anyRoad: true)
        let route = try router.route(
            [
                Coordinate(latitude: 43.7419039, longitude: 7.4081252),
                Coordinate(latitude: 43.7419536, longitude: 7.4071279),
            ],
            passing: .init(approaches: [anyRoad, anyRoad]))
        /// Metres of a route (all its legs) on the way.
        func onIt(_ route: Route) -> Double {
            var metres = 0.0
            for leg in route.legs {
                for (way, distance) in zip(leg.segmentWays, leg.segmentDistances) where way == 201_079_688 {
                    metres += distance
                }
            }
            return metres
        }
        #expect(onIt(route) > 0.9 * route.distance && route.distance > 150)
        let matched = try router.match(Self.trace(of: route, spacing: 15, noise: 2, dropEvery: 1_000, seed: 9))
        let placed = matched.placements.compactMap { $0 }
        #expect(placed.count == matched.placements.count && placed.allSatisfy { $0.distance < 10 })
        let matchedLength = matched.matchings.map { onIt($0.route) }.reduce(0, +)
        #expect(matchedLength > 0.8 * route.distance, "\(matchedLength) m of \(route.distance) m on the road")
    }

    /// A fix far off the road (an outlier) is left unplaced and the trace stays one matching; a
    /// gap of two minutes splits it in two (unless gaps are ignored); a fix with no road near
    /// is unplaced; tidying drops fixes too close to the one before.
    /// A sparse trace whose fixes lie close across a hairpin but far apart by road: matched
    /// along the road where the time between them allows it, as OSRM bounds a move by the time
    /// (the move was bounded by four times the straight line, at most 2 km, before).
    @Test func fixesCloseAcrossAHairpinAreJoinedByTheRoadTheirTimesAllow() throws {
        // One way up 2 km north, across 100 m, and 2 km back south.
        let points = [(0.0, 0.0), (0.018, 0.0), (0.018, 0.0009), (0.0, 0.0009)].map {
            Coordinate(latitude: $0.0, longitude: $0.1)
        }
        let road = RoadNetwork.Way(
            source: 1, osmID: 1, nodes: [1, 2, 3, 4], points: points,
            tags: ["highway": "secondary", "oneway": "yes", "name": "Hairpin"])
        let router = Router(graph: RoadGraph(ways: [road], nodes: [:], profile: TravelProfile(.driving)))
        let up = Coordinate(latitude: 0.001, longitude: 0)
        let down = Coordinate(latitude: 0.001, longitude: 0.0009)
        let byRoad = try router.route([up, down])
        #expect(byRoad.distance > 3_800 && up.distance(to: down) < 110)
        let timed = [TracePoint(up, time: 0), TracePoint(down, time: byRoad.duration)]
        let matched = try router.match(timed)
        #expect(matched.matchings.count == 1 && matched.placements.allSatisfy { $0 != nil })
        #expect(abs((matched.matchings.first?.route.distance ?? 0) - byRoad.distance) < 10)
        // Too soon for the road (a minute for 3.9 km is 234 km/h): no way between them.
        let hurried = [TracePoint(up, time: 0), TracePoint(down, time: 60)]
        #expect(try router.match(hurried).matchings.isEmpty)
    }

    @Test func outliersGapsAndTidying() throws {
        let graph = try RoadGraph(
            store: try MapStore(path: try TestExtracts.monacoStore()), profile: TravelProfile(.driving))
        let router = Router(graph: graph)
        let route = try router.route([Self.ends[0].0, Self.ends[0].1])
        var trace = Self.trace(of: route, spacing: 30, noise: 3, dropEvery: 1_000, seed: 3)
        let middle = trace.count / 2
        // Out to sea, 2 km south of the middle fix.
        trace[middle].coordinate = LocalPlane(around: trace[middle].coordinate).coordinate(x: 0, y: -2_000)
        let withOutlier = try router.match(trace)
        #expect(withOutlier.matchings.count == 1)
        #expect(withOutlier.placements[middle] == nil)
        #expect(withOutlier.placements.enumerated().allSatisfy { $0.offset == middle || $0.element != nil })

        var gapped = Self.trace(of: route, spacing: 30, noise: 3, dropEvery: 1_000, seed: 3)
        for index in middle..<gapped.count { gapped[index].time! += 120 }
        let split = try router.match(gapped)
        #expect(split.matchings.count == 2)
        #expect(split.matchings.map(\.points.count).reduce(0, +) == gapped.count)
        #expect(split.placements[middle]?.matching == 1 && split.placements[middle]?.waypoint == 0)
        #expect(try router.match(gapped, splitsAtGaps: false).matchings.count == 1)

        var dense = Self.trace(of: route, spacing: 4, noise: 0.5, dropEvery: 1_000, seed: 5)
        dense = Array(dense.prefix(40))
        let tidied = try router.match(dense, tidy: true)
        let placed = tidied.placements.compactMap { $0 }.count
        #expect(placed < dense.count / 2 && placed >= 2, "\(placed) of \(dense.count)")
        #expect(try router.match(dense).placements.allSatisfy { $0 != nil })

        #expect(throws: RoutingError.waypointCount(1, max: Router.maxTracePoints)) { try router.match([trace[0]]) }
    }
}
