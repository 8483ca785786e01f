import Foundation
import MapsURL

/// `make bench`: link-parsing throughput on one core, OpenMaps' parser side by side with a
/// straightforward URLComponents parser over the same mixed corpus, in one run.
///
/// Usage: openmaps-bench [--urls N] [--seconds S] | openmaps-bench pbf FILE…
///        | openmaps-bench tiles [--runs N] [--peer-results DIR] FILE…
///        | openmaps-bench synthetic --nodes N --out FILE.osm.pbf
///        | openmaps-bench stores --sqlite FILE --postgis URL [--runs N]
///        | openmaps-bench geocode --store S --queries Q.json --od OD.json [--runs N] [--peer SUMMARY.json]
struct Options {
    var urls: Int
    var seconds: Double

    init(_ arguments: [String]) {
        let flags = BenchFlags(arguments)
        urls = flags.int("--urls", or: 4096)
        seconds = flags.double("--seconds", or: 2.0)
    }
}

/// Passes of `pass` per second, the best of three rounds that share `seconds`; `pass`
/// returns a checksum that keeps its work observable.
func bestRate(seconds: Double, _ pass: () -> Int) -> (passesPerSecond: Double, checksum: Int) {
    var best = 0.0
    var checksum = 0
    for _ in 0..<3 {
        let clock = ContinuousClock()
        let start = clock.now
        var passes = 0
        while clock.now - start < .milliseconds(Int(seconds * 1000 / 3)) {
            checksum &+= pass()
            passes += 1
        }
        best = max(best, Double(passes) / Statistics.seconds(since: start))
    }
    return (best, checksum)
}

/// URLs per second of `body` over the corpus, best of three rounds.
func measure(_ corpus: [String], seconds: Double, _ body: (String) -> Int) -> (rate: Double, checksum: Int) {
    let result = bestRate(seconds: seconds) {
        var checksum = 0
        for url in corpus { checksum &+= body(url) }
        return checksum
    }
    return (result.passesPerSecond * Double(corpus.count), result.checksum)
}

/// The benchmarks that take `--name value` options and may fail, by subcommand:
/// - `stores --sqlite FILE --postgis URL [--runs N]`
/// - `synthetic --nodes N --out FILE.osm.pbf`
/// - `geocode --store S --queries Q.json --od OD.json [--runs N] [--peer SUMMARY.json]`
/// - `route --store S --od OD.json [--runs N] [--modes driving,walking,bicycling] [--out DIR]
///   [--edges PREFIX]` (also every edge of each mode as PREFIX-MODE.tsv) `[--steps LANG]` (each
///   query also makes the steps and their sentences) `[--build 1]` (each mode's hierarchy
///   contracted in memory and timed, instead of the stored one) `[--points N]` (each route
///   through the pair's ends and the next N − 2 pairs' origins)
/// - `transit --store S --od OD-TRANSIT.json [--runs N] [--out FILE.jsonl]`
/// - `realtime --store S --od OD-TRANSIT.json [--runs N]`: journeys on a feed delaying a third
///   of the trips against the timetable alone, and 1,000 trip updates applied
/// - `table --store S --od OD.json [--size 100] [--runs N] [--modes …] [--out DIR]`
/// - `isochrone --store S --od OD.json [--count 20] [--minutes 5,10] [--runs N] [--modes …] [--out DIR]`
/// - `relief --store S [--interval 50] [--runs 3]`: the terrain's heights, hillshade and
///   contours over the store's finest elevation model, as GDAL's tools over a file
/// - `match --store S --od OD.json [--traces 10] [--points 1000] [--noise 10] [--runs N] [--modes …] [--out DIR]`
/// - `nearest --store S --od OD.json [--runs N] [--modes …] [--out DIR]`: the nearest road of
///   every origin and destination
let optionBenchmarks: [String: ([String]) throws -> Void] = [
    "stores": StoreBench.run, "synthetic": SyntheticExtract.run, "geocode": GeocodeBench.run,
    "route": RouteBench.run, "transit": TransitBench.run, "realtime": RealtimeBench.run, "table": TableBench.run,
    "isochrone": IsochroneBench.run, "match": MatchBench.run, "edits": EditsBench.run,
    "relief": ReliefBench.run, "nearest": NearestBench.run,
]

if let name = CommandLine.arguments.dropFirst().first, let benchmark = optionBenchmarks[name] {
    do { try benchmark(Array(CommandLine.arguments.dropFirst(2))) } catch {
        print("\(name): \(error)")
        exit(1)
    }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "pbf" {
    // openmaps-bench pbf FILE…: PBF decoding next to osmium.
    PBFBench.run(files: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "tiles" {
    // openmaps-bench tiles [--runs N] [--peer-results DIR] FILE…: tiles per second next to Mapnik.
    var files: [String] = []
    var runs = 3
    var peerResults: String?
    var arguments = CommandLine.arguments.dropFirst(2).makeIterator()
    while let argument = arguments.next() {
        switch argument {
        case "--runs": runs = arguments.next().flatMap { Int($0) } ?? runs
        case "--peer-results": peerResults = arguments.next()
        default: files.append(argument)
        }
    }
    TileBench.run(files: files, runs: max(runs, 1), zooms: 12...16, peerResults: peerResults)
    exit(0)
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let corpus = Corpus.make(count: options.urls)
if CommandLine.arguments.contains("--profile") {
    // Ours only, for a profiler: `valgrind --tool=callgrind openmaps-bench --profile`.
    let urls = ProcessInfo.processInfo.environment["BENCH_URL"].map { Array(repeating: $0, count: 10000) } ?? corpus
    var checksum = 0
    let passes = Int(ProcessInfo.processInfo.environment["PROFILE_PASSES"] ?? "") ?? 20
    for _ in 0..<passes { for url in urls { checksum &+= MapsURLParser.parse(url).diagnostics.count } }
    print(checksum)
    exit(0)
}
let agreeing = corpus.filter { MapsURLParser.parse($0).request == FoundationBaseline.parse($0) }.count
let rejectedByUs = corpus.filter { MapsURLParser.parse($0).request == nil }.count

// Each side's result is consumed through a cheap field, not compared whole: comparing an
// optional request with nil would copy it.
let ours = measure(corpus, seconds: options.seconds) { url in
    let parsed = MapsURLParser.parse(url)
    return parsed.diagnostics.count &+ (parsed.form == nil ? 0 : 1)
}
let baseline = measure(corpus, seconds: options.seconds) { url in
    FoundationBaseline.parse(url)?.zoom == nil ? 0 : 1
}

func rate(_ value: Double) -> String { String(format: "%12.0f URLs/s  %7.1f ns/URL", value, 1e9 / value) }
print("link parsing, one core, \(corpus.count) URLs of 16 families (best of 3 rounds of \(options.seconds / 3) s)")
print("  openmaps MapsURLParser    \(rate(ours.rate))")
print("  Foundation URLComponents  \(rate(baseline.rate))")
print(String(format: "  ratio                     %12.2fx", ours.rate / baseline.rate))
print("  requests equal to the baseline's: \(agreeing)/\(corpus.count); rejected by ours: \(rejectedByUs)")
print("  checksums \(ours.checksum) \(baseline.checksum)")
print()
ProjectionBench.run(seconds: options.seconds)

if CommandLine.arguments.contains("--families") {
    for family in 0..<16 {
        let subset = stride(from: family, to: corpus.count, by: 16).map { corpus[$0] }
        let result = measure(subset, seconds: 0.3) { MapsURLParser.parse($0).diagnostics.count }
        print("  family \(family): \(rate(result.rate))  \(subset[0].prefix(60))")
    }
}

if CommandLine.arguments.contains("--fixed") {
    for url in [
        "comgooglemaps://", "comgooglemaps://?zoom=3", "comgooglemaps://?q=Pizza", "https://goo.gl/maps/AbC123xyz",
    ] {
        let result = measure(Array(repeating: url, count: 1000), seconds: 0.3) {
            MapsURLParser.parse($0).diagnostics.count
        }
        print("  \(rate(result.rate))  \(url)")
    }
    print(
        "MapsRequest \(MemoryLayout<MapsRequest>.size) bytes, ParsedMapsURL \(MemoryLayout<ParsedMapsURL>.size) bytes")
}
