import Foundation
import GeoCore
import MapData
import Testing

@testable import Routing

/// Turn-by-turn steps on small written networks, and their sentences in each language.
///
///     A───B───C        Main Street (A–B–C), First Avenue (A–D), Second Street (D–E–F),
///     │       │        Third Avenue (F–C), the spur Short Lane (D–G)
///     D───E───F
///     │
///     G
@Suite struct GuidanceTests {
    static func way(_ id: Int64, _ path: String, _ name: String, _ tags: [String: String] = [:]) -> RoadNetwork.Way {
        var way = RoutingTests.way(id, path, ["highway": "residential", "name": name])
        way.tags.merge(tags) { $1 }
        return way
    }

    static let streets = [
        way(10, "ABC", "Main Street"), way(11, "AD", "First Avenue"), way(12, "DEF", "Second Street"),
        way(13, "FC", "Third Avenue"), way(14, "DG", "Short Lane"),
    ]

    static func steps(_ ways: [RoadNetwork.Way], _ points: [Coordinate], mode: TravelProfile.Mode = .driving) throws
        -> [Step]
    {
        let router = Router(graph: RoadGraph(ways: ways, nodes: [:], profile: TravelProfile(mode)))
        return try router.steps(of: router.route(points))[0]
    }

    static func point(_ letter: Character) -> Coordinate { RoutingTests.grid[letter]!.1 }

    static func kinds(_ steps: [Step]) -> [String] {
        steps.map { [$0.maneuver.kind.rawValue, $0.maneuver.modifier?.rawValue ?? ""].joined(separator: " ") }
    }

    @Test func aTurnWhereRoadsMeetAndStraightOnOntoAnotherName() throws {
        // Straight on at D onto First Avenue, which bends into Main Street at A, where nothing
        // else meets: a new name with its side, as OSRM tells the only way on.
        let steps = try Self.steps(Self.streets, [Self.point("G"), Self.point("B")])
        #expect(Self.kinds(steps) == ["depart ", "new name straight", "new name right", "arrive straight"])
        #expect(steps.map(\.name) == ["Short Lane", "First Avenue", "Main Street", "Main Street"])
        #expect(abs(steps[0].distance - 111.2) < 1 && abs(steps[2].distance - 111.3) < 1)
        #expect(steps[0].maneuver.bearingAfter == 0, "north")
        #expect(steps[2].maneuver.bearingBefore == 0 && steps[2].maneuver.bearingAfter == 90)
        #expect(steps[2].maneuver.googleName == "turn-right")
        let total = steps.map(\.duration).reduce(0, +)
        let route = try Router(graph: RoadGraph(ways: Self.streets, nodes: [:], profile: TravelProfile(.driving)))
            .route([Self.point("G"), Self.point("B")])
        #expect(abs(total - route.duration) < 0.01, "the steps' times add up to the route's")
        // Right at D, where three roads meet: a turn.
        let turn = try Self.steps(Self.streets, [Self.point("G"), Self.point("E")])
        #expect(Self.kinds(turn) == ["depart ", "turn right", "arrive straight"])
        #expect(turn[1].name == "Second Street")
    }

    @Test func theRoadFollowedIsNotAnnouncedUntilItTurnsOffAStraighterWay() throws {
        // Second Street bends at E onto a road of the same name going north while another way
        // goes straight on: "continue left".
        var ways = Self.streets
        ways[2] = Self.way(12, "DE", "Second Street")
        ways.append(Self.way(15, "EB", "Second Street"))
        ways.append(Self.way(16, "EF", "Fourth Street"))
        let steps = try Self.steps(ways, [Self.point("D"), Coordinate(latitude: 0.0014, longitude: 0.001)])
        #expect(Self.kinds(steps) == ["depart ", "continue left", "arrive straight"])
        #expect(Instructions(.en).text(for: steps[1]) == "Continue left on Second Street")
        // Straight on along one name through a junction: nothing to say.
        let through = try Self.steps(Self.streets, [Self.point("D"), Self.point("F")])
        #expect(Self.kinds(through) == ["depart ", "arrive straight"])
    }

    /// A new name is said only where the road keeps it 105 m or more before the next
    /// manoeuvre, and not for a name said before (a bridge's name, then the street's again), as
    /// OSRM leaves them out.
    @Test func shortNamesAndNamesAlreadySaidAreLeftOut() throws {
        /// Main Street east along the equator, its middle `bridge` degrees named Bridge, a side
        /// street north at each end of the bridge, and on past it 0.002° more.
        func steps(bridge: Double) throws -> [Step] {
            let xs = [0, 0.002, 0.002 + bridge, 0.004 + bridge]
            let points = xs.map { Coordinate(latitude: 0, longitude: $0) }
            func way(_ id: Int64, _ from: Int, _ to: Int, _ name: String) -> RoadNetwork.Way {
                RoadNetwork.Way(
                    source: 1, osmID: id, nodes: [Int64(from + 1), Int64(to + 1)], points: [points[from], points[to]],
                    tags: ["highway": "residential", "name": name])
            }
            func side(_ id: Int64, _ at: Int) -> RoadNetwork.Way {
                RoadNetwork.Way(
                    source: 1, osmID: id, nodes: [Int64(at + 1), 100 + Int64(at)],
                    points: [points[at], Coordinate(latitude: 0.001, longitude: xs[at])],
                    tags: ["highway": "residential", "name": "Side \(at)"])
            }
            let ways = [
                way(1, 0, 1, "Main Street"), way(2, 1, 2, "Bridge"), way(3, 2, 3, "Main Street"), side(4, 1),
                side(5, 2),
            ]
            return try Self.steps(ways, [points[0], points[3]])
        }
        // A bridge of 56 m: neither its name nor the street's again.
        #expect(Self.kinds(try steps(bridge: 0.0005)) == ["depart ", "arrive straight"])
        // A bridge of 167 m: its name, and the street's after it (said 222 m on).
        let long = try steps(bridge: 0.0015)
        #expect(Self.kinds(long) == ["depart ", "new name straight", "new name straight", "arrive straight"])
        #expect(long.map(\.name) == ["Main Street", "Bridge", "Main Street", "Main Street"])
    }

    @Test func theArrivalSaysWhichSideTheDestinationIsOn() throws {
        // East along Main Street to a point north of it (on the left), then one south (right).
        let north = Coordinate(latitude: 0.00205, longitude: 0.0015)
        let south = Coordinate(latitude: 0.00195, longitude: 0.0015)
        #expect(try Self.steps(Self.streets, [Self.point("A"), north]).last!.maneuver.modifier == .left)
        #expect(try Self.steps(Self.streets, [Self.point("A"), south]).last!.maneuver.modifier == .right)
    }

    /// A roundabout turning anticlockwise (N → W → S → E → N) with four arms, its ring
    /// 0.0003° (33 m) from the centre and named Circus.
    static let roundabout = ring(size: 0.0003, name: "Circus")

    /// A roundabout turning anticlockwise (N → W → S → E → N), its ring's nodes `size` degrees
    /// from the centre, named `name`, with four arms (North, West, South and East Road).
    static func ring(size: Double, name: String?) -> [RoadNetwork.Way] {
        let ring: [(Int64, Double, Double)] = [
            (1, size, 0), (2, 0, -size), (3, -size, 0), (4, 0, size),
        ]
        func position(_ id: Int64) -> Coordinate {
            let (_, lat, lon) = ring.first { $0.0 == id }!
            return Coordinate(latitude: lat, longitude: lon)
        }
        let loop = RoadNetwork.Way(
            source: 1, osmID: 20, nodes: [1, 2, 3, 4, 1], points: [1, 2, 3, 4, 1].map(position),
            tags: ["highway": "primary", "junction": "roundabout"].merging(name.map { ["name": $0] } ?? [:]) { a, _ in a
            })
        func arm(_ id: Int64, _ node: Int64, _ end: Coordinate, _ name: String) -> RoadNetwork.Way {
            RoadNetwork.Way(
                source: 1, osmID: id, nodes: [node, id * 100], points: [position(node), end],
                tags: ["highway": "primary", "name": name])
        }
        return [
            loop, arm(21, 1, Coordinate(latitude: 0.002, longitude: 0), "North Road"),
            arm(22, 2, Coordinate(latitude: 0, longitude: -0.002), "West Road"),
            arm(23, 3, Coordinate(latitude: -0.002, longitude: 0), "South Road"),
            arm(24, 4, Coordinate(latitude: 0, longitude: 0.002), "East Road"),
        ]
    }

    /// What OSRM calls a roundabout, by its size and name: a ring of 9 m radius with four
    /// well-separated arms is a `roundabout turn`, told as the turn ("At the roundabout, turn
    /// left onto West Road"), named or not; a large one named as one of its arms is a plain
    /// `roundabout`; a large one with a name of its own a `rotary`.
    @Test func roundaboutsAreToldAsOSRMClassifiesThem() throws {
        let fromSouth = Coordinate(latitude: -0.0019, longitude: 0)
        let toWest = Coordinate(latitude: 0, longitude: -0.0019)
        for name in [nil, "Little Circus"] {
            let small = try Self.steps(Self.ring(size: 0.00008, name: name), [fromSouth, toWest])
            let entry = try #require(small.first { $0.maneuver.kind == .roundabout })
            #expect(entry.maneuver.ring == .roundaboutTurn && entry.maneuver.osrmType == "roundabout turn")
            #expect(entry.maneuver.modifier == .left && entry.maneuver.exit == 3 && entry.rotaryName.isEmpty)
            #expect(Instructions(.en).text(for: entry) == "At the roundabout, turn left onto West Road")
            #expect(Instructions(.es).text(for: entry) == "En la rotonda, gira a la izquierda en West Road")
            #expect(Instructions(.it).text(for: entry) == "Alla rotatoria, svolta a sinistra in West Road")
            #expect(Instructions(.hi).text(for: entry) == "गोलचक्कर पर बाएँ मुड़कर West Road पर जाएँ")
        }
        let toNorth = Coordinate(latitude: 0.0019, longitude: 0)
        let straight = try Self.steps(Self.ring(size: 0.00008, name: nil), [fromSouth, toNorth])
        let across = try #require(straight.first { $0.maneuver.kind == .roundabout })
        #expect(Instructions(.en).text(for: across) == "At the roundabout, go straight onto North Road")
        let shared = try Self.steps(Self.ring(size: 0.0003, name: "North Road"), [fromSouth, toNorth])
        let plain = try #require(shared.first { $0.maneuver.kind == .roundabout })
        #expect(plain.maneuver.ring == .roundabout && plain.rotaryName.isEmpty)
        #expect(Instructions(.en).text(for: plain) == "Enter the roundabout and take the 2nd exit onto North Road")
        let named = try Self.steps(Self.roundabout, [fromSouth, toNorth])
        #expect(named.first { $0.maneuver.kind == .roundabout }?.maneuver.osrmType == "rotary")
    }

    @Test func aRoundaboutIsOneStepWithTheExitTaken() throws {
        let fromSouth = Coordinate(latitude: -0.0019, longitude: 0)
        // Anticlockwise from the south: East Road is the 1st exit, North Road the 2nd.
        let north = try Self.steps(Self.roundabout, [fromSouth, Coordinate(latitude: 0.0019, longitude: 0)])
        #expect(Self.kinds(north).first == "depart ")
        let entry = try #require(north.first { $0.maneuver.kind == .roundabout })
        #expect(entry.maneuver.exit == 2 && entry.name == "North Road")
        // Its ring is named: a rotary, said by its name.
        #expect(entry.rotaryName == "Circus")
        #expect(Instructions(.en).text(for: entry) == "Enter Circus and take the 2nd exit onto North Road")
        let east = try Self.steps(Self.roundabout, [fromSouth, Coordinate(latitude: 0, longitude: 0.0019)])
        #expect(east.first { $0.maneuver.kind == .roundabout }?.maneuver.exit == 1)
        // A service road leaving the ring where the route enters it counts as an exit, as OSRM
        // counts it; one leaving further round does not.
        let driveways =
            Self.roundabout + [
                Self.road(25, [3, 250], [(-0.0003, 0), (-0.0006, 0.0004)], ["highway": "service"]),
                Self.road(26, [4, 260], [(0, 0.0003), (0.0004, 0.0006)], ["highway": "service"]),
            ]
        let past = try Self.steps(driveways, [fromSouth, Coordinate(latitude: 0.0019, longitude: 0)])
        #expect(past.first { $0.maneuver.kind == .roundabout }?.maneuver.exit == 3)
        // One leaving to the left where the route enters is reached only round the ring: no
        // exit at the entry, as OSRM counts only those to the right of the ring.
        let leftward =
            Self.roundabout + [Self.road(27, [3, 270], [(-0.0003, 0), (-0.0001, -0.0006)], ["highway": "service"])]
        let round = try Self.steps(leftward, [fromSouth, Coordinate(latitude: 0.0019, longitude: 0)])
        #expect(round.first { $0.maneuver.kind == .roundabout }?.maneuver.exit == 2)
        // A walker is told the way around as streets are (as OSRM tells walkers): no exits.
        let walked = try Self.steps(
            Self.roundabout, [fromSouth, Coordinate(latitude: 0.0019, longitude: 0)], mode: .walking)
        #expect(!walked.contains { $0.maneuver.kind == .roundabout } && walked.count > 2)
        // A ring tagged `junction=circular` is one way for routing and a roundabout for guidance
        // alike (one predicate: `TravelProfile.isRoundabout`).
        let circular = Self.roundabout.map { way -> RoadNetwork.Way in
            var way = way
            if way.tags["junction"] != nil { way.tags["junction"] = "circular" }
            return way
        }
        let around = try Self.steps(circular, [fromSouth, Coordinate(latitude: 0.0019, longitude: 0)])
        #expect(around.first { $0.maneuver.kind == .roundabout }?.maneuver.exit == 2)
        #expect(
            TravelProfile.isRoundabout(["junction": "circular"]) && !TravelProfile.isRoundabout(["junction": "yes"]))
        // A ring tagged `oneway=no` is driven both ways: its junctions are told as streets', as
        // OSRM tells them, with no exits to count.
        let twoWay = Self.roundabout.map { way -> RoadNetwork.Way in
            var way = way
            if way.tags["junction"] != nil { way.tags["oneway"] = "no" }
            return way
        }
        let streets = try Self.steps(twoWay, [fromSouth, Coordinate(latitude: 0.0019, longitude: 0)])
        #expect(!streets.contains { $0.maneuver.kind == .roundabout } && streets.count > 2)
    }

    /// A way through `points` (latitude, longitude), its nodes numbered from `first`.
    static func road(_ id: Int64, _ nodes: [Int64], _ points: [(Double, Double)], _ tags: [String: String])
        -> RoadNetwork.Way
    {
        RoadNetwork.Way(
            source: 1, osmID: id, nodes: nodes,
            points: points.map { Coordinate(latitude: $0.0, longitude: $0.1) }, tags: tags)
    }

    @Test func rampsMergesAndForks() throws {
        // A motorway east (P–Q–R) with an exit ramp at Q to Exit Road, and a slip road from
        // Feeder onto it before Q.
        let ways = [
            Self.road(1, [1, 2, 3], [(0, 0), (0, 0.004), (0, 0.008)], ["highway": "motorway", "name": "Ring I"]),
            Self.road(2, [2, 4], [(0, 0.004), (-0.0006, 0.0055)], ["highway": "motorway_link"]),
            Self.road(
                3, [4, 5], [(-0.0006, 0.0055), (-0.0012, 0.0065)], ["highway": "primary", "name": "Exit Road"]),
            Self.road(4, [6, 7], [(-0.002, 0.0), (-0.0012, 0.0015)], ["highway": "primary", "name": "Feeder"]),
            Self.road(
                5, [7, 8], [(-0.0012, 0.0015), (0, 0.0028)],
                ["highway": "motorway_link", "oneway": "yes", "destination": "Centre"]),
            Self.road(6, [8], [(0, 0.0028)], [:]),
        ].filter { $0.nodes.count >= 2 }
        // Node 8 lies on the motorway: split it there.
        var network = ways
        network[0] = Self.road(
            1, [1, 8, 2, 3], [(0, 0), (0, 0.0028), (0, 0.004), (0, 0.008)], ["highway": "motorway", "name": "Ring I"])
        let off = try Self.steps(
            network, [Coordinate(latitude: 0, longitude: 0.001), Coordinate(latitude: -0.0012, longitude: 0.0065)])
        #expect(Self.kinds(off).contains("off ramp slight right"))
        #expect(off.allSatisfy { $0.exits.isEmpty })
        // The same exit signposted with its numbers and where it leads: said, and written as OSRM writes them.
        network[1] = Self.road(
            2, [2, 4], [(0, 0.004), (-0.0006, 0.0055)],
            ["highway": "motorway_link", "junction:ref": "12;12A", "destination": "Airport"])
        let numbered = try Self.steps(
            network, [Coordinate(latitude: 0, longitude: 0.001), Coordinate(latitude: -0.0012, longitude: 0.0065)])
        let signposted = try #require(numbered.first { $0.maneuver.kind == .offRamp })
        #expect(signposted.exits == "12; 12A" && signposted.destinations == "Airport")
        #expect(numbered.filter { $0.maneuver.kind != .offRamp }.allSatisfy { $0.exits.isEmpty })
        let sentences = [Language.en, .es, .it, .hi].map { Instructions($0).text(for: signposted) }
        #expect(
            sentences == [
                "Take exit 12 on the right towards Airport", "Toma la salida 12 a la derecha en dirección a Airport",
                "Prendi l'uscita 12 a destra in direzione Airport", "Airport की ओर दाईं ओर निकास संख्या 12 लें",
            ])
        let written = RouteDocument.osrmStep(signposted, approach: 0, geometry: .polyline, instructions: nil)
        #expect(written["exits"] as? String == "12; 12A" && written["destinations"] as? String == "Airport")
        let on = try Self.steps(
            network, [Coordinate(latitude: -0.0019, longitude: 0.0002), Coordinate(latitude: 0, longitude: 0.0035)])
        #expect(Self.kinds(on).contains("on ramp slight left"), "the slip road bears 15° left of Feeder")
        // The slip road joins from the right of the eastbound motorway: merge left, into the traffic.
        #expect(Self.kinds(on).contains("merge slight left"))
        // A slip road onto a motorway that begins where it joins: nobody to merge with, a new name.
        let begins = [
            Self.road(7, [9, 10], [(-0.0006, 0.0015), (0, 0.0028)], ["highway": "motorway_link", "oneway": "yes"]),
            Self.road(8, [10, 11], [(0, 0.0028), (0, 0.008)], ["highway": "motorway", "name": "Ring II"]),
        ]
        let onto = try Self.steps(
            begins, [Coordinate(latitude: -0.0005, longitude: 0.0017), Coordinate(latitude: 0, longitude: 0.007)])
        #expect(Self.kinds(onto) == ["depart ", "new name slight right", "arrive straight"])
        // An exit leaving nearly straight ahead where the motorway curves left: on its right.
        let curving = [
            Self.road(
                12, [30, 31, 32], [(0, 0), (0, 0.004), (0.0017, 0.0076)], ["highway": "motorway", "name": "Ring III"]),
            Self.road(13, [31, 33], [(0, 0.004), (0.0001, 0.006)], ["highway": "motorway_link", "oneway": "yes"]),
        ]
        let exit = try Self.steps(
            curving, [Coordinate(latitude: 0, longitude: 0.001), Coordinate(latitude: 0.0001, longitude: 0.0059)])
        #expect(Self.kinds(exit) == ["depart ", "off ramp slight right", "arrive straight"])
        // Along the motorway past its exit: the motorway is the obvious way on, nothing to say.
        let along = try Self.steps(
            network, [Coordinate(latitude: 0, longitude: 0.001), Coordinate(latitude: 0, longitude: 0.007)])
        #expect(Self.kinds(along) == ["depart ", "arrive straight"])
        let ramp = try #require(on.first { $0.maneuver.kind == .onRamp })
        #expect(ramp.destinations == "Centre" && Instructions(.en).text(for: ramp).hasPrefix("Take the ramp on the "))
        // A road splitting in two, both ahead.
        let fork = [
            Self.road(10, [20, 21], [(0, -0.002), (0, 0)], ["highway": "secondary", "name": "Trunk Road"]),
            Self.road(11, [21, 22], [(0, 0), (0.0005, 0.002)], ["highway": "secondary", "name": "Left Branch"]),
            Self.road(12, [21, 23], [(0, 0), (-0.0005, 0.002)], ["highway": "secondary", "name": "Right Branch"]),
        ]
        let left = try Self.steps(
            fork, [Coordinate(latitude: 0, longitude: -0.0019), Coordinate(latitude: 0.0005, longitude: 0.002)])
        #expect(Self.kinds(left) == ["depart ", "fork slight left", "arrive straight"])
        #expect(Instructions(.es).text(for: left[1]) == "En la bifurcación, mantente a la izquierda por Left Branch")
    }

    /// The point 0.002° from the junction at (0, 0) along `heading` (degrees from north).
    static func ahead(_ heading: Double) -> (Double, Double) {
        (0.002 * cos(heading * .pi / 180), 0.002 * sin(heading * .pi / 180))
    }

    /// What is said from the west arm's end, (0, -0.0019), to 95 % of the way along the road
    /// leaving the junction at `heading`.
    static func told(_ ways: [RoadNetwork.Way], toward heading: Double) throws -> [String] {
        let (lat, lon) = ahead(heading)
        return kinds(
            try steps(
                ways,
                [Coordinate(latitude: 0, longitude: -0.0019), Coordinate(latitude: lat * 0.95, longitude: lon * 0.95)]))
    }

    @Test func rampsSplittingAndAMotorwayEndingInRampsAreForks() throws {
        // An exit ramp (ref E 1) east to J, where it splits: the ramp goes on straight as E 1,
        // and another ramp bends 20° right. Three links meeting: a fork, though one keeps the
        // ref and is the straighter, as OSRM tells ramps apart.
        let ramps = [
            Self.road(60, [61, 62], [(0, -0.002), (0, 0)], ["highway": "trunk_link", "oneway": "yes", "ref": "E 1"]),
            Self.road(
                63, [62, 64], [(0, 0), Self.ahead(90)], ["highway": "trunk_link", "oneway": "yes", "ref": "E 1"]),
            Self.road(65, [62, 66], [(0, 0), Self.ahead(110)], ["highway": "trunk_link", "oneway": "yes"]),
        ]
        #expect(try Self.told(ramps, toward: 90) == ["depart ", "fork slight left", "arrive straight"])
        // The same with a primary road splitting: the road keeping its ref, clearly the
        // straighter, is the way on.
        let roads = ramps.map { way in
            Self.road(
                way.osmID, way.nodes, way.points.map { ($0.latitude, $0.longitude) },
                way.tags.merging(["highway": "primary"]) { _, new in new })
        }
        #expect(try Self.told(roads, toward: 90) == ["depart ", "arrive straight"])
        // A motorway ending in two ramps, nothing of its class going on: a fork, not an exit.
        let ending = [
            Self.road(70, [71, 72], [(0, -0.002), (0, 0)], ["highway": "motorway", "oneway": "yes", "ref": "A 4"]),
            Self.road(
                73, [72, 74], [(0, 0), Self.ahead(75)], ["highway": "motorway_link", "oneway": "yes", "ref": "A 4"]),
            Self.road(75, [72, 76], [(0, 0), Self.ahead(105)], ["highway": "motorway_link", "oneway": "yes"]),
        ]
        #expect(try Self.told(ending, toward: 105) == ["depart ", "fork slight right", "arrive straight"])
        // Ending in one ramp where another joins it (one way, towards the end): nothing to say.
        let joined = [
            ending[0], ending[1],
            Self.road(77, [78, 72], [Self.ahead(105), (0, 0)], ["highway": "motorway_link", "oneway": "yes"]),
        ]
        #expect(try Self.told(joined, toward: 75) == ["depart ", "arrive straight"])
    }

    @Test func straightAcrossABiggerRoadIsANewNameAlongTheSameNothing() throws {
        // Side Street crosses Ring Road (primary) at X and goes on as Park Street; a lane
        // leaves Park Street 40° to the right, a service road of no account. Straight on is the
        // obvious way (the other roads bend far more and have other names): its new name only.
        let ways = [
            Self.road(20, [30, 31], [(-0.002, 0), (0, 0)], ["highway": "residential", "name": "Side Street"]),
            Self.road(21, [31, 32], [(0, 0), (0.002, 0)], ["highway": "residential", "name": "Park Street"]),
            Self.road(
                22, [33, 31, 34], [(0, -0.002), (0, 0), (0, 0.002)], ["highway": "primary", "name": "Ring Road"]),
            Self.road(23, [35, 36], [(0.001, 0), (0.0017, 0.0006)], ["highway": "service"]),
        ]
        var network = ways
        network[1] = Self.road(
            21, [31, 35, 32], [(0, 0), (0.001, 0), (0.002, 0)], ["highway": "residential", "name": "Park Street"])
        let across = try Self.steps(
            network, [Coordinate(latitude: -0.0019, longitude: 0), Coordinate(latitude: 0.0019, longitude: 0)])
        #expect(Self.kinds(across) == ["depart ", "new name straight", "arrive straight"])
        #expect(Instructions(.it).text(for: across[1]) == "Continua su Park Street")
        // Coming along Ring Road and turning onto Park Street: a turn; past the service road on
        // Park Street: nothing.
        let onto = try Self.steps(
            network, [Coordinate(latitude: 0, longitude: -0.0019), Coordinate(latitude: 0.0019, longitude: 0)])
        #expect(Self.kinds(onto) == ["depart ", "turn left", "arrive straight"])
    }

    /// The road that keeps its name is the way on only where no other road looks as much like
    /// it (OSRM's obvious turn): Hill Road turning 90° right where a lesser road bends 60° left
    /// is said ("continue right"); past a side street at a right angle it is not.
    @Test func theRoadKeepingItsNameIsObviousOnlyWhereNothingElseLooksLikeTheWayOn() throws {
        /// Hill Road from the south to X and on to `onward`, another road from X to `side`.
        func steps(onward: (Double, Double), side: (Double, Double), tags: [String: String]) throws -> [Step] {
            let ways = [
                Self.road(40, [50, 51], [(-0.002, 0), (0, 0)], ["highway": "secondary", "name": "Hill Road"]),
                Self.road(41, [51, 52], [(0, 0), onward], ["highway": "secondary", "name": "Hill Road"]),
                Self.road(42, [51, 53], [(0, 0), side], tags),
            ]
            let end = Coordinate(latitude: onward.0 * 0.95, longitude: onward.1 * 0.95)
            return try Self.steps(ways, [Coordinate(latitude: -0.0019, longitude: 0), end])
        }
        let bend = try steps(onward: (0, 0.002), side: (0.001, -0.0017), tags: ["highway": "unclassified"])
        #expect(Self.kinds(bend) == ["depart ", "continue right", "arrive straight"])
        #expect(Instructions(.es).text(for: bend[1]) == "Continúa a la derecha por Hill Road")
        // A residential street straight on instead: still said.
        let street = try steps(
            onward: (0, 0.002), side: (0.002, 0), tags: ["highway": "residential", "name": "Elm Street"])
        #expect(Self.kinds(street) == ["depart ", "continue right", "arrive straight"])
        // Hill Road straight on, the street off to the left: nothing to say.
        let past = try steps(
            onward: (0.002, 0), side: (0, -0.002), tags: ["highway": "residential", "name": "Elm Street"])
        #expect(Self.kinds(past) == ["depart ", "arrive straight"])
    }

    /// Joining a street that goes on through the junction behind us is a turn onto it, said
    /// straight where nearly so and the street runs on straight for over 60 m, as OSRM says it;
    /// a street that begins there is a new name.
    @Test func ontoAThroughStreetIsATurnOntoANewOneANewName() throws {
        /// Link Street north-north-west up to J, joining Main Road (south-south-west to
        /// north-north-east through J; `behind` names its part south of J).
        func steps(behind: String) throws -> [Step] {
            let ways = [
                Self.road(
                    40, [41, 42], [(-0.002, 0.0005), (0, 0)], ["highway": "residential", "name": "Link Street"]),
                Self.road(43, [44, 42], [(-0.002, -0.0003), (0, 0)], ["highway": "residential", "name": behind]),
                Self.road(45, [42, 46], [(0, 0), (0.002, 0.0003)], ["highway": "residential", "name": "Main Road"]),
            ]
            return try Self.steps(
                ways,
                [Coordinate(latitude: -0.0019, longitude: 0.000475), Coordinate(latitude: 0.0019, longitude: 0.000285)])
        }
        let through = try steps(behind: "Main Road")
        #expect(Self.kinds(through) == ["depart ", "turn straight", "arrive straight"])
        #expect(through[1].name == "Main Road")
        // The same junction where Main Road begins: a new name, with the turn's own direction
        // (22° to the right: slightly).
        #expect(
            Self.kinds(try steps(behind: "Harbour Road")) == ["depart ", "new name slight right", "arrive straight"])
    }

    /// Two roads ahead are a fork only where neither is clearly the way on: one bending 25°
    /// and 40 % more than the other is a turn off the straighter one, as OSRM tells it.
    @Test func aForkOnlyWhereNeitherRoadIsClearlyTheWayOn() throws {
        /// Main Street east to J, then Upper Road `upper`° left and Lower Road `lower`° right of
        /// straight on; what is said down Lower Road.
        func told(upper: Double, lower: Double) throws -> [String] {
            let ways = [
                Self.road(50, [51, 52], [(0, -0.002), (0, 0)], ["highway": "residential", "name": "Main Street"]),
                Self.road(
                    53, [52, 54], [(0, 0), Self.ahead(90 - upper)], ["highway": "residential", "name": "Upper Road"]),
                Self.road(
                    55, [52, 56], [(0, 0), Self.ahead(90 + lower)], ["highway": "residential", "name": "Lower Road"]),
            ]
            return try Self.told(ways, toward: 90 + lower)
        }
        #expect(try told(upper: 15, lower: 20) == ["depart ", "fork slight right", "arrive straight"])
        #expect(try told(upper: 5, lower: 35) == ["depart ", "turn slight right", "arrive straight"])
    }

    @Test func theEndOfTheRoadAndAFerry() throws {
        // West along Second Street, which ends at D: left down Short Lane.
        let end = try Self.steps(Self.streets, [Self.point("E"), Self.point("G")])
        #expect(Self.kinds(end) == ["depart ", "end of road left", "arrive straight"])
        #expect(Instructions(.hi).text(for: end[1]) == "सड़क के अंत में Short Lane पर बाएँ मुड़ें")
        // Lanes tagged on Second Street westwards (against its way): the left one leads there.
        var laned = Self.streets
        laned[2] = Self.way(
            12, "DEF", "Second Street", ["turn:lanes:backward": "left|through;right", "turn:lanes:forward": "through"])
        let lanes = try Self.steps(laned, [Self.point("E"), Self.point("G")])[1].lanes
        #expect(
            lanes == [
                Step.Lane(indications: ["left"], valid: true),
                Step.Lane(indications: ["through", "right"], valid: false),
            ])
        #expect(Step.lanes("|slight_right", for: .slightRight).map(\.valid) == [false, true])
        #expect(Step.lanes("|slight_right", for: .slightRight).first?.indications == ["none"])
        // Two quays joined by a ferry.
        let ways = [
            Self.road(30, [40, 41], [(0, 0), (0, 0.001)], ["highway": "residential", "name": "Quay Street"]),
            Self.road(
                31, [41, 42], [(0, 0.001), (0, 0.02)], ["route": "ferry", "name": "Island Line", "duration": "10"]),
            Self.road(32, [42, 43], [(0, 0.02), (0, 0.021)], ["highway": "residential", "name": "Harbour Road"]),
        ]
        let crossing = try Self.steps(
            ways, [Coordinate(latitude: 0, longitude: 0.0001), Coordinate(latitude: 0, longitude: 0.0209)])
        #expect(
            Self.kinds(crossing) == ["depart ", "notification straight", "notification straight", "arrive straight"])
        #expect(crossing[1].maneuver.googleName == "ferry" && crossing[1].mode == "ferry")
        #expect(abs(crossing[1].duration - 600) < 1, "the ferry's ten minutes")
        #expect(Instructions(.it).text(for: crossing[1]) == "Prendi il traghetto Island Line")
        #expect(Instructions(.en).text(for: crossing[2]) == "Leave the ferry onto Harbour Road")
    }

    @Test func eachStepListsTheIntersectionsItPassesAsOSRMDoes() throws {
        // Up Short Lane, right at D along Second Street past E, where a one-way road from B
        // arrives, to F.
        var ways = Self.streets
        ways.append(Self.way(15, "BE", "Cross Lane", ["oneway": "yes"]))
        let steps = try Self.steps(ways, [Self.point("G"), Self.point("F")])
        #expect(Self.kinds(steps) == ["depart ", "turn right", "arrive straight"])
        let depart = Step.Intersection(
            location: Self.point("G"), bearings: [0], entry: [true], arrival: nil, departure: 0)
        #expect(steps[0].intersections == [depart])
        // At D: north to A, east to E, and back south to G (no u-turn where roads meet).
        #expect(steps[1].intersections.count == 2)
        #expect(
            steps[1].intersections.first
                == Step.Intersection(
                    location: Self.point("D"), bearings: [0, 90, 180], entry: [true, true, false], arrival: 2,
                    departure: 1))
        // At E: Cross Lane arrives from the north, one way: there, but not to be taken.
        #expect(
            steps[1].intersections.last
                == Step.Intersection(
                    location: Self.point("E"), bearings: [0, 90, 270], entry: [false, true, false], arrival: 2,
                    departure: 1))
        #expect(
            steps[2].intersections
                == [
                    Step.Intersection(
                        location: Self.point("F"), bearings: [270], entry: [true], arrival: 0, departure: nil)
                ])
        // Right onto a 22 m jog and left off it again: one step, straight on onto the new name,
        // whose intersections begin at the first junction, where the manoeuvre is.
        let (a, b) = (Coordinate(latitude: 0.001, longitude: 0), Coordinate(latitude: 0.001, longitude: 0.0002))
        let jog = [
            Self.road(60, [70, 71], [(0, 0), (0.001, 0)], ["highway": "residential", "name": "Quay Street"]),
            Self.road(61, [71, 72], [(0.001, 0), (0.001, 0.0002)], ["highway": "residential", "name": "Jog Lane"]),
            Self.road(
                62, [72, 73], [(0.001, 0.0002), (0.004, 0.0002)], ["highway": "residential", "name": "Hill Road"]),
            Self.road(
                63, [71, 74], [(0.001, 0), (0.001, -0.001)], ["highway": "residential", "name": "West Street"]),
            Self.road(
                64, [72, 75], [(0.001, 0.0002), (0.001, 0.0012)], ["highway": "residential", "name": "East Street"]),
        ]
        let folded = try Self.steps(
            jog, [Coordinate(latitude: 0.0001, longitude: 0), Coordinate(latitude: 0.0039, longitude: 0.0002)])
        #expect(Self.kinds(folded) == ["depart ", "new name straight", "arrive straight"])
        #expect(folded[1].maneuver.location == a && folded[1].name == "Hill Road")
        #expect(folded[1].intersections.map(\.location) == [a, b])
        #expect(folded[1].intersections.map(\.bearings) == [[90, 180, 270], [0, 90, 270]])
        // A motorway's class, and a road behind a gate's.
        var classed = Self.streets
        classed[2] = Self.way(12, "DEF", "Second Street", ["highway": "motorway", "toll": "yes"])
        let motorway = try Self.steps(classed, [Self.point("G"), Self.point("F")], mode: .driving)
        #expect(motorway[1].intersections.first?.classes == ["toll", "motorway"])
    }
    // MARK: Sentences

    static func step(
        _ kind: Maneuver.Kind, _ modifier: Maneuver.Modifier? = nil, name: String = "", ref: String = "",
        exit: Int? = nil, bearing: Double = 0, destinations: String = "", mode: String? = nil, rotary: String = ""
    ) -> Step {
        Step(
            maneuver: Maneuver(
                kind: kind, modifier: modifier, exit: exit, location: Coordinate(latitude: 0, longitude: 0),
                bearingBefore: 0, bearingAfter: bearing, mode: mode),
            name: name, ref: ref, destinations: destinations, distance: 0, duration: 0, geometry: [], mode: "driving",
            intersections: [], rotaryName: rotary)
    }

    /// Each case's sentence in English, Spanish, Italian and Hindi, written and read by hand.
    static let cases: [(Step, [String])] = [
        (
            step(.depart, name: "Mannerheimintie", bearing: 45),
            [
                "Head northeast on Mannerheimintie", "Dirígete al noreste por Mannerheimintie",
                "Dirigiti verso nord-est su Mannerheimintie", "Mannerheimintie पर उत्तर-पूर्व की ओर चलें",
            ]
        ),
        (
            step(.depart, bearing: 180),
            ["Head south", "Dirígete al sur", "Dirigiti verso sud", "दक्षिण की ओर चलें"]
        ),
        (
            step(.turn, .left, name: "Calle Mayor"),
            [
                "Turn left onto Calle Mayor", "Gira a la izquierda en Calle Mayor", "Svolta a sinistra in Calle Mayor",
                "Calle Mayor पर बाएँ मुड़ें",
            ]
        ),
        (
            step(.turn, .slightRight),
            ["Turn slight right", "Gira ligeramente a la derecha", "Svolta leggermente a destra", "हल्का दाएँ मुड़ें"]
        ),
        (
            step(.turn, .sharpLeft, name: "Via Roma", ref: "SS1"),
            [
                "Turn sharp left onto Via Roma (SS1)", "Gira bruscamente a la izquierda en Via Roma (SS1)",
                "Svolta decisamente a sinistra in Via Roma (SS1)", "Via Roma (SS1) पर तीखा बाएँ मुड़ें",
            ]
        ),
        (
            step(.turn, .uturn),
            ["Make a U-turn", "Cambia de sentido", "Fai inversione a U", "यू-टर्न लें"]
        ),
        (
            step(.continue, .right, name: "MG Road"),
            [
                "Continue right on MG Road", "Continúa a la derecha por MG Road", "Continua a destra su MG Road",
                "MG Road पर दाएँ चलते रहें",
            ]
        ),
        (
            step(.newName, .straight, name: "Broadway"),
            ["Continue onto Broadway", "Continúa por Broadway", "Continua su Broadway", "Broadway पर चलते रहें"]
        ),
        (
            step(.endOfRoad, .right),
            [
                "Turn right at the end of the road", "Al final de la calle, gira a la derecha",
                "Alla fine della strada, svolta a destra", "सड़क के अंत में दाएँ मुड़ें",
            ]
        ),
        (
            step(.fork, .slightLeft, destinations: "A1: Milano"),
            [
                "Keep left at the fork towards A1: Milano",
                "En la bifurcación, mantente a la izquierda en dirección a A1: Milano",
                "Al bivio, tieniti a sinistra in direzione A1: Milano", "दोराहे पर A1: Milano की ओर बाईं ओर रहें",
            ]
        ),
        (
            step(.offRamp, .slightRight, name: "Ring I"),
            [
                "Take the exit on the right onto Ring I", "Toma la salida a la derecha hacia Ring I",
                "Prendi l'uscita a destra verso Ring I", "Ring I के लिए दाईं ओर निकास लें",
            ]
        ),
        (
            step(.merge, .slightLeft),
            ["Merge left", "Incorpórate a la izquierda", "Immettiti a sinistra", "बाईं ओर से सड़क में शामिल हों"]
        ),
        (
            step(.roundabout, .right, exit: 3),
            [
                "Enter the roundabout and take the 3rd exit", "Entra en la rotonda y toma la tercera salida",
                "Entra nella rotatoria e prendi la terza uscita", "गोलचक्कर में प्रवेश करें और तीसरा निकास लें",
            ]
        ),
        (
            step(.roundabout, .left, name: "Avenue Kléber", exit: 2, rotary: "Place de l'Étoile"),
            [
                "Enter Place de l'Étoile and take the 2nd exit onto Avenue Kléber",
                "Entra en Place de l'Étoile y toma la segunda salida hacia Avenue Kléber",
                "Entra in Place de l'Étoile e prendi la seconda uscita verso Avenue Kléber",
                "Place de l'Étoile में प्रवेश करें और दूसरा निकास लेकर Avenue Kléber पर जाएँ",
            ]
        ),
        (
            step(.notification, .straight, mode: "ferry"),
            ["Take the ferry", "Toma el ferri", "Prendi il traghetto", "नौका लें"]
        ),
        (
            step(.arrive, .left),
            [
                "You have arrived at your destination, on the left", "Has llegado a tu destino, a la izquierda",
                "Sei arrivato a destinazione, sulla sinistra", "आप अपने गंतव्य पर पहुँच गए हैं, जो बाईं ओर है",
            ]
        ),
        (
            step(.arrive, .straight),
            [
                "You have arrived at your destination", "Has llegado a tu destino", "Sei arrivato a destinazione",
                "आप अपने गंतव्य पर पहुँच गए हैं",
            ]
        ),
    ]

    @Test(arguments: Array(Language.allCases.enumerated()))
    func everySentenceAsWritten(index: Int, language: Language) {
        let instructions = Instructions(language)
        for (step, sentences) in Self.cases {
            #expect(instructions.text(for: step) == sentences[index])
        }
    }

    @Test func bannersAndTheThreePhasesOfTheVoice() {
        let turn = Self.step(.turn, .right, name: "Mannerheimintie")
        #expect(Instructions(.en).banner(for: turn) == "Mannerheimintie")
        #expect(Instructions(.es).banner(for: Self.step(.turn, .left)) == "Gira a la izquierda")
        let expected: [(Language, [String])] = [
            (
                .en,
                [
                    "In 500 m, turn right onto Mannerheimintie", "In 100 m, turn right onto Mannerheimintie",
                    "Turn right onto Mannerheimintie",
                ]
            ),
            (
                .es,
                [
                    "En 500 m, gira a la derecha en Mannerheimintie", "En 100 m, gira a la derecha en Mannerheimintie",
                    "Gira a la derecha en Mannerheimintie",
                ]
            ),
            (
                .it,
                [
                    "Tra 500 m, svolta a destra in Mannerheimintie", "Tra 100 m, svolta a destra in Mannerheimintie",
                    "Svolta a destra in Mannerheimintie",
                ]
            ),
            (
                .hi,
                [
                    "500 मीटर बाद, Mannerheimintie पर दाएँ मुड़ें", "100 मीटर बाद, Mannerheimintie पर दाएँ मुड़ें",
                    "Mannerheimintie पर दाएँ मुड़ें",
                ]
            ),
        ]
        for (language, sentences) in expected {
            let phases = Instructions(language).voice(for: turn, approach: 1_200)
            #expect(phases.map(\.text) == sentences && phases.map(\.distance) == [500, 100, 0])
        }
        // A short way before: only what can still be said in time; the arrival ahead.
        #expect(Instructions(.en).voice(for: turn, approach: 300).map(\.distance) == [100, 0])
        #expect(Instructions(.en).voice(for: turn, approach: 50).map(\.distance) == [0])
        let arrive = Instructions(.it).voice(for: Self.step(.arrive, .left), approach: 800)
        #expect(
            arrive.map(\.text) == [
                "Tra 500 m, arriverai a destinazione", "Tra 100 m, arriverai a destinazione",
                "Sei arrivato a destinazione, sulla sinistra",
            ])
    }

    @Test func distancesAndDurationsAsEachLanguageWritesThem() {
        #expect(Instructions(.en).distance(1_234) == "1.2 km" && Instructions(.es).distance(1_234) == "1,2 km")
        #expect(Instructions(.it).distance(87) == "85 m" && Instructions(.hi).distance(340) == "340 मीटर")
        #expect(Instructions(.en, units: .imperial).distance(100) == "330 ft")
        #expect(Instructions(.en, units: .imperial).distance(3_218.7) == "2.0 mi")
        #expect(Instructions(.hi).duration(3_900) == "1 घंटे 5 मिनट" && Instructions(.es).duration(20) == "1 min")
    }
}
