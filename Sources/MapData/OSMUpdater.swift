import Foundation
import GeoCore
import OSMReader

/// Applies OpenStreetMap change files (`.osc`, ``OSMChangeFile``) to an imported region, so
/// that the store afterwards holds what a fresh import of the changed extract would: features,
/// tags, the search index, the road network and (through `routing`) the routing graphs.
///
/// The region's elements are kept in the store (``OSMElementStore``); a change rebuilds what
/// it touches: a created, modified or deleted node, the ways built from a node that moved,
/// and the relations with a changed member. Changes are merged as osmium merges them: for
/// each element the highest version wins (the last in file order where versions tie or
/// are missing), and a change older than what the region holds, or already applied, is left out,
/// so a change file applied twice or out of order changes nothing more. A deletion of an
/// element the region does not hold is left out too, and a modification of one is a creation
/// (a change file of a larger area names elements outside the extract).
public enum OSMUpdater {
    /// What an update did.
    public struct Report: Sendable, Equatable {
        /// The region updated.
        public var region: String
        /// Changes in the file (an element changed twice counted twice).
        public var changes = 0
        /// Elements created, modified and deleted.
        public var created = 0
        public var modified = 0
        public var deleted = 0
        /// Changes left out because the region holds that version or a newer one.
        public var outdated = 0
        /// Modifications of elements the region did not hold (applied as creations).
        public var added = 0
        /// Deletions of elements the region does not hold (already deleted, or never in it).
        public var absent = 0
        /// Elements built again: changed ones, ways on moved nodes, relations with changed members.
        public var rebuiltNodes = 0
        public var rebuiltWays = 0
        public var rebuiltRelations = 0
        /// Features removed and written.
        public var featuresRemoved = 0
        public var featuresWritten = 0
    }

    /// Applies the change files at `paths`, in that order, to region `region` of the store at
    /// `storePath`, in one atomic update: a broken file, a failure or a kill changes nothing.
    /// Several files are merged as one (as `osmium merge-changes` merges them: each element's
    /// highest version, the last given where versions tie), so consecutive change files cost
    /// one update and one build of the routing graphs.
    ///
    /// - Parameters:
    ///   - region: the region to update (default: the store's only OpenStreetMap region, or
    ///     the one holding most of the elements the files modify and delete).
    ///   - routing: called inside the update once the changes are in, with the store as it
    ///     now is and a writer of its routing graphs (``RoutingGraphs``' `refresh` builds
    ///     again those whose roads changed).
    ///   - replication: the feed and sequences the files are, recorded with the changes in the
    ///     same transaction; refused unless the region stands at the sequence before the first
    ///     on that feed (or on none), so no sequence is applied twice or skipped.
    /// - Throws: ``DataError``: `.invalidData` naming a file that is not a readable change file
    ///   (the ``OSMReaderError`` underneath says where), `.missingData` when no region fits (it
    ///   names the elements the region does not hold), or the store cannot be written.
    public static func apply(
        _ paths: [String], to storePath: String, region: String? = nil,
        replication: OSMReplication.Step? = nil,
        routing: ((MapStore, RoadNetwork.GraphWriter) throws -> Void)? = nil
    ) throws -> Report {
        // An update changes a store that is there: none is made for it.
        _ = try MapStore(path: storePath)
        var read: [OSMChange] = []
        var fingerprints: [String] = []
        for path in paths {
            do { read += try OSMChangeFile.read(path) } catch {
                throw DataError(
                    .invalidData, message: "cannot be read as a change file", path: path, underlying: error)
            }
            fingerprints.append(try FileFingerprint.of(path))
        }
        // What errors name: the feed's sequences, else the files.
        let shown = replication.map { "\($0.feed) \($0.sequences)" } ?? named(paths)
        var report = Report(region: region ?? "")
        report.changes = read.count
        let changes = merged(read)
        try StoreUpdate.applyInPlace(to: storePath) { database in
            // A feed's sequence goes to its region whatever it touches: one that touches nothing
            // the region holds is applied (its creations kept), not refused, or the feed would
            // stop there.
            let (source, name) = try chooseRegion(
                region, for: changes, in: database, path: shown, refusingForeign: replication == nil)
            report.region = name
            if let replication { try follow(replication, source: source, name: name, in: database, path: shown) }
            var update = RegionUpdate(source: source, name: name, path: shown, database: database)
            try update.apply(changes, report: &report)
            try database.run(
                "UPDATE source SET fingerprint = ? WHERE id = ?",
                [.text(try updatedFingerprint(source: source, changes: fingerprints, in: database)), .integer(source)])
            try database.flush()
            try routing?(MapStore(database: database, path: storePath), try RoadNetwork.GraphWriter(database: database))
        }
        return report
    }

    /// Change files as messages name them: the one, or how many and the first and last.
    public static func named(_ paths: [String]) -> String {
        paths.count == 1 ? paths[0] : "\(paths.count) files (\(paths.first ?? "") … \(paths.last ?? ""))"
    }

    /// Checks that region `source` stands right before `step`'s first sequence on its feed, and
    /// records it as at `step`'s last (inside the update's transaction).
    private static func follow(
        _ step: OSMReplication.Step, source: Int64, name: String, in database: StoreConnection, path: String
    ) throws {
        let row = try database.map("SELECT replication, sequence FROM osm_region WHERE source = ?", [.integer(source)])
        {
            ($0.text(0), $0.integer(1))
        }.first
        if let (feed, sequence) = row, let sequence, feed == nil || feed == step.feed, sequence != step.first - 1 {
            throw DataError(
                .invalidData,
                message: sequence >= step.first
                    ? "region '\(name)' already holds sequence \(step.first) of \(step.feed) (it stands at \(sequence))"
                    : "region '\(name)' stands at sequence \(sequence) of \(step.feed): applying \(step.first) would skip \(sequence + 1)\(step.first - 1 > sequence + 1 ? " to \(step.first - 1)" : "")",
                path: path)
        }
        try database.run(
            "UPDATE osm_region SET replication = ?, sequence = ?, timestamp = ? WHERE source = ?",
            [.text(step.feed), .integer(step.state.sequence), .integer(step.state.timestamp), .integer(source)])
    }

    /// The change that stands for each element: the highest version, the last in file order
    /// where versions tie or are missing; a modification of an element an earlier change
    /// created (in another file of the same update) stands as its creation. Ordered by type
    /// (nodes first) and id.
    static func merged(_ changes: [OSMChange]) -> [OSMChange] {
        var latest: [ElementKey: OSMChange] = [:]
        var created: Set<ElementKey> = []
        for change in changes {
            let key = ElementKey(type: change.element.type, id: change.element.id)
            if change.action == .create { created.insert(key) }
            if let kept = latest[key], let old = kept.element.version, let new = change.element.version, new < old {
                continue
            }
            latest[key] = change
        }
        for key in created where latest[key]?.action == .modify { latest[key]?.action = .create }
        return latest.values.sorted {
            ($0.element.type.rawValue, $0.element.id) < ($1.element.type.rawValue, $1.element.id)
        }
    }

    /// An element's type and id.
    struct ElementKey: Hashable {
        var type: OSMElementType
        var id: Int64
    }

    /// The region the changes go to, as its source id and name.
    private static func chooseRegion(
        _ asked: String?, for changes: [OSMChange], in database: StoreConnection, path: String,
        refusingForeign: Bool
    ) throws -> (Int64, String) {
        let regions = try OSMElementStore.regions(in: database)
        guard !regions.isEmpty else {
            throw DataError(
                .missingData, message: "the store holds no OpenStreetMap region to apply the changes to", path: path)
        }
        let candidates =
            try asked.map { try [OSMElementStore.region(named: $0, among: regions, path: path)] } ?? regions
        // Elements the file changes that must already be there: its modifications and deletions.
        let expected = changes.filter { $0.action != .create }
        var best: (id: Int64, name: String, held: Int)?
        for candidate in candidates {
            guard try OSMElementStore.holdsElements(source: candidate.id, in: database) else {
                if asked != nil || candidates.count == 1 {
                    throw DataError(
                        .missingData,
                        message:
                            "region '\(candidate.name)' was imported before the store kept its elements for updates: import its extract again, then apply the changes",
                        path: path)
                }
                continue
            }
            let held = try heldCount(expected, source: candidate.id, in: database)
            if best == nil || held > best!.held { best = (candidate.id, candidate.name, held) }
        }
        guard let best else {
            throw DataError(
                .missingData, message: "no region of the store keeps its elements for updates: import it again",
                path: path)
        }
        if refusingForeign && !expected.isEmpty && best.held == 0 {
            let named = expected.prefix(3).map { "\($0.element.type)/\($0.element.id)" }.joined(separator: ", ")
            let scope = asked == nil && candidates.count > 1 ? "any region of the store" : "region '\(best.name)'"
            throw DataError(
                .missingData,
                message:
                    "none of the \(expected.count) elements the changes modify or delete (\(named)\(expected.count > 3 ? ", …" : "")) is in \(scope): they are changes of another region",
                path: path)
        }
        return (best.id, best.name)
    }

    /// How many of `changes`' elements the region holds.
    private static func heldCount(_ changes: [OSMChange], source: Int64, in database: StoreConnection) throws -> Int {
        var count = 0
        for type in OSMElementType.allCases {
            let ids = changes.filter { $0.element.type == type }.map(\.element.id)
            count += try OSMElementStore.versions(type, ids, source: source, in: database).count
        }
        return count
    }

    /// The region's fingerprint after these change files (their fingerprints, in order): its
    /// import's, then a hash of every change applied since (`size:crc/version+hash`), each
    /// file's folded into the one before, so caches keyed by the data follow the update.
    private static func updatedFingerprint(source: Int64, changes: [String], in database: StoreConnection) throws
        -> String
    {
        var fingerprint =
            try database.map("SELECT fingerprint FROM source WHERE id = ?", [.integer(source)]) { $0.text(0) }.first
            .flatMap { $0 } ?? ""
        let base = fingerprint.split(separator: "+", maxSplits: 1).first.map(String.init) ?? fingerprint
        for change in changes {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in (fingerprint + "\u{1F}" + change).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            fingerprint = base + "+" + String(hash, radix: 16)
        }
        return fingerprint
    }
}

/// One change file's application to one region (``OSMUpdater``).
private struct RegionUpdate {
    let source: Int64
    let name: String
    let path: String
    let database: StoreConnection

    /// The region's block of feature ids (``FeatureWriter/idBlock(of:)``), as SQL values.
    var block: [StoreValue] {
        let ids = FeatureWriter.idBlock(of: source)
        return [.integer(ids.lowerBound), .integer(ids.upperBound)]
    }

    /// The id after the region's last feature.
    func nextFeatureID() throws -> Int64 {
        try database.map("SELECT max(id) FROM feature WHERE id BETWEEN ? AND ?", block) { $0.integer(0) }.first
            .flatMap { $0 }.map { $0 + 1 } ?? FeatureWriter.idBlock(of: source).lowerBound
    }

    /// Removes features `ids` with their boxes, pieces and index entries.
    func deleteFeatures(_ ids: some Collection<Int64>) throws {
        try OSMElementStore.inBatches(ids) { marks, values in
            for sql in [
                "DELETE FROM feature_piece_box WHERE id IN (SELECT id FROM feature_piece WHERE feature IN (\(marks)))",
                "DELETE FROM feature_piece WHERE feature IN (\(marks))",
                "DELETE FROM feature_box WHERE id IN (\(marks))",
                "DELETE FROM search_index WHERE rowid IN (\(marks))", "DELETE FROM feature WHERE id IN (\(marks))",
            ] {
                try database.run(sql, values)
            }
        }
    }

    mutating func apply(_ changes: [OSMChange], report: inout OSMUpdater.Report) throws {
        // Which changes apply, against the versions the region holds.
        var applied: [OSMChange] = []
        for type in OSMElementType.allCases {
            let ofType = changes.filter { $0.element.type == type }
            let held = try OSMElementStore.versions(type, ofType.map(\.element.id), source: source, in: database)
            for change in ofType {
                let id = change.element.id
                guard let heldVersion = held[id] else {
                    guard change.action != .delete else {
                        report.absent += 1
                        continue
                    }
                    if change.action == .modify { report.added += 1 }
                    report.created += 1
                    applied.append(change)
                    continue
                }
                if let version = change.element.version, let heldVersion {
                    // A deletion carries the deleted version (osmium's, osmosis's next one);
                    // a creation or modification of the version held is already in.
                    let isNew = change.action == .delete ? version >= heldVersion : version > heldVersion
                    guard isNew else {
                        report.outdated += 1
                        continue
                    }
                }
                switch change.action {
                case .delete: report.deleted += 1
                case .create, .modify: report.modified += 1
                }
                applied.append(change)
            }
        }
        func ids(_ type: OSMElementType) -> Set<Int64> {
            Set(applied.filter { $0.element.type == type }.map(\.element.id))
        }
        let changedNodes = ids(.node)
        let changedWays = ids(.way)
        // What the changes touch, found in the region as it was.
        let ways = changedWays.union(
            try OSMElementStore.ways(using: changedNodes, source: source, in: database))
        let relations = ids(.relation).union(
            try OSMElementStore.relations(
                withMemberWays: ways, nodes: changedNodes, source: source, in: database))
        report.rebuiltNodes = changedNodes.count
        report.rebuiltWays = ways.count
        report.rebuiltRelations = relations.count
        let coastBefore = try touchesCoastline(ways)

        // The elements as they now are.
        for type in OSMElementType.allCases {
            try OSMElementStore.delete(type, ids(type), source: source, in: database)
        }
        let elements = try OSMElementStore.Writer(database: database, source: source)
        for change in applied where change.action != .delete { try elements.write(change.element) }
        try database.flush()

        report.featuresRemoved = try removeDerived(nodes: changedNodes, ways: ways, relations: relations)
        let nextFeature = try nextFeatureID()
        report.featuresWritten = try rebuild(
            nodes: applied.compactMap {
                guard $0.action != .delete, case .node(let node) = $0.element else { return nil }
                return node
            }, ways: ways, relations: relations, nextFeature: nextFeature, report: &report)
        try database.flush()
        if database.engine == .postgis { try gatherWords() }
        if try !OSMElementStore.hasHeaderBounds(source: source, in: database) {
            try OSMElementStore.fitBoundsToNodes(source: source, in: database)
        }
        if try coastBefore || touchesCoastline(ways) { try rebuildCoast() }
    }

    /// True when one of `ways`, as the region now holds them, is a coastline.
    private func touchesCoastline(_ ways: Set<Int64>) throws -> Bool {
        try OSMElementStore.ways(ways, source: source, in: database).values.contains {
            RegionWriter.isCoastline($0.tags)
        }
    }

    /// The region's land and sea made again from all its coastline ways, as the import makes
    /// them (``RegionWriter/writeCoast(in:)``).
    private func rebuildCoast() throws {
        let old = try database.map(
            "SELECT id FROM feature WHERE id BETWEEN ? AND ? AND osm_type IS NULL AND "
                + "((class = ? AND kind = ?) OR (class = ? AND kind = ?))",
            block + [
                .text(FeatureKind.extractLand.featureClass.rawValue), .text(FeatureKind.extractLand.kind),
                .text(FeatureKind.extractSea.featureClass.rawValue), .text(FeatureKind.extractSea.kind),
            ]
        ) { $0.integer(0) ?? 0 }
        try deleteFeatures(old)
        var coastline: [OSMWay] = []
        try database.forEachRow("SELECT id, nodes, tags FROM osm_way WHERE source = ? ORDER BY id", [.integer(source)])
        {
            row in
            guard let tags = row.withBlob(2, OSMElementStore.decodeTags).flatMap({ $0 }), RegionWriter.isCoastline(tags)
            else { return }
            coastline.append(
                OSMWay(id: row.integer(0) ?? 0, nodeIDs: row.withBlob(1, RoadNetwork.decodeNodes) ?? [], tags: tags))
        }
        let locations = MemoryNodeLocations()
        for node in try OSMElementStore.nodes(Set(coastline.flatMap(\.nodeIDs)), source: source, in: database).values {
            locations.set(node.id, node.coordinate)
        }
        var writer = try RegionWriter(
            updating: source, name: name, path: path, database: database, nodes: locations, members: [],
            nextFeature: try nextFeatureID())
        for way in coastline { writer.collectCoastline(way) }
        let box = try database.map(
            "SELECT min_lat, min_lon, max_lat, max_lon FROM source WHERE id = ?", [.integer(source)]
        ) { row in
            CoordinateBounds(
                southWest: Coordinate(latitude: row.real(0) ?? -90, longitude: row.real(1) ?? -180),
                northEast: Coordinate(latitude: row.real(2) ?? 90, longitude: row.real(3) ?? 180))
        }.first
        if let box { try writer.writeCoast(in: box) }
    }

    /// Removes the features and road rows built from these elements.
    ///
    /// - Returns: the features removed.
    private func removeDerived(nodes: Set<Int64>, ways: Set<Int64>, relations: Set<Int64>) throws -> Int {
        var features: [Int64] = []
        // The region's own features kept by their id block here, not in SQL: with the block in
        // the query PostgreSQL's generic plan walked the whole block by the primary key and
        // tested each row against the list of ids (0.3 s a batch on Monaco).
        let region = FeatureWriter.idBlock(of: source)
        for (type, ids) in [(OSMElementType.node, nodes), (.way, ways), (.relation, relations)] {
            try OSMElementStore.inBatches(ids) { marks, values in
                features += try database.map(
                    "SELECT id FROM feature WHERE osm_type = ? AND osm_id IN (\(marks))", [.text(type.code)] + values
                ) { $0.integer(0) ?? 0 }.filter { region.contains($0) }
            }
        }
        try deleteFeatures(Set(features))
        for (table, ids) in [("road_node", nodes), ("road_way", ways), ("road_restriction", relations)] {
            try database.execute("CREATE INDEX IF NOT EXISTS \(table)_osm ON \(table)(source, osm_id)")
            try OSMElementStore.inBatches(ids) { marks, values in
                try database.run(
                    "DELETE FROM \(table) WHERE source = ? AND osm_id IN (\(marks))", [.integer(source)] + values)
            }
        }
        return features.count
    }

    /// Builds again the features and road rows of the changed nodes (with their tags, from the
    /// change file) and of the touched ways and relations (from the region's elements).
    ///
    /// - Returns: the features written.
    private func rebuild(
        nodes changed: [OSMNode], ways wayIDs: Set<Int64>, relations relationIDs: Set<Int64>, nextFeature: Int64,
        report: inout OSMUpdater.Report
    ) throws -> Int {
        let relations = try OSMElementStore.relations(relationIDs, source: source, in: database)
        let members = Set(
            relations.values.filter(RegionWriter.buildsFromMembers).flatMap { relation in
                relation.members.filter { $0.type == .way }.map(\.id)
            })
        let ways = try OSMElementStore.ways(wayIDs.union(members), source: source, in: database)
        let nodeIDs = Set(ways.values.flatMap(\.nodeIDs))
        let locations = MemoryNodeLocations()
        for node in try OSMElementStore.nodes(nodeIDs, source: source, in: database).values {
            locations.set(node.id, node.coordinate)
        }
        var writer = try RegionWriter(
            updating: source, name: name, path: path, database: database, nodes: locations, members: members,
            nextFeature: nextFeature)
        for node in changed { try writer.add(node: node) }
        for id in ways.keys.sorted() {
            guard let way = ways[id] else { continue }
            if wayIDs.contains(id) { try writer.add(way) } else { writer.keepGeometry(of: way) }
        }
        for id in relations.keys.sorted() {
            if let relation = relations[id] { try writer.add(relation) }
        }
        return writer.report.features
    }

    /// PostGIS: the region's distinct index words, gathered again from its documents (words of
    /// removed features go, new ones come).
    private func gatherWords() throws {
        try database.run("DELETE FROM search_word WHERE source = ?", [.integer(source)])
        try database.run(
            "INSERT INTO search_word (source, word) SELECT DISTINCT ?::bigint, lexeme FROM search_index, "
                + "unnest(document) WHERE rowid BETWEEN ? AND ?",
            [.integer(source)] + block)
    }

}
