import GeoCore

/// A feature's shape, stored as 1e-7-degree integers (OSM's own precision).
public enum Geometry: Sendable, Equatable {
    case point(Coordinate)
    case line([Coordinate])
    /// Rings: the first is the outer ring, the others holes; each ring closed.
    case polygon([[Coordinate]])
    /// Several lines (a route relation).
    case lines([[Coordinate]])

    /// The type code stored beside the blob.
    public var typeCode: Int64 {
        switch self {
        case .point: return 1
        case .line: return 2
        case .polygon: return 3
        case .lines: return 4
        }
    }

    /// Every coordinate, for bounds.
    var allCoordinates: [Coordinate] {
        switch self {
        case .point(let point): return [point]
        case .line(let line): return line
        case .polygon(let rings), .lines(let rings): return rings.flatMap { $0 }
        }
    }

    /// South-west and north-east corners.
    public var boundingBox: (minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
        var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for coordinate in allCoordinates {
            box.0 = min(box.0, coordinate.latitude)
            box.1 = min(box.1, coordinate.longitude)
            box.2 = max(box.2, coordinate.latitude)
            box.3 = max(box.3, coordinate.longitude)
        }
        return box
    }

    /// The blob: parts as (count, then latitude/longitude pairs), little-endian Int32s.
    public var encoded: [UInt8] {
        var output: [UInt8] = []
        func append(_ ring: [Coordinate]) {
            withUnsafeBytes(of: Int32(ring.count).littleEndian) { output.append(contentsOf: $0) }
            CoordinatePairs.append(ring, to: &output)
        }
        switch self {
        case .point(let point): append([point])
        case .line(let line): append(line)
        case .polygon(let rings), .lines(let rings): rings.forEach(append)
        }
        return output
    }

    /// Decodes a blob written by ``encoded``; nil when it is damaged.
    public init?(typeCode: Int64, blob: [UInt8]) {
        guard let geometry = blob.withUnsafeBytes({ Geometry(typeCode: typeCode, bytes: $0) }) else { return nil }
        self = geometry
    }

    /// Decodes the bytes of a blob written by ``encoded`` where they lie (a row of the store,
    /// read in place); nil when they are damaged.
    public init?(typeCode: Int64, bytes blob: UnsafeRawBufferPointer) {
        var parts: [[Coordinate]] = []
        var index = 0
        while index < blob.count {
            guard index + 4 <= blob.count else { return nil }
            let count = Int(Int32(littleEndian: blob.loadUnaligned(fromByteOffset: index, as: Int32.self)))
            index += 4
            guard count >= 0, let ring = CoordinatePairs.read(blob, at: index, count: count) else { return nil }
            index += count * 8
            parts.append(ring)
        }
        switch typeCode {
        case 1: guard let point = parts.first?.first else { return nil }; self = .point(point)
        case 2: guard let line = parts.first else { return nil }; self = .line(line)
        case 3: self = .polygon(parts)
        case 4: self = .lines(parts)
        default: return nil
        }
    }
}

extension Geometry {
    /// True for polygons (areas), false for points and lines.
    public var isArea: Bool {
        if case .polygon = self { true } else { false }
    }

    /// One coordinate that stands for the geometry (where a pin goes): the point itself, a
    /// line's middle vertex, the mean of a polygon's outer ring (its closing vertex counted
    /// once); nil when empty.
    public var anchor: Coordinate? {
        switch self {
        case .point(let coordinate): return coordinate
        case .line(let points): return points.isEmpty ? nil : points[points.count / 2]
        case .lines(let lines): return lines.first.flatMap { $0.isEmpty ? nil : $0[$0.count / 2] }
        case .polygon(let rings):
            guard let outer = rings.first, !outer.isEmpty else { return nil }
            let ring = outer.count > 1 && outer.first == outer.last ? Array(outer.dropLast()) : outer
            let count = Double(ring.count)
            return Coordinate(
                latitude: ring.map(\.latitude).reduce(0, +) / count,
                longitude: ring.map(\.longitude).reduce(0, +) / count)
        }
    }
}

/// Coordinates as little-endian Int32 pairs of 1e-7 degrees (OSM's own precision), latitude
/// first: the store's geometry blobs (``Geometry/encoded``, each part after its count) and the
/// road network's positions.
enum CoordinatePairs {
    /// Appends `coordinates`, 8 bytes each.
    static func append(_ coordinates: [Coordinate], to bytes: inout [UInt8]) {
        for coordinate in coordinates {
            withUnsafeBytes(of: Int32((coordinate.latitude * 1e7).rounded()).littleEndian) { bytes += $0 }
            withUnsafeBytes(of: Int32((coordinate.longitude * 1e7).rounded()).littleEndian) { bytes += $0 }
        }
    }

    /// `count` coordinates from byte `offset`; nil when the bytes end before them.
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> [Coordinate]? {
        guard count <= (bytes.count - offset) / 8 else { return nil }
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(count)
        for position in stride(from: offset, to: offset + count * 8, by: 8) {
            let latitude = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: Int32.self))
            let longitude = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 4, as: Int32.self))
            coordinates.append(Coordinate(latitude: Double(latitude) / 1e7, longitude: Double(longitude) / 1e7))
        }
        return coordinates
    }
}
