import Foundation
import GeoCore

/// Turns coordinates into one tile's grid: projects them (Web Mercator), simplifies lines and
/// rings for the zoom (Douglas–Peucker), clips them to the tile and its buffer, rounds them to
/// whole units and drops what is too small to see.
///
/// Lines are clipped segment by segment (Liang–Barsky), so a line leaving and re-entering the
/// tile becomes several; rings are clipped against the buffered square one edge at a time
/// (Sutherland–Hodgman), which keeps them closed and simple inside the tile; whatever the clip
/// adds runs along the buffer's edge, outside what a client draws. Exterior rings come out
/// clockwise on screen and holes counter-clockwise, as MVT 2.1 requires.
public struct TileGeometryBuilder: Sendable {
    /// The tile.
    public let tile: TileID
    /// Grid units a side: ``VectorTile/extent``.
    public let extent: Double
    /// Grid units kept beyond each edge: 64 (4 pixels of a 256-pixel tile), so that strokes
    /// and fills meet seamlessly across tile edges.
    public let buffer: Double
    /// Douglas–Peucker tolerance in grid units: 8 (half a pixel of a 256-pixel tile) below the
    /// archive's top zoom, 1 at it (clients zoom past it into the same geometry).
    public let tolerance: Double
    /// Rings and areas smaller than this many square units are dropped: 512 (2 pixels²) below
    /// the top zoom, 16 at it.
    public let minimumArea: Double

    private let worldSize: Double
    private let originX: Double
    private let originY: Double

    /// A builder for `tile`, whose archive's top zoom is `maxZoom` (details dropped below it).
    public init(tile: TileID, maxZoom: Int = VectorTileSchema.maxZoom, extent: UInt32 = VectorTile.extent) {
        self.tile = tile
        self.extent = Double(extent)
        buffer = self.extent / 64
        let top = tile.z >= maxZoom
        tolerance = top ? 1 : 8
        minimumArea = top ? 16 : 512
        worldSize = self.extent * exp2(Double(tile.z))
        originX = Double(tile.x) * self.extent
        originY = Double(tile.y) * self.extent
    }

    /// The coordinates covered by the tile and its buffer (what to read from the store).
    public var bufferedBounds: CoordinateBounds {
        let northWest = WebMercator.unproject(
            WorldPoint(x: originX - buffer, y: originY - buffer), worldSize: worldSize)
        let southEast = WebMercator.unproject(
            WorldPoint(x: originX + extent + buffer, y: originY + extent + buffer), worldSize: worldSize)
        return CoordinateBounds(
            southWest: Coordinate(latitude: southEast.latitude, longitude: max(northWest.longitude, -180)),
            northEast: Coordinate(latitude: northWest.latitude, longitude: min(southEast.longitude, 180)))
    }

    /// `coordinate` in the tile's grid, unrounded.
    public func project(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        let world = WebMercator.project(coordinate, worldSize: worldSize)
        return (world.x - originX, world.y - originY)
    }

    /// The point in the grid, nil when it lies outside the tile (labels are placed in the one
    /// tile their point is in, so that no two tiles show the same one).
    public func point(_ coordinate: Coordinate) -> TilePoint? {
        let (x, y) = project(coordinate)
        guard x >= 0 && x < extent && y >= 0 && y < extent else { return nil }
        return TilePoint(x: Int32(x.rounded()), y: Int32(y.rounded()))
    }

    /// The parts of `line` in the tile and its buffer, simplified; empty when none is left.
    public func lines(_ line: [Coordinate]) -> [[TilePoint]] {
        let projected = simplified(line.map(project), closed: false)
        return clipLine(projected).map(rounded).filter { $0.count >= 2 }
    }

    /// `rings` (the exterior first, then its holes) clipped to the tile and its buffer less
    /// `inset` units, simplified and wound as MVT requires; nil when the exterior has nothing
    /// left to draw.
    public func polygon(_ rings: [[Coordinate]], inset: Double = 0) -> [[TilePoint]]? {
        var result: [[TilePoint]] = []
        let degrees = bufferedBounds
        for (index, ring) in rings.enumerated() {
            // Long rings (a coastline) are cut to the tile's box in degrees first, so that only
            // what is near the tile is projected and simplified.
            var source = ring.map { (x: $0.longitude, y: $0.latitude) }
            if source.count > Self.longRing, let southWest = degrees.southWest, let northEast = degrees.northEast {
                let margin = (northEast.latitude - southWest.latitude) * 0.01
                source = Self.clip(
                    source, x: (southWest.longitude - margin)...(northEast.longitude + margin),
                    y: (southWest.latitude - margin)...(northEast.latitude + margin))
            }
            var points = source.map { project(Coordinate(latitude: $0.y, longitude: $0.x)) }
            if points.count > 1, points.first! == points.last! { points.removeLast() }
            points = simplified(points, closed: true)
            guard points.count >= 3 else {
                if index == 0 { return nil }
                continue
            }
            var clipped = rounded(clipRing(points, inset: inset))
            if clipped.count > 1 && clipped.first == clipped.last { clipped.removeLast() }
            let area = TileGeometry.area(clipped)
            guard clipped.count >= 3, abs(area) >= minimumArea else {
                if index == 0 { return nil }
                continue
            }
            // The exterior clockwise on screen (positive area), holes the other way.
            if (index == 0) != (area > 0) { clipped.reverse() }
            result.append(clipped)
        }
        return result.isEmpty ? nil : result
    }

    /// The square the tile and its buffer cover, in grid units, clockwise on screen.
    public var bufferSquare: [TilePoint] {
        let low = Int32(-buffer), high = Int32(extent + buffer)
        return [
            TilePoint(x: low, y: low), TilePoint(x: high, y: low), TilePoint(x: high, y: high),
            TilePoint(x: low, y: high),
        ]
    }

    private func rounded(_ points: [(x: Double, y: Double)]) -> [TilePoint] {
        VectorTile.Layer.deduplicated(points.map { TilePoint(x: Int32($0.x.rounded()), y: Int32($0.y.rounded())) })
    }

    /// Douglas–Peucker with ``tolerance``, iterative; the ends (and, for a ring, the point
    /// farthest from the first) are always kept.
    func simplified(_ points: [(x: Double, y: Double)], closed: Bool) -> [(x: Double, y: Double)] {
        guard points.count > 2, tolerance > 0 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack: [(Int, Int)] = []
        if closed {
            // Split the ring at its farthest point from the first so both halves have ends.
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
                let d = segmentDistance(points[index], points[first], points[last])
                if d > best { (best, farthest) = (d, index) }
            }
            if best > limit {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    private func squaredDistance(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
    }

    /// The squared distance from `p` to the segment `a`–`b`.
    private func segmentDistance(_ p: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double))
        -> Double
    {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        guard length > 0 else { return squaredDistance(p, a) }
        let t = min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length, 0), 1)
        return squaredDistance(p, (a.x + t * dx, a.y + t * dy))
    }

    /// The pieces of a polyline inside the buffered square (Liang–Barsky on each segment).
    private func clipLine(_ points: [(x: Double, y: Double)]) -> [[(x: Double, y: Double)]] {
        let low = -buffer, high = extent + buffer
        var pieces: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        for index in 1..<max(points.count, 1) {
            let a = points[index - 1], b = points[index]
            let dx = b.x - a.x, dy = b.y - a.y
            var t0 = 0.0, t1 = 1.0
            var visible = true
            for (p, q) in [(-dx, a.x - low), (dx, high - a.x), (-dy, a.y - low), (dy, high - a.y)] {
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
        return pieces
    }

    /// Rings longer than this many points are cut to the tile in degrees before they are
    /// projected: 1,000.
    static let longRing = 1_000

    /// A ring clipped to the buffered square less `inset` units.
    private func clipRing(_ ring: [(x: Double, y: Double)], inset: Double) -> [(x: Double, y: Double)] {
        let low = -buffer + inset, high = extent + buffer - inset
        return Self.clip(ring, x: low...high, y: low...high)
    }

    /// A ring clipped to the box `x` × `y`, one edge at a time (Sutherland–Hodgman).
    static func clip(_ ring: [(x: Double, y: Double)], x: ClosedRange<Double>, y: ClosedRange<Double>) -> [(
        x: Double, y: Double
    )] {
        let (left, right, top, bottom) = (x.lowerBound, x.upperBound, y.lowerBound, y.upperBound)
        // Each edge: is a point inside, and where the segment a–b crosses it.
        let edges: [((Double, Double) -> Bool, (Double, Double, Double, Double) -> (x: Double, y: Double))] = [
            ({ x, _ in x >= left }, { ax, ay, bx, by in (left, ay + (by - ay) * (left - ax) / (bx - ax)) }),
            ({ x, _ in x <= right }, { ax, ay, bx, by in (right, ay + (by - ay) * (right - ax) / (bx - ax)) }),
            ({ _, y in y >= top }, { ax, ay, bx, by in (ax + (bx - ax) * (top - ay) / (by - ay), top) }),
            ({ _, y in y <= bottom }, { ax, ay, bx, by in (ax + (bx - ax) * (bottom - ay) / (by - ay), bottom) }),
        ]
        var output = ring
        for (inside, cross) in edges {
            guard !output.isEmpty else { break }
            let input = output
            output = []
            output.reserveCapacity(input.count + 4)
            var previous = input[input.count - 1]
            for point in input {
                let isIn = inside(point.x, point.y)
                let wasIn = inside(previous.x, previous.y)
                if isIn {
                    if !wasIn { output.append(cross(previous.x, previous.y, point.x, point.y)) }
                    output.append(point)
                } else if wasIn {
                    output.append(cross(previous.x, previous.y, point.x, point.y))
                }
                previous = point
            }
        }
        return output
    }
}
