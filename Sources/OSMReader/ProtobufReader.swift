/// Reads the protobuf wire format by hand, over bytes that outlive the reader.
///
/// Varints of up to 10 bytes, zigzag for `sint` fields, length-delimited fields as ranges,
/// packed repeated fields, and skipping of unknown fields. Every read checks bounds and
/// reports the absolute byte offset of what was wrong.
struct ProtobufReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var index: Int
    let end: Int
    /// Added to `index` in error offsets (where these bytes start in the file).
    let baseOffset: Int

    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil, baseOffset: Int = 0) {
        self.bytes = bytes
        index = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
        self.baseOffset = baseOffset
    }

    var isAtEnd: Bool { index >= end }

    /// Wire types of the protobuf encoding.
    enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    func error(_ message: String) -> OSMReaderError {
        OSMReaderError(kind: .malformed, message: message, offset: baseOffset + index)
    }

    @inline(__always)
    mutating func readVarint() throws(OSMReaderError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while index < end {
            let byte = bytes[index]
            index += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift >= 64 { throw error("a varint is longer than 10 bytes") }
        }
        throw error("a varint runs past the end of its message")
    }

    @inline(__always)
    mutating func readSignedVarint() throws(OSMReaderError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// The next field's number and wire type, nil at the end of the message.
    mutating func readTag() throws(OSMReaderError) -> (field: Int, type: WireType)? {
        guard index < end else { return nil }
        let tag = try readVarint()
        guard let type = WireType(rawValue: tag & 7) else {
            throw error("field \(tag >> 3) has unsupported wire type \(tag & 7)")
        }
        guard tag >> 3 > 0 else { throw error("field number 0 is not valid") }
        return (Int(tag >> 3), type)
    }

    /// The byte range of a length-delimited field's contents.
    mutating func readLengthDelimited() throws(OSMReaderError) -> Range<Int> {
        let length = try readVarint()
        guard length <= UInt64(end - index) else {
            throw error("a field of \(length) bytes runs past the end of its message")
        }
        let range = index..<(index + Int(length))
        index += Int(length)
        return range
    }

    /// Skips a field of `type`.
    mutating func skip(_ type: WireType) throws(OSMReaderError) {
        switch type {
        case .varint: _ = try readVarint()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .fixed64, .fixed32:
            let size = type == .fixed64 ? 8 : 4
            guard end - index >= size else { throw error("a fixed-size field runs past the end of its message") }
            index += size
        }
    }

    /// A sub-reader over a length-delimited field.
    mutating func readMessage() throws(OSMReaderError) -> ProtobufReader {
        let range = try readLengthDelimited()
        return ProtobufReader(bytes, range: range, baseOffset: baseOffset)
    }

    /// Calls `body` for each varint of a packed field.
    mutating func readPackedVarints(_ body: (UInt64) throws(OSMReaderError) -> Void) throws(OSMReaderError) {
        var packed = try readMessage()
        while !packed.isAtEnd { try body(try packed.readVarint()) }
    }

    /// The UTF-8 text of a length-delimited field.
    mutating func readString() throws(OSMReaderError) -> String {
        let range = try readLengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
