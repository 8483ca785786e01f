import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import Routing

/// Routes on real OpenStreetMap data: the West Village extract of the seed places
/// (`data/seed-places`, 2015), imported into a store of its own.
@Suite struct WestVillageRoutingTests {
    /// The Stonewall Inn (53 Christopher Street) and Think Coffee (73 8th Avenue).
    let stonewall = Coordinate(latitude: 40.73381, longitude: -74.00219)
    let thinkCoffee = Coordinate(latitude: 40.73878, longitude: -74.00366)

    func route(_ mode: TravelProfile.Mode, _ points: [Coordinate]) throws -> Route {
        let store = try MapStore(path: SeedPlaces.westVillageStore())
        let router = Router(graph: try RoadGraph(store: store, profile: TravelProfile(mode)))
        return try router.route(points)
    }

    @Test(arguments: TravelProfile.Mode.allCases)
    func everyModeRoutesAcrossTheVillage(mode: TravelProfile.Mode) throws {
        let route = try route(mode, [stonewall, thinkCoffee])
        let straight = stonewall.distance(to: thinkCoffee)
        #expect(route.distance >= straight * 0.9 && route.distance <= straight * 2.2, "\(route.distance) m")
        #expect(route.snapped.allSatisfy { $0.distance < 60 })
        #expect(route.legs[0].roads.count >= 1)
        let speed = route.distance / route.duration * 3.6
        switch mode {
        case .walking: #expect(abs(speed - 5) < 0.5)
        case .bicycling: #expect(speed > 8 && speed <= 15.01)
        case .driving, .twoWheeler: #expect(speed > 10 && speed < 60)
        }
    }

    /// The hierarchy answers exactly as the plain search: the same weight, time and distance
    /// on 300 pairs of points across the extract, every mode.
    @Test(arguments: TravelProfile.Mode.allCases)
    func theHierarchyFindsTheSameRoutesAsThePlainSearch(mode: TravelProfile.Mode) throws {
        let store = try MapStore(path: SeedPlaces.westVillageStore())
        let graph = try RoadGraph(store: store, profile: TravelProfile(mode))
        let plain = Router(graph: graph)
        let contracted = Router(graph: graph, hierarchy: ContractionHierarchy(graph: graph))
        #expect(contracted.hierarchy!.nodeCount == graph.edgeCount)
        let compared = Self.compareRoutes(plain, contracted, pairs: 300, seed: 7) { expected, actual in
            #expect(abs(expected.distance - actual.distance) < 1 || abs(expected.duration - actual.duration) < 0.5)
        }
        #expect(compared > 250)
    }

    /// Routes `pairs` times between two random points over the village (a fixed sequence from
    /// `seed`) with both routers: both find a route or neither does, of the same duration
    /// (within 1 %), and `also` checks each pair more. Returns how many pairs had a route.
    static func compareRoutes(
        _ plain: Router, _ contracted: Router, pairs: Int, seed: UInt64,
        also: (_ expected: Route, _ actual: Route) -> Void = { _, _ in }
    ) -> Int {
        let (south, west, north, east) = (40.7290, -74.0100, 40.7400, -73.9980)
        var generator = SeededGenerator(seed: seed)
        var compared = 0
        for _ in 0..<pairs {
            let points = (0..<2).map { _ in
                Coordinate(
                    latitude: south + (north - south) * Double.random(in: 0..<1, using: &generator),
                    longitude: west + (east - west) * Double.random(in: 0..<1, using: &generator))
            }
            let expected = try? plain.route(points)
            let actual = try? contracted.route(points)
            #expect((expected == nil) == (actual == nil))
            guard let expected, let actual else { continue }
            compared += 1
            #expect(abs(expected.duration - actual.duration) < 0.01 * max(1, expected.duration), "\(points)")
            also(expected, actual)
        }
        return compared
    }

    /// A hierarchy of the network edited as an update edits it keeps the last one's order
    /// (its new edges placed first) and answers exactly as the plain search; edits that add
    /// more than the order's share of new edges have it made afresh.
    @Test(arguments: [TravelProfile.Mode.driving, .walking])
    func aHierarchyOfAnEditedNetworkKeepsTheOrderAndFindsTheSameRoutes(mode: TravelProfile.Mode) throws {
        let store = try MapStore(path: SeedPlaces.westVillageStore())
        let ways = try store.roadWays()
        let (nodes, restrictions) = (try store.roadNodes(), try store.roadRestrictions())
        let profile = TravelProfile(mode)
        let before = ContractionHierarchy(
            graph: RoadGraph(ways: ways, nodes: nodes, restrictions: restrictions, profile: profile))
        let ordering = try #require(before.ordering)
        #expect(ordering.keys.count == before.nodeCount && Set(ordering.keys).count == before.nodeCount)
        #expect(ordering.placed == 0 && !before.keptOrder)
        // The order is kept in the stored bytes, and read on its own; bytes cut short have none.
        let bytes = before.serialized()
        #expect(ContractionHierarchy.ordering(serialized: bytes) == ordering)
        #expect(ContractionHierarchy.ordering(serialized: Array(bytes.dropLast(5))) == nil)
        #expect(try ContractionHierarchy(serialized: bytes).nodeCount == before.nodeCount)
        // A store's graph of the first format (no order after the arcs) is still read, and
        // has no order to keep.
        let firstFormat = Array("OMCH1".utf8) + bytes[5..<(bytes.count - 8 * ordering.keys.count - 8)]
        #expect(try ContractionHierarchy(serialized: Array(firstFormat)).arcCount == before.arcCount)
        #expect(ContractionHierarchy.ordering(serialized: Array(firstFormat)) == nil)

        /// The network with every `step`th way gone, moved 20 m north, or with a node added
        /// (new edges: its first segment's two halves).
        func edited(_ step: Int) -> [RoadNetwork.Way] {
            ways.enumerated().compactMap { index, way in
                var way = way
                switch index % step {
                case 0: return nil
                case 1:
                    way.points = way.points.map { Coordinate(latitude: $0.latitude + 0.00018, longitude: $0.longitude) }
                case 2:
                    // A node added between its first two.
                    let middle = Coordinate(
                        latitude: (way.points[0].latitude + way.points[1].latitude) / 2,
                        longitude: (way.points[0].longitude + way.points[1].longitude) / 2)
                    way.nodes.insert(1_000_000_000_000 + way.osmID, at: 1)
                    way.points.insert(middle, at: 1)
                default: break
                }
                return way
            }
        }
        let graph = RoadGraph(ways: edited(20), nodes: nodes, restrictions: restrictions, profile: profile)
        let after = ContractionHierarchy(graph: graph, keeping: ordering)
        let kept = Set(ordering.keys)
        let new = graph.edgeKeys().count { !kept.contains($0) }
        #expect(after.keptOrder && new > 0 && after.ordering?.placed == new)
        #expect(
            graph.fingerprint()
                != RoadGraph(ways: ways, nodes: nodes, restrictions: restrictions, profile: profile).fingerprint())
        // The kept order's nodes come in the same order as before; the new ones (on roads
        // that were there) among them.
        let rank = Dictionary(uniqueKeysWithValues: ordering.keys.enumerated().map { ($1, $0) })
        let ranks = try #require(after.ordering).keys.map { rank[$0] ?? -1 }
        let keptRanks = ranks.filter { $0 >= 0 }
        #expect(ranks.count - keptRanks.count == new && zip(keptRanks, keptRanks.dropFirst()).allSatisfy { $0 < $1 })
        #expect(try #require(ranks.lastIndex { $0 < 0 }) > ranks.firstIndex { $0 >= 0 } ?? ranks.count)

        let compared = Self.compareRoutes(
            Router(graph: graph), Router(graph: graph, hierarchy: after), pairs: 200, seed: 11)
        #expect(compared > 150)

        // With a node added to a sixth of the ways (more new edges than the placed share), the
        // order is made afresh.
        let remade = ContractionHierarchy(
            graph: RoadGraph(ways: edited(6), nodes: nodes, restrictions: restrictions, profile: profile),
            keeping: ordering)
        #expect(!remade.keptOrder && remade.ordering?.placed == 0)
    }

    @Test func modesAreBuiltAtOnceAsFarAsCoresAndMemoryAllow() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let network = try RoadGraph.Network(store: MapStore(path: SeedPlaces.westVillageStore()), heights: false)
        #expect(RoutingGraphs.concurrentBuilds(of: network, modes: 4) == min(4, cores))
        #expect(RoutingGraphs.concurrentBuilds(references: 1_000_000, modes: 1) == 1)
        // A network of as many road nodes as the machine has bytes: one mode at a time.
        let huge = Int(ProcessInfo.processInfo.physicalMemory)
        #expect(RoutingGraphs.concurrentBuilds(references: huge, modes: 4) == 1)
        #expect(RoutingGraphs.concurrentBuilds(references: huge / 8192, modes: 4) == min(4, cores))
    }

    @Test func theStoreKeepsEachModesGraphAndSaysWhenItIsMissingOrStale() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: SeedPlaces.westVillageStore(), toPath: path)
        // None yet: routes are still found, with a note saying how to build it.
        let (plain, missing) = try RoutingGraphs.router(store: MapStore(path: path), mode: .walking)
        #expect(plain.hierarchy == nil && missing == .routingGraphMissing(.walking))
        #expect(missing?.message().hasSuffix("'openmaps import --routing' builds it") == true)
        let built = try RoutingGraphs.build(storePath: path)
        #expect(built.map(\.mode) == TravelProfile.Mode.allCases && built.allSatisfy { $0.arcs >= $0.nodes })
        // Modes whose graphs are the same (fingerprints but for the mode's name) share one
        // hierarchy, contracted once: one says it is the other's.
        let fingerprints = try MapStore(path: path).roadGraphFingerprints()
        func graph(_ mode: TravelProfile.Mode) -> Substring {
            fingerprints[mode.rawValue]!.dropFirst(mode.rawValue.count)
        }
        for (one, other) in [(TravelProfile.Mode.driving, TravelProfile.Mode.twoWheeler), (.driving, .walking)] {
            let said = built.filter { ($0.mode == one && $0.sameAs == other) || ($0.mode == other && $0.sameAs == one) }
            #expect(said.count == (graph(one) == graph(other) ? 1 : 0), "\(one), \(other)")
            if let shared = said.first {
                let store = try MapStore(path: path)
                #expect(try store.roadGraph(mode: one.rawValue)?.data == store.roadGraph(mode: other.rawValue)?.data)
                #expect(shared.arcs == built.first { $0.mode == shared.sameAs }?.arcs)
            }
        }
        #expect(graph(.driving) != graph(.walking))
        #expect(try RoutingGraphs.build(storePath: path).isEmpty, "current graphs are not built again")
        let store = try MapStore(path: path)
        for mode in TravelProfile.Mode.allCases {
            let (router, note) = try RoutingGraphs.router(store: store, mode: mode)
            #expect(router.hierarchy != nil && note == nil)
            let route = try router.route([stonewall, thinkCoffee])
            let again = try Router(graph: router.graph).route([stonewall, thinkCoffee])
            #expect(abs(route.duration - again.duration) < 0.01)
        }
        // A graph built from other roads (its fingerprint differs) is not used; bytes cut short
        // or of another kind are refused.
        let walking = try #require(try store.roadGraph(mode: "walking"))
        #expect(throws: ContractionHierarchy.FormatError.self) {
            try ContractionHierarchy(serialized: Array(walking.data.prefix(walking.data.count / 2)))
        }
        #expect(throws: ContractionHierarchy.FormatError.self) {
            try ContractionHierarchy(serialized: Array("PK\u{3}\u{4}".utf8))
        }
        try RoadNetwork.write(
            [RoadNetwork.StoredGraph(mode: "walking", fingerprint: "walking-0-0", data: walking.data)], into: path)
        let (_, stale) = try RoutingGraphs.router(store: MapStore(path: path), mode: .walking)
        #expect(stale == .routingGraphStale(.walking))
        #expect(stale?.message(Phrasebook(.it)).contains("costruito da altre strade o altre regole") == true)
        #expect(try RoutingGraphs.build(storePath: path).map(\.mode) == TravelProfile.Mode.allCases)
    }

    @Test(arguments: [TravelProfile.Mode.driving, .walking])
    func alternativesAreNotMuchLongerAndMostlyOnOtherStreets(mode: TravelProfile.Mode) throws {
        let store = try MapStore(path: SeedPlaces.westVillageStore())
        let router = Router(graph: try RoadGraph(store: store, profile: TravelProfile(mode)))
        let routes = try router.routes(from: stonewall, to: thinkCoffee, alternatives: 2)
        #expect(routes.count == 3, "a grid of streets has other ways")
        let best = routes[0]
        #expect(abs(best.duration - (try router.route([stonewall, thinkCoffee])).duration) < 0.01)
        for (index, alternative) in routes.enumerated().dropFirst() {
            #expect(alternative.duration >= best.duration - 0.01)
            #expect(alternative.duration <= best.duration * Router.alternativeStretch)
            #expect(alternative.snapped.map(\.point) == best.snapped.map(\.point))
            for earlier in routes.prefix(index) {
                let shared = Set(alternative.legs[0].edges).intersection(earlier.legs[0].edges)
                #expect(shared.count < alternative.legs[0].edges.count, "not the same route")
            }
        }
        #expect(try router.routes(from: stonewall, to: thinkCoffee, alternatives: 0).count == 1)
    }

    @Test func driversKeepToOneWayStreets() throws {
        // Manhattan's streets are one way: there and back differ for a car, not on foot.
        let there = try route(.driving, [stonewall, thinkCoffee])
        let back = try route(.driving, [thinkCoffee, stonewall])
        #expect(there.legs[0].segmentWays != back.legs[0].segmentWays.reversed())
        let walkThere = try route(.walking, [stonewall, thinkCoffee])
        let walkBack = try route(.walking, [thinkCoffee, stonewall])
        #expect(abs(walkThere.distance - walkBack.distance) < 30)
    }

    @Test func theRouteAsOSRMWritesIt() throws {
        let route = try route(.walking, [stonewall, thinkCoffee])
        let document = try #require(
            try JSONSerialization.jsonObject(
                with: Data(RouteDocument.osrm([route], overview: .full, annotations: [.ways, .nodes, .distance]).utf8))
                as? [String: Any])
        #expect(document["code"] as? String == "Ok")
        let first = try #require((document["routes"] as? [[String: Any]])?.first)
        let geometry = try #require(first["geometry"] as? String)
        let decoded = try #require(EncodedPolyline.decode(geometry))
        #expect(decoded.count == route.geometry.count)
        #expect(decoded.first!.distance(to: route.geometry.first!) < 1)
        // By default, as OSRM's, the line simplified for the zoom the route fits a screen at.
        let plain = try #require(
            try JSONSerialization.jsonObject(with: Data(RouteDocument.osrm([route]).utf8)) as? [String: Any])
        let line = try #require((plain["routes"] as? [[String: Any]])?.first?["geometry"] as? String)
        let simplified = try #require(EncodedPolyline.decode(line))
        #expect(simplified.count == route.simplifiedGeometry.count && simplified.count < decoded.count)
        let leg = try #require((first["legs"] as? [[String: Any]])?.first)
        let annotation = try #require(leg["annotation"] as? [String: Any])
        #expect(Set(annotation.keys) == ["ways", "nodes", "distance"])
        #expect((annotation["ways"] as? [Int64])?.count == route.geometry.count - 1)
        #expect((annotation["nodes"] as? [Int64]) == route.legs[0].nodes)
        let waypoints = try #require(document["waypoints"] as? [[String: Any]])
        #expect(waypoints.count == 2 && (waypoints[0]["location"] as? [Double])?.count == 2)
        // Without annotations asked for, no annotation; without waypoints, none.
        let bare = try #require(
            try JSONSerialization.jsonObject(with: Data(RouteDocument.osrm([route], waypoints: false).utf8))
                as? [String: Any])
        #expect(bare["waypoints"] == nil)
        #expect(((bare["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])?.first?["annotation"] == nil)
    }

    @Test(arguments: [TravelProfile.Mode.driving, .walking])
    func eachPositionIsAtItsOSMNodeAsOSRMsNodesAnnotationSays(mode: TravelProfile.Mode) throws {
        let store = try MapStore(path: SeedPlaces.westVillageStore())
        let router = Router(graph: try RoadGraph(store: store, profile: TravelProfile(mode)))
        var position: [Int64: Coordinate] = [:]
        for (node, id) in router.graph.osmNodes.enumerated() { position[id] = router.graph.positions[node] }
        let points = [
            stonewall, thinkCoffee, Coordinate(latitude: 40.7358, longitude: -74.0010),
            Coordinate(latitude: 40.7380, longitude: -74.0060),
        ]
        for leg in try router.route(points).legs {
            #expect(leg.nodes.count == leg.geometry.count)
            // Between the ends, each position is its node's; each end lies on the segment
            // between its node and the next (or the one before).
            for index in 1..<leg.geometry.count - 1 {
                #expect(try #require(position[leg.nodes[index]]).distance(to: leg.geometry[index]) < 0.01)
            }
            let last = leg.nodes.count - 1
            for (end, node, neighbour) in [(0, 0, 1), (last, last, last - 1)] {
                let (a, b) = (try #require(position[leg.nodes[node]]), try #require(position[leg.nodes[neighbour]]))
                let point = leg.geometry[end]
                #expect(a.distance(to: point) + point.distance(to: b) - a.distance(to: b) < 0.5, "end \(end)")
            }
        }
    }

    @Test func pointsPassedThroughJoinTheirLegsIntoOne() throws {
        let store = try MapStore(path: SeedPlaces.westVillageStore())
        let router = Router(graph: try RoadGraph(store: store, profile: TravelProfile(.driving)))
        let via = Coordinate(latitude: 40.7358, longitude: -74.0010)
        let stopping = try router.route([stonewall, via, thinkCoffee])
        let passing = stopping.stopping(at: [0, 2])
        #expect(passing.legs.count == 1 && passing.snapped.count == 3)
        let leg = passing.legs[0]
        #expect(abs(leg.distance - stopping.distance) < 0.01 && abs(leg.duration - stopping.duration) < 0.01)
        #expect(passing.geometry == stopping.geometry && leg.segmentWays.count == leg.geometry.count - 1)
        #expect(leg.nodes.count == leg.geometry.count)
        // An edge the point between lies on is travelled once, not turned from onto itself.
        #expect(zip(leg.edges, leg.edges.dropFirst()).allSatisfy { $0 != $1 })
        #expect(abs(leg.edgeDistances.reduce(0, +) - leg.distance) < 0.01)
        // Its steps run on through the point passed: one departure, one arrival.
        let steps = try #require(router.steps(of: passing).first)
        #expect(steps.filter { $0.maneuver.kind == .depart || $0.maneuver.kind == .arrive }.count == 2)
        let stopped = router.steps(of: stopping)
        #expect(steps.count >= stopped[0].count + stopped[1].count - 3)
        #expect(abs(steps.map(\.distance).reduce(0, +) - leg.distance) < 0.5)
    }

    @Test func durationsToManyPointsAreTheRoutesDurations() throws {
        let store = try MapStore(path: SeedPlaces.westVillageStore())
        let (router, _) = try RoutingGraphs.router(store: store, mode: .walking)
        let plain = Router(graph: router.graph)
        let origin = Coordinate(latitude: 40.73381, longitude: -74.00219)
        let targets = [
            Coordinate(latitude: 40.73878, longitude: -74.00366), Coordinate(latitude: 40.7358, longitude: -74.0010),
            Coordinate(latitude: 40.7365, longitude: -74.0020), Coordinate(latitude: 40.7380, longitude: -74.0060),
        ]
        let routed = try targets.map { try router.route([origin, $0]).duration }
        // By the hierarchy, and by one search without it: each within a few seconds of its route.
        for found in [
            try router.durations(from: origin, to: targets, limit: 3_600),
            try plain.durations(from: origin, to: targets, limit: 3_600),
        ] {
            for (duration, route) in zip(found, routed) {
                let duration = try #require(duration)
                #expect(abs(duration - route) <= 5, "\(duration) against \(route)")
            }
        }
        // Beyond the limit: nil.
        #expect(try router.durations(from: origin, to: targets, limit: 60).allSatisfy { $0 == nil })
    }
}
