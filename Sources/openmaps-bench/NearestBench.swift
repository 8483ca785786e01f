import Foundation
import GeoCore
import MapData
import Routing

/// The nearest road (OSRM's `nearest` service, `number` 1) of every point of an O-D set, origins
/// and destinations: each mode's graph loaded from the store, in process, one thread, the median
/// of `runs` passes a point; p50 and p99 over the points, and each point's road written as JSON
/// lines (`id`, `location`, `distance_m`, `latency_us`) for the agreement with the peer's.
enum NearestBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        let store = flags["--store"] ?? ""
        let out = flags["--out"] ?? "/tmp/openmaps-nearest"
        let runs = flags.int("--runs", or: 3)
        let modes = try flags.modes(or: [.driving, .walking, .bicycling])
        let set = try ODSet(path: flags["--od"] ?? "")
        let points = set.pairs.flatMap { [$0.origin, $0.destination] }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let mapStore = try MapStore(path: store)
        print(
            "Nearest roads on \(store) (\(set.dataset), \(points.count) points, median of \(runs) runs a point, one thread)"
        )
        for mode in modes {
            let modeName = mode.rawValue
            let (router, _) = try RoutingGraphs.router(store: mapStore, mode: mode)
            var latencies: [Double] = []
            var lines = ""
            for (id, point) in points.enumerated() {
                var times: [Double] = []
                var found: [NearestRoad] = []
                for _ in 0..<max(1, runs) {
                    let begin = ContinuousClock.now
                    found = try router.nearest(point, count: 1)
                    times.append(Statistics.seconds(since: begin) * 1000)
                }
                let latency = Statistics.median(times)
                latencies.append(latency)
                var line: [String: Any] = ["id": id, "latency_us": (latency * 10_000).rounded() / 10]
                if let road = found.first {
                    line["location"] = [road.location.longitude, road.location.latitude]
                    line["distance_m"] = (road.distance * 10).rounded() / 10
                }
                let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
                lines += String(decoding: data, as: UTF8.self) + "\n"
            }
            try lines.write(
                toFile: "\(out)/openmaps-\(set.dataset)-\(modeName).jsonl", atomically: true, encoding: .utf8)
            latencies.sort()
            print(
                String(
                    format: "  openmaps nearest %-9@ p50 %.1f µs, p99 %.1f µs, max %.1f µs", modeName,
                    Statistics.percentile(latencies, 50) * 1000, Statistics.percentile(latencies, 99) * 1000,
                    (latencies.last ?? 0) * 1000))
        }
    }
}
