import GeoCore

/// A tag list: key/value pairs in file order.
public typealias OSMTags = [(key: String, value: String)]

/// An OpenStreetMap node.
public struct OSMNode: Sendable {
    public var id: Int64
    /// Latitude in 1e-9 degrees (nanodegrees), exact as stored.
    public var latitudeNano: Int64
    /// Longitude in nanodegrees.
    public var longitudeNano: Int64
    public var tags: OSMTags
    public var metadata: OSMMetadata?

    /// The position in degrees.
    public var coordinate: Coordinate {
        Coordinate(latitude: Double(latitudeNano) / 1e9, longitude: Double(longitudeNano) / 1e9)
    }
}

/// An OpenStreetMap way: an ordered list of node ids.
public struct OSMWay: Sendable {
    public var id: Int64
    public var nodeIDs: [Int64]
    public var tags: OSMTags
    public var metadata: OSMMetadata?
}

/// An OpenStreetMap relation.
public struct OSMRelation: Sendable {
    /// One member with its role.
    public struct Member: Sendable, Equatable {
        public var type: OSMElementType
        public var id: Int64
        public var role: String
    }

    public var id: Int64
    public var members: [Member]
    public var tags: OSMTags
    public var metadata: OSMMetadata?
}

/// Edit metadata, read only when asked for.
public struct OSMMetadata: Sendable, Equatable {
    public var version: Int32
    /// Seconds since 1970.
    public var timestamp: Int64
    public var changeset: Int64
    public var userID: Int32
    public var user: String
}

/// The decoded elements of one data block, in file order.
public struct OSMBlock: Sendable {
    /// The block's index in the file (0 is the header).
    public var index: Int
    /// Where the block's blob starts in the file, bytes (for progress).
    public var byteOffset = 0
    public var nodes: [OSMNode] = []
    public var ways: [OSMWay] = []
    public var relations: [OSMRelation] = []
}

/// Element counts of a file, read in one pass.
public struct OSMSummary: Sendable, Equatable {
    public var blocks = 0
    public var nodes = 0
    public var ways = 0
    public var relations = 0

    public init(blocks: Int = 0, nodes: Int = 0, ways: Int = 0, relations: Int = 0) {
        self.blocks = blocks
        self.nodes = nodes
        self.ways = ways
        self.relations = relations
    }

    /// Counts one more block.
    public mutating func add(_ block: OSMBlock) {
        blocks += 1
        nodes += block.nodes.count
        ways += block.ways.count
        relations += block.relations.count
    }
}

/// What a file's header says.
public struct OSMHeader: Sendable, Equatable {
    /// The bounding box, when the file has one.
    public var bounds: CoordinateBounds?
    /// Features a reader must support ("OsmSchema-V0.6", "DenseNodes", …).
    public var requiredFeatures: [String]
    public var optionalFeatures: [String]
    public var writingProgram: String?
    public var source: String?
}

/// Why a file could not be read.
public struct OSMReaderError: Error, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The file could not be opened or read.
        case io
        /// The bytes do not follow the format.
        case malformed
        /// The file ends in the middle of a block.
        case truncated
        /// The file uses a feature this reader does not implement.
        case unsupported
    }

    public var kind: Kind
    public var message: String
    /// Byte offset in the file where the problem was found (in the inflated data, for a
    /// compressed file).
    public var offset: Int
    /// Index of the block (0 is the header block), when known.
    public var block: Int?
    /// Line (from 1) of a text file (OSM XML) where the problem was found.
    public var line: Int?
    /// Column (characters from 1) on that line.
    public var column: Int?

    public init(kind: Kind, message: String, offset: Int, block: Int? = nil, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
        self.block = block
        self.line = line
        self.column = column
    }

    public var description: String {
        if let line, let column { return "\(kind.rawValue) at line \(line), column \(column): \(message)" }
        return "\(kind.rawValue) at byte \(offset)\(block.map { " (block \($0))" } ?? ""): \(message)"
    }
}
