import Foundation
import GeoCore
import Routing

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

    /// `--modes`, comma-separated travel modes, or `fallback` when it is absent.
    ///
    /// - Throws: ``BenchError`` naming a mode that is not one, or for an empty list.
    func modes(or fallback: [TravelProfile.Mode]) throws -> [TravelProfile.Mode] {
        guard let list = values["--modes"] else { return fallback }
        let names = list.split(separator: ",")
        guard !names.isEmpty else { throw BenchError("--modes: no travel mode given") }
        return try names.map { name in
            guard let mode = TravelProfile.Mode(rawValue: String(name)) else {
                throw BenchError(
                    "--modes: no travel mode \"\(name)\" (one of \(TravelProfile.Mode.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            return mode
        }
    }
}

/// A benchmark that cannot run, and why.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An origin–destination set in the peers' format (`../shared/bench`): a dataset name and
/// pairs of `[longitude, latitude]` points with an id; malformed pairs (a point missing, or off
/// the globe) are skipped.
struct ODSet {
    var dataset: String
    var pairs: [(id: Int, origin: Coordinate, destination: Coordinate)]

    /// - Throws: ``BenchError`` when the file cannot be read, is not a JSON object, or holds no
    ///   well-formed pair.
    init(path: String) throws {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw BenchError("cannot read the O-D set \(path.isEmpty ? "(no --od given)" : path)")
        }
        guard let set = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw BenchError("the O-D set \(path) is not a JSON object")
        }
        /// A `[longitude, latitude]` point on the globe, else nil.
        func point(_ value: Any?) -> Coordinate? {
            guard let pair = value as? [Double], pair.count >= 2, (-180...180).contains(pair[0]),
                (-90...90).contains(pair[1])
            else { return nil }
            return Coordinate(latitude: pair[1], longitude: pair[0])
        }
        dataset = set["dataset"] as? String ?? "od"
        pairs = (set["pairs"] as? [[String: Any]] ?? []).compactMap { pair in
            guard let id = pair["id"] as? Int, let origin = point(pair["origin"]),
                let destination = point(pair["destination"])
            else { return nil }
            return (id, origin, destination)
        }
        guard !pairs.isEmpty else { throw BenchError("the O-D set \(path) holds no pair of points on the globe") }
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
