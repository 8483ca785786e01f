import Foundation
import GeoCore

/// The area reached from a point within a time, as Valhalla's isochrones draw it: one search
/// from the point by travel time, the times laid on a grid along every road edge reached (and a
/// few metres off them, walking), and each contour traced round the cells reached within its
/// time (marching squares): polygons with holes where nothing is reached.
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
    /// The contours as Valhalla writes isochrones: a GeoJSON FeatureCollection, a feature a
    /// contour, the largest first, each a MultiPolygon (coordinates to a millionth of a degree)
    /// with its `contour` (the value in `labels`, the contour's minutes or metres) and `metric`.
    public func geoJSON(labels: [Double], metric: String) -> [String: Any] {
        let features: [[String: Any]] = zip(labels, contours).sorted { $0.0 > $1.0 }.map { value, contour in
            [
                "type": "Feature", "properties": ["contour": value, "metric": metric] as [String: Any],
                "geometry": [
                    "type": "MultiPolygon",
                    "coordinates": contour.polygons.map { polygon in
                        polygon.map { ring in
                            ring.map { [($0.longitude * 1e6).rounded() / 1e6, ($0.latitude * 1e6).rounded() / 1e6] }
                        }
                    },
                ] as [String: Any],
            ]
        }
        return ["type": "FeatureCollection", "features": features]
    }
}

extension Router {
    /// Most seconds an isochrone reaches out: 2 hours.
    public static let maxIsochroneSeconds = 7_200.0

    /// Walking pace off the roads between them, metres a second: how the grid's cells next to
    /// a road reached take their time (1.4, a walker's).
    static let offRoadSpeed = 1.4

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
        guard let start = try graph.snap(origin, within: graph.covers(origin) ? .infinity : Self.snapRadius) else {
            throw RoutingError.noRoad(point: 0, at: origin, mode: graph.profile.mode)
        }
        let limit = min(seconds.max() ?? 0, byDistance ? Self.maxIsochroneMetres : Self.maxIsochroneSeconds)
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
        // Each edge reached: its start's time and its end's (the first edge from the snap).
        var runs: [(from: Coordinate, to: Coordinate, start: Double, end: Double)] = []
        let starting = Dictionary(departing.map { ($0.edge, $0.at) }) { a, _ in a }
        for (edge, end) in times {
            let from = graph.positions[Int(graph.edgeFrom[Int(edge)])]
            let to = graph.positions[Int(graph.edgeTo[Int(edge)])]
            if let at = starting[edge], abs(end - (1 - at) * cost(edge)) < 1e-3 {
                runs.append((start.point, to, 0, end))
            } else {
                runs.append((from, to, end - cost(edge), end))
            }
        }
        // Off the roads, a walk's seconds, or its metres.
        let grid = TimeGrid(
            around: start.point, runs: runs, limit: limit, offRoadSpeed: byDistance ? 1 : Self.offRoadSpeed)
        return Isochrone(
            contours: seconds.map { Isochrone.Contour(seconds: $0, polygons: grid.contour($0)) }, origin: start.point,
            reached: times.map { (graph.positions[Int(graph.edgeTo[Int($0.edge)])], $0.end) })
    }
}

/// Travel times on a square grid in a plane around the origin: each cell the least time a road
/// reached passes through it (or, a cell away from one, that time and the walk off the road).
struct TimeGrid {
    let plane: LocalPlane
    /// The grid's side, cells; cell (i, j) is `size` metres a side from the south-west corner.
    let columns: Int
    let rows: Int
    let size: Double
    let west: Double
    let south: Double
    var time: [Double]

    /// Cells across the grid's wider side, about: 200.
    static let cellsAcross = 200.0
    /// The smallest cell, metres a side: 20 (a street's width).
    static let smallestCell = 20.0
    /// How many cells from a road a walk off it reaches: 3 (60 m or more: the inside of a
    /// block is reached from its streets; a park or a bay far from any is a hole).
    static let offRoadCells = 3

    init(
        around origin: Coordinate, runs: [(from: Coordinate, to: Coordinate, start: Double, end: Double)],
        limit: Double,
        offRoadSpeed: Double
    ) {
        let plane = LocalPlane(around: origin)
        self.plane = plane
        // The box of the runs' ends, in one pass.
        var (minX, maxX, minY, maxY) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
        for run in runs {
            for end in [plane.point(run.from), plane.point(run.to)] {
                (minX, maxX) = (min(minX, end.x), max(maxX, end.x))
                (minY, maxY) = (min(minY, end.y), max(maxY, end.y))
            }
        }
        if runs.isEmpty { (minX, maxX, minY, maxY) = (0, 0, 0, 0) }
        size = max(Self.smallestCell, max(maxX - minX, maxY - minY) / Self.cellsAcross)
        // Empty cells round the reach off the roads, so that every contour closes inside the grid.
        let margin = Double(Self.offRoadCells + 3)
        west = minX - margin * size
        south = minY - margin * size
        columns = Int(((maxX - minX) / size).rounded(.up)) + 2 * Int(margin) + 1
        rows = Int(((maxY - minY) / size).rounded(.up)) + 2 * Int(margin) + 1
        time = [Double](repeating: .infinity, count: columns * rows)
        for run in runs where run.start <= limit {
            let a = plane.point(run.from)
            let b = plane.point(run.to)
            let length = hypot(b.x - a.x, b.y - a.y)
            let steps = max(1, Int((length / (size / 2)).rounded(.up)))
            for step in 0...steps {
                let fraction = Double(step) / Double(steps)
                let seconds = run.start + fraction * (run.end - run.start)
                guard seconds <= limit else { break }
                let x = a.x + fraction * (b.x - a.x)
                let y = a.y + fraction * (b.y - a.y)
                let column = Int(((x - west) / size).rounded(.down))
                let row = Int(((y - south) / size).rounded(.down))
                guard (0..<columns).contains(column), (0..<rows).contains(row) else { continue }
                time[row * columns + column] = min(time[row * columns + column], seconds)
            }
        }
        // The cells near a road reached: on foot from it, up to ``offRoadCells`` cells away
        // (a block's inside is reached from the streets round it, as a walker reaches it).
        let (columns, rows) = (columns, rows)
        let walk = size / offRoadSpeed
        let diagonal = walk * 2.0.squareRoot()
        for _ in 0..<Self.offRoadCells {
            var spread = time
            for row in 1..<(rows - 1) {
                for column in 1..<(columns - 1) {
                    var best = time[row * columns + column]
                    for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                        best = min(best, time[(row + dr) * columns + column + dc] + walk)
                    }
                    for (dr, dc) in [(-1, -1), (1, 1), (1, -1), (-1, 1)] {
                        best = min(best, time[(row + dr) * columns + column + dc] + diagonal)
                    }
                    spread[row * columns + column] = best
                }
            }
            time = spread
        }
    }

    /// The grid's corner point (i, j) as a coordinate: the centre of cell (i, j).
    func coordinate(x: Double, y: Double) -> Coordinate {
        Coordinate(
            latitude: plane.origin.latitude + (south + y * size) / LocalPlane.metresPerDegreeLatitude,
            longitude: plane.origin.longitude + (west + x * size) / plane.metresPerDegreeLongitude)
    }

    /// The polygons round the cells reached within `seconds`: marching squares over the cells'
    /// centres, each ring's corners halfway along the sides between a cell in and one out,
    /// rings joined end to end, then holes put in the outer ring that holds them.
    func contour(_ seconds: Double) -> [[[Coordinate]]] {
        func inside(_ row: Int, _ column: Int) -> Bool { time[row * columns + column] <= seconds }
        // Segments between the midpoints of a square's sides, in doubled grid units (so that
        // midpoints are whole numbers), each with the inside on its right.
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
        // Rings: follow each segment to the next until back at the start.
        var rings: [[Coordinate]] = []
        var unused = next
        while let (startKey, first) = unused.first {
            unused[startKey] = nil
            var ring: [Point] = [(Int(startKey >> 32), Int(Int32(truncatingIfNeeded: startKey))), first]
            var current = first
            while let following = unused[key(current)] {
                unused[key(current)] = nil
                ring.append(following)
                current = following
            }
            guard ring.count >= 4 else { continue }
            // Reversed: the inside on the left, outer rings counter-clockwise (as GeoJSON has them).
            rings.append(ring.reversed().map { coordinate(x: Double($0.x) / 2, y: Double($0.y) / 2) })
        }
        // Counter-clockwise rings are outer ones (the inside on their left); clockwise ones
        // holes, each in the smallest outer ring that holds it.
        func area(_ ring: [Coordinate]) -> Double {
            zip(ring, ring.dropFirst()).reduce(0) {
                $0 + ($1.0.longitude * $1.1.latitude - $1.1.longitude * $1.0.latitude)
            }
                / 2
        }
        let outer = rings.filter { area($0) > 0 }
        var polygons = outer.map { [$0] }
        for hole in rings where area(hole) < 0 {
            let holders = outer.indices.filter { Self.contains(outer[$0], hole[0]) }
            guard let smallest = holders.min(by: { abs(area(outer[$0])) < abs(area(outer[$1])) }) else { continue }
            polygons[smallest].append(hole)
        }
        return polygons
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
