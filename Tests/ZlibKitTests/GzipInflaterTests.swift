import Testing
import ZlibKit

@Suite struct GzipInflaterTests {
    static let text: [UInt8] = Array((0..<3000).map { "<nd ref=\"\($0 * 104_729)\"/>\n" }.joined().utf8)

    /// Inflates `compressed` fed in pieces of `piece` bytes into an output window of `window` bytes.
    static func inflate(_ compressed: [UInt8], piece: Int, window: Int) throws -> (bytes: [UInt8], ended: Bool) {
        let inflater = try GzipInflater()
        var result: [UInt8] = []
        var output = [UInt8](repeating: 0, count: window)
        var position = 0
        while true {
            let end = min(compressed.count, position + piece)
            let step = try compressed[position..<end].withUnsafeBytes { input in
                try output.withUnsafeMutableBytes { out in try inflater.inflate(input, into: out) }
            }
            result += output.prefix(step.produced)
            position += step.consumed
            if step.consumed == 0 && step.produced == 0 { break }
        }
        return (result, inflater.memberEnded)
    }

    @Test(arguments: [(1, 5), (17, 4096), (65536, 64), (1 << 20, 1 << 20)])
    func roundTripsInAnyPieces(piece: Int, window: Int) throws {
        let compressed = try Zlib.gzip(Self.text, level: 9)
        #expect(compressed.prefix(2) == [0x1F, 0x8B])
        let (bytes, ended) = try Self.inflate(compressed, piece: piece, window: window)
        #expect(bytes == Self.text)
        #expect(ended)
    }

    @Test func readsConcatenatedMembers() throws {
        let joined = try Zlib.gzip(Array("one member, ".utf8)) + Zlib.gzip(Array("then another".utf8))
        let (bytes, ended) = try Self.inflate(joined, piece: 3, window: 2)
        #expect(String(decoding: bytes, as: UTF8.self) == "one member, then another")
        #expect(ended)
    }

    @Test func cutShortIsNotEnded() throws {
        let compressed = try Zlib.gzip(Self.text)
        let (bytes, ended) = try Self.inflate(Array(compressed.dropLast(9)), piece: 4096, window: 4096)
        #expect(!ended)
        #expect(bytes.count <= Self.text.count)
    }

    @Test func refusesDataThatIsNotGzip() throws {
        let error = #expect(throws: ZlibError.self) {
            _ = try Self.inflate(Array("<osm version=\"0.6\">".utf8), piece: 64, window: 64)
        }
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains("incorrect header check") == true)
    }
}
