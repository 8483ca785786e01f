import Foundation
import GeoCore
import OSMReader

/// Every OpenStreetMap element of each imported region, kept as read (what osm2pgsql's
/// `--slim` keeps in its middle tables), so that a change file can be applied to the region
/// without its extract: a moved node finds the ways built from it, a changed way the
/// relations it is a member of, and each is built again from what the store holds
/// (``OSMUpdater``).
///
/// Tables: `osm_node(source, id, lat, lon, version)` (positions in nanodegrees, exact as
/// read), `osm_way(source, id, nodes, tags, version)`, `osm_relation(source, id, members,
/// tags, version)`, each keyed by `(source, id)`; `version` is null where the file gives none.
/// `nodes` are little-endian Int64 ids (``RoadNetwork/encode(nodes:)``); `tags` and `members` are ``encode(tags:)`` and
/// ``encode(members:)`` blobs (tags in file order: the classifier reads them in order).
/// `osm_region(source, header_bounds, replication, sequence, timestamp)`: whether the
/// region's bounds are its extract's header's (else the nodes' extent, kept so by updates),
/// and where its replication stands (``OSMReplication``). Written by ``OSMImporter`` with the
/// region and replaced with it.
enum OSMElementStore {
    /// The tables, created where missing (stores made before them), one statement each.
    static func tables(_ engine: StoreEngine) -> [String] {
        switch engine {
        case .sqlite:
            [
                "CREATE TABLE IF NOT EXISTS osm_node (source INTEGER NOT NULL, id INTEGER NOT NULL, lat INTEGER NOT NULL, "
                    + "lon INTEGER NOT NULL, version INTEGER, PRIMARY KEY (source, id)) WITHOUT ROWID",
                "CREATE TABLE IF NOT EXISTS osm_way (source INTEGER NOT NULL, id INTEGER NOT NULL, nodes BLOB NOT NULL, "
                    + "tags BLOB NOT NULL, version INTEGER, PRIMARY KEY (source, id)) WITHOUT ROWID",
                "CREATE TABLE IF NOT EXISTS osm_relation (source INTEGER NOT NULL, id INTEGER NOT NULL, "
                    + "members BLOB NOT NULL, tags BLOB NOT NULL, version INTEGER, PRIMARY KEY (source, id)) WITHOUT ROWID",
                "CREATE TABLE IF NOT EXISTS osm_region (source INTEGER PRIMARY KEY, header_bounds INTEGER NOT NULL, "
                    + "replication TEXT, sequence INTEGER, timestamp INTEGER)",
            ]
        case .postgis:
            [
                "CREATE TABLE IF NOT EXISTS osm_node (source bigint NOT NULL, id bigint NOT NULL, lat bigint NOT NULL, "
                    + "lon bigint NOT NULL, version integer, PRIMARY KEY (source, id))",
                "CREATE TABLE IF NOT EXISTS osm_way (source bigint NOT NULL, id bigint NOT NULL, nodes bytea NOT NULL, "
                    + "tags bytea NOT NULL, version integer, PRIMARY KEY (source, id))",
                "CREATE TABLE IF NOT EXISTS osm_relation (source bigint NOT NULL, id bigint NOT NULL, "
                    + "members bytea NOT NULL, tags bytea NOT NULL, version integer, PRIMARY KEY (source, id))",
                "CREATE TABLE IF NOT EXISTS osm_region (source bigint PRIMARY KEY, header_bounds integer NOT NULL, "
                    + "replication text, sequence bigint, timestamp bigint)",
            ]
        }
    }

    /// The statements that remove a source's elements.
    static let deletions = [
        "DELETE FROM osm_node WHERE source = ?", "DELETE FROM osm_way WHERE source = ?",
        "DELETE FROM osm_relation WHERE source = ?", "DELETE FROM osm_region WHERE source = ?",
    ]

    /// The table of elements of `type`.
    static func table(_ type: OSMElementType) -> String {
        switch type {
        case .node: "osm_node"
        case .way: "osm_way"
        case .relation: "osm_relation"
        }
    }

    /// The store's OpenStreetMap regions (sources of kind `osm`), by id.
    static func regions(in database: StoreConnection) throws -> [(id: Int64, name: String)] {
        try database.map("SELECT id, name FROM source WHERE kind = ? ORDER BY id", [.text(SourceKind.osm.rawValue)]) {
            (id: $0.integer(0) ?? 0, name: $0.text(1) ?? "")
        }
    }

    /// The region called `name` among `regions`.
    ///
    /// - Throws: ``DataError`` (`.missingData`) naming the regions there are.
    static func region(named name: String, among regions: [(id: Int64, name: String)], path: String) throws(DataError)
        -> (id: Int64, name: String)
    {
        guard let named = regions.first(where: { $0.name == name }) else {
            let names = regions.map { "'\($0.name)'" }.joined(separator: ", ")
            throw DataError(
                .missingData,
                message: "the store has no region '\(name)'\(regions.isEmpty ? "" : "; its regions are \(names)")",
                path: path)
        }
        return named
    }

    /// True when `source` has elements kept (regions imported before they were kept have none).
    static func holdsElements(source: Int64, in database: StoreConnection) throws -> Bool {
        for table in tables(database.engine) { try database.execute(table) }
        return try !database.map("SELECT 1 FROM osm_region WHERE source = ?", [.integer(source)]) { _ in 1 }.isEmpty
    }

    /// Records a region just imported: whether its bounds are its header's, and where its
    /// data stands in its replication feed where the header says.
    static func addRegion(source: Int64, header: OSMHeader, in database: StoreConnection) throws {
        try database.run(
            "INSERT INTO osm_region (source, header_bounds, replication, sequence, timestamp) VALUES (?, ?, ?, ?, ?)",
            [
                .integer(source), .integer(header.bounds != nil ? 1 : 0),
                header.replicationURL.map { .text($0) } ?? .null,
                header.replicationSequence.map { .integer($0) } ?? .null,
                header.replicationTimestamp.map { .integer($0) } ?? .null,
            ])
    }

    /// True when the region's bounds are its extract header's (else its nodes' extent).
    static func hasHeaderBounds(source: Int64, in database: StoreConnection) throws -> Bool {
        try database.map("SELECT header_bounds FROM osm_region WHERE source = ?", [.integer(source)]) {
            $0.integer(0) == 1
        }.first ?? true
    }

    /// Sets the region's bounds to its nodes' extent.
    static func fitBoundsToNodes(source: Int64, in database: StoreConnection) throws {
        func degrees(_ aggregate: String) -> String {
            "(SELECT CAST(\(aggregate) AS DOUBLE PRECISION) / CAST(1e9 AS DOUBLE PRECISION) FROM osm_node WHERE source = ?)"
        }
        try database.run(
            // Divided in double precision on both engines, as the importer divides.
            "UPDATE source SET min_lat = \(degrees("min(lat)")), min_lon = \(degrees("min(lon)")), "
                + "max_lat = \(degrees("max(lat)")), max_lon = \(degrees("max(lon)")) WHERE id = ? "
                + "AND EXISTS (SELECT 1 FROM osm_node WHERE source = ?)",
            Array(repeating: .integer(source), count: 6))
    }

    /// Writes a region's elements as they are read.
    struct Writer {
        let insertNode: RowInserter
        let insertWay: RowInserter
        let insertRelation: RowInserter
        let source: Int64

        init(database: StoreConnection, source: Int64) throws {
            insertNode = try database.inserter(table: "osm_node", columns: ["source", "id", "lat", "lon", "version"])
            insertWay = try database.inserter(table: "osm_way", columns: ["source", "id", "nodes", "tags", "version"])
            insertRelation = try database.inserter(
                table: "osm_relation", columns: ["source", "id", "members", "tags", "version"])
            self.source = source
        }

        func write(_ node: OSMNode) throws {
            try insertNode.insert([
                .integer(source), .integer(node.id), .integer(node.latitudeNano), .integer(node.longitudeNano),
                OSMElementStore.version(node.metadata),
            ])
        }

        func write(_ way: OSMWay) throws {
            try insertWay.insert([
                .integer(source), .integer(way.id), .blob(RoadNetwork.encode(nodes: way.nodeIDs)),
                .blob(OSMElementStore.encode(tags: way.tags)), OSMElementStore.version(way.metadata),
            ])
        }

        func write(_ relation: OSMRelation) throws {
            try insertRelation.insert([
                .integer(source), .integer(relation.id), .blob(OSMElementStore.encode(members: relation.members)),
                .blob(OSMElementStore.encode(tags: relation.tags)), OSMElementStore.version(relation.metadata),
            ])
        }

        func write(_ element: OSMChange.Element) throws {
            switch element {
            case .node(let node): try write(node)
            case .way(let way): try write(way)
            case .relation(let relation): try write(relation)
            }
        }
    }

    private static func version(_ metadata: OSMMetadata?) -> StoreValue {
        metadata.map { .integer(Int64($0.version)) } ?? .null
    }

    private static func metadata(_ version: Int64?) -> OSMMetadata? {
        version.map {
            OSMMetadata(version: Int32(truncatingIfNeeded: $0), timestamp: 0, changeset: 0, userID: 0, user: "")
        }
    }

    // MARK: Reading

    /// Calls `body` with `ids` in order, 500 at a time (well under either engine's limit of
    /// parameters): the list's `?` marks (`?,?,?`) and their values.
    static func inBatches(_ ids: some Collection<Int64>, _ body: (String, [StoreValue]) throws -> Void) rethrows {
        let sorted = ids.sorted()
        for start in stride(from: 0, to: sorted.count, by: 500) {
            let chunk = sorted[start..<min(start + 500, sorted.count)]
            try body(Array(repeating: "?", count: chunk.count).joined(separator: ","), chunk.map { .integer($0) })
        }
    }

    /// Calls `body` with each row of `select … WHERE source = ? AND id IN (ids)`.
    private static func forEachRow(
        _ select: String, ids: some Collection<Int64>, source: Int64, in database: StoreConnection,
        _ body: (StoreRow) throws -> Void
    ) throws {
        try inBatches(ids) { marks, values in
            try database.forEachRow(
                "\(select) WHERE source = ? AND id IN (\(marks))", [.integer(source)] + values, body)
        }
    }

    /// The kept nodes of `ids` (those the region holds).
    static func nodes(_ ids: some Collection<Int64>, source: Int64, in database: StoreConnection) throws -> [Int64:
        OSMNode]
    {
        var nodes: [Int64: OSMNode] = [:]
        try forEachRow("SELECT id, lat, lon, version FROM osm_node", ids: ids, source: source, in: database) { row in
            guard let id = row.integer(0) else { return }
            nodes[id] = OSMNode(
                id: id, latitudeNano: row.integer(1) ?? 0, longitudeNano: row.integer(2) ?? 0, tags: [],
                metadata: metadata(row.integer(3)))
        }
        return nodes
    }

    /// The kept ways of `ids`.
    static func ways(_ ids: some Collection<Int64>, source: Int64, in database: StoreConnection) throws -> [Int64:
        OSMWay]
    {
        var ways: [Int64: OSMWay] = [:]
        try forEachRow("SELECT id, nodes, tags, version FROM osm_way", ids: ids, source: source, in: database) { row in
            guard let id = row.integer(0) else { return }
            ways[id] = OSMWay(
                id: id, nodeIDs: row.withBlob(1, RoadNetwork.decodeNodes) ?? [],
                tags: row.withBlob(2, decodeTags).flatMap { $0 } ?? [], metadata: metadata(row.integer(3)))
        }
        return ways
    }

    /// The kept relations of `ids`.
    static func relations(_ ids: some Collection<Int64>, source: Int64, in database: StoreConnection) throws -> [Int64:
        OSMRelation]
    {
        var relations: [Int64: OSMRelation] = [:]
        try forEachRow("SELECT id, members, tags, version FROM osm_relation", ids: ids, source: source, in: database) {
            row in
            guard let id = row.integer(0) else { return }
            relations[id] = OSMRelation(
                id: id, members: row.withBlob(1, decodeMembers).flatMap { $0 } ?? [],
                tags: row.withBlob(2, decodeTags).flatMap { $0 } ?? [],
                metadata: metadata(row.integer(3)))
        }
        return relations
    }

    /// The kept versions of `ids` of `type`: nil for an element kept without one; absent for
    /// one the region does not hold.
    static func versions(
        _ type: OSMElementType, _ ids: some Collection<Int64>, source: Int64, in database: StoreConnection
    ) throws -> [Int64: Int32?] {
        var versions: [Int64: Int32?] = [:]
        try forEachRow("SELECT id, version FROM \(table(type))", ids: ids, source: source, in: database) { row in
            guard let id = row.integer(0) else { return }
            // `.some`: a version-less element is held all the same (a nil assigned would remove it).
            versions[id] = .some(row.integer(1).map { Int32(truncatingIfNeeded: $0) })
        }
        return versions
    }

    /// The ways of `source` that use any of `nodes` (a scan of the region's ways: a change
    /// file's moved nodes are few, the ways many; no index of every way's every node is kept).
    static func ways(using nodes: Set<Int64>, source: Int64, in database: StoreConnection) throws -> Set<Int64> {
        guard !nodes.isEmpty else { return [] }
        var ways: Set<Int64> = []
        try database.forEachRow("SELECT id, nodes FROM osm_way WHERE source = ?", [.integer(source)]) { row in
            guard let id = row.integer(0) else { return }
            let uses =
                row.withBlob(1) { bytes in
                    stride(from: 0, to: bytes.count - 7, by: 8).contains {
                        nodes.contains(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: $0, as: Int64.self)))
                    }
                } ?? false
            if uses { ways.insert(id) }
        }
        return ways
    }

    /// The relations of `source` with a member among `ways` or `nodes`.
    static func relations(
        withMemberWays ways: Set<Int64>, nodes: Set<Int64>, source: Int64, in database: StoreConnection
    ) throws -> Set<Int64> {
        guard !ways.isEmpty || !nodes.isEmpty else { return [] }
        var relations: Set<Int64> = []
        try database.forEachRow("SELECT id, members FROM osm_relation WHERE source = ?", [.integer(source)]) { row in
            guard let id = row.integer(0), let members = row.withBlob(1, decodeMembers).flatMap({ $0 }) else { return }
            let uses = members.contains {
                ($0.type == .way && ways.contains($0.id)) || ($0.type == .node && nodes.contains($0.id))
            }
            if uses { relations.insert(id) }
        }
        return relations
    }

    /// Removes the kept elements `ids` of `type`.
    static func delete(
        _ type: OSMElementType, _ ids: some Collection<Int64>, source: Int64, in database: StoreConnection
    )
        throws
    {
        try inBatches(ids) { marks, values in
            try database.run(
                "DELETE FROM \(table(type)) WHERE source = ? AND id IN (\(marks))", [.integer(source)] + values)
        }
    }

    // MARK: Encoding

    /// Tags in order, each key and value a varint length and its UTF-8 bytes.
    static func encode(tags: OSMTags) -> [UInt8] {
        var writer = ProtobufWriter()
        for tag in tags {
            for text in [tag.key, tag.value] {
                writer.varint(UInt64(text.utf8.count))
                writer.bytes += text.utf8
            }
        }
        return writer.bytes
    }

    /// Members in order: the type (one byte: 0 node, 1 way, 2 relation), the id (zigzag
    /// varint), the role (varint length and UTF-8 bytes).
    static func encode(members: [OSMRelation.Member]) -> [UInt8] {
        var writer = ProtobufWriter()
        for member in members {
            writer.bytes.append(UInt8(member.type.rawValue))
            writer.varint(ProtobufWriter.zigzag(member.id))
            writer.varint(UInt64(member.role.utf8.count))
            writer.bytes += member.role.utf8
        }
        return writer.bytes
    }

    /// What ``encode(tags:)`` wrote; nil for bytes it did not write.
    static func decodeTags(_ bytes: UnsafeRawBufferPointer) -> OSMTags? {
        var reader = ByteReader(bytes)
        var tags: OSMTags = []
        while !reader.isAtEnd {
            guard let key = reader.text(), let value = reader.text() else { return nil }
            tags.append((key: key, value: value))
        }
        return tags
    }

    /// What ``encode(members:)`` wrote; nil for bytes it did not write.
    static func decodeMembers(_ bytes: UnsafeRawBufferPointer) -> [OSMRelation.Member]? {
        var reader = ByteReader(bytes)
        var members: [OSMRelation.Member] = []
        while !reader.isAtEnd {
            guard let code = reader.byte(), let type = OSMElementType(rawValue: Int(code)), let id = reader.varint(),
                let role = reader.text()
            else { return nil }
            members.append(OSMRelation.Member(type: type, id: ProtobufWriter.unzigzag(id), role: role))
        }
        return members
    }

    /// Reads the varints, bytes and texts of the encodings above.
    private struct ByteReader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        var isAtEnd: Bool { index >= bytes.count }

        mutating func byte() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let byte = byte() {
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
                guard shift < 64 else { return nil }
            }
            return nil
        }

        mutating func text() -> String? {
            guard let length = varint(), length <= UInt64(bytes.count - index) else { return nil }
            let start = index
            index += Int(length)
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
    }
}
