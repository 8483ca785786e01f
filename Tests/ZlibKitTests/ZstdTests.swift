import Testing
import ZlibKit

/// The Zstandard wrapper: round trips, the frame's magic, sizes and damage.
@Suite struct ZstdTests {
    let text = Array(String(repeating: "Heights of a smooth hill, row by row. ", count: 60).utf8)

    @Test func aFrameDecompressesBackAndIsToldByItsMagic() throws {
        let frame = try Zstd.compress(text)
        #expect(frame.count < text.count / 4)
        #expect(frame.withUnsafeBytes { Zstd.isFrame($0) })
        #expect(!(try Zlib.deflate(text)).withUnsafeBytes { Zstd.isFrame($0) })
        var back = [UInt8](repeating: 0, count: text.count)
        try back.withUnsafeMutableBytes { destination in
            try frame.withUnsafeBytes { try Zstd.decompress($0, into: destination) }
        }
        #expect(back == text)
    }

    @Test func damageAndWrongSizesAreErrorsNamingTheKind() throws {
        var frame = try Zstd.compress(text)
        var short = [UInt8](repeating: 0, count: text.count - 1)
        let wrongSize = #expect(throws: ZlibError.self) {
            try short.withUnsafeMutableBytes { destination in
                try frame.withUnsafeBytes { try Zstd.decompress($0, into: destination) }
            }
        }
        #expect(wrongSize?.kind == .sizeMismatch)
        // A frame cut short, and one whose body is overwritten.
        var whole = [UInt8](repeating: 0, count: text.count)
        let cut = Array(frame.prefix(frame.count / 2))
        #expect(throws: ZlibError.self) {
            try whole.withUnsafeMutableBytes { destination in
                try cut.withUnsafeBytes { try Zstd.decompress($0, into: destination) }
            }
        }
        for index in 8..<frame.count { frame[index] = 0xFF }
        #expect(throws: ZlibError.self) {
            try whole.withUnsafeMutableBytes { destination in
                try frame.withUnsafeBytes { try Zstd.decompress($0, into: destination) }
            }
        }
        // Nothing at all is not a frame.
        #expect(throws: ZlibError.self) {
            try whole.withUnsafeMutableBytes { destination in
                try [UInt8]().withUnsafeBytes { try Zstd.decompress($0, into: destination) }
            }
        }
    }
}
