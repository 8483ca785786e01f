internal import CZlib

/// Inflates a gzip file (RFC 1952) piece by piece, as it is read: one member after another
/// (concatenated `.gz` files and `pigz`/`bgzip` output hold several), with bounded memory.
///
/// Feed it the compressed bytes in any pieces with ``inflate(_:into:)``; it says how much it
/// read and wrote. Not thread-safe: one stream per reader.
public final class GzipInflater {
    private var stream = z_stream()
    private var started = false
    /// True once the last member fed so far has ended exactly at the end of its input.
    public private(set) var memberEnded = false

    /// Starts an inflater.
    ///
    /// - Throws: ``ZlibError`` when zlib cannot start (out of memory).
    public init() throws(ZlibError) {
        try start()
    }

    deinit {
        if started { inflateEnd(&stream) }
    }

    private func start() throws(ZlibError) {
        let status = openmaps_inflate_init_gzip(&stream)
        guard status == Z_OK else { throw ZlibError(status: status, rawSize: 0) }
        started = true
    }

    /// What one call did.
    public struct Step: Sendable, Equatable {
        /// Compressed bytes read from the input.
        public var consumed: Int
        /// Inflated bytes written to the output.
        public var produced: Int
    }

    /// Inflates from `input` into `output` until one of them is used up; a member's end is
    /// crossed into the next member when the input goes on.
    ///
    /// - Throws: ``ZlibError`` (`.corrupt`) when the data is not gzip or is damaged.
    public func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        throws(ZlibError) -> Step
    {
        var consumed = 0
        var produced = 0
        while produced < output.count {
            if memberEnded {
                guard consumed < input.count else { break }
                inflateReset(&stream)
                memberEnded = false
            }
            stream.next_in = UnsafeMutablePointer(
                mutating: input.baseAddress?.advanced(by: consumed).assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count - consumed)
            stream.next_out = output.baseAddress?.advanced(by: produced).assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(output.count - produced)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            let read = input.count - consumed - Int(stream.avail_in)
            let wrote = output.count - produced - Int(stream.avail_out)
            consumed += read
            produced += wrote
            switch status {
            case Z_STREAM_END: memberEnded = true
            case Z_OK: if read == 0 && wrote == 0 { return Step(consumed: consumed, produced: produced) }
            case Z_BUF_ERROR: return Step(consumed: consumed, produced: produced)
            case Z_DATA_ERROR:
                let detail = stream.msg.map { String(cString: $0) } ?? "the compressed data is corrupt"
                throw ZlibError(.corrupt, message: "the gzip data is corrupt (\(detail))")
            default: throw ZlibError(status: status, rawSize: 0)
            }
        }
        return Step(consumed: consumed, produced: produced)
    }
}

extension Zlib {
    /// The bytes of every gzip member in `bytes`, inflated; at most `limit` bytes (1 GiB by
    /// default), more refused as ``ZlibError/Kind/sizeMismatch`` (a gzip bomb).
    ///
    /// - Throws: ``ZlibError`` when the data is not gzip, is damaged, ends early or inflates
    ///   past `limit`.
    public static func gunzip(_ bytes: [UInt8], limit: Int = 1 << 30) throws(ZlibError) -> [UInt8] {
        let inflater = try GzipInflater()
        var chunk = [UInt8](repeating: 0, count: max(4_096, min(bytes.count * 4, 1 << 20)))
        let result: Result<[UInt8], ZlibError> = bytes.withUnsafeBytes { input in
            chunk.withUnsafeMutableBytes { out in
                Result { () throws(ZlibError) -> [UInt8] in
                    var output: [UInt8] = []
                    var consumed = 0
                    while true {
                        let step = try inflater.inflate(UnsafeRawBufferPointer(rebasing: input[consumed...]), into: out)
                        consumed += step.consumed
                        output.append(contentsOf: out[..<step.produced])
                        guard output.count <= limit else {
                            throw ZlibError(.sizeMismatch, message: "the gzip data inflates past \(limit) bytes")
                        }
                        if step.produced < out.count && (consumed >= input.count || step.consumed == 0) { break }
                    }
                    guard inflater.memberEnded, consumed == input.count else {
                        throw ZlibError(.corrupt, message: "the gzip data ends before its last member does")
                    }
                    return output
                }
            }
        }
        return try result.get()
    }
}
