import CairoKit
import Testing

/// Text shaping and fallback with the fonts `make deps` installs (Noto Sans, Noto Sans
/// Devanagari, Noto Sans CJK).
@Suite struct TextLayoutTests {
    /// Pixels of the canvas that differ from `background` by more than half a channel.
    func inkedPixels(_ canvas: Canvas, background: Pixel) -> Int {
        var count = 0
        for y in 0..<Int(canvas.height * canvas.scale) {
            for x in 0..<Int(canvas.width * canvas.scale) where canvas.pixel(x: x, y: y)!.distance(to: background) > 128
            {
                count += 1
            }
        }
        return count
    }

    @Test(arguments: ["Kaivokatu", "हेलसिंकी", "東京駅", "Töölönlahti"])
    func everyScriptHasAFontAndDraws(_ text: String) throws {
        let canvas = try Canvas(width: 160, height: 40)
        canvas.fill(all: .white)
        let layout = TextLayout(text, size: 14, on: canvas)
        #expect(layout.unknownGlyphs == 0)
        #expect(layout.logicalBox.width > 20 && layout.logicalBox.height > 14)
        #expect(layout.baseline > 0 && layout.baseline < layout.logicalBox.height)
        layout.draw(x: 4, y: 4, color: .black)
        #expect(inkedPixels(canvas, background: Pixel(red: 255, green: 255, blue: 255)) > 40)
    }

    @Test func devanagariConjunctsAreShaped() throws {
        let canvas = try Canvas(width: 100, height: 40)
        // क्ष is one conjunct glyph; with a zero-width non-joiner the halant stays visible and
        // the two consonants sit side by side, so the shaped conjunct is clearly narrower.
        let conjunct = TextLayout("क्ष", size: 20, on: canvas).logicalBox.width
        let separate = TextLayout("क्\u{200C}ष", size: 20, on: canvas).logicalBox.width
        #expect(conjunct < separate * 0.8)
    }

    @Test func characterlessFontsAreReported() throws {
        let canvas = try Canvas(width: 100, height: 40)
        // A private-use character no installed font has.
        #expect(TextLayout("\u{E000}\u{E001}", on: canvas).unknownGlyphs == 2)
    }

    @Test func aHaloSurroundsTheGlyphs() throws {
        let canvas = try Canvas(width: 120, height: 40)
        canvas.fill(all: .black)
        let layout = TextLayout("Helsinki", size: 16, on: canvas)
        layout.draw(x: 10, y: 8, color: Color(hex: 0x202020), halo: .white, haloWidth: 2)
        let black = Pixel(red: 0, green: 0, blue: 0)
        // The halo lights up pixels on a black background that the dark text alone would not.
        #expect(inkedPixels(canvas, background: black) > 100)
        let ink = layout.inkBox
        #expect(canvas.pixel(x: Int(10 + ink.x - 4), y: Int(8 + ink.y + ink.height / 2)) == black)
    }
}
