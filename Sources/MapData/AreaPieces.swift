import GeoCore

/// A large area cut into pieces that each cover a box of their own, so that a picture reads
/// only the pieces it draws (a continent's shoreline at full detail is a million points; the
/// picture of a street shows a few hundred of them). The field's renderers do the same with
/// the "split" land polygons; the whole area stays in the store for everything else.
///
/// The area's box is halved (across its longer side, in degrees) until each piece has at most
/// ``maximumPoints`` points, each half's rings clipped to it with Sutherland–Hodgman against
/// the one line that halves it. A clipped ring may run back and forth along that line; filled
/// with the even-odd rule (the store's rule) each piece covers exactly the area's part of its
/// half, and the pieces of one area, drawn in one path, meet without a seam: the points where
/// a ring crosses the line are computed once from the same two points, so both sides share
/// them exactly.
public enum AreaPieces {
    /// The classes whose large areas are cut: those drawn as plain fills, without an outline
    /// (land, water, land use and cover, parks), on which the cuts do not show.
    public static let classes: Set<FeatureClass> = [.land, .water, .landuse, .landcover, .park]
    /// Areas of more points than this are cut into pieces: 4,096.
    public static let threshold = 4_096
    /// A piece has at most this many points, unless it is ``maximumDepth`` halvings deep: 1,024.
    public static let maximumPoints = 1_024
    /// Halvings at most: 24 (a continent's box halved 24 times is a few metres).
    static let maximumDepth = 24

    /// The pieces of an area given as its rings (the first the outer ring, the others holes,
    /// each closed), each piece a list of closed rings; empty when the area has no more than
    /// ``threshold`` points (it is not cut).
    public static func pieces(of rings: [[Coordinate]]) -> [[[Coordinate]]] {
        guard rings.reduce(0, { $0 + $1.count }) > threshold else { return [] }
        var pieces: [[[Coordinate]]] = []
        split(rings.map(open), depth: 0, into: &pieces)
        return pieces.map { $0.map(closed) }
    }

    /// Halves `rings` (open rings) until each part is small enough, appending the parts.
    private static func split(_ rings: [[Coordinate]], depth: Int, into pieces: inout [[[Coordinate]]]) {
        let points = rings.reduce(0) { $0 + $1.count }
        guard points > maximumPoints, depth < maximumDepth, let box = Box(rings) else {
            if !rings.isEmpty { pieces.append(rings) }
            return
        }
        let acrossLongitude = box.maxLongitude - box.minLongitude >= box.maxLatitude - box.minLatitude
        let middle =
            acrossLongitude ? (box.minLongitude + box.maxLongitude) / 2 : (box.minLatitude + box.maxLatitude) / 2
        for keepsLow in [true, false] {
            let half = rings.compactMap { clip($0, acrossLongitude: acrossLongitude, at: middle, keepsLow: keepsLow) }
            split(half, depth: depth + 1, into: &pieces)
        }
    }

    /// The part of an open ring on one side of the line `longitude = value` (or `latitude =
    /// value`), nil when nothing of any area is left.
    static func clip(_ ring: [Coordinate], acrossLongitude: Bool, at value: Double, keepsLow: Bool) -> [Coordinate]? {
        guard var previous = ring.last else { return nil }
        func position(_ point: Coordinate) -> Double { acrossLongitude ? point.longitude : point.latitude }
        func inside(_ point: Coordinate) -> Bool { keepsLow ? position(point) <= value : position(point) >= value }
        var output: [Coordinate] = []
        output.reserveCapacity(ring.count + 2)
        for point in ring {
            let isInside = inside(point)
            if isInside != inside(previous) {
                // From the earlier point of the ring to the later one, as the other side does.
                output.append(crossing(from: previous, to: point, acrossLongitude: acrossLongitude, at: value))
            }
            if isInside { output.append(point) }
            previous = point
        }
        let ringPoints = output.enumerated().filter { index, point in
            point != output[(index + output.count - 1) % output.count]
        }.map(\.element)
        guard ringPoints.count >= 3, signedArea(ringPoints) != 0 else { return nil }
        return ringPoints
    }

    /// Where the segment from `start` to `end` meets the line.
    private static func crossing(from start: Coordinate, to end: Coordinate, acrossLongitude: Bool, at value: Double)
        -> Coordinate
    {
        if acrossLongitude {
            let fraction = (value - start.longitude) / (end.longitude - start.longitude)
            return Coordinate(latitude: start.latitude + fraction * (end.latitude - start.latitude), longitude: value)
        }
        let fraction = (value - start.latitude) / (end.latitude - start.latitude)
        return Coordinate(latitude: value, longitude: start.longitude + fraction * (end.longitude - start.longitude))
    }

    /// Twice the ring's signed area in square degrees (the shoelace formula).
    private static func signedArea(_ ring: [Coordinate]) -> Double {
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += (previous.longitude - point.longitude) * (previous.latitude + point.latitude)
            previous = point
        }
        return sum
    }

    private static func open(_ ring: [Coordinate]) -> [Coordinate] {
        ring.count > 1 && ring.first == ring.last ? Array(ring.dropLast()) : ring
    }

    private static func closed(_ ring: [Coordinate]) -> [Coordinate] {
        guard let first = ring.first, ring.last != first else { return ring }
        return ring + [first]
    }

    /// The box of some rings, nil when they have no point.
    private struct Box {
        var minLatitude = Double.infinity
        var minLongitude = Double.infinity
        var maxLatitude = -Double.infinity
        var maxLongitude = -Double.infinity

        init?(_ rings: [[Coordinate]]) {
            for ring in rings {
                for point in ring {
                    minLatitude = min(minLatitude, point.latitude)
                    maxLatitude = max(maxLatitude, point.latitude)
                    minLongitude = min(minLongitude, point.longitude)
                    maxLongitude = max(maxLongitude, point.longitude)
                }
            }
            guard minLatitude <= maxLatitude else { return nil }
        }
    }
}
