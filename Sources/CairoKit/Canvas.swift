internal import CCairo
import Foundation
import GeoCore

/// The picture formats a canvas writes.
public enum PictureFormat: String, Sendable, CaseIterable {
    /// A raster image, premultiplied ARGB in memory, written as PNG.
    case png
    /// Scalable vector graphics; text stays as glyph outlines.
    case svg
    /// A one-page PDF.
    case pdf

    /// The format a file name asks for by its extension (`map.png`), or nil.
    public init?(path: String) {
        self.init(rawValue: (path as NSString).pathExtension.lowercased())
    }
}

/// A drawing surface and its Cairo context: the only place CairoKit's users meet Cairo.
///
/// Coordinates are in points from the top-left corner, y down. A PNG canvas has
/// `width × scale` by `height × scale` pixels; SVG and PDF canvases are `width × height`
/// points and ignore the scale. Not thread-safe: one canvas per thread.
public final class Canvas {
    /// Width and height in points.
    public let width: Double
    /// Height in points.
    public let height: Double
    /// Device pixels per point for PNG (1...8); 1 for SVG and PDF.
    public let scale: Double
    /// What the canvas writes: PNG, SVG or PDF.
    public let format: PictureFormat
    let surface: OpaquePointer
    let context: OpaquePointer
    private let sink: ByteSink?
    private var isFinished = false

    /// A blank, transparent canvas.
    ///
    /// - Parameters:
    ///   - width: points, 1...16384 (× scale for PNG).
    ///   - height: points, 1...16384 (× scale for PNG).
    ///   - scale: device pixels per point for PNG, 1...8; default 1.
    public init(width: Double, height: Double, scale: Double = 1, format: PictureFormat = .png) throws(CairoError) {
        let pixelScale = format == .png ? scale : 1
        guard scale >= 1, scale <= 8 else {
            throw CairoError(.invalidArgument, message: "scale \(scale) is outside 1...8")
        }
        guard width >= 1, height >= 1, width * pixelScale <= 16384, height * pixelScale <= 16384 else {
            throw CairoError(
                .invalidArgument, message: "size \(width)×\(height) at scale \(pixelScale) is outside 1...16384 pixels")
        }
        self.width = width
        self.height = height
        self.scale = pixelScale
        self.format = format
        let sink = format == .png ? nil : ByteSink()
        let closure = sink.map { Unmanaged.passUnretained($0).toOpaque() }
        let created: OpaquePointer? =
            switch format {
            case .png:
                cairo_image_surface_create(
                    CAIRO_FORMAT_ARGB32, Int32((width * pixelScale).rounded(.up)),
                    Int32((height * pixelScale).rounded(.up)))
            case .svg: cairo_svg_surface_create_for_stream(ByteSink.write, closure, width, height)
            case .pdf: cairo_pdf_surface_create_for_stream(ByteSink.write, closure, width, height)
            }
        (surface, context) = try Self.drawable(created, doing: "creating a \(format) surface")
        if format == .svg { cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1) }
        self.sink = sink
        cairo_scale(context, pixelScale, pixelScale)
    }

    /// A PNG canvas holding a decoded PNG image (for comparing pictures and drawing over them);
    /// its scale is 1, so points are pixels.
    public init(png bytes: [UInt8]) throws(CairoError) {
        let source = ByteSource(bytes)
        // Cairo reads the whole stream inside this call; the source lives until it returns.
        let created = withExtendedLifetime(source) {
            cairo_image_surface_create_from_png_stream(ByteSource.read, Unmanaged.passUnretained(source).toOpaque())
        }
        (surface, context) = try Self.drawable(created, doing: "decoding PNG")
        self.sink = nil
        width = Double(cairo_image_surface_get_width(surface))
        height = Double(cairo_image_surface_get_height(surface))
        scale = 1
        format = .png
    }

    /// A surface Cairo created, checked, and a context drawing on it; the surface is destroyed
    /// when either failed.
    private static func drawable(
        _ created: OpaquePointer?, doing action: String
    ) throws(CairoError) -> (surface: OpaquePointer, context: OpaquePointer) {
        guard let surface = created, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let status = created.map(cairo_surface_status) ?? CAIRO_STATUS_NO_MEMORY
            if let created { cairo_surface_destroy(created) }
            throw CairoError(status: status, doing: action)
        }
        guard let context = cairo_create(surface), cairo_status(context) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError(.drawing, message: "cannot create a drawing context")
        }
        return (surface, context)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    // MARK: State

    /// Saves the transform, clip and line settings; pair with ``restore()``.
    public func save() { cairo_save(context) }
    /// Takes back the drawing state saved by the last ``save()``.
    public func restore() { cairo_restore(context) }
    /// Moves the origin by (x, y) points.
    public func translate(x: Double, y: Double) { cairo_translate(context, x, y) }
    /// Rotates the axes by `radians`, clockwise on screen.
    public func rotate(radians: Double) { cairo_rotate(context, radians) }

    // MARK: Paths

    /// Starts a new piece of the path at (`x`, `y`), points.
    public func move(x: Double, y: Double) { cairo_move_to(context, x, y) }
    /// Adds a straight line to (`x`, `y`), points, from the current point.
    public func line(x: Double, y: Double) { cairo_line_to(context, x, y) }
    /// A cubic Bézier from the current point through two control points to (x, y).
    public func curve(x1: Double, y1: Double, x2: Double, y2: Double, x: Double, y: Double) {
        cairo_curve_to(context, x1, y1, x2, y2, x, y)
    }
    /// Closes the current piece of the path back to its start.
    public func closePath() { cairo_close_path(context) }
    /// Adds a closed rectangle to the path, in points.
    public func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(context, x, y, width, height)
    }
    /// A full circle of `radius` points, as its own closed sub-path.
    public func circle(x: Double, y: Double, radius: Double) {
        cairo_new_sub_path(context)
        cairo_arc(context, x, y, radius, 0, 2 * Double.pi)
        cairo_close_path(context)
    }
    /// Forgets the current path without drawing it.
    public func clearPath() { cairo_new_path(context) }

    // MARK: Painting

    /// How a stroke ends and joins.
    public enum LineCap: Sendable { case butt, round, square }
    /// How two segments of a stroked line meet: a sharp corner, a rounded one or a cut-off one.
    public enum LineJoin: Sendable { case miter, round, bevel }

    /// Paints the whole canvas (inside the clip) with `color`, replacing what is there.
    public func fill(all color: Color) {
        save()
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
        setColor(color)
        cairo_paint(context)
        restore()
    }

    /// Fills the current path (even-odd when `evenOdd`, so inner rings are holes) and clears it
    /// unless `keepPath`.
    public func fill(_ color: Color, evenOdd: Bool = true, keepPath: Bool = false) {
        setColor(color)
        cairo_set_fill_rule(context, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        if keepPath { cairo_fill_preserve(context) } else { cairo_fill(context) }
    }

    /// Strokes the current path and clears it unless `keepPath`.
    ///
    /// - Parameters:
    ///   - width: line width in points.
    ///   - dash: on/off lengths in points; empty for a solid line.
    public func stroke(
        _ color: Color, width: Double, cap: LineCap = .round, join: LineJoin = .round, dash: [Double] = [],
        keepPath: Bool = false
    ) {
        setColor(color)
        cairo_set_line_width(context, width)
        let cairoCap: cairo_line_cap_t =
            switch cap {
            case .butt: CAIRO_LINE_CAP_BUTT
            case .round: CAIRO_LINE_CAP_ROUND
            case .square: CAIRO_LINE_CAP_SQUARE
            }
        let cairoJoin: cairo_line_join_t =
            switch join {
            case .miter: CAIRO_LINE_JOIN_MITER
            case .round: CAIRO_LINE_JOIN_ROUND
            case .bevel: CAIRO_LINE_JOIN_BEVEL
            }
        cairo_set_line_cap(context, cairoCap)
        cairo_set_line_join(context, cairoJoin)
        cairo_set_dash(context, dash, Int32(dash.count), 0)
        if keepPath { cairo_stroke_preserve(context) } else { cairo_stroke(context) }
    }

    /// Restricts later drawing to the current path (intersected with the clip) and clears it.
    public func clip() { cairo_clip(context) }

    func setColor(_ color: Color) { cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha) }

    // MARK: Output

    /// One device pixel of a PNG canvas, straight alpha; nil outside it or for SVG and PDF.
    public func pixel(x: Int, y: Int) -> Pixel? {
        guard format == .png, !isFinished else { return nil }
        cairo_surface_flush(surface)
        let pixelWidth = Int(cairo_image_surface_get_width(surface))
        let pixelHeight = Int(cairo_image_surface_get_height(surface))
        guard x >= 0, y >= 0, x < pixelWidth, y < pixelHeight, let data = cairo_image_surface_get_data(surface)
        else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        // ARGB32 is one native-endian 32-bit word a pixel, premultiplied.
        let word = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
        let alpha = UInt8(word >> 24)
        func straight(_ shift: UInt32) -> UInt8 {
            let value = (word >> shift) & 0xFF
            return alpha == 0 ? 0 : UInt8(min(255, (value * 255 + UInt32(alpha) / 2) / UInt32(alpha)))
        }
        return Pixel(red: straight(16), green: straight(8), blue: straight(0), alpha: alpha)
    }

    /// The picture's bytes in its format. SVG and PDF canvases are finished by this: draw
    /// nothing after it.
    public func encoded() throws(CairoError) -> [UInt8] {
        switch format {
        case .png:
            cairo_surface_flush(surface)
            return try Self.png(of: surface)
        case .svg, .pdf:
            if !isFinished {
                cairo_surface_finish(surface)
                isFinished = true
            }
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else { throw CairoError(status: status, doing: "writing \(format)") }
            return sink?.bytes ?? []
        }
    }

    /// A rectangle of a PNG canvas as PNG bytes, e.g. one tile of a metatile.
    ///
    /// - Parameters: `x`, `y`, `width`, `height` in points (× scale in pixels), inside the canvas.
    public func encodedPNG(x: Double, y: Double, width: Double, height: Double) throws(CairoError) -> [UInt8] {
        guard format == .png, !isFinished else {
            throw CairoError(.invalidArgument, message: "only a PNG canvas can be cut into pieces")
        }
        guard x >= 0, y >= 0, width >= 1, height >= 1, x + width <= self.width, y + height <= self.height else {
            throw CairoError(
                .invalidArgument,
                message: "rectangle \(x),\(y) \(width)×\(height) is outside the \(self.width)×\(self.height) canvas")
        }
        cairo_surface_flush(surface)
        let piece = cairo_image_surface_create(
            CAIRO_FORMAT_ARGB32, Int32((width * scale).rounded()), Int32((height * scale).rounded()))
        let (pieceSurface, pieceContext) = try Self.drawable(piece, doing: "creating a PNG piece")
        defer {
            cairo_destroy(pieceContext)
            cairo_surface_destroy(pieceSurface)
        }
        cairo_set_operator(pieceContext, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(pieceContext, surface, -x * scale, -y * scale)
        cairo_paint(pieceContext)
        cairo_surface_flush(pieceSurface)
        return try Self.png(of: pieceSurface)
    }

    /// An image surface's PNG bytes (see ``PNGEncoder``).
    private static func png(of surface: OpaquePointer) throws(CairoError) -> [UInt8] {
        guard let data = cairo_image_surface_get_data(surface) else {
            throw CairoError(.encoding, message: "the picture has no pixels to encode")
        }
        return try PNGEncoder.encode(
            data, width: Int(cairo_image_surface_get_width(surface)),
            height: Int(cairo_image_surface_get_height(surface)), stride: Int(cairo_image_surface_get_stride(surface)))
    }

    /// Writes the picture to `path` atomically: a temporary file beside it, renamed into place.
    ///
    /// - Throws: ``CairoError`` of kind `.file` naming the path, with the file system's error.
    public func write(to path: String) throws(CairoError) {
        let bytes = try encoded()
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(UUID().uuidString).tmp"
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw CairoError(.file, message: "cannot write the picture", path: path, underlying: error)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw CairoError(.file, message: "cannot move the picture into place: \(reason)", path: path)
        }
    }
}
