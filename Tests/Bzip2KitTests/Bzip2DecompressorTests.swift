import Bzip2Kit
import Testing

@Suite struct Bzip2DecompressorTests {
    /// A text with enough repetition and variety to span several internal runs.
    static let text: [UInt8] = Array(
        (0..<4000).map { "line \($0): <node id=\"\($0 * 7919)\" lat=\"60.1\" lon=\"24.9\"/>\n" }.joined().utf8)

    /// Decompresses `compressed` fed in pieces of `piece` bytes into an output buffer of `window` bytes.
    static func decompress(_ compressed: [UInt8], piece: Int, window: Int) throws -> (bytes: [UInt8], ended: Bool) {
        let decompressor = try Bzip2Decompressor()
        var result: [UInt8] = []
        var output = [UInt8](repeating: 0, count: window)
        var position = 0
        while true {
            let end = min(compressed.count, position + piece)
            let step = try compressed[position..<end].withUnsafeBytes { input in
                try output.withUnsafeMutableBytes { out in try decompressor.decompress(input, into: out) }
            }
            result += output.prefix(step.produced)
            position += step.consumed
            if step.consumed == 0 && step.produced == 0 { break }
        }
        return (result, decompressor.streamEnded)
    }

    @Test(arguments: [(1, 7), (13, 4096), (65536, 100), (1 << 20, 1 << 20)])
    func roundTripsInAnyPieces(piece: Int, window: Int) throws {
        let compressed = try Bzip2.compress(Self.text, blockSize: 1)
        #expect(compressed.count < Self.text.count / 4)
        let (bytes, ended) = try Self.decompress(compressed, piece: piece, window: window)
        #expect(bytes == Self.text)
        #expect(ended)
    }

    @Test func readsConcatenatedStreams() throws {
        let first = try Bzip2.compress(Array("first stream\n".utf8))
        let second = try Bzip2.compress(Array("second stream\n".utf8))
        let (bytes, ended) = try Self.decompress(first + second, piece: 5, window: 3)
        #expect(String(decoding: bytes, as: UTF8.self) == "first stream\nsecond stream\n")
        #expect(ended)
    }

    @Test func cutShortIsNotEnded() throws {
        let compressed = try Bzip2.compress(Self.text)
        let (bytes, ended) = try Self.decompress(
            Array(compressed.prefix(compressed.count / 2)), piece: 4096, window: 4096)
        #expect(!ended)
        #expect(bytes.count < Self.text.count)
    }

    @Test func refusesDataThatIsNotBzip2() throws {
        #expect(throws: Bzip2Error(.notBzip2, message: "the data is not bzip2 (no 'BZh' signature)")) {
            _ = try Self.decompress(Array("<?xml version=\"1.0\"?>".utf8), piece: 64, window: 64)
        }
    }

    @Test func refusesDamagedData() throws {
        var compressed = try Bzip2.compress(Self.text)
        for index in 40..<60 { compressed[index] ^= 0x5A }
        let error = #expect(throws: Bzip2Error.self) { _ = try Self.decompress(compressed, piece: 4096, window: 4096) }
        #expect(error?.kind == .corrupt)
    }
}
