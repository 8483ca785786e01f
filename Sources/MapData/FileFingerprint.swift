import Foundation
import ZlibKit

/// What identifies an imported file: its size and CRC-32, as `size:crc32` (`3188704:1a2b3c4d`).
/// Stored with each source, so an installer can tell the file a region came from is the one
/// it would import again, and keep the region.
public enum FileFingerprint {
    /// The fingerprint of the file at `path`, read in 1 MiB pieces.
    ///
    /// - Throws: ``DataError`` (`.file`) when the file cannot be read.
    public static func of(_ path: String) throws(DataError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DataError(.file, message: "cannot open the file", path: path)
        }
        defer { try? handle.close() }
        var crc: UInt32 = 0
        var size = 0
        do {
            while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
                size += data.count
                crc = data.withUnsafeBytes { Zlib.crc32($0, continuing: crc) }
            }
        } catch {
            throw DataError(.file, message: "cannot read the file", path: path, underlying: error)
        }
        let digits = String(crc, radix: 16)
        return "\(size):" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
