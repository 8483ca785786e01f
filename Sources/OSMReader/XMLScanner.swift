/// One piece of XML markup, as ``XMLScanner`` reads it.
struct XMLMarkup {
    enum Kind: Equatable {
        /// `<name …>` or `<name …/>` (``XMLMarkup/isEmpty``).
        case start
        /// `</name>`.
        case end
        /// The end of the data.
        case endOfFile
    }

    var kind: Kind = .endOfFile
    /// The element's name: a range of ``XMLScanner/arena``.
    var name: Range<Int> = 0..<0
    /// `<name …/>`: the element has no content.
    var isEmpty = false
    /// Where the markup's `<` is.
    var line = 0
    var column = 0
    /// Byte offset of the `<` in the (inflated) data.
    var offset = 0
}

/// One attribute of a start tag.
struct XMLAttribute {
    var name: Range<Int>
    var value: Range<Int>
    var line: Int
    var column: Int
}

/// Reads well-formed XML 1.0 markup from a stream, piece by piece: start and end tags with
/// their attributes; the XML declaration, comments, processing instructions, CDATA sections and
/// character data are checked and passed over (OSM XML keeps everything in attributes).
///
/// Names and attribute values are copied, entities decoded (`&amp;` `&lt;` `&gt;` `&quot;`
/// `&apos;`, `&#N;`, `&#xH;`), into ``arena``, which is reused for every tag. Every error names
/// the line and column (in characters) where the XML goes wrong. A document type declaration
/// is refused (OSM XML has none, and its entities are a classic way to blow up a reader), as is
/// an encoding other than UTF-8.
struct XMLScanner {
    private let stream: ByteStream
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var position = 0
    private var end = 0
    private var ended = false
    /// Bytes of the data before `buffer[0]`.
    private var bufferStart = 0
    /// Where the scanner is: the next byte's line and column.
    private(set) var line = 1
    private(set) var column = 1
    /// Bytes the names and values of the current tag are copied into.
    private(set) var arena: [UInt8] = []
    /// The current start tag's attributes, names and values (entities decoded) as ranges of
    /// ``arena``; both are reused from tag to tag.
    private(set) var attributes: [XMLAttribute] = []
    /// Open elements: name bytes and where each was opened.
    private var open: [(name: [UInt8], line: Int, column: Int)] = []
    private var sawRoot = false
    private var hasByteOrderMark = false
    /// Whether character data is kept in ``text`` (GPX keeps values in elements); off for OSM.
    var keepsText = false
    /// With ``keepsText``, the character data read before the markup ``next()`` returned, its
    /// white space left out (entities decoded).
    private(set) var text: [UInt8] = []

    init(stream: ByteStream) {
        self.stream = stream
        arena.reserveCapacity(4096)
    }

    /// Bytes of the (inflated) data read so far.
    var offset: Int { bufferStart + position }
    /// Depth of the element the next markup is in (0 outside the root).
    var depth: Int { open.count }

    // MARK: Bytes

    /// The next byte without taking it, or nil at the end of the data.
    @inline(__always) private mutating func peek() throws(OSMReaderError) -> UInt8? {
        if position == end {
            if ended { return nil }
            try refill()
            if position == end { return nil }
        }
        return buffer[position]
    }

    /// Takes the next byte, keeping the line and column.
    @inline(__always) private mutating func take() throws(OSMReaderError) -> UInt8? {
        guard let byte = try peek() else { return nil }
        position += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
        return byte
    }

    private mutating func refill() throws(OSMReaderError) {
        bufferStart += end
        position = 0
        let outcome = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(OSMReaderError) in try stream.read(into: bytes) }
        }
        do { end = try outcome.get() } catch {
            var located = error
            located.line = line
            located.column = column
            throw located
        }
        if end == 0 { ended = true }
    }

    private func error(_ message: String, line: Int? = nil, column: Int? = nil, kind: OSMReaderError.Kind = .malformed)
        -> OSMReaderError
    {
        OSMReaderError(
            kind: kind, message: message, offset: offset, line: line ?? self.line, column: column ?? self.column)
    }

    /// Takes the next byte; the end of the data here is an error saying what it ended inside.
    @inline(__always) private mutating func require(_ inside: @autoclosure () -> String) throws(OSMReaderError) -> UInt8
    {
        guard let byte = try take() else { throw error("the file ends inside \(inside())", kind: .truncated) }
        return byte
    }

    /// Takes the next byte of the tag whose name is `tag` (an arena range); the end of the
    /// data here is an error naming the tag.
    @inline(__always) private mutating func require(inTag tag: Range<Int>) throws(OSMReaderError) -> UInt8 {
        guard let byte = try take() else {
            throw error("the file ends inside <\(text(tag))>", kind: .truncated)
        }
        return byte
    }

    private mutating func expect(_ literal: String, inside: String) throws(OSMReaderError) {
        for expected in literal.utf8 {
            let (line, column) = (self.line, self.column)
            let byte = try require(inside)
            guard byte == expected else {
                throw error(
                    "expected '\(literal)' in \(inside), found \(Self.describe(byte))", line: line, column: column)
            }
        }
    }

    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0A: "a line break"
        case 0x20...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        default: "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    @inline(__always) private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    @inline(__always) private static func isName(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    private mutating func skipSpace() throws(OSMReaderError) {
        while true {
            while position < end {
                let byte = buffer[position]
                if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                    column += 1
                } else if byte == 0x0A {
                    line += 1
                    column = 1
                } else {
                    return
                }
                position += 1
            }
            guard let byte = try peek(), Self.isSpace(byte) else { return }
        }
    }

    // MARK: Markup

    /// The next start or end tag (or the end of the data), after checking and passing over
    /// whatever comes before it.
    mutating func next() throws(OSMReaderError) -> XMLMarkup {
        arena.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        if keepsText { text.removeAll(keepingCapacity: true) }
        while true {
            if !open.isEmpty || offset > 3 { try skipSpace() }
            let (line, column, offset) = (self.line, self.column, self.offset)
            guard let byte = try take() else {
                if let innermost = open.last {
                    throw error(
                        "the file ends inside <\(String(decoding: innermost.name, as: UTF8.self))> opened at line \(innermost.line), column \(innermost.column)",
                        kind: .truncated)
                }
                guard sawRoot else { throw error("the file has no root element", kind: .truncated) }
                return XMLMarkup()
            }
            if byte == 0x3C {
                if let markup = try markup(line: line, column: column, offset: offset) { return markup }
            } else if byte == 0xEF && offset == 0 {
                guard try take() == 0xBB, try take() == 0xBF else {
                    throw error("the file starts with a damaged UTF-8 byte order mark", line: 1, column: 1)
                }
                hasByteOrderMark = true
                self.column = 1
            } else if open.isEmpty && !Self.isSpace(byte) {
                throw error(
                    sawRoot
                        ? "text after the root element ends" : "text before the root element: \(Self.describe(byte))",
                    line: line, column: column)
            } else if byte == 0x26 {
                let decoded = try entity(line: line, column: column)
                if keepsText { text += decoded }
            } else if keepsText {
                text.append(byte)
            }
        }
    }

    /// Reads the markup after a `<`; nil for what is passed over (comments, declarations).
    private mutating func markup(line: Int, column: Int, offset: Int) throws(OSMReaderError) -> XMLMarkup? {
        let atStart = offset == 0 || (offset == 3 && hasByteOrderMark)
        guard let byte = try peek() else { throw error("the file ends inside a tag", kind: .truncated) }
        switch byte {
        case 0x3F:  // <?
            _ = try take()
            try processingInstruction(line: line, column: column, isDocumentStart: atStart)
            return nil
        case 0x21:  // <!
            _ = try take()
            try declaration(line: line, column: column)
            return nil
        case 0x2F:  // </
            _ = try take()
            var markup = XMLMarkup(kind: .end, line: line, column: column, offset: offset)
            markup.name = try name(inside: "an end tag")
            try skipSpace()
            let (closeLine, closeColumn) = (self.line, self.column)
            let close = try require("an end tag")
            guard close == 0x3E else {
                throw error(
                    "expected '>' to close </\(text(markup.name))>, found \(Self.describe(close))", line: closeLine,
                    column: closeColumn)
            }
            let closing = Array(arena[markup.name])
            guard let innermost = open.popLast() else {
                throw error("</\(text(markup.name))> closes nothing", line: line, column: column)
            }
            guard innermost.name == closing else {
                throw error(
                    "</\(text(markup.name))> closes <\(String(decoding: innermost.name, as: UTF8.self))> opened at line \(innermost.line), column \(innermost.column)",
                    line: line, column: column)
            }
            return markup
        default:
            guard Self.isNameStart(byte) else {
                throw error("expected a tag name after '<', found \(Self.describe(byte))")
            }
            if open.isEmpty && sawRoot {
                throw error("a second root element: an XML file has only one", line: line, column: column)
            }
            var markup = XMLMarkup(kind: .start, line: line, column: column, offset: offset)
            markup.name = try name(inside: "a tag")
            try attributes(of: &markup)
            if !markup.isEmpty { open.append((Array(arena[markup.name]), line, column)) }
            sawRoot = true
            return markup
        }
    }

    /// The text of an arena range (for messages and values).
    func text(_ range: Range<Int>) -> String {
        String(decoding: arena[range], as: UTF8.self)
    }

    /// Whether an arena range holds exactly `literal`'s bytes.
    func matches(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        let bytes = literal.utf8Start
        var index = 0
        for byte in arena[range] {
            guard byte == bytes[index] else { return false }
            index += 1
        }
        return true
    }

    private mutating func name(inside: String) throws(OSMReaderError) -> Range<Int> {
        let start = arena.count
        let (line, column) = (self.line, self.column)
        guard let first = try take() else { throw error("the file ends inside \(inside)", kind: .truncated) }
        guard Self.isNameStart(first) else {
            throw error("expected a name in \(inside), found \(Self.describe(first))", line: line, column: column)
        }
        arena.append(first)
        while let byte = try peek(), Self.isName(byte) {
            arena.append(byte)
            _ = try take()
        }
        return start..<arena.count
    }

    private mutating func attributes(of markup: inout XMLMarkup) throws(OSMReaderError) {
        // Names become text only for a message.
        let tagName = markup.name
        while true {
            let hadSpace = (try peek()).map(Self.isSpace) ?? false
            try skipSpace()
            let (line, column) = (self.line, self.column)
            let byte = try require(inTag: tagName)
            switch byte {
            case 0x3E: return
            case 0x2F:
                let (closeLine, closeColumn) = (self.line, self.column)
                guard try require(inTag: tagName) == 0x3E else {
                    throw error("expected '>' after '/' in <\(text(tagName))>", line: closeLine, column: closeColumn)
                }
                markup.isEmpty = true
                return
            default:
                guard Self.isNameStart(byte) else {
                    throw error(
                        "expected an attribute or '>' in <\(text(tagName))>, found \(Self.describe(byte))", line: line,
                        column: column)
                }
                guard hadSpace else {
                    throw error(
                        "attributes of <\(text(tagName))> must be separated by a space", line: line, column: column)
                }
                let start = arena.count
                arena.append(byte)
                while let next = try peek(), Self.isName(next) {
                    arena.append(next)
                    _ = try take()
                }
                let nameRange = start..<arena.count
                if attributes.contains(where: { arena[$0.name] == arena[nameRange] }) {
                    throw error(
                        "attribute '\(text(nameRange))' appears twice in <\(text(tagName))>", line: line, column: column
                    )
                }
                try skipSpace()
                let (equalsLine, equalsColumn) = (self.line, self.column)
                let equals = try require(inTag: tagName)
                guard equals == 0x3D else {
                    throw error(
                        "expected '=' after attribute '\(text(nameRange))' in <\(text(tagName))>, found \(Self.describe(equals))",
                        line: equalsLine, column: equalsColumn)
                }
                try skipSpace()
                let value = try quoted(attribute: nameRange, tag: tagName)
                attributes.append(XMLAttribute(name: nameRange, value: value, line: line, column: column))
            }
        }
    }

    /// A quoted attribute value with entities decoded and whitespace normalized, as XML says.
    private mutating func quoted(attribute: Range<Int>, tag: Range<Int>) throws(OSMReaderError) -> Range<Int> {
        let (line, column) = (self.line, self.column)
        let quote = try require(inTag: tag)
        guard quote == 0x22 || quote == 0x27 else {
            throw error(
                "the value of '\(text(attribute))' in <\(text(tag))> must be quoted, found \(Self.describe(quote))",
                line: line, column: column)
        }
        let start = arena.count
        while true {
            // The plain run of the value straight from the buffer: no line breaks in it.
            while position < end {
                let byte = buffer[position]
                if byte == quote || byte == 0x3C || byte == 0x26 || byte < 0x20 { break }
                arena.append(byte)
                position += 1
                if byte & 0xC0 != 0x80 { self.column += 1 }
            }
            let (byteLine, byteColumn) = (self.line, self.column)
            guard let byte = try take() else {
                throw error(
                    "the file ends inside the value of '\(text(attribute))' opened at line \(line), column \(column)",
                    kind: .truncated)
            }
            switch byte {
            case quote: return start..<arena.count
            case 0x3C:
                throw error(
                    "'<' inside the value of '\(text(attribute))' (write &lt;)", line: byteLine, column: byteColumn)
            case 0x26: arena.append(contentsOf: try entity(line: byteLine, column: byteColumn))
            case 0x09, 0x0A, 0x0D: arena.append(0x20)
            default: arena.append(byte)
            }
        }
    }

    /// Decodes an entity or character reference after its `&`.
    private mutating func entity(line: Int, column: Int) throws(OSMReaderError) -> [UInt8] {
        var name: [UInt8] = []
        while true {
            guard let byte = try take() else { throw error("the file ends inside an entity", kind: .truncated) }
            if byte == 0x3B { break }
            guard name.count < 10, byte > 0x20, byte != 0x26, byte != 0x3C, byte != 0x22, byte != 0x27 else {
                throw error("'&' must start an entity such as &amp; (write &amp; for '&')", line: line, column: column)
            }
            name.append(byte)
        }
        let written = String(decoding: name, as: UTF8.self)
        switch written {
        case "amp": return [0x26]
        case "lt": return [0x3C]
        case "gt": return [0x3E]
        case "quot": return [0x22]
        case "apos": return [0x27]
        default:
            var scalarValue: UInt32?
            if written.hasPrefix("#x") {
                scalarValue = UInt32(written.dropFirst(2), radix: 16)
            } else if written.hasPrefix("#") {
                scalarValue = UInt32(written.dropFirst(), radix: 10)
            } else {
                throw error(
                    "unknown entity &\(written); (only &amp; &lt; &gt; &quot; &apos; and &#…; exist here)", line: line,
                    column: column)
            }
            guard let scalarValue, scalarValue != 0, let scalar = Unicode.Scalar(scalarValue) else {
                throw error("&\(written); is not a character", line: line, column: column)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// Passes over `<?…?>`; checks the XML declaration's version and encoding.
    private mutating func processingInstruction(line: Int, column: Int, isDocumentStart: Bool) throws(OSMReaderError) {
        let target = try name(inside: "a processing instruction")
        let isDeclaration = text(target).lowercased() == "xml"
        if isDeclaration && !isDocumentStart {
            throw error("the XML declaration must come first in the file", line: line, column: column)
        }
        var body: [UInt8] = []
        var previous: UInt8 = 0
        while true {
            let byte = try require("a processing instruction opened at line \(line), column \(column)")
            if previous == 0x3F && byte == 0x3E { break }
            body.append(byte)
            previous = byte
        }
        guard isDeclaration else { return }
        let declaration = String(decoding: body.dropLast(), as: UTF8.self)
        if let encoding = Self.pseudoAttribute("encoding", in: declaration) {
            let normalized = encoding.lowercased()
            guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(normalized) else {
                throw error(
                    "the file is in \(encoding); OSM XML is read as UTF-8", line: line, column: column,
                    kind: .unsupported)
            }
        }
        if let version = Self.pseudoAttribute("version", in: declaration), !version.hasPrefix("1.") {
            throw error("XML version \(version) is not XML 1.x", line: line, column: column, kind: .unsupported)
        }
    }

    private static func pseudoAttribute(_ name: String, in declaration: String) -> String? {
        guard let range = declaration.range(of: name + "=") ?? declaration.range(of: name + " =") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// Passes over `<!--…-->` and `<![CDATA[…]]>`; refuses `<!DOCTYPE`.
    private mutating func declaration(line: Int, column: Int) throws(OSMReaderError) {
        let first = try require("a declaration")
        if first == 0x2D {
            try expect("-", inside: "a comment")
            var dashes = 0
            while true {
                let byte = try require("a comment opened at line \(line), column \(column)")
                if byte == 0x3E && dashes >= 2 { return }
                dashes = byte == 0x2D ? dashes + 1 : 0
            }
        } else if first == 0x5B {
            try expect("CDATA[", inside: "a CDATA section")
            if open.isEmpty { throw error("a CDATA section outside the root element", line: line, column: column) }
            var closing = 0
            while true {
                let byte = try require("a CDATA section opened at line \(line), column \(column)")
                if byte == 0x3E && closing >= 2 { return }
                closing = byte == 0x5D ? closing + 1 : 0
            }
        } else {
            throw error(
                "a document type declaration (<!DOCTYPE …>) is not allowed: neither OSM XML nor GPX has one",
                line: line, column: column,
                kind: .unsupported)
        }
    }
}
