/// Douglas–Peucker line simplification in a plane: the points of a line or ring that can be
/// dropped without the line kept passing further than a tolerance from them.
public enum Simplification {
    /// How a dropped point's distance from the line kept is measured.
    public enum Measure: Sendable {
        /// To the segment kept across it (its ends the nearest points past them).
        case segment
        /// To the line through the segment's ends, however far past them.
        case line
    }

    /// The indices of `points` kept, ascending: none dropped lies further than `tolerance` (in
    /// the points' units) from the line kept across it, by `measure`. The ends are always kept,
    /// and for a `closed` ring (its first point repeated last) the point farthest from the first
    /// too, so that neither half is a loop. Iterative, so a long line cannot overflow the stack.
    public static func keptIndices(
        _ points: [(x: Double, y: Double)], tolerance: Double, closed: Bool, measure: Measure = .segment
    ) -> [Int] {
        guard points.count > 2, tolerance > 0 else { return Array(points.indices) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack: [(Int, Int)] = []
        if closed {
            var far = 1
            var best = 0.0
            for index in 1..<points.count {
                let d = squaredDistance(points[index], points[0])
                if d > best { (best, far) = (d, index) }
            }
            keep[far] = true
            stack = [(0, far), (far, points.count - 1)]
        } else {
            stack = [(0, points.count - 1)]
        }
        let limit = tolerance * tolerance
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first
            var best = 0.0
            for index in (first + 1)..<last {
                let d =
                    measure == .segment
                    ? squaredSegmentDistance(points[index], points[first], points[last])
                    : squaredLineDistance(points[index], points[first], points[last])
                if d > best { (best, farthest) = (d, index) }
            }
            if best > limit {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return points.indices.filter { keep[$0] }
    }

    /// The points ``keptIndices(_:tolerance:closed:)`` keeps.
    public static func douglasPeucker(_ points: [(x: Double, y: Double)], tolerance: Double, closed: Bool) -> [(
        x: Double, y: Double
    )] {
        keptIndices(points, tolerance: tolerance, closed: closed).map { points[$0] }
    }

    static func squaredDistance(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
    }

    /// The squared distance from `p` to the line through `a` and `b` (to `a` where they meet).
    static func squaredLineDistance(
        _ p: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)
    ) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length = dx * dx + dy * dy
        guard length > 0 else { return squaredDistance(p, a) }
        let cross = dx * (a.y - p.y) - dy * (a.x - p.x)
        return cross * cross / length
    }

    /// The squared distance from `p` to the segment `a`–`b`.
    static func squaredSegmentDistance(
        _ p: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)
    ) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length = dx * dx + dy * dy
        guard length > 0 else { return squaredDistance(p, a) }
        let t = min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length, 0), 1)
        return squaredDistance(p, (a.x + t * dx, a.y + t * dy))
    }
}
