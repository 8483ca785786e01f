import Foundation
import OSMReader

/// Extract reading throughput (PBF, and OSM XML plain or compressed), side by side with
/// osmium on the same files in one run.
enum PBFBench {
    static func run(files: [String], rounds: Int = 3) {
        let osmium = findExecutable("osmium")
        print("OSM extract reading, best of \(rounds) full reads per file (all elements with tags; XML on one core)")
        print(
            "  file                                  MB  elements   openmaps 1 core   openmaps \(ProcessInfo.processInfo.activeProcessorCount) cores"
                + (osmium == nil ? "" : "   osmium fileinfo -e   osmium cat opl   ratio vs fileinfo, vs cat"))
        for file in files {
            guard let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int else {
                print("  \(file): cannot read")
                continue
            }
            do {
                let extract = try OSMFile(path: file)
                let summary = try extract.summary()
                let elements = summary.nodes + summary.ways + summary.relations
                let single: Double
                let all: Double
                if extract.format == .pbf && extract.compression == "none" {
                    var reader = try PBFReader(path: file)
                    reader.threads = 1
                    single = try best(rounds) { _ = try reader.summary() }
                    reader.threads = ProcessInfo.processInfo.activeProcessorCount
                    all = try best(rounds) { _ = try reader.summary() }
                } else {
                    single = try best(rounds) { _ = try extract.summary() }
                    all = single
                }
                let name = URL(fileURLWithPath: file).lastPathComponent.padding(
                    toLength: 34, withPad: " ", startingAt: 0)
                var line = String(
                    format: "  %@ %5.2f %9d  %7.1f M/s %5.0f MB/s  %7.1f M/s %5.0f MB/s", name,
                    Double(size) / 1e6, elements, Double(elements) / single / 1e6, Double(size) / single / 1e6,
                    Double(elements) / all / 1e6, Double(size) / all / 1e6)
                if let osmium {
                    let info = try best(rounds) { try runQuietly(osmium, ["fileinfo", "-e", file]) }
                    let cat = try best(rounds) {
                        try runQuietly(osmium, ["cat", "-f", "opl", "-o", "/dev/null", "--overwrite", file])
                    }
                    line += String(
                        format: "   %7.1f M/s %5.3f s  %7.1f M/s %5.3f s   %5.2fx %5.2fx",
                        Double(elements) / info / 1e6,
                        info, Double(elements) / cat / 1e6, cat, info / all, cat / all)
                }
                print(line)
            } catch {
                print("  \(file): \(error)")
            }
        }
    }

    /// The fastest of `rounds` runs of `body`, seconds.
    private static func best(_ rounds: Int, _ body: () throws -> Void) throws -> Double {
        var fastest = Double.infinity
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            try body()
            fastest = min(fastest, Statistics.seconds(since: start))
        }
        return fastest
    }

    /// Runs a command with its output discarded and waits for it with `waitpid` (Foundation's
    /// `Process.waitUntilExit` polls in 50 ms steps, too coarse for these timings).
    private static func runQuietly(_ executable: String, _ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard status == 0 else { throw CocoaError(.executableLoad) }
        var exitStatus: Int32 = 0
        waitpid(pid, &exitStatus, 0)
    }

    private static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
