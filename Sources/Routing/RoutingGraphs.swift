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
        // Read again for each graph rather than kept: the ways are not in memory while a
        // hierarchy is contracted.
        func graph(_ mode: TravelProfile.Mode) throws -> RoadGraph {
            try RoadGraph(store: store, profile: TravelProfile(mode))
        }
        // Each mode with roads, its graph's fingerprint; current when the stored one is the same.
        let storedFingerprints = try store.roadGraphFingerprints()
        var fingerprints: [TravelProfile.Mode: String] = [:]
        for mode in TravelProfile.Mode.allCases {
            let graph = try graph(mode)
            if graph.edgeCount > 0 { fingerprints[mode] = graph.fingerprint() }
        }
        let stale = fingerprints.contains { storedFingerprints[$0.key.rawValue] != $0.value }
        // A mode that has no roads any more but a stored graph: that graph goes.
        let removed = storedFingerprints.keys.contains {
            TravelProfile.Mode(rawValue: $0).flatMap { fingerprints[$0] } == nil
        }
        guard stale || removed else { return [] }
        var built: [Built] = []
        try RoadNetwork.writeGraphs(into: storePath) { write in
            for mode in TravelProfile.Mode.allCases {
                guard let fingerprint = fingerprints[mode] else { continue }
                if storedFingerprints[mode.rawValue] == fingerprint, let kept = try store.roadGraph(mode: mode.rawValue)
                {
                    try write(kept)
                    continue
                }
                progress?(mode)
                let start = Date()
                let hierarchy = ContractionHierarchy(graph: try graph(mode))
                try write(
                    RoadNetwork.StoredGraph(mode: mode.rawValue, fingerprint: fingerprint, data: hierarchy.serialized())
                )
                built.append(
                    Built(
                        mode: mode, seconds: Date().timeIntervalSince(start), nodes: hierarchy.nodeCount,
                        arcs: hierarchy.arcCount))
            }
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
