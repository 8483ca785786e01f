internal import CCairo
import Foundation
import GeoCore

/// A run of text laid out by Pango for one canvas: HarfBuzz shapes it (Devanagari conjuncts,
/// Arabic joining, CJK) and fontconfig falls back to whichever installed font has each
/// character.
///
/// Sizes are in points. The layout's origin is the top-left of its logical box.
public final class TextLayout {
    /// A box in points, relative to the layout's origin.
    public struct Box: Sendable, Hashable {
        /// The left edge, points from the origin.
        public var x: Double
        /// The top edge, points from the origin (y grows down).
        public var y: Double
        /// Width in points.
        public var width: Double
        /// Height in points.
        public var height: Double

        /// A box at (`x`, `y`) of `width` by `height` points.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// True when the two boxes share any area (touching edges do not count).
        public func overlaps(_ other: Box) -> Bool {
            x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
        }
    }

    private let canvas: Canvas
    private let layout: OpaquePointer

    /// Lays out `text` on `canvas`.
    ///
    /// - Parameters:
    ///   - font: a Pango font description's family and style, e.g. `"Noto Sans Bold"`;
    ///     default `"Noto Sans"`.
    ///   - size: the font size in points, 1...500; default 12.
    ///   - maxWidth: wraps lines longer than this many points; nil (default) never wraps.
    public init(
        _ text: String, font: String = "Noto Sans", size: Double = 12, maxWidth: Double? = nil, on canvas: Canvas
    ) {
        self.canvas = canvas
        layout = pango_cairo_create_layout(canvas.context)
        let description = pango_font_description_from_string("\(font) \(min(max(size, 1), 500))")
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        if let maxWidth { pango_layout_set_width(layout, Int32(maxWidth * Double(OPENMAPS_PANGO_SCALE))) }
        pango_layout_set_text(layout, text, -1)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// How many characters no installed font could draw (shown as boxes); 0 when every
    /// script of the text is covered.
    public var unknownGlyphs: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

    /// The box the text occupies for layout (line height and advance widths).
    public var logicalBox: Box { extents().logical }
    /// The box the drawn glyphs actually cover.
    public var inkBox: Box { extents().ink }
    /// Distance from the top of the logical box to the first line's baseline, in points.
    public var baseline: Double { Double(pango_layout_get_baseline(layout)) / Double(OPENMAPS_PANGO_SCALE) }

    /// Draws the text with its top-left at (x, y) in `color`, first under a halo of
    /// `haloWidth` points in `halo` when given (labels stay legible on any map).
    public func draw(x: Double, y: Double, color: Color, halo: Color? = nil, haloWidth: Double = 2) {
        canvas.save()
        canvas.move(x: x, y: y)
        pango_cairo_update_layout(canvas.context, layout)
        if let halo, haloWidth > 0 {
            pango_cairo_layout_path(canvas.context, layout)
            canvas.stroke(halo, width: haloWidth * 2, cap: .round, join: .round)
            canvas.move(x: x, y: y)
        }
        canvas.setColor(color)
        pango_cairo_show_layout(canvas.context, layout)
        canvas.restore()
    }

    /// Draws the text along a polyline (points on the canvas), its left end `start` points
    /// from the line's first point, centred vertically on the line, each glyph outline bent
    /// to follow it (so shaping, conjuncts and ligatures are kept); under a halo when given.
    /// Does nothing when the text would run past the line's end.
    ///
    /// - Parameters:
    ///   - line: at least two points, in the order the text reads.
    ///   - start: arc length in points from `line`'s first point to the text's left end, ≥ 0.
    public func draw(
        along line: [(x: Double, y: Double)], start: Double, color: Color, halo: Color? = nil, haloWidth: Double = 2
    ) {
        let guide = MeasuredPath(line)
        let box = logicalBox
        guard guide.length > 0, start >= 0, start + box.width <= guide.length else { return }
        canvas.save()
        // The glyph outlines with the text's left end at x = 0 and its middle on y = 0.
        cairo_new_path(canvas.context)
        canvas.move(x: 0, y: -box.height / 2)
        pango_cairo_update_layout(canvas.context, layout)
        pango_cairo_layout_path(canvas.context, layout)
        guard let flat = cairo_copy_path_flat(canvas.context) else {
            canvas.restore()
            return
        }
        defer { cairo_path_destroy(flat) }
        cairo_new_path(canvas.context)
        var index = 0
        var last = (x: 0.0, y: 0.0)
        while index < Int(flat.pointee.num_data) {
            let header = flat.pointee.data[index].header
            let length = Int(header.length)
            switch header.type {
            case CAIRO_PATH_MOVE_TO:
                let point = flat.pointee.data[index + 1].point
                last = (point.x, point.y)
                let bent = guide.bend(x: start + point.x, y: point.y)
                canvas.move(x: bent.x, y: bent.y)
            case CAIRO_PATH_LINE_TO:
                let point = flat.pointee.data[index + 1].point
                // Long glyph edges are cut into 1-point steps so they curve with the line.
                let steps = max(1, Int((abs(point.x - last.x)).rounded(.up)))
                for step in 1...steps {
                    let fraction = Double(step) / Double(steps)
                    let bent = guide.bend(
                        x: start + last.x + (point.x - last.x) * fraction, y: last.y + (point.y - last.y) * fraction)
                    canvas.line(x: bent.x, y: bent.y)
                }
                last = (point.x, point.y)
            case CAIRO_PATH_CLOSE_PATH:
                canvas.closePath()
            default:
                break
            }
            index += max(length, 1)
        }
        if let halo, haloWidth > 0 {
            canvas.stroke(halo, width: haloWidth * 2, cap: .round, join: .round, keepPath: true)
        }
        canvas.fill(color, evenOdd: false)
        canvas.restore()
    }

    private func extents() -> (ink: Box, logical: Box) {
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        func box(_ rectangle: PangoRectangle) -> Box {
            let scale = Double(OPENMAPS_PANGO_SCALE)
            return Box(
                x: Double(rectangle.x) / scale, y: Double(rectangle.y) / scale, width: Double(rectangle.width) / scale,
                height: Double(rectangle.height) / scale)
        }
        return (box(ink), box(logical))
    }
}

/// A polyline measured by arc length, for bending text along it.
public struct MeasuredPath: Sendable {
    /// The polyline's points, in points on the canvas, in order.
    public let points: [(x: Double, y: Double)]
    /// Arc length at each point, points; `lengths[0] == 0`.
    public let lengths: [Double]

    /// Measures `points` (two or more for a path text can follow).
    public init(_ points: [(x: Double, y: Double)]) {
        self.points = points
        var lengths = [0.0]
        for index in points.indices.dropFirst() {
            lengths.append(
                lengths[index - 1] + hypot(points[index].x - points[index - 1].x, points[index].y - points[index - 1].y)
            )
        }
        self.lengths = lengths
    }

    /// Total length in points.
    public var length: Double { lengths.last ?? 0 }

    /// The point `distance` along the line (clamped to it) and the unit direction there.
    public func position(at distance: Double) -> (x: Double, y: Double, dx: Double, dy: Double) {
        guard points.count >= 2 else { return (points.first?.x ?? 0, points.first?.y ?? 0, 1, 0) }
        let target = min(max(distance, 0), length)
        // The segment holding `target`: the last whose start is at or before it.
        var low = 0
        var high = lengths.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if lengths[middle] <= target { low = middle } else { high = middle - 1 }
        }
        var segment = low
        // Skip zero-length segments, which have no direction.
        while segment < points.count - 2 && lengths[segment + 1] - lengths[segment] == 0 { segment += 1 }
        let from = points[segment]
        let to = points[segment + 1]
        let span = max(lengths[segment + 1] - lengths[segment], 1e-9)
        let fraction = (target - lengths[segment]) / span
        return (
            from.x + (to.x - from.x) * fraction, from.y + (to.y - from.y) * fraction, (to.x - from.x) / span,
            (to.y - from.y) / span
        )
    }

    /// A point `x` along the line and `y` to its right (screen y grows downwards, so for a line
    /// running left to right, positive `y` is below it).
    func bend(x: Double, y: Double) -> (x: Double, y: Double) {
        let at = position(at: x)
        return (at.x - at.dy * y, at.y + at.dx * y)
    }
}
