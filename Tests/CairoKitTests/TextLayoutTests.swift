import CairoKit
import GeoCore
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

    @Test(arguments: ["Mannerheimintie", "महात्मा गांधी मार्ग"])
    func textAlongALineFollowsItAndStaysOnIt(_ text: String) throws {
        // An L-shaped street: 150 points east, then 150 points south.
        let canvas = try Canvas(width: 200, height: 200)
        canvas.fill(all: .white)
        let line = [(x: 20.0, y: 30.0), (x: 170.0, y: 30.0), (x: 170.0, y: 180.0)]
        let layout = TextLayout(text, size: 12, on: canvas)
        let width = layout.logicalBox.width
        layout.draw(along: line, start: 150 - width / 2, color: .black)
        var inked: [(x: Int, y: Int)] = []
        for y in 0..<200 {
            for x in 0..<200 where canvas.pixel(x: x, y: y)!.distance(to: Pixel(red: 255, green: 255, blue: 255)) > 128
            {
                inked.append((x, y))
            }
        }
        #expect(inked.count > 60)
        // Every inked pixel lies within a text height of the line: on the first leg above or
        // below y = 30, on the second left or right of x = 170.
        let height = layout.logicalBox.height
        #expect(inked.allSatisfy { abs(Double($0.y) - 30) <= height || abs(Double($0.x) - 170) <= height })
        // The text turns the corner: ink on both legs, away from the corner.
        #expect(inked.contains { $0.x < 150 } && inked.contains { $0.y > 50 })
    }

    @Test func textLongerThanItsLineIsNotDrawn() throws {
        let canvas = try Canvas(width: 100, height: 40)
        canvas.fill(all: .white)
        let layout = TextLayout("Pohjoisesplanadi", size: 12, on: canvas)
        layout.draw(along: [(x: 10, y: 20), (x: 60, y: 20)], start: 0, color: .black)
        #expect(inkedPixels(canvas, background: Pixel(red: 255, green: 255, blue: 255)) == 0)
    }

    @Test func measuredPathsFindPointsByDistance() {
        let path = MeasuredPath([(x: 0, y: 0), (x: 30, y: 40), (x: 30, y: 40), (x: 30, y: 100)])
        #expect(path.length == 110)
        let middle = path.position(at: 25)
        #expect(abs(middle.x - 15) < 1e-9 && abs(middle.y - 20) < 1e-9 && abs(middle.dx - 0.6) < 1e-9)
        // Past the repeated point the direction is the next real segment's.
        let after = path.position(at: 50)
        #expect(after.x == 30 && after.y == 40 && after.dx == 0 && after.dy == 1)
        #expect(path.position(at: 500).y == 100)
    }
}
