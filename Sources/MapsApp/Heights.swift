import Foundation
import GeoCore
import MapData

/// What the app asks of the elevation models: heights at points.
public protocol HeightFinding: Sendable {
    /// The height at each point from the finest model covering it, nil where none does.
    func heights(at points: [Coordinate]) throws -> [Elevation.Sample?]
}

/// ``HeightFinding`` on the store's imported models, on a pooled connection.
public struct StoreHeights: HeightFinding, Sendable {
    let connections: StorePool

    public func heights(at points: [Coordinate]) throws -> [Elevation.Sample?] {
        try connections.with { try Elevation.heights(at: points, in: $0) }
    }
}

/// Heights asked for as Google's Elevation API asks: `locations` (`lat,lng|lat,lng…` or an
/// encoded polyline `enc:…`), or a `path` in the same forms with a number of `samples` spread
/// evenly along it, ends included.
public struct ElevationQuery: Sendable, Equatable {
    /// The points asked for, in order.
    public var points: [Coordinate]

    /// At most this many points a request: 512, as Google's API.
    public static let maxPoints = 512

    /// Reads the request's parameters (Google's names).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the parameter and what is wrong
    ///   with it: neither or both of `locations` and `path`, a point that is not a latitude and
    ///   longitude, a polyline that does not decode, `samples` missing or out of 2...512 for a
    ///   path, more than ``maxPoints`` points.
    public init(locations: String?, path: String?, samples: String?) throws(AppError) {
        switch (locations, path) {
        case (let text?, nil):
            points = try Self.points(text, name: "locations")
        case (nil, let text?):
            let line = try Self.points(text, name: "path")
            guard let samples, let count = Int(samples), (2...Self.maxPoints).contains(count) else {
                throw .invalidOption(
                    "samples",
                    message:
                        "a path needs 'samples', a whole number from 2 to \(Self.maxPoints), not '\(samples ?? "")'")
            }
            guard line.count >= 2 else {
                throw .invalidOption("path", message: "a path needs at least two points, not \(line.count)")
            }
            points = Self.spread(count, along: line)
        case (nil, nil):
            throw .invalidOption("locations", message: "give 'locations' (or a 'path' with 'samples')")
        case (.some, .some):
            throw .invalidOption("path", message: "give 'locations' or a 'path', not both")
        }
        guard points.count <= Self.maxPoints else {
            throw .invalidOption(
                locations != nil ? "locations" : "path",
                message: "at most \(Self.maxPoints) points a request, not \(points.count)")
        }
    }

    /// Points written as `lat,lng|lat,lng…` or `enc:` and an encoded polyline.
    static func points(_ text: String, name: String) throws(AppError) -> [Coordinate] {
        if text.hasPrefix("enc:") {
            guard let line = EncodedPolyline.decode(String(text.dropFirst(4))), !line.isEmpty,
                line.allSatisfy(\.isValid)
            else { throw .invalidOption(name, message: "the encoded polyline '\(text)' does not decode") }
            return line
        }
        var points: [Coordinate] = []
        for (index, part) in text.split(separator: "|", omittingEmptySubsequences: false).enumerated() {
            guard let point = Coordinate.parsePair(part.trimmingCharacters(in: .whitespaces)[...]), point.isValid else {
                throw .invalidOption(
                    name, message: "point \(index + 1), '\(part)', is not a latitude and longitude ('lat,lng')")
            }
            points.append(point)
        }
        return points
    }

    /// `count` points evenly spaced along `line` by distance, its ends included.
    static func spread(_ count: Int, along line: [Coordinate]) -> [Coordinate] {
        let legs = zip(line, line.dropFirst()).map { $0.distance(to: $1) }
        let total = legs.reduce(0, +)
        guard total > 0 else { return Array(repeating: line[0], count: count) }
        var points: [Coordinate] = []
        var leg = 0
        var before = 0.0
        for index in 0..<count {
            let wanted = total * Double(index) / Double(count - 1)
            while leg < legs.count - 1 && before + legs[leg] < wanted {
                before += legs[leg]
                leg += 1
            }
            let fraction = legs[leg] > 0 ? min(max((wanted - before) / legs[leg], 0), 1) : 0
            let (a, b) = (line[leg], line[leg + 1])
            points.append(
                Coordinate(
                    latitude: a.latitude + (b.latitude - a.latitude) * fraction,
                    longitude: a.longitude + (b.longitude - a.longitude) * fraction))
        }
        return points
    }
}

/// The heights found for a query, point by point.
public struct ElevationAnswer: Sendable, Equatable {
    /// Each point asked for and its height, nil where no imported model covers it.
    public var results: [(point: Coordinate, sample: Elevation.Sample?)]

    public static func == (a: ElevationAnswer, b: ElevationAnswer) -> Bool {
        a.results.map(\.point) == b.results.map(\.point) && a.results.map(\.sample) == b.results.map(\.sample)
    }

    /// Google's status: `OK` when every point has a height, `DATA_NOT_AVAILABLE` when some
    /// have none (those results carry no `elevation`).
    public var status: String { results.allSatisfy { $0.sample != nil } ? "OK" : "DATA_NOT_AVAILABLE" }

    /// The answer as Google's Elevation API writes it: `results` (`elevation` in metres,
    /// `location` with `lat` and `lng`, `resolution` in metres) and `status`.
    public var googleDocument: String {
        let rows: [[String: Any]] = results.map { result in
            var row: [String: Any] = ["location": ["lat": result.point.latitude, "lng": result.point.longitude]]
            if let sample = result.sample {
                row["elevation"] = (sample.metres * 100).rounded() / 100
                row["resolution"] = (sample.resolution * 100).rounded() / 100
            }
            return row
        }
        return JSONText.pretty(["results": rows, "status": status])
    }

    /// Google's refusal of a request: `INVALID_REQUEST` with the reason.
    public static func googleRefusal(_ message: String) -> String {
        JSONText.pretty(["error_message": message, "results": [Any](), "status": "INVALID_REQUEST"])
    }
}

extension MapsApp {
    /// The heights at the query's points, from the store's imported elevation models.
    ///
    /// - Throws: ``AppError/engineMissing(_:)`` without a store of models,
    ///   ``AppError/engineFailed(_:underlying:)`` when reading them fails.
    public func elevation(_ query: ElevationQuery) throws(AppError) -> ElevationAnswer {
        guard let heights else { throw .engineMissing("elevation model") }
        let samples: [Elevation.Sample?]
        do { samples = try heights.heights(at: query.points) } catch {
            throw .engineFailed("reading the elevation models", underlying: error)
        }
        return ElevationAnswer(results: Array(zip(query.points, samples)).map { (point: $0.0, sample: $0.1) })
    }
}
