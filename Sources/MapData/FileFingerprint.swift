import Foundation
import ZlibKit

/// What identifies an imported file and what the importers make of it: the file's size and
/// CRC-32 and ``importVersion``, as `size:crc32/version` (`3188704:1a2b3c4d/3`). Stored with
/// each source, so an installer can tell the region came from the file it would import, read
/// as it would read it now, and keep the region.
public enum FileFingerprint {
    /// Raised when the importers write more from the same file, so that installers import it
    /// again: 2, the bicycling layer's features; 3, the `timezone` tag kept (opening hours).
    public static let importVersion = 3

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
        return "\(size):" + String(repeating: "0", count: 8 - digits.count) + digits + "/\(importVersion)"
    }
}
