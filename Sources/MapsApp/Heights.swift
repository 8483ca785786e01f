import CairoKit
import Foundation
import GeoCore
import MapData

/// What the app asks of the elevation models: heights at points.
public protocol HeightFinding: Sendable {
    /// The height at each point from the finest model covering it, nil where none does.
    func heights(at points: [Coordinate]) throws -> [Elevation.Sample?]
    /// A tile's ``Elevation/tileSize``² heights (metres, rows from the north, NaN where no
    /// model reaches), nil where no model covers it.
    func heights(of tile: TileID) throws -> [Float]?
    /// The imported models, finest first.
    func models() throws -> [Elevation.Model]
}

/// ``HeightFinding`` on the store's imported models, on a pooled connection.
public struct StoreHeights: HeightFinding, Sendable {
    let connections: StorePool

    public func heights(at points: [Coordinate]) throws -> [Elevation.Sample?] {
        try connections.with { try Elevation.heights(at: points, in: $0) }
    }

    public func heights(of tile: TileID) throws -> [Float]? {
        try connections.with { try Elevation.tile(tile, in: $0) }
    }

    public func models() throws -> [Elevation.Model] { try connections.with { try $0.elevationModels() } }
}

/// How a terrain tile writes heights as colours, as MapLibre's `raster-dem` sources read them.
public enum TerrainEncoding: String, Sendable, CaseIterable {
    /// Mapbox Terrain-RGB: height = −10,000 + (R × 65,536 + G × 256 + B) × 0.1 m.
    case mapbox
    /// Terrarium (Mapzen): height = R × 256 + G + B ÷ 256 − 32,768 m.
    case terrarium

    /// The colour of `metres` (sea level where there is no height).
    public func rgb(_ metres: Float) -> (UInt8, UInt8, UInt8) {
        let height = metres.isNaN ? 0 : Double(metres)
        switch self {
        case .mapbox:
            let value = UInt32(min(max(((height + 10_000) * 10).rounded(), 0), 16_777_215))
            return (UInt8(value >> 16), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        case .terrarium:
            let shifted = min(max(height + 32_768, 0), 65_535.996)
            let whole = UInt32(shifted.rounded(.down))
            return (
                UInt8(whole >> 8), UInt8(whole & 0xFF), UInt8(min(255, ((shifted - Double(whole)) * 256).rounded()))
            )
        }
    }

    /// The height a colour stands for, metres.
    public func metres(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Double {
        switch self {
        case .mapbox: -10_000 + (Double(r) * 65_536 + Double(g) * 256 + Double(b)) * 0.1
        case .terrarium: Double(r) * 256 + Double(g) + Double(b) / 256 - 32_768
        }
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
                        "must be a whole number from 2 to \(Self.maxPoints) for a path, not '\(samples ?? "")'")
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

    /// The answer as a person reads it, a line a point in `words`' language: the place, its
    /// height and the size of the model's pixels there, or that no model covers it.
    public func lines(_ words: Phrasebook) -> [String] {
        results.map { point, sample in
            let place = "\(DecimalText.format(point.latitude)),\(DecimalText.format(point.longitude))"
            guard let sample else { return words.note("height missing", ["place": place]) }
            return words.note(
                "height",
                ["place": place, "height": words.metres(sample.metres), "resolution": words.metres(sample.resolution)])
        }
    }

    /// What to say when no point has a height, in `words`' language.
    public static func nothingCovered(_ words: Phrasebook) -> String {
        words.note("heights missing", ["command": "openmaps import MODEL.tif"])
    }

    /// Google's refusal of a request the app could not answer: `INVALID_REQUEST` with the
    /// reason for an option it does not take (``ElevationQuery/init(locations:path:samples:)``),
    /// `UNKNOWN_ERROR` for a store that cannot be read or is missing.
    public static func googleRefusal(_ error: AppError) -> (status: String, document: String) {
        let (status, message) =
            if case .invalidOption(let name, let message) = error {
                ("INVALID_REQUEST", "'\(name)': \(message)")
            } else {
                ("UNKNOWN_ERROR", "\(error)")
            }
        return (status, JSONText.pretty(["error_message": message, "results": [Any](), "status": status]))
    }
}

extension MapsApp {
    /// Terrain tiles are made up to this zoom: 15 (deeper, a client magnifies them).
    public static let maxTerrainZoom = 15

    /// The terrain tile `tile` as a PNG of heights in `encoding`, for MapLibre's hillshade and
    /// 3D terrain; nil where no imported model covers it.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` for a tile that does not exist or is
    ///   deeper than ``maxTerrainZoom``, ``AppError/engineMissing(_:)`` without a store of
    ///   models, ``AppError/engineFailed(_:underlying:)`` when reading them fails.
    public func terrainTile(_ tile: TileID, encoding: TerrainEncoding) throws(AppError) -> [UInt8]? {
        guard (0...Self.maxTerrainZoom).contains(tile.z), (0..<(1 << tile.z)).contains(tile.x),
            (0..<(1 << tile.z)).contains(tile.y)
        else {
            throw .invalidOption(
                "tile", message: "\(tile) is not a tile of zooms 0 to \(Self.maxTerrainZoom)")
        }
        guard let heights else { throw .engineMissing("elevation model") }
        let found: [Float]?
        do { found = try heights.heights(of: tile) } catch {
            throw .engineFailed("reading the elevation models", underlying: error)
        }
        guard let found else { return nil }
        var rgb = [UInt8](repeating: 0, count: found.count * 3)
        for (index, metres) in found.enumerated() {
            (rgb[index * 3], rgb[index * 3 + 1], rgb[index * 3 + 2]) = encoding.rgb(metres)
        }
        do { return try PixelPicture.png(rgb: rgb, width: Elevation.tileSize, height: Elevation.tileSize) } catch {
            throw .engineFailed("encoding a terrain tile", underlying: error)
        }
    }

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
