import Foundation
import GeoCore

/// How a route climbs, from an elevation model: the height at each point of its line, and the
/// metres gone up and down, for the route and each leg.
public struct RouteElevation: Sendable, Equatable {
    /// The height at each point of the route's ``Route/geometry``, metres above sea level.
    public var heights: [Double]
    /// Metres climbed and metres descended along the whole route.
    public var ascent: Double
    public var descent: Double
    /// The same for each leg, in order.
    public var legs: [(ascent: Double, descent: Double)]

    public static func == (a: RouteElevation, b: RouteElevation) -> Bool {
        a.heights == b.heights && a.ascent == b.ascent && a.descent == b.descent
            && a.legs.map(\.ascent) == b.legs.map(\.ascent) && a.legs.map(\.descent) == b.legs.map(\.descent)
    }

    /// How far apart the heights climbs are counted from are taken along a line: 20 m, so a
    /// hill between two distant points of the line is not missed.
    public static let sampleSpacing = 20.0

    /// The elevation of `route`, its heights read by `heights` (nil where no model covers a
    /// point); nil when any point of the route has none: a route half covered has no climb to
    /// tell.
    public static func measure(_ route: Route, heights: ([Coordinate]) throws -> [Double?]) rethrows -> RouteElevation?
    {
        let geometry = route.geometry
        guard geometry.count >= 2 else { return nil }
        let atPoints = try heights(geometry)
        guard atPoints.allSatisfy({ $0 != nil }) else { return nil }
        var legs: [(ascent: Double, descent: Double)] = []
        for leg in route.legs {
            let samples = dense(leg.geometry)
            let read = try heights(samples)
            guard read.allSatisfy({ $0 != nil }) else { return nil }
            legs.append(climb(read.map { $0! }))
        }
        return RouteElevation(
            heights: atPoints.map { $0! }, ascent: legs.map(\.ascent).reduce(0, +),
            descent: legs.map(\.descent).reduce(0, +), legs: legs)
    }

    /// The metres up and down along heights in order.
    public static func climb(_ heights: [Double]) -> (ascent: Double, descent: Double) {
        var up = 0.0
        var down = 0.0
        for (a, b) in zip(heights, heights.dropFirst()) {
            if b > a { up += b - a } else { down += a - b }
        }
        return ((up * 10).rounded() / 10, (down * 10).rounded() / 10)
    }

    /// A line's points with more between them wherever two are farther apart than
    /// ``sampleSpacing``.
    public static func dense(_ line: [Coordinate]) -> [Coordinate] {
        guard let first = line.first else { return [] }
        var points = [first]
        for (a, b) in zip(line, line.dropFirst()) {
            let pieces = max(1, Int((a.distance(to: b) / sampleSpacing).rounded(.up)))
            for piece in 1...pieces {
                let f = Double(piece) / Double(pieces)
                points.append(
                    Coordinate(
                        latitude: a.latitude + (b.latitude - a.latitude) * f,
                        longitude: a.longitude + (b.longitude - a.longitude) * f))
            }
        }
        return points
    }
}
