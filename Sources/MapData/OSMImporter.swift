import Foundation
import GeoCore
import OSMReader
import SQLiteKit

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
        public var region: String
        public var features = 0
        public var byClass: [FeatureClass: Int] = [:]
        /// Ways skipped because a node they use is not in the file.
        public var waysWithMissingNodes = 0
        /// Multipolygon relations whose rings could not all be closed (broken rings are left out).
        public var brokenMultipolygons: [Int64] = []
        /// Routable ways and turn restrictions kept for routing.
        public var roadWays = 0
        public var restrictions = 0
    }

    /// Imports `path` into the store at `storePath` as region `region` (default: the file's
    /// name without its extensions, ``regionName(forFile:)``).
    ///
    /// - Parameters:
    ///   - failAfter: throws after this many features (for testing atomicity).
    ///   - progress: called with a phase ("reading", "writing") and the fraction done, 0...1.
    public static func importFile(
        _ path: String, into storePath: String, region: String? = nil, failAfter: Int? = nil,
        progress: ((String, Double) -> Void)? = nil
    ) throws -> Report {
        let name = region ?? regionName(forFile: path)
        let reader = try OSMFile(path: path)
        var nodes: [Int64: Coordinate] = [:]
        var taggedNodes: [OSMNode] = []
        var ways: [OSMWay] = []
        var relations: [OSMRelation] = []
        let fileSize = Double(max(1, reader.fileSize))
        try reader.forEachBlock { block in
            progress?("reading", Double(block.byteOffset) / fileSize)
            for node in block.nodes {
                nodes[node.id] = node.coordinate
                if !node.tags.isEmpty { taggedNodes.append(node) }
            }
            ways += block.ways
            relations += block.relations
        }
        progress?("reading", 1)

        var report = Report(region: name)
        try StoreUpdate.apply(to: storePath) { database in
            try replaceRegion(
                name, path: path, header: reader.header, in: database, nodes: nodes, taggedNodes: taggedNodes,
                ways: ways, relations: relations, report: &report, failAfter: failAfter, progress: progress)
            progress?("writing", 1)
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

    /// Deletes the region's old rows and writes its features.
    private static func replaceRegion(
        _ name: String, path: String, header: OSMHeader, in database: StoreConnection, nodes: [Int64: Coordinate],
        taggedNodes: [OSMNode], ways: [OSMWay], relations: [OSMRelation], report: inout Report, failAfter: Int?,
        progress: ((String, Double) -> Void)?
    ) throws {
        let total = Double(max(1, taggedNodes.count + ways.count + relations.count))
        var seen = 0
        func step() {
            seen += 1
            if seen % 2048 == 0 { progress?("writing", Double(seen) / total) }
        }
        let sourceID = try StoreUpdate.replaceSource(
            named: name, kind: .osm, attribution: "© OpenStreetMap contributors", licence: "ODbL 1.0", path: path,
            bounds: header.bounds ?? extent(of: nodes.values), fingerprint: try FileFingerprint.of(path), in: database)
        var writer = try FeatureWriter(database: database, source: sourceID)
        let roads = try RoadNetwork.Writer(database: database, source: sourceID)
        func add(
            _ type: OSMElementType, _ id: Int64, _ kind: FeatureKind, _ tags: OSMTags, _ geometry: Geometry,
            names: [String]? = nil
        ) throws {
            try writer.write(type: type, id: id, kind: kind, tags: tags, geometry: geometry, names: names)
            report.features += 1
            report.byClass[kind.featureClass, default: 0] += 1
            if let failAfter, report.features >= failAfter {
                throw DataError(.interrupted, message: "import stopped after \(failAfter) features (test)", path: path)
            }
        }
        for node in taggedNodes {
            step()
            if let kind = FeatureClassifier.classify(node.tags) {
                try add(.node, node.id, kind, node.tags, .point(node.coordinate))
            }
        }
        var wayGeometry: [Int64: RingAssembler.Way] = [:]
        for way in ways {
            step()
            let coordinates = way.nodeIDs.compactMap { nodes[$0] }
            guard coordinates.count == way.nodeIDs.count, coordinates.count >= 2 else {
                report.waysWithMissingNodes += 1
                // A road crossing the extract's edge is still a road up to it: its runs of
                // nodes inside are kept for routing, as routers keep them.
                if RoadNetwork.isRoutable(way.tags) {
                    for run in Self.runsInside(way.nodeIDs, nodes) {
                        try roads.write(way: way, nodeIDs: run.ids, points: run.points)
                        report.roadWays += 1
                    }
                }
                continue
            }
            wayGeometry[way.id] = RingAssembler.Way(id: way.id, nodeIDs: way.nodeIDs, coordinates: coordinates)
            if RoadNetwork.isRoutable(way.tags) {
                try roads.write(way: way, nodeIDs: way.nodeIDs, points: coordinates)
                report.roadWays += 1
            }
            guard let kind = FeatureClassifier.classify(way.tags) else { continue }
            let closed = way.nodeIDs.count >= 4 && way.nodeIDs.first == way.nodeIDs.last
            try add(.way, way.id, kind, way.tags, kind.isArea && closed ? .polygon([coordinates]) : .line(coordinates))
            if let cycling = FeatureClassifier.cyclingKind(way.tags), !(kind.isArea && closed) {
                // The bicycling layer's copy of the way: no names, so search finds the road once.
                try add(
                    .way, way.id, FeatureKind(featureClass: .cycling, kind: cycling, isArea: false), [],
                    .line(coordinates), names: [])
            }
        }
        for node in taggedNodes { try roads.write(node: node) }
        for relation in relations {
            step()
            let type = relation.tags.first { $0.key == "type" }?.value
            if type == "restriction", try roads.write(restriction: relation) { report.restrictions += 1 }
            if type == "multipolygon" || type == "boundary" {
                guard let kind = FeatureClassifier.classify(relation.tags.filter { $0.key != "type" }) else { continue }
                let members = relation.members.filter {
                    $0.type == .way && ($0.role == "outer" || $0.role == "inner" || $0.role.isEmpty)
                }
                let outer = members.filter { $0.role != "inner" }.compactMap { wayGeometry[$0.id] }
                let inner = members.filter { $0.role == "inner" }.compactMap { wayGeometry[$0.id] }
                let outerRings = RingAssembler.rings(from: outer)
                let innerRings = RingAssembler.rings(from: inner)
                if !outerRings.broken.isEmpty || !innerRings.broken.isEmpty || outer.count + inner.count < members.count
                {
                    report.brokenMultipolygons.append(relation.id)
                }
                guard !outerRings.rings.isEmpty else { continue }
                try add(.relation, relation.id, kind, relation.tags, .polygon(outerRings.rings + innerRings.rings))
            } else if type == "route", let cycling = FeatureClassifier.cyclingRouteKind(relation.tags) {
                let lines = relation.members.filter { $0.type == .way }.compactMap { wayGeometry[$0.id]?.coordinates }
                guard !lines.isEmpty else { continue }
                // Labelled with its ref (or its name where it has none); not indexed for search.
                let label = relation.tags.first { $0.key == "ref" } ?? relation.tags.first { $0.key == "name" }
                try add(
                    .relation, relation.id, FeatureKind(featureClass: .cycling, kind: cycling, isArea: false),
                    label.map { [(key: "name", value: $0.value)] } ?? [], .lines(lines), names: [])
            } else if type == "route", let route = relation.tags.first(where: { $0.key == "route" })?.value,
                ["bus", "tram", "subway", "train", "light_rail", "ferry", "trolleybus"].contains(route)
            {
                let lines = relation.members.filter { $0.type == .way }.compactMap { wayGeometry[$0.id]?.coordinates }
                guard !lines.isEmpty else { continue }
                try add(
                    .relation, relation.id, FeatureKind(featureClass: .route, kind: route, isArea: false),
                    relation.tags,
                    .lines(lines))
            }
        }
    }

    /// The runs of at least two consecutive nodes of `ids` that the extract holds.
    static func runsInside(_ ids: [Int64], _ nodes: [Int64: Coordinate]) -> [(ids: [Int64], points: [Coordinate])] {
        var runs: [(ids: [Int64], points: [Coordinate])] = []
        var current: (ids: [Int64], points: [Coordinate]) = ([], [])
        for id in ids {
            if let point = nodes[id] {
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
