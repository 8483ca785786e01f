internal import CFreeType
import Foundation
import GeoCore

/// Why glyphs could not be made: what was wrong and with which font.
public struct GlyphError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, one sentence.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The only code that calls FreeType: signed distance field glyphs as MapLibre draws labels
/// with, 256 code points a range, in the glyph protobuf every MapLibre client reads
/// (`fontstack` → `glyphs` of `id`, `bitmap`, `width`, `height`, `left`, `top`, `advance`).
///
/// Glyphs are rendered at 24 pixels with FreeType's SDF renderer and re-encoded as MapLibre
/// expects: a border of 3 pixels, the outline at 192 of 255, 8 pixels of distance from the
/// outline to either end. A font stack is a list of font files tried in turn for each code
/// point (Noto Sans, then Noto Sans Devanagari, …), so one stack covers the scripts of the
/// four languages. Thread-safe: each call opens FreeType of its own.
public enum SDFGlyphs {
    /// The size glyphs are rendered at: 24 pixels, MapLibre's one em.
    public static let size = 24
    /// The border around each bitmap: 3 pixels.
    public static let border = 3
    /// The distance from the outline at which the field reaches 0 or 255: 8 pixels.
    public static let radius = 8.0
    /// Where the outline lies in the field: a quarter of the radius inside 255 (192).
    public static let cutoff = 0.25

    /// The glyph protobuf of the code points `start ..< start + 256` for the stack named
    /// `name`, each glyph from the first of `fonts` that has it; code points none has are left
    /// out.
    /// - Throws: ``GlyphError`` when FreeType cannot start or no font of the stack opens.
    public static func range(start: Int, name: String, fonts: [String]) throws(GlyphError) -> [UInt8] {
        guard start >= 0, start % 256 == 0, start <= 65_280 else {
            throw GlyphError("a glyph range starts at a multiple of 256 up to 65280, not \(start)")
        }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw GlyphError("FreeType cannot start") }
        defer { FT_Done_FreeType(library) }
        var faces: [FT_Face] = []
        defer { for face in faces { FT_Done_Face(face) } }
        for path in fonts {
            var face: FT_Face?
            if FT_New_Face(library, path, 0, &face) == 0, let face {
                FT_Set_Pixel_Sizes(face, 0, FT_UInt(size))
                faces.append(face)
            }
        }
        guard !faces.isEmpty else {
            throw GlyphError("no font of '\(name)' opens: \(fonts.joined(separator: ", "))")
        }
        var stack = ProtobufWriter()
        stack.string(1, name)
        stack.string(2, "\(start)-\(start + 255)")
        for codePoint in start..<(start + 256) {
            guard let face = faces.first(where: { FT_Get_Char_Index($0, FT_ULong(codePoint)) != 0 }),
                let glyph = render(face, codePoint: codePoint)
            else { continue }
            stack.message(3) { message in
                message.uint(1, UInt64(codePoint))
                if !glyph.bitmap.isEmpty { message.bytes(2, glyph.bitmap) }
                message.uint(3, UInt64(glyph.width))
                message.uint(4, UInt64(glyph.height))
                message.sint(5, Int64(glyph.left))
                message.sint(6, Int64(glyph.top))
                message.uint(7, UInt64(glyph.advance))
            }
        }
        var glyphs = ProtobufWriter()
        glyphs.bytes(1, stack.bytes)
        return glyphs.bytes
    }

    /// One glyph: its field (width + 2·border by height + 2·border, empty for a blank glyph),
    /// its ink's size, its left and top bearings (top from the em's top, MapLibre's way) and
    /// its advance, in pixels at ``size``.
    struct Glyph {
        var bitmap: [UInt8]
        var width: Int
        var height: Int
        var left: Int
        var top: Int
        var advance: Int
    }

    private static func render(_ face: FT_Face, codePoint: Int) -> Glyph? {
        let index = FT_Get_Char_Index(face, FT_ULong(codePoint))
        // The ink's box, from the plain rendering.
        guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_DEFAULT)) == 0, let slot = face.pointee.glyph else {
            return nil
        }
        let advance = Int(openmaps_ft_pixels(slot.pointee.advance.x))
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let width = Int(slot.pointee.bitmap.width)
        let height = Int(slot.pointee.bitmap.rows)
        let left = Int(slot.pointee.bitmap_left)
        let top = Int(slot.pointee.bitmap_top)
        guard width > 0, height > 0 else {
            return Glyph(bitmap: [], width: 0, height: 0, left: 0, top: 0, advance: advance)
        }
        // The field, rendered again by FreeType's SDF renderer (it pads the ink by its spread).
        guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_DEFAULT)) == 0, FT_Render_Glyph(slot, FT_RENDER_MODE_SDF) == 0
        else { return nil }
        let bitmap = slot.pointee.bitmap
        let fieldWidth = Int(bitmap.width)
        let fieldHeight = Int(bitmap.rows)
        let pitch = Int(bitmap.pitch)
        guard let buffer = bitmap.buffer, fieldWidth >= width, fieldHeight >= height else { return nil }
        // Where the ink's box starts in the field: the field's own bearings against the ink's.
        let offsetX = left - Int(slot.pointee.bitmap_left)
        let offsetY = Int(slot.pointee.bitmap_top) - top
        let spread = Double(max(offsetX, 1))
        let outWidth = width + 2 * border
        let outHeight = height + 2 * border
        var output = [UInt8](repeating: 0, count: outWidth * outHeight)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                let sourceX = x - border + offsetX
                let sourceY = y - border + offsetY
                var value = 0.0
                if sourceX >= 0, sourceX < fieldWidth, sourceY >= 0, sourceY < fieldHeight {
                    value = Double(buffer[sourceY * pitch + sourceX])
                }
                // FreeType: 128 on the outline, ±127 at `spread` pixels (inside above). MapLibre:
                // 255 − 255 · (distance / radius + cutoff), the distance negative inside.
                let inside = (value - 128) / 127 * spread
                let encoded = 255 - 255 * (-inside / radius + cutoff)
                output[y * outWidth + x] = UInt8(min(max(encoded.rounded(), 0), 255))
            }
        }
        return Glyph(bitmap: output, width: width, height: height, left: left, top: top - size, advance: advance)
    }
}
