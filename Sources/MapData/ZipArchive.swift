import Foundation
import ZlibKit

/// Reads members of a zip archive (a Python wheel, a GTFS feed) without unpacking it: the end record, the
/// central directory, then one member's local header and data (stored or deflated).
public struct ZipArchive {
    /// One member of the archive.
    public struct Member: Sendable, Equatable {
        /// The member's path inside the archive.
        public var name: String
        /// The compression method: 0 stored, 8 deflated (no other is read).
        public var method: Int
        /// Bytes stored in the archive.
        public var compressedSize: Int
        /// Bytes once inflated.
        public var size: Int
        /// Where its local header starts, bytes from the archive's start.
        public var localHeaderOffset: Int
    }

    /// The archive's path as given.
    public let path: String
    /// Its members, in central-directory order.
    public let members: [Member]
    private let bytes: [UInt8]

    /// Reads the archive's directory.
    ///
    /// - Throws: ``DataError`` when the file cannot be read or is not a zip archive.
    public init(path: String) throws(DataError) {
        self.path = path
        // An empty file is said so before it is read (Foundation's whole-file read of an empty
        // file leaks its buffer: found by the readers' fuzzer).
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard size != 0 else {
            throw DataError(.invalidData, message: "the file is empty, not a zip archive", path: path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DataError(.file, message: "cannot read the archive", path: path)
        }
        bytes = [UInt8](data)
        members = try Self.directory(bytes, path: path)
    }

    /// The bytes of the member called `name`.
    public func contents(of name: String) throws(DataError) -> [UInt8] {
        guard let member = members.first(where: { $0.name == name }) else {
            throw DataError(.missingData, message: "the archive has no member '\(name)'", path: path)
        }
        let local = member.localHeaderOffset
        guard local + 30 <= bytes.count, Self.u32(bytes, local) == 0x0403_4B50 else {
            throw DataError(.invalidData, message: "member '\(name)' has no local header at byte \(local)", path: path)
        }
        let start = local + 30 + Self.u16(bytes, local + 26) + Self.u16(bytes, local + 28)
        guard start + member.compressedSize <= bytes.count else {
            throw DataError(.invalidData, message: "member '\(name)' runs past the end of the archive", path: path)
        }
        let slice = bytes[start..<(start + member.compressedSize)]
        switch member.method {
        case 0:
            return Array(slice)
        case 8:
            do {
                return try slice.withUnsafeBytes { raw throws(ZlibError) in
                    try Zlib.inflateRaw(raw, rawSize: member.size)
                }
            } catch {
                throw DataError(
                    .invalidData, message: "member '\(name)' at byte \(start)", path: path, underlying: error)
            }
        default:
            throw DataError(
                .invalidData, message: "member '\(name)' uses compression method \(member.method)", path: path)
        }
    }

    private static func directory(_ bytes: [UInt8], path: String) throws(DataError) -> [Member] {
        // The end record is the last 22 bytes plus a comment of up to 64 KiB.
        let lowest = max(0, bytes.count - 22 - 65_535)
        guard bytes.count >= 22,
            let end = stride(from: bytes.count - 22, through: lowest, by: -1).first(where: {
                u32(bytes, $0) == 0x0605_4B50
            })
        else { throw DataError(.invalidData, message: "not a zip archive (no end record)", path: path) }
        let count = u16(bytes, end + 10)
        var offset = Int(u32(bytes, end + 16))
        var members: [Member] = []
        for _ in 0..<count {
            guard offset + 46 <= bytes.count, u32(bytes, offset) == 0x0201_4B50 else {
                throw DataError(.invalidData, message: "the central directory is damaged at byte \(offset)", path: path)
            }
            let nameLength = u16(bytes, offset + 28)
            let extraLength = u16(bytes, offset + 30)
            let commentLength = u16(bytes, offset + 32)
            guard offset + 46 + nameLength <= bytes.count else {
                throw DataError(.invalidData, message: "a member name runs past the end at byte \(offset)", path: path)
            }
            members.append(
                Member(
                    name: String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self),
                    method: u16(bytes, offset + 10), compressedSize: Int(u32(bytes, offset + 20)),
                    size: Int(u32(bytes, offset + 24)), localHeaderOffset: Int(u32(bytes, offset + 42))))
            offset += 46 + nameLength + extraLength + commentLength
        }
        return members
    }

    private static func u16(_ bytes: [UInt8], _ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
