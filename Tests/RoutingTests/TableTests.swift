import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import Routing

/// Tables (OSRM's `table`): each cell the duration and distance of the route between its two
/// points, by one many-to-many search on the hierarchy.
@Suite struct TableTests {
    /// `count` points spread over `bounds` by a fixed sequence (the same points every run).
    static func points(_ count: Int, in bounds: (south: Double, west: Double, north: Double, east: Double))
        -> [Coordinate]
    {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in
            Coordinate(
                latitude: bounds.south + next() * (bounds.north - bounds.south),
                longitude: bounds.west + next() * (bounds.east - bounds.west))
        }
    }

    /// Every cell of a 50 × 50 table in central Monaco (the committed extract, a hierarchy
    /// contracted here) equals the route between its two points, for each profile: duration
    /// within a second, distance within a metre, none where no route joins them.
    @Test(arguments: [TravelProfile.Mode.driving, .walking, .bicycling])
    func everyCellInMonacoIsTheRoutes(mode: TravelProfile.Mode) throws {
        let graph = try RoadGraph(
            store: try MapStore(path: try TestExtracts.monacoStore()), profile: TravelProfile(mode))
        let router = Router(graph: graph, hierarchy: ContractionHierarchy(graph: graph))
        try Self.compare(router, Self.points(50, in: (43.7280, 7.4130, 43.7460, 7.4300)), mode: mode)
    }

    /// The same on Helsinki's centre, with the stored routing graph of the installed store
    /// (`make data`); skipped, and said so, without it.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: DataInstaller().storePath),
            "needs the installed store (make data)"),
        arguments: [TravelProfile.Mode.driving, .walking, .bicycling])
    func everyCellInHelsinkiIsTheRoutes(mode: TravelProfile.Mode) throws {
        let (router, _) = try RoutingGraphs.router(store: try MapStore(path: DataInstaller().storePath), mode: mode)
        try #require(router.hierarchy != nil)
        try Self.compare(router, Self.points(50, in: (60.1645, 24.9355, 60.1790, 24.9530)), mode: mode)
    }

    /// Checks the table of `points` to themselves against a route for each pair.
    static func compare(_ router: Router, _ points: [Coordinate], mode: TravelProfile.Mode) throws {
        let table = try router.table(from: points, to: points)
        var compared = 0
        for (i, from) in points.enumerated() {
            for (j, to) in points.enumerated() {
                let route = try? router.route([from, to])
                let duration = table.durations[i][j]
                let distance = table.distances[i][j]
                #expect((route == nil) == (duration == nil), "\(mode) \(i)→\(j): \(String(describing: duration))")
                guard let route, let duration, let distance else { continue }
                compared += 1
                #expect(abs(duration - route.duration) <= 1, "\(mode) \(i)→\(j): \(duration) against \(route.duration)")
                #expect(abs(distance - route.distance) <= 1, "\(mode) \(i)→\(j): \(distance) against \(route.distance)")
            }
        }
        #expect(compared > points.count * points.count * 3 / 4, "\(mode): \(compared) cells")
        #expect(table.sources.count == points.count && table.destinations.count == points.count)
        #expect(table.durations.indices.allSatisfy { table.durations[$0][$0] == 0 })
    }
}
