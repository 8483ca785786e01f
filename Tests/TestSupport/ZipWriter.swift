import ZlibKit

/// Zip archives written by hand for tests (wheels, GTFS feeds): stored members, CRC-32 set.
public enum ZipWriter {
    /// An archive holding `members` (name, bytes) stored uncompressed, in order.
    public static func stored(_ members: [(name: String, contents: [UInt8])]) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16 & 0xFFFF) }
        var locals: [UInt8] = []
        var central: [UInt8] = []
        for (name, contents) in members {
            let nameBytes = Array(name.utf8)
            let crc = Int(Zlib.crc32(contents))
            let offset = locals.count
            locals +=
                u32(0x0403_4B50) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(crc) + u32(contents.count)
                + u32(contents.count) + u16(nameBytes.count) + u16(0) + nameBytes + contents
            central +=
                u32(0x0201_4B50) + u16(20) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(crc)
                + u32(contents.count) + u32(contents.count) + u16(nameBytes.count) + u16(0) + u16(0) + u16(0)
                + u16(0) + u32(0) + u32(offset) + nameBytes
        }
        let end =
            u32(0x0605_4B50) + u16(0) + u16(0) + u16(members.count) + u16(members.count) + u32(central.count)
            + u32(locals.count) + u16(0)
        return locals + central + end
    }
}
