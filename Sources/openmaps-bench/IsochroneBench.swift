import Foundation
import GeoCore
import MapData
import Routing

/// Isochrones from the first `count` origins of an O-D set: the median time of one isochrone
/// (`runs` per origin) for each mode on its stored graph, in process, one thread; the contours
/// written as GeoJSON (one FeatureCollection an origin, in order), for their overlap with the
/// peer's on the same points.
enum IsochroneBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        let store = flags["--store"] ?? ""
        let out = flags["--out"] ?? "/tmp/openmaps-isochrones"
        let runs = flags.int("--runs", or: 3)
        let count = flags.int("--count", or: 20)
        let minutes = (flags["--minutes"] ?? "5,10").split(separator: ",").compactMap { Double($0) }
        let modes = try flags.modes(or: [.walking, .driving])
        let set = try ODSet(path: flags["--od"] ?? "")
        let origins = Array(set.pairs.map(\.origin).prefix(count))
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let mapStore = try MapStore(path: store)
        print(
            "Isochrones on \(store) (\(set.dataset), \(origins.count) origins, contours \(minutes.map { Int($0) }) min, median of \(runs) runs, one thread)"
        )
        for mode in modes {
            let modeName = mode.rawValue
            let (router, _) = try RoutingGraphs.router(store: mapStore, mode: mode)
            var times: [Double] = []
            var collections: [[String: Any]] = []
            for origin in origins {
                var isochrone: Isochrone?
                for _ in 0..<max(1, runs) {
                    let begin = ContinuousClock.now
                    isochrone = try? router.isochrone(from: origin, seconds: minutes.map { $0 * 60 })
                    times.append(Statistics.seconds(since: begin) * 1000)
                }
                collections.append(
                    isochrone?.geoJSON(labels: minutes, metric: "time") ?? [
                        "type": "FeatureCollection", "features": [],
                    ])
            }
            print(String(format: "  openmaps isochrone %-9@ %.2f ms", modeName, Statistics.median(times)))
            try JSONText.pretty(collections).write(
                toFile: "\(out)/openmaps-\(set.dataset)-\(modeName).json", atomically: true, encoding: .utf8)
        }
    }
}
