internal import CZlib

/// The only code that calls zlib: inflating zlib and raw deflate streams (PBF blobs, zip
/// members), deflating (PNG image data, test extracts) and CRC-32 (PNG chunks).
public enum Zlib {
    /// How deflate looks for repeats.
    public enum Strategy: Sendable {
        /// zlib's default.
        case standard
        /// Runs of one byte only (`Z_RLE`): nearly as small for filtered images, much faster.
        case runLength
    }

    /// Deflate's largest expansion: 1,032 bytes out for each byte in (258-byte matches coded
    /// in 2 bits), plus room for a header.
    static let largestRatio = 1_032

    /// Refuses a declared size no stream of `sourceCount` bytes inflates to, before anything is
    /// allocated for it (a hostile or damaged container's size: a zip member's header, found by
    /// the readers' fuzzer, asked for 4 GB from a few hundred bytes).
    static func checkDeclared(_ rawSize: Int, from sourceCount: Int) throws(ZlibError) {
        guard rawSize >= 0, rawSize <= sourceCount * largestRatio + 64, rawSize <= Int(UInt32.max) else {
            throw ZlibError(
                .sizeMismatch,
                message: "\(sourceCount) compressed bytes are said to inflate to \(rawSize): more than deflate can make"
            )
        }
    }

    /// Inflates a zlib stream whose inflated size is known.
    ///
    /// - Throws: ``ZlibError`` when the stream is corrupt, inflates to another size, or its
    ///   declared size is more than deflate can make of it.
    public static func inflate(_ source: UnsafeRawBufferPointer, rawSize: Int) throws(ZlibError) -> [UInt8] {
        try checkDeclared(rawSize, from: source.count)
        var output = [UInt8](repeating: 0, count: rawSize)
        var failure: ZlibError?
        output.withUnsafeMutableBytes { destination in
            do throws(ZlibError) { try inflate(source, into: destination) } catch { failure = error }
        }
        if let failure { throw failure }
        return output
    }

    /// Inflates a zlib stream into `destination`, which it must fill exactly (a decoder's own
    /// buffer: a tile of heights inflated straight into its numbers).
    ///
    /// - Throws: ``ZlibError`` when the stream is corrupt or inflates to another size.
    public static func inflate(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer)
        throws(ZlibError)
    {
        let rawSize = destination.count
        try checkDeclared(rawSize, from: source.count)
        guard let target = destination.baseAddress else { return }
        var outputSize = uLongf(rawSize)
        let status = uncompress(
            target.assumingMemoryBound(to: Bytef.self), &outputSize,
            source.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(source.count))
        guard status == Z_OK else { throw ZlibError(status: status, rawSize: rawSize) }
        guard Int(outputSize) == rawSize else {
            throw ZlibError(
                .sizeMismatch, message: "the data inflates to \(outputSize) bytes, not the declared \(rawSize)")
        }
    }

    /// Inflates a raw deflate stream (no zlib header), as zip archives store members.
    ///
    /// - Parameter rawSize: the inflated size the container declares.
    /// - Throws: ``ZlibError`` when the stream is corrupt or inflates to another size.
    public static func inflateRaw(_ source: UnsafeRawBufferPointer, rawSize: Int) throws(ZlibError) -> [UInt8] {
        try checkDeclared(rawSize, from: source.count)
        var stream = z_stream()
        guard openmaps_inflate_init_raw(&stream) == Z_OK else {
            throw ZlibError(.failed, message: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: rawSize)
        let status = output.withUnsafeMutableBytes { destination -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(source.count)
            stream.next_out = destination.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(rawSize)
            return CZlib.inflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == rawSize else {
            throw ZlibError(.corrupt, message: "the deflate stream is corrupt or not \(rawSize) bytes long")
        }
        return output
    }

    /// A zlib stream of `bytes`.
    ///
    /// - Parameter level: 0 (stored) to 9 (smallest); default 6.
    public static func deflate(_ bytes: [UInt8], level: Int = 6, strategy: Strategy = .standard) throws(ZlibError)
        -> [UInt8]
    {
        let zlibStrategy = strategy == .runLength ? Z_RLE : Z_DEFAULT_STRATEGY
        return try deflate(bytes) { openmaps_deflate_init(&$0, Int32(min(max(level, 0), 9)), zlibStrategy) }
    }

    /// `bytes` as one gzip member, as a `.gz` file holds it.
    ///
    /// - Parameter level: 0 (stored) to 9 (smallest); default 6.
    public static func gzip(_ bytes: [UInt8], level: Int = 6) throws(ZlibError) -> [UInt8] {
        try deflate(bytes) { openmaps_deflate_init_gzip(&$0, Int32(min(max(level, 0), 9))) }
    }

    private static func deflate(_ bytes: [UInt8], start: (inout z_stream) -> Int32) throws(ZlibError) -> [UInt8] {
        var stream = z_stream()
        guard start(&stream) == Z_OK else {
            throw ZlibError(.failed, message: "zlib could not start deflating")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw ZlibError(status: status, rawSize: bytes.count) }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// The CRC-32 of `bytes` (as PNG chunks and zip members carry it).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0, continuing: 0) }
    }

    /// The CRC-32 of what came before (`crc`, 0 to start) followed by `bytes`: a long file's
    /// checksum taken piece by piece.
    public static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32) -> UInt32 {
        UInt32(CZlib.crc32(uLong(crc), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}

/// A zlib failure: what kind, and what zlib said.
public struct ZlibError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, for programs.
    public enum Kind: String, Sendable, Equatable {
        /// The compressed data is damaged.
        case corrupt
        /// The data inflates to another size than declared.
        case sizeMismatch
        /// zlib ran out of memory.
        case memory
        /// zlib failed otherwise (its status is in the message).
        case failed
    }

    /// What kind of failure.
    public var kind: Kind
    /// What went wrong, in words (zlib's message where it gave one).
    public var message: String

    /// An error of `kind` that says `message`.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The one mapping from a zlib status to an error.
    init(status: Int32, rawSize: Int) {
        switch status {
        case Z_DATA_ERROR: self.init(.corrupt, message: "the compressed data is corrupt")
        case Z_BUF_ERROR:
            self.init(.sizeMismatch, message: "the data inflates to more than the \(rawSize) bytes declared")
        case Z_MEM_ERROR: self.init(.memory, message: "zlib ran out of memory")
        default: self.init(.failed, message: "zlib failed with status \(status)")
        }
    }

    public var description: String { message }
}
