import Foundation

/// The column types whose binary form this package reads and writes, by `pg_type` OID.
public enum PostgresType: UInt32, Sendable {
    case bool = 16
    case bytea = 17
    case int8 = 20
    case int2 = 21
    case int4 = 23
    case text = 25
    case float4 = 700
    case float8 = 701
    case varchar = 1043
    case tsvector = 3614
    case jsonb = 3802
}

/// Rows in `COPY`'s binary format (`COPY … FROM STDIN WITH (FORMAT binary)`), gathered for
/// ``PostgresConnection/copy(_:data:)``: no number is printed and no text is escaped on
/// either side. Each value must be written in its column's type (an `int4` column takes
/// ``int4(_:)``); ``batch()`` hands over the rows gathered so far as one complete stream.
///
/// The rows are gathered in a buffer of its own (grown by doubling), written in place: an
/// import writes hundreds of millions of values through it.
public struct CopyRows: ~Copyable {
    /// The stream's header: signature, flags (none), header extension length (0).
    private static let header: [UInt8] =
        Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes gathered since the last batch (its header included).
    public private(set) var byteCount = 0
    /// Rows gathered since the last batch.
    public private(set) var rows = 0
    /// Where the row begun last starts.
    private var rowStart = 0

    /// An empty batch with room for `capacity` bytes to begin with.
    public init(capacity: Int = 1 << 20) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
        append(bytes: Self.header)
    }

    deinit { base.deallocate() }

    /// Makes room for `count` more bytes.
    private mutating func reserve(_ count: Int) {
        guard byteCount + count > capacity else { return }
        var grown = capacity * 2
        while grown < byteCount + count { grown *= 2 }
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        larger.copyMemory(from: base, byteCount: byteCount)
        base.deallocate()
        base = larger
        capacity = grown
    }

    /// Appends `value` in network byte order.
    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        reserve(MemoryLayout<T>.size)
        (base + byteCount).storeBytes(of: value.bigEndian, as: T.self)
        byteCount += MemoryLayout<T>.size
    }

    private mutating func append(bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + byteCount).copyMemory(from: source, byteCount: bytes.count)
        byteCount += bytes.count
    }

    private mutating func append(bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(bytes: $0) }
    }

    /// Starts a row of `fields` values (the columns the `COPY` names, in order).
    public mutating func beginRow(fields: Int) {
        rowStart = byteCount
        append(Int16(fields))
        rows += 1
    }

    /// Takes back the row begun last (when one of its values turned out not to fit).
    public mutating func cancelRow() {
        guard rows > 0 else { return }
        byteCount = rowStart
        rows -= 1
    }

    /// Appends a NULL field to the row.
    public mutating func null() { append(Int32(-1)) }

    /// Appends a `boolean` field.
    public mutating func bool(_ value: Bool) {
        append(Int32(1))
        append(UInt8(value ? 1 : 0))
    }

    /// Appends a `smallint` field.
    public mutating func int2(_ value: Int16) {
        append(Int32(2))
        append(value)
    }

    /// Appends an `integer` field.
    public mutating func int4(_ value: Int32) {
        append(Int32(4))
        append(value)
    }

    /// Appends a `bigint` field.
    public mutating func int8(_ value: Int64) {
        append(Int32(8))
        append(value)
    }

    /// Appends a `real` field.
    public mutating func float4(_ value: Float) {
        append(Int32(4))
        append(value.bitPattern)
    }

    /// Appends a `double precision` field.
    public mutating func float8(_ value: Double) {
        append(Int32(8))
        append(value.bitPattern)
    }

    /// A `text` or `varchar` value; NUL characters, which PostgreSQL's text cannot hold, are
    /// left out.
    public mutating func text(_ value: String) {
        appendText(value, prefix: nil)
    }

    /// A `jsonb` value from its JSON text.
    public mutating func jsonb(_ json: String) {
        appendText(json, prefix: 1)  // the format's version
    }

    /// Text's length and UTF-8 bytes (after `prefix`), NUL characters left out.
    private mutating func appendText(_ text: String, prefix: UInt8?) {
        var text = text
        text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            let prefixLength = prefix == nil ? 0 : 1
            if bytes.isEmpty || memchr(bytes.baseAddress!, 0, bytes.count) == nil {
                append(Int32(truncatingIfNeeded: bytes.count + prefixLength))
                if let prefix { append(prefix) }
                append(bytes: bytes)
            } else {
                let kept = bytes.filter { $0 != 0 }
                append(Int32(truncatingIfNeeded: kept.count + prefixLength))
                if let prefix { append(prefix) }
                append(bytes: kept)
            }
        }
    }

    /// A `bytea` value, or a value already in its type's binary form (``TextSearchVector``'s).
    public mutating func bytes(_ value: [UInt8]) {
        append(Int32(truncatingIfNeeded: value.count))
        append(bytes: value)
    }

    /// The rows gathered since the last batch, as a complete stream (header, rows, trailer);
    /// the next rows start a new batch.
    public mutating func batch() -> [UInt8] {
        append(Int16(-1))
        let stream = [UInt8](UnsafeRawBufferPointer(start: base, count: byteCount))
        byteCount = 0
        rows = 0
        append(bytes: Self.header)
        return stream
    }
}

/// A `tsvector` in its binary form: lexemes with their positions and weights, as
/// `tsvectorrecv` reads them (lexemes in byte order, each once; positions ascending).
public struct TextSearchVector {
    /// A position's weight, A the highest.
    public enum Weight: UInt16, Sendable {
        case a = 3
        case b = 2
        case c = 1
        case d = 0
    }

    /// The largest position a lexeme can have; later words share it.
    public static let maxPosition = 16383
    /// Positions kept per lexeme (PostgreSQL's limit); later ones are dropped.
    public static let maxPositions = 256
    /// A lexeme's longest UTF-8 form in bytes (PostgreSQL's limit); longer words are left out.
    public static let maxLexemeBytes = 2047

    /// The lexemes in the order first added, each with its encoded positions (weight in the
    /// top two bits). A document holds a few dozen words at most: found by a linear search.
    private var entries: [(lexeme: String, positions: [UInt16])] = []

    /// A document with no lexemes.
    public init() {}

    /// Adds `lexeme` at `position` (1 ... ``maxPosition``, clamped) with `weight`; a position
    /// not after the lexeme's last one is not added again, nor an empty lexeme, one longer
    /// than ``maxLexemeBytes`` or one with a NUL character. Lexemes are told apart by their
    /// bytes, as PostgreSQL compares them.
    public mutating func add(_ lexeme: String, position: Int, weight: Weight) {
        let clamped = UInt16(min(max(position, 1), Self.maxPosition))
        let encoded = weight.rawValue << 14 | clamped
        if let index = entries.firstIndex(where: { $0.lexeme.utf8.elementsEqual(lexeme.utf8) }) {
            entries[index].positions.appendIfLater(encoded)
        } else if !lexeme.isEmpty, lexeme.utf8.count <= Self.maxLexemeBytes, !lexeme.utf8.contains(0) {
            entries.append((lexeme, [encoded]))
        }
    }

    /// The distinct lexemes, in the order first added.
    public var lexemes: [String] { entries.map(\.lexeme) }

    /// The binary form: the number of lexemes, then each lexeme (NUL-terminated) with its
    /// number of positions and the positions, lexemes in byte order.
    public var binary: [UInt8] {
        var data: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
        }
        append(UInt32(entries.count))
        for (lexeme, positions) in entries.sorted(by: { $0.lexeme.utf8.lexicographicallyPrecedes($1.lexeme.utf8) }) {
            data += lexeme.utf8
            data.append(0)
            append(UInt16(positions.count))
            for position in positions { append(position) }
        }
        return data
    }
}

extension Array where Element == UInt16 {
    /// Appends an encoded position when it comes after the last one (and fewer than the
    /// limit are held).
    fileprivate mutating func appendIfLater(_ encoded: UInt16) {
        guard count < TextSearchVector.maxPositions else { return }
        if let last, last & 0x3FFF >= encoded & 0x3FFF { return }
        append(encoded)
    }
}
