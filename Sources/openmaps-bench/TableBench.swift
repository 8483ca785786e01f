import Foundation
import GeoCore
import MapData
import Routing

/// Tables (OSRM's `table`) over the first `size` origins of an O-D set, to themselves: the
/// median time of `runs` computations of each mode's table on its stored hierarchy, in
/// process, one thread; the durations written as JSON (`durations`, rows of sources, null
/// where no route), for the agreement with the peer's table on the same points.
enum TableBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        let store = flags["--store"] ?? ""
        let out = flags["--out"] ?? "/tmp/openmaps-tables"
        let runs = flags.int("--runs", or: 5)
        let size = flags.int("--size", or: 100)
        let modes = try flags.modes(or: [.driving, .walking, .bicycling])
        let set = try ODSet(path: flags["--od"] ?? "")
        let points = Array(set.pairs.map(\.origin).prefix(size))
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let mapStore = try MapStore(path: store)
        print(
            "Tables on \(store) (\(set.dataset), \(points.count) × \(points.count), median of \(runs) runs, one thread)"
        )
        for mode in modes {
            let modeName = mode.rawValue
            let (router, _) = try RoutingGraphs.router(store: mapStore, mode: mode)
            // The first table also works out the arcs' durations and distances, once a graph.
            var begin = ContinuousClock.now
            var table = try router.table(points, sources: Array(points.indices), destinations: Array(points.indices))
            let first = Statistics.seconds(since: begin) * 1000
            var times: [Double] = []
            for _ in 0..<max(1, runs) {
                begin = ContinuousClock.now
                table = try router.table(points, sources: Array(points.indices), destinations: Array(points.indices))
                times.append(Statistics.seconds(since: begin) * 1000)
            }
            let filled = table.durations.joined().filter { $0 != nil }.count
            print(
                String(
                    format: "  openmaps table %-9@ %.1f ms (first %.1f ms, with the arcs' durations), %d of %d cells",
                    modeName, Statistics.median(times), first, filled, points.count * points.count))
            let document: [String: Any] = [
                "durations": table.durations.map { row in
                    row.map { cell -> Any in cell.map { ($0 * 10).rounded() / 10 } ?? NSNull() }
                }
            ]
            try JSONText.pretty(document).write(
                toFile: "\(out)/openmaps-\(set.dataset)-\(modeName).json", atomically: true, encoding: .utf8)
        }
    }
}
