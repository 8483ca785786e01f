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

    @Test func steepNoiseIsBounded() {
        let profile = TravelProfile(.bicycling)
        let road = TravelProfile.Direction(speed: 18)
        #expect(profile.climbing(road, grade: 2) == profile.climbing(road, grade: 0.3))
        #expect(profile.climbing(road, grade: -2) == 18 * 1.25)
        #expect(profile.climbing(TravelProfile.Direction(speed: 5, pushing: true), grade: 0.2) == 5)
        #expect(profile.climbing(road, grade: .nan) == 18)
    }
}
