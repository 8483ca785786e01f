import Foundation
import GeoCore
import TestSupport
import Testing

@testable import MapData
@testable import Routing

/// Profile rules on small written networks. The grid, 0.001° between letters (111 m north–south,
/// 111 m east–west at the equator):
///
///     A───B───C        row 0 (latitude 0.002)
///     │       │
///     D───E───F        row 1 (latitude 0.001)
///     │
///     G                row 2 (latitude 0)
@Suite struct RoutingTests {
    static let grid: [Character: (Int64, Coordinate)] = [
        "A": (1, Coordinate(latitude: 0.002, longitude: 0)), "B": (2, Coordinate(latitude: 0.002, longitude: 0.001)),
        "C": (3, Coordinate(latitude: 0.002, longitude: 0.002)), "D": (4, Coordinate(latitude: 0.001, longitude: 0)),
        "E": (5, Coordinate(latitude: 0.001, longitude: 0.001)),
        "F": (6, Coordinate(latitude: 0.001, longitude: 0.002)),
        "G": (7, Coordinate(latitude: 0, longitude: 0)),
    ]

    /// A way through the letters of `path` with `tags`.
    static func way(_ id: Int64, _ path: String, _ tags: [String: String]) -> RoadNetwork.Way {
        RoadNetwork.Way(
            source: 1, osmID: id, nodes: path.map { grid[$0]!.0 }, points: path.map { grid[$0]!.1 }, tags: tags)
    }

    /// The square's four sides (A–B–C on top, tagged `top`) and the spur D–G.
    static func network(top: [String: String] = [:], nodes: [Int64: [String: String]] = [:]) -> (
        [RoadNetwork.Way], [Int64: [String: String]]
    ) {
        let residential = ["highway": "residential"]
        return (
            [
                way(10, "ABC", residential.merging(top) { $1 }), way(11, "AD", residential),
                way(12, "DEF", residential),
                way(13, "FC", residential), way(14, "DG", residential),
            ], nodes
        )
    }

    static func route(
        _ mode: TravelProfile.Mode, from: Character, to: Character, top: [String: String] = [:],
        nodes: [Int64: [String: String]] = [:]
    ) throws -> Route {
        let (ways, tagged) = network(top: top, nodes: nodes)
        let router = Router(graph: RoadGraph(ways: ways, nodes: tagged, profile: TravelProfile(mode)))
        return try router.route([grid[from]!.1, grid[to]!.1])
    }

    /// The ways a route takes, each once in order.
    static func ways(_ route: Route) -> [Int64] {
        route.legs.flatMap(\.segmentWays).reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }

    @Test func theDirectWayWhenNothingForbidsIt() throws {
        let route = try Self.route(.driving, from: "C", to: "A")
        #expect(Self.ways(route) == [10])
        #expect(abs(route.distance - 222.6) < 1)
        #expect(abs(route.duration - 222.6 / (25 / 3.6)) < 0.5, "residential at 25 km/h")
    }

    @Test func oneWayStreetsAreDrivenOneWay() throws {
        let forward = try Self.route(.driving, from: "C", to: "A", top: ["oneway": "yes"])
        #expect(Self.ways(forward) == [13, 12, 11], "around by F, E, D")
        #expect(Self.ways(try Self.route(.driving, from: "A", to: "C", top: ["oneway": "yes"])) == [10])
        let reverse = try Self.route(.driving, from: "A", to: "C", top: ["oneway": "-1"])
        #expect(Self.ways(reverse) == [11, 12, 13])
        // Walkers ignore it; cyclists too where a contraflow lane or oneway:bicycle=no says so.
        #expect(Self.ways(try Self.route(.walking, from: "C", to: "A", top: ["oneway": "yes"])) == [10])
        #expect(Self.ways(try Self.route(.bicycling, from: "C", to: "A", top: ["oneway": "yes"])) == [13, 12, 11])
        #expect(
            Self.ways(try Self.route(.bicycling, from: "C", to: "A", top: ["oneway": "yes", "oneway:bicycle": "no"]))
                == [10])
        #expect(
            Self.ways(
                try Self.route(.bicycling, from: "C", to: "A", top: ["oneway": "yes", "cycleway": "opposite_lane"]))
                == [10])
        #expect(
            Self.ways(try Self.route(.driving, from: "C", to: "A", top: ["junction": "roundabout"])) == [13, 12, 11])
    }

    /// Just south of A on A–D, and of C on F–C: the top road is the short way between them.
    static let nearA = Coordinate(latitude: 0.0019, longitude: 0)
    static let nearC = Coordinate(latitude: 0.0019, longitude: 0.002)

    static func route(_ mode: TravelProfile.Mode, _ points: [Coordinate], top: [String: String] = [:]) throws -> Route {
        let (ways, tagged) = network(top: top)
        return try Router(graph: RoadGraph(ways: ways, nodes: tagged, profile: TravelProfile(mode))).route(points)
    }

    @Test func privateRoadsAreDrivenOnlyToReachAPlaceOnThem() throws {
        #expect(Self.ways(try Self.route(.driving, [Self.nearA, Self.nearC])) == [11, 10, 13])
        for value in ["private", "destination", "delivery"] {
            let top = ["access": value]
            #expect(Self.ways(try Self.route(.driving, [Self.nearA, Self.nearC], top: top)) == [11, 12, 13])
            // From B, on the private road, out by A.
            let out = try Self.route(.driving, [Self.grid["B"]!.1, Self.grid["G"]!.1], top: top)
            #expect(Self.ways(out) == [10, 11, 14])
            #expect(out.duration < 100, "the restriction weighs on the choice, not on the time")
        }
        #expect(
            Self.ways(try Self.route(.walking, [Self.nearA, Self.nearC], top: ["access": "destination"])) == [
                11, 10, 13,
            ])
    }

    @Test func accessTagsCloseWaysToTheModesTheyName() throws {
        #expect(Self.ways(try Self.route(.driving, [Self.nearA, Self.nearC], top: ["access": "no"])) == [11, 12, 13])
        #expect(
            Self.ways(try Self.route(.driving, [Self.nearA, Self.nearC], top: ["motor_vehicle:forward": "no"]))
                == [11, 12, 13], "closed eastwards, the way's own direction")
        #expect(
            Self.ways(try Self.route(.driving, [Self.nearC, Self.nearA], top: ["motor_vehicle:forward": "no"]))
                == [13, 10, 11])
        #expect(Self.ways(try Self.route(.walking, from: "A", to: "C", top: ["access": "no", "foot": "yes"])) == [10])
        #expect(Self.ways(try Self.route(.driving, from: "A", to: "C", top: ["motor_vehicle": "no"])) == [11, 12, 13])
        #expect(Self.ways(try Self.route(.bicycling, from: "A", to: "C", top: ["motor_vehicle": "no"])) == [10])
        #expect(
            Self.ways(try Self.route(.twoWheeler, from: "A", to: "C", top: ["motorcar": "no"])) == [10],
            "a motorcar ban leaves motorcycles")
    }

    @Test func pathsAreForWalkersAndCyclists() throws {
        let footway = ["highway": "footway"]
        #expect(Self.ways(try Self.route(.driving, from: "A", to: "C", top: footway)) == [11, 12, 13])
        #expect(Self.ways(try Self.route(.walking, from: "A", to: "C", top: footway)) == [10])
        let pushed = try Self.route(.bicycling, from: "A", to: "C", top: footway)
        #expect(Self.ways(pushed) == [11, 12, 13], "riding round beats pushing at 4 km/h")
        let steps = try Self.route(.walking, from: "A", to: "C", top: ["highway": "steps"])
        #expect(Self.ways(steps) == [10])
        #expect(Self.ways(try Self.route(.walking, from: "A", to: "C", top: ["highway": "motorway"])) == [11, 12, 13])
    }

    @Test func barriersStopCarsButNotGatesOrWalkers() throws {
        let bollard: [Int64: [String: String]] = [2: ["barrier": "bollard"]]
        #expect(Self.ways(try Self.route(.driving, from: "A", to: "C", nodes: bollard)) == [11, 12, 13])
        #expect(Self.ways(try Self.route(.walking, from: "A", to: "C", nodes: bollard)) == [10])
        // A gate is passed, in a minute: from the spur's end G by D (the gate) to E.
        let gated = try Self.route(.driving, from: "G", to: "E", nodes: [4: ["barrier": "gate"]])
        #expect(Self.ways(gated) == [14, 12])
        #expect(
            abs(
                gated.duration
                    - (222.4 / (25 / 3.6) + 60 + TravelProfile(.driving).turnCost(angle: 90, roads: 3, uTurn: false)))
                < 0.5)
        // A wall stops walkers too; a bollard lets them by.
        let wall: [Int64: [String: String]] = [2: ["barrier": "wall"]]
        #expect(Self.ways(try Self.route(.walking, from: "A", to: "C", nodes: wall)) == [11, 12, 13])
        let signals = try Self.route(.driving, from: "A", to: "C", nodes: [2: ["highway": "traffic_signals"]])
        #expect(abs(signals.duration - (222.6 / (25 / 3.6) + 2)) < 0.5, "a signal costs 2 s")
    }

    @Test func speedsFollowMaxspeedAndSurfaces() throws {
        let fast = try Self.route(.driving, from: "A", to: "C", top: ["highway": "secondary", "maxspeed": "100"])
        #expect(abs(fast.duration - 222.6 / (80 / 3.6)) < 0.5, "maxspeed × 0.8")
        let mph = try Self.route(.driving, from: "A", to: "C", top: ["highway": "secondary", "maxspeed": "30 mph"])
        #expect(abs(mph.duration - 222.6 / (30 * 1.609344 * 0.8 / 3.6)) < 0.5)
        let gravel = try Self.route(.bicycling, from: "A", to: "B", top: ["surface": "gravel"])
        #expect(abs(gravel.duration - 111.3 / (6 / 3.6)) < 0.5, "6 km/h on gravel")
        let sett = try Self.route(.driving, from: "A", to: "C", top: ["highway": "primary", "surface": "sett"])
        #expect(abs(sett.duration - 222.6 / (40 / 3.6)) < 0.5, "cars at most 40 km/h on sett")
        let zone = try Self.route(.driving, from: "A", to: "C", top: ["highway": "secondary", "maxspeed": "FI:urban"])
        #expect(abs(zone.duration - 222.6 / (50 * 0.8 / 3.6)) < 0.5, "an urban zone's 50 km/h")
        let slow = try Self.route(.bicycling, from: "A", to: "C", top: ["maxspeed": "10"])
        #expect(abs(slow.duration - 222.6 / (10 / 3.6)) < 0.5, "a bicycle keeps to a limit below its speed")
        let path = try Self.route(.bicycling, from: "A", to: "C", top: ["highway": "path"])
        #expect(abs(path.duration - 222.6 / (13 / 3.6)) < 0.5)
        #expect(TravelProfile.speedLimit("30 mph")! == 30 * 1.609344 && TravelProfile.speedLimit("RU:urban") == 60)
        #expect(TravelProfile.speedLimit("signals") == nil && TravelProfile.speedLimit("50 km/h") == 50)
    }

    @Test func cyclistsPushTheirBicyclesWhereTheyMayNotRide() throws {
        // The spur D–G one way towards G: back from G to D the bicycle is pushed at 4 km/h.
        let (ways, nodes) = Self.network()
        let oneway = ways.map { way in
            way.osmID == 14
                ? RoadNetwork.Way(
                    source: 1, osmID: 14, nodes: way.nodes, points: way.points,
                    tags: ["highway": "residential", "oneway": "yes"])
                : way
        }
        let router = Router(graph: RoadGraph(ways: oneway, nodes: nodes, profile: TravelProfile(.bicycling)))
        let pushed = try router.route([Self.grid["G"]!.1, Self.grid["D"]!.1])
        #expect(Self.ways(pushed) == [14])
        #expect(abs(pushed.duration - 111.2 / (4 / 3.6)) < 0.5)
        // On a footway, the same; with bicycle=yes it is ridden; with foot=no not even pushed.
        let footway = try Self.route(.bicycling, [Self.nearA, Self.nearC], top: ["highway": "footway"])
        #expect(Self.ways(footway) == [11, 12, 13], "riding round beats pushing at 4 km/h")
        let shared = try Self.route(
            .bicycling, [Self.nearA, Self.nearC], top: ["highway": "footway", "bicycle": "yes"])
        #expect(Self.ways(shared) == [11, 10, 13])
    }

    @Test func aPointOnAJunctionLeavesByAnyRoadFromIt() throws {
        // D is where A–D, D–E–F and the spur D–G meet; whichever segment D snaps to, the route
        // to E and to A leaves D directly, even when the spur is one way out of D.
        let (ways, nodes) = Self.network()
        for oneway in ["yes", "-1"] {
            let spur = ways.map { way in
                way.osmID == 14
                    ? RoadNetwork.Way(
                        source: 1, osmID: 14, nodes: way.nodes, points: way.points,
                        tags: ["highway": "residential", "oneway": oneway])
                    : way
            }
            let router = Router(graph: RoadGraph(ways: spur, nodes: nodes, profile: TravelProfile(.driving)))
            let toE = try router.route([Self.grid["D"]!.1, Self.grid["E"]!.1])
            #expect(Self.ways(toE) == [12] && abs(toE.duration - 111.2 / (25 / 3.6)) < 0.5)
            let toA = try router.route([Self.grid["D"]!.1, Self.grid["A"]!.1])
            #expect(Self.ways(toA) == [11] && abs(toA.distance - 111.2) < 1)
        }
    }

    @Test func avoidedRoadsAreTakenOnlyWhereThereIsNoOtherWay() throws {
        let (ways, nodes) = Self.network(top: ["toll": "yes", "name": "Pike"])
        let router = Router(graph: RoadGraph(ways: ways, nodes: nodes, profile: TravelProfile(.driving)))
        #expect(Self.ways(try router.route([Self.nearA, Self.nearC])) == [11, 10, 13])
        let avoiding = try router.route([Self.nearA, Self.nearC], avoiding: [.tolls])
        #expect(Self.ways(avoiding) == [11, 12, 13] && avoiding.notes.isEmpty)
        #expect(Self.ways(try router.route([Self.nearA, Self.nearC], avoiding: [.ferries])) == [11, 10, 13])
        // From B, on the toll road, there is no other way: taken, and said.
        let unavoidable = try router.route([Self.grid["B"]!.1, Self.grid["G"]!.1], avoiding: [.tolls, .highways])
        #expect(Self.ways(unavoidable) == [10, 11, 14])
        #expect(unavoidable.notes == [.avoidanceUnmet(leg: 0, features: [.tolls], roads: ["Pike"])])
        #expect(unavoidable.notes[0].message() == "no way between points 1 and 2 avoids tolls: the route takes Pike")
        #expect(
            unavoidable.notes[0].message(Phrasebook(.es))
                == "ningún camino entre los puntos 1 y 2 evita los peajes: la ruta pasa por Pike")
        for (feature, tags) in [
            (TravelProfile.RoadFeature.highways, ["motorroad": "yes"]), (.ferries, ["route": "ferry", "highway": ""]),
        ] {
            let (ways, nodes) = Self.network(top: tags)
            let router = Router(graph: RoadGraph(ways: ways, nodes: nodes, profile: TravelProfile(.driving)))
            #expect(Self.ways(try router.route([Self.nearA, Self.nearC], avoiding: [feature])) == [11, 12, 13])
        }
    }

    @Test func stepsAreClimbedOnFootAndCarriedByCyclists() throws {
        let steps = ["highway": "steps"]
        let walked = try Self.route(.walking, from: "A", to: "B", top: steps)
        #expect(Self.ways(walked) == [10] && abs(walked.duration - 111.3 / (5 / 3.6)) < 0.5)
        let carried = try Self.route(.bicycling, from: "A", to: "B", top: steps)
        #expect(Self.ways(carried) == [10] && abs(carried.duration - 111.3 / (2 / 3.6)) < 0.5, "2 km/h")
        #expect(Self.ways(try Self.route(.driving, [Self.nearA, Self.nearC], top: steps)) == [11, 12, 13])
    }

    @Test func uTurnsOnlyWhereNothingElseIs() throws {
        // From just east of D on D–E–F heading west to just west of E: a car may not turn
        // back at D (a junction) but goes round by A, B, C, F; at G's dead end it may.
        let (ways, nodes) = Self.network()
        let graph = RoadGraph(ways: ways, nodes: nodes, profile: TravelProfile(.driving))
        let d = try #require(graph.osmNodes.firstIndex(of: 4))
        let intoD = try #require(
            (0..<graph.edgeCount).first {
                graph.edgeTo[$0] == Int32(d) && graph.ways[Int(graph.edgeWay[$0])].osmID == 12
            })
        let back = try #require(
            (0..<graph.edgeCount).first {
                graph.edgeFrom[$0] == Int32(d) && graph.ways[Int(graph.edgeWay[$0])].osmID == 12
            })
        #expect(!graph.allows(Int32(intoD), Int32(back)), "no u-turn where three roads meet")
        let g = try #require(graph.osmNodes.firstIndex(of: 7))
        let intoG = try #require((0..<graph.edgeCount).first { graph.edgeTo[$0] == Int32(g) })
        let outOfG = try #require((0..<graph.edgeCount).first { graph.edgeFrom[$0] == Int32(g) })
        #expect(graph.allows(Int32(intoG), Int32(outOfG)), "a dead end is turned back from")
        #expect(graph.turnDuration(Int32(intoG), Int32(outOfG)) > 20)
    }

    @Test func separatelyMappedSidewalksAndCyclewaysAreUsedInstead() throws {
        #expect(
            Self.ways(try Self.route(.walking, [Self.nearA, Self.nearC], top: ["sidewalk": "separate"])) == [
                11, 12, 13,
            ])
        #expect(
            Self.ways(try Self.route(.walking, [Self.nearA, Self.nearC], top: ["sidewalk": "both"])) == [11, 10, 13])
        #expect(
            Self.ways(try Self.route(.bicycling, [Self.nearA, Self.nearC], top: ["cycleway:right": "separate"])) == [
                11, 12, 13,
            ])
        #expect(
            Self.ways(
                try Self.route(.bicycling, [Self.nearA, Self.nearC], top: ["cycleway": "separate", "bicycle": "yes"]))
                == [11, 10, 13])
    }

    @Test func ferriesTakeTheirTaggedTime() throws {
        let ferry = try Self.route(
            .driving, from: "A", to: "C", top: ["route": "ferry", "duration": "00:30", "highway": ""])
        #expect(Self.ways(ferry) == [11, 12, 13], "half an hour by boat loses to the streets")
        #expect(TravelProfile.duration("1:30") == 5400 && TravelProfile.duration("45") == 2700)
        #expect(TravelProfile.duration("PT1H15M") == 4500 && TravelProfile.duration("soon") == nil)
    }

    /// A route on the square with turn restrictions.
    static func restricted(
        _ mode: TravelProfile.Mode, from: Character, to: Character, _ rules: [RoadNetwork.Restriction]
    )
        throws -> Route
    {
        let (ways, nodes) = network()
        let graph = RoadGraph(ways: ways, nodes: nodes, restrictions: rules, profile: TravelProfile(mode))
        return try Router(graph: graph).route([grid[from]!.1, grid[to]!.1])
    }

    static func rule(_ kind: String, from: Int64, via: Int64, to: Int64, except: [String] = [], modes: [String] = [])
        -> RoadNetwork.Restriction
    {
        RoadNetwork.Restriction(
            osmID: 1, kind: kind, fromWay: from, viaNodes: [via], viaWays: [], toWay: to, except: except, modes: modes)
    }

    @Test func turnRestrictionsBindTheVehiclesTheyName() throws {
        // From G up to D, then east along D–E–F: forbidden, so round by A, B, C.
        let noRight = [Self.rule("no_right_turn", from: 14, via: 4, to: 12)]
        #expect(Self.ways(try Self.restricted(.driving, from: "G", to: "F", noRight)) == [14, 11, 10, 13])
        #expect(Self.ways(try Self.restricted(.walking, from: "G", to: "F", noRight)) == [14, 12], "walkers turn")
        let onlyStraight = [Self.rule("only_straight_on", from: 14, via: 4, to: 11)]
        #expect(Self.ways(try Self.restricted(.driving, from: "G", to: "F", onlyStraight)) == [14, 11, 10, 13])
        let exceptBicycles = [Self.rule("no_right_turn", from: 14, via: 4, to: 12, except: ["bicycle"])]
        #expect(Self.ways(try Self.restricted(.bicycling, from: "G", to: "F", exceptBicycles)) == [14, 12])
        let forLorries = [Self.rule("no_right_turn", from: 14, via: 4, to: 12, modes: ["hgv"])]
        #expect(Self.ways(try Self.restricted(.driving, from: "G", to: "F", forLorries)) == [14, 12])
        // An "only" turn onto a way the graph lacks is left out rather than trap every car.
        let nowhere = [Self.rule("only_left_turn", from: 14, via: 4, to: 999)]
        #expect(Self.ways(try Self.restricted(.driving, from: "G", to: "F", nowhere)) == [14, 12])
    }

    static func viaWay(_ kind: String, from: Int64, via: [Int64], to: Int64) -> RoadNetwork.Restriction {
        RoadNetwork.Restriction(
            osmID: 2, kind: kind, fromWay: from, viaNodes: [], viaWays: via, toWay: to, except: [], modes: [])
    }

    @Test func viaWayRestrictionsForbidTheWholeManoeuvre() throws {
        // G up to D, on up A–D, then right onto the top road: the short way from G to B.
        #expect(Self.ways(try Self.restricted(.driving, from: "G", to: "B", [])) == [14, 11, 10])
        let noRight = [Self.viaWay("no_right_turn", from: 14, via: [11], to: 10)]
        #expect(Self.ways(try Self.restricted(.driving, from: "G", to: "B", noRight)) == [14, 12, 13, 10])
        // Only the manoeuvre is forbidden: D–A–B from D, and G–D–A alone, are still driven.
        #expect(Self.ways(try Self.restricted(.driving, from: "D", to: "B", noRight)) == [11, 10])
        #expect(Self.ways(try Self.restricted(.driving, from: "G", to: "A", noRight)) == [14, 11])
        #expect(Self.ways(try Self.restricted(.walking, from: "G", to: "B", noRight)) == [14, 11, 10])
        // `only_`: from G the only way on is up A–D and onto the top road.
        let only = [Self.viaWay("only_right_turn", from: 14, via: [11], to: 10)]
        #expect(Self.ways(try Self.restricted(.driving, from: "G", to: "E", only)) == [14, 11, 10, 13, 12])
        #expect(Self.ways(try Self.restricted(.driving, from: "A", to: "E", only)) == [11, 12])
    }

    @Test func turnsCostTimeWhereRoadsMeet() throws {
        // G north to D, then right (90°) to E: D has three roads.
        let route = try Self.route(.driving, from: "G", to: "E")
        let turn = TravelProfile(.driving).turnCost(angle: 90, roads: 3, uTurn: false)
        #expect(abs(route.duration - (222.4 / (25 / 3.6) + turn)) < 0.2)
        let left = TravelProfile(.driving).turnCost(angle: -90, roads: 3, uTurn: false)
        #expect(turn > 1.5 && left > turn, "in right-hand traffic a left turn costs more")
        #expect(TravelProfile(.driving).turnCost(angle: 0, roads: 3, uTurn: false) < 0.1, "straight on costs little")
        #expect(TravelProfile(.walking).turnCost(angle: 90, roads: 3, uTurn: false) == 0)
        #expect(TravelProfile(.driving).turnCost(angle: 180, roads: 2, uTurn: true) > 20)
        // Bicycles: (angle / 90°)² × 6 s, less to the right; a signal between two segments of a
        // road as OSRM's bicycle profile costs it, 17.1 s more than its 2 s.
        let bicycle = TravelProfile(.bicycling)
        #expect(abs(bicycle.turnCost(angle: 90, roads: 3, uTurn: false) - 6 / 1.4) < 0.001)
        #expect(abs(bicycle.turnCost(angle: -90, roads: 3, uTurn: false) - 6 * 1.4) < 0.001)
        #expect(
            abs(bicycle.turnCost(angle: 3, roads: 2, uTurn: false, wayChanges: false, signal: true) - 24 / 1.4) < 0.001)
        #expect(bicycle.turnCost(angle: 3, roads: 2, uTurn: false, wayChanges: false) == 0)
        #expect(abs(RoadGraph.turnAngle(Self.grid["G"]!.1, Self.grid["D"]!.1, Self.grid["E"]!.1) - 90) < 0.01)
        #expect(abs(RoadGraph.turnAngle(Self.grid["E"]!.1, Self.grid["D"]!.1, Self.grid["G"]!.1) + 90) < 0.01)
    }

    @Test func stopsAreVisitedInOrder() throws {
        let (ways, nodes) = Self.network()
        let router = Router(graph: RoadGraph(ways: ways, nodes: nodes, profile: TravelProfile(.driving)))
        let route = try router.route([Self.grid["A"]!.1, Self.grid["G"]!.1, Self.grid["C"]!.1])
        #expect(route.legs.count == 2)
        #expect(Self.ways(route).prefix(2) == [11, 14], "down to G first")
        #expect(abs(route.legs[0].distance - 222.4) < 1 && abs(route.legs[1].distance - 444.8) < 1)
        #expect(route.snapped.count == 3 && route.geometry.last == Self.grid["C"]!.1)
    }

    @Test func aRouteAlongOneStreetStartsAndEndsWhereThePointsAre() throws {
        let (ways, nodes) = Self.network()
        let router = Router(graph: RoadGraph(ways: ways, nodes: nodes, profile: TravelProfile(.walking)))
        let from = Coordinate(latitude: 0.00201, longitude: 0.0002)
        let to = Coordinate(latitude: 0.00199, longitude: 0.0007)
        let route = try router.route([from, to])
        #expect(Self.ways(route) == [10])
        #expect(abs(route.distance - 55.7) < 1, "from one snapped point to the other along A–B")
        #expect(route.snapped.allSatisfy { $0.distance < 2 })
    }

    @Test func failuresSayWhichPointAndWhy() throws {
        let (ways, nodes) = Self.network()
        let router = Router(graph: RoadGraph(ways: ways, nodes: nodes, profile: TravelProfile(.driving)))
        let far = Coordinate(latitude: 1, longitude: 1)
        #expect(throws: RoutingError.noRoad(point: 1, at: far, mode: .driving)) {
            try router.route([Self.grid["A"]!.1, far])
        }
        #expect(throws: RoutingError.waypointCount(1)) { try router.route([far]) }
        // Said in each language.
        let noRoad = RoutingError.noRoad(point: 1, at: far, mode: .bicycling)
        #expect(noRoad.description == "point 2 (1,1) has no road for bicycling within 5 km in the imported regions")
        #expect(
            noRoad.message(Phrasebook(.it))
                == "il punto 2 (1,1) non ha strade percorribili in bicicletta entro 5 km nelle regioni importate")
        #expect(
            RoutingError.noRoute(from: 0, to: 1, mode: .walking).message(Phrasebook(.hi))
                == "आयातित सड़क नेटवर्क में बिंदु 1 और 2 पैदल चलने के लिए जुड़े नहीं हैं")
        // An island: a street joined to nothing, 11 km from the rest (beyond the snapping radius).
        let island = RoadNetwork.Way(
            source: 1, osmID: 99, nodes: [100, 101],
            points: [Coordinate(latitude: 0.1, longitude: 0.1), Coordinate(latitude: 0.1, longitude: 0.101)],
            tags: ["highway": "residential"])
        let split = Router(graph: RoadGraph(ways: ways + [island], nodes: nodes, profile: TravelProfile(.driving)))
        #expect(throws: RoutingError.noRoute(from: 0, to: 1, mode: .driving)) {
            try split.route([Self.grid["A"]!.1, Coordinate(latitude: 0.1, longitude: 0.1005)])
        }
        // Between the two, inside the network's extent: the nearest road however far, as OSRM
        // snaps (7.5 km to C), the distance in the waypoint.
        let between = try split.route([Coordinate(latitude: 0.05, longitude: 0.05), Self.grid["A"]!.1])
        #expect(between.snapped[0].point == Self.grid["C"]!.1 && between.snapped[0].distance > 7_000)
    }

    @Test func snappingFindsTheNearestSegmentNearAndFar() throws {
        // The square, and a road 11 km away: points between are up to 8 km from any road, past
        // the fine cells into the coarse ones; each snap is the nearest segment of all.
        let (ways, nodes) = Self.network()
        let far = RoadNetwork.Way(
            source: 1, osmID: 99, nodes: [100, 101, 102],
            points: [
                Coordinate(latitude: 0.1, longitude: 0.1), Coordinate(latitude: 0.1, longitude: 0.101),
                Coordinate(latitude: 0.0995, longitude: 0.12),
            ], tags: ["highway": "residential"])
        let graph = RoadGraph(ways: ways + [far], nodes: nodes, profile: TravelProfile(.walking))
        // A road diagonally in the 38th ring of cells (6 km) and one straight in the 45th (5 km):
        // the nearer is the farther ring's.
        func road(_ id: Int64, _ a: (Double, Double), _ b: (Double, Double)) -> RoadNetwork.Way {
            RoadNetwork.Way(
                source: 1, osmID: id, nodes: [id * 10, id * 10 + 1],
                points: [Coordinate(latitude: a.0, longitude: a.1), Coordinate(latitude: b.0, longitude: b.1)],
                tags: ["highway": "residential"])
        }
        let rings = RoadGraph(
            ways: [
                road(1, (0.0385, 0.0385), (0.0386, 0.0386)), road(2, (0.0455, -0.0001), (0.0455, 0.0001)),
                road(3, (-0.05, -0.05), (-0.0501, -0.05)),
            ], nodes: [:], profile: TravelProfile(.walking))
        let diagonal = try #require(try rings.snap(Coordinate(latitude: 0, longitude: 0), within: .infinity))
        #expect(abs(diagonal.distance - 5_059) < 5, "\(diagonal.distance) m")
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<200 {
            let point = Coordinate(
                latitude: -0.01 + 0.12 * Double.random(in: 0..<1, using: &generator),
                longitude: -0.01 + 0.14 * Double.random(in: 0..<1, using: &generator))
            let snap = try #require(try graph.snap(point, within: .infinity))
            let plane = LocalPlane(around: point)
            let nearest = graph.segments.map {
                plane.nearest(onSegment: graph.positions[Int($0.from)], graph.positions[Int($0.to)]).metres
            }.min()!
            #expect(abs(snap.distance - nearest) < 0.01, "\(point): \(snap.distance) m, nearest \(nearest) m")
        }
    }

    @Test func theNearestRoadsOfCentralMonacoAreTheNearestOfAllOnLandAndFarOutAtSea() throws {
        // Points over the committed extract and up to 15 km out to sea, south of it: each
        // point's three nearest segments, found however far (as inside an imported region), are
        // the three nearest of every segment the mode may start on, in order.
        let graph = try RoadGraph(
            store: try MapStore(path: try TestExtracts.monacoStore()), profile: TravelProfile(.driving))
        let box = try #require(graph.extent)
        let (south, north) = (box.southWest!.latitude, box.northEast!.latitude)
        let (west, east) = (box.southWest!.longitude, box.northEast!.longitude)
        var generator = SeededGenerator(seed: 11)
        var farthest = 0.0
        for index in 0..<90 {
            // A third over the extract, the rest at sea, down to 0.14° (15 km) south of it.
            let latitude =
                index % 3 == 0
                ? south + (north - south) * Double.random(in: 0..<1, using: &generator)
                : south - 0.14 * Double.random(in: 0..<1, using: &generator)
            let point = Coordinate(
                latitude: latitude,
                longitude: west - 0.05 + (east - west + 0.1) * Double.random(in: 0..<1, using: &generator))
            let found = try graph.snaps(point, count: 3, within: .infinity)
            let plane = LocalPlane(around: point)
            let all = graph.segments.filter(\.isStartpoint).map {
                plane.nearest(onSegment: graph.positions[Int($0.from)], graph.positions[Int($0.to)]).metres
            }.sorted()
            try #require(found.count == 3, "\(point)")
            for (road, metres) in zip(found, all.prefix(3)) {
                #expect(
                    abs(road.distance - metres) < 0.01,
                    "\(point): \(found.map(\.distance)) m, nearest \(all.prefix(3)) m")
            }
            farthest = max(farthest, found[0].distance)
        }
        #expect(farthest > 10_000, "the farthest point at sea was \(farthest) m from a road")
    }

    @Test func polylinesEncodeAsGoogleDocumentsThem() {
        let points = [
            Coordinate(latitude: 38.5, longitude: -120.2), Coordinate(latitude: 40.7, longitude: -120.95),
            Coordinate(latitude: 43.252, longitude: -126.453),
        ]
        #expect(EncodedPolyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@") == points)
        let six = EncodedPolyline.encode(points, precision: 6)
        #expect(EncodedPolyline.decode(six, precision: 6) == points)
        #expect(EncodedPolyline.decode("not a polyline \u{1}") == nil)
    }
}

/// The tags the import keeps for routing are those the profiles, the graph and guidance read.
@Suite struct RoutingKeysTests {
    /// The keys read as literals from way or node tags (`tags["…"]`, `way.tags["…"]`) in the
    /// routing sources, and those built from the profiles' access keys.
    static func keysRead() throws -> (literal: Set<String>, built: Set<String>) {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Routing")
        var literal: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let pattern = try NSRegularExpression(pattern: #"tags\["([a-z_:]+)"\]"#)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                literal.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        var built: Set<String> = []
        for mode in TravelProfile.Mode.allCases {
            for key in TravelProfile(mode).accessKeys {
                built.formUnion([key, key + ":forward", key + ":backward"])
                if key != "access" { built.insert("oneway:" + key) }
            }
        }
        return (literal, built)
    }

    @Test func everyKeyTheRoutingReadsIsKeptByTheImport() throws {
        let (literal, built) = try Self.keysRead()
        #expect(literal.count > 40)
        let kept = RoadNetwork.wayKeys.union(RoadNetwork.nodeKeys)
        #expect(literal.subtracting(kept).isEmpty, "read but not kept: \(literal.subtracting(kept).sorted())")
        #expect(built.subtracting(kept).isEmpty, "read but not kept: \(built.subtracting(kept).sorted())")
    }
}
