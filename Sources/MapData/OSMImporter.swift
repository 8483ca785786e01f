import Foundation
import GeoCore
import OSMReader

/// Imports an OpenStreetMap extract (PBF or OSM XML, plain, gzip or bzip2: ``OSMFile``) into a
/// store as one region, atomically.
///
/// The store is built in a temporary file beside the target (a copy of the existing store,
/// when there is one) and renamed into place only when the import has committed, so an
/// interrupted or failed import leaves the previous store as it was. Importing a region again
/// replaces it; the same file imported twice gives the same store.
public enum OSMImporter {
    /// What an import did.
    public struct Report: Sendable, Equatable {
        /// The region's name, as its source is named.
        public var region: String
        /// Features written.
        public var features = 0
        /// Features written, by class.
        public var byClass: [FeatureClass: Int] = [:]
        /// Ways skipped because a node they use is not in the file.
        public var waysWithMissingNodes = 0
        /// Multipolygon relations whose rings could not all be closed (broken rings are left out).
        public var brokenMultipolygons: [Int64] = []
        /// Routable ways and turn restrictions kept for routing.
        public var roadWays = 0
        /// Turn restrictions kept.
        public var restrictions = 0
        /// Land areas made from the extract's coastline (``CoastlineAssembler``).
        public var coastLands = 0
        /// Where coastlines end inside the extract, away from its edge: left out, not guessed.
        public var brokenCoastlines: [Coordinate] = []
    }

    /// Inputs larger than this (bytes) keep node locations in a temporary flat file with
    /// ``NodeCache/automatic``: 256 MiB of PBF is about 30 million nodes, 1.5 GB as a dictionary.
    public static let flatNodesThreshold = 256 << 20

    /// Imports `path` into the store at `storePath` as region `region` (default: the file's
    /// name without its extensions, ``regionName(forFile:)``), streaming: the file is read
    /// twice: first for the relations the map and the router use (areas, drawn routes, turn
    /// restrictions) and the ways they are built from, then for the nodes and ways, written as
    /// they are read; the relations are written last. Memory holds the node locations (or,
    /// with a flat node cache, the pages of it in use), those relations and their member ways,
    /// never the whole file.
    ///
    /// The file must list its nodes before its ways, as OSM files do (`osmium sort` makes any
    /// file so); a file that does not is refused, naming the node out of order.
    ///
    /// - Parameters:
    ///   - nodeCache: where node locations are kept (``NodeCache``).
    ///   - feed: the region's replication feed where the file's header names none (a
    ///     catalogue's, ``RegionCatalogue``), for `update --replication`.
    ///   - failAfter: throws after this many features (for testing atomicity).
    ///   - progress: called with a phase ("scanning", then "importing") and the fraction of the
    ///     file read in it, 0...1.
    public static func importFile(
        _ path: String, into storePath: String, region: String? = nil, nodeCache: NodeCache = .automatic,
        feed: String? = nil, failAfter: Int? = nil, progress: ((String, Double) -> Void)? = nil
    ) throws -> Report {
        let name = region ?? regionName(forFile: path)
        let reader = try OSMFile(path: path)
        var header = reader.header
        if header.replicationURL == nil { header.replicationURL = feed }
        let fileSize = Double(max(1, reader.fileSize))
        var members: Set<Int64> = []
        var relations: [OSMRelation] = []
        try reader.forEachBlock(only: [.relation]) { block in
            progress?("scanning", Double(block.byteOffset) / fileSize)
            for relation in block.relations {
                if RegionWriter.buildsFromMembers(relation) {
                    for member in relation.members where member.type == .way { members.insert(member.id) }
                } else if !RegionWriter.isRestriction(relation) {
                    continue
                }
                relations.append(relation)
            }
        }
        progress?("scanning", 1)
        let nodes: NodeLocations
        switch nodeCache {
        case .memory: nodes = MemoryNodeLocations()
        case .file(let file): nodes = try FlatNodeLocations(path: file, isTemporary: false)
        case .automatic:
            if reader.fileSize > flatNodesThreshold {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "openmaps-nodes-\(UUID().uuidString).bin"
                ).path
                nodes = try FlatNodeLocations(path: file, isTemporary: true)
            } else {
                nodes = MemoryNodeLocations()
            }
        }
        var report = Report(region: name)
        try StoreUpdate.apply(to: storePath) { database in
            var writer = try RegionWriter(
                name, path: path, header: header, database: database, nodes: nodes, members: members,
                failAfter: failAfter)
            // The relations the map uses were kept by the first pass; this one keeps every
            // element as read, for updates (``OSMElementStore``).
            try reader.forEachBlock(only: [.node, .way, .relation], metadata: true) { block in
                progress?("importing", Double(block.byteOffset) / fileSize)
                try writer.add(block)
            }
            try writer.finish(relations)
            report = writer.report
            progress?("importing", 1)
        }
        return report
    }

    /// The region a file is imported as by default: its name without `.osm.pbf`, `.osm.gz`,
    /// `.osm.bz2`, `.osm`, `.pbf`, `.xml`, `.gz` or `.bz2` (`monaco.osm.pbf` → `monaco`).
    public static func regionName(forFile path: String) -> String {
        var name = URL(fileURLWithPath: path).lastPathComponent
        for suffix in [".gz", ".bz2", ".pbf", ".xml", ".osm"] where name.lowercased().hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return name.isEmpty ? URL(fileURLWithPath: path).lastPathComponent : name
    }

    /// The box around `coordinates`, for a file whose header has none (Overpass XML).
    static func extent(of coordinates: some Sequence<Coordinate>) -> CoordinateBounds {
        var south = 90.0
        var west = 180.0
        var north = -90.0
        var east = -180.0
        for coordinate in coordinates {
            south = min(south, coordinate.latitude)
            north = max(north, coordinate.latitude)
            west = min(west, coordinate.longitude)
            east = max(east, coordinate.longitude)
        }
        guard south <= north else { return CoordinateBounds() }
        return CoordinateBounds(
            southWest: Coordinate(latitude: south, longitude: west),
            northEast: Coordinate(latitude: north, longitude: east))
    }

    /// The runs of at least two consecutive nodes of `ids` that the extract holds.
    static func runsInside(_ ids: [Int64], _ nodes: NodeLocations) -> [(ids: [Int64], points: [Coordinate])] {
        var runs: [(ids: [Int64], points: [Coordinate])] = []
        var current: (ids: [Int64], points: [Coordinate]) = ([], [])
        for id in ids {
            if let point = nodes.get(id) {
                current.ids.append(id)
                current.points.append(point)
                continue
            }
            if current.ids.count >= 2 { runs.append(current) }
            current = ([], [])
        }
        if current.ids.count >= 2 { runs.append(current) }
        return runs
    }
}

/// Writes one region's features as the file's elements stream past: nodes (their locations
/// kept, the tagged ones written), then ways (built from the kept locations; those relations
/// use kept whole), then relations (areas and routes from the kept ways, turn restrictions).
struct RegionWriter {
    let name: String
    let path: String
    let database: StoreConnection
    let nodes: NodeLocations
    /// The ways relations build from (``buildsFromMembers(_:)``), by id.
    let members: Set<Int64>
    let failAfter: Int?
    let sourceID: Int64
    /// The header's box, when it has one; else the nodes' extent is written at the end.
    let headerBounds: CoordinateBounds?
    var writer: FeatureWriter
    let roads: RoadNetwork.Writer
    /// Keeps every element as read; nil when building again what an update changed.
    let elements: OSMElementStore.Writer?
    var report: OSMImporter.Report
    private var wayGeometry: [Int64: RingAssembler.Way] = [:]
    /// The `natural=coastline` ways (or their runs inside the extract), for the land and sea.
    private var coastline: [CoastlineAssembler.Way] = []
    private var extent = (south: 90.0, west: 180.0, north: -90.0, east: -180.0)
    /// The first way read, once one was: nodes after it are refused.
    private var firstWay: Int64?
    /// The newest element's time (seconds since 1970), where the file gives times.
    private var newest: Int64?

    init(
        _ name: String, path: String, header: OSMHeader, database: StoreConnection, nodes: NodeLocations,
        members: Set<Int64>, failAfter: Int?
    ) throws {
        self.name = name
        self.path = path
        self.database = database
        self.nodes = nodes
        self.members = members
        self.failAfter = failAfter
        headerBounds = header.bounds
        sourceID = try StoreUpdate.replaceSource(
            named: name, kind: .osm, attribution: "© OpenStreetMap contributors", licence: "ODbL 1.0", path: path,
            bounds: header.bounds ?? .world, fingerprint: try FileFingerprint.of(path), in: database)
        writer = try FeatureWriter(database: database, source: sourceID)
        roads = try RoadNetwork.Writer(database: database, source: sourceID)
        elements = try OSMElementStore.Writer(database: database, source: sourceID)
        try OSMElementStore.addRegion(source: sourceID, header: header, in: database)
        report = OSMImporter.Report(region: name)
    }

    /// A writer that builds again, into region `sourceID` as it is, the elements an update
    /// changed (``OSMUpdater``): features numbered after the region's last, the index's words
    /// left to the update, no elements kept (the update keeps them).
    init(
        updating sourceID: Int64, name: String, path: String, database: StoreConnection, nodes: NodeLocations,
        members: Set<Int64>, nextFeature: Int64
    ) throws {
        self.name = name
        self.path = path
        self.database = database
        self.nodes = nodes
        self.members = members
        self.sourceID = sourceID
        failAfter = nil
        headerBounds = .world
        writer = try FeatureWriter(database: database, source: sourceID, writesWords: false)
        writer.next = nextFeature
        roads = try RoadNetwork.Writer(database: database, source: sourceID)
        elements = nil
        report = OSMImporter.Report(region: name)
    }

    /// True for the relations whose member ways' geometry is kept: areas and the routes drawn.
    static func buildsFromMembers(_ relation: OSMRelation) -> Bool {
        switch relation.tags.first(where: { $0.key == "type" })?.value {
        case "multipolygon", "boundary": return true
        case "route":
            guard let route = relation.tags.first(where: { $0.key == "route" })?.value else { return false }
            return FeatureClassifier.cyclingRouteKind(relation.tags) != nil || transitRoutes.contains(route)
        default: return false
        }
    }

    static let transitRoutes: Set<String> = ["bus", "tram", "subway", "train", "light_rail", "ferry", "trolleybus"]

    /// True for a turn restriction (``RoadNetwork``'s).
    static func isRestriction(_ relation: OSMRelation) -> Bool {
        relation.tags.contains { $0.key == "type" && $0.value == "restriction" }
    }

    private mutating func add(
        _ type: OSMElementType?, _ id: Int64?, _ kind: FeatureKind, _ tags: OSMTags, _ geometry: Geometry,
        names: [String]? = nil
    ) throws {
        try writer.write(type: type, id: id, kind: kind, tags: tags, geometry: geometry, names: names)
        report.features += 1
        report.byClass[kind.featureClass, default: 0] += 1
        if let failAfter, report.features >= failAfter {
            throw DataError(.interrupted, message: "import stopped after \(failAfter) features (test)", path: path)
        }
    }

    /// Writes a block's nodes and ways (relations wait for ``finish(_:)``).
    mutating func add(_ block: OSMBlock) throws {
        if let node = block.nodes.first, let way = firstWay {
            throw DataError(
                .invalidData,
                message:
                    "node \(node.id) comes after way \(way): an import reads the nodes before the ways, as OSM files list them (sort the file with 'osmium sort')",
                path: path)
        }
        for node in block.nodes {
            try nodes.set(node.id, node.coordinate)
            let coordinate = node.coordinate
            extent.south = min(extent.south, coordinate.latitude)
            extent.north = max(extent.north, coordinate.latitude)
            extent.west = min(extent.west, coordinate.longitude)
            extent.east = max(extent.east, coordinate.longitude)
            try elements?.write(node)
            try add(node: node)
            note(node.metadata)
        }
        if firstWay == nil { firstWay = block.ways.first?.id }
        for way in block.ways {
            try elements?.write(way)
            try add(way)
            note(way.metadata)
        }
        for relation in block.relations {
            try elements?.write(relation)
            note(relation.metadata)
        }
    }

    private mutating func note(_ metadata: OSMMetadata?) {
        guard let time = metadata?.timestamp, time > 0 else { return }
        newest = max(newest ?? time, time)
    }

    /// Writes a node's feature (a tagged node the map shows) and its routing tags.
    mutating func add(node: OSMNode) throws {
        guard !node.tags.isEmpty else { return }
        if let kind = FeatureClassifier.classify(node.tags) {
            try add(.node, node.id, kind, node.tags, .point(node.coordinate))
        }
        try roads.write(node: node)
    }

    /// Keeps the geometry of a way a relation builds from, without writing it (an update's
    /// unchanged member of a changed relation).
    mutating func keepGeometry(of way: OSMWay) {
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(way.nodeIDs.count)
        for id in way.nodeIDs {
            guard let coordinate = nodes.get(id) else { return }
            coordinates.append(coordinate)
        }
        guard coordinates.count >= 2, members.contains(way.id) else { return }
        wayGeometry[way.id] = RingAssembler.Way(id: way.id, nodeIDs: way.nodeIDs, coordinates: coordinates)
    }

    /// Writes a way's features and its road.
    mutating func add(_ way: OSMWay) throws {
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(way.nodeIDs.count)
        for id in way.nodeIDs {
            guard let coordinate = nodes.get(id) else { break }
            coordinates.append(coordinate)
        }
        collectCoastline(way)
        guard coordinates.count == way.nodeIDs.count, coordinates.count >= 2 else {
            report.waysWithMissingNodes += 1
            // A road crossing the extract's edge is still a road up to it: its runs of
            // nodes inside are kept for routing, as routers keep them.
            if RoadNetwork.isRoutable(way.tags) {
                for run in OSMImporter.runsInside(way.nodeIDs, nodes) {
                    try roads.write(way: way, nodeIDs: run.ids, points: run.points)
                    report.roadWays += 1
                }
            }
            return
        }
        if members.contains(way.id) {
            wayGeometry[way.id] = RingAssembler.Way(id: way.id, nodeIDs: way.nodeIDs, coordinates: coordinates)
        }
        if RoadNetwork.isRoutable(way.tags) {
            try roads.write(way: way, nodeIDs: way.nodeIDs, points: coordinates)
            report.roadWays += 1
        }
        guard let kind = FeatureClassifier.classify(way.tags) else { return }
        let closed = way.nodeIDs.count >= 4 && way.nodeIDs.first == way.nodeIDs.last
        try add(.way, way.id, kind, way.tags, kind.isArea && closed ? .polygon([coordinates]) : .line(coordinates))
        if let cycling = FeatureClassifier.cyclingKind(way.tags), !(kind.isArea && closed) {
            // The bicycling layer's copy of the way: no names, so search finds the road once.
            try add(
                .way, way.id, FeatureKind(featureClass: .cycling, kind: cycling, isArea: false), [],
                .line(coordinates), names: [])
        }
    }

    /// True for a way of the coastline.
    static func isCoastline(_ tags: OSMTags) -> Bool {
        tags.contains { $0.key == "natural" && $0.value == "coastline" }
    }

    /// Keeps a coastline way (whole, or its runs inside the extract) for ``writeCoast(in:)``.
    mutating func collectCoastline(_ way: OSMWay) {
        guard Self.isCoastline(way.tags) else { return }
        for run in OSMImporter.runsInside(way.nodeIDs, nodes) {
            coastline.append(CoastlineAssembler.Way(nodeIDs: run.ids, coordinates: run.points))
        }
    }

    /// The land and sea inside the region's box from its coastline, so that street-zoom maps
    /// draw the extract's coast rather than the world's: the land areas (with the seas they
    /// enclose as holes) and one sea, the box with the land cut out (even-odd).
    mutating func writeCoast(in box: CoordinateBounds) throws {
        guard let coast = CoastlineAssembler.assemble(coastline, in: box), !coast.land.isEmpty,
            let southWest = box.southWest, let northEast = box.northEast
        else {
            if let coast = CoastlineAssembler.assemble(coastline, in: box) { report.brokenCoastlines = coast.broken }
            return
        }
        report.brokenCoastlines = coast.broken
        for ring in coast.land {
            let holes = coast.enclosedSeas.filter { sea in sea.first.map { Self.ring(ring, contains: $0) } ?? false }
            try add(nil, nil, .extractLand, [], .polygon([ring] + holes), names: [])
            report.coastLands += 1
        }
        let frame = [
            southWest, Coordinate(latitude: southWest.latitude, longitude: northEast.longitude), northEast,
            Coordinate(latitude: northEast.latitude, longitude: southWest.longitude), southWest,
        ]
        try add(nil, nil, .extractSea, [], .polygon([frame] + coast.land), names: [])
    }

    /// True when `point` is inside `ring` (even-odd).
    static func ring(_ ring: [Coordinate], contains point: Coordinate) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst())
        where (a.latitude > point.latitude) != (b.latitude > point.latitude) {
            let x =
                a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
            if point.longitude < x { inside.toggle() }
        }
        return inside
    }

    /// Writes a relation's features (areas, drawn routes) and its turn restriction.
    mutating func add(_ relation: OSMRelation) throws {
        let type = relation.tags.first { $0.key == "type" }?.value
        if type == "restriction", try roads.write(restriction: relation) { report.restrictions += 1 }
        if type == "multipolygon" || type == "boundary" {
            guard let kind = FeatureClassifier.classify(relation.tags.filter { $0.key != "type" }) else { return }
            let members = relation.members.filter {
                $0.type == .way && ($0.role == "outer" || $0.role == "inner" || $0.role.isEmpty)
            }
            let outer = members.filter { $0.role != "inner" }.compactMap { wayGeometry[$0.id] }
            let inner = members.filter { $0.role == "inner" }.compactMap { wayGeometry[$0.id] }
            let outerRings = RingAssembler.rings(from: outer)
            let innerRings = RingAssembler.rings(from: inner)
            if !outerRings.broken.isEmpty || !innerRings.broken.isEmpty || outer.count + inner.count < members.count {
                report.brokenMultipolygons.append(relation.id)
            }
            guard !outerRings.rings.isEmpty else { return }
            try add(.relation, relation.id, kind, relation.tags, .polygon(outerRings.rings + innerRings.rings))
        } else if type == "route", let cycling = FeatureClassifier.cyclingRouteKind(relation.tags) {
            let lines = relation.members.filter { $0.type == .way }.compactMap { wayGeometry[$0.id]?.coordinates }
            guard !lines.isEmpty else { return }
            // Labelled with its ref (or its name where it has none); not indexed for search.
            let label = relation.tags.first { $0.key == "ref" } ?? relation.tags.first { $0.key == "name" }
            try add(
                .relation, relation.id, FeatureKind(featureClass: .cycling, kind: cycling, isArea: false),
                label.map { [(key: "name", value: $0.value)] } ?? [], .lines(lines), names: [])
        } else if type == "route", let route = relation.tags.first(where: { $0.key == "route" })?.value,
            Self.transitRoutes.contains(route)
        {
            let lines = relation.members.filter { $0.type == .way }.compactMap { wayGeometry[$0.id]?.coordinates }
            guard !lines.isEmpty else { return }
            try add(
                .relation, relation.id, FeatureKind(featureClass: .route, kind: route, isArea: false), relation.tags,
                .lines(lines))
        }
    }

    /// Writes what waits for the end: the relations (in file order), and the region's box when
    /// the header has none.
    mutating func finish(_ relations: [OSMRelation]) throws {
        for relation in relations { try add(relation) }
        try writeCoast(
            in: headerBounds
                ?? CoordinateBounds(
                    southWest: Coordinate(latitude: extent.south, longitude: extent.west),
                    northEast: Coordinate(latitude: extent.north, longitude: extent.east)))
        if let newest, elements != nil {
            // Where the header does not say how recent the data is, its newest element does.
            try database.run(
                "UPDATE osm_region SET timestamp = coalesce(timestamp, ?) WHERE source = ?",
                [.integer(newest), .integer(sourceID)])
        }
        guard headerBounds == nil else { return }
        let box =
            extent.south <= extent.north
            ? (extent.south, extent.west, extent.north, extent.east) : (-90.0, -180.0, 90.0, 180.0)
        try database.run(
            "UPDATE source SET min_lat = ?, min_lon = ?, max_lat = ?, max_lon = ? WHERE id = ?",
            [.real(box.0), .real(box.1), .real(box.2), .real(box.3), .integer(sourceID)])
    }
}
