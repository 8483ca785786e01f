internal import CZstd

/// The only code that calls Zstandard: frames of data read often and decoded fast (an
/// elevation model's tiles, decoded for every picture of terrain), at several times zlib's
/// speed. Errors are ``ZlibError``s, as for zlib: the callers tell damaged data by kind.
public enum Zstd {
    /// A Zstandard frame's first four bytes (little-endian 0xFD2FB528).
    public static let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

    /// Whether `bytes` start as a Zstandard frame does.
    public static func isFrame(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 4 && bytes[0] == magic[0] && bytes[1] == magic[1] && bytes[2] == magic[2]
            && bytes[3] == magic[3]
    }

    /// `bytes` as one Zstandard frame, with its size and a checksum of its content (so damage
    /// is found when it is decompressed).
    ///
    /// - Parameter level: 1 (fastest) to 19 (smallest); default 3.
    public static func compress(_ bytes: [UInt8], level: Int = 3) throws(ZlibError) -> [UInt8] {
        guard let context = ZSTD_createCCtx() else { throw ZlibError(.memory, message: "zstd ran out of memory") }
        defer { ZSTD_freeCCtx(context) }
        for (parameter, value) in [(ZSTD_c_compressionLevel, Int32(min(max(level, 1), 19))), (ZSTD_c_checksumFlag, 1)] {
            let status = ZSTD_CCtx_setParameter(context, parameter, value)
            guard ZSTD_isError(status) == 0 else { throw error(status, doing: "set up compression") }
        }
        let bound = ZSTD_compressBound(bytes.count)
        var output = [UInt8](repeating: 0, count: bound)
        let written = output.withUnsafeMutableBytes { destination in
            bytes.withUnsafeBytes { source in
                ZSTD_compress2(context, destination.baseAddress, bound, source.baseAddress, source.count)
            }
        }
        guard ZSTD_isError(written) == 0 else { throw error(written, doing: "compress") }
        output.removeSubrange(written...)
        return output
    }

    /// zstd's failure `code` while it tried `doing`.
    private static func error(_ code: Int, doing: String) -> ZlibError {
        ZlibError(.failed, message: "zstd could not \(doing): \(String(cString: ZSTD_getErrorName(code)))")
    }

    /// Decompresses one frame into `destination`, which it must fill exactly.
    ///
    /// - Throws: ``ZlibError`` when the frame is damaged or holds another size.
    public static func decompress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer)
        throws(ZlibError)
    {
        let size = ZSTD_getFrameContentSize(source.baseAddress, source.count)
        guard size != ZSTD_CONTENTSIZE_ERROR else { throw ZlibError(.corrupt, message: "the zstd frame is damaged") }
        guard size == UInt64(destination.count) else {
            let held = size == ZSTD_CONTENTSIZE_UNKNOWN ? "an unknown number of" : "\(size)"
            throw ZlibError(
                .sizeMismatch, message: "the zstd frame holds \(held) bytes, not the \(destination.count) expected")
        }
        let written = ZSTD_decompress(destination.baseAddress, destination.count, source.baseAddress, source.count)
        guard ZSTD_isError(written) == 0 else {
            throw ZlibError(
                .corrupt, message: "the zstd frame is damaged: \(String(cString: ZSTD_getErrorName(written)))")
        }
        guard written == destination.count else {
            throw ZlibError(.sizeMismatch, message: "the zstd frame holds \(written) bytes, not \(destination.count)")
        }
    }
}
