import Foundation
import GeoCore

/// Turns coordinates into one tile's grid: projects them (Web Mercator), simplifies lines and
/// rings for the zoom (Douglas–Peucker), clips them to the tile and its buffer, rounds them to
/// whole units and drops what is too small to see.
///
/// Lines are clipped segment by segment (Liang–Barsky), so a line leaving and re-entering the
/// tile becomes several; areas are cut by walking the buffered square's edge between where a
/// ring leaves it and where it next enters (``RingClipper``), so a concave area cut by the
/// edge gives separate polygons. Exterior rings come out
/// clockwise on screen and holes counter-clockwise, as MVT 2.1 requires.
public struct TileGeometryBuilder: Sendable {
    /// The tile.
    public let tile: TileID
    /// Grid units a side: ``VectorTile/extent``.
    public let extent: Double
    /// Grid units kept beyond each edge: 64 (4 pixels of a 256-pixel tile), so that strokes
    /// and fills meet seamlessly across tile edges.
    public let buffer: Double
    /// Douglas–Peucker tolerance in grid units: 4 (half a pixel of a tile drawn 512 pixels a
    /// side) below the archive's top zoom, 1 at it (clients zoom past it into the same
    /// geometry).
    public let tolerance: Double
    /// Rings and areas smaller than this many square units are dropped: 128 (2 square pixels
    /// of a 512-pixel tile) below the top zoom, 16 at it.
    public var minimumArea: Double
    /// Buildings smaller than this many square units are dropped below the top zoom: 1,024
    /// (16 square pixels of a 512-pixel tile, 2 × 2 points of the map drawn at its zoom): the
    /// sheds and kiosks that are a speck there.
    public static let smallestBuilding = 1_024.0

    private let worldSize: Double
    private let originX: Double
    private let originY: Double

    /// A builder for `tile`, whose archive's top zoom is `maxZoom` (details dropped below it).
    public init(tile: TileID, maxZoom: Int = VectorTileSchema.maxZoom, extent: UInt32 = VectorTile.extent) {
        self.tile = tile
        self.extent = Double(extent)
        buffer = self.extent / 64
        let top = tile.z >= maxZoom
        tolerance = top ? 1 : 4
        minimumArea = top ? 16 : 128
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
        return Self.clipPolyline(projected, low: -buffer, high: extent + buffer).map(rounded).filter { $0.count >= 2 }
    }

    /// `rings` (the exterior first, then its holes) clipped to the tile and its buffer less
    /// `inset` units, simplified and wound as MVT requires: the polygons left, each an exterior
    /// and the holes inside it (a concave area cut by the tile's edge may leave several);
    /// empty when nothing is left to draw.
    ///
    /// Holes are clipped a unit inside the exterior's square, so that none touches the edge
    /// the exterior was cut along; a ring whose simplified form crosses itself is kept as it
    /// was instead.
    /// - Parameter simplify: false for data already drawn at the zoom's level of detail (the
    ///   world's coarser layers), whose simplification would only risk rings crossing.
    public func polygons(_ rings: [[Coordinate]], inset: Double = 0, simplify: Bool = true) -> [[[TilePoint]]] {
        polygons(
            rings.map { $0.count > Self.longRing ? .prepared(PreparedRing(degrees: $0)) : .coordinates($0) },
            inset: inset, simplify: simplify)
    }

    /// A ring as ``polygons(_:inset:simplify:)`` takes it: its coordinates, or prepared (a long
    /// ring a caller keeps prepared between tiles).
    public enum RingSource: Sendable {
        case coordinates([Coordinate])
        case prepared(PreparedRing)
    }

    /// ``polygons(_:inset:simplify:)`` of rings given as sources.
    public func polygons(_ rings: [RingSource], inset: Double = 0, simplify: Bool = true) -> [[[TilePoint]]] {
        var exteriors: [[TilePoint]] = []
        var holes: [[TilePoint]] = []
        for (index, ring) in rings.enumerated() {
            var parts: [[(x: Double, y: Double)]] = []
            switch ring {
            case .coordinates(let coordinates):
                parts = [coordinates.map(project)]
            case .prepared(let prepared):
                // Cut to the tile's box in degrees first (only the runs near the tile are read),
                // so that only what is near the tile is projected and simplified.
                parts = RingClipper(box: degreeBox).clip(prepared).map { part in
                    part.map { project(Coordinate(latitude: -$0.y, longitude: $0.x)) }
                }
            }
            var pieces: [[TilePoint]] = []
            for var points in parts {
                if points.count > 1, points.first! == points.last! { points.removeLast() }
                guard points.count >= 3 else { continue }
                // Clockwise on screen for the clip, whatever the data's winding.
                if Self.area(points) < 0 { points.reverse() }
                let low = -buffer + inset + (index == 0 ? 0 : 1)
                let high = extent + buffer - inset - (index == 0 ? 0 : 1)
                var cut = clipped(simplify ? simplified(points, closed: true) : points, low: low, high: high)
                if simplify, cut.contains(where: Self.selfIntersects) { cut = clipped(points, low: low, high: high) }
                pieces += cut
            }
            if index == 0 {
                exteriors = pieces
                if exteriors.isEmpty { return [] }
            } else {
                holes += pieces.map { $0.reversed() }
            }
        }
        var polygons = exteriors.map { [$0] }
        for hole in Self.apart(holes) {
            guard let owner = polygons.firstIndex(where: { Self.contains($0[0], hole[0]) }) else { continue }
            polygons[owner].append(hole)
        }
        return polygons
    }

    /// A clockwise ring cut to the square `low...high` a side and rounded: the rings left,
    /// clockwise, each of at least ``minimumArea``.
    private func clipped(_ ring: [(x: Double, y: Double)], low: Double, high: Double) -> [[TilePoint]] {
        guard ring.count >= 3 else { return [] }
        return Self.clipRing(ring, low: low, high: high).flatMap { piece in
            var points = rounded(piece)
            if points.count > 1 && points.first == points.last { points.removeLast() }
            let edge = (low: Int32(low.rounded()), high: Int32(high.rounded()))
            return Self.splitAtRepeats(Self.insertingTouches(points, edge: edge)).flatMap(Self.uncrossed).filter {
                $0.count >= 3 && TileGeometry.area($0) >= minimumArea
            }
        }
    }

    /// `ring` with each of its vertices that lies on the square's edge (`edge.low` or
    /// `edge.high` on either axis) also put into the ring's runs along that edge where they pass
    /// it: a vertex a hair inside the edge rounds onto it, where the run the clip added along
    /// the edge goes by; marked as a second visit, ``splitAtRepeats(_:)`` parts the ring there.
    static func insertingTouches(_ ring: [TilePoint], edge: (low: Int32, high: Int32)) -> [TilePoint] {
        let onEdge = ring.filter { $0.x == edge.low || $0.x == edge.high || $0.y == edge.low || $0.y == edge.high }
        guard onEdge.count > 2 else { return ring }
        var output: [TilePoint] = []
        output.reserveCapacity(ring.count + 4)
        for (index, a) in ring.enumerated() {
            output.append(a)
            let b = ring[(index + 1) % ring.count]
            let horizontal = a.y == b.y && (a.y == edge.low || a.y == edge.high)
            let vertical = a.x == b.x && (a.x == edge.low || a.x == edge.high)
            guard horizontal || vertical else { continue }
            let between = onEdge.filter { point in
                horizontal
                    ? point.y == a.y && point.x > min(a.x, b.x) && point.x < max(a.x, b.x)
                    : point.x == a.x && point.y > min(a.y, b.y) && point.y < max(a.y, b.y)
            }
            // In the order the run meets them.
            output += between.sorted { horizontal ? (($0.x < $1.x) == (a.x < b.x)) : (($0.y < $1.y) == (a.y < b.y)) }
        }
        return output
    }

    /// `ring` split where it comes back to a point it passed (two runs of the edge or of the
    /// data rounded to one grid point): the loops, each a ring of its own, in the ring's
    /// winding (a loop wound the other way is a sliver the rounding turned over).
    static func splitAtRepeats(_ ring: [TilePoint]) -> [[TilePoint]] {
        var loops: [[TilePoint]] = []
        var path: [TilePoint] = []
        var seen: [TilePoint: Int] = [:]
        for point in ring {
            if let start = seen[point] {
                loops.append(Array(path[start...]))
                for dropped in path[(start + 1)...] { seen[dropped] = nil }
                path.removeSubrange((start + 1)...)
            } else {
                seen[point] = path.count
                path.append(point)
            }
        }
        loops.append(path)
        return loops
    }

    /// The signed area of a ring of unrounded grid points (positive clockwise on screen).
    static func area(_ ring: [(x: Double, y: Double)]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += previous.x * point.y - point.x * previous.y
            previous = point
        }
        return sum / 2
    }

    /// `ring` (clockwise on screen) cut to the square `low...high` a side (``RingClipper``).
    static func clipRing(_ ring: [(x: Double, y: Double)], low: Double, high: Double) -> [[(x: Double, y: Double)]] {
        RingClipper(box: ClipBox(minX: low, maxX: high, minY: low, maxY: high)).clip(PreparedRing(clockwise: ring))
    }

    /// The runs of a polyline inside the square `low...high` (Liang–Barsky on each segment).
    static func clipPolyline(_ points: [(x: Double, y: Double)], low: Double, high: Double) -> [[(
        x: Double, y: Double
    )]] {
        ClipBox(minX: low, maxX: high, minY: low, maxY: high).runs(of: points, segments: 0..<max(points.count - 1, 0))
    }

    /// True when `point` is inside `ring` (crossing number).
    static func contains<P>(_ ring: [P], _ point: P) -> Bool where P: GridPoint {
        var inside = false
        var previous = ring[ring.count - 1]
        for vertex in ring {
            if (vertex.gridY > point.gridY) != (previous.gridY > point.gridY) {
                let x =
                    previous.gridX + (point.gridY - previous.gridY) * (vertex.gridX - previous.gridX)
                    / (vertex.gridY - previous.gridY)
                if point.gridX < x { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }

    static func contains(_ ring: [(x: Double, y: Double)], _ point: (Double, Double)) -> Bool {
        contains(ring.map { PlanePoint(x: $0.x, y: $0.y) }, PlanePoint(x: point.0, y: point.1))
    }

    /// `ring` parted where two of its edges cross into the simple loops it makes, each wound
    /// clockwise: the lobes of a figure eight, as an even-odd fill draws them. Rings cross where
    /// data valid in degrees is drawn in Web Mercator (its straight edges are not straight there)
    /// or rounded to the grid; a ring that does not cross comes back as it is.
    static func uncrossed(_ ring: [TilePoint]) -> [[TilePoint]] {
        var pending = [ring]
        var loops: [[TilePoint]] = []
        // Each split leaves two shorter rings; a bound keeps a pathological ring finite.
        var splits = 0
        while let current = pending.popLast() {
            guard splits < 64, let (i, j) = firstCrossing(current) else {
                if current.count >= 3 { loops.append(TileGeometry.area(current) < 0 ? current.reversed() : current) }
                continue
            }
            splits += 1
            let count = current.count
            let crossing = intersection(current[i], current[(i + 1) % count], current[j], current[(j + 1) % count])
            // Edge i runs from i to i+1 and edge j from j to j+1, i < j: one loop is the crossing,
            // i+1 ... j; the other the crossing, j+1 ... i.
            let inner = [crossing] + Array(current[(i + 1)...j])
            let outer = [crossing] + Array(current[(j + 1)...]) + Array(current[...i])
            for loop in [inner, outer] {
                let cleaned = VectorTile.Layer.deduplicated(loop)
                pending.append(cleaned.count > 1 && cleaned.first == cleaned.last ? Array(cleaned.dropLast()) : cleaned)
            }
        }
        return loops
    }

    /// Where segments a–b and c–d meet, rounded to the grid.
    static func intersection(_ a: TilePoint, _ b: TilePoint, _ c: TilePoint, _ d: TilePoint) -> TilePoint {
        let (x1, y1, x2, y2) = (Double(a.x), Double(a.y), Double(b.x), Double(b.y))
        let (x3, y3, x4, y4) = (Double(c.x), Double(c.y), Double(d.x), Double(d.y))
        let denominator = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
        guard denominator != 0 else { return b }
        let t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / denominator
        return TilePoint(x: Int32((x1 + t * (x2 - x1)).rounded()), y: Int32((y1 + t * (y2 - y1)).rounded()))
    }

    /// `holes` (simple rings) with those that would make their polygon invalid left out: a hole
    /// that meets a larger one (their edges cross or touch) or lies inside one. Holes meet where
    /// the data's own inner rings share edges (a car park's islands) or where pieces of land
    /// overlap once simplified and rounded (the sea's holes at low zooms); the larger hole is
    /// kept whole, so what is left out is at most the smaller one's area.
    static func apart(_ holes: [[TilePoint]]) -> [[TilePoint]] {
        guard holes.count > 1 else { return holes }
        let sorted = holes.map { (ring: $0, area: abs(TileGeometry.area($0)), box: Self.box(of: $0)) }
            .sorted { $0.area > $1.area }
        var kept: [(ring: [TilePoint], area: Double, box: (minX: Int32, minY: Int32, maxX: Int32, maxY: Int32))] = []
        for hole in sorted {
            let clash = kept.contains { other in
                guard other.box.minX <= hole.box.maxX, hole.box.minX <= other.box.maxX, other.box.minY <= hole.box.maxY,
                    hole.box.minY <= other.box.maxY
                else { return false }
                return ringsMeet(other.ring, hole.ring) || contains(other.ring, hole.ring[0])
            }
            if !clash { kept.append(hole) }
        }
        return kept.map(\.ring)
    }

    /// The grid box a ring covers.
    static func box(of ring: [TilePoint]) -> (minX: Int32, minY: Int32, maxX: Int32, maxY: Int32) {
        var box = (minX: Int32.max, minY: Int32.max, maxX: Int32.min, maxY: Int32.min)
        for point in ring {
            box = (min(box.minX, point.x), min(box.minY, point.y), max(box.maxX, point.x), max(box.maxY, point.y))
        }
        return box
    }

    /// True when an edge of `a` crosses or touches an edge of `b`: a sweep over the edges of
    /// both by their left ends, each against the other ring's edges that overlap it in x.
    static func ringsMeet(_ a: [TilePoint], _ b: [TilePoint]) -> Bool {
        typealias Edge = (ring: Int, index: Int, minX: Int32, maxX: Int32)
        let rings = [a, b]
        var edges: [Edge] = []
        for (which, ring) in rings.enumerated() {
            for index in ring.indices {
                let p = ring[index], q = ring[(index + 1) % ring.count]
                edges.append((which, index, min(p.x, q.x), max(p.x, q.x)))
            }
        }
        edges.sort { $0.minX < $1.minX }
        var active: [[Edge]] = [[], []]
        for edge in edges {
            let other = 1 - edge.ring
            active[other].removeAll { $0.maxX < edge.minX }
            let ring = rings[edge.ring], otherRing = rings[other]
            for candidate in active[other]
            where segmentsCross(
                ring[edge.index], ring[(edge.index + 1) % ring.count], otherRing[candidate.index],
                otherRing[(candidate.index + 1) % otherRing.count])
            {
                return true
            }
            active[edge.ring].append(edge)
        }
        return false
    }

    /// True when two edges of `ring` cross (not counting neighbours meeting at their vertex).
    static func selfIntersects(_ ring: [TilePoint]) -> Bool { firstCrossing(ring) != nil }

    /// The first pair of edges of `ring` found to cross or touch, by index (the edge from
    /// vertex i to i+1), the lower first: a sweep over the edges by their left ends.
    static func firstCrossing(_ ring: [TilePoint]) -> (Int, Int)? {
        let count = ring.count
        guard count > 3 else { return nil }
        typealias Edge = (index: Int, minX: Int64, maxX: Int64)
        var edges: [Edge] = (0..<count).map { index in
            let a = ring[index], b = ring[(index + 1) % count]
            return (index, Int64(min(a.x, b.x)), Int64(max(a.x, b.x)))
        }
        edges.sort { $0.minX < $1.minX }
        var active: [Edge] = []
        for edge in edges {
            active.removeAll { $0.maxX < edge.minX }
            for other in active {
                let gap = abs(edge.index - other.index)
                if gap == 1 || gap == count - 1 { continue }
                if segmentsCross(
                    ring[edge.index], ring[(edge.index + 1) % count], ring[other.index], ring[(other.index + 1) % count]
                ) {
                    return (min(edge.index, other.index), max(edge.index, other.index))
                }
            }
            active.append(edge)
        }
        return nil
    }

    /// True when segments p1–p2 and q1–q2 cross or touch.
    static func segmentsCross(_ p1: TilePoint, _ p2: TilePoint, _ q1: TilePoint, _ q2: TilePoint) -> Bool {
        func orientation(_ a: TilePoint, _ b: TilePoint, _ c: TilePoint) -> Int {
            let value =
                (Int64(b.x) - Int64(a.x)) * (Int64(c.y) - Int64(a.y)) - (Int64(b.y) - Int64(a.y))
                * (Int64(c.x) - Int64(a.x))
            return value == 0 ? 0 : value > 0 ? 1 : -1
        }
        func onSegment(_ a: TilePoint, _ b: TilePoint, _ c: TilePoint) -> Bool {
            min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
        }
        let o1 = orientation(p1, p2, q1), o2 = orientation(p1, p2, q2)
        let o3 = orientation(q1, q2, p1), o4 = orientation(q1, q2, p2)
        if o1 != o2 && o3 != o4 { return true }
        return (o1 == 0 && onSegment(p1, p2, q1)) || (o2 == 0 && onSegment(p1, p2, q2))
            || (o3 == 0 && onSegment(q1, q2, p1)) || (o4 == 0 && onSegment(q1, q2, p2))
    }

    /// The tile and its buffer in degrees (longitude east by latitude south), a hundredth of
    /// its height wider each side: where long rings are cut before they are projected.
    var degreeBox: ClipBox {
        let bounds = bufferedBounds
        guard let southWest = bounds.southWest, let northEast = bounds.northEast else {
            return ClipBox(minX: -180, maxX: 180, minY: -90, maxY: 90)
        }
        let margin = (northEast.latitude - southWest.latitude) * 0.01
        return ClipBox(
            minX: southWest.longitude - margin, maxX: northEast.longitude + margin, minY: -northEast.latitude - margin,
            maxY: -southWest.latitude + margin)
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

    /// Douglas–Peucker with ``tolerance`` (``Simplification``); the ends (and, for a ring, the
    /// point farthest from the first) are always kept.
    func simplified(_ points: [(x: Double, y: Double)], closed: Bool) -> [(x: Double, y: Double)] {
        Simplification.douglasPeucker(points, tolerance: tolerance, closed: closed)
    }

    /// Rings longer than this many points are cut to the tile in degrees before they are
    /// projected: 1,000.
    static let longRing = 1_000
}

/// A point of a plane, for the ring tests of ``TileGeometryBuilder``.
protocol GridPoint {
    var gridX: Double { get }
    var gridY: Double { get }
}

/// An unrounded grid point.
struct PlanePoint: GridPoint {
    var x: Double
    var y: Double
    var gridX: Double { x }
    var gridY: Double { y }
}

extension TilePoint: GridPoint {
    var gridX: Double { Double(x) }
    var gridY: Double { Double(y) }
}
