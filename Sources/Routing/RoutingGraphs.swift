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
        /// Seconds from the start of the refresh to this mode's hierarchy, reading the road
        /// network included (the modes are built at once, on all cores).
        public var seconds: Double
        /// Nodes of the turn graph (road edges).
        public var nodes: Int
        /// Arcs, shortcuts included.
        public var arcs: Int
        /// Whether the stored hierarchy's contraction order was kept
        /// (``ContractionHierarchy/init(graph:keeping:)``) rather than made afresh.
        public var keptOrder = false
    }

    /// Builds the hierarchy of every mode with roads in the store at `storePath` whose stored
    /// one is missing or stale, and writes them into it in one atomic update (a killed build
    /// leaves the store and its previous graphs as they were); nothing when all are current.
    /// The modes are built on all cores at once (``refresh(store:writer:progress:)``).
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
    /// stored one, keeping the stored hierarchy's contraction order where it can
    /// (``ContractionHierarchy/init(graph:keeping:)``), and removes the graph of a mode with no
    /// roads left (or of a mode no longer known); the others are kept as they are. The road
    /// network is read once; each mode's graph is built once, fingerprinted, and contracted
    /// only when it changed, the modes on all cores at once (one graph a core in memory), and
    /// written in turn. `progress` is called, one call at a time, as each mode's contraction
    /// starts.
    ///
    /// - Returns: the hierarchies built, in the modes' order.
    public static func refresh(
        store: MapStore, writer: RoadNetwork.GraphWriter, progress: ((TravelProfile.Mode) -> Void)? = nil
    ) throws -> [Built] {
        let stored = try store.roadGraphFingerprints()
        for mode in stored.keys where TravelProfile.Mode(rawValue: mode) == nil { try writer.remove(mode: mode) }
        let start = Date()
        let modes = TravelProfile.Mode.allCases
        let network = try RoadGraph.Network(store: store, heights: modes.contains { TravelProfile($0).climbs })
        // The stored orders, read before the store is left to the builders.
        let orderings = try modes.map { mode in
            stored[mode.rawValue] == nil
                ? nil
                : try store.roadGraph(mode: mode.rawValue).flatMap {
                    ContractionHierarchy.ordering(serialized: $0.data)
                }
        }
        let outcomes = Outcomes(count: modes.count)
        nonisolated(unsafe) let report = progress
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: modes.count) { index in
            let mode = modes[index]
            let graph = RoadGraph(network: network, profile: TravelProfile(mode))
            guard graph.edgeCount > 0 else { return outcomes.set(index, .noRoads) }
            let fingerprint = graph.fingerprint()
            guard stored[mode.rawValue] != fingerprint else { return outcomes.set(index, .current) }
            lock.withLock { report?(mode) }
            let hierarchy = ContractionHierarchy(graph: graph, keeping: orderings[index])
            outcomes.set(
                index,
                .built(
                    RoadNetwork.StoredGraph(
                        mode: mode.rawValue, fingerprint: fingerprint, data: hierarchy.serialized()),
                    Built(
                        mode: mode, seconds: Date().timeIntervalSince(start), nodes: hierarchy.nodeCount,
                        arcs: hierarchy.arcCount, keptOrder: hierarchy.keptOrder)))
        }
        var built: [Built] = []
        for (index, mode) in modes.enumerated() {
            switch outcomes.get(index) {
            case .noRoads: if stored[mode.rawValue] != nil { try writer.remove(mode: mode.rawValue) }
            case .current: break
            case .built(let graph, let summary):
                try writer.replace(graph)
                built.append(summary)
            }
        }
        return built
    }

    /// What became of one mode's graph in ``refresh(store:writer:progress:)``.
    private enum Outcome: Sendable {
        /// The mode has no roads: its stored graph, if any, goes.
        case noRoads
        /// The stored graph is this graph's.
        case current
        /// A hierarchy built, to be written.
        case built(RoadNetwork.StoredGraph, Built)
    }

    /// The modes' outcomes, each set by the thread that built it.
    private final class Outcomes: @unchecked Sendable {
        private var values: [Outcome]
        private let lock = NSLock()

        init(count: Int) { values = Array(repeating: .current, count: count) }
        func set(_ index: Int, _ value: Outcome) { lock.withLock { values[index] = value } }
        func get(_ index: Int) -> Outcome { lock.withLock { values[index] } }
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
