internal import CZlib

/// The only code that calls zlib.
public enum Zlib {
    /// Inflates a raw deflate stream (no zlib header), as zip archives store entries.
    ///
    /// - Parameters:
    ///   - rawSize: the inflated size the archive declares.
    ///   - offset: where the stream starts, for errors.
    public static func inflateRaw(_ source: UnsafeRawBufferPointer, rawSize: Int, offset: Int) throws(OSMReaderError)
        -> [UInt8]
    {
        var stream = z_stream()
        guard openmaps_inflate_init_raw(&stream) == Z_OK else {
            throw OSMReaderError(kind: .io, message: "zlib could not start", offset: offset)
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
            throw OSMReaderError(
                kind: .malformed, message: "the deflate stream is corrupt or not \(rawSize) bytes long", offset: offset)
        }
        return output
    }

    /// Inflates a zlib stream whose inflated size is known.
    ///
    /// - Throws: ``OSMReaderError`` (malformed) when the stream is corrupt or its size differs.
    static func inflate(_ source: UnsafeRawBufferPointer, rawSize: Int, offset: Int) throws(OSMReaderError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: rawSize)
        var outputSize = uLongf(rawSize)
        let status = output.withUnsafeMutableBytes { destination in
            uncompress(
                destination.baseAddress!.assumingMemoryBound(to: Bytef.self), &outputSize,
                source.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(source.count))
        }
        guard status == Z_OK else {
            let reason: String
            switch status {
            case Z_DATA_ERROR: reason = "the compressed data is corrupt"
            case Z_BUF_ERROR: reason = "the data inflates to more than the \(rawSize) bytes the blob declares"
            case Z_MEM_ERROR: reason = "zlib ran out of memory"
            default: reason = "zlib failed with status \(status)"
            }
            throw OSMReaderError(kind: .malformed, message: reason, offset: offset)
        }
        guard Int(outputSize) == rawSize else {
            throw OSMReaderError(
                kind: .malformed, message: "the data inflates to \(outputSize) bytes, not the declared \(rawSize)",
                offset: offset)
        }
        return output
    }
}
