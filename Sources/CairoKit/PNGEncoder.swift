import ZlibKit

/// Encodes Cairo's ARGB32 pixels (native-endian words, premultiplied alpha) as PNG, faster
/// than Cairo's own writer for map pictures: 8-bit RGB when every pixel is opaque (RGBA with
/// straight alpha otherwise), the Up filter, and zlib's run-length strategy, which suits the
/// large flat areas of maps (PNG specification, ISO/IEC 15948).
enum PNGEncoder {
    /// zlib compression level: 0 (none) to 9 (smallest); 6 trades size for speed well with
    /// the run-length strategy.
    static let level = 6

    /// The PNG file of `width` × `height` pixels whose rows start every `stride` bytes at `pixels`.
    static func encode(
        _ pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int
    ) throws(CairoError) -> [UInt8] {
        var opaque = true
        for y in 0..<height where opaque {
            let row = pixels + y * stride
            for x in 0..<width where row.load(fromByteOffset: x * 4, as: UInt32.self) >> 24 != 0xFF {
                opaque = false
                break
            }
        }
        let channels = opaque ? 3 : 4
        let rowBytes = 1 + width * channels
        // Filtered scanlines: a filter byte (2 = Up; 0 = None for the first row), then the row
        // less the row above, byte by byte.
        let filtered = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            guard let output = buffer.baseAddress else { return }
            for y in 0..<height {
                let row = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                let above = y == 0 ? nil : (pixels + (y - 1) * stride).assumingMemoryBound(to: UInt32.self)
                let line = output + y * rowBytes
                line[0] = y == 0 ? 0 : 2
                if opaque {
                    Self.filterOpaque(row, above: above, width: width, into: line + 1)
                } else {
                    Self.filterTranslucent(row, above: above, width: width, into: line + 1)
                }
            }
            count = rowBytes * height
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, opaque ? 2 : 6, 0, 0, 0]
        png.appendChunk("IHDR", header)
        let compressed: [UInt8]
        do {
            compressed = try Zlib.deflate(filtered, level: level, strategy: .runLength)
        } catch {
            throw CairoError(.encoding, message: "PNG compression failed", underlying: error)
        }
        png.appendChunk("IDAT", compressed)
        png.appendChunk("IEND", [])
        return png
    }
}

extension PNGEncoder {
    /// One row of opaque pixels as RGB bytes, less the row `above` (nil for the first row).
    private static func filterOpaque(
        _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>?, width: Int,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        var out = output
        guard let above else {
            for x in 0..<width {
                let word = row[x]
                out[0] = UInt8(truncatingIfNeeded: word >> 16)
                out[1] = UInt8(truncatingIfNeeded: word >> 8)
                out[2] = UInt8(truncatingIfNeeded: word)
                out += 3
            }
            return
        }
        for x in 0..<width {
            let word = row[x]
            let up = above[x]
            out[0] = UInt8(truncatingIfNeeded: word >> 16) &- UInt8(truncatingIfNeeded: up >> 16)
            out[1] = UInt8(truncatingIfNeeded: word >> 8) &- UInt8(truncatingIfNeeded: up >> 8)
            out[2] = UInt8(truncatingIfNeeded: word) &- UInt8(truncatingIfNeeded: up)
            out += 3
        }
    }

    /// One row of pixels as RGBA bytes with straight alpha, less the row `above` (nil for the
    /// first row) made the same way.
    private static func filterTranslucent(
        _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>?, width: Int,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        var out = output
        for x in 0..<width {
            let pixel = straight(row[x])
            let up = above.map { straight($0[x]) } ?? 0
            for channel in 0..<4 {
                let shift = UInt32(24 - channel * 8)
                out[channel] = UInt8(truncatingIfNeeded: pixel >> shift) &- UInt8(truncatingIfNeeded: up >> shift)
            }
            out += 4
        }
    }

    /// A premultiplied ARGB word as straight RGBA (red in the high byte).
    private static func straight(_ word: UInt32) -> UInt32 {
        let alpha = word >> 24
        var red = (word >> 16) & 0xFF
        var green = (word >> 8) & 0xFF
        var blue = word & 0xFF
        if alpha != 0xFF && alpha != 0 {
            red = min(255, (red * 255 + alpha / 2) / alpha)
            green = min(255, (green * 255 + alpha / 2) / alpha)
            blue = min(255, (blue * 255 + alpha / 2) / alpha)
        }
        return red << 24 | green << 16 | blue << 8 | alpha
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
        ])
    }

    /// A PNG chunk: length, type, data and the CRC-32 of type and data.
    mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let body = Array(type.utf8) + data
        append(contentsOf: body)
        appendBigEndian(Zlib.crc32(body))
    }
}

/// Pictures made of given pixels rather than drawn: data encoded as colours (terrain tiles).
public enum PixelPicture {
    /// The PNG of an opaque `width` × `height` picture whose pixels are `rgb`: red, green and
    /// blue bytes, rows from the top.
    ///
    /// - Throws: ``CairoError`` when `rgb` is not `width` × `height` × 3 bytes, or encoding fails.
    public static func png(rgb: [UInt8], width: Int, height: Int) throws(CairoError) -> [UInt8] {
        guard width > 0, height > 0, rgb.count == width * height * 3 else {
            throw CairoError(
                .invalidArgument, message: "\(rgb.count) bytes are not the pixels of a \(width)×\(height) picture")
        }
        var argb = [UInt32](repeating: 0, count: width * height)
        for index in argb.indices {
            argb[index] =
                0xFF00_0000 | UInt32(rgb[index * 3]) << 16 | UInt32(rgb[index * 3 + 1]) << 8
                | UInt32(rgb[index * 3 + 2])
        }
        let encoded = argb.withUnsafeBytes { buffer in
            Result { () throws(CairoError) in
                try PNGEncoder.encode(buffer.baseAddress!, width: width, height: height, stride: width * 4)
            }
        }
        return try encoded.get()
    }
}
