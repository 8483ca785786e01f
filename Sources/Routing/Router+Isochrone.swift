import Foundation
import GeoCore

/// The area reached from a point within a time, as Valhalla's isochrones draw it: one search
/// from the point by travel time, the times laid on a grid of cells a thousandth of a degree
/// or more a side along every road edge reached (``TimeGrid``), and each contour traced
/// between the cells' centres where the time crosses it (marching squares), generalised:
/// polygons with holes where nothing is reached. (Valhalla, by default, answers only the
/// largest polygon of a contour, without its holes.)
public struct Isochrone: Sendable {
    /// One contour: its time, and its polygons, each an outer ring then its holes, rings
    /// closed (the first point repeated last), outer rings counter-clockwise.
    public struct Contour: Sendable {
        /// Seconds.
        public var seconds: Double
        /// The polygons.
        public var polygons: [[[Coordinate]]]
    }

    /// The contours, in the order asked.
    public var contours: [Contour]
    /// Where the search started: the point on its nearest road.
    public var origin: Coordinate
    /// Each road edge's end reached, with the seconds to it: what the contours are drawn from.
    public var reached: [(point: Coordinate, seconds: Double)]
}

extension Isochrone {
    /// How contours are written, as Valhalla's isochrone options say.
    public struct Output: Sendable, Equatable {
        /// Areas (`MultiPolygon`, holes kept) or their rings as lines (`MultiLineString`,
        /// Valhalla's `polygons=false`); areas by default. With ``denoise`` 1, the one polygon
        /// left is a `Polygon`, or its outer ring a `LineString`, as Valhalla writes them.
        public var polygons = true
        /// Valhalla's `denoise`, 0–1: a contour's polygons smaller than this share of its largest
        /// are left out (1: the largest alone); 0, every polygon, by default.
        public var denoise = 0.0
        /// Valhalla's `generalize`: metres each ring is further simplified by (Douglas–Peucker);
        /// nil for none beyond the grid's own.
        public var generalize: Double?
        /// Each contour's colour, in the order asked (`ff0000`, Valhalla's `contours[].color`),
        /// written with Valhalla's styling properties; nil for none.
        public var colours: [String?] = []
        /// Whether the point asked for and where it met the roads are written too, as
        /// `MultiPoint` features (Valhalla's `show_locations`).
        public var showLocations = false

        /// The defaults: every polygon, with its holes, unstyled.
        public init() {}
    }

    /// The contours as Valhalla writes isochrones: a GeoJSON FeatureCollection, a feature a
    /// contour, the largest first, each a MultiPolygon (coordinates to a millionth of a degree)
    /// with its `contour` (the value in `labels`, the contour's minutes or metres) and `metric`;
    /// as `output` says, its outlines instead, fewer polygons, simpler rings, Valhalla's colour
    /// properties, and the point asked for (`asked`) with where it met the roads.
    public func geoJSON(labels: [Double], metric: String, output: Output = Output(), asked: Coordinate? = nil)
        -> [String: Any]
    {
        let position = RouteDocument.osrmPosition
        let ordered = zip(labels, contours).enumerated().sorted { $0.element.0 > $1.element.0 }
        var features: [[String: Any]] = ordered.map { index, pair in
            let (value, contour) = pair
            // Each ring simplified as `generalize` asks: a polygon whose outer ring is left too
            // small is dropped, a hole so is filled.
            var polygons: [[[Coordinate]]] = contour.polygons.compactMap { polygon in
                guard let metres = output.generalize else { return polygon }
                guard let outer = polygon.first.flatMap({ Self.generalised($0, metres: metres) }) else { return nil }
                return [outer] + polygon.dropFirst().compactMap { Self.generalised($0, metres: metres) }
            }
            if output.denoise > 0 {
                let areas = polygons.map { Self.area(of: $0.first ?? []) }
                let largest = areas.max() ?? 0
                polygons = zip(polygons, areas).filter { $0.1 >= output.denoise * largest }.map(\.0)
                if output.denoise >= 1, let first = polygons.first { polygons = [first] }
            }
            var properties: [String: Any] = ["contour": value, "metric": metric]
            if index < output.colours.count, let colour = output.colours[index] {
                for key in ["color", "fill", "fillColor"] { properties[key] = "#" + colour }
                for key in ["opacity", "fill-opacity", "fillOpacity"] { properties[key] = 0.33 }
            }
            // One polygon (denoise 1) is written as Valhalla writes it: a Polygon with its holes,
            // or its outline, the outer ring, a LineString.
            let geometry: [String: Any]
            switch (output.polygons, output.denoise >= 1 ? polygons.first : nil) {
            case (true, let single?): geometry = ["type": "Polygon", "coordinates": single.map { $0.map(position) }]
            case (false, let single?): geometry = ["type": "LineString", "coordinates": single[0].map(position)]
            case (true, _):
                geometry = ["type": "MultiPolygon", "coordinates": polygons.map { $0.map { $0.map(position) } }]
            case (false, _):
                geometry = ["type": "MultiLineString", "coordinates": polygons.flatMap { $0.map { $0.map(position) } }]
            }
            return ["type": "Feature", "properties": properties, "geometry": geometry]
        }
        if output.showLocations, let asked {
            for (kind, point) in [("input", asked), ("snapped", origin)] {
                features.append([
                    "type": "Feature", "properties": ["type": kind, "location_index": 0] as [String: Any],
                    "geometry": ["type": "MultiPoint", "coordinates": [position(point)]] as [String: Any],
                ])
            }
        }
        return ["type": "FeatureCollection", "features": features]
    }

    /// A closed ring simplified within `metres` (Douglas–Peucker on the plane around its first
    /// point); nil when too little of it is left to enclose anything.
    static func generalised(_ ring: [Coordinate], metres: Double) -> [Coordinate]? {
        guard let first = ring.first else { return nil }
        guard metres > 0 else { return ring }
        let plane = LocalPlane(around: first)
        let kept = Simplification.keptIndices(ring.map { plane.point($0) }, tolerance: metres, closed: true)
        return kept.count >= 4 ? kept.map { ring[$0] } : nil
    }

    /// The area a ring encloses, square degrees (only compared with others of one contour).
    static func area(of ring: [Coordinate]) -> Double {
        abs(
            zip(ring, ring.dropFirst()).reduce(0.0) {
                $0 + $1.0.longitude * $1.1.latitude - $1.1.longitude * $1.0.latitude
            })
            / 2
    }
}

extension Router {
    /// Most seconds an isochrone reaches out: 2 hours.
    public static let maxIsochroneSeconds = 7_200.0

    /// How far past its largest contour an isochrone's search goes on: 2 minutes, or 1 km by
    /// distance. The cells just outside a contour keep their own times, which place the contour
    /// between them and the cells inside; a cell reached later counts as one no road reaches.
    /// (Valhalla searches 10 minutes on: on the bench's 40 contours of Helsinki and Monaco the
    /// outlines come out the same within a hundredth of overlap, at two thirds of the time.)
    static let isochroneMarginSeconds = 120.0
    static let isochroneMarginMetres = 1_000.0
    /// How far past a contour a cell that no road reaches counts, as Valhalla counts it: a
    /// minute, or 1 km by distance.
    static let unreachedPastSeconds = 60.0
    static let unreachedPastMetres = 1_000.0

    /// The speed Valhalla sizes an isochrone's grid by for each mode, metres a second (5, 20
    /// and 70 miles an hour on foot, by bicycle and by motor).
    static func gridSpeed(_ mode: TravelProfile.Mode) -> Double {
        let milesAnHour: Double =
            switch mode {
            case .walking: 5
            case .bicycling: 20
            case .driving, .twoWheeler: 70
            }
        return milesAnHour * 0.44704
    }

    /// The area reached from `origin` within each of `seconds` (each 1 to
    /// ``maxIsochroneSeconds``), by one search on the graph of turns by travel time (turn
    /// durations and one-way streets kept).
    ///
    /// - Throws: ``RoutingError/noRoad(point:at:mode:)`` when no road is near the origin.
    public func isochrone(from origin: Coordinate, seconds: [Double]) throws -> Isochrone {
        try isochrone(from: origin, limits: seconds, byDistance: false)
    }

    /// The area reached from `origin` within each of `metres` along the roads (each 1 to
    /// ``maxIsochroneMetres``), by one search on the graph of turns by distance; each
    /// contour's ``Isochrone/Contour/seconds`` then holds its metres.
    ///
    /// - Throws: ``RoutingError/noRoad(point:at:mode:)`` when no road is near the origin.
    public func isochrone(from origin: Coordinate, metres: [Double]) throws -> Isochrone {
        try isochrone(from: origin, limits: metres, byDistance: true)
    }

    /// Most metres an isochrone by distance reaches out: 100 km.
    public static let maxIsochroneMetres = 100_000.0

    private func isochrone(from origin: Coordinate, limits seconds: [Double], byDistance: Bool) throws -> Isochrone {
        guard let nearest = try graph.snap(origin, within: graph.covers(origin) ? .infinity : Self.snapRadius) else {
            throw RoutingError.noRoad(point: 0, at: origin, mode: graph.profile.mode)
        }
        // From a large piece of the network, as a route's ends snap (and Valhalla's, which
        // pass over roads reaching too few others): not from a pier or a car park closed off.
        let start =
            graph.isInLargePiece(nearest)
            ? nearest : try graph.snapToLargePiece(origin, within: nearest.distance + Self.snapRadius) ?? nearest
        let largest = min(seconds.max() ?? 0, byDistance ? Self.maxIsochroneMetres : Self.maxIsochroneSeconds)
        let limit = largest + (byDistance ? Self.isochroneMarginMetres : Self.isochroneMarginSeconds)
        // An edge's cost: its seconds, or its metres; a turn's, its seconds or nothing.
        let costs = byDistance ? graph.edgeLengths : graph.edgeDuration
        let cost = { (edge: Int32) -> Double in Double(costs[Int(edge)]) }
        let turn = { (into: Int32, out: Int32) -> Double in byDistance ? 0 : Double(self.graph.turnDuration(into, out))
        }
        // Each edge's label: the seconds to its end having travelled it (the router's labels,
        // as locals for the search, put back at the end), and the edges labelled.
        var labels = SearchLabels()
        swap(&labels, &forward)
        defer { swap(&labels, &forward) }
        generation &+= 1
        let current = generation
        labels.queue.items.removeAll(keepingCapacity: true)
        var labelled: [Int32] = []
        /// Labels `edge` with `time` when that is sooner than its label.
        func offer(_ edge: Int32, _ time: Double) {
            let first = !labels.has(edge, in: current)
            guard first || Float(time) < labels.cost(edge) else { return }
            if first { labelled.append(edge) }
            labels.offer(edge, Float(time), parent: -1, in: current)
        }
        let departing = departures(start)
        for (edge, at) in departing { offer(edge, (1 - at) * cost(edge)) }
        while !labels.queue.isEmpty {
            let (time, edge) = labels.queue.pop()
            guard time <= labels.cost(edge), Double(time) <= limit else { continue }
            let node = Int(graph.edgeTo[Int(edge)])
            for slot in Int(graph.firstOut[node])..<Int(graph.firstOut[node + 1]) {
                let next = graph.outEdge[slot]
                guard graph.allows(edge, next) else { continue }
                offer(next, Double(time) + turn(edge, next) + cost(next))
            }
        }
        let times = labelled.map { (edge: $0, end: Double(labels.cost($0))) }
        // Each edge reached: its start's time and its end's (the first edge from the snap). A
        // ferry is passed over, not reached along its way.
        var runs: [TimeGrid.Run] = []
        let starting = Dictionary(departing.map { ($0.edge, $0.at) }) { a, _ in a }
        for (edge, end) in times where !graph.ways[Int(graph.edgeWay[Int(edge)])].isFerry {
            let from = graph.positions[Int(graph.edgeFrom[Int(edge)])]
            let to = graph.positions[Int(graph.edgeTo[Int(edge)])]
            if let at = starting[edge], abs(end - (1 - at) * cost(edge)) < 1e-3 {
                runs.append(TimeGrid.Run(from: start.point, to: to, start: 0, end: end))
            } else {
                runs.append(TimeGrid.Run(from: from, to: to, start: end - cost(edge), end: end))
            }
        }
        let reach = byDistance ? limit : limit * Self.gridSpeed(graph.profile.mode)
        let grid = TimeGrid(
            around: origin, runs: runs, limit: limit, cellDegrees: TimeGrid.cellDegrees(reach: reach))
        let past = byDistance ? Self.unreachedPastMetres : Self.unreachedPastSeconds
        return Isochrone(
            contours: seconds.map { Isochrone.Contour(seconds: $0, polygons: grid.contour($0, unreached: $0 + past)) },
            origin: start.point,
            reached: times.map { (graph.positions[Int(graph.edgeTo[Int($0.edge)])], $0.end) })
    }
}

/// Travel times on a grid of cells a fixed number of degrees a side around the origin, as
/// Valhalla lays them: each cell the least time at which a road reached passes through it, the
/// origin's own cell 0; each contour traced between the cells' centres where the time crosses
/// it (a cell no road reaches counting as a minute past the contour), then generalised.
struct TimeGrid {
    /// A stretch of road reached: from and to, with the time at each end.
    struct Run {
        var from: Coordinate
        var to: Coordinate
        var start: Double
        var end: Double
    }

    let plane: LocalPlane
    let columns: Int
    let rows: Int
    /// A cell's width (east–west) and height, metres.
    let width: Double
    let height: Double
    /// The south-west corner of cell (0, 0), metres east and north of the plane's origin.
    let west: Double
    let south: Double
    /// Each cell's time (row by row from the south), infinity where nothing reaches it.
    var time: [Double]
    /// Metres a ring's points may be moved to drop them (Douglas–Peucker): a quarter of a
    /// cell's height, as Valhalla's default.
    let tolerance: Double

    /// A cell's side for a search reaching `reach` metres from its origin, degrees: a
    /// three-hundredth of the reach, to a thousandth of a degree, from 0.001 to 0.005 (about
    /// 100 to 550 m north to south), as Valhalla sizes its grids.
    static func cellDegrees(reach: Double) -> Double {
        let degrees = reach / LocalPlane.metresPerDegreeLatitude / 300
        return min(0.005, max(0.001, (degrees * 1000).rounded() / 1000))
    }

    /// The grid round `origin` (its centre the centre of a cell, set to 0) and the `runs`
    /// that start within `limit`, in cells `cellDegrees` a side.
    init(around origin: Coordinate, runs: [Run], limit: Double, cellDegrees: Double) {
        let plane = LocalPlane(around: origin)
        self.plane = plane
        width = cellDegrees * plane.metresPerDegreeLongitude
        height = cellDegrees * LocalPlane.metresPerDegreeLatitude
        tolerance = height / 4
        // The box of the runs' ends, in one pass, with the origin.
        var (minX, maxX, minY, maxY) = (0.0, 0.0, 0.0, 0.0)
        for run in runs where run.start <= limit {
            for end in [plane.point(run.from), plane.point(run.to)] {
                (minX, maxX) = (min(minX, end.x), max(maxX, end.x))
                (minY, maxY) = (min(minY, end.y), max(maxY, end.y))
            }
        }
        // Two empty cells round it, so that every contour closes inside the grid; the origin
        // at the centre of cell (westward, southward).
        let westward = Int((-minX / width + 0.5).rounded(.up)) + 2
        let southward = Int((-minY / height + 0.5).rounded(.up)) + 2
        west = -(Double(westward) + 0.5) * width
        south = -(Double(southward) + 0.5) * height
        columns = westward + Int((maxX / width + 0.5).rounded(.up)) + 3
        rows = southward + Int((maxY / height + 0.5).rounded(.up)) + 3
        time = [Double](repeating: .infinity, count: columns * rows)
        time[southward * columns + westward] = 0
        let step = min(width, height) / 4
        for run in runs where run.start <= limit {
            let a = plane.point(run.from)
            let b = plane.point(run.to)
            let steps = max(
                1, Int((((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() / step).rounded(.up)))
            for index in 0...steps {
                let fraction = Double(index) / Double(steps)
                let seconds = run.start + fraction * (run.end - run.start)
                guard seconds <= limit else { break }
                let column = Int(((a.x + fraction * (b.x - a.x) - west) / width).rounded(.down))
                let row = Int(((a.y + fraction * (b.y - a.y) - south) / height).rounded(.down))
                guard (0..<columns).contains(column), (0..<rows).contains(row) else { continue }
                time[row * columns + column] = min(time[row * columns + column], seconds)
            }
        }
    }

    /// The coordinate `x` cells east and `y` cells north of the centre of cell (0, 0).
    func coordinate(x: Double, y: Double) -> Coordinate {
        plane.coordinate(x: west + (x + 0.5) * width, y: south + (y + 0.5) * height)
    }

    /// The polygons within `level`: marching squares over the cells' centres, each ring's
    /// corner on the side between a cell within and one without where the time crosses
    /// `level` (a cell nothing reaches taken as `unreached`), rings joined end to end,
    /// generalised (``tolerance``), then holes put in the outer ring that holds them.
    func contour(_ level: Double, unreached: Double) -> [[[Coordinate]]] {
        func inside(_ row: Int, _ column: Int) -> Bool { time[row * columns + column] <= level }
        // Segments between the sides of a square of four cells' centres, each side named by
        // its midpoint in doubled grid units, the inside on the segment's right.
        typealias Point = (x: Int, y: Int)
        var next: [Int64: Point] = [:]
        func key(_ p: Point) -> Int64 { Int64(p.x) << 32 | Int64(UInt32(bitPattern: Int32(p.y))) }
        for row in 0..<(rows - 1) {
            for column in 0..<(columns - 1) {
                // Corners: a south-west, b south-east, c north-east, d north-west.
                let a = inside(row, column), b = inside(row, column + 1)
                let c = inside(row + 1, column + 1), d = inside(row + 1, column)
                let (x, y) = (2 * column, 2 * row)
                let south = (x + 1, y), east = (x + 2, y + 1), north = (x + 1, y + 2), west = (x, y + 1)
                var segments: [(Point, Point)] = []
                switch (a, b, c, d) {
                case (true, false, false, false): segments = [(west, south)]
                case (false, true, false, false): segments = [(south, east)]
                case (false, false, true, false): segments = [(east, north)]
                case (false, false, false, true): segments = [(north, west)]
                case (true, true, false, false): segments = [(west, east)]
                case (false, true, true, false): segments = [(south, north)]
                case (false, false, true, true): segments = [(east, west)]
                case (true, false, false, true): segments = [(north, south)]
                case (false, true, true, true): segments = [(south, west)]
                case (true, false, true, true): segments = [(east, south)]
                case (true, true, false, true): segments = [(north, east)]
                case (true, true, true, false): segments = [(west, north)]
                // Saddles: the two inside corners kept apart.
                case (true, false, true, false): segments = [(west, south), (east, north)]
                case (false, true, false, true): segments = [(south, east), (north, west)]
                default: break
                }
                for (from, to) in segments { next[key(from)] = to }
            }
        }
        /// Where the time crosses `level` on the side named `p` (between two cells' centres),
        /// in cells east and north of cell (0, 0)'s centre.
        func crossing(_ p: Point) -> (x: Double, y: Double) {
            // A side across (odd x): between cells (x - 1) / 2 and (x + 1) / 2 of row y / 2;
            // a side up (odd y): between rows (y - 1) / 2 and (y + 1) / 2 of column x / 2.
            let across = p.x % 2 != 0
            let (column, row) = across ? ((p.x - 1) / 2, p.y / 2) : (p.x / 2, (p.y - 1) / 2)
            let other = across ? time[row * columns + column + 1] : time[(row + 1) * columns + column]
            let here = time[row * columns + column]
            let (s0, s1) = ((here.isFinite ? here : unreached) - level, (other.isFinite ? other : unreached) - level)
            let fraction = s0 == s1 ? 0.5 : max(0, min(1, s0 / (s0 - s1)))
            return across
                ? (Double(column) + fraction, Double(row)) : (Double(column), Double(row) + fraction)
        }
        // Rings: follow each segment to the next until back at the start. Each starts at its
        // least point (westmost, then southmost), the rings in that order: the same request
        // gives the same polygons (a dictionary's order changes from one process to the next,
        // and where a ring starts decides which points its generalisation keeps).
        var rings: [[(x: Double, y: Double)]] = []
        var unused = next
        for startKey in next.keys.sorted() {
            guard let first = unused.removeValue(forKey: startKey) else { continue }
            var ring: [Point] = [(Int(startKey >> 32), Int(Int32(truncatingIfNeeded: startKey))), first]
            var current = first
            while let following = unused[key(current)] {
                unused[key(current)] = nil
                ring.append(following)
                current = following
            }
            guard ring.count >= 4 else { continue }
            // Reversed: the inside on the left, outer rings counter-clockwise (as GeoJSON has them).
            let points = ring.reversed().map(crossing)
            let kept = Self.generalised(points, tolerance: (tolerance / width, tolerance / height))
            guard kept.count >= 4 else { continue }
            rings.append(kept)
        }
        // Counter-clockwise rings are outer ones (the inside on their left); clockwise ones
        // holes, each in the smallest outer ring that holds it.
        func area(_ ring: [(x: Double, y: Double)]) -> Double {
            zip(ring, ring.dropFirst()).reduce(0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) } / 2
        }
        let coordinates = rings.map { $0.map { coordinate(x: $0.x, y: $0.y) } }
        let outer = rings.indices.filter { area(rings[$0]) > 0 }
        var polygons = outer.map { [coordinates[$0]] }
        for hole in rings.indices where area(rings[hole]) < 0 {
            let holders = outer.indices.filter { Self.contains(coordinates[outer[$0]], coordinates[hole][0]) }
            guard let smallest = holders.min(by: { area(rings[outer[$0]]) < area(rings[outer[$1]]) }) else { continue }
            polygons[smallest].append(coordinates[hole])
        }
        return polygons
    }

    /// A closed ring with the points it can do without dropped (Douglas–Peucker,
    /// ``Simplification``): none further than `tolerance` (in cells across and up) from the line
    /// kept. The first point stays, and the ring stays closed.
    static func generalised(_ ring: [(x: Double, y: Double)], tolerance: (x: Double, y: Double)) -> [(
        x: Double, y: Double
    )] {
        guard ring.count > 4 else { return ring }
        // In units of the tolerance, so that a distance of 1 is the tolerance either way.
        let scaled = ring.map { (x: $0.x / tolerance.x, y: $0.y / tolerance.y) }
        return Simplification.keptIndices(scaled, tolerance: 1, closed: true, measure: .line).map { ring[$0] }
    }

    /// True when `point` is inside `ring` (crossing number).
    static func contains(_ ring: [Coordinate], _ point: Coordinate) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst())
        where (a.latitude > point.latitude) != (b.latitude > point.latitude) {
            let x =
                a.longitude + (point.latitude - a.latitude) * (b.longitude - a.longitude) / (b.latitude - a.latitude)
            if point.longitude < x { inside.toggle() }
        }
        return inside
    }
}
