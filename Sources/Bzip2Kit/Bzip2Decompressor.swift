internal import CBzip2

/// The only code that calls libbz2: decompresses a `.bz2` file piece by piece, as it is read,
/// one stream after another (`pbzip2` and `lbzip2` write several), with bounded memory.
///
/// Feed it the compressed bytes in any pieces with ``decompress(_:into:)``. Not thread-safe:
/// one decompressor per reader.
public final class Bzip2Decompressor {
    private var stream = bz_stream()
    private var started = false
    /// True once the last stream fed so far has ended exactly at the end of its input.
    public private(set) var streamEnded = false

    /// Starts a decompressor.
    ///
    /// - Throws: ``Bzip2Error`` when libbz2 cannot start (out of memory).
    public init() throws(Bzip2Error) {
        try start()
    }

    deinit {
        if started { BZ2_bzDecompressEnd(&stream) }
    }

    private func start() throws(Bzip2Error) {
        stream = bz_stream()
        let status = BZ2_bzDecompressInit(&stream, 0, 0)
        guard status == BZ_OK else { throw Bzip2Error(status: status) }
        started = true
    }

    /// What one call did.
    public struct Step: Sendable, Equatable {
        /// Compressed bytes read from the input.
        public var consumed: Int
        /// Decompressed bytes written to the output.
        public var produced: Int
    }

    /// Decompresses from `input` into `output` until one of them is used up; a stream's end is
    /// crossed into the next stream when the input goes on.
    ///
    /// - Throws: ``Bzip2Error`` when the data is not bzip2 or is damaged.
    public func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        throws(Bzip2Error) -> Step
    {
        var consumed = 0
        var produced = 0
        while produced < output.count {
            if streamEnded {
                guard consumed < input.count else { break }
                BZ2_bzDecompressEnd(&stream)
                started = false
                try start()
                streamEnded = false
            }
            let inputBase = input.baseAddress.map { UnsafeMutableRawPointer(mutating: $0 + consumed) }
            stream.next_in = inputBase?.assumingMemoryBound(to: CChar.self)
            stream.avail_in = UInt32(input.count - consumed)
            stream.next_out = output.baseAddress.map { ($0 + produced).assumingMemoryBound(to: CChar.self) }
            stream.avail_out = UInt32(output.count - produced)
            let status = BZ2_bzDecompress(&stream)
            let read = input.count - consumed - Int(stream.avail_in)
            let wrote = output.count - produced - Int(stream.avail_out)
            consumed += read
            produced += wrote
            switch status {
            case BZ_STREAM_END: streamEnded = true
            case BZ_OK: if read == 0 && wrote == 0 { return Step(consumed: consumed, produced: produced) }
            default: throw Bzip2Error(status: status)
            }
        }
        return Step(consumed: consumed, produced: produced)
    }
}

/// A libbz2 failure: what kind, and what libbz2 said.
public struct Bzip2Error: Error, Equatable, CustomStringConvertible {
    /// What went wrong, for programs.
    public enum Kind: String, Sendable, Equatable {
        /// The data does not start like bzip2 (no `BZh` signature).
        case notBzip2
        /// The compressed data is damaged (a block's checksum or structure is wrong).
        case corrupt
        /// libbz2 ran out of memory.
        case memory
        /// libbz2 failed otherwise (its status is in the message).
        case failed
    }

    /// What kind of failure.
    public var kind: Kind
    /// What went wrong, in words (libbz2's status where it gave one).
    public var message: String

    /// An error of `kind` that says `message`.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The one mapping from a libbz2 status to an error.
    init(status: Int32) {
        switch status {
        case BZ_DATA_ERROR_MAGIC: self.init(.notBzip2, message: "the data is not bzip2 (no 'BZh' signature)")
        case BZ_DATA_ERROR: self.init(.corrupt, message: "the bzip2 data is corrupt")
        case BZ_MEM_ERROR: self.init(.memory, message: "libbz2 ran out of memory")
        default: self.init(.failed, message: "libbz2 failed with status \(status)")
        }
    }

    public var description: String { message }
}

/// Whole-buffer bzip2 compression (test extracts, small files).
public enum Bzip2 {
    /// One bzip2 stream of `bytes`.
    ///
    /// - Parameter blockSize: 1...9, in 100 kB units; default 9 (best compression).
    public static func compress(_ bytes: [UInt8], blockSize: Int = 9) throws(Bzip2Error) -> [UInt8] {
        // libbz2's documented worst case: 1 % larger plus 600 bytes.
        var capacity = UInt32(bytes.count + bytes.count / 100 + 600)
        var output = [UInt8](repeating: 0, count: Int(capacity))
        var source = bytes
        let status = source.withUnsafeMutableBytes { input in
            output.withUnsafeMutableBytes { out in
                BZ2_bzBuffToBuffCompress(
                    out.baseAddress!.assumingMemoryBound(to: CChar.self), &capacity,
                    input.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(input.count),
                    Int32(min(max(blockSize, 1), 9)), 0, 0)
            }
        }
        guard status == BZ_OK else { throw Bzip2Error(status: status) }
        return Array(output.prefix(Int(capacity)))
    }
}
