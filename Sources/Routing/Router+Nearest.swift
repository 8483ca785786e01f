import GeoCore

/// A road near a point, as OSRM's `nearest` service gives it: where on it the point is nearest,
/// how far that is, the road's name and the OpenStreetMap nodes its segment runs between.
public struct NearestRoad: Sendable, Equatable {
    /// The point on the road nearest the one asked about.
    public var location: Coordinate
    /// Metres from the point asked about.
    public var distance: Double
    /// The road's name, else its ref; nil for neither.
    public var name: String?
    /// The OpenStreetMap ids of the nodes the segment runs from and to.
    public var nodes: [Int64]
    /// Where the point met the road, as OSRM's `hint` (``RoadGraph/hint(of:)``); nil for none.
    public var hint: RoadGraph.Hint?

    /// A road at `location`, `distance` metres from the point, named `name`, between `nodes`,
    /// met there as `hint` says.
    public init(location: Coordinate, distance: Double, name: String?, nodes: [Int64], hint: RoadGraph.Hint? = nil) {
        self.location = location
        self.distance = distance
        self.name = name
        self.nodes = nodes
        self.hint = hint
    }
}

extension Router {
    /// The `count` nearest segments of roads this mode travels, nearest first, each once: within
    /// the network's extent and the imported regions however far, else within
    /// ``snapRadius``; none when none is that near. Only segments a route can meet the point on
    /// as `approach` asks (OSRM's `bearings`, `approaches` and `radiuses`).
    public func nearest(_ point: Coordinate, count: Int, approach: Approach = .any) throws -> [NearestRoad] {
        try graph.snaps(point, count: count, within: reach(point), approach: approach).map { snap in
            let segment = graph.segments[Int(snap.segment)]
            let way = graph.way(of: segment.forward >= 0 ? segment.forward : segment.backward)
            return NearestRoad(
                location: snap.point, distance: snap.distance, name: way.name ?? way.ref,
                nodes: [graph.osmNodes[Int(segment.from)], graph.osmNodes[Int(segment.to)]], hint: graph.hint(of: snap))
        }
    }
}
