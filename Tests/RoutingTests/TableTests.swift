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

    /// Trips visit every point once; a round trip of a few points is the quickest of every
    /// order (checked by trying them all on the table), one of many is no slower than the
    /// points in the order given, and a trip that is not round runs from the first point to
    /// the last.
    @Test func tripsVisitEveryPointOnceInTheQuickestOrderFound() throws {
        let graph = try RoadGraph(
            store: try MapStore(path: try TestExtracts.monacoStore()), profile: TravelProfile(.driving))
        let router = Router(graph: graph, hierarchy: ContractionHierarchy(graph: graph))
        let bounds = (43.7300, 7.4150, 43.7440, 7.4280)
        let few = Self.points(7, in: bounds)
        let table = try router.table(few, sources: Array(few.indices), destinations: Array(few.indices))
        let cost = table.durations.map { $0.map { $0 ?? .infinity } }
        func length(_ order: [Int]) -> Double {
            zip(order, order.dropFirst() + [order[0]]).reduce(0) { $0 + cost[$1.0][$1.1] }
        }
        var middle = Array(1..<few.count)
        var quickest = length([0] + middle)
        while Router.nextPermutation(&middle) { quickest = min(quickest, length([0] + middle)) }
        let round = try router.trip(few, roundTrip: true)
        #expect(round.order.sorted() == Array(few.indices) && round.order.first == 0)
        #expect(abs(length(round.order) - quickest) < 1e-6)
        #expect(round.route.legs.count == few.count)
        #expect(abs(round.route.duration - round.route.legs.map(\.duration).reduce(0, +)) < 1e-6)
        // Many points: farthest insertion and 2-opt, no slower than the order given.
        let many = Self.points(14, in: bounds)
        let manyTable = try router.table(many, sources: Array(many.indices), destinations: Array(many.indices))
        let manyCost = manyTable.durations.map { $0.map { $0 ?? .infinity } }
        let order = Router.tripOrder(manyCost, roundTrip: true)
        #expect(order.sorted() == Array(many.indices))
        let given = Array(many.indices)
        let lengths = [order, given].map { visit in
            zip(visit, visit.dropFirst() + [visit[0]]).reduce(0) { $0 + manyCost[$1.0][$1.1] }
        }
        #expect(lengths[0] <= lengths[1])
        let trip = try router.trip(many, roundTrip: true)
        #expect(trip.order.sorted() == Array(many.indices) && trip.route.legs.count == many.count)
        // Not round: from the first point to the last.
        let open = try router.trip(few, roundTrip: false)
        #expect(open.order.first == 0 && open.order.last == few.count - 1 && open.route.legs.count == few.count - 1)
        var values = [1, 2, 3]
        var seen = [values]
        while Router.nextPermutation(&values) { seen.append(values) }
        #expect(seen.count == 6 && Set(seen.map { "\($0)" }).count == 6 && values == [1, 2, 3])
    }
}

/// Isochrones: each contour holds every road edge's end the plain search reaches within its
/// time, and almost none it reaches only well after it (beyond the cell's width a contour takes
/// in round a road: a minute or so on foot); the grid is Valhalla's.
@Suite struct IsochroneTests {
    /// Cells a thousandth of a degree a side for a city's isochrones, more for long drives
    /// (Valhalla's rule: a three-hundredth of the reach at the mode's nominal speed).
    @Test func theGridIsSizedAsValhallaSizesIt() {
        #expect(TimeGrid.cellDegrees(reach: (600 + 120) * Router.gridSpeed(.walking)) == 0.001)
        #expect(TimeGrid.cellDegrees(reach: (600 + 120) * Router.gridSpeed(.driving)) == 0.001)
        #expect(TimeGrid.cellDegrees(reach: (3_600 + 120) * Router.gridSpeed(.driving)) == 0.003)
        #expect(TimeGrid.cellDegrees(reach: (7_200 + 120) * Router.gridSpeed(.driving)) == 0.005)
    }

    /// A contour crosses between a cell within it and one without where the times would meet
    /// it: along a road at the time's own place, and across it as far as a cell nothing reaches
    /// (a minute past the contour) lets it.
    @Test func aContourLiesWhereTheTimesCrossIt() throws {
        let origin = Coordinate(latitude: 45, longitude: 7)
        let plane = LocalPlane(around: origin)
        // One road from the origin 1 km east, reached from 0 to 600 s along it.
        let road = TimeGrid.Run(from: origin, to: plane.coordinate(x: 1_000, y: 0), start: 0, end: 600)
        let grid = TimeGrid(around: origin, runs: [road], limit: 720, cellDegrees: 0.001)
        let polygons = grid.contour(300, unreached: 360)
        try #require(polygons.count == 1 && polygons[0].count == 1)
        let ring = polygons[0][0].map(plane.point)
        #expect(ring.first! == ring.last! && ring.count >= 4)
        // East: the road is reached at 300 s 500 m along; the ring ends within a cell of that.
        #expect(abs(ring.map(\.x).max()! - 500) < grid.width)
        // North and south at the origin (0 s): five sixths of the way to the next cells' centres.
        let across = grid.height * 300 / 360
        #expect(abs(ring.map(\.y).max()! - across) < 1 && abs(ring.map(\.y).min()! + across) < 1)
        // West, round the origin's own cell: as far.
        #expect(abs(ring.map(\.x).min()! + grid.width * 300 / 360) < 1)
        // Nothing past 600 s (its last cell, nor the 120 s after the road ends).
        #expect(
            grid.contour(700, unreached: 760).allSatisfy { polygon in
                polygon[0].map(plane.point).allSatisfy { $0.x < 1_000 + grid.width }
            })
    }

    /// A ring's points nearer than the tolerance to the line kept are dropped, the ring kept
    /// closed, its far points kept.
    @Test func ringsAreGeneralised() {
        // A square of side 10 whose sides wobble by 0.1.
        var ring: [(x: Double, y: Double)] = []
        for step in 0..<40 {
            let side = step / 10
            let along = Double(step % 10)
            let wobble = step % 2 == 0 ? 0.1 : -0.1
            ring.append(
                [(along, wobble), (10 + wobble, along), (10 - along, 10 + wobble), (wobble, 10 - along)][side])
        }
        ring.append(ring[0])
        let kept = TimeGrid.generalised(ring, tolerance: (0.5, 0.5))
        #expect(kept.count <= 6 && kept.first! == kept.last!)
        for corner in [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)] {
            #expect(kept.contains { abs($0.x - corner.0) < 0.2 && abs($0.y - corner.1) < 0.2 }, "\(corner)")
        }
        #expect(TimeGrid.generalised(ring, tolerance: (0.01, 0.01)).count == ring.count)
    }

    /// The same request draws the same polygons, point for point, in the same order, in one
    /// process and the next (where each ring starts decides which points its generalisation
    /// keeps; a dictionary's order changes from one process to the next).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: openmapsDebugBinary)))
    func theSameRequestDrawsTheSamePolygons() throws {
        let store = try TestExtracts.monacoStore()
        func drawn() throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: openmapsDebugBinary)
            process.arguments = [
                "isochrone", "43.7384,7.4246", "--minutes", "5,10", "--mode", "walking", "--store", store,
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return text
        }
        let first = try drawn()
        #expect(first.contains("Polygon"))
        for _ in 0..<3 { #expect(try drawn() == first) }
    }

    @Test(arguments: [TravelProfile.Mode.walking, .driving])
    func contoursHoldWhatTheSearchReachesInTime(mode: TravelProfile.Mode) throws {
        let graph = try RoadGraph(
            store: try MapStore(path: try TestExtracts.monacoStore()), profile: TravelProfile(mode))
        let router = Router(graph: graph)
        let limits = mode == .walking ? [300.0, 600] : [60.0, 120]
        let isochrone = try router.isochrone(from: Coordinate(latitude: 43.7384, longitude: 7.4246), seconds: limits)
        #expect(isochrone.contours.count == 2)
        func inside(_ point: Coordinate, _ contour: Isochrone.Contour) -> Bool {
            contour.polygons.contains { polygon in
                TimeGrid.contains(polygon[0], point) && !polygon.dropFirst().contains { TimeGrid.contains($0, point) }
            }
        }
        for (limit, contour) in zip(limits, isochrone.contours) {
            #expect(!contour.polygons.isEmpty)
            // Rings closed, outer ones counter-clockwise.
            for polygon in contour.polygons {
                #expect(polygon.allSatisfy { $0.first == $0.last && $0.count >= 4 })
            }
            // What is reached in time (a cell's walk inside the edge of the grid) is in it;
            // what is reached a good while after is out of it.
            let early = isochrone.reached.filter { $0.seconds <= limit - 30 }
            let late = isochrone.reached.filter { $0.seconds > limit + 240 }
            let missed = early.filter { !inside($0.point, contour) }
            let caught = late.filter { inside($0.point, contour) }
            #expect(
                early.count > 20 && Double(missed.count) <= Double(early.count) * 0.01,
                "\(mode) \(limit): \(missed.count) of \(early.count) missed")
            #expect(
                Double(caught.count) <= Double(max(late.count, 1)) * 0.05,
                "\(mode) \(limit): \(caught.count) of \(late.count) late ones inside")
        }
        // The larger contour holds the smaller's points.
        let small = isochrone.reached.filter { $0.seconds <= limits[0] - 30 }
        #expect(small.filter { inside($0.point, isochrone.contours[1]) }.count >= small.count * 99 / 100)
        // The search's times are the routes': at every 25th node reached, the soonest time the
        // isochrone has for it is the route's duration there, within a second (where the route
        // ends on that node: a node of roads no route may end on, a tunnel's, is passed over).
        var soonest: [Coordinate: Double] = [:]
        for (point, seconds) in isochrone.reached { soonest[point] = min(soonest[point] ?? .infinity, seconds) }
        let sample = soonest.keys.sorted { ($0.latitude, $0.longitude) < ($1.latitude, $1.longitude) }.enumerated()
            .filter { $0.offset % 25 == 0 }.map(\.element)
        var checked = 0
        for point in sample where soonest[point]! <= limits[1] {
            let route = try router.route([isochrone.origin, point])
            guard route.snapped[1].distance < 0.5 else { continue }
            checked += 1
            #expect(
                abs(route.duration - soonest[point]!) <= 1,
                "\(mode) \(point): route \(route.duration) s, isochrone \(soonest[point]!) s")
        }
        #expect(checked >= 10, "\(mode): \(checked) nodes checked")
    }
}
