import Foundation
import GeoCore
import OSMReader

/// The road network of the OpenStreetMap regions, kept in the store for routing: every
/// routable way with its node ids (junctions are shared nodes), positions and the tags the
/// travel profiles read; the tagged nodes on them (barriers, signals); the turn restrictions.
///
/// Tables (schema 4): `road_way(source, osm_id, nodes, points, tags)` (`nodes` little-endian
/// Int64 ids, `points` little-endian Int32 pairs of 1e-7 degrees, latitude first; `tags` a JSON
/// object), `road_node(source, osm_id, tags)`, `road_restriction(source, osm_id, kind, from_way,
/// via_nodes, via_ways, to_way, except_modes)`. Written with the region by ``OSMImporter``,
/// replaced with it. `road_graph(mode, fingerprint, data)`: each travel mode's routing graph
/// (its contraction hierarchy), built from all of them and written after an import
/// (``write(_:into:)``); its fingerprint tells when the network has changed since.
public enum RoadNetwork {
    /// A routable way as stored.
    public struct Way: Sendable, Equatable {
        /// The source (region) it was imported with.
        public var source: Int64
        /// The OSM way's id.
        public var osmID: Int64
        /// Its OSM node ids, in order.
        public var nodes: [Int64]
        /// The nodes' positions, in the same order.
        public var points: [Coordinate]
        /// The tags routing reads (``wayKeys``).
        public var tags: [String: String]

        /// A way of these nodes, points and tags from `source`.
        public init(source: Int64, osmID: Int64, nodes: [Int64], points: [Coordinate], tags: [String: String]) {
            self.source = source
            self.osmID = osmID
            self.nodes = nodes
            self.points = points
            self.tags = tags
        }
    }

    /// A turn restriction: `no_*` forbids the turn from one way to another (through a node or
    /// ways), `only_*` forbids every other; `except` names the vehicles it does not bind.
    public struct Restriction: Sendable, Equatable {
        /// The restriction relation's OSM id.
        public var osmID: Int64
        /// The OSM value: `no_left_turn`, `only_straight_on`, …
        public var kind: String
        /// The way the turn comes from.
        public var fromWay: Int64
        /// The node it turns at (one, for the usual restriction).
        public var viaNodes: [Int64]
        /// The ways it turns through, in order, when `via` is ways.
        public var viaWays: [Int64]
        /// The way the turn goes onto.
        public var toWay: Int64
        /// `except=*` values (`bicycle`, `psv`, …).
        public var except: [String]
        /// The vehicles it binds when the tag names them (`restriction:hgv`), empty for all.
        public var modes: [String]

        /// A restriction of `kind` from `fromWay` through its via members to `toWay`.
        public init(
            osmID: Int64, kind: String, fromWay: Int64, viaNodes: [Int64], viaWays: [Int64], toWay: Int64,
            except: [String], modes: [String]
        ) {
            self.osmID = osmID
            self.kind = kind
            self.fromWay = fromWay
            self.viaNodes = viaNodes
            self.viaWays = viaWays
            self.toWay = toWay
            self.except = except
            self.modes = modes
        }
    }

    /// The keys the travel profiles read (access keys also with `:forward` and `:backward`).
    static let wayKeys: Set<String> = {
        let access = ["access", "vehicle", "motor_vehicle", "motorcar", "motorcycle", "bicycle", "foot"]
        return Set(access.flatMap { [$0, $0 + ":forward", $0 + ":backward"] }).union([
            "highway", "name", "ref", "oneway", "oneway:bicycle", "oneway:foot", "oneway:motorcar",
            "oneway:motor_vehicle", "oneway:vehicle", "oneway:motorcycle", "junction", "maxspeed", "maxspeed:forward",
            "maxspeed:backward", "maxspeed:advisory", "source:maxspeed", "maxspeed:type", "moped", "cycleway",
            "cycleway:left", "cycleway:right", "cycleway:both", "surface", "smoothness", "tracktype", "toll",
            "duration", "route", "service", "area", "bridge", "tunnel", "lanes", "width", "lane_markings",
            "side_road", "destination", "destination:ref", "junction:ref", "turn:lanes", "turn:lanes:forward",
            "turn:lanes:backward",
            "sidewalk", "sidewalk:both",
            "sidewalk:left", "sidewalk:right", "motorroad", "ferry", "railway", "public_transport", "man_made",
            "amenity", "impassable", "status", "construction", "proposed",
        ])
    }()

    /// The node tags the profiles read.
    static let nodeKeys: Set<String> = [
        "barrier", "highway", "access", "foot", "bicycle", "vehicle", "motor_vehicle", "motorcar", "motorcycle",
        "crossing", "traffic_signals:direction", "direction", "bollard", "kerb", "sensory",
    ]

    /// True for a way the network keeps: a road, path or track, a ferry or shuttle train line,
    /// a platform, a pier or a parking lot's outline (walked and ridden round).
    static func isRoutable(_ tags: OSMTags) -> Bool {
        for tag in tags {
            switch (tag.key, tag.value) {
            case ("highway", let value): return !["proposed", "abandoned", "razed"].contains(value)
            case ("route", "ferry"), ("route", "shuttle_train"), ("railway", "platform"),
                ("public_transport", "platform"), ("man_made", "pier"), ("amenity", "parking"),
                ("amenity", "parking_entrance"), ("bridge", "movable"):
                return true
            default: continue
            }
        }
        return false
    }

    /// A travel mode's routing graph as stored: what it was built from (its `fingerprint`)
    /// and its bytes.
    public struct StoredGraph: Sendable, Equatable {
        /// The travel mode's name (`driving`, `walking`, …).
        public var mode: String
        /// What the graph was built from: the network and the profile's rules.
        public var fingerprint: String
        /// The serialized graph.
        public var data: [UInt8]

        /// A stored graph of `mode` built from `fingerprint`.
        public init(mode: String, fingerprint: String, data: [UInt8]) {
            self.mode = mode
            self.fingerprint = fingerprint
            self.data = data
        }
    }

    /// Replaces the store's routing graphs with `graphs`, atomically (``StoreUpdate``): a
    /// killed write leaves the previous store and graphs as they were.
    public static func write(_ graphs: [StoredGraph], into storePath: String) throws {
        try writeGraphs(into: storePath) { write in
            for graph in graphs { try write(graph) }
        }
    }

    /// Replaces the store's routing graphs with those `build` hands to its `write`, one at a
    /// time as they are built (so that only one is in memory), in one atomic update.
    public static func writeGraphs(
        into storePath: String, _ build: (_ write: (StoredGraph) throws -> Void) throws -> Void
    ) throws {
        try StoreUpdate.apply(to: storePath) { database in
            try database.run("DELETE FROM road_graph")
            let writer = try GraphWriter(database: database)
            try build { graph in try writer.replace(graph) }
        }
    }

    /// Replaces and removes routing graphs inside an update of the store (``updateGraphs(into:_:)``,
    /// ``OSMUpdater``).
    public struct GraphWriter {
        let database: StoreConnection

        /// A writer into `database`. On PostGIS a store made before graphs were kept
        /// uncompressed has its column changed first (``StoreSchema/uncompressedGraphs``).
        init(database: StoreConnection) throws {
            self.database = database
            guard database.engine == .postgis else { return }
            let storage = try database.map(
                "SELECT attstorage::text FROM pg_attribute WHERE attrelid = 'road_graph'::regclass AND attname = 'data'"
            ) { $0.text(0) }
            if storage.first != "e" { try database.execute(StoreSchema.uncompressedGraphs) }
        }

        /// Puts `graph` in place of the stored graph of its mode, if any.
        public func replace(_ graph: StoredGraph) throws {
            try database.run("DELETE FROM road_graph WHERE mode = ?", [.text(graph.mode)])
            try database.run(
                "INSERT INTO road_graph (mode, fingerprint, data) VALUES (?,?,?)",
                [.text(graph.mode), .text(graph.fingerprint), .blob(graph.data)])
        }

        /// Removes the stored graph of `mode`.
        public func remove(mode: String) throws {
            try database.run("DELETE FROM road_graph WHERE mode = ?", [.text(mode)])
        }
    }

    /// Runs `body` on the store at `storePath` as it is, with a writer of its routing graphs,
    /// in one atomic update made in the store itself (``StoreUpdate/applyInPlace(to:_:)``: only
    /// the graphs' rows change, so the store is not copied): a killed or failed build leaves
    /// the store and its previous graphs as they were; one that changes nothing costs no write.
    public static func updateGraphs(into storePath: String, _ body: (MapStore, GraphWriter) throws -> Void) throws {
        try StoreUpdate.applyInPlace(to: storePath) { database in
            try body(MapStore(database: database, path: storePath), try GraphWriter(database: database))
        }
    }

    /// The statements that remove a source's network.
    static let deletions = [
        "DELETE FROM road_way WHERE source = ?", "DELETE FROM road_node WHERE source = ?",
        "DELETE FROM road_restriction WHERE source = ?",
    ]

    /// Writes a region's network rows.
    struct Writer {
        let insertWay: RowInserter
        let insertNode: RowInserter
        let insertRestriction: RowInserter
        let source: Int64

        init(database: StoreConnection, source: Int64) throws {
            insertWay = try database.inserter(
                table: "road_way", columns: ["source", "osm_id", "nodes", "points", "tags"])
            insertNode = try database.inserter(table: "road_node", columns: ["source", "osm_id", "tags"])
            insertRestriction = try database.inserter(
                table: "road_restriction",
                columns: [
                    "source", "osm_id", "kind", "from_way", "via_nodes", "via_ways", "to_way", "except_modes", "modes",
                ])
            self.source = source
        }

        /// Writes `way` (or the run of it inside the extract: `nodeIDs` at `points`).
        func write(way: OSMWay, nodeIDs: [Int64], points: [Coordinate]) throws {
            let tags = way.tags.filter { RoadNetwork.wayKeys.contains($0.key) }
            try insertWay.insert([
                .integer(source), .integer(way.id), .blob(RoadNetwork.encode(nodes: nodeIDs)),
                .blob(RoadNetwork.encode(points)),
                .text(SearchVocabulary.json(tags) ?? "{}"),
            ])
        }

        func write(node: OSMNode) throws {
            let tags = node.tags.filter { RoadNetwork.nodeKeys.contains($0.key) }
            guard !tags.isEmpty else { return }
            try insertNode.insert([.integer(source), .integer(node.id), .text(SearchVocabulary.json(tags) ?? "{}")])
        }

        /// A `type=restriction` relation; false when it is not one the network can use.
        @discardableResult
        func write(restriction relation: OSMRelation) throws -> Bool {
            func value(_ key: String) -> String? { relation.tags.first { $0.key == key }?.value }
            var kind = value("restriction")
            var modes: [String] = []
            if kind == nil, let tag = relation.tags.first(where: { $0.key.hasPrefix("restriction:") }) {
                kind = tag.value
                modes = [String(tag.key.dropFirst("restriction:".count))]
            }
            guard let kind, kind.hasPrefix("no_") || kind.hasPrefix("only_") else { return false }
            let from = relation.members.filter { $0.role == "from" && $0.type == .way }
            let to = relation.members.filter { $0.role == "to" && $0.type == .way }
            let via = relation.members.filter { $0.role == "via" }
            guard from.count == 1, to.count == 1, !via.isEmpty else { return false }
            let viaNodes = via.filter { $0.type == .node }.map { String($0.id) }
            let viaWays = via.filter { $0.type == .way }.map { String($0.id) }
            guard viaNodes.count == 1 || (viaNodes.isEmpty && !viaWays.isEmpty) else { return false }
            let except = (value("except") ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            try insertRestriction.insert([
                .integer(source), .integer(relation.id), .text(kind), .integer(from[0].id),
                .text(viaNodes.joined(separator: ",")), .text(viaWays.joined(separator: ",")), .integer(to[0].id),
                .text(except.joined(separator: ",")), .text(modes.joined(separator: ",")),
            ])
            return true
        }
    }

    /// Positions as little-endian Int32 pairs of 1e-7 degrees, latitude first.
    static func encode(_ points: [Coordinate]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(points.count * 8)
        CoordinatePairs.append(points, to: &bytes)
        return bytes
    }

    /// Node ids as little-endian Int64s.
    static func encode(nodes: [Int64]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(nodes.count * 8)
        for id in nodes { withUnsafeBytes(of: id.littleEndian) { bytes += $0 } }
        return bytes
    }

    static func decodePoints(_ bytes: UnsafeRawBufferPointer) -> [Coordinate] {
        CoordinatePairs.read(bytes, at: 0, count: bytes.count / 8) ?? []
    }

    static func decodeNodes(_ bytes: UnsafeRawBufferPointer) -> [Int64] {
        stride(from: 0, to: bytes.count - 7, by: 8).map {
            Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: $0, as: Int64.self))
        }
    }
}

extension MapStore {
    /// Every routable way of the OpenStreetMap regions, by source and OSM id (a way the
    /// extract's edge cuts: its runs in order), whatever order they were written in: an
    /// updated store gives the graph a fresh import of the same data gives.
    public func roadWays() throws(DataError) -> [RoadNetwork.Way] {
        try query("reading the road network") {
            try database.map("SELECT source, osm_id, nodes, points, tags FROM road_way ORDER BY source, osm_id, rowid")
            { row in
                RoadNetwork.Way(
                    source: row.integer(0) ?? 0, osmID: row.integer(1) ?? 0,
                    nodes: row.withBlob(2, RoadNetwork.decodeNodes) ?? [],
                    points: row.withBlob(3, RoadNetwork.decodePoints) ?? [],
                    tags: row.text(4).map(SearchVocabulary.tags(json:)) ?? [:])
            }
        }
    }

    /// The tagged nodes on the roads (barriers, signals, crossings), by OSM id.
    public func roadNodes() throws(DataError) -> [Int64: [String: String]] {
        try query("reading the road network's nodes") {
            var nodes: [Int64: [String: String]] = [:]
            try database.forEachRow("SELECT osm_id, tags FROM road_node", []) { row in
                if let id = row.integer(0) { nodes[id] = row.text(1).map(SearchVocabulary.tags(json:)) ?? [:] }
            }
            return nodes
        }
    }

    /// The stored routing graphs' fingerprints, by mode (without reading the graphs).
    public func roadGraphFingerprints() throws(DataError) -> [String: String] {
        try query("reading the routing graphs") {
            Dictionary(
                try database.map("SELECT mode, fingerprint FROM road_graph") { row in
                    (row.text(0) ?? "", row.text(1) ?? "")
                }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The stored routing graphs: each mode and its size in bytes.
    public func roadGraphSizes() throws(DataError) -> [(mode: String, bytes: Int)] {
        try query("reading the routing graphs") {
            try database.map("SELECT mode, length(data) FROM road_graph ORDER BY mode") { row in
                (row.text(0) ?? "", Int(row.integer(1) ?? 0))
            }
        }
    }

    /// The stored routing graph of `mode`, or nil when none was built.
    public func roadGraph(mode: String) throws(DataError) -> RoadNetwork.StoredGraph? {
        try query("reading the routing graph") {
            try database.map("SELECT fingerprint, data FROM road_graph WHERE mode = ?", [.text(mode)]) { row in
                RoadNetwork.StoredGraph(
                    mode: mode, fingerprint: row.text(0) ?? "", data: row.withBlob(1) { Array($0) } ?? [])
            }.first
        }
    }

    /// Every stored turn restriction, of every region.
    public func roadRestrictions() throws(DataError) -> [RoadNetwork.Restriction] {
        func ids(_ text: String?) -> [Int64] { (text ?? "").split(separator: ",").compactMap { Int64($0) } }
        func words(_ text: String?) -> [String] { (text ?? "").split(separator: ",").map(String.init) }
        return try query("reading the turn restrictions") {
            try database.map(
                "SELECT osm_id, kind, from_way, via_nodes, via_ways, to_way, except_modes, modes FROM road_restriction "
                    + "ORDER BY source, osm_id"
            ) { row in
                RoadNetwork.Restriction(
                    osmID: row.integer(0) ?? 0, kind: row.text(1) ?? "", fromWay: row.integer(2) ?? 0,
                    viaNodes: ids(row.text(3)), viaWays: ids(row.text(4)), toWay: row.integer(5) ?? 0,
                    except: words(row.text(6)), modes: words(row.text(7)))
            }
        }
    }
}
