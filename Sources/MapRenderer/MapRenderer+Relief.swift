import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

/// The terrain map drawn from the store's imported elevation models: colours by height
/// (hypsometric tint), shaded by a hillshade lit from the north-west, and contour lines at
/// intervals chosen by zoom.
struct ReliefPainter {
    /// Heights a point apart over the canvas and one point beyond each edge, metres (NaN
    /// where no model reaches), rows from the top.
    let heights: [Double]
    let columns: Int
    let rows: Int
    /// Ground metres a point of the canvas spans (at the camera's target).
    let metresPerPoint: Double
    /// The cosine and sine of the camera's bearing: the light stays in the north-west however
    /// the map turns.
    let turn: (cos: Double, sin: Double)

    /// The relief of the view, nil where no model reaches it.
    init?(store: MapStore, projection: Projection, camera: CameraPosition, size: Size, bounds: CoordinateBounds) throws
    {
        var reader = try Elevation.Reader(store: store, within: bounds)
        guard !reader.models.isEmpty else { return nil }
        columns = Int(size.width.rounded(.up)) + 2
        rows = Int(size.height.rounded(.up)) + 2
        // The models' tiles whose pixels are the view's points.
        let zoom = Int(camera.zoom.rounded())
        var heights = [Double](repeating: .nan, count: columns * rows)
        var any = false
        // Looking straight down with north up (every tile), the world points of the grid are a
        // lattice: laid out from two corners, no projection each point.
        let flat = camera.bearing == 0 && camera.viewingAngle == 0
        let origin = WebMercator.project(projection.coordinate(for: Point(x: -0.5, y: -0.5)), worldSize: 1)
        let far = WebMercator.project(
            projection.coordinate(for: Point(x: Double(columns) - 1.5, y: Double(rows) - 1.5)), worldSize: 1)
        let step = (x: (far.x - origin.x) / Double(columns - 1), y: (far.y - origin.y) / Double(rows - 1))
        for row in 0..<rows {
            for column in 0..<columns {
                let height: Double?
                if flat && step.x > 0 {
                    height = try reader.height(
                        worldX: origin.x + Double(column) * step.x, worldY: origin.y + Double(row) * step.y, zoom: zoom)
                } else {
                    let point = Point(x: Double(column) - 0.5, y: Double(row) - 0.5)
                    height = try reader.height(at: projection.coordinate(for: point), zoom: zoom)
                }
                if let height {
                    heights[row * columns + column] = height
                    any = true
                }
            }
        }
        guard any else { return nil }
        self.heights = heights
        metresPerPoint = WebMercator.metersPerPoint(latitude: camera.target.latitude, zoom: camera.zoom)
        turn = (cos(camera.bearing * .pi / 180), sin(camera.bearing * .pi / 180))
    }

    /// The height at canvas point (`x`, `y`), metres; NaN outside the models.
    func height(x: Double, y: Double) -> Double {
        let column = min(max(Int(x) + 1, 0), columns - 1)
        let row = min(max(Int(y) + 1, 0), rows - 1)
        return heights[row * columns + column]
    }

    /// How lit the ground at grid cell (`column`, `row`) is: 1 on the flat, brighter on
    /// slopes facing the light, darker on those facing away (0.4...1.3). The light is
    /// multidirectional, as `gdaldem -multidirectional` lights: from the north-west (half the
    /// weight), the west and the north (a quarter each), 45° high.
    func shade(column: Int, row: Int) -> Double {
        let centre = heights[row * columns + column]
        func at(_ c: Int, _ r: Int) -> Double {
            let value = heights[min(max(r, 0), rows - 1) * columns + min(max(c, 0), columns - 1)]
            return value.isNaN ? centre : value
        }
        // The slope along the canvas (right, up), then turned to east and north by the bearing.
        let right = (at(column + 1, row) - at(column - 1, row)) / (2 * metresPerPoint)
        let up = (at(column, row - 1) - at(column, row + 1)) / (2 * metresPerPoint)
        let east = right * turn.cos + up * turn.sin
        let north = -right * turn.sin + up * turn.cos
        let length = (east * east + north * north + 1).squareRoot()
        var lit = 0.0
        for light in Self.lights {
            lit += light.weight * max(0, (-east * light.east - north * light.north + light.up) / length)
        }
        return min(max(lit / sin(Self.lightAltitude), 0.4), 1.3)
    }

    /// The lights' height above the horizon: 45°.
    static let lightAltitude = Double.pi / 4

    /// The lights, each as a unit vector towards it (east, north, up) and its weight: from
    /// 315° (half), 270° and 360° (a quarter each).
    static let lights: [(east: Double, north: Double, up: Double, weight: Double)] = [
        (315.0, 0.5), (270.0, 0.25), (360.0, 0.25),
    ].map { azimuth, weight in
        let a = azimuth * .pi / 180
        return (sin(a) * cos(lightAltitude), cos(a) * cos(lightAltitude), sin(lightAltitude), weight)
    }

    /// The colour of `metres` in the scheme: green lowlands, yellow and tan hills, brown
    /// mountains, grey and white peaks (darker for the dark scheme).
    static func tint(_ metres: Double, dark: Bool) -> (Double, Double, Double) {
        let stops = tintStops
        var colour = stops[stops.count - 1].1
        for index in 1..<stops.count where metres < stops[index].0 {
            let (lower, upper) = (stops[index - 1], stops[index])
            let f = max(0, (metres - lower.0) / (upper.0 - lower.0))
            colour = (
                lower.1.0 + (upper.1.0 - lower.1.0) * f, lower.1.1 + (upper.1.1 - lower.1.1) * f,
                lower.1.2 + (upper.1.2 - lower.1.2) * f
            )
            break
        }
        return dark ? (colour.0 * 0.32, colour.1 * 0.34, colour.2 * 0.36) : colour
    }

    /// The tint's heights (metres) and colours (red, green, blue, 0...1), lowest first.
    static let tintStops: [(Double, (Double, Double, Double))] = [
        (0, (0.71, 0.82, 0.63)), (200, (0.83, 0.86, 0.66)), (500, (0.90, 0.87, 0.69)),
        (1000, (0.85, 0.76, 0.60)), (2000, (0.75, 0.63, 0.49)), (3000, (0.78, 0.75, 0.72)),
        (4500, (0.96, 0.96, 0.96)),
    ]

    /// Paints the tinted, shaded relief over the canvas (the sea, at or below 0 m, and where no
    /// model reaches left as they are).
    func paint(on canvas: Canvas, dark: Bool) throws {
        try canvas.paintPixels { x, y in
            let column = min(max(Int(x) + 1, 0), columns - 1)
            let row = min(max(Int(y) + 1, 0), rows - 1)
            let metres = heights[row * columns + column]
            guard metres.isFinite, metres > 0 else { return nil }
            let (r, g, b) = Self.tint(metres, dark: dark)
            let lit = shade(column: column, row: row)
            func channel(_ value: Double) -> UInt8 { UInt8(min(max(value * lit, 0), 1) * 255) }
            return Pixel(red: channel(r), green: channel(g), blue: channel(b), alpha: 235)
        }
    }

    /// The contour interval and the interval of the heavier, labelled lines at a map zoom,
    /// metres: 200 and 1,000 below zoom 11, then 100 and 500, 50 and 250 at 13, 20 and 100 at
    /// 14, 10 and 50 from 15.
    static func intervals(zoom: Double) -> (minor: Double, major: Double) {
        switch zoom {
        case ..<11: (200, 1000)
        case ..<13: (100, 500)
        case ..<14: (50, 250)
        case ..<15: (20, 100)
        default: (10, 50)
        }
    }

    /// The contour lines at each multiple of the interval, as segments between canvas points
    /// (marching squares on the heights, two points a cell), with their heights.
    func contours(zoom: Double) -> [(metres: Double, from: Point, to: Point)] {
        let step = 2
        let interval = Self.intervals(zoom: zoom).minor
        var segments: [(metres: Double, from: Point, to: Point)] = []
        func point(_ c: Int, _ r: Int) -> Point { Point(x: Double(c) - 0.5, y: Double(r) - 0.5) }
        // The cell's corners in order around it (top left, top right, bottom right, bottom
        // left) as offsets, and the crossings found on its edges, without an allocation a cell.
        let offsets = [(0, 0), (step, 0), (step, step), (0, step)]
        var values = [Double](repeating: 0, count: 4)
        var crossings = [Point](repeating: Point(x: 0, y: 0), count: 4)
        var row = 0
        while row + step < rows {
            var column = 0
            while column + step < columns {
                var finite = true
                var (low, high) = (Double.infinity, -Double.infinity)
                for corner in 0..<4 {
                    let value = heights[(row + offsets[corner].1) * columns + column + offsets[corner].0]
                    values[corner] = value
                    finite = finite && value.isFinite
                    low = min(low, value)
                    high = max(high, value)
                }
                guard finite, high - low > 0 else {
                    column += step
                    continue
                }
                var level = (low / interval).rounded(.up) * interval
                if level == low { level += interval }
                while level < high {
                    // Where the level crosses each edge of the cell, in order around it.
                    var found = 0
                    for edge in 0..<4 {
                        let (a, b) = (values[edge], values[(edge + 1) % 4])
                        guard (a < level) != (b < level) else { continue }
                        let f = (level - a) / (b - a)
                        let (p, q) = (
                            point(column + offsets[edge].0, row + offsets[edge].1),
                            point(column + offsets[(edge + 1) % 4].0, row + offsets[(edge + 1) % 4].1)
                        )
                        crossings[found] = Point(x: p.x + (q.x - p.x) * f, y: p.y + (q.y - p.y) * f)
                        found += 1
                    }
                    if found >= 2 { segments.append((level, crossings[0], crossings[1])) }
                    if found == 4 { segments.append((level, crossings[2], crossings[3])) }
                    level += interval
                }
                column += step
            }
            row += step
        }
        return segments
    }

    /// Strokes the contour lines: every line thin, the major ones (``intervals(zoom:)``)
    /// heavier, in the relief's brown (lighter in the dark scheme); returns the major lines
    /// joined into polylines with their heights, for their labels.
    func drawContours(on canvas: Canvas, zoom: Double, dark: Bool) -> [(metres: Double, line: [Point])] {
        let segments = contours(zoom: zoom)
        let major = Self.intervals(zoom: zoom).major
        let colour = dark ? Color(hex: 0xAA9678, alpha: 0.55) : Color(hex: 0x82643C, alpha: 0.55)
        for heavy in [false, true] {
            for segment in segments where (segment.metres.truncatingRemainder(dividingBy: major) == 0) == heavy {
                canvas.move(x: segment.from.x, y: segment.from.y)
                canvas.line(x: segment.to.x, y: segment.to.y)
            }
            canvas.stroke(colour, width: heavy ? 1.1 : 0.5)
        }
        return Self.chains(segments.filter { $0.metres.truncatingRemainder(dividingBy: major) == 0 })
    }

    /// Segments of one height joined end to end into polylines, longest first.
    static func chains(_ segments: [(metres: Double, from: Point, to: Point)]) -> [(metres: Double, line: [Point])] {
        struct Key: Hashable {
            var metres: Double
            var x: Int
            var y: Int
            init(_ metres: Double, _ point: Point) {
                self.metres = metres
                x = Int((point.x * 100).rounded())
                y = Int((point.y * 100).rounded())
            }
        }
        var ends: [Key: [Int]] = [:]
        for (index, segment) in segments.enumerated() {
            ends[Key(segment.metres, segment.from), default: []].append(index)
            ends[Key(segment.metres, segment.to), default: []].append(index)
        }
        var used = [Bool](repeating: false, count: segments.count)
        var chains: [(metres: Double, line: [Point])] = []
        for start in segments.indices where !used[start] {
            used[start] = true
            let metres = segments[start].metres
            var line = [segments[start].from, segments[start].to]
            // Grow the line at its end, then at its start.
            for _ in 0..<2 {
                while let next = ends[Key(metres, line[line.count - 1])]?.first(where: { !used[$0] }) {
                    used[next] = true
                    let segment = segments[next]
                    line.append(
                        Key(metres, segment.from) == Key(metres, line[line.count - 1]) ? segment.to : segment.from)
                }
                line.reverse()
            }
            chains.append((metres, line))
        }
        return chains.sorted { $0.line.count > $1.line.count }
    }
}
