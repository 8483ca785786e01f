/// An error a ``ProtobufReader`` reports in its reader's own terms: what was wrong and the
/// absolute byte offset where it was found.
public protocol ProtobufFailure: Error {
    /// A malformed-input error saying `message`, at byte `offset` of the whole input.
    init(protobuf message: String, offset: Int)
}

/// The protobuf wire types.
public enum ProtobufWireType: UInt64, Sendable {
    case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
}

/// Reads the protobuf wire format by hand, over bytes that outlive the reader: the one
/// reader of OSM PBF blocks and Mapbox Vector Tiles.
///
/// Varints of up to 10 bytes, zigzag for `sint` fields, length-delimited fields as ranges,
/// packed repeated fields, and skipping of unknown fields. Every read checks bounds and
/// reports what was wrong as a `Failure`, with the absolute byte offset.
@frozen public struct ProtobufReader<Failure: ProtobufFailure> {
    /// The bytes read (the whole input, or the message a sub-reader was made for).
    public let bytes: UnsafeRawBufferPointer
    /// The next byte read, as an index into ``bytes``.
    @usableFromInline var index: Int
    /// The next byte read, as an index into ``bytes``.
    @inlinable public var position: Int { index }
    /// Where the message ends, as an index into ``bytes``.
    public let end: Int
    /// Added to ``index`` in error offsets (where these bytes start in the file).
    public let baseOffset: Int

    /// A reader of `bytes`, or of the message in `range` of them; errors say offsets from
    /// `baseOffset`.
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil, baseOffset: Int = 0) {
        self.bytes = bytes
        index = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
        self.baseOffset = baseOffset
    }

    /// True once every byte of the message has been read.
    @inlinable public var isAtEnd: Bool { index >= end }

    /// The error `message` at the current position.
    @inlinable
    public func error(_ message: String) -> Failure { Failure(protobuf: message, offset: baseOffset + index) }

    /// The next base-128 varint.
    @inlinable @inline(__always)
    public mutating func readVarint() throws(Failure) -> UInt64 {
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

    /// The next varint, zigzag-decoded (`sint32`, `sint64`).
    @inlinable @inline(__always)
    public mutating func readSignedVarint() throws(Failure) -> Int64 {
        ProtobufWriter.unzigzag(try readVarint())
    }

    /// The next field's number and wire type, nil at the end of the message.
    @inlinable
    public mutating func readTag() throws(Failure) -> (field: Int, type: ProtobufWireType)? {
        guard index < end else { return nil }
        let tag = try readVarint()
        guard let type = ProtobufWireType(rawValue: tag & 7) else {
            throw error("field \(tag >> 3) has unsupported wire type \(tag & 7)")
        }
        guard tag >> 3 > 0 else { throw error("field number 0 is not valid") }
        return (Int(tag >> 3), type)
    }

    /// The byte range of a length-delimited field's contents.
    @inlinable
    public mutating func readLengthDelimited() throws(Failure) -> Range<Int> {
        let length = try readVarint()
        guard length <= UInt64(end - index) else {
            throw error("a field of \(length) bytes runs past the end of its message")
        }
        let range = index..<(index + Int(length))
        index += Int(length)
        return range
    }

    /// Skips a field of `type`.
    @inlinable
    public mutating func skip(_ type: ProtobufWireType) throws(Failure) {
        switch type {
        case .varint: _ = try readVarint()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .fixed64, .fixed32:
            let size = type == .fixed64 ? 8 : 4
            guard end - index >= size else { throw error("a fixed-size field runs past the end of its message") }
            index += size
        }
    }

    /// The next 8 bytes, little-endian (`double`, `fixed64`).
    @inlinable
    public mutating func readFixed64() throws(Failure) -> UInt64 {
        guard end - index >= 8 else { throw error("a fixed-size field runs past the end of its message") }
        defer { index += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// The next 4 bytes, little-endian (`float`, `fixed32`).
    @inlinable
    public mutating func readFixed32() throws(Failure) -> UInt32 {
        guard end - index >= 4 else { throw error("a fixed-size field runs past the end of its message") }
        defer { index += 4 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self))
    }

    /// A sub-reader over a length-delimited field.
    @inlinable
    public mutating func readMessage() throws(Failure) -> ProtobufReader {
        let range = try readLengthDelimited()
        return ProtobufReader(bytes, range: range, baseOffset: baseOffset)
    }

    /// Calls `body` for each varint of a packed field.
    @inlinable
    public mutating func readPackedVarints(_ body: (UInt64) throws(Failure) -> Void) throws(Failure) {
        var packed = try readMessage()
        while !packed.isAtEnd { try body(try packed.readVarint()) }
    }

    /// The UTF-8 text of a length-delimited field (invalid sequences replaced).
    @inlinable
    public mutating func readString() throws(Failure) -> String {
        let range = try readLengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

/// Writes the protobuf wire format by hand: the one writer of OSM PBF fixtures and Mapbox
/// Vector Tiles.
public struct ProtobufWriter: Sendable {
    /// The message written so far.
    public var bytes: [UInt8] = []

    /// An empty message.
    public init() {}

    /// Appends `value` as a base-128 varint (7 bits a byte, least significant first).
    @inlinable
    public mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// `value` zigzag-encoded, as protobuf's `sint64` is: 0, -1, 1, -2 … become 0, 1, 2, 3 ….
    @inlinable
    public static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    /// The value a zigzag-encoded `raw` stands for (the inverse of ``zigzag(_:)``).
    @inlinable
    public static func unzigzag(_ raw: UInt64) -> Int64 { Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))) }

    /// Appends the key of field `field` with wire type `type`.
    @inlinable
    public mutating func tag(_ field: Int, _ type: ProtobufWireType) { varint(UInt64(field) << 3 | type.rawValue) }
    /// Appends field `field` as an unsigned varint.
    @inlinable
    public mutating func uint(_ field: Int, _ value: UInt64) {
        tag(field, .varint)
        varint(value)
    }
    /// Appends field `field` as a signed, zigzag-encoded varint (`sint64`).
    @inlinable
    public mutating func sint(_ field: Int, _ value: Int64) { uint(field, Self.zigzag(value)) }
    /// Appends field `field` as a `double` (8 bytes, little-endian).
    public mutating func double(_ field: Int, _ value: Double) {
        tag(field, .fixed64)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
    /// Appends field `field` as a `float` (4 bytes, little-endian).
    public mutating func float(_ field: Int, _ value: Float) {
        tag(field, .fixed32)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
    /// Appends field `field` as an `int32` or `int64` varint (a negative value as its 64-bit
    /// two's complement: ten bytes).
    public mutating func int(_ field: Int, _ value: Int64) { uint(field, UInt64(bitPattern: value)) }
    /// Appends field `field` as length-delimited bytes.
    @inlinable
    public mutating func bytes(_ field: Int, _ data: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }
    /// Appends field `field` as a UTF-8 string.
    public mutating func string(_ field: Int, _ text: String) { bytes(field, Array(text.utf8)) }
    /// Appends field `field` as an embedded message that `build` writes.
    public mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        build(&inner)
        bytes(field, inner.bytes)
    }
    /// Appends field `field` as packed unsigned varints.
    public mutating func packed(_ field: Int, _ values: [UInt64]) {
        var inner = ProtobufWriter()
        for value in values { inner.varint(value) }
        bytes(field, inner.bytes)
    }
    /// Appends field `field` as packed unsigned 32-bit varints (MVT's `tags` and `geometry`).
    public mutating func packed(_ field: Int, _ values: [UInt32]) {
        var inner = ProtobufWriter()
        for value in values { inner.varint(UInt64(value)) }
        bytes(field, inner.bytes)
    }
    /// Appends field `field` as packed zigzag varints of the differences between consecutive
    /// values (the first from 0), as PBF writes ids and coordinates.
    public mutating func packedDeltas(_ field: Int, _ values: [Int64]) {
        var previous: Int64 = 0
        packed(
            field,
            values.map { value in
                defer { previous = value }
                return Self.zigzag(value - previous)
            })
    }
}
