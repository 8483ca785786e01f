import Foundation
import GeoCore
import ZlibKit

// The protobuf encoding is GeoCore's ProtobufWriter.

/// A node to write, in the units the tests assert.
public struct TestNode: Sendable {
    /// The OSM id.
    public var id: Int64
    /// Degrees × 1e7 (granularity 100 nanodegrees).
    public var latitude: Int64
    /// Degrees × 1e7.
    public var longitude: Int64
    /// Key/value pairs, in the order written.
    public var tags: [(String, String)] = []
    /// The version written in the element's metadata; none written when no element of the
    /// block has one (0 for those without, in a block where others have one).
    public var version: Int32?

    /// A node at `latitude`, `longitude` (degrees × 1e7) with `tags`.
    public init(id: Int64, latitude: Int64, longitude: Int64, tags: [(String, String)] = [], version: Int32? = nil) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.tags = tags
        self.version = version
    }
}

/// A way to write.
public struct TestWay: Sendable {
    /// The OSM id.
    public var id: Int64
    /// Its nodes' ids, in order.
    public var refs: [Int64]
    /// Key/value pairs, in the order written.
    public var tags: [(String, String)] = []
    /// The version written in the way's metadata, if any.
    public var version: Int32?

    /// A way through the nodes `refs` with `tags`.
    public init(id: Int64, refs: [Int64], tags: [(String, String)] = [], version: Int32? = nil) {
        self.id = id
        self.refs = refs
        self.tags = tags
        self.version = version
    }
}

/// A relation to write.
public struct TestRelation: Sendable {
    /// The OSM id.
    public var id: Int64
    /// Its members in order: PBF's member type (0 node, 1 way, 2 relation), id and role.
    public var members: [(type: UInt64, id: Int64, role: String)]
    /// Key/value pairs, in the order written.
    public var tags: [(String, String)] = []

    /// The version written in the relation's metadata, if any.
    public var version: Int32?

    /// A relation of `members` with `tags`.
    public init(
        id: Int64, members: [(type: UInt64, id: Int64, role: String)], tags: [(String, String)] = [],
        version: Int32? = nil
    ) {
        self.id = id
        self.version = version
        self.members = members
        self.tags = tags
    }
}

/// OSM PBF files of given elements: header and data blocks, raw or zlib-compressed.
public enum PBFWriter {
    /// A whole file: the header block, then one data block per element group.
    public static func file(
        dense: [TestNode] = [], plain: [TestNode] = [], ways: [TestWay] = [], relations: [TestRelation] = [],
        required: [String] = ["OsmSchema-V0.6", "DenseNodes"], compress: Bool = true,
        bounds: (west: Double, south: Double, east: Double, north: Double) = (24.93, 60.16, 24.96, 60.18)
    ) -> [UInt8] {
        var output: [UInt8] = []
        let header = headerBlock(required: required, bounds: bounds)
        output += blob(type: "OSMHeader", payload: header, compress: compress)
        if !dense.isEmpty || !plain.isEmpty || !ways.isEmpty || !relations.isEmpty {
            output += blob(
                type: "OSMData", payload: primitiveBlock(dense: dense, plain: plain, ways: ways, relations: relations),
                compress: compress)
        }
        return output
    }

    /// The header: the bounding box (degrees, stored in nanodegrees; none for nil), the
    /// required features, the writing program and (osmosis's fields) where the data stands in
    /// a replication feed.
    public static func headerBlock(
        required: [String],
        bounds: (west: Double, south: Double, east: Double, north: Double)? = (24.93, 60.16, 24.96, 60.18),
        replication: (url: String, sequence: Int64, timestamp: Int64)? = nil
    ) -> [UInt8] {
        var writer = ProtobufWriter()
        if let bounds {
            writer.message(1) { box in
                box.sint(1, Int64((bounds.west * 1e9).rounded()))
                box.sint(2, Int64((bounds.east * 1e9).rounded()))
                box.sint(3, Int64((bounds.north * 1e9).rounded()))
                box.sint(4, Int64((bounds.south * 1e9).rounded()))
            }
        }
        for feature in required { writer.string(4, feature) }
        writer.string(16, "openmaps-tests")
        if let replication {
            writer.int(32, replication.timestamp)
            writer.int(33, replication.sequence)
            writer.string(34, replication.url)
        }
        return writer.bytes
    }

    /// One `PrimitiveBlock` holding `dense` as a `DenseNodes` group, `plain` as plain nodes,
    /// and the ways and relations, with their string table.
    public static func primitiveBlock(dense: [TestNode], plain: [TestNode], ways: [TestWay], relations: [TestRelation])
        -> [UInt8]
    {
        var strings = [""]
        func index(_ text: String) -> UInt64 {
            if let found = strings.firstIndex(of: text) { return UInt64(found) }
            strings.append(text)
            return UInt64(strings.count - 1)
        }
        var group = ProtobufWriter()
        if !dense.isEmpty {
            group.message(2) { message in
                message.packedDeltas(1, dense.map(\.id))
                message.packedDeltas(8, dense.map(\.latitude))
                message.packedDeltas(9, dense.map(\.longitude))
                var keysValues: [UInt64] = []
                for node in dense {
                    for (key, value) in node.tags { keysValues += [index(key), index(value)] }
                    keysValues.append(0)
                }
                message.packed(10, keysValues)
                if dense.contains(where: { $0.version != nil }) {
                    // DenseInfo: versions as they are, the other fields (deltas) all zero.
                    let zeros = [Int64](repeating: 0, count: dense.count)
                    message.message(5) { info in
                        info.packed(1, dense.map { UInt64($0.version ?? 0) })
                        for field in 2...5 { info.packedDeltas(field, zeros) }
                    }
                }
            }
        }
        for node in plain {
            group.message(1) { message in
                message.sint(1, node.id)
                message.packed(2, node.tags.map { index($0.0) })
                message.packed(3, node.tags.map { index($0.1) })
                message.sint(8, node.latitude)
                message.sint(9, node.longitude)
            }
        }
        for way in ways {
            group.message(3) { message in
                message.uint(1, UInt64(way.id))
                message.packed(2, way.tags.map { index($0.0) })
                message.packed(3, way.tags.map { index($0.1) })
                if let version = way.version { message.message(4) { $0.uint(1, UInt64(version)) } }
                message.packedDeltas(8, way.refs)
            }
        }
        for relation in relations {
            group.message(4) { message in
                message.uint(1, UInt64(relation.id))
                message.packed(2, relation.tags.map { index($0.0) })
                message.packed(3, relation.tags.map { index($0.1) })
                if let version = relation.version { message.message(4) { $0.uint(1, UInt64(version)) } }
                message.packed(8, relation.members.map { index($0.role) })
                message.packedDeltas(9, relation.members.map(\.id))
                message.packed(10, relation.members.map(\.type))
            }
        }
        var block = ProtobufWriter()
        block.message(1) { table in for text in strings { table.string(1, text) } }
        block.bytes(2, group.bytes)
        return block.bytes
    }

    /// A file block: its length, its `BlobHeader` of `type` (`OSMHeader`, `OSMData`) and the
    /// `Blob` of `payload`, zlib-compressed with its raw size or raw.
    public static func blob(type: String, payload: [UInt8], compress: Bool) -> [UInt8] {
        var blob = ProtobufWriter()
        if compress {
            blob.uint(2, UInt64(payload.count))
            // Deflating a byte array in memory cannot fail.
            blob.bytes(3, try! Zlib.deflate(payload))
        } else {
            blob.bytes(1, payload)
        }
        var header = ProtobufWriter()
        header.string(1, type)
        header.uint(3, UInt64(blob.bytes.count))
        let length = UInt32(header.bytes.count)
        return [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
            + header.bytes + blob.bytes
    }

    /// Writes `bytes` to a fresh temporary file and returns its path.
    public static func temporaryFile(_ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("openmaps-\(UUID().uuidString).osm.pbf").path
        precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
        return path
    }
}

/// The same elements written as OSM XML 0.6 (for comparing the two readers).
public enum OSMXMLWriter {
    /// An OSM XML 0.6 document of the elements, with `<bounds>` when `bounds` is given.
    public static func file(
        nodes: [TestNode] = [], ways: [TestWay] = [], relations: [TestRelation] = [],
        bounds: (west: Double, south: Double, east: Double, north: Double)? = (24.93, 60.16, 24.96, 60.18)
    ) -> [UInt8] {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: "\"", with: "&quot;")
        }
        func tags(_ tags: [(String, String)]) -> String {
            tags.map { "    <tag k=\"\(escaped($0.0))\" v=\"\(escaped($0.1))\"/>\n" }.joined()
        }
        func degrees(_ value: Int64) -> String {
            let sign = value < 0 ? "-" : ""
            let magnitude = value.magnitude
            let fraction = String(magnitude % 10_000_000)
            return "\(sign)\(magnitude / 10_000_000).\(String(repeating: "0", count: 7 - fraction.count))\(fraction)"
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"openmaps-tests\">\n"
        if let bounds {
            text +=
                "  <bounds minlat=\"\(bounds.south)\" minlon=\"\(bounds.west)\" maxlat=\"\(bounds.north)\" maxlon=\"\(bounds.east)\"/>\n"
        }
        for node in nodes {
            text += "  <node id=\"\(node.id)\" lat=\"\(degrees(node.latitude))\" lon=\"\(degrees(node.longitude))\">\n"
            text += tags(node.tags) + "  </node>\n"
        }
        for way in ways {
            text += "  <way id=\"\(way.id)\">\n" + way.refs.map { "    <nd ref=\"\($0)\"/>\n" }.joined()
            text += tags(way.tags) + "  </way>\n"
        }
        let types = ["node", "way", "relation"]
        for relation in relations {
            text += "  <relation id=\"\(relation.id)\">\n"
            text += relation.members.map {
                "    <member type=\"\(types[Int($0.type)])\" ref=\"\($0.id)\" role=\"\(escaped($0.role))\"/>\n"
            }.joined()
            text += tags(relation.tags) + "  </relation>\n"
        }
        return Array((text + "</osm>\n").utf8)
    }
}
