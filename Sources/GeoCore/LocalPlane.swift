import Foundation

/// A flat frame around a point, in metres east (`x`) and north (`y`) of it: the scale of
/// snapping to a road or finding the nearest address, where the earth's curve is a fraction of
/// a percent over a few kilometres.
public struct LocalPlane: Sendable {
    /// The point at (0, 0).
    public let origin: Coordinate
    /// Metres per degree of latitude (the mean, 111,132 m) and of longitude at the origin.
    public static let metresPerDegreeLatitude = 111_132.0
    /// Metres per degree of longitude at the origin's latitude.
    public let metresPerDegreeLongitude: Double

    /// A plane tangent at `origin`.
    public init(around origin: Coordinate) {
        self.origin = origin
        metresPerDegreeLongitude = 111_320.0 * cos(origin.latitude * .pi / 180)
    }

    /// A coordinate's position in the plane, metres east and north of the origin.
    public func point(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        (
            (coordinate.longitude - origin.longitude) * metresPerDegreeLongitude,
            (coordinate.latitude - origin.latitude) * Self.metresPerDegreeLatitude
        )
    }

    /// The coordinate `x` metres east and `y` metres north of the origin (``point(_:)``'s inverse).
    public func coordinate(x: Double, y: Double) -> Coordinate {
        Coordinate(
            latitude: origin.latitude + y / Self.metresPerDegreeLatitude,
            longitude: origin.longitude + x / metresPerDegreeLongitude)
    }

    /// The point of segment `a`–`b` nearest the origin: how far along it lies (0 at `a` to 1 at
    /// `b`), where, and its distance from the origin in metres. A segment of one point gives
    /// that point.
    public func nearest(onSegment a: Coordinate, _ b: Coordinate) -> (
        fraction: Double, point: Coordinate, metres: Double
    ) {
        let (ax, ay) = point(a)
        let (bx, by) = point(b)
        let dx = bx - ax
        let dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / lengthSquared))
        let onto = Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * t,
            longitude: a.longitude + (b.longitude - a.longitude) * t)
        let x = ax + t * dx
        let y = ay + t * dy
        return (t, onto, (x * x + y * y).squareRoot())
    }
}
