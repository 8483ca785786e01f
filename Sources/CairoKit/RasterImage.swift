internal import CCairo
internal import CJPEG
import Foundation

/// A decoded image (a satellite mosaic, a relief map, a ground overlay's picture), sampled by
/// the renderer: RGB from JPEG, RGBA with straight alpha from PNG.
public struct RasterImage: Sendable {
    /// Size in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes a pixel: 3 (RGB) or 4 (RGBA).
    public let channels: Int
    /// Rows of `channels` bytes a pixel, top row first.
    private let pixels: [UInt8]

    /// Decodes a PNG (any colour type Cairo reads), keeping its transparency.
    ///
    /// - Throws: ``CairoError`` when the bytes are not a PNG.
    public init(png bytes: [UInt8]) throws(CairoError) {
        let canvas = try Canvas(png: bytes)
        width = Int(canvas.width)
        height = Int(canvas.height)
        channels = 4
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                guard let pixel = canvas.pixel(x: x, y: y) else { continue }
                let base = (y * width + x) * 4
                pixels[base] = pixel.red
                pixels[base + 1] = pixel.green
                pixels[base + 2] = pixel.blue
                pixels[base + 3] = pixel.alpha
            }
        }
        self.pixels = pixels
    }

    /// Decodes the PNG or JPEG file at `path`, told apart by their signatures.
    public init(file path: String) throws(CairoError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CairoError(.file, message: "cannot read the image", path: path)
        }
        do throws(CairoError) {
            try self.init(bytes: Array(data))
        } catch {
            throw error.at(path)
        }
    }

    /// Decodes a JPEG.
    ///
    /// - Throws: ``CairoError`` naming what libjpeg found wrong.
    public init(jpeg bytes: [UInt8]) throws(CairoError) {
        var width: Int32 = 0
        var height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let decoded = bytes.withUnsafeBufferPointer { buffer in
            openmaps_jpeg_decode(buffer.baseAddress, UInt(buffer.count), &width, &height, &message, 256)
        }
        guard let decoded else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw CairoError(.decoding, message: "not a decodable JPEG: \(text.isEmpty ? "empty input" : text)")
        }
        defer { free(decoded) }
        self.width = Int(width)
        self.height = Int(height)
        channels = 3
        pixels = Array(UnsafeBufferPointer(start: decoded, count: Int(width) * Int(height) * 3))
    }

    /// The pixel at column `x`, row `y` (clamped to the image); opaque for RGB images.
    public func pixel(x: Int, y: Int) -> Pixel {
        let base = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * channels
        return Pixel(
            red: pixels[base], green: pixels[base + 1], blue: pixels[base + 2],
            alpha: channels == 4 ? pixels[base + 3] : 255)
    }

    /// Decodes a PNG or a JPEG, told apart by their signatures.
    ///
    /// - Throws: ``CairoError`` when the bytes are neither, or cannot be decoded.
    public init(bytes: [UInt8]) throws(CairoError) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            try self.init(png: bytes)
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            try self.init(jpeg: bytes)
        } else {
            throw CairoError(.decoding, message: "not a PNG or JPEG image")
        }
    }

    /// The colour at (u, v), each 0...1 across the image (clamped), interpolated between the
    /// four nearest pixels; opaque for RGB images.
    public func sample(u: Double, v: Double) -> Pixel {
        let x = min(max(u * Double(width) - 0.5, 0), Double(width - 1))
        let y = min(max(v * Double(height) - 0.5, 0), Double(height - 1))
        let x0 = Int(x)
        let y0 = Int(y)
        let x1 = min(x0 + 1, width - 1)
        let y1 = min(y0 + 1, height - 1)
        let fx = x - Double(x0)
        let fy = y - Double(y0)
        func channel(_ c: Int) -> UInt8 {
            func at(_ px: Int, _ py: Int) -> Double { Double(pixels[(py * width + px) * channels + c]) }
            let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * fx
            let bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * fx
            return UInt8((top + (bottom - top) * fy).rounded())
        }
        return Pixel(
            red: channel(0), green: channel(1), blue: channel(2), alpha: channels == 4 ? channel(3) : 255)
    }
}

extension Canvas {
    /// Paints every device pixel with the colour `color(x, y)` gives for its centre in points;
    /// nil leaves that pixel as it is. For SVG and PDF, one image pixel per point is embedded.
    public func paintPixels(_ color: (Double, Double) -> Pixel?) throws(CairoError) {
        try paintRows { y, scale, pixels in
            for x in 0..<pixels.count {
                guard let pixel = color((Double(x) + 0.5) / scale, (Double(y) + 0.5) / scale) else { continue }
                // Cairo keeps colours premultiplied by alpha.
                let alpha = UInt32(pixel.alpha)
                func premultiplied(_ channel: UInt8) -> UInt32 { (UInt32(channel) * alpha + 127) / 255 }
                pixels[x] =
                    alpha << 24 | premultiplied(pixel.red) << 16 | premultiplied(pixel.green) << 8
                    | premultiplied(pixel.blue)
            }
        }
    }

    /// Paints the canvas's device pixels a row at a time: `fill(y, scale, pixels)` writes row
    /// `y` (from the top; `scale` device pixels a point) as Cairo keeps colours, 32-bit ARGB
    /// premultiplied by alpha; the row comes transparent, and a transparent pixel leaves the
    /// canvas as it is. The rows are then laid over the canvas in one operation.
    public func paintRows(_ fill: (Int, Double, UnsafeMutableBufferPointer<UInt32>) -> Void) throws(CairoError) {
        let pixelWidth = Int32((width * scale).rounded(.up))
        let pixelHeight = Int32((height * scale).rounded(.up))
        guard let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelWidth, pixelHeight),
            cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(image)
        else { throw CairoError(.drawing, message: "cannot create a \(pixelWidth)×\(pixelHeight) image") }
        defer { cairo_surface_destroy(image) }
        let stride = Int(cairo_image_surface_get_stride(image))
        for y in 0..<Int(pixelHeight) {
            // Cairo's new image surface is zeroed (transparent); its rows are 4-byte aligned.
            let row = UnsafeMutableRawPointer(data + y * stride).bindMemory(to: UInt32.self, capacity: Int(pixelWidth))
            fill(y, scale, UnsafeMutableBufferPointer(start: row, count: Int(pixelWidth)))
        }
        cairo_surface_mark_dirty(image)
        save()
        cairo_identity_matrix(context)
        cairo_set_source_surface(context, image, 0, 0)
        cairo_paint(context)
        restore()
    }
}
