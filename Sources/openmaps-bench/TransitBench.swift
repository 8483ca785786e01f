import Foundation
import GeoCore
import MapsApp
import Transit

/// Journeys over a transit O-D set with departure times (`../shared/bench/od-*-transit.json`),
/// in the peers' JSONL format (`id`, `origin`, `destination`, `depart_at`, `status`,
/// `duration_s` from the departure to the arrival, `transit_maneuvers` the rides,
/// `latency_us`): in-process, one thread, the median of `runs` passes a pair, after one pass
/// that lays the timetables out (timed apart).
enum TransitBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        let store = flags["--store"] ?? ""
        let runs = flags.int("--runs", or: 3)
        let out = flags["--out"] ?? "/tmp/openmaps-transit.jsonl"
        let set =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: flags["--od"] ?? "")))
            as? [String: Any]
        let pairs = (set?["pairs"] as? [[String: Any]] ?? []).compactMap {
            pair -> (id: Int, origin: Coordinate, destination: Coordinate, departAt: String, time: ServiceTime)? in
            guard let id = pair["id"] as? Int, let origin = pair["origin"] as? [Double], origin.count == 2,
                let destination = pair["destination"] as? [Double], destination.count == 2,
                let departAt = pair["depart_at"] as? String, let time = ServiceTime(local: departAt)
            else { return nil }
            return (
                id, Coordinate(latitude: origin[1], longitude: origin[0]),
                Coordinate(latitude: destination[1], longitude: destination[0]), departAt, time
            )
        }
        let app = try MapsApp.onStore(path: store)
        guard let planner = app.transit else { return }
        let start = ContinuousClock.now
        if let first = pairs.first {
            _ = try planner.journeys(from: first.origin, to: first.destination, leaving: first.time)
        }
        let load = Statistics.seconds(since: start)
        var latencies: [Double] = []
        var lines = ""
        var found = 0
        for pair in pairs {
            var times: [Double] = []
            var journeys: [Journey] = []
            for _ in 0..<max(runs, 1) {
                let begin = ContinuousClock.now
                journeys = try planner.journeys(from: pair.origin, to: pair.destination, leaving: pair.time)
                times.append(Statistics.seconds(since: begin) * 1e6)
            }
            let latency = Statistics.median(times)
            latencies.append(latency)
            let best = journeys.first
            if best != nil { found += 1 }
            let line: [String: Any] = [
                "id": pair.id, "engine": "openmaps", "profile": "transit",
                "origin": [pair.origin.longitude, pair.origin.latitude],
                "destination": [pair.destination.longitude, pair.destination.latitude], "depart_at": pair.departAt,
                "status": best == nil ? "no_route" : "ok",
                "duration_s": best.map { Double($0.arrival - $0.departure) } ?? 0,
                "transit_maneuvers": best?.rides ?? 0, "walk_straight_line": best?.walksStraightLines ?? false,
                "latency_us": (latency * 10).rounded() / 10,
            ]
            let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
            lines += String(decoding: data, as: UTF8.self) + "\n"
        }
        try lines.write(toFile: out, atomically: true, encoding: .utf8)
        let sorted = latencies.sorted()
        print(
            String(
                format:
                    "openmaps transit: %d/%d journeys | timetables laid out in %.2f s | latency p50 %.2f ms p90 %.2f p99 %.2f",
                found, pairs.count, load, Statistics.percentile(sorted, 50) / 1000,
                Statistics.percentile(sorted, 90) / 1000,
                Statistics.percentile(sorted, 99) / 1000))
        print("  answers: \(out)")
    }
}
