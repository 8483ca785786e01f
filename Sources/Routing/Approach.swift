import Foundation
import GeoCore

/// How a route may meet one of its points, as OSRM's `bearings`, `approaches`, `radiuses`,
/// `snapping` and `hints` ask: in which direction of travel, with the point on which side of
/// the road, how far from it, on which roads, and where an earlier answer met it. The default
/// meets it any way, on the roads routes start on.
public struct Approach: Sendable, Equatable {
    /// A direction of travel the road must have where the route meets the point: the heading
    /// in degrees clockwise from true north, 0..<360, and how far either side of it the road's
    /// may be, 0...180 degrees (OSRM's `bearings` entry `value,range`); nil for any direction.
    public var bearing: (degrees: Double, tolerance: Double)?
    /// Which side of the route the point must lie on where it meets the road.
    public var side: Side
    /// How far from the point its road may be, metres (OSRM's `radiuses` entry); nil for no
    /// limit of its own (a route's ``Router/snapRadius`` outside the imported regions).
    public var radius: Double?
    /// Whether the point may meet a road no route starts or ends on by default: a ferry, a
    /// private service road (OSRM's `snapping=any`, which lets a point snap to any road of its
    /// graph). False by default.
    public var anyRoad: Bool
    /// Where an earlier answer met the point (OSRM's `hints` entry, a waypoint's `hint`): met
    /// there again when it is the hint of this point on this graph (``RoadGraph/hint(of:)``),
    /// else snapped as usual; nil for none.
    public var hint: String?

    /// The side of the road a point is met from.
    public enum Side: String, Sendable, CaseIterable {
        /// Either: the route may pass the point in either direction (OSRM's `unrestricted`).
        case either = "unrestricted"
        /// The kerb's side: the point on the right of the route, where traffic keeps right, so
        /// that no one crosses the road to or from it (OSRM's `curb`).
        case curb
        /// The far side: the point on the left of the route (OSRM's `opposite`).
        case opposite
    }

    /// Meeting the point any way.
    public static let any = Approach()

    /// An approach in `bearing`'s direction (nil for any), the point on `side`, its road within
    /// `radius` metres (nil for no limit of its own), on any road when `anyRoad`, where `hint`
    /// says when it is this point's.
    public init(
        bearing: (degrees: Double, tolerance: Double)? = nil, side: Side = .either, radius: Double? = nil,
        anyRoad: Bool = false, hint: String? = nil
    ) {
        self.bearing = bearing
        self.side = side
        self.radius = radius
        self.anyRoad = anyRoad
        self.hint = hint
    }

    /// Each of `points` points' approach from `approaches` (nil: ``any``), each on any road
    /// when `anyRoad` (OSRM's `snapping=any`, given once for all the points); empty for every
    /// point met any way (as ``Router/Passage`` takes them).
    public static func each(_ approaches: [Approach]?, points: Int, anyRoad: Bool) -> [Approach] {
        guard anyRoad else { return approaches ?? [] }
        return (approaches ?? Array(repeating: .any, count: points)).map {
            var approach = $0
            approach.anyRoad = true
            return approach
        }
    }

    /// Whether it meets the point any way along its road (a radius aside).
    public var isAnyWay: Bool { bearing == nil && side == .either }

    public static func == (a: Approach, b: Approach) -> Bool {
        a.side == b.side && a.radius == b.radius && a.anyRoad == b.anyRoad && a.hint == b.hint
            && a.bearing?.degrees == b.bearing?.degrees && a.bearing?.tolerance == b.bearing?.tolerance
    }

    /// Whether a road heading `heading` degrees (any value, taken modulo 360) is within the
    /// bearing's tolerance, rounded to the degree as OSRM compares them; true without a bearing.
    func admits(heading: Double) -> Bool {
        guard let bearing else { return true }
        let rounded = heading.rounded()
        let difference = abs((rounded - bearing.degrees).truncatingRemainder(dividingBy: 360))
        return min(difference, 360 - difference) <= bearing.tolerance
    }
}

extension RoadGraph {
    /// The ways along a segment a route may travel past a point on it.
    public struct Directions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// From the segment's first node to its second (its ``Segment/forward`` edge).
        public static let along = Directions(rawValue: 1)
        /// From its second node to its first (its ``Segment/backward`` edge).
        public static let against = Directions(rawValue: 2)
        public static let both: Directions = [.along, .against]
    }

    /// The directions along `segment` in which a route meets `point` as `approach` asks: those
    /// the mode travels, whose heading is within the approach's bearing, and, on a road
    /// travelled both ways, the one with the point on the asked side (traffic keeps right, as
    /// the steps say). Empty when none.
    func directions(of segment: Int32, meeting point: Coordinate, as approach: Approach) -> Directions {
        let segment = segments[Int(segment)]
        let (from, to) = (positions[Int(segment.from)], positions[Int(segment.to)])
        let heading = Self.bearing(from, to)
        var directions: Directions = []
        if segment.forward >= 0, approach.admits(heading: heading) { directions.insert(.along) }
        if segment.backward >= 0, approach.admits(heading: heading + 180) { directions.insert(.against) }
        guard approach.side != .either, segment.forward >= 0, segment.backward >= 0 else { return directions }
        // The point's side of the segment's own direction: right when the turn from the segment
        // to the point is clockwise (on the segment itself counts as right, as OSRM counts it).
        let plane = LocalPlane(around: from)
        let (a, b, p) = (plane.point(from), plane.point(to), plane.point(point))
        let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
        let onTheRight = cross <= 0
        let kerbSide: Directions = onTheRight ? .along : .against
        return directions.intersection(approach.side == .curb ? kerbSide : Directions.both.subtracting(kerbSide))
    }
}
