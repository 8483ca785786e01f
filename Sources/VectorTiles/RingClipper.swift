import GeoCore

/// A rectangle to clip to, in some plane whose y grows down (a tile's grid, or degrees of
/// longitude east by degrees of latitude south).
struct ClipBox: Sendable {
    var minX: Double
    var maxX: Double
    var minY: Double
    var maxY: Double

    var width: Double { maxX - minX }
    var height: Double { maxY - minY }

    func contains(_ p: (x: Double, y: Double)) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }

    /// True when the box meets the rectangle `other` (edges touching count).
    func meets(_ other: ClipBox) -> Bool {
        other.minX <= maxX && other.maxX >= minX && other.minY <= maxY && other.maxY >= minY
    }

    /// The box's corners, clockwise on screen from the top left.
    var corners: [(x: Double, y: Double)] { [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)] }

    /// The runs of `points` inside the box over the segments `segments` (segment i from point
    /// i to point i + 1; Liang–Barsky on each): a run ends where a segment leaves the box.
    func runs(of points: [(x: Double, y: Double)], segments: Range<Int>, into pieces: inout [[(x: Double, y: Double)]])
    {
        var current: [(x: Double, y: Double)] = []
        for index in segments {
            let a = points[index], b = points[index + 1]
            let dx = b.x - a.x, dy = b.y - a.y
            var t0 = 0.0, t1 = 1.0
            var visible = true
            for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
                if p == 0 {
                    if q < 0 { visible = false }
                } else {
                    let r = q / p
                    if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                }
            }
            if !visible || t0 > t1 {
                if current.count >= 2 { pieces.append(current) }
                current = []
                continue
            }
            let start = (x: a.x + t0 * dx, y: a.y + t0 * dy)
            let end = (x: a.x + t1 * dx, y: a.y + t1 * dy)
            if current.isEmpty || t0 > 0 {
                if current.count >= 2 { pieces.append(current) }
                current = [start]
            }
            current.append(end)
            if t1 < 1 {
                pieces.append(current)
                current = []
            }
        }
        if current.count >= 2 { pieces.append(current) }
    }

    /// ``runs(of:segments:into:)`` as a new list.
    func runs(of points: [(x: Double, y: Double)], segments: Range<Int>) -> [[(x: Double, y: Double)]] {
        var pieces: [[(x: Double, y: Double)]] = []
        runs(of: points, segments: segments, into: &pieces)
        return pieces
    }
}

/// A closed ring, clockwise on screen (y down), with the boxes of its runs of ``runLength``
/// points, so that cutting a long ring (a continent's coast of a million points) to a tile
/// reads only the runs near the tile. The first point is not repeated at the end.
public struct PreparedRing: Sendable {
    /// The ring's points, clockwise, then the first again (so segment i is points i, i + 1).
    let points: [(x: Double, y: Double)]
    /// The box of each run of segments: run k covers segments k·runLength ..< (k+1)·runLength.
    let boxes: [ClipBox]
    /// Points a run: 1,024.
    static let runLength = 1_024

    /// `ring` in the plane, whatever its winding (a counter-clockwise one is reversed).
    init(_ ring: [(x: Double, y: Double)]) {
        var points = ring
        if points.count > 1, points.first! == points.last! { points.removeLast() }
        if TileGeometryBuilder.area(points) < 0 { points.reverse() }
        self.init(clockwise: points)
    }

    /// `ring`, already clockwise.
    init(clockwise ring: [(x: Double, y: Double)]) {
        var points = ring
        if let first = points.first { points.append(first) }
        self.points = points
        var boxes: [ClipBox] = []
        var start = 0
        while start < points.count - 1 {
            let end = min(start + Self.runLength, points.count - 1)
            var box = ClipBox(minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity)
            for point in points[start...end] {
                box.minX = min(box.minX, point.x)
                box.maxX = max(box.maxX, point.x)
                box.minY = min(box.minY, point.y)
                box.maxY = max(box.maxY, point.y)
            }
            boxes.append(box)
            start = end
        }
        self.boxes = boxes
    }

    /// A ring in degrees, as the plane of longitude east by latitude south.
    public init(degrees ring: [Coordinate]) { self.init(ring.map { (x: $0.longitude, y: -$0.latitude) }) }

    /// The ring's points, clockwise (the first not repeated).
    var ring: ArraySlice<(x: Double, y: Double)> { points.dropLast() }

    /// Points in the ring.
    public var count: Int { max(points.count - 1, 0) }

    /// True when `point` is inside the ring (crossing number), reading only the runs whose box
    /// spans the point's y to the right of it.
    func contains(_ point: (x: Double, y: Double)) -> Bool {
        var inside = false
        for (run, box) in boxes.enumerated() where box.minY <= point.y && box.maxY >= point.y && box.maxX >= point.x {
            let start = run * Self.runLength
            let end = min(start + Self.runLength, points.count - 1)
            for index in start..<end {
                let a = points[index], b = points[index + 1]
                if (b.y > point.y) != (a.y > point.y) {
                    let x = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)
                    if point.x < x { inside.toggle() }
                }
            }
        }
        return inside
    }
}

/// Cuts clockwise rings to a rectangle: the runs of a ring inside it are joined by walking the
/// rectangle's edge clockwise from where one leaves to where the next enters (Weiler–Atherton
/// against a rectangle), so a concave ring cut into several parts gives several rings, none
/// doubling back along the edge; a ring holding the whole rectangle gives the rectangle. Only
/// the runs of a ``PreparedRing`` whose box meets the rectangle are read.
struct RingClipper {
    let box: ClipBox

    /// What of `ring` lies inside the box, as clockwise rings.
    func clip(_ ring: PreparedRing) -> [[(x: Double, y: Double)]] {
        guard ring.count >= 3 else { return [] }
        let points = ring.points
        // Every run inside: the ring as it is.
        if ring.boxes.allSatisfy({ box.contains(($0.minX, $0.minY)) && box.contains(($0.maxX, $0.maxY)) }) {
            return [Array(ring.ring)]
        }
        var pieces: [[(x: Double, y: Double)]] = []
        var lastEnd = -1
        for (run, runBox) in ring.boxes.enumerated() where box.meets(runBox) {
            let start = run * PreparedRing.runLength
            let end = min(start + PreparedRing.runLength, points.count - 1)
            // A run going on from the previous one carries its open piece on.
            var found: [[(x: Double, y: Double)]] = []
            box.runs(of: points, segments: start..<end, into: &found)
            if start == lastEnd, let open = pieces.last, let first = found.first, first[0] == points[start],
                open[open.count - 1] == first[0]
            {
                pieces[pieces.count - 1] += first.dropFirst()
                found.removeFirst()
            }
            pieces += found
            lastEnd = end
        }
        if pieces.isEmpty {
            // Nothing of the ring inside: the box is wholly inside it or wholly outside.
            let centre = ((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2)
            return ring.contains(centre) ? [box.corners] : []
        }
        // The run through the ring's first point was cut in two by the start: join them.
        let origin = points[0]
        if pieces.count > 1, box.contains(origin), pieces[0][0] == origin,
            let last = pieces.last, last[last.count - 1] == origin
        {
            let head = pieces.removeFirst()
            pieces[pieces.count - 1] += head.dropFirst()
        }
        return stitch(pieces)
    }

    /// Where a point of the edge lies along it, clockwise from the top-left corner.
    private func position(_ p: (x: Double, y: Double)) -> Double {
        let (w, h) = (box.width, box.height)
        let distances = [abs(p.y - box.minY), abs(p.x - box.maxX), abs(p.y - box.maxY), abs(p.x - box.minX)]
        switch distances.firstIndex(of: distances.min()!)! {
        case 0: return min(max(p.x - box.minX, 0), w)
        case 1: return w + min(max(p.y - box.minY, 0), h)
        case 2: return w + h + min(max(box.maxX - p.x, 0), w)
        default: return (2 * w + h + min(max(box.maxY - p.y, 0), h)).truncatingRemainder(dividingBy: 2 * (w + h))
        }
    }

    /// The rings the runs make, joined along the edge.
    private func stitch(_ pieces: [[(x: Double, y: Double)]]) -> [[(x: Double, y: Double)]] {
        let (w, h) = (box.width, box.height)
        let perimeter = 2 * (w + h)
        let cornerPositions = [0, w, w + h, 2 * w + h]
        let corners = box.corners
        let entries = pieces.map { position($0[0]) }
        let exits = pieces.map { position($0[$0.count - 1]) }
        var used = [Bool](repeating: false, count: pieces.count)
        var rings: [[(x: Double, y: Double)]] = []
        for start in pieces.indices where !used[start] {
            var output: [(x: Double, y: Double)] = []
            var current = start
            for _ in 0...pieces.count {
                used[current] = true
                output += pieces[current]
                // The next run: the first entry clockwise from this exit. An entry at the exit
                // itself counts as a whole turn away: the ring only touched the edge there (a
                // vertex on it), and what lies inside is on the far side.
                var next = current
                var nearest = Double.infinity
                for candidate in pieces.indices {
                    var distance = entries[candidate] - exits[current]
                    if distance <= 1e-9 { distance += perimeter }
                    if distance < nearest { (nearest, next) = (distance, candidate) }
                }
                // The corners passed on the way, in the order met.
                let passed = cornerPositions.indices.map { corner -> (distance: Double, corner: Int) in
                    var distance = cornerPositions[corner] - exits[current]
                    if distance <= 0 { distance += perimeter }
                    return (distance, corner)
                }.filter { $0.distance < nearest }.sorted { $0.distance < $1.distance }
                output += passed.map { corners[$0.corner] }
                current = next
                if current == start || used[current] { break }
            }
            rings.append(output)
        }
        return rings
    }
}
