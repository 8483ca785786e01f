import Testing
import ZlibKit

/// The zlib wrapper: round trips, raw streams, sizes and damage.
@Suite struct ZlibTests {
    let text = Array(String(repeating: "OpenMaps answers Google Maps links. ", count: 40).utf8)

    @Test(arguments: [Zlib.Strategy.standard, .runLength])
    func deflatedDataInflatesBack(strategy: Zlib.Strategy) throws {
        let compressed = try Zlib.deflate(text, level: 6, strategy: strategy)
        // Repeated phrases shrink a lot with the standard strategy; run-length only finds runs
        // of one byte, so it leaves Huffman coding to do the work.
        #expect(compressed.count < (strategy == .standard ? text.count / 4 : text.count))
        #expect(try compressed.withUnsafeBytes { try Zlib.inflate($0, rawSize: text.count) } == text)
    }

    @Test func aRawStreamIsTheZlibStreamWithoutItsHeaderAndChecksum() throws {
        let compressed = try Zlib.deflate(text)
        let raw = Array(compressed.dropFirst(2).dropLast(4))
        #expect(try raw.withUnsafeBytes { try Zlib.inflateRaw($0, rawSize: text.count) } == text)
    }

    @Test func damageAndWrongSizesAreErrorsNamingTheKind() throws {
        var compressed = try Zlib.deflate(text)
        #expect(throws: ZlibError.self) { try compressed.withUnsafeBytes { try Zlib.inflate($0, rawSize: 10) } }
        let tooLarge = #expect(throws: ZlibError.self) {
            try compressed.withUnsafeBytes { try Zlib.inflate($0, rawSize: text.count + 1) }
        }
        #expect(tooLarge?.kind == .sizeMismatch || tooLarge?.kind == .corrupt)
        compressed[5] ^= 0xFF
        compressed[6] ^= 0xFF
        let damaged = #expect(throws: ZlibError.self) {
            try compressed.withUnsafeBytes { try Zlib.inflate($0, rawSize: text.count) }
        }
        #expect(damaged?.kind == .corrupt)
    }

    /// The readers' fuzzer's second finding: a zip member's header declared 4 GB from a few
    /// hundred bytes, and the whole size was allocated before inflating. A size deflate cannot
    /// make from the stream is refused first; the most deflate does make (zeros) still inflates.
    @Test func aDeclaredSizeDeflateCannotMakeIsRefusedBeforeAnythingIsAllocated() throws {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        let compressed = try Zlib.deflate(zeros, level: 9)
        #expect(try compressed.withUnsafeBytes { try Zlib.inflate($0, rawSize: zeros.count) } == zeros)
        for size in [Int(UInt32.max) + 1, 4_000_000_000, compressed.count * 2_000] {
            let refused = #expect(throws: ZlibError.self) {
                try compressed.withUnsafeBytes { try Zlib.inflate($0, rawSize: size) }
            }
            #expect(refused?.kind == .sizeMismatch && refused?.message.contains("more than deflate can make") == true)
            #expect(throws: ZlibError.self) {
                try compressed.withUnsafeBytes { try Zlib.inflateRaw($0, rawSize: size) }
            }
        }
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(Zlib.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
