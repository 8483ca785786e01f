import Foundation
import OSMReader
import ZlibKit

/// A whole extract in memory: every element with its version (for tests and benchmarks of
/// updates, on extracts of a few hundred thousand elements).
public struct OSMExtract: Sendable {
    public var nodes: [OSMNode] = []
    public var ways: [OSMWay] = []
    public var relations: [OSMRelation] = []
    /// The header's box: west, south, east, north in degrees; nil when the file has none.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)?
    /// Where the data stands in a replication feed, written into the header when set.
    public var replication: (url: String, sequence: Int64, timestamp: Int64)?

    /// Every element of the file at `path`, with versions.
    public init(path: String) throws {
        let file = try OSMFile(path: path)
        if let southWest = file.header.bounds?.southWest, let northEast = file.header.bounds?.northEast {
            bounds = (southWest.longitude, southWest.latitude, northEast.longitude, northEast.latitude)
        }
        var nodes: [OSMNode] = []
        var ways: [OSMWay] = []
        var relations: [OSMRelation] = []
        try file.forEachBlock(metadata: true) { block in
            nodes += block.nodes
            ways += block.ways
            relations += block.relations
        }
        (self.nodes, self.ways, self.relations) = (nodes, ways, relations)
    }

    /// The extract as an OSM PBF file (blocks of 8,000 elements; positions at OSM's 1e-7
    /// degrees; each element's version where it has one, no other metadata).
    public func pbf() -> [UInt8] {
        var output = PBFWriter.blob(
            type: "OSMHeader",
            payload: PBFWriter.headerBlock(
                required: ["OsmSchema-V0.6", "DenseNodes"], bounds: bounds, replication: replication),
            compress: true)
        func flush(_ dense: [TestNode] = [], _ ways: [TestWay] = [], _ relations: [TestRelation] = []) {
            let block = PBFWriter.primitiveBlock(dense: dense, plain: [], ways: ways, relations: relations)
            output += PBFWriter.blob(type: "OSMData", payload: block, compress: true)
        }
        for start in stride(from: 0, to: nodes.count, by: 8000) {
            flush(
                nodes[start..<min(start + 8000, nodes.count)].map {
                    TestNode(
                        id: $0.id, latitude: $0.latitudeNano / 100, longitude: $0.longitudeNano / 100,
                        tags: $0.tags.map { ($0.key, $0.value) }, version: $0.metadata?.version)
                })
        }
        for start in stride(from: 0, to: ways.count, by: 8000) {
            flush(
                [],
                ways[start..<min(start + 8000, ways.count)].map {
                    TestWay(
                        id: $0.id, refs: $0.nodeIDs, tags: $0.tags.map { ($0.key, $0.value) },
                        version: $0.metadata?.version)
                })
        }
        for start in stride(from: 0, to: relations.count, by: 8000) {
            flush(
                [], [],
                relations[start..<min(start + 8000, relations.count)].map {
                    TestRelation(
                        id: $0.id, members: $0.members.map { (UInt64($0.type.rawValue), $0.id, $0.role) },
                        tags: $0.tags.map { ($0.key, $0.value) }, version: $0.metadata?.version)
                })
        }
        return output
    }
}

/// Edits of a real extract of the kinds mappers make (tags edited, nodes moved, ways split and
/// joined, elements deleted and created, a relation's members changed), each with its change,
/// so that a test or a benchmark can apply the changes to a store of the original and compare
/// it with a store of the edited copy.
public enum OSMEdits {
    /// `extract` edited: about `share` of its ways and nodes touched (at least one of each kind
    /// of edit), chosen by `seed`; with the changes that make the one into the other (versions
    /// one up for modifications, the deleted version for deletions, 1 for creations).
    public static func edit(_ extract: OSMExtract, share: Double, seed: UInt64) -> (
        edited: OSMExtract, changes: [OSMChange]
    ) {
        // Seeds spread by a SplitMix64 step, so that near seeds give unrelated edits.
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
        state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
        state = (state ^ (state >> 31)) | 1
        func random(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(max(1, bound)))
        }
        var nodes = Dictionary(uniqueKeysWithValues: extract.nodes.map { ($0.id, $0) })
        var ways = Dictionary(uniqueKeysWithValues: extract.ways.map { ($0.id, $0) })
        var relations = Dictionary(uniqueKeysWithValues: extract.relations.map { ($0.id, $0) })
        var changed: [OSMElementType: Set<Int64>] = [:]
        var created: [OSMElementType: Set<Int64>] = [:]
        var deleted: [(OSMElementType, Int64, Int32?)] = []
        var nextNode = (extract.nodes.map(\.id).max() ?? 0) + 1
        var nextWay = (extract.ways.map(\.id).max() ?? 0) + 1
        let count = max(1, Int(Double(extract.ways.count) * share / 6))
        let members = Set(extract.relations.flatMap { $0.members.filter { $0.type == .way }.map(\.id) })
        var users: [Int64: Int] = [:]
        for way in extract.ways { for id in Set(way.nodeIDs) { users[id, default: 0] += 1 } }
        let wayIDs = extract.ways.map(\.id)
        func touched(_ type: OSMElementType, _ id: Int64) -> Bool {
            changed[type, default: []].contains(id) || created[type, default: []].contains(id)
        }
        func pickWay(_ accept: (OSMWay) -> Bool) -> OSMWay? {
            for _ in 0..<200 {
                let id = wayIDs[random(wayIDs.count)]
                if let way = ways[id], !touched(.way, id), accept(way) { return way }
            }
            return nil
        }
        func name(_ tags: OSMTags) -> String? { tags.first { $0.key == "name" }?.value }

        for index in 0..<count {
            // Tags edited: a name changed, a tag added, a tag removed.
            if var way = pickWay({ !$0.tags.isEmpty }) {
                switch index % 3 {
                case 0:
                    way.tags = way.tags.map { $0.key == "name" ? ($0.key, $0.value + " Nord") : $0 }
                    if name(way.tags) == nil { way.tags.append(("name", "Rue Nouvelle \(index)")) }
                case 1: way.tags.append(("oneway", "yes"))
                default: way.tags.removeLast()
                }
                ways[way.id] = way
                changed[.way, default: []].insert(way.id)
            }
            // Nodes moved: a node of a way, about 5 m.
            if let way = pickWay({ $0.nodeIDs.count >= 3 }) {
                let id = way.nodeIDs[1 + random(way.nodeIDs.count - 2)]
                if var node = nodes[id], !touched(.node, id) {
                    node.latitudeNano += 450 * 100
                    node.longitudeNano -= 300 * 100
                    nodes[id] = node
                    changed[.node, default: []].insert(id)
                }
            }
            // A way split in two: the first half kept, the second a new way with its tags.
            if var way = pickWay({ $0.nodeIDs.count >= 4 && $0.nodeIDs.first != $0.nodeIDs.last }) {
                let cut = way.nodeIDs.count / 2
                let second = OSMWay(id: nextWay, nodeIDs: Array(way.nodeIDs[cut...]), tags: way.tags)
                nextWay += 1
                way.nodeIDs = Array(way.nodeIDs[...cut])
                ways[way.id] = way
                ways[second.id] = second
                changed[.way, default: []].insert(way.id)
                created[.way, default: []].insert(second.id)
                for (id, var relation) in relations {
                    guard let position = relation.members.firstIndex(where: { $0.type == .way && $0.id == way.id })
                    else { continue }
                    let role = relation.members[position].role
                    relation.members.insert(.init(type: .way, id: second.id, role: role), at: position + 1)
                    relations[id] = relation
                    changed[.relation, default: []].insert(id)
                }
            }
            // Two ways joined: one that ends where another of the same tags starts.
            if let first = pickWay({ !members.contains($0.id) && $0.nodeIDs.first != $0.nodeIDs.last }),
                let last = first.nodeIDs.last,
                let second = ways.values.first(where: {
                    $0.id != first.id && $0.nodeIDs.first == last && $0.nodeIDs.last != first.nodeIDs.first
                        && !members.contains($0.id) && !touched(.way, $0.id)
                        && $0.tags.map { "\($0.key)=\($0.value)" } == first.tags.map { "\($0.key)=\($0.value)" }
                })
            {
                var joined = first
                joined.nodeIDs += second.nodeIDs.dropFirst()
                ways[first.id] = joined
                ways[second.id] = nil
                changed[.way, default: []].insert(first.id)
                deleted.append((.way, second.id, second.metadata?.version))
            }
            // A way deleted with the nodes only it used.
            if let way = pickWay({ !members.contains($0.id) }) {
                ways[way.id] = nil
                deleted.append((.way, way.id, way.metadata?.version))
                for id in Set(way.nodeIDs) where users[id] == 1 && !touched(.node, id) {
                    guard let node = nodes[id], node.tags.isEmpty else { continue }
                    nodes[id] = nil
                    deleted.append((.node, id, node.metadata?.version))
                }
            }
            // A café created, with a short footway to it.
            let anchor = extract.nodes[random(extract.nodes.count)]
            var path: [Int64] = []
            for step in 0..<3 {
                let node = OSMNode(
                    id: nextNode, latitudeNano: anchor.latitudeNano + Int64(step) * 9_000 * 100,
                    longitudeNano: anchor.longitudeNano + Int64(step) * 6_000 * 100,
                    tags: step == 2 ? [("amenity", "cafe"), ("name", "Café \(index)")] : [])
                nodes[node.id] = node
                created[.node, default: []].insert(node.id)
                path.append(node.id)
                nextNode += 1
            }
            ways[nextWay] = OSMWay(id: nextWay, nodeIDs: path, tags: [("highway", "footway")])
            created[.way, default: []].insert(nextWay)
            nextWay += 1
        }
        // A relation's tags and members changed.
        if let id = relations.keys.sorted().first(where: { !touched(.relation, $0) && relations[$0]!.members.count > 1 }
        ),
            var relation = relations[id]
        {
            relation.members.removeLast()
            relation.tags.append(("note", "edited"))
            relations[id] = relation
            changed[.relation, default: []].insert(id)
        }

        func bumped<Element>(_ element: Element, _ metadata: OSMMetadata?, _ set: (inout Element, OSMMetadata) -> Void)
            -> Element
        {
            var element = element
            set(&element, OSMMetadata(version: (metadata?.version ?? 0) + 1))
            return element
        }
        var changes: [OSMChange] = []
        for id in created[.node, default: []].sorted() {
            changes.append(.init(action: .create, element: .node(bumped(nodes[id]!, nil) { $0.metadata = $1 })))
        }
        for id in changed[.node, default: []].sorted() {
            let node = nodes[id]!
            changes.append(.init(action: .modify, element: .node(bumped(node, node.metadata) { $0.metadata = $1 })))
        }
        for id in created[.way, default: []].sorted() {
            changes.append(.init(action: .create, element: .way(bumped(ways[id]!, nil) { $0.metadata = $1 })))
        }
        for id in changed[.way, default: []].sorted() where ways[id] != nil {
            let way = ways[id]!
            changes.append(.init(action: .modify, element: .way(bumped(way, way.metadata) { $0.metadata = $1 })))
        }
        for id in changed[.relation, default: []].sorted() {
            let relation = relations[id]!
            changes.append(
                .init(action: .modify, element: .relation(bumped(relation, relation.metadata) { $0.metadata = $1 })))
        }
        for (type, id, version) in deleted {
            let metadata = version.map { OSMMetadata(version: $0) }
            let element: OSMChange.Element =
                switch type {
                case .node: .node(OSMNode(id: id, latitudeNano: 0, longitudeNano: 0, tags: [], metadata: metadata))
                case .way: .way(OSMWay(id: id, nodeIDs: [], tags: [], metadata: metadata))
                case .relation: .relation(OSMRelation(id: id, members: [], tags: [], metadata: metadata))
                }
            changes.append(.init(action: .delete, element: element))
        }
        // In the order osmium writes change files (and osm2pgsql needs): by type, then id.
        changes.sort { ($0.element.type.rawValue, $0.element.id) < ($1.element.type.rawValue, $1.element.id) }
        var edited = extract
        edited.nodes = nodes.values.sorted { $0.id < $1.id }
        edited.ways = ways.values.sorted { $0.id < $1.id }
        edited.relations = relations.values.sorted { $0.id < $1.id }
        // The edited copy's elements carry their new versions.
        let versions = Dictionary(changes.map { ("\($0.element.type)/\($0.element.id)", $0.element.version) }) { $1 }
        for index in edited.nodes.indices {
            if let version = versions["node/\(edited.nodes[index].id)"] ?? nil {
                edited.nodes[index].metadata = OSMMetadata(version: version)
            }
        }
        for index in edited.ways.indices {
            if let version = versions["way/\(edited.ways[index].id)"] ?? nil {
                edited.ways[index].metadata = OSMMetadata(version: version)
            }
        }
        for index in edited.relations.indices {
            if let version = versions["relation/\(edited.relations[index].id)"] ?? nil {
                edited.relations[index].metadata = OSMMetadata(version: version)
            }
        }
        return (edited, changes)
    }
}

/// OsmChange XML 0.6 documents (what the OSM API's replication publishes).
public enum OSMChangeWriter {
    /// The document of `changes`, each in a section of its action, in order (a new section
    /// where the action changes).
    public static func document(_ changes: [OSMChange]) -> [UInt8] {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: "\"", with: "&quot;")
        }
        func degrees(_ nano: Int64) -> String {
            let sign = nano < 0 ? "-" : ""
            let magnitude = nano.magnitude
            let fraction = String(magnitude % 1_000_000_000)
            return "\(sign)\(magnitude / 1_000_000_000).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
        }
        func tags(_ tags: OSMTags) -> String {
            tags.map { "      <tag k=\"\(escaped($0.key))\" v=\"\(escaped($0.value))\"/>\n" }.joined()
        }
        func version(_ metadata: OSMMetadata?) -> String { metadata.map { " version=\"\($0.version)\"" } ?? "" }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osmChange version=\"0.6\" generator=\"openmaps\">\n"
        var section: OSMChange.Action?
        for change in changes {
            if change.action != section {
                if let section { text += "  </\(section.rawValue)>\n" }
                text += "  <\(change.action.rawValue)>\n"
                section = change.action
            }
            switch change.element {
            case .node(let node):
                let location =
                    change.action == .delete
                    ? "" : " lat=\"\(degrees(node.latitudeNano))\" lon=\"\(degrees(node.longitudeNano))\""
                text +=
                    "    <node id=\"\(node.id)\"\(version(node.metadata))\(location)>\n\(tags(node.tags))    </node>\n"
            case .way(let way):
                text += "    <way id=\"\(way.id)\"\(version(way.metadata))>\n"
                text += way.nodeIDs.map { "      <nd ref=\"\($0)\"/>\n" }.joined() + tags(way.tags) + "    </way>\n"
            case .relation(let relation):
                text += "    <relation id=\"\(relation.id)\"\(version(relation.metadata))>\n"
                text += relation.members.map {
                    "      <member type=\"\($0.type)\" ref=\"\($0.id)\" role=\"\(escaped($0.role))\"/>\n"
                }.joined()
                text += tags(relation.tags) + "    </relation>\n"
            }
        }
        if let section { text += "  </\(section.rawValue)>\n" }
        return Array((text + "</osmChange>\n").utf8)
    }
}

/// Replication feeds in a folder, as planet.openstreetmap.org lays them out (for tests and
/// benchmarks of `update --replication`).
public enum ReplicationFeedWriter {
    /// Publishes `changes` as sequence `sequence` of the feed in `folder`, at `timestamp`
    /// (seconds since 1970): its `AAA/BBB/CCC.osc.gz` and `.state.txt`, and the feed's
    /// `state.txt` naming it the newest.
    public static func publish(_ changes: [OSMChange], sequence: Int64, timestamp: Int64, in folder: String) throws {
        let digits = String(format: "%09lld", sequence)
        let parts = [digits.prefix(3), digits.dropFirst(3).prefix(3), digits.suffix(3)].map(String.init)
        let directory = URL(fileURLWithPath: folder).appendingPathComponent(parts[0]).appendingPathComponent(parts[1])
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(timestamp)))
        let state =
            "#\(time)\nsequenceNumber=\(sequence)\ntimestamp=\(time.replacingOccurrences(of: ":", with: "\\:"))\n"
        try Data(try Zlib.gzip(OSMChangeWriter.document(changes))).write(
            to: directory.appendingPathComponent(parts[2] + ".osc.gz"))
        try Data(state.utf8).write(to: directory.appendingPathComponent(parts[2] + ".state.txt"))
        try Data(state.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("state.txt"))
    }
}
