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
    /// point) in one call, every leg's line sampled ``sampleSpacing`` apart (its own points
    /// among them); nil when any point of the route has none: a route half covered has no
    /// climb to tell. On bridges and in tunnels (``Route/Leg/segmentsOffGround``) the road is
    /// not the ground under it: there the heights go evenly from one end of the structure to
    /// the other, as the cycling speeds on it do.
    public static func measure(_ route: Route, heights: ([Coordinate]) throws -> [Double?]) rethrows -> RouteElevation?
    {
        guard route.geometry.count >= 2 else { return nil }
        let lines = route.legs.map { sampled($0.geometry) }
        let read = try heights(lines.flatMap(\.points))
        guard read.allSatisfy({ $0 != nil }) else { return nil }
        let all = read.map { $0! }
        var legs: [(ascent: Double, descent: Double)] = []
        var atPoints: [Double] = []
        var offset = 0
        for (index, line) in lines.enumerated() {
            var leg = Array(all[offset..<offset + line.points.count])
            levelOffGround(&leg, points: line.points, vertices: line.vertices, route.legs[index].segmentsOffGround)
            legs.append(climb(leg))
            // The route's line joins the legs' with each joint once.
            atPoints += line.vertices.dropFirst(index == 0 ? 0 : 1).map { leg[$0] }
            offset += line.points.count
        }
        return RouteElevation(
            heights: atPoints, ascent: legs.map(\.ascent).reduce(0, +), descent: legs.map(\.descent).reduce(0, +),
            legs: legs)
    }

    /// The heights of a leg's sampled `points` between the ends of each run of segments off
    /// the ground (`offGround`, a flag a segment between two of the leg's own points at
    /// `vertices`), laid evenly by distance between the heights at the run's ends.
    static func levelOffGround(
        _ heights: inout [Double], points: [Coordinate], vertices: [Int], _ offGround: [Bool]
    ) {
        var segment = 0
        while segment < min(offGround.count, vertices.count - 1) {
            guard offGround[segment] else {
                segment += 1
                continue
            }
            var last = segment
            while last + 1 < min(offGround.count, vertices.count - 1) && offGround[last + 1] { last += 1 }
            let (first, end) = (vertices[segment], vertices[last + 1])
            segment = last + 1
            guard end > first + 1 else { continue }
            var along = [0.0]
            for point in first + 1...end {
                along.append(along[along.count - 1] + points[point - 1].distance(to: points[point]))
            }
            let total = along[along.count - 1]
            if total > 0 {
                let (from, to) = (heights[first], heights[end])
                for point in first + 1..<end { heights[point] = from + (to - from) * along[point - first] / total }
            }
        }
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
    public static func dense(_ line: [Coordinate]) -> [Coordinate] { sampled(line).points }

    /// ``dense(_:)``'s points, and where among them each of the line's own points is.
    static func sampled(_ line: [Coordinate]) -> (points: [Coordinate], vertices: [Int]) {
        guard let first = line.first else { return ([], []) }
        var points = [first]
        var vertices = [0]
        for (a, b) in zip(line, line.dropFirst()) {
            let pieces = max(1, Int((a.distance(to: b) / sampleSpacing).rounded(.up)))
            for piece in 1..<pieces {
                let f = Double(piece) / Double(pieces)
                points.append(
                    Coordinate(
                        latitude: a.latitude + (b.latitude - a.latitude) * f,
                        longitude: a.longitude + (b.longitude - a.longitude) * f))
            }
            vertices.append(points.count)
            points.append(b)
        }
        return (points, vertices)
    }
}
