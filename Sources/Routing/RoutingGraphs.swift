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
        public var mode: TravelProfile.Mode
        public var seconds: Double
        public var nodes: Int
        public var arcs: Int
    }

    /// Builds the hierarchy of every mode with roads in the store at `storePath` whose stored
    /// one is missing or stale, and writes them into it in one atomic update (a killed build
    /// leaves the store and its previous graphs as they were); nothing when all are current.
    ///
    /// - Returns: the hierarchies built.
    public static func build(storePath: String, progress: ((TravelProfile.Mode) -> Void)? = nil) throws -> [Built] {
        let store = try MapStore(path: storePath)
        let (ways, nodes, restrictions) = try (store.roadWays(), store.roadNodes(), store.roadRestrictions())
        var built: [Built] = []
        var stored: [RoadNetwork.StoredGraph] = []
        for mode in TravelProfile.Mode.allCases {
            progress?(mode)
            let start = Date()
            let graph = RoadGraph(ways: ways, nodes: nodes, restrictions: restrictions, profile: TravelProfile(mode))
            guard graph.edgeCount > 0 else { continue }
            let fingerprint = graph.fingerprint()
            if let current = try store.roadGraph(mode: mode.rawValue), current.fingerprint == fingerprint {
                stored.append(current)
                continue
            }
            let hierarchy = ContractionHierarchy(graph: graph)
            stored.append(
                RoadNetwork.StoredGraph(mode: mode.rawValue, fingerprint: fingerprint, data: hierarchy.serialized()))
            built.append(
                Built(
                    mode: mode, seconds: Date().timeIntervalSince(start), nodes: hierarchy.nodeCount,
                    arcs: hierarchy.arcCount))
        }
        if !built.isEmpty { try RoadNetwork.write(stored, into: storePath) }
        return built
    }

    /// A router for `mode` on the store's road network, through its stored hierarchy when that
    /// was built from this very graph; otherwise by the plain search, with a note saying so and
    /// how to build it.
    public static func router(store: MapStore, mode: TravelProfile.Mode) throws -> (router: Router, note: String?) {
        let graph = try RoadGraph(store: store, profile: TravelProfile(mode))
        guard graph.edgeCount > 0 else { return (Router(graph: graph), nil) }
        let stored = try store.roadGraph(mode: mode.rawValue)
        if let stored, stored.fingerprint == graph.fingerprint(),
            let hierarchy = try? ContractionHierarchy(serialized: stored.data), hierarchy.nodeCount == graph.edgeCount
        {
            return (Router(graph: graph, hierarchy: hierarchy), nil)
        }
        let state = stored == nil ? "has no routing graph" : "has a routing graph built from other roads or rules"
        return (
            Router(graph: graph),
            "the store \(state) for \(mode.rawValue): routes are found without it, more slowly; '\(buildCommand)' builds it"
        )
    }
}
