import Foundation
import GeoCore
import MapData
import Routing

/// Map matching (OSRM's `match`) on long traces: for each mode, `traces` traces of `points`
/// fixes each, made from routes through consecutive O-D points (the line sampled evenly,
/// moved by `noise` metres of GPS noise, root mean square, the same every run; timed in
/// whole seconds by the route's pace), matched in process on one thread, the median of
/// `runs` a trace. The traces go to `out` as JSON (for the peer to match the same ones) with
/// our matched lines beside them.
enum MatchBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        let store = flags["--store"] ?? ""
        let out = flags["--out"] ?? "/tmp/openmaps-match"
        let runs = flags.int("--runs", or: 3)
        let count = flags.int("--traces", or: 10)
        let size = flags.int("--points", or: 1_000)
        let noise = Double(flags["--noise"] ?? "10") ?? 10
        let modes = try flags.modes(or: [.driving, .walking, .bicycling])
        let set = try ODSet(path: flags["--od"] ?? "")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let mapStore = try MapStore(path: store)
        print(
            "Map matching on \(store) (\(set.dataset), \(count) traces of \(size) fixes, \(DecimalText.format(noise)) m noise, median of \(runs) runs, one thread)"
        )
        for mode in modes {
            let modeName = mode.rawValue
            let (router, _) = try RoutingGraphs.router(store: mapStore, mode: mode)
            var traces: [[String: Any]] = []
            var times: [Double] = []
            var placed = 0
            var fixes = 0
            var next = 0
            while traces.count < count && next < set.pairs.count {
                guard let route = longRoute(router, set, from: &next) else { continue }
                let trace = sample(route, points: size, noise: noise, seed: UInt64(traces.count + 1))
                var matched = try router.match(trace)
                var taken: [Double] = []
                for _ in 0..<max(1, runs) {
                    let begin = ContinuousClock.now
                    matched = try router.match(trace)
                    taken.append(Statistics.seconds(since: begin) * 1000)
                }
                times.append(Statistics.median(taken))
                placed += matched.placements.compactMap { $0 }.count
                fixes += trace.count
                traces.append([
                    "coordinates": trace.map { [$0.coordinate.longitude, $0.coordinate.latitude] },
                    "timestamps": trace.map { Int($0.time ?? 0) }, "radius": max(noise, 5),
                    "route_distance": route.distance,
                    "matched": matched.matchings.map { $0.route.geometry.map { [$0.longitude, $0.latitude] } },
                    "matched_ms": Statistics.median(taken),
                ])
            }
            print(
                String(
                    format:
                        "  openmaps match %@ %.1f ms a trace (median of %d traces, p90 %.1f ms), %d of %d fixes placed",
                    modeName.padded(to: 9), Statistics.median(times), traces.count,
                    Statistics.percentile(times.sorted(), 90), placed, fixes))
            try JSONText.pretty(["dataset": set.dataset, "mode": modeName, "traces": traces]).write(
                toFile: "\(out)/traces-\(set.dataset)-\(modeName).json", atomically: true, encoding: .utf8)
        }
    }

    /// A route through up to 11 consecutive O-D points from pair `next` on (each pair's origin
    /// and destination), leaving out points that are not connected; nil when fewer than 2 are.
    static func longRoute(_ router: Router, _ set: ODSet, from next: inout Int) -> Route? {
        var points: [Coordinate] = []
        while points.count < 10 && next < set.pairs.count {
            let pair = set.pairs[next]
            next += 1
            for point in [pair.origin, pair.destination] {
                if let last = points.last, (try? router.route([last, point])) == nil { continue }
                if points.isEmpty, (try? router.route([point, point])) == nil { continue }
                points.append(point)
            }
        }
        guard points.count >= 2 else { return nil }
        return try? router.route(points)
    }

    /// `points` fixes evenly along `route`'s line, each moved by normal noise of `noise`
    /// metres root mean square, timed (whole seconds) by the route's pace.
    static func sample(_ route: Route, points: Int, noise: Double, seed: UInt64) -> [TracePoint] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return max(Double(state >> 11) / Double(1 << 53), 1e-12)
        }
        func normal() -> Double { sqrt(-2 * log(uniform())) * cos(2 * .pi * uniform()) }
        let line = route.geometry
        let spacing = route.distance / Double(max(points - 1, 1))
        let pace = route.duration / max(route.distance, 1)
        var fixes: [TracePoint] = []
        var along = 0.0
        var wanted = 0.0
        for (a, b) in zip(line, line.dropFirst()) {
            let length = a.distance(to: b)
            while wanted <= along + length && fixes.count < points {
                let share = length > 0 ? (wanted - along) / length : 0
                let exact = Coordinate(
                    latitude: a.latitude + (b.latitude - a.latitude) * share,
                    longitude: a.longitude + (b.longitude - a.longitude) * share)
                let deviation = noise / 2.0.squareRoot()
                let moved = LocalPlane(around: exact).coordinate(x: normal() * deviation, y: normal() * deviation)
                fixes.append(
                    TracePoint(moved, time: (1_764_580_000 + wanted * pace).rounded(.down), accuracy: max(noise, 5)))
                wanted += spacing
            }
            along += length
        }
        return fixes
    }
}
