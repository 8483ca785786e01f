import Foundation

/// A point in Web Mercator world space, in points at some zoom: x grows east from the
/// antimeridian, y grows south from the top edge (85.0511° N).
public struct WorldPoint: Sendable, Hashable {
    /// Points east from the antimeridian, 0 ... the world's size at the zoom projected to.
    public var x: Double
    /// Points south from the top of the projection (about 85.05° N), 0 ... the world's size.
    public var y: Double

    /// A point at (`x`, `y`), in points of the world at some zoom.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Spherical Web Mercator with Google's zoom convention: the whole world is 256 × 256
/// points at zoom 0 and doubles with each zoom level.
public enum WebMercator {
    /// Latitudes beyond this many degrees are clamped before projecting (the square world).
    public static let maxLatitude = 85.051128779806604
    /// Earth radius of the spherical model, metres.
    public static let earthRadius = 6_378_137.0

    /// Side of the world square at `zoom`, in points: 256 · 2^zoom.
    @inline(__always)
    public static func worldSize(zoom: Double) -> Double { 256 * exp2(zoom) }

    /// Projects a coordinate to world points at `zoom`; latitude is clamped to ±``maxLatitude``.
    @inline(__always)
    public static func project(_ coordinate: Coordinate, zoom: Double) -> WorldPoint {
        project(coordinate, worldSize: worldSize(zoom: zoom))
    }

    /// Projects a coordinate into a world of `worldSize` points.
    @inline(__always)
    public static func project(_ coordinate: Coordinate, worldSize: Double) -> WorldPoint {
        let latitude = min(max(coordinate.latitude, -maxLatitude), maxLatitude)
        let phi = latitude * .pi / 180
        let x = (coordinate.longitude + 180) / 360 * worldSize
        // ln(tan(π/4 + φ/2)) = ½·ln((1 + sin φ)/(1 − sin φ)): one sine instead of a tangent.
        let sine = sin(phi)
        let y = (0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)) * worldSize
        return WorldPoint(x: x, y: y)
    }

    /// The coordinate at a world point at `zoom` (longitude not wrapped).
    public static func unproject(_ point: WorldPoint, zoom: Double) -> Coordinate {
        unproject(point, worldSize: worldSize(zoom: zoom))
    }

    /// The coordinate at a world point in a world of `worldSize` points (longitude not wrapped).
    @inline(__always)
    public static func unproject(_ point: WorldPoint, worldSize: Double) -> Coordinate {
        let longitude = point.x / worldSize * 360 - 180
        let latitude = (2 * atan(exp(.pi - 2 * .pi * point.y / worldSize)) - .pi / 2) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Ground distance covered by one point at `latitude` (degrees) and `zoom`, in metres.
    ///
    /// 156,543.034 m at zoom 0 on the equator, 152.874 m at zoom 10.
    public static func metersPerPoint(latitude: Double, zoom: Double) -> Double {
        cos(latitude * .pi / 180) * 2 * .pi * earthRadius / worldSize(zoom: zoom)
    }

    /// The zoom at which `meters` span `points` at `latitude`: log2(cos φ · 2πR · points / (256 · meters)).
    /// The result is not clamped to any zoom range.
    public static func zoom(latitude: Double, meters: Double, points: Double) -> Double {
        log2(cos(latitude * .pi / 180) * 2 * .pi * earthRadius * points / (256 * meters))
    }
}
