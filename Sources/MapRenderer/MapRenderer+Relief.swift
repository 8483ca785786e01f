import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

/// The terrain map drawn from the store's imported elevation models: colours by height
/// (hypsometric tint), shaded by a hillshade lit from the north-west, and contour lines at
/// intervals chosen by zoom. Public for the benchmark that measures its stages alone
/// (`openmaps-bench relief`); pictures use it through ``MapRenderer``.
public struct ReliefPainter {
    /// A piece of a contour line between two canvas points, with its height in metres.
    public typealias ContourSegment = (metres: Double, from: Point, to: Point)
    /// A contour line through canvas points, with its height in metres.
    public typealias ContourLine = (metres: Double, line: [Point])

    /// Heights a point apart over the canvas and one point beyond each edge, metres (NaN
    /// where no model reaches), rows from the top.
    let heights: [Float]
    /// The grid's size: the canvas's points and one beyond each edge.
    public let columns: Int
    public let rows: Int
    /// Ground metres a point of the canvas spans (at the camera's target).
    let metresPerPoint: Double
    /// The cosine and sine of the camera's bearing: the light stays in the north-west however
    /// the map turns.
    let turn: (cos: Double, sin: Double)

    /// The relief of the view, nil where no model reaches it.
    public init?(
        store: MapStore, projection: Projection, camera: CameraPosition, size: Size, bounds: CoordinateBounds
    ) throws {
        var reader = try Elevation.Reader(store: store, within: bounds)
        guard !reader.models.isEmpty else { return nil }
        columns = Int(size.width.rounded(.up)) + 2
        rows = Int(size.height.rounded(.up)) + 2
        // The models' tiles whose pixels are the view's points.
        let zoom = Int(camera.zoom.rounded())
        // Looking straight down with north up (every tile), the world points of the grid are a
        // lattice laid out from two corners: read a row of the models' pixels at a time.
        let origin = WebMercator.project(projection.coordinate(for: Point(x: -0.5, y: -0.5)), worldSize: 1)
        let far = WebMercator.project(
            projection.coordinate(for: Point(x: Double(columns) - 1.5, y: Double(rows) - 1.5)), worldSize: 1)
        let step = (x: (far.x - origin.x) / Double(columns - 1), y: (far.y - origin.y) / Double(rows - 1))
        if camera.bearing == 0 && camera.viewingAngle == 0 && step.x > 0 && step.y > 0 {
            guard
                let heights = try reader.heights(
                    origin: (origin.x, origin.y), step: step, columns: columns, rows: rows, zoom: zoom)
            else { return nil }
            self.heights = heights
        } else {
            var heights = [Float](repeating: .nan, count: columns * rows)
            var any = false
            for row in 0..<rows {
                for column in 0..<columns {
                    let point = Point(x: Double(column) - 0.5, y: Double(row) - 0.5)
                    if let height = try reader.height(at: projection.coordinate(for: point), zoom: zoom) {
                        heights[row * columns + column] = Float(height)
                        any = true
                    }
                }
            }
            guard any else { return nil }
            self.heights = heights
        }
        metresPerPoint = WebMercator.metersPerPoint(latitude: camera.target.latitude, zoom: camera.zoom)
        turn = (cos(camera.bearing * .pi / 180), sin(camera.bearing * .pi / 180))
    }

    /// How lit the ground of each grid cell of `row` is, into `lit` (`columns` values): 1 on the
    /// flat, brighter on slopes facing the light, darker on those facing away (0.4...1.3). The
    /// light is multidirectional, as `gdaldem -multidirectional` lights: from the north-west
    /// (half the weight), the west and the north (a quarter each), 45° high. A neighbour with
    /// no height counts as the cell's own.
    func shade(row: Int, into lit: UnsafeMutableBufferPointer<Float>) {
        let (l0, l1, l2) = (Self.lights[0], Self.lights[1], Self.lights[2])
        let scale = Float(1 / (2 * metresPerPoint))
        let (cosine, sine) = (Float(turn.cos), Float(turn.sin))
        let perAltitude = 1 / Float(sin(Self.lightAltitude))
        heights.withUnsafeBufferPointer { heights in
            let here = heights.baseAddress! + row * columns
            let above = heights.baseAddress! + max(row - 1, 0) * columns
            let below = heights.baseAddress! + min(row + 1, rows - 1) * columns
            @inline(__always) func light(_ column: Int, left: Int, right: Int) {
                let centre = here[column]
                @inline(__always) func or(_ value: Float) -> Float { value.isNaN ? centre : value }
                // The slope along the canvas (right, up), then turned to east and north.
                let toRight = (or(here[right]) - or(here[left])) * scale
                let up = (or(above[column]) - or(below[column])) * scale
                let east = toRight * cosine + up * sine
                let north = up * cosine - toRight * sine
                let inverseLength = 1 / (east * east + north * north + 1).squareRoot()
                var sum = l0.weight * Swift.max(0, l0.up - east * l0.east - north * l0.north)
                sum += l1.weight * Swift.max(0, l1.up - east * l1.east - north * l1.north)
                sum += l2.weight * Swift.max(0, l2.up - east * l2.east - north * l2.north)
                lit[column] = Swift.min(Swift.max(sum * inverseLength * perAltitude, 0.4), 1.3)
            }
            guard columns > 1 else {
                light(0, left: 0, right: 0)
                return
            }
            light(0, left: 0, right: 1)
            for column in 1..<columns - 1 { light(column, left: column - 1, right: column + 1) }
            light(columns - 1, left: columns - 2, right: columns - 1)
        }
    }

    /// The lights' height above the horizon: 45°.
    static let lightAltitude = Double.pi / 4

    /// The lights, each as a unit vector towards it (east, north, up) and its weight: from
    /// 315° (half), 270° and 360° (a quarter each).
    static let lights: [(east: Float, north: Float, up: Float, weight: Float)] = [
        (315.0, 0.5), (270.0, 0.25), (360.0, 0.25),
    ].map { azimuth, weight in
        let a = azimuth * .pi / 180
        return (
            Float(sin(a) * cos(lightAltitude)), Float(cos(a) * cos(lightAltitude)), Float(sin(lightAltitude)),
            Float(weight)
        )
    }

    /// The colour of `metres` in the scheme (red, green, blue, 0...1): green lowlands, yellow
    /// and tan hills, brown mountains, grey and white peaks (darker for the dark scheme). The
    /// same tint the relief paints (``tintRow(_:red:green:blue:)``).
    static func tint(_ metres: Double, dark: Bool) -> (Double, Double, Double) {
        var (height, red, green, blue): (Float, Float, Float, Float) = (Float(metres), 0, 0, 0)
        withUnsafePointer(to: &height) { height in
            tintRow(UnsafeBufferPointer(start: height, count: 1), red: &red, green: &green, blue: &blue)
        }
        let darkening = dark ? Self.darkening : (1, 1, 1)
        return (Double(red * darkening.0), Double(green * darkening.1), Double(blue * darkening.2))
    }

    /// What the dark scheme multiplies the tint's red, green and blue by.
    static let darkening: (Float, Float, Float) = (0.32, 0.34, 0.36)

    /// The tint's heights (metres) and colours (red, green, blue, 0...1), lowest first.
    static let tintStops: [(Double, (Double, Double, Double))] = [
        (0, (0.71, 0.82, 0.63)), (200, (0.83, 0.86, 0.66)), (500, (0.90, 0.87, 0.69)),
        (1000, (0.85, 0.76, 0.60)), (2000, (0.75, 0.63, 0.49)), (3000, (0.78, 0.75, 0.72)),
        (4500, (0.96, 0.96, 0.96)),
    ]

    /// The tint as a sum over its stops' spans: the colour at 0 m, then for each span between
    /// two stops its start (metres), length (metres) and the colour's change a metre. The
    /// colour at a height is the first plus each span's change times the part of the span
    /// below the height: linear between stops, without a search.
    static let tintSpans:
        (base: (Float, Float, Float), spans: [(from: Float, length: Float, slope: (Float, Float, Float))]) = {
            let stops = tintStops
            let base = stops[0].1
            let spans = (1..<stops.count).map { index in
                let (lower, upper) = (stops[index - 1], stops[index])
                let length = upper.0 - lower.0
                return (
                    Float(lower.0), Float(length),
                    (
                        Float((upper.1.0 - lower.1.0) / length), Float((upper.1.1 - lower.1.1) / length),
                        Float((upper.1.2 - lower.1.2) / length)
                    )
                )
            }
            return ((Float(base.0), Float(base.1), Float(base.2)), spans)
        }()

    /// The light scheme's tint of each of `metres` into `red`, `green` and `blue` (as many):
    /// the spans wholly below the row's heights add their whole change to every cell, those
    /// wholly above nothing, and only the spans its heights lie in are worked out cell by cell.
    static func tintRow(
        _ metres: UnsafeBufferPointer<Float>, red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
        blue: UnsafeMutablePointer<Float>
    ) {
        let (base, spans) = tintSpans
        var (low, high) = (Float.infinity, -Float.infinity)
        for height in metres {
            low = height < low ? height : low
            high = height > high ? height : high
        }
        var rowBase = base
        var within: [(from: Float, length: Float, slope: (Float, Float, Float))] = []
        for span in spans where span.from < high {
            if span.from + span.length <= low {
                rowBase.0 += span.length * span.slope.0
                rowBase.1 += span.length * span.slope.1
                rowBase.2 += span.length * span.slope.2
            } else {
                within.append(span)
            }
        }
        for column in metres.indices { (red[column], green[column], blue[column]) = rowBase }
        for span in within {
            for column in metres.indices {
                let part = Swift.min(Swift.max(metres[column] - span.from, 0), span.length)
                red[column] += part * span.slope.0
                green[column] += part * span.slope.1
                blue[column] += part * span.slope.2
            }
        }
    }

    /// The relief's opacity: 235 of 255.
    static let alpha: Float = 235

    /// Paints the tinted, shaded relief over the canvas (the sea, at or below 0 m, and where no
    /// model reaches left as they are), at 235/255 opacity.
    func paint(on canvas: Canvas, dark: Bool) throws {
        let colours = premultipliedColours(dark: dark)
        try canvas.paintRows { y, scale, pixels in
            let row = min(max(Int((Double(y) + 0.5) / scale) + 1, 0), rows - 1) * columns
            colours.withUnsafeBufferPointer { colours in
                if scale == 1 {
                    for x in 0..<min(pixels.count, columns - 1) { pixels[x] = colours[row + x + 1] }
                } else {
                    for x in 0..<pixels.count {
                        pixels[x] = colours[row + min(Int((Double(x) + 0.5) / scale) + 1, columns - 1)]
                    }
                }
            }
        }
    }

    /// Each grid cell's tinted, shaded colour as Cairo keeps it: ARGB premultiplied by the
    /// relief's alpha (each channel the tint times the light, cut at full, times 235, rounded),
    /// 0 (transparent) where there is no land height.
    public func premultipliedColours(dark: Bool) -> [UInt32] {
        let darkening = dark ? Self.darkening : (1, 1, 1)
        let factor = (darkening.0 * Self.alpha, darkening.1 * Self.alpha, darkening.2 * Self.alpha)
        let alphaBits = UInt32(Self.alpha) << 24
        // A row's light, then its tint's red, green and blue, `columns` each.
        var scratch = [Float](repeating: 0, count: 4 * columns)
        return [UInt32](unsafeUninitializedCapacity: columns * rows) { colours, count in
            scratch.withUnsafeMutableBufferPointer { scratch in
                let lit = UnsafeMutableBufferPointer(rebasing: scratch[0..<columns])
                let red = scratch.baseAddress! + columns
                let (green, blue) = (red + columns, red + 2 * columns)
                heights.withUnsafeBufferPointer { heights in
                    for row in 0..<rows {
                        let metres = UnsafeBufferPointer(rebasing: heights[row * columns..<(row + 1) * columns])
                        shade(row: row, into: lit)
                        Self.tintRow(metres, red: red, green: green, blue: blue)
                        let out = colours.baseAddress! + row * columns
                        for column in 0..<columns {
                            /// A channel 0...1 times the light, cut at full, premultiplied and
                            /// rounded (0...235) by the bits of its sum with 2^23.
                            @inline(__always) func channel(_ value: Float, _ factor: Float) -> UInt32 {
                                let scaled = Swift.min(Swift.max(value * lit[column] * factor, 0), Self.alpha)
                                return (scaled + 8_388_608).bitPattern & 0xFF
                            }
                            let colour =
                                alphaBits | channel(red[column], factor.0) << 16 | channel(green[column], factor.1) << 8
                                | channel(blue[column], factor.2)
                            // The sea (at or below 0 m) and no height: transparent.
                            out[column] = metres[column] > 0 ? colour : 0
                        }
                    }
                }
            }
            count = columns * rows
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

    /// The contour lines at each multiple of `interval` (metres), as segments between canvas
    /// points (marching squares on the heights, two points a cell), with their heights.
    public func contours(interval: Double) -> [ContourSegment] {
        let step = 2
        var segments: [ContourSegment] = []
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
                    let value = Double(heights[(row + offsets[corner].1) * columns + column + offsets[corner].0])
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

    /// Strokes the contour lines, joined into polylines: every line thin, the major ones
    /// (``intervals(zoom:)``) heavier, in the relief's brown (lighter in the dark scheme);
    /// returns the major lines with their heights, longest first, for their labels.
    func drawContours(on canvas: Canvas, zoom: Double, dark: Bool) -> [ContourLine] {
        let (minor, major) = Self.intervals(zoom: zoom)
        let lines = Self.chains(contours(interval: minor))
        let colour = dark ? Color(hex: 0xAA9678, alpha: 0.55) : Color(hex: 0x82643C, alpha: 0.55)
        func isMajor(_ metres: Double) -> Bool { metres.truncatingRemainder(dividingBy: major) == 0 }
        for heavy in [false, true] {
            for (metres, line) in lines where isMajor(metres) == heavy {
                canvas.move(x: line[0].x, y: line[0].y)
                for point in line.dropFirst() { canvas.line(x: point.x, y: point.y) }
            }
            canvas.stroke(colour, width: heavy ? 1.1 : 0.5)
        }
        return lines.filter { isMajor($0.metres) }
    }

    /// Segments of one height joined end to end into polylines, longest first. Ends meet where
    /// their heights are equal and their points agree to a hundredth of a point.
    public static func chains(_ segments: [ContourSegment]) -> [ContourLine] {
        let ends = SegmentEnds(segments)
        var used = [Bool](repeating: false, count: segments.count)
        var chains: [ContourLine] = []
        for start in segments.indices where !used[start] {
            used[start] = true
            let metres = segments[start].metres
            var line = [segments[start].from, segments[start].to]
            // Grow the line at its end, then at its start.
            for _ in 0..<2 {
                while let (next, far) = ends.unused(at: metres, line[line.count - 1], used: used) {
                    used[next] = true
                    line.append(far)
                }
                line.reverse()
            }
            chains.append((metres, line))
        }
        return chains.sorted { $0.line.count > $1.line.count }
    }
}

/// The ends of contour segments by where they are: an open-addressing table of (height, point
/// to a hundredth) to the ends there, each end `segment × 2` (its start) or `segment × 2 + 1`.
struct SegmentEnds {
    private let segments: [ReliefPainter.ContourSegment]
    /// Each slot's place (height's bits, x and y in hundredths), its first end (-1: empty) and
    /// its last.
    private var places: [(metres: UInt64, x: Int, y: Int)]
    private var first: [Int32]
    private var last: [Int32]
    /// The next end at the same place as each end (-1: none), in the segments' order.
    private var next: [Int32]
    private let mask: Int

    init(_ segments: [ReliefPainter.ContourSegment]) {
        self.segments = segments
        var capacity = 16
        while capacity < segments.count * 4 { capacity *= 2 }
        mask = capacity - 1
        places = Array(repeating: (0, 0, 0), count: capacity)
        first = Array(repeating: -1, count: capacity)
        last = Array(repeating: -1, count: capacity)
        next = Array(repeating: -1, count: segments.count * 2)
        for (index, segment) in segments.enumerated() {
            for (end, point) in [segment.from, segment.to].enumerated() {
                let place = Self.place(segment.metres, point)
                let slot = self.slot(of: place)
                let id = Int32(index * 2 + end)
                if first[slot] < 0 {
                    places[slot] = place
                    first[slot] = id
                } else {
                    next[Int(last[slot])] = id
                }
                last[slot] = id
            }
        }
    }

    /// Where an end is: its height's bits (−0 taken as 0, which the level of a cell below sea
    /// level can be) and its point in hundredths.
    static func place(_ metres: Double, _ point: Point) -> (metres: UInt64, x: Int, y: Int) {
        ((metres + 0).bitPattern, Int((point.x * 100).rounded()), Int((point.y * 100).rounded()))
    }

    /// The slot holding `place`, or the empty one where it would go.
    private func slot(of place: (metres: UInt64, x: Int, y: Int)) -> Int {
        var hash = place.metres &* 0x9E37_79B9_7F4A_7C15
        hash ^= UInt64(bitPattern: Int64(place.x)) &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= UInt64(bitPattern: Int64(place.y)) &* 0x1656_67B1_9E37_79F9
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 31)) & mask
        while first[slot] >= 0 && places[slot] != place { slot = (slot + 1) & mask }
        return slot
    }

    /// A segment not yet `used` with an end at `point` of height `metres`, and its other end.
    func unused(at metres: Double, _ point: Point, used: [Bool]) -> (segment: Int, far: Point)? {
        var end = Int(first[slot(of: Self.place(metres, point))])
        while end >= 0 {
            let segment = end / 2
            if !used[segment] { return (segment, end % 2 == 0 ? segments[segment].to : segments[segment].from) }
            end = Int(next[end])
        }
        return nil
    }
}
