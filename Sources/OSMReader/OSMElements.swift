import GeoCore

/// A tag list: key/value pairs in file order.
public typealias OSMTags = [(key: String, value: String)]

/// An OpenStreetMap node.
public struct OSMNode: Sendable {
    /// The node's id (negative for one not yet uploaded).
    public var id: Int64
    /// Latitude in 1e-9 degrees (nanodegrees), exact as stored.
    public var latitudeNano: Int64
    /// Longitude in nanodegrees.
    public var longitudeNano: Int64
    /// The node's tags, in file order.
    public var tags: OSMTags
    /// Version, time and author, when they were asked for and the file has them.
    public var metadata: OSMMetadata?

    /// A node at `latitudeNano`, `longitudeNano` (nanodegrees) with `tags`.
    public init(id: Int64, latitudeNano: Int64, longitudeNano: Int64, tags: OSMTags, metadata: OSMMetadata? = nil) {
        self.id = id
        self.latitudeNano = latitudeNano
        self.longitudeNano = longitudeNano
        self.tags = tags
        self.metadata = metadata
    }

    /// The position in degrees.
    public var coordinate: Coordinate {
        Coordinate(latitude: Double(latitudeNano) / 1e9, longitude: Double(longitudeNano) / 1e9)
    }
}

/// An OpenStreetMap way: an ordered list of node ids.
public struct OSMWay: Sendable {
    /// The way's id.
    public var id: Int64
    /// Its nodes in order; a closed way ends with its first node.
    public var nodeIDs: [Int64]
    /// The way's tags, in file order.
    public var tags: OSMTags
    /// Version, time and author, when they were asked for and the file has them.
    public var metadata: OSMMetadata?

    /// A way through `nodeIDs` with `tags`.
    public init(id: Int64, nodeIDs: [Int64], tags: OSMTags, metadata: OSMMetadata? = nil) {
        self.id = id
        self.nodeIDs = nodeIDs
        self.tags = tags
        self.metadata = metadata
    }
}

/// An OpenStreetMap relation.
public struct OSMRelation: Sendable {
    /// One member with its role.
    public struct Member: Sendable, Equatable {
        /// Whether the member is a node, a way or a relation.
        public var type: OSMElementType
        /// The member's id.
        public var id: Int64
        /// Its role in the relation (`outer`, `inner`, `stop`, …); empty when none.
        public var role: String

        /// Member `id` of `type` in `role`.
        public init(type: OSMElementType, id: Int64, role: String) {
            self.type = type
            self.id = id
            self.role = role
        }
    }

    /// The relation's id.
    public var id: Int64
    /// Its members in order.
    public var members: [Member]
    /// The relation's tags, in file order.
    public var tags: OSMTags
    /// Version, time and author, when they were asked for and the file has them.
    public var metadata: OSMMetadata?

    /// A relation of `members` with `tags`.
    public init(id: Int64, members: [Member], tags: OSMTags, metadata: OSMMetadata? = nil) {
        self.id = id
        self.members = members
        self.tags = tags
        self.metadata = metadata
    }
}

/// Edit metadata, read only when asked for.
public struct OSMMetadata: Sendable, Equatable {
    /// The element's version, from 1.
    public var version: Int32
    /// Seconds since 1970.
    public var timestamp: Int64
    /// The changeset that made this version.
    public var changeset: Int64
    /// The author's user id.
    public var userID: Int32
    /// The author's user name.
    public var user: String

    /// Metadata of `version`, made at `timestamp` (seconds since 1970) in `changeset` by `user`.
    public init(version: Int32, timestamp: Int64 = 0, changeset: Int64 = 0, userID: Int32 = 0, user: String = "") {
        self.version = version
        self.timestamp = timestamp
        self.changeset = changeset
        self.userID = userID
        self.user = user
    }
}

/// The decoded elements of one data block, in file order.
public struct OSMBlock: Sendable {
    /// The block's index in the file (0 is the header).
    public var index: Int
    /// Where the block's blob starts in the file, bytes (for progress).
    public var byteOffset = 0
    /// The block's nodes, in file order.
    public var nodes: [OSMNode] = []
    /// The block's ways, in file order.
    public var ways: [OSMWay] = []
    /// The block's relations, in file order.
    public var relations: [OSMRelation] = []
}

/// Element counts of a file, read in one pass.
public struct OSMSummary: Sendable, Equatable {
    /// Data blocks read (the header not counted).
    public var blocks = 0
    /// Nodes read.
    public var nodes = 0
    /// Ways read.
    public var ways = 0
    /// Relations read.
    public var relations = 0

    /// Counts of these elements.
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
    /// Features the file uses that a reader may ignore ("Sort.Type_then_ID", …).
    public var optionalFeatures: [String]
    /// The program that wrote the file, when it says.
    public var writingProgram: String?
    /// Where its data came from, when it says.
    public var source: String?
    /// Where the data stands in its replication feed, when the header says (osmosis's
    /// fields, as Geofabrik's extracts carry them): the feed's URL, the sequence number of the
    /// last change file in the data, and the time of the data (seconds since 1970).
    public var replicationURL: String?
    public var replicationSequence: Int64?
    public var replicationTimestamp: Int64?
}

/// Why a file could not be read.
public struct OSMReaderError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, for programs.
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

    /// What kind of failure.
    public var kind: Kind
    /// What was wrong, one sentence.
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

    /// An error of `kind` at `offset` bytes, in `block` or at `line` and `column` when known.
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
