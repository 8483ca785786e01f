import CairoKit
import Foundation
import GeoCore
import Testing

/// Drawing, probing and encoding pictures.
@Suite struct CanvasTests {
    let red = Pixel(red: 255, green: 0, blue: 0)
    let clear = Pixel(red: 0, green: 0, blue: 0, alpha: 0)

    @Test func fillsPathsWhereTheyAreAndNowhereElse() throws {
        let canvas = try Canvas(width: 40, height: 30)
        canvas.rectangle(x: 10, y: 10, width: 10, height: 5)
        canvas.fill(Color(hex: 0xFF0000))
        #expect(canvas.pixel(x: 15, y: 12) == red)
        #expect(canvas.pixel(x: 5, y: 5) == clear)
        #expect(canvas.pixel(x: 20, y: 12) == clear)  // the right edge is exclusive
        #expect(canvas.pixel(x: 40, y: 0) == nil)
    }

    @Test func scaleMultipliesThePixelsNotThePoints() throws {
        let canvas = try Canvas(width: 10, height: 10, scale: 2)
        canvas.rectangle(x: 5, y: 5, width: 5, height: 5)
        canvas.fill(Color(hex: 0xFF0000))
        #expect(canvas.pixel(x: 19, y: 19) == red && canvas.pixel(x: 9, y: 9) == clear)
        #expect(canvas.pixel(x: 20, y: 0) == nil)
    }

    @Test func evenOddFillLeavesInnerRingsAsHoles() throws {
        let canvas = try Canvas(width: 30, height: 30)
        canvas.rectangle(x: 0, y: 0, width: 30, height: 30)
        canvas.rectangle(x: 10, y: 10, width: 10, height: 10)
        canvas.fill(Color(hex: 0x0000FF))
        #expect(canvas.pixel(x: 15, y: 15) == clear)
        #expect(canvas.pixel(x: 5, y: 5) == Pixel(red: 0, green: 0, blue: 255))
    }

    @Test func dashedStrokesAlternate() throws {
        let canvas = try Canvas(width: 40, height: 10)
        canvas.fill(all: .white)
        canvas.move(x: 0, y: 5)
        canvas.line(x: 40, y: 5)
        canvas.stroke(.black, width: 4, cap: .butt, dash: [8, 8])
        #expect(canvas.pixel(x: 4, y: 5) == Pixel(red: 0, green: 0, blue: 0))
        #expect(canvas.pixel(x: 12, y: 5) == Pixel(red: 255, green: 255, blue: 255))
        #expect(canvas.pixel(x: 20, y: 5) == Pixel(red: 0, green: 0, blue: 0))
        #expect(canvas.pixel(x: 4, y: 0) == Pixel(red: 255, green: 255, blue: 255))
    }

    @Test func translucentColoursReadBackStraight() throws {
        let canvas = try Canvas(width: 4, height: 4)
        canvas.fill(all: Color(red: 1, green: 0.5, blue: 0, alpha: 0.5))
        let pixel = try #require(canvas.pixel(x: 1, y: 1))
        #expect(pixel.distance(to: Pixel(red: 255, green: 128, blue: 0, alpha: 128)) <= 2)
    }

    @Test func pngRoundTripsPixelForPixel() throws {
        let canvas = try Canvas(width: 16, height: 8, scale: 2)
        canvas.fill(all: Color(hex: 0x336699))
        canvas.circle(x: 8, y: 4, radius: 3)
        canvas.fill(Color(hex: 0xFFCC00))
        let bytes = try canvas.encoded()
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try Canvas(png: bytes)
        #expect(decoded.width == 32 && decoded.height == 16)
        #expect(differingPixels(decoded, canvas, width: 32, height: 16) == 0)
        // Opaque pictures are written as 8-bit RGB (colour type 2 in IHDR).
        #expect(bytes[25] == 2)
    }

    @Test func translucentPNGsKeepTheirAlpha() throws {
        let canvas = try Canvas(width: 20, height: 10)
        canvas.rectangle(x: 2, y: 2, width: 10, height: 6)
        canvas.fill(Color(red: 0.2, green: 0.6, blue: 1, alpha: 0.4))
        let bytes = try canvas.encoded()
        #expect(bytes[25] == 6)
        let decoded = try Canvas(png: bytes)
        #expect(decoded.pixel(x: 0, y: 0)?.alpha == 0)
        // Straight alpha survives within rounding: Cairo stores it premultiplied both ways.
        for y in 0..<10 {
            for x in 0..<20 {
                let original = try #require(canvas.pixel(x: x, y: y))
                let read = try #require(decoded.pixel(x: x, y: y))
                #expect(original.alpha == read.alpha && original.distance(to: read) <= 3)
            }
        }
    }

    @Test func aPieceOfACanvasIsThoseVeryPixels() throws {
        let canvas = try Canvas(width: 64, height: 32, scale: 2)
        canvas.fill(all: Color(hex: 0x224466))
        canvas.circle(x: 40, y: 16, radius: 10)
        canvas.fill(Color(hex: 0xEEDD22))
        let piece = try Canvas(png: try canvas.encodedPNG(x: 32, y: 0, width: 32, height: 32))
        #expect(piece.width == 64 && piece.height == 64)
        var differing = 0
        for y in 0..<64 {
            for x in 0..<64 where piece.pixel(x: x, y: y) != canvas.pixel(x: 64 + x, y: y) { differing += 1 }
        }
        #expect(differing == 0)
        #expect(throws: CairoError.self) { try canvas.encodedPNG(x: 40, y: 0, width: 32, height: 32) }
    }

    /// Pixels that differ between two canvases of `width` × `height` pixels.
    func differingPixels(_ first: Canvas, _ second: Canvas, width: Int, height: Int) -> Int {
        var count = 0
        for y in 0..<height {
            for x in 0..<width where first.pixel(x: x, y: y) != second.pixel(x: x, y: y) { count += 1 }
        }
        return count
    }

    @Test func brokenJPEGsAreErrorsNotCrashes() {
        #expect(throws: CairoError.self) { _ = try RasterImage(jpeg: []) }
        #expect(throws: CairoError.self) { _ = try RasterImage(jpeg: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46]) }
        #expect(throws: CairoError.self) { _ = try RasterImage(file: "/nonexistent/map.jpg") }
    }

    @Test func pngImagesKeepTheirTransparencyAndOtherFilesAreRefused() throws {
        let canvas = try Canvas(width: 4, height: 2)
        canvas.rectangle(x: 0, y: 0, width: 2, height: 2)
        canvas.fill(Color(hex: 0x00FF00))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("half.png").path
        try canvas.write(to: png)
        let image = try RasterImage(file: png)
        #expect(image.width == 4 && image.height == 2 && image.channels == 4)
        #expect(image.sample(u: 0.1, v: 0.5) == Pixel(red: 0, green: 255, blue: 0))
        #expect(image.sample(u: 0.9, v: 0.5).alpha == 0)
        let text = directory.appendingPathComponent("plan.txt").path
        try "not an image".write(toFile: text, atomically: true, encoding: .utf8)
        let error = #expect(throws: CairoError.self) { try RasterImage(file: text) }
        #expect(error?.kind == .decoding && error?.message == "not a PNG or JPEG image" && error?.path == text)
    }

    @Test func paintedPixelsLandWhereTheFunctionSaysAtAnyScale() throws {
        let canvas = try Canvas(width: 10, height: 10, scale: 2)
        canvas.fill(all: .white)
        try canvas.paintPixels { x, _ in x < 5 ? Pixel(red: 0, green: 0, blue: 255) : nil }
        #expect(canvas.pixel(x: 9, y: 3) == Pixel(red: 0, green: 0, blue: 255))
        #expect(canvas.pixel(x: 10, y: 3) == Pixel(red: 255, green: 255, blue: 255))
    }

    @Test func notAPNGIsAnError() {
        #expect(throws: CairoError.self) { _ = try Canvas(png: Array("GIF89a".utf8)) }
        #expect(throws: CairoError.self) { _ = try Canvas(png: []) }
    }

    @Test func vectorFormatsWriteTheirDocuments() throws {
        for format in [PictureFormat.svg, .pdf] {
            let canvas = try Canvas(width: 100, height: 50, format: format)
            canvas.rectangle(x: 10, y: 10, width: 30, height: 20)
            canvas.fill(Color(hex: 0x00AA00))
            let text = String(decoding: try canvas.encoded(), as: UTF8.self)
            switch format {
            case .svg:
                #expect(
                    text.hasPrefix("<?xml") && text.contains("<svg") && text.contains("width=\"100pt\" height=\"50pt\"")
                )
            case .pdf: #expect(text.hasPrefix("%PDF-") && text.contains("%%EOF"))
            case .png: break
            }
            #expect(canvas.pixel(x: 20, y: 20) == nil)
        }
        #expect(PictureFormat(path: "out/Map.PNG") == .png && PictureFormat(path: "a.svg") == .svg)
        #expect(PictureFormat(path: "map.jpg") == nil)
    }

    @Test func refusesSizesItCannotDraw() {
        #expect(throws: CairoError.self) { _ = try Canvas(width: 0, height: 10) }
        #expect(throws: CairoError.self) { _ = try Canvas(width: 10_000, height: 10, scale: 2) }
        #expect(throws: CairoError.self) { _ = try Canvas(width: 10, height: 10, scale: 0.5) }
    }

    @Test func writesAtomicallyAndReportsTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cairokit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let canvas = try Canvas(width: 8, height: 8)
        canvas.fill(all: .black)
        let path = directory.appendingPathComponent("map.png").path
        try canvas.write(to: path)
        #expect(
            try Canvas(png: Array(Data(contentsOf: URL(fileURLWithPath: path)))).pixel(x: 3, y: 3)
                == Pixel(red: 0, green: 0, blue: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["map.png"])
        let missing = directory.appendingPathComponent("no/such/dir/map.png").path
        #expect(throws: CairoError.self) { try canvas.write(to: missing) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["map.png"])
    }
}
