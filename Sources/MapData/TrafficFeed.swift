import Foundation

/// Road congestion keyed by OpenStreetMap way id, read from a traffic feed file: UTF-8
/// text, one road a line as `WAY_ID,LEVEL`, where LEVEL is `free`, `moderate`, `heavy` or
/// `stopped`; blank lines and lines starting with `#` are ignored, and a first line
/// `way_id,congestion` is a header. A way listed twice takes its last level.
/// (`docs/traffic-feed.md` describes the format for feed producers.)
public struct TrafficFeed: Sendable, Equatable {
    /// How congested a road is, from flowing freely to standing still.
    public enum Congestion: String, Sendable, CaseIterable {
        case free, moderate, heavy, stopped
    }

    /// Congestion by OSM way id.
    public private(set) var levels: [Int64: Congestion]

    /// A feed of these congestion levels, by OSM way id.
    public init(levels: [Int64: Congestion] = [:]) { self.levels = levels }

    /// The feed in the text of a file; `path` names it in errors.
    public init(text: String, path: String = "traffic feed") throws(DataError) {
        var levels: [Int64: Congestion] = [:]
        var sawRoad = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") || (!sawRoad && line == "way_id,congestion") { continue }
            sawRoad = true
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let place = "\(path):\(index + 1)"
            guard fields.count == 2 else {
                throw DataError(
                    .invalidData, message: "\(place): expected WAY_ID,LEVEL, found \(fields.count) fields in '\(line)'")
            }
            guard let id = Int64(fields[0]), id > 0 else {
                throw DataError(
                    .invalidData,
                    message: "\(place): '\(fields[0])' is not an OpenStreetMap way id (a positive whole number)")
            }
            guard let level = Congestion(rawValue: fields[1].lowercased()) else {
                throw DataError(
                    .invalidData,
                    message:
                        "\(place): '\(fields[1])' is not a congestion level (\(Congestion.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            levels[id] = level
        }
        self.levels = levels
    }

    /// The feed in the file at `path`.
    public init(contentsOf path: String) throws(DataError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DataError(.file, message: "cannot read the traffic feed", path: path)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw DataError(.invalidData, message: "the traffic feed is not UTF-8 text", path: path)
        }
        try self.init(text: text, path: path)
    }

    /// The congestion of a way, or nil when the feed does not list it.
    public subscript(way id: Int64) -> Congestion? { levels[id] }
}
