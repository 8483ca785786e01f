import Foundation
import GeoCore
import MapData
import PlaceSearch

/// Forward and reverse geocoding latency, measured as the Nominatim peer measures itself
/// (`../shared/bench/lib/peer_nominatim.py`): in-process, the first five queries as a warm-up,
/// `runs` passes over every query, each query's median latency, then p50/p90/max over the
/// queries (and p50/p99 of the first pass alone); the top hit of each, written one JSON line
/// per query beside the peer's.
enum GeocodeBench {
    struct Options {
        var store: String
        var queries: String
        var od: String
        var reverseCount: Int
        var runs: Int
        var out: String
        var peer: String?

        init(_ arguments: [String]) {
            let flags = BenchFlags(arguments)
            store = flags["--store"] ?? ""
            queries = flags["--queries"] ?? ""
            od = flags["--od"] ?? ""
            reverseCount = flags.int("--reverse-n", or: 200)
            runs = flags.int("--runs", or: 5)
            out = flags["--out"] ?? "/tmp/openmaps-geocode"
            peer = flags["--peer"]
        }
    }

    static func run(_ arguments: [String]) throws {
        let options = Options(arguments)
        let opened = ContinuousClock.now
        let search = PlaceSearch(store: try MapStore(path: options.store))
        let queries = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: options.queries)))
        let texts = (queries as? [String: Any])?["queries"] as? [String] ?? []
        let points = try ODSet(path: options.od).pairs.prefix(options.reverseCount).map(\.origin)
        for text in texts.prefix(5) { _ = try search.search(SearchQuery(text, limit: 1)) }
        let openSeconds = Statistics.seconds(since: opened)
        try FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
        let forward = try measure(texts, runs: options.runs, file: options.out + "/openmaps-search.jsonl") { text in
            try search.search(SearchQuery(text, limit: 1)).first
        } record: {
            ["query": $0]
        }
        let reverse = try measure(points, runs: options.runs, file: options.out + "/openmaps-reverse.jsonl") {
            try search.reverse($0)
        } record: {
            ["point": [$0.longitude, $0.latitude]]
        }
        // Search as you type: every keystroke of every query, as the web app asks (the text so
        // far, trimmed, from two characters on; its last word a beginning; 8 places near the
        // centre), on a search of its own (nothing kept from the searches above).
        let centre = points.first
        let keystrokes = texts.flatMap { text in
            (0..<text.count).map { String(text.prefix($0 + 1)).trimmingCharacters(in: .whitespaces) }.filter {
                $0.count >= 2
            }
        }
        let typingSearch = PlaceSearch(store: try MapStore(path: options.store))
        let typing = try measure(keystrokes, runs: options.runs, file: options.out + "/openmaps-typing.jsonl") {
            try typingSearch.search(SearchQuery($0, near: centre, limit: 8)).first
        } record: {
            ["query": $0]
        }
        print(
            "Geocoding on \(options.store), \(options.runs) passes, in-process (store opened in \(format(openSeconds)) s)"
        )
        print("  kind      n  found   p50 ms   p90 ms   p99 ms   max ms   queries/s   first pass: p50 ms   p99 ms")
        for (name, figures) in [("search", forward), ("reverse", reverse), ("typing", typing)] {
            print(
                String(
                    format: "  %@ %3d  %5d  %7.3f  %7.3f  %7.3f  %7.3f  %10.1f               %7.3f  %7.3f",
                    name.padded(to: 7), figures.count, figures.found, figures.p50, figures.p90, figures.p99,
                    figures.max, figures.perSecond, figures.firstP50, figures.firstP99))
        }
        guard let peer = options.peer,
            let data = FileManager.default.contents(atPath: peer),
            let summary = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let query = summary["query"] as? [String: Any]
        else { return }
        print("Nominatim \(query["version"] ?? "?") on the same queries (\(peer)):")
        for (name, figures) in [("search", forward), ("reverse", reverse)] {
            guard let theirs = query[name] as? [String: Any], let latency = theirs["latency_ms"] as? [String: Any],
                let p50 = latency["p50"] as? Double, let p90 = latency["p90"] as? Double
            else { continue }
            print(
                String(
                    format: "  %@ found %d vs %d; p50 %.3f vs %.2f ms (%.1f× faster); p90 %.3f vs %.2f ms",
                    name.padded(to: 7),
                    figures.found, theirs["found"] as? Int ?? 0, figures.p50, p50, p50 / max(figures.p50, 0.001),
                    figures.p90, p90))
        }
    }

    struct Figures {
        var count = 0
        var found = 0
        var p50 = 0.0
        var p90 = 0.0
        var p99 = 0.0
        var max = 0.0
        var perSecond = 0.0
        /// p50 and p99 of the first pass alone: what a process answers before anything it read
        /// is kept (the places it reads again keystroke after keystroke are kept within it).
        var firstP50 = 0.0
        var firstP99 = 0.0
    }

    /// Runs `body` over `items` `runs` times; writes each item's top hit and median latency.
    static func measure<Item>(
        _ items: [Item], runs: Int, file: String, _ body: (Item) throws -> PlaceResult?,
        record: (Item) -> [String: Any]
    ) throws -> Figures {
        guard !items.isEmpty else { return Figures() }
        var latencies = [[Double]](repeating: [], count: items.count)
        var first = [PlaceResult?](repeating: nil, count: items.count)
        var passes: [Double] = []
        for run in 0..<max(1, runs) {
            let pass = ContinuousClock.now
            for (index, item) in items.enumerated() {
                let start = ContinuousClock.now
                let result = try body(item)
                latencies[index].append(Statistics.seconds(since: start) * 1000)
                if run == 0 { first[index] = result }
            }
            passes.append(Statistics.seconds(since: pass))
        }
        var lines = ""
        for (index, item) in items.enumerated() {
            var line = record(item)
            line["latency_us"] = (Statistics.median(latencies[index]) * 10_000).rounded() / 10
            if let hit = first[index] {
                line["result"] = [
                    "osm": hit.osmType.map { $0.uppercased() + String(hit.osmID ?? 0) } as Any,
                    "name": hit.name, "lat": hit.coordinate.latitude, "lon": hit.coordinate.longitude,
                    "category": [ResultFormat.category(of: hit).category, ResultFormat.category(of: hit).type],
                ]
            }
            let data = try JSONSerialization.data(
                withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])
            lines += String(decoding: data, as: UTF8.self) + "\n"
        }
        try lines.write(toFile: file, atomically: true, encoding: .utf8)
        let medians = latencies.map(Statistics.median).sorted()
        let firstPass = latencies.map { $0[0] }.sorted()
        return Figures(
            count: items.count, found: first.compactMap { $0 }.count, p50: Statistics.percentile(medians, 50),
            p90: Statistics.percentile(medians, 90), p99: Statistics.percentile(medians, 99), max: medians.last ?? 0,
            perSecond: Double(items.count) / Statistics.median(passes), firstP50: Statistics.percentile(firstPass, 50),
            firstP99: Statistics.percentile(firstPass, 99))
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
