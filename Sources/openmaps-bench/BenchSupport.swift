import Foundation
import GeoCore

/// A benchmark's `--name value` options, read in pairs from the first argument; the last of a
/// repeated name counts, and an odd one out at the end is ignored.
struct BenchFlags {
    private var values: [String: String] = [:]

    init(_ arguments: [String]) {
        for index in stride(from: 0, to: arguments.count - 1, by: 2) { values[arguments[index]] = arguments[index + 1] }
    }

    subscript(_ name: String) -> String? { values[name] }

    /// The option as a whole number, or `fallback` when it is absent or not one.
    func int(_ name: String, or fallback: Int) -> Int { values[name].flatMap { Int($0) } ?? fallback }

    /// The option as a number, or `fallback` when it is absent or not one.
    func double(_ name: String, or fallback: Double) -> Double { values[name].flatMap { Double($0) } ?? fallback }
}

/// A benchmark that cannot run, and why.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An origin–destination set in the peers' format (`../shared/bench`): a dataset name and
/// pairs of `[longitude, latitude]` points with an id; malformed pairs are skipped.
struct ODSet {
    var dataset: String
    var pairs: [(id: Int, origin: Coordinate, destination: Coordinate)]

    init(path: String) throws {
        let set = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        dataset = set?["dataset"] as? String ?? "od"
        pairs = (set?["pairs"] as? [[String: Any]] ?? []).compactMap { pair in
            guard let id = pair["id"] as? Int, let origin = pair["origin"] as? [Double], origin.count >= 2,
                let destination = pair["destination"] as? [Double], destination.count >= 2
            else { return nil }
            return (
                id, Coordinate(latitude: origin[1], longitude: origin[0]),
                Coordinate(latitude: destination[1], longitude: destination[0])
            )
        }
    }
}

/// The figures every benchmark reports, computed as the peers' benchlib computes them.
enum Statistics {
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The benchlib percentile: linear between the closest ranks.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = p / 100 * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }

    /// Seconds since `start`.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

extension String {
    /// The text left-aligned in a column of `width` characters: `String(format:)` on Linux
    /// ignores the width of `%@`.
    func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
