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
        /// Seconds this mode's graph and hierarchy took to build (on one core: the modes are
        /// built at once, on several cores, after the road network is read for them all).
        public var seconds: Double
        /// Nodes of the turn graph (road edges).
        public var nodes: Int
        /// Arcs, shortcuts included.
        public var arcs: Int
        /// Whether the stored hierarchy's contraction order was kept
        /// (``ContractionHierarchy/init(graph:keeping:)``) rather than made afresh.
        public var keptOrder = false
        /// The mode whose hierarchy this one is, its graph being the same (cars and two-wheelers
        /// where no road tells them apart); nil for a hierarchy contracted for this mode.
        public var sameAs: TravelProfile.Mode?
    }

    /// Builds the hierarchy of every mode with roads in the store at `storePath` whose stored
    /// one is missing or stale, and writes them into it in one atomic update (a killed build
    /// leaves the store and its previous graphs as they were); nothing when all are current.
    /// The modes are built on several cores at once (``refresh(store:writer:progress:)``).
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
    /// only when it changed, the modes on several cores at once (``concurrentBuilds(of:modes:)``),
    /// and written in turn. `progress` is called, one call at a time, as each mode's contraction
    /// starts.
    ///
    /// - Returns: the hierarchies built, in the modes' order.
    public static func refresh(
        store: MapStore, writer: RoadNetwork.GraphWriter, progress: ((TravelProfile.Mode) -> Void)? = nil
    ) throws -> [Built] {
        let stored = try store.roadGraphFingerprints()
        for mode in stored.keys where TravelProfile.Mode(rawValue: mode) == nil { try writer.remove(mode: mode) }
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
        /// Builds the graph of `modes[index]`, and its hierarchy when it changed.
        @Sendable func build(_ index: Int) {
            let (mode, start) = (modes[index], Date())
            let graph = RoadGraph(network: network, profile: TravelProfile(mode))
            guard graph.edgeCount > 0 else { return outcomes.set(index, .noRoads) }
            let fingerprint = graph.fingerprint()
            guard stored[mode.rawValue] != fingerprint else { return outcomes.set(index, .current) }
            // A graph the same as another mode's (its fingerprint but for the mode's name) has
            // that mode's hierarchy: contracting is deterministic.
            let sameGraph = String(fingerprint.dropFirst(mode.rawValue.count))
            if case .built(let other, let summary) = outcomes.claim(sameGraph, for: index) {
                var shared = summary
                (shared.mode, shared.seconds, shared.sameAs) = (mode, Date().timeIntervalSince(start), summary.mode)
                let copy = RoadNetwork.StoredGraph(mode: mode.rawValue, fingerprint: fingerprint, data: other.data)
                return outcomes.set(index, .built(copy, shared))
            }
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
        DispatchQueue.concurrentPerform(iterations: concurrentBuilds(of: network, modes: modes.count)) { _ in
            while let index = outcomes.next() { build(index) }
        }
        var built: [Built] = []
        for (index, mode) in modes.enumerated() {
            switch outcomes.get(index) {
            case .noRoads: if stored[mode.rawValue] != nil { try writer.remove(mode: mode.rawValue) }
            case .current, .pending: break
            case .built(let graph, let summary):
                try writer.replace(graph)
                built.append(summary)
            }
        }
        return built
    }

    /// What became of one mode's graph in ``refresh(store:writer:progress:)``.
    private enum Outcome: Sendable {
        /// Not yet built.
        case pending
        /// The mode has no roads: its stored graph, if any, goes.
        case noRoads
        /// The stored graph is this graph's.
        case current
        /// A hierarchy built, to be written.
        case built(RoadNetwork.StoredGraph, Built)
    }

    /// How many modes are built at once: one a core, as many as fit in half the machine's
    /// memory at about a kilobyte a mode for each node of each road in the network (an update
    /// of Monaco's 31,000 took 42 MB more with two modes at once), at least one.
    static func concurrentBuilds(of network: RoadGraph.Network, modes: Int) -> Int {
        concurrentBuilds(references: network.ways.reduce(0) { $0 + $1.nodes.count }, modes: modes)
    }

    /// ``concurrentBuilds(of:modes:)`` for a network whose roads hold `references` nodes.
    static func concurrentBuilds(references: Int, modes: Int) -> Int {
        let fitting = Int(ProcessInfo.processInfo.physicalMemory / 2) / max(1, references * 1024)
        return max(1, min(modes, ProcessInfo.processInfo.activeProcessorCount, fitting))
    }

    /// The modes' outcomes, each set by the thread that built it; the next mode to build; and
    /// which mode contracts each distinct graph.
    private final class Outcomes: @unchecked Sendable {
        private var values: [Outcome]
        private var taken = 0
        /// The mode that contracts each graph, by its fingerprint without the mode's name.
        private var contracting: [String: Int] = [:]
        private let condition = NSCondition()

        init(count: Int) { values = Array(repeating: .pending, count: count) }

        func set(_ index: Int, _ value: Outcome) {
            condition.withLock {
                values[index] = value
                condition.broadcast()
            }
        }

        func get(_ index: Int) -> Outcome { condition.withLock { values[index] } }

        /// The index of a mode no thread has taken yet, nil when all are taken.
        func next() -> Int? {
            condition.withLock {
                guard taken < values.count else { return nil }
                defer { taken += 1 }
                return taken
            }
        }

        /// Nil when no other mode has the graph `graph` (the mode `index` contracts it); else
        /// the outcome of the mode that contracts it, once it has.
        func claim(_ graph: String, for index: Int) -> Outcome? {
            condition.withLock {
                guard let owner = contracting[graph] else {
                    contracting[graph] = index
                    return nil
                }
                while case .pending = values[owner] { condition.wait() }
                return values[owner]
            }
        }
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
