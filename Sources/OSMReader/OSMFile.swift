import Foundation

/// An OpenStreetMap extract in any of the formats it is shared in: PBF or OSM XML 0.6, either
/// plain or compressed with gzip or bzip2. The format is told by the file's content, never by
/// its name: a `.osm` file holding PBF, or a `.pbf` that is really gzipped XML, read alike.
public struct OSMFile {
    /// How the elements are written.
    public enum Format: String, Sendable {
        case pbf
        case xml
    }

    /// The file's path as given.
    public let path: String
    /// How the file is compressed around its format ("none", "gzip", "bzip2").
    public let compression: String
    /// The header: bounds, required features and the program that wrote it.
    public let header: OSMHeader
    private let reader: Reader

    /// The reader of the file's format.
    private enum Reader {
        case pbf(PBFReader)
        case xml(OSMXMLReader)
    }

    /// How the file's elements are written, as its content tells.
    public var format: Format {
        switch reader {
        case .pbf: .pbf
        case .xml: .xml
        }
    }

    /// The file's size in bytes (compressed, when it is).
    public var fileSize: Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }

    /// Opens `path`, tells its format and reads its header.
    ///
    /// - Throws: ``OSMReaderError`` when the file cannot be read, is neither PBF nor OSM XML
    ///   (its first bytes are named), or its header is bad.
    public init(path: String) throws(OSMReaderError) {
        self.path = path
        let stream = try ByteStream(path: path)
        compression = stream.compression.rawValue
        let start = try stream.read(64)
        switch Self.format(of: start) {
        case .xml?:
            let xml = try OSMXMLReader(path: path)
            header = xml.header
            reader = .xml(xml)
        case .pbf?:
            let pbf = try PBFReader(path: path)
            header = pbf.header
            reader = .pbf(pbf)
        case nil:
            throw OSMReaderError(
                kind: .malformed, message: Self.unknownFormat(start, compression: compression), offset: 0)
        }
    }

    /// Calls `body` with every block of elements, in file order.
    ///
    /// - Parameters:
    ///   - kinds: the element types wanted; the others may be left out of the blocks (a PBF
    ///     reader then skips decoding them: a pass over a file's relations only reads its node
    ///     and way blocks' bytes, never their elements). Nil for every element.
    ///   - metadata: read each element's version, time and author where the file has them
    ///     (OSM XML gives the version alone); default false.
    public func forEachBlock(
        only kinds: Set<OSMElementType>? = nil, metadata: Bool = false, _ body: (OSMBlock) throws -> Void
    ) throws {
        switch reader {
        case .pbf(var pbf):
            pbf.readMetadata = metadata
            try pbf.forEachBlock(only: kinds, body)
        case .xml(let xml): try xml.forEachBlock(body)
        }
    }

    /// Counts the elements of the whole file.
    public func summary() throws -> OSMSummary {
        var summary = OSMSummary()
        try forEachBlock { summary.add($0) }
        return summary
    }

    /// The format the first (inflated) bytes announce: `<` after an optional byte order mark
    /// and white space is XML; a 4-byte big-endian length up to 64 KiB followed by a blob
    /// header whose type is `OSMHeader` is PBF.
    static func format(of start: [UInt8]) -> Format? {
        var bytes = start[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == 0x3C { return .xml }
        guard start.count >= 15 else { return nil }
        let length = start.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let type = Array("OSMHeader".utf8)
        guard length > 0, length <= PBFReader.maxBlobHeaderSize, start[4] == 0x0A, start[5] == UInt8(type.count)
        else { return nil }
        return Array(start[6..<(6 + type.count)]) == type ? .pbf : nil
    }

    private static func unknownFormat(_ start: [UInt8], compression: String) -> String {
        let wrapped = compression == "none" ? "" : " (inside its \(compression) compression)"
        if start.isEmpty { return "the file is empty\(wrapped)" }
        if start.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return "this is a zip archive, not an OpenStreetMap extract (a GTFS feed is imported as a zip of its own)"
        }
        let shown = start.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
        return "neither OSM PBF nor OSM XML\(wrapped): the file starts with \(shown)"
    }
}
