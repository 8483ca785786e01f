import MapCore

/// Clips projected geometry to a rectangle around the view before it reaches Cairo, whose
/// 24.8 fixed-point device coordinates overflow beyond about ±8 million pixels (a coastline
/// of a continent at zoom 16 reaches that far).
struct ClipBox {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    /// The view's frame grown by `margin` points on every side.
    init(width: Double, height: Double, margin: Double) {
        minX = -margin
        minY = -margin
        maxX = width + margin
        maxY = height + margin
    }

    /// A ring clipped with Sutherland–Hodgman (the box is convex); the result may run along
    /// the box's edges, which even-odd filling treats correctly. Empty when nothing is left.
    func clip(ring: [Point]) -> [Point] {
        var points = ring
        for edge in 0..<4 {
            guard let last = points.last else { return [] }
            var output: [Point] = []
            output.reserveCapacity(points.count + 4)
            var previous = last
            for point in points {
                let inside = isInside(point, edge: edge)
                if inside != isInside(previous, edge: edge) {
                    output.append(intersection(previous, point, edge: edge))
                }
                if inside { output.append(point) }
                previous = point
            }
            points = output
        }
        return points
    }

    /// A line clipped into the pieces inside the box (Liang–Barsky per segment).
    func clip(line: [Point]) -> [[Point]] {
        var pieces: [[Point]] = []
        var current: [Point] = []
        for (start, end) in zip(line, line.dropFirst()) {
            guard let (a, b) = clip(segmentFrom: start, to: end) else {
                if !current.isEmpty { pieces.append(current) }
                current = []
                continue
            }
            if current.isEmpty || current.last != a {
                if !current.isEmpty { pieces.append(current) }
                current = [a]
            }
            current.append(b)
            if b != end {
                pieces.append(current)
                current = []
            }
        }
        if current.count > 1 { pieces.append(current) }
        return pieces.filter { $0.count > 1 }
    }

    private func clip(segmentFrom start: Point, to end: Point) -> (Point, Point)? {
        let dx = end.x - start.x
        let dy = end.y - start.y
        var t0 = 0.0
        var t1 = 1.0
        for (p, q) in [(-dx, start.x - minX), (dx, maxX - start.x), (-dy, start.y - minY), (dy, maxY - start.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                if t0 > t1 { return nil }
            }
        }
        let a = t0 == 0 ? start : Point(x: start.x + t0 * dx, y: start.y + t0 * dy)
        let b = t1 == 1 ? end : Point(x: start.x + t1 * dx, y: start.y + t1 * dy)
        return (a, b)
    }

    private func isInside(_ point: Point, edge: Int) -> Bool {
        switch edge {
        case 0: point.x >= minX
        case 1: point.x <= maxX
        case 2: point.y >= minY
        default: point.y <= maxY
        }
    }

    private func intersection(_ a: Point, _ b: Point, edge: Int) -> Point {
        switch edge {
        case 0, 1:
            let x = edge == 0 ? minX : maxX
            return Point(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
        default:
            let y = edge == 2 ? minY : maxY
            return Point(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y)
        }
    }
}

/// Joins lines that meet end to end (within a tenth of a point) into longer lines, turning
/// pieces around as needed; lines that meet nothing stay as they are.
enum LineMerger {
    static func merge(_ lines: [[Point]]) -> [[Point]] {
        var remaining = lines.filter { $0.count >= 2 }
        var merged: [[Point]] = []
        func meets(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) < 0.1 && abs(a.y - b.y) < 0.1 }
        while var line = remaining.popLast() {
            var grew = true
            while grew {
                grew = false
                for index in remaining.indices.reversed() {
                    let piece = remaining[index]
                    if meets(line.last!, piece.first!) {
                        line += piece.dropFirst()
                    } else if meets(line.last!, piece.last!) {
                        line += piece.reversed().dropFirst()
                    } else if meets(line.first!, piece.last!) {
                        line = piece.dropLast() + line
                    } else if meets(line.first!, piece.first!) {
                        line = piece.reversed().dropLast() + line
                    } else {
                        continue
                    }
                    remaining.remove(at: index)
                    grew = true
                }
            }
            merged.append(line)
        }
        return merged
    }
}
