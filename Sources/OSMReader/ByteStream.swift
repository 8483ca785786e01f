import Bzip2Kit
import Foundation
import ZlibKit

/// A file's bytes read front to back, inflated on the way when the file is compressed.
///
/// The readers pull from it in pieces of any size, so a compressed file never sits whole in
/// memory. A compressed file is inflated on a thread of its own, a few pieces ahead of the
/// reader (at most ``InflatingPipeline/depth`` MiB), so inflating and parsing run at once.
/// ``fileOffset`` counts the file's own (compressed) bytes read, for progress.
final class ByteStream {
    /// How a file is compressed, told by its first bytes.
    typealias Compression = FileInflater.Compression

    let compression: Compression
    private let source: FileInflater
    private var pipeline: InflatingPipeline?
    private var piece: [UInt8] = []
    private var piecePosition = 0
    /// An error met after some bytes of a read, thrown by the next read.
    private var pending: OSMReaderError?
    /// Bytes handed out so far (inflated bytes for a compressed file).
    private(set) var offset = 0

    /// Opens `path`, telling its compression from its first bytes (`1F 8B` gzip, `BZh` bzip2).
    init(path: String) throws(OSMReaderError) {
        source = try FileInflater(path: path)
        compression = source.compression
    }

    deinit { pipeline?.cancel() }

    /// Bytes of the file read so far (compressed bytes, ahead of the reader, for a compressed file).
    var fileOffset: Int { pipeline?.fileOffset ?? source.fileOffset }

    /// Fills `buffer` as far as the data goes; returns the bytes written, fewer than asked for
    /// only at the end of the data.
    ///
    /// - Throws: ``OSMReaderError`` when the file cannot be read, the compressed data is
    ///   damaged (`.malformed`) or ends before its stream does (`.truncated`); the bytes before
    ///   the damage have been handed out.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReaderError) -> Int {
        if compression == .none {
            var filled = 0
            while filled < buffer.count {
                let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                if count == 0 { break }
                filled += count
            }
            offset += filled
            return filled
        }
        if let pending {
            self.pending = nil
            throw pending
        }
        var filled = 0
        while filled < buffer.count {
            if piecePosition == piece.count {
                if pipeline == nil { pipeline = InflatingPipeline(source: source) }
                let next: [UInt8]?
                do { next = try pipeline!.next() } catch {
                    // The bytes before the damage are handed out first; the error comes next time.
                    guard filled > 0 else { throw error }
                    pending = error
                    break
                }
                guard let next else { break }
                piece = next
                piecePosition = 0
            }
            let count = min(buffer.count - filled, piece.count - piecePosition)
            piece.withUnsafeBytes { bytes in
                (buffer.baseAddress! + filled).copyMemory(from: bytes.baseAddress! + piecePosition, byteCount: count)
            }
            piecePosition += count
            filled += count
        }
        offset += filled
        return filled
    }

    /// Reads exactly `count` bytes, or fewer only at the end of the data.
    ///
    /// - Throws: as ``read(into:)``; a damage met within the `count` bytes is thrown at once.
    func read(_ count: Int) throws(OSMReaderError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let outcome = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(OSMReaderError) in try read(into: buffer) }
        }
        let got = try outcome.get()
        if got < count, let pending {
            self.pending = nil
            throw pending
        }
        if got < count { bytes.removeLast(count - got) }
        return bytes
    }
}

/// Inflates a file on a thread of its own into a short queue of pieces the reader takes in
/// order; a failure comes after the pieces inflated before it. Cancelled when the reader stops.
final class InflatingPipeline: @unchecked Sendable {
    /// Pieces inflated ahead of the reader, at most (each up to 1 MiB).
    static let depth = 4

    // Everything below is guarded by `condition`, but `source`, which only the thread touches.
    private let condition = NSCondition()
    private let source: FileInflater
    private var pieces: [[UInt8]] = []
    private var finished = false
    private var failure: OSMReaderError?
    private var cancelled = false
    private var readSoFar = 0

    init(source: FileInflater) {
        self.source = source
        readSoFar = source.fileOffset
        let thread = Thread { [self] in produce() }
        thread.name = "openmaps-inflate"
        thread.start()
    }

    /// Bytes of the file the thread has read so far.
    var fileOffset: Int {
        condition.lock()
        defer { condition.unlock() }
        return readSoFar
    }

    /// The next piece, nil at the end of the data.
    func next() throws(OSMReaderError) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while pieces.isEmpty && !finished { condition.wait() }
        if !pieces.isEmpty {
            condition.broadcast()
            return pieces.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the thread (the reader is done or gave up).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Inflates pieces of 64 KiB, growing to 1 MiB (a reader that wants only the first bytes
    /// waits for little), until the end, a failure or a cancel.
    private func produce() {
        var size = 64 * 1024
        while true {
            var piece = [UInt8](repeating: 0, count: size)
            let outcome = piece.withUnsafeMutableBytes { buffer in
                Result { () throws(OSMReaderError) in try source.read(into: buffer) }
            }
            condition.lock()
            defer { condition.unlock() }
            switch outcome {
            case .failure(let error):
                failure = error
                finished = true
                condition.broadcast()
                return
            case .success(let count):
                while pieces.count >= Self.depth && !cancelled { condition.wait() }
                if cancelled { return }
                piece.removeLast(size - count)
                if count > 0 { pieces.append(piece) }
                readSoFar = source.fileOffset
                // Only an empty read is the end: a short one may come before a failure.
                finished = count == 0
                condition.broadcast()
                if finished { return }
            }
            size = min(size * 2, 1 << 20)
        }
    }
}

/// Reads a file front to back and inflates it when it is compressed (gzip, bzip2), on the
/// caller's thread; not thread-safe.
final class FileInflater {
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
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw OSMReaderError(kind: .io, message: "this is a directory, not an extract", offset: 0)
        }
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
        if let pending {
            self.pending = nil
            throw pending
        }
        var filled = 0
        do {
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
        } catch {
            // The bytes before the damage are handed out first; the error comes next time.
            guard filled > 0 else { throw error }
            pending = error
        }
        offset += filled
        return filled
    }

    /// An error met after some bytes of a read, thrown by the next read.
    private var pending: OSMReaderError?

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
