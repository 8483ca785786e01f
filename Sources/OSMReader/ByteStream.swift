import Bzip2Kit
import Foundation
import ZlibKit

/// A file's bytes read front to back, inflated on the way when the file is compressed.
///
/// The readers pull from it in pieces of any size, so a compressed file never sits whole in
/// memory. ``fileOffset`` counts the file's own (compressed) bytes read, for progress.
final class ByteStream {
    /// How a file is compressed, told by its first bytes.
    enum Compression: String, Sendable {
        case none, gzip, bzip2
    }

    let path: String
    let compression: Compression
    /// Bytes of the file read so far (compressed bytes for a compressed file).
    private(set) var fileOffset = 0
    /// Bytes handed out so far (inflated bytes for a compressed file).
    private(set) var offset = 0

    private let handle: FileHandle
    private var input: [UInt8] = []
    private var inputPosition = 0
    private var fileEnded = false
    private let gzip: GzipInflater?
    private let bzip2: Bzip2Decompressor?

    /// Size of one read from the file, bytes.
    private static let chunk = 256 * 1024

    /// Opens `path`, telling its compression from its first bytes (`1F 8B` gzip, `BZh` bzip2).
    init(path: String) throws(OSMReaderError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw OSMReaderError(kind: .io, message: "cannot open '\(path)'", offset: 0)
        }
        self.path = path
        self.handle = handle
        var magic: [UInt8] = []
        do { magic = [UInt8](try handle.read(upToCount: 3) ?? Data()) } catch {
            throw OSMReaderError(kind: .io, message: "cannot read '\(path)': \(error)", offset: 0)
        }
        input = magic
        fileOffset = magic.count
        if magic.count >= 2 && magic[0] == 0x1F && magic[1] == 0x8B {
            compression = .gzip
            gzip = try Self.started { () throws(ZlibError) in try GzipInflater() }
            bzip2 = nil
        } else if magic == Array("BZh".utf8) {
            compression = .bzip2
            bzip2 = try Self.started { () throws(Bzip2Error) in try Bzip2Decompressor() }
            gzip = nil
        } else {
            compression = .none
            gzip = nil
            bzip2 = nil
        }
    }

    private static func started<T, E: Error>(_ make: () throws(E) -> T) throws(OSMReaderError) -> T {
        do { return try make() } catch {
            throw OSMReaderError(kind: .io, message: "cannot start decompressing: \(error)", offset: 0)
        }
    }

    deinit { try? handle.close() }

    /// Fills `buffer` as far as the data goes; returns the bytes written, fewer than asked for
    /// only at the end of the data.
    ///
    /// - Throws: ``OSMReaderError`` when the file cannot be read, the compressed data is
    ///   damaged (`.malformed`) or ends before its stream does (`.truncated`).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReaderError) -> Int {
        var filled = 0
        while filled < buffer.count {
            if inputPosition == input.count {
                if fileEnded { break }
                try refill()
                if inputPosition == input.count { continue }
            }
            let target = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
            let (consumed, produced) = try step(into: target)
            inputPosition += consumed
            filled += produced
            if consumed == 0 && produced == 0 {
                if fileEnded { break }
                try refill()
            }
        }
        if fileEnded && inputPosition == input.count && filled < buffer.count {
            try checkEnded(at: offset + filled)
        }
        offset += filled
        return filled
    }

    /// Reads exactly `count` bytes, or fewer only at the end of the data.
    func read(_ count: Int) throws(OSMReaderError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let outcome = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(OSMReaderError) in try read(into: buffer) }
        }
        let got = try outcome.get()
        if got < count { bytes.removeLast(count - got) }
        return bytes
    }

    /// Copies or inflates from the pending input into `target`.
    private func step(into target: UnsafeMutableRawBufferPointer) throws(OSMReaderError) -> (Int, Int) {
        let start = inputPosition
        let result = input.withUnsafeBytes { all -> Result<(Int, Int), OSMReaderError> in
            let pending = UnsafeRawBufferPointer(rebasing: all[start...])
            switch compression {
            case .none:
                let count = min(pending.count, target.count)
                target.baseAddress!.copyMemory(from: pending.baseAddress!, byteCount: count)
                return .success((count, count))
            case .gzip:
                do throws(ZlibError) {
                    let step = try gzip!.inflate(pending, into: target)
                    return .success((step.consumed, step.produced))
                } catch { return .failure(damaged(error.message)) }
            case .bzip2:
                do throws(Bzip2Error) {
                    let step = try bzip2!.decompress(pending, into: target)
                    return .success((step.consumed, step.produced))
                } catch { return .failure(damaged(error.message)) }
            }
        }
        return try result.get()
    }

    private func damaged(_ message: String) -> OSMReaderError {
        OSMReaderError(
            kind: .malformed, message: "\(message) (byte \(fileOffset - (input.count - inputPosition)) of the file)",
            offset: offset)
    }

    /// At the end of the file, a compressed stream must have ended too.
    private func checkEnded(at end: Int) throws(OSMReaderError) {
        let ended: Bool
        switch compression {
        case .none: ended = true
        case .gzip: ended = gzip!.memberEnded
        case .bzip2: ended = bzip2!.streamEnded
        }
        guard ended else {
            throw OSMReaderError(
                kind: .truncated,
                message: "the \(compression.rawValue) data ends before its stream does (the file is cut short)",
                offset: end)
        }
    }

    private func refill() throws(OSMReaderError) {
        let data: Data
        do { data = try handle.read(upToCount: Self.chunk) ?? Data() } catch {
            throw OSMReaderError(kind: .io, message: "cannot read '\(path)': \(error)", offset: offset)
        }
        if data.isEmpty {
            fileEnded = true
            input.removeAll(keepingCapacity: true)
        } else {
            input = [UInt8](data)
            fileOffset += data.count
        }
        inputPosition = 0
    }
}
