import Foundation
import GeoCore
import MapData
import Testing

@testable import Routing

/// A cyclist's speed follows the slope where heights are known; other modes' do not.
@Suite struct ClimbingTests {
    /// A kilometre of street running east from (43.7, 7.4), in ten 100 m pieces.
    static let points = (0...10).map { step in
        Coordinate(latitude: 43.7, longitude: 7.4).destination(meters: Double(step) * 100, bearing: 90)
    }

    static func street(_ tags: [String: String] = [:]) -> RoadNetwork.Way {
        RoadNetwork.Way(
            source: 1, osmID: 1, nodes: (1...11).map(Int64.init), points: points,
            tags: ["highway": "residential"].merging(tags) { $1 })
    }

    static func seconds(_ mode: TravelProfile.Mode, way: RoadNetwork.Way, heights: [Double]?, east: Bool) throws
        -> Double
    {
        let graph = RoadGraph(ways: [way], nodes: [:], profile: TravelProfile(mode), heights: heights.map { [$0] })
        let ends = [points[0], points[10]]
        return try Router(graph: graph).route(east ? ends : ends.reversed()).duration
    }

    @Test func cyclingUphillIsSlowerAndDownhillFaster() throws {
        // 5 % up all the way east: 50 m over the kilometre.
        let rising = (0...10).map { Double($0) * 5 }
        let flat = try Self.seconds(.bicycling, way: Self.street(), heights: nil, east: true)
        let up = try Self.seconds(.bicycling, way: Self.street(), heights: rising, east: true)
        let down = try Self.seconds(.bicycling, way: Self.street(), heights: rising, east: false)
        // ÷ (1 + 8 × 0.05) uphill, × 1.125 downhill.
        #expect(abs(up / flat - 1.4) < 0.01, "\(up) s uphill against \(flat) s on the flat")
        #expect(abs(flat / down - 1.125) < 0.01, "\(down) s downhill against \(flat) s on the flat")
        // Driving and walking keep their speeds.
        for mode in [TravelProfile.Mode.driving, .walking] {
            let level = try Self.seconds(mode, way: Self.street(), heights: nil, east: true)
            #expect(try Self.seconds(mode, way: Self.street(), heights: rising, east: true) == level)
        }
    }

    @Test func aBridgeClimbsAsItsEndsDoNotAsTheGroundUnderIt() throws {
        // A valley 40 m deep under the middle, both ends at 100 m.
        let valley = (0...10).map { 100 - 40 * sin(Double($0) / 10 * .pi) }
        let flat = try Self.seconds(.bicycling, way: Self.street(["bridge": "yes"]), heights: nil, east: true)
        let bridge = try Self.seconds(.bicycling, way: Self.street(["bridge": "yes"]), heights: valley, east: true)
        #expect(bridge == flat)
        // The same line on the ground goes down and up again: slower than the flat.
        let ground = try Self.seconds(.bicycling, way: Self.street(), heights: valley, east: true)
        #expect(ground > flat * 1.05)
    }

    /// The street in three ways: 300 m on the ground, 400 m of bridge, 300 m on the ground.
    static func streetWithABridge() -> [RoadNetwork.Way] {
        [(1...4, [:]), (4...8, ["bridge": "yes"]), (8...11, [:])].enumerated().map { index, part in
            let (nodes, tags) = part
            return RoadNetwork.Way(
                source: 1, osmID: Int64(index + 1), nodes: nodes.map(Int64.init),
                points: nodes.map { points[$0 - 1] }, tags: ["highway": "residential"].merging(tags) { $1 })
        }
    }

    @Test func aRoutesHeightsCrossABridgeFromEndToEndNotOverTheGroundUnderIt() throws {
        // The valley: 100 m at both ends, 60 m under the middle of the kilometre.
        func valley(_ point: Coordinate) -> Double {
            100 - 40 * sin(Self.points[0].distance(to: point) / 1_000 * .pi)
        }
        let graph = RoadGraph(ways: Self.streetWithABridge(), nodes: [:], profile: TravelProfile(.walking))
        let route = try Router(graph: graph).route([Self.points[0], Self.points[10]])
        #expect(route.legs[0].segmentsOffGround == [false, false, false, true, true, true, true, false, false, false])
        let elevation = try #require(RouteElevation.measure(route) { $0.map(valley) })
        // On the ground the heights are the ground's; on the bridge they go evenly from its
        // first end's to its last's (both 100 − 40 sin(0.3 π)), level over the valley.
        let end = valley(Self.points[3])
        for (index, (point, height)) in zip(route.geometry, elevation.heights).enumerated() {
            let expected = (4...6).contains(index) ? end : valley(point)
            #expect(abs(height - expected) < 0.01, "point \(index): \(height) m, not \(expected) m")
        }
        // Down 100 → 67.6 to the bridge, level across it, up again: 32.4 m each way, not the
        // 40 m the ground goes.
        #expect(abs(elevation.descent - (100 - end)) < 0.2 && abs(elevation.ascent - (100 - end)) < 0.2)
        let ground = RouteElevation.climb(RouteElevation.dense(route.geometry).map(valley))
        #expect(abs(ground.descent - 40) < 0.2)
    }

    @Test func steepNoiseIsBounded() {
        let profile = TravelProfile(.bicycling)
        let road = TravelProfile.Direction(speed: 18)
        #expect(profile.climbing(road, grade: 2) == profile.climbing(road, grade: 0.3))
        #expect(profile.climbing(road, grade: -2) == 18 * 1.25)
        #expect(profile.climbing(TravelProfile.Direction(speed: 5, pushing: true), grade: 0.2) == 5)
        #expect(profile.climbing(road, grade: .nan) == 18)
    }
}
