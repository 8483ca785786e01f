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
        var built: [Built] = []
        try RoadNetwork.updateGraphs(into: storePath) { store, writer in
            built = try refresh(store: store, writer: writer, progress: progress)
        }
        return built
    }

    /// Inside an update of the store (``RoadNetwork/updateGraphs(into:_:)``, an OSM change
    /// file's): builds again the hierarchy of each mode whose graph's fingerprint is not the
    /// stored one, and removes the graph of a mode with no roads left (or of a mode no longer
    /// known); the others are kept as they are. Each mode's graph is built once, fingerprinted,
    /// and contracted only when it changed; one is in memory at a time.
    ///
    /// - Returns: the hierarchies built.
    public static func refresh(
        store: MapStore, writer: RoadNetwork.GraphWriter, progress: ((TravelProfile.Mode) -> Void)? = nil
    ) throws -> [Built] {
        let stored = try store.roadGraphFingerprints()
        for mode in stored.keys where TravelProfile.Mode(rawValue: mode) == nil { try writer.remove(mode: mode) }
        var built: [Built] = []
        for mode in TravelProfile.Mode.allCases {
            let start = Date()
            let graph = try RoadGraph(store: store, profile: TravelProfile(mode))
            guard graph.edgeCount > 0 else {
                if stored[mode.rawValue] != nil { try writer.remove(mode: mode.rawValue) }
                continue
            }
            let fingerprint = graph.fingerprint()
            guard stored[mode.rawValue] != fingerprint else { continue }
            progress?(mode)
            let hierarchy = ContractionHierarchy(graph: graph)
            try writer.replace(
                RoadNetwork.StoredGraph(mode: mode.rawValue, fingerprint: fingerprint, data: hierarchy.serialized()))
            built.append(
                Built(
                    mode: mode, seconds: Date().timeIntervalSince(start), nodes: hierarchy.nodeCount,
                    arcs: hierarchy.arcCount))
        }
        return built
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
