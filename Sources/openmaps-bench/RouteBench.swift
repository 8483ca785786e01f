import Foundation
import GeoCore
import MapData
import Routing

/// Route queries over an O-D set, in the peers' common JSONL format (`../shared/bench`:
/// `id`, `origin`, `destination`, `status`, `distance_m`, `duration_s`, snapped points,
/// `latency_us`), with the time to load each mode's graph and stored hierarchy: in-process,
/// one thread, the median of `runs` passes per pair.
enum RouteBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        let store = flags["--store"] ?? ""
        let out = flags["--out"] ?? "/tmp/openmaps-routes"
        let runs = flags.int("--runs", or: 3)
        let modes = try flags.modes(or: [.driving, .walking, .bicycling])
        let set = try ODSet(path: flags["--od"] ?? "")
        // --steps LANG: each query also makes the route's steps and their sentences.
        let instructions = flags["--steps"].flatMap(Language.init(rawValue:)).map { Instructions($0) }
        // --points N: each route through N points (2 to 10): the pair's origin and destination,
        // then the origins of the pairs after it, each stop passed as the mode does by default.
        let pointCount = min(max(flags.int("--points", or: 2), 2), 10)
        var stepCount = 0
        let (dataset, pairs) = (set.dataset, set.pairs)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let mapStore = try MapStore(path: store)
        print(
            "Routes on \(store) (\(dataset), \(pairs.count) pairs"
                + (pointCount > 2 ? ", each route going on to \(pointCount - 2) more points" : "")
                + ", median of \(runs) runs a pair, one thread"
                + (instructions.map { ", with steps and their \($0.language.rawValue) sentences" } ?? "") + ")")
        print(
            "  mode        load s   nodes    large    edges    arcs      routed     p50 ms   p90 ms   p99 ms"
        )
        for mode in modes {
            let modeName = mode.rawValue
            let start = ContinuousClock.now
            // The graph from the store's roads with its stored hierarchy (built by the import),
            // or, with --no-hierarchy, the plain search.
            // --build: the hierarchy contracted here, in memory, its time printed (to weigh a
            // change to the contraction without importing again).
            let (router, note): (Router, Route.Note?)
            if flags["--no-hierarchy"] != nil {
                router = Router(graph: try RoadGraph(store: mapStore, profile: TravelProfile(mode)))
                note = nil
            } else if flags["--build"] != nil {
                let graph = try RoadGraph(store: mapStore, profile: TravelProfile(mode))
                let begin = ContinuousClock.now
                router = Router(graph: graph, hierarchy: ContractionHierarchy(graph: graph))
                note = nil
                print(String(format: "  %@ hierarchy contracted in %.2f s", modeName, Statistics.seconds(since: begin)))
            } else {
                (router, note) = try RoutingGraphs.router(store: mapStore, mode: mode)
            }
            if let note { print("  note: \(note.message())") }
            let load = Statistics.seconds(since: start)
            if let path = flags["--edges"] {
                // Every edge of the mode as TSV: OSM from and to node, seconds, metres, OSM way.
                var table = ""
                router.graph.forEachEdge { from, to, seconds, metres, way in
                    table += "\(from)\t\(to)\t\(seconds)\t\(metres)\t\(way)\n"
                }
                try table.write(toFile: "\(path)-\(modeName).tsv", atomically: true, encoding: .utf8)
            }
            var lines = ""
            var latencies: [Double] = []
            var pops: [Double] = []
            var routed = 0
            for (index, (id, origin, destination)) in pairs.enumerated() {
                let stops = (1..<(pointCount - 1)).map { pairs[(index + $0) % pairs.count].origin }
                var times: [Double] = []
                var route: Route?
                var failure: String?
                for _ in 0..<max(1, runs) {
                    let begin = ContinuousClock.now
                    do {
                        route = try router.route([origin, destination] + stops)
                        if let instructions, let found = route {
                            // The steps and each one's sentence, as `route --steps` writes them.
                            for step in router.steps(of: found).joined() {
                                stepCount += instructions.text(for: step).count > 0 ? 1 : 0
                            }
                        }
                    } catch {
                        failure = "\(error)"
                    }
                    times.append(Statistics.seconds(since: begin) * 1000)
                }
                let latency = Statistics.median(times)
                latencies.append(latency)
                if let hierarchy = router.hierarchy { pops.append(Double(hierarchy.lastQueryPops)) }
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
                    if !stops.isEmpty { line["stops"] = stops.map { [$0.longitude, $0.latitude] } }
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
                    format: "  %@ %7.3f  %7d  %7d  %7d  %8d  %4d/%-4d %7.3f  %7.3f  %7.3f", modeName.padded(to: 11),
                    load, router.graph.nodeCount, router.graph.largePieceNodes, router.graph.edgeCount,
                    router.hierarchy?.arcCount ?? 0, routed, pairs.count,
                    Statistics.percentile(sorted, 50), Statistics.percentile(sorted, 90),
                    Statistics.percentile(sorted, 99)))
            if !pops.isEmpty {
                pops.sort()
                print(
                    String(
                        format: "  %@ labels a query off the hierarchy's queues: p50 %.0f, p99 %.0f",
                        modeName.padded(to: 11), Statistics.percentile(pops, 50), Statistics.percentile(pops, 99)))
            }
        }
        if instructions != nil { print("  steps written, every mode and run: \(stepCount)") }
    }
}
