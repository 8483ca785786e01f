import CCairo
import CJPEG
import Foundation

/// A decoded RGB image (a satellite mosaic, a relief map), sampled by the renderer.
public struct RasterImage: Sendable {
    /// Size in pixels.
    public let width: Int
    public let height: Int
    /// RGB rows, 3 bytes a pixel, top row first.
    private let pixels: [UInt8]

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
            throw CairoError(message: "not a decodable JPEG: \(text.isEmpty ? "empty input" : text)")
        }
        defer { free(decoded) }
        self.width = Int(width)
        self.height = Int(height)
        pixels = Array(UnsafeBufferPointer(start: decoded, count: Int(width) * Int(height) * 3))
    }

    /// Decodes the JPEG file at `path`.
    public init(jpegFile path: String) throws(CairoError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CairoError(message: "cannot read the image", path: path)
        }
        do { try self.init(jpeg: Array(data)) } catch { throw CairoError(message: error.message, path: path) }
    }

    /// The colour at (u, v), each 0...1 across the image (clamped), interpolated between the
    /// four nearest pixels; opaque.
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
            func at(_ px: Int, _ py: Int) -> Double { Double(pixels[(py * width + px) * 3 + c]) }
            let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * fx
            let bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * fx
            return UInt8((top + (bottom - top) * fy).rounded())
        }
        return Pixel(red: channel(0), green: channel(1), blue: channel(2))
    }
}

extension Canvas {
    /// Paints every device pixel with the colour `color(x, y)` gives for its centre in points;
    /// nil leaves that pixel as it is. For SVG and PDF, one image pixel per point is embedded.
    public func paintPixels(_ color: (Double, Double) -> Pixel?) throws(CairoError) {
        let pixelWidth = Int32((width * scale).rounded(.up))
        let pixelHeight = Int32((height * scale).rounded(.up))
        guard let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelWidth, pixelHeight),
            cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(image)
        else { throw CairoError(message: "cannot create a \(pixelWidth)×\(pixelHeight) image") }
        defer { cairo_surface_destroy(image) }
        let stride = Int(cairo_image_surface_get_stride(image))
        for y in 0..<Int(pixelHeight) {
            let row = UnsafeMutableRawPointer(data + y * stride)
            for x in 0..<Int(pixelWidth) {
                guard let pixel = color((Double(x) + 0.5) / scale, (Double(y) + 0.5) / scale) else {
                    row.storeBytes(of: 0, toByteOffset: x * 4, as: UInt32.self)
                    continue
                }
                // Cairo keeps colours premultiplied by alpha.
                let alpha = UInt32(pixel.alpha)
                func premultiplied(_ channel: UInt8) -> UInt32 { (UInt32(channel) * alpha + 127) / 255 }
                let word =
                    alpha << 24 | premultiplied(pixel.red) << 16 | premultiplied(pixel.green) << 8
                    | premultiplied(pixel.blue)
                row.storeBytes(of: word, toByteOffset: x * 4, as: UInt32.self)
            }
        }
        cairo_surface_mark_dirty(image)
        save()
        cairo_identity_matrix(context)
        cairo_set_source_surface(context, image, 0, 0)
        cairo_paint(context)
        restore()
    }
}
