import Foundation
import MapData

/// Each travel mode's routing graph kept in the store: its contraction hierarchy, built from
/// the store's road network after an import and written into the store atomically, loaded to
/// route, and found stale when the network or the profiles' rules changed since (its
/// fingerprint no longer matches the graph's).
public enum RoutingGraphs {
    /// The command that builds them, for notes.
    public static let buildCommand = "openmaps import --routing"

    /// One mode's hierarchy as built: seconds, the turn graph's nodes (road edges) and arcs.
    public struct Built: Sendable {
        /// The way of travel.
        public var mode: TravelProfile.Mode
        /// Seconds the build took.
        public var seconds: Double
        /// Nodes of the turn graph (road edges).
        public var nodes: Int
        /// Arcs, shortcuts included.
        public var arcs: Int
    }

    /// Builds the hierarchy of every mode with roads in the store at `storePath` whose stored
    /// one is missing or stale, and writes them into it in one atomic update (a killed build
    /// leaves the store and its previous graphs as they were); nothing when all are current.
    /// One mode's graph is in memory at a time.
    ///
    /// - Returns: the hierarchies built.
    public static func build(storePath: String, progress: ((TravelProfile.Mode) -> Void)? = nil) throws -> [Built] {
        let store = try MapStore(path: storePath)
        let fingerprints = try fingerprints(of: store)
        guard try isStale(store, fingerprints) else { return [] }
        var built: [Built] = []
        try RoadNetwork.updateGraphs(into: storePath) { store, writer in
            built = try refresh(store: store, writer: writer, fingerprints: fingerprints, progress: progress)
        }
        return built
    }

    /// Inside an update of the store (``RoadNetwork/updateGraphs(into:_:)``, an OSM change
    /// file's): builds again the hierarchy of each mode whose roads changed, and removes the
    /// graph of a mode with no roads left; the others are kept as they are.
    ///
    /// - Parameter fingerprints: each mode's graph fingerprint, when already known.
    /// - Returns: the hierarchies built.
    public static func refresh(
        store: MapStore, writer: RoadNetwork.GraphWriter, fingerprints known: [TravelProfile.Mode: String]? = nil,
        progress: ((TravelProfile.Mode) -> Void)? = nil
    ) throws -> [Built] {
        let fingerprints = try known ?? fingerprints(of: store)
        let stored = try store.roadGraphFingerprints()
        for mode in stored.keys where TravelProfile.Mode(rawValue: mode).flatMap({ fingerprints[$0] }) == nil {
            try writer.remove(mode: mode)
        }
        var built: [Built] = []
        for mode in TravelProfile.Mode.allCases {
            guard let fingerprint = fingerprints[mode], stored[mode.rawValue] != fingerprint else { continue }
            progress?(mode)
            let start = Date()
            // Read again rather than kept: the ways are not in memory while a hierarchy is
            // contracted.
            let hierarchy = ContractionHierarchy(graph: try RoadGraph(store: store, profile: TravelProfile(mode)))
            try writer.replace(
                RoadNetwork.StoredGraph(mode: mode.rawValue, fingerprint: fingerprint, data: hierarchy.serialized()))
            built.append(
                Built(
                    mode: mode, seconds: Date().timeIntervalSince(start), nodes: hierarchy.nodeCount,
                    arcs: hierarchy.arcCount))
        }
        return built
    }

    /// Each mode with roads in `store`, its graph's fingerprint.
    static func fingerprints(of store: MapStore) throws -> [TravelProfile.Mode: String] {
        var fingerprints: [TravelProfile.Mode: String] = [:]
        for mode in TravelProfile.Mode.allCases {
            let graph = try RoadGraph(store: store, profile: TravelProfile(mode))
            if graph.edgeCount > 0 { fingerprints[mode] = graph.fingerprint() }
        }
        return fingerprints
    }

    /// True when a stored graph is missing or stale, or a mode with no roads has one.
    private static func isStale(_ store: MapStore, _ fingerprints: [TravelProfile.Mode: String]) throws -> Bool {
        let stored = try store.roadGraphFingerprints()
        return fingerprints.contains { stored[$0.key.rawValue] != $0.value }
            || stored.keys.contains { TravelProfile.Mode(rawValue: $0).flatMap { fingerprints[$0] } == nil }
    }

    /// A router for `mode` on the store's road network, through its stored hierarchy when that
    /// was built from this very graph; otherwise by the plain search, with a note saying so and
    /// how to build it.
    public static func router(store: MapStore, mode: TravelProfile.Mode) throws -> (
        router: Router, note: Route.Note?
    ) {
        let graph = try RoadGraph(store: store, profile: TravelProfile(mode))
        guard graph.edgeCount > 0 else { return (Router(graph: graph), nil) }
        let stored = try store.roadGraph(mode: mode.rawValue)
        if let stored, stored.fingerprint == graph.fingerprint(),
            let hierarchy = try? ContractionHierarchy(serialized: stored.data), hierarchy.nodeCount == graph.edgeCount
        {
            return (Router(graph: graph, hierarchy: hierarchy), nil)
        }
        return (Router(graph: graph), stored == nil ? .routingGraphMissing(mode) : .routingGraphStale(mode))
    }
}
