import CCairo

/// A run of text laid out by Pango for one canvas: HarfBuzz shapes it (Devanagari conjuncts,
/// Arabic joining, CJK) and fontconfig falls back to whichever installed font has each
/// character.
///
/// Sizes are in points. The layout's origin is the top-left of its logical box.
public final class TextLayout {
    /// A box in points, relative to the layout's origin.
    public struct Box: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

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
