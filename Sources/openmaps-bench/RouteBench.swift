import Foundation
import GeoCore
import MapData
import Routing

/// Route queries over an O-D set, in the peers' common JSONL format (`../shared/bench`:
/// `id`, `origin`, `destination`, `status`, `distance_m`, `duration_s`, snapped points,
/// `latency_us`), with the graph build time: in-process, one thread, the median of `runs`
/// passes per pair.
enum RouteBench {
    static func run(_ arguments: [String]) throws {
        var store = ""
        var od = ""
        var out = "/tmp/openmaps-routes"
        var runs = 3
        var modes = ["driving", "walking", "bicycling"]
        var index = 0
        while index + 1 < arguments.count {
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--store": store = value
            case "--od": od = value
            case "--out": out = value
            case "--runs": runs = Int(value) ?? runs
            case "--modes": modes = value.split(separator: ",").map(String.init)
            default: break
            }
            index += 2
        }
        let set = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: od))) as? [String: Any]
        let dataset = set?["dataset"] as? String ?? "od"
        let pairs = (set?["pairs"] as? [[String: Any]] ?? []).compactMap { pair -> (Int, Coordinate, Coordinate)? in
            guard let id = pair["id"] as? Int, let origin = pair["origin"] as? [Double],
                let destination = pair["destination"] as? [Double]
            else { return nil }
            return (
                id, Coordinate(latitude: origin[1], longitude: origin[0]),
                Coordinate(latitude: destination[1], longitude: destination[0])
            )
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let mapStore = try MapStore(path: store)
        print("Routes on \(store) (\(dataset), \(pairs.count) pairs, median of \(runs) runs a pair, one thread)")
        print("  mode        build s  nodes    main     edges    routed     p50 ms   p90 ms   p99 ms")
        for modeName in modes {
            guard let mode = TravelProfile.Mode(rawValue: modeName) else { continue }
            let start = ContinuousClock.now
            let router = Router(graph: try RoadGraph(store: mapStore, profile: TravelProfile(mode)))
            let build = GeocodeBench.seconds(since: start)
            var lines = ""
            var latencies: [Double] = []
            var routed = 0
            for (id, origin, destination) in pairs {
                var times: [Double] = []
                var route: Route?
                var failure: String?
                for _ in 0..<max(1, runs) {
                    let begin = ContinuousClock.now
                    do {
                        route = try router.route([origin, destination])
                    } catch {
                        failure = "\(error)"
                    }
                    times.append(GeocodeBench.seconds(since: begin) * 1000)
                }
                let latency = GeocodeBench.median(times)
                latencies.append(latency)
                var line: [String: Any] = [
                    "id": id, "engine": "openmaps", "profile": modeName,
                    "origin": [origin.longitude, origin.latitude],
                    "destination": [destination.longitude, destination.latitude],
                    "latency_us": (latency * 10_000).rounded() / 10,
                ]
                if let route {
                    routed += 1
                    line["status"] = "ok"
                    line["distance_m"] = (route.distance * 10).rounded() / 10
                    line["duration_s"] = (route.duration * 10).rounded() / 10
                    line["snapped_origin"] = [route.snapped[0].point.longitude, route.snapped[0].point.latitude]
                    line["snapped_destination"] = [route.snapped[1].point.longitude, route.snapped[1].point.latitude]
                } else {
                    line["status"] = "error"
                    line["message"] = failure ?? ""
                }
                let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
                lines += String(decoding: data, as: UTF8.self) + "\n"
            }
            try lines.write(toFile: "\(out)/openmaps-\(dataset)-\(modeName).jsonl", atomically: true, encoding: .utf8)
            let sorted = latencies.sorted()
            print(
                String(
                    format: "  %-11@ %7.3f  %7d  %7d  %7d  %4d/%-4d %7.3f  %7.3f  %7.3f", modeName, build,
                    router.graph.nodeCount, router.graph.mainPieceSize, router.graph.edgeCount, routed, pairs.count,
                    GeocodeBench.percentile(sorted, 50), GeocodeBench.percentile(sorted, 90),
                    GeocodeBench.percentile(sorted, 99)))
        }
    }
}
