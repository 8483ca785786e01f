import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import Routing

/// Guidance on real streets: central Monaco's roundabouts, tunnels and one-way streets
/// (`data/test-extracts`), against OSRM's answers on the same data.
@Suite struct MonacoGuidanceTests {
    /// Pairs drawn at random (seed 7) in central Monaco whose car route OSRM 5 (CH, its car
    /// profile, the full Monaco extract) takes through roundabouts, the first 24 where our
    /// route is OSRM's (durations within 3 %): start and end (latitude, longitude), the exit
    /// OSRM says at each roundabout in order (nil where it says none), its duration in seconds,
    /// and what OSRM (26.10) calls each roundabout.
    static let osrmAnswers: [((Double, Double), (Double, Double), [Int?], Double, [Ring])] = [
        ((43.73241, 7.4188), (43.73116, 7.42567), [4, 1], 297.2, [.roundabout, .roundabout]),
        (
            (43.73585, 7.42325), (43.73812, 7.41322), [1, 3, 3, 1], 325.5,
            [.roundabout, .roundabout, .roundabout, .roundaboutTurn]
        ),
        ((43.74323, 7.42091), (43.73357, 7.4146), [2, 1], 273.6, [.roundabout, .roundaboutTurn]),
        ((43.73188, 7.41503), (43.74306, 7.41848), [1], 332.8, [.roundaboutTurn]),
        (
            (43.731, 7.4235), (43.7333, 7.41325), [2, 1, 1, nil], 364.9,
            [.roundabout, .roundaboutTurn, .roundaboutTurn, .roundabout]
        ),
        ((43.73684, 7.42629), (43.73937, 7.4186), [4, 2, 1], 356.2, [.rotary, .roundabout, .roundaboutTurn]),
        ((43.7348, 7.42152), (43.74118, 7.42868), [4], 152.9, [.rotary]),
        ((43.73919, 7.41713), (43.744, 7.42303), [3, 3], 250.6, [.roundabout, .roundabout]),
        ((43.74211, 7.42078), (43.73782, 7.41519), [2], 196.9, [.roundabout]),
        ((43.7373, 7.42418), (43.74511, 7.42964), [2], 98.2, [.roundabout]),
        ((43.74063, 7.42196), (43.74122, 7.41327), [1], 265.4, [.roundaboutTurn]),
        ((43.74589, 7.42559), (43.73455, 7.42926), [1, 2], 385.2, [.roundabout, .roundabout]),
        ((43.73187, 7.41553), (43.74229, 7.41324), [1], 291.2, [.roundaboutTurn]),
        ((43.73396, 7.41472), (43.74394, 7.42021), [2, 1], 197.9, [.roundaboutTurn, .roundabout]),
        ((43.74382, 7.4292), (43.73664, 7.41785), [2, 2], 178.9, [.roundabout, .roundaboutTurn]),
        ((43.74415, 7.41953), (43.73241, 7.43211), [1, 2], 509.2, [.roundabout, .roundabout]),
        ((43.73371, 7.4157), (43.73776, 7.4169), [1, 2], 80.3, [.roundabout, .roundaboutTurn]),
        (
            (43.7342, 7.42437), (43.7367, 7.41209), [1, 3, 3, 1], 327.8,
            [.roundabout, .roundabout, .roundabout, .roundaboutTurn]
        ),
        ((43.73988, 7.42283), (43.73086, 7.4262), [1], 404.2, [.roundabout]),
        ((43.73638, 7.42024), (43.74015, 7.41417), [1, 1], 276.6, [.roundabout, .roundaboutTurn]),
        ((43.73108, 7.41331), (43.7326, 7.41638), [1, 1], 202.1, [.roundaboutTurn, .roundabout]),
        ((43.73238, 7.4249), (43.73556, 7.4173), [1, 3, 3], 113.7, [.roundabout, .roundabout, .roundabout]),
        ((43.73197, 7.41965), (43.74589, 7.42983), [2], 161.7, [.roundabout]),
        ((43.73774, 7.42179), (43.73164, 7.4138), [1, 1, 2], 220.1, [.roundabout, .roundaboutTurn, .roundaboutTurn]),
    ]

    @Test func roundaboutExitsAreCountedAndNamedAsOSRMDoes() throws {
        let store = try MapStore(path: try TestExtracts.monacoStore())
        let router = Router(graph: try RoadGraph(store: store, profile: TravelProfile(.driving)))
        var same = 0
        var agreeing = 0
        var named = 0
        for (from, to, exits, duration, rings) in Self.osrmAnswers {
            let route = try router.route([
                Coordinate(latitude: from.0, longitude: from.1), Coordinate(latitude: to.0, longitude: to.1),
            ])
            guard abs(route.duration - duration) <= 0.03 * duration else { continue }
            same += 1
            let ours = router.steps(of: route).joined().filter { $0.maneuver.kind == .roundabout }
            if ours.map(\.maneuver.exit) == exits { agreeing += 1 }
            if ours.map(\.maneuver.ring) == rings { named += 1 }
        }
        // The routes are OSRM's (the graph is cut to central Monaco: a few may leave it).
        #expect(same >= 20, "\(same) of \(Self.osrmAnswers.count) routes are OSRM's")
        // Service roads and private driveways off a ring are not exits, as OSRM counts.
        #expect(Double(agreeing) >= 0.85 * Double(same), "\(agreeing) of \(same) agree")
        // Each roundabout called what OSRM calls it: roundabout, roundabout turn or rotary.
        #expect(Double(named) >= 0.85 * Double(same), "\(named) of \(same) name their roundabouts as OSRM")
    }

    @Test func placeDArmesIsARoundaboutAsOSRMSaysAndAWalkerHearsNoExits() throws {
        let store = try MapStore(path: try TestExtracts.monacoStore())
        // Place d'Armes, the named ring at the foot of the Rock, from Boulevard Charles III onto
        // Avenue du Port.
        let from = Coordinate(latitude: 43.73424, longitude: 7.4192)
        let to = Coordinate(latitude: 43.73258, longitude: 7.42941)
        let driving = Router(graph: try RoadGraph(store: store, profile: TravelProfile(.driving)))
        let steps = Array(driving.steps(of: try driving.route([from, to])).joined())
        let ring = try #require(steps.first { $0.maneuver.kind == .roundabout })
        // OSRM's answer: `roundabout`, `right`, exit 3 (the ring shares its name with the square
        // around it, and is small: not a rotary).
        #expect(ring.maneuver.osrmType == "roundabout" && ring.maneuver.modifier == .right)
        #expect(ring.rotaryName.isEmpty && ring.name == "Avenue du Port" && ring.maneuver.exit == 3)
        #expect(
            Instructions(.it).text(for: ring) == "Entra nella rotatoria e prendi la terza uscita verso Avenue du Port")
        let walking = Router(graph: try RoadGraph(store: store, profile: TravelProfile(.walking)))
        let walked = walking.steps(of: try walking.route([from, to])).joined()
        #expect(!walked.contains { $0.maneuver.kind == .roundabout })
    }
}
