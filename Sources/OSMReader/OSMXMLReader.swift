import Foundation
import GeoCore

/// Streams an OSM XML 0.6 file (as the API, Overpass, JOSM and osmium write it), plain or
/// compressed with gzip or bzip2: the header (`<bounds>`, the generator), then the nodes, ways
/// and relations in blocks of ``blockSize`` elements, the same ``OSMBlock``s ``PBFReader`` gives.
///
/// Memory stays bounded whatever the file size: the text is read in pieces and each block is
/// handed over before the next is read. Elements marked deleted (`visible="false"`, JOSM's
/// `action="delete"`) are left out; other elements and attributes (`<note>`, `<meta>`, Overpass
/// `<bounds>` inside ways, `<center>`) are passed over. Bad XML, a missing or malformed `id`,
/// `lat`, `lon`, `ref` or `type`, and a file cut short throw ``OSMReaderError`` with the line
/// and column.
public struct OSMXMLReader {
    /// The file's path as given.
    public let path: String
    /// The file's size in bytes (compressed, when it is).
    public var fileSize: Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
    /// What the file's root and `<bounds>` say (`requiredFeatures` is `["OsmSchema-V0.6"]`).
    public let header: OSMHeader
    /// Elements per delivered block.
    public var blockSize = 8192

    /// Opens `path` and reads up to its first element for the header.
    ///
    /// - Throws: ``OSMReaderError`` when the file cannot be read, is not OSM XML 0.6 or is bad
    ///   XML before its first element.
    public init(path: String) throws(OSMReaderError) {
        self.path = path
        var parser = try OSMXMLParser(stream: try ByteStream(path: path), blockSize: 1)
        try parser.readHeader()
        header = parser.header
    }

    /// Calls `body` with every block of elements, in file order.
    ///
    /// - Throws: the first ``OSMReaderError`` met (blocks before it have been delivered), or
    ///   what `body` throws.
    public func forEachBlock(_ body: (OSMBlock) throws -> Void) throws {
        var parser = try OSMXMLParser(stream: try ByteStream(path: path), blockSize: max(1, blockSize))
        try parser.readElements(body)
    }
}

/// One edit of an OSM change file: an element created, modified (its new version whole) or
/// deleted.
public struct OSMChange: Sendable {
    /// What the change does.
    public enum Action: String, Sendable, CaseIterable {
        case create
        case modify
        case delete

        /// The section of an `<osmChange>` document that holds such changes.
        var element: StaticString {
            switch self {
            case .create: "create"
            case .modify: "modify"
            case .delete: "delete"
            }
        }
    }

    /// One element of any type.
    public enum Element: Sendable {
        case node(OSMNode)
        case way(OSMWay)
        case relation(OSMRelation)

        /// The element's type.
        public var type: OSMElementType {
            switch self {
            case .node: .node
            case .way: .way
            case .relation: .relation
            }
        }

        /// The element's id.
        public var id: Int64 {
            switch self {
            case .node(let node): node.id
            case .way(let way): way.id
            case .relation(let relation): relation.id
            }
        }

        /// The element's version, nil when the file gives none.
        public var version: Int32? {
            switch self {
            case .node(let node): node.metadata?.version
            case .way(let way): way.metadata?.version
            case .relation(let relation): relation.metadata?.version
            }
        }
    }

    /// Create, modify or delete.
    public var action: Action
    /// The element as the change leaves it (a deletion's may have no tags, nodes or location).
    public var element: Element

    /// A change doing `action` to `element`.
    public init(action: Action, element: Element) {
        self.action = action
        self.element = element
    }
}

/// An OSM change file (`.osc`, OsmChange XML 0.6, as the OSM API's replication, osmium and
/// osmosis write it), plain or compressed with gzip or bzip2.
public enum OSMChangeFile {
    /// Every change of the file at `path`, in file order.
    ///
    /// - Throws: ``OSMReaderError`` when the file cannot be read, its root is not
    ///   `<osmChange>`, or its XML or an element is bad (with the line and column).
    public static func read(_ path: String) throws(OSMReaderError) -> [OSMChange] {
        var parser = try OSMXMLParser(stream: try ByteStream(path: path), blockSize: 1)
        try parser.readChanges()
        return parser.changes
    }
}

/// The OSM layer over ``XMLScanner``: which elements and attributes mean what.
struct OSMXMLParser {
    private var scanner: XMLScanner
    private let stream: ByteStream
    private let blockSize: Int
    private(set) var header = OSMHeader(
        bounds: nil, requiredFeatures: ["OsmSchema-V0.6"], optionalFeatures: [], writingProgram: nil, source: nil)
    private var block = OSMBlock(index: 1)
    /// The element being read (its children are tags, node references or members).
    private var current: Element?
    /// Depth of ``current`` (the root is depth 1, elements 2).
    private var currentDepth = 0
    private var skipCurrent = false
    /// Reading an `<osmChange>` document: the action of the section being read.
    private var action: OSMChange.Action?
    /// The changes read so far, in file order (``readChanges()``).
    private(set) var changes: [OSMChange] = []

    private enum Element {
        case node(OSMNode)
        case way(OSMWay)
        case relation(OSMRelation)
    }

    init(stream: ByteStream, blockSize: Int) throws(OSMReaderError) {
        self.stream = stream
        self.scanner = XMLScanner(stream: stream)
        self.blockSize = blockSize
    }

    /// Reads a whole `<osmChange>` document into ``changes``: the elements of its `<create>`,
    /// `<modify>` and `<delete>` sections in file order.
    mutating func readChanges() throws(OSMReaderError) {
        try readRoot(change: true)
        while true {
            let markup = try scanner.next()
            switch markup.kind {
            case .endOfFile:
                return
            case .start:
                let depth = scanner.depth - (markup.isEmpty ? 0 : 1)
                if depth == 1 {
                    action = OSMChange.Action.allCases.first { scanner.matches(markup.name, $0.element) }
                    guard action != nil else {
                        throw located(
                            "a <\(scanner.text(markup.name))> in <osmChange>; its sections are <create>, <modify> and <delete>",
                            markup)
                    }
                } else if depth == 2 && isElement(markup) {
                    try begin(markup, needsLocation: action != .delete)
                    if markup.isEmpty { finishChange() }
                } else if current != nil && isElement(markup) {
                    throw located(
                        "a <\(scanner.text(markup.name))> inside another element; elements sit directly in their section",
                        markup)
                } else if current != nil && depth == currentDepth {
                    try child(markup)
                }
            case .end:
                if current != nil && scanner.depth == currentDepth - 1 { finishChange() }
            }
        }
    }

    private mutating func finishChange() {
        defer { current = nil }
        guard let element = current, let action else { return }
        switch element {
        case .node(let node): changes.append(OSMChange(action: action, element: .node(node)))
        case .way(let way): changes.append(OSMChange(action: action, element: .way(way)))
        case .relation(let relation): changes.append(OSMChange(action: action, element: .relation(relation)))
        }
    }

    /// Reads the root and what precedes the first element.
    mutating func readHeader() throws(OSMReaderError) {
        try readRoot()
        while true {
            let markup = try scanner.next()
            switch markup.kind {
            case .endOfFile: return
            case .end: continue
            case .start:
                if scanner.depth - (markup.isEmpty ? 0 : 1) == 1 && isElement(markup) { return }
                try readHeaderChild(markup)
            }
        }
    }

    /// Reads every element, handing over a block each ``blockSize`` elements.
    mutating func readElements(_ body: (OSMBlock) throws -> Void) throws {
        try readRoot()
        while true {
            let markup = try scanner.next()
            switch markup.kind {
            case .endOfFile:
                if !isBlockEmpty { try deliver(body) }
                return
            case .start:
                let depth = scanner.depth - (markup.isEmpty ? 0 : 1)
                if depth == 1 {
                    if isElement(markup) {
                        try begin(markup)
                        if markup.isEmpty { try finish(body) }
                    } else {
                        try readHeaderChild(markup)
                    }
                } else if current != nil && isElement(markup) {
                    throw located(
                        "a <\(scanner.text(markup.name))> inside another element; elements sit directly in <osm>",
                        markup)
                } else if current != nil && depth == currentDepth {
                    try child(markup)
                }
            case .end:
                if current != nil && scanner.depth == currentDepth - 1 { try finish(body) }
            }
        }
    }

    private var isBlockEmpty: Bool { block.nodes.isEmpty && block.ways.isEmpty && block.relations.isEmpty }

    private mutating func deliver(_ body: (OSMBlock) throws -> Void) throws {
        block.byteOffset = stream.fileOffset
        try body(block)
        block = OSMBlock(index: block.index + 1)
    }

    private func located(_ message: String, _ markup: XMLMarkup, kind: OSMReaderError.Kind = .malformed)
        -> OSMReaderError
    {
        OSMReaderError(kind: kind, message: message, offset: markup.offset, line: markup.line, column: markup.column)
    }

    private func located(_ message: String, _ attribute: XMLAttribute) -> OSMReaderError {
        OSMReaderError(
            kind: .malformed, message: message, offset: scanner.offset, line: attribute.line, column: attribute.column)
    }

    private func isElement(_ markup: XMLMarkup) -> Bool {
        scanner.matches(markup.name, "node") || scanner.matches(markup.name, "way")
            || scanner.matches(markup.name, "relation")
    }

    // MARK: The root and the header

    private mutating func readRoot(change: Bool = false) throws(OSMReaderError) {
        let root = try scanner.next()
        guard root.kind == .start else {
            throw OSMReaderError(kind: .truncated, message: "the file has no root element", offset: 0)
        }
        if change {
            guard scanner.matches(root.name, "osmChange") else {
                throw located(
                    "the root element is <\(scanner.text(root.name))>, not <osmChange>: this is not an OSM change file",
                    root)
            }
        } else if scanner.matches(root.name, "osmChange") {
            throw located(
                "this is an osmChange file (edits to apply): apply it to an imported region with 'openmaps update'",
                root, kind: .unsupported)
        } else if !scanner.matches(root.name, "osm") {
            throw located("the root element is <\(scanner.text(root.name))>, not <osm>: this is not OSM XML", root)
        }
        if let version = attribute("version", of: root), scanner.text(version.value) != "0.6" {
            throw located(
                "OSM XML version \(scanner.text(version.value)) is not supported (only 0.6)", root, kind: .unsupported)
        }
        if let generator = attribute("generator", of: root) { header.writingProgram = scanner.text(generator.value) }
    }

    /// `<bounds minlat=… minlon=… maxlat=… maxlon=…/>`, or osmosis's `<bound box="S,W,N,E"/>`;
    /// anything else in the root besides elements is passed over.
    private mutating func readHeaderChild(_ markup: XMLMarkup) throws(OSMReaderError) {
        if scanner.matches(markup.name, "bounds") {
            let south = try degrees("minlat", of: markup, limit: 90)
            let west = try degrees("minlon", of: markup, limit: 180)
            let north = try degrees("maxlat", of: markup, limit: 90)
            let east = try degrees("maxlon", of: markup, limit: 180)
            header.bounds = CoordinateBounds(
                southWest: Coordinate(latitude: Double(south) / 1e9, longitude: Double(west) / 1e9),
                northEast: Coordinate(latitude: Double(north) / 1e9, longitude: Double(east) / 1e9))
        } else if scanner.matches(markup.name, "bound"), let box = attribute("box", of: markup) {
            let parts = scanner.text(box.value).split(separator: ",").map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard parts.count == 4, let south = parts[0], let west = parts[1], let north = parts[2], let east = parts[3]
            else { throw located("<bound box> must be four numbers: south,west,north,east", box) }
            header.bounds = CoordinateBounds(
                southWest: Coordinate(latitude: south, longitude: west),
                northEast: Coordinate(latitude: north, longitude: east))
        }
    }

    // MARK: Elements

    /// Starts an element; `needsLocation` false lets a node go without `lat` and `lon` (a
    /// deletion in a change file), read when it has them.
    private mutating func begin(_ markup: XMLMarkup, needsLocation: Bool = true) throws(OSMReaderError) {
        let id = try integer("id", of: markup)
        let visible = attribute("visible", of: markup).map { scanner.text($0.value) } ?? "true"
        let editAction = attribute("action", of: markup).map { scanner.text($0.value) }
        skipCurrent = action == nil && (visible == "false" || editAction == "delete")
        currentDepth = scanner.depth + (markup.isEmpty ? 1 : 0)
        let metadata = try version(of: markup).map {
            OSMMetadata(version: $0, timestamp: 0, changeset: 0, userID: 0, user: "")
        }
        if scanner.matches(markup.name, "node") {
            var node = OSMNode(id: id, latitudeNano: 0, longitudeNano: 0, tags: [], metadata: metadata)
            let located = needsLocation || attribute("lat", of: markup) != nil
            if !skipCurrent && located {
                node.latitudeNano = try degrees("lat", of: markup, limit: 90)
                node.longitudeNano = try degrees("lon", of: markup, limit: 180)
            }
            current = .node(node)
        } else if scanner.matches(markup.name, "way") {
            current = .way(OSMWay(id: id, nodeIDs: [], tags: [], metadata: metadata))
        } else {
            current = .relation(OSMRelation(id: id, members: [], tags: [], metadata: metadata))
        }
    }

    /// The element's `version`, nil when it has none; one that is not a whole number from 1 is
    /// refused.
    private func version(of markup: XMLMarkup) throws(OSMReaderError) -> Int32? {
        guard let attribute = attribute("version", of: markup) else { return nil }
        guard let version = Int32(scanner.text(attribute.value)), version >= 0 else {
            throw located(
                "'version' of <\(scanner.text(markup.name))> is '\(scanner.text(attribute.value))', not a whole number",
                attribute)
        }
        return version
    }

    private mutating func child(_ markup: XMLMarkup) throws(OSMReaderError) {
        if scanner.matches(markup.name, "tag") {
            let key = try required("k", of: markup)
            let value = try required("v", of: markup)
            let tag = (key: scanner.text(key.value), value: scanner.text(value.value))
            // Each element is taken out of `current` before it grows, so that its arrays are
            // not shared and grow in place (else every tag, node and member copied them all).
            let element = current
            current = nil
            switch element {
            case .node(var node): node.tags.append(tag); current = .node(node)
            case .way(var way): way.tags.append(tag); current = .way(way)
            case .relation(var relation): relation.tags.append(tag); current = .relation(relation)
            case nil: break
            }
        } else if scanner.matches(markup.name, "nd"), case .way(var way) = current {
            current = nil
            way.nodeIDs.append(try integer("ref", of: markup))
            current = .way(way)
        } else if scanner.matches(markup.name, "member"), case .relation(var relation) = current {
            current = nil
            let type = try required("type", of: markup)
            let elementType: OSMElementType
            if scanner.matches(type.value, "node") {
                elementType = .node
            } else if scanner.matches(type.value, "way") {
                elementType = .way
            } else if scanner.matches(type.value, "relation") {
                elementType = .relation
            } else {
                throw located("a member's type is '\(scanner.text(type.value))', not node, way or relation", type)
            }
            let ref = try integer("ref", of: markup)
            let role = attribute("role", of: markup).map { scanner.text($0.value) } ?? ""
            relation.members.append(OSMRelation.Member(type: elementType, id: ref, role: role))
            current = .relation(relation)
        }
    }

    private mutating func finish(_ body: (OSMBlock) throws -> Void) throws {
        defer { current = nil }
        guard !skipCurrent, let element = current else { return }
        switch element {
        case .node(let node): block.nodes.append(node)
        case .way(let way): block.ways.append(way)
        case .relation(let relation): block.relations.append(relation)
        }
        if block.nodes.count + block.ways.count + block.relations.count >= blockSize { try deliver(body) }
    }

    // MARK: Attributes

    private func attribute(_ name: StaticString, of markup: XMLMarkup) -> XMLAttribute? {
        scanner.attributes.first { scanner.matches($0.name, name) }
    }

    private func required(_ name: StaticString, of markup: XMLMarkup) throws(OSMReaderError) -> XMLAttribute {
        guard let attribute = attribute(name, of: markup) else {
            throw located("<\(scanner.text(markup.name))> has no '\(name)' attribute", markup)
        }
        return attribute
    }

    /// An integer attribute (ids and references; negative ids are JOSM's new elements).
    private func integer(_ name: StaticString, of markup: XMLMarkup) throws(OSMReaderError) -> Int64 {
        let attribute = try required(name, of: markup)
        guard let value = Int64(scanner.text(attribute.value)) else {
            throw located(
                "'\(name)' of <\(scanner.text(markup.name))> is '\(scanner.text(attribute.value))', not an integer",
                attribute)
        }
        return value
    }

    /// A latitude or longitude attribute in nanodegrees, exact for up to nine decimals.
    private func degrees(_ name: StaticString, of markup: XMLMarkup, limit: Int64) throws(OSMReaderError) -> Int64 {
        let attribute = try required(name, of: markup)
        let written = scanner.text(attribute.value)
        guard let nano = Self.nanodegrees(written), abs(nano) <= limit * 1_000_000_000 else {
            throw located(
                "'\(name)' of <\(scanner.text(markup.name))> is '\(written)', not a number of degrees within ±\(limit)",
                attribute)
        }
        return nano
    }

    /// `-73.9810586` → -73_981_058_600 (nanodegrees); digits after the ninth decimal are rounded;
    /// an exponent (`1.0E-5`, as some writers put near zero) is read through `Double`.
    static func nanodegrees(_ text: String) -> Int64? {
        var bytes = Substring(text).utf8[...]
        guard !bytes.isEmpty else { return nil }
        if bytes.contains(where: { $0 == 0x65 || $0 == 0x45 }) {
            guard let value = Double(text), value.isFinite, abs(value) <= 1000 else { return nil }
            return Int64((value * 1e9).rounded())
        }
        var negative = false
        if bytes.first == 0x2D || bytes.first == 0x2B {
            negative = bytes.first == 0x2D
            bytes = bytes.dropFirst()
        }
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var digits = 0
        var seenPoint = false
        var roundUp = false
        for byte in bytes {
            if byte == 0x2E && !seenPoint {
                seenPoint = true
                continue
            }
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let digit = Int64(byte - 0x30)
            digits += 1
            if !seenPoint {
                guard whole < 1000 else { return nil }
                whole = whole * 10 + digit
            } else if fractionDigits < 9 {
                fraction = fraction * 10 + digit
                fractionDigits += 1
            } else if fractionDigits == 9 {
                roundUp = digit >= 5
                fractionDigits += 1
            }
        }
        guard digits > 0 else { return nil }
        for _ in min(fractionDigits, 9)..<9 { fraction *= 10 }
        let magnitude = whole * 1_000_000_000 + fraction + (roundUp ? 1 : 0)
        return negative ? -magnitude : magnitude
    }
}
