import Foundation

/// Contraction hierarchies on the graph of turns: each directed road edge is a node, and each
/// allowed turn from one edge onto the next an arc weighing the turn and the next edge
/// (``RoadGraph/turnWeight(_:_:)`` + ``RoadGraph/edgeWeight``), so that turn costs, turn
/// restrictions and the u-turn rule are kept exactly. Nodes are contracted one by one, least
/// important first (shallow in the hierarchy, few shortcuts for the arcs they remove), adding a
/// shortcut between two neighbours wherever no other path (a witness) is as short. A query
/// then searches only upwards from both ends, a few hundred labels in a city.
public final class ContractionHierarchy: @unchecked Sendable {
    /// Arcs grouped by node: node n's are `first[n]..<first[n+1]`, each to (or from) `node`,
    /// weighing `weight`, skipping `middle` (a shortcut) or -1 (a turn of the graph).
    struct ArcTable {
        var first: [Int32] = []
        var node: [Int32] = []
        var weight: [Float] = []
        var middle: [Int32] = []

        func slots(_ owner: Int32) -> Range<Int> { Int(first[Int(owner)])..<Int(first[Int(owner) + 1]) }

        /// Whether the table is whole for `nodes` nodes: ranges that start at 0, never go back
        /// and end with the arcs, each arc to a node and skipping a node or none.
        func isConsistent(nodes: Int) -> Bool {
            first.count == nodes + 1 && first.first == 0 && Int(first.last ?? -1) == node.count
                && zip(first, first.dropFirst()).allSatisfy { $0 <= $1 } && weight.count == node.count
                && middle.count == node.count && node.allSatisfy({ $0 >= 0 && $0 < nodes })
                && middle.allSatisfy({ $0 >= -1 && $0 < nodes })
        }
    }

    /// Arcs up the hierarchy out of each node (to the nodes contracted after it), and into each
    /// node from above (from the nodes contracted after it): the forward search climbs the
    /// first, the backward search the second, and each stalls by the other.
    var up = ArcTable()
    var down = ArcTable()

    /// Number of nodes (road edges) and of arcs, shortcuts included.
    public var nodeCount: Int { max(0, up.first.count - 1) }
    /// Number of arcs, up and down, shortcuts included.
    public var arcCount: Int { up.node.count + down.node.count }

    // Query state, reused between queries (one at a time: another thread queries a hierarchy
    // of its own, ``sharingArcs()``).
    var forward = SearchLabels()
    private var backward = SearchLabels()
    var generation: UInt32 = 0
    /// How many labels the last point-to-point query took off its two queues (settled, stalled
    /// or superseded): the work a query did, for benchmarks.
    public private(set) var lastQueryPops = 0
    /// The arcs' durations and distances for tables, made on first use and shared with the
    /// hierarchies ``sharingArcs()`` makes.
    private(set) var annotationBox = SharedBox<ArcAnnotations>()
    /// The labels of tables' searches, sized on the first table.
    var tableState = TableSearch(nodes: 0)

    init() {}

    /// A hierarchy on the same arcs, shared and never written after building (copy-on-write
    /// arrays: not copied), with query state of its own, for another thread.
    public func sharingArcs() -> ContractionHierarchy {
        let other = ContractionHierarchy()
        other.up = up
        other.down = down
        other.annotationBox = annotationBox
        return other
    }

    // MARK: Building

    /// An arc of the graph being contracted.
    private struct Arc {
        var node: Int32
        var weight: Float
        var middle: Int32
        /// Turns of the graph the arc stands for: 1 for a turn, a shortcut's two arcs' sum.
        var hops: Int32 = 1
    }

    /// The order a hierarchy's nodes were contracted in, named by their keys
    /// (``RoadGraph/edgeKeys()``): a hierarchy of the changed network keeps it
    /// (``init(graph:keeping:)``), contracting the nodes it holds in the same order, without
    /// working out their priorities again, and placing the new ones among them.
    public struct Ordering: Sendable, Equatable {
        /// The nodes' keys, the first contracted first.
        public var keys: [UInt64]
        /// How many of them were new to a kept order (and placed by their neighbours rather
        /// than by their priority) since the order was last made afresh.
        public var placed: Int

        /// The share of a hierarchy's nodes that may have been placed, over every kept order
        /// since the last made afresh, before the next is made afresh: the kept order was
        /// chosen for the roads as they were, and drifts from what their priorities would
        /// choose as the roads change. (On Monaco, a 2 % change file's kept order answers
        /// with as many labels a query as the original's.)
        public static let placedShareLimit = 0.05
    }

    /// The order the nodes were contracted in (nil for a hierarchy read from bytes).
    public private(set) var ordering: Ordering?
    /// Whether the last hierarchy's order was kept (``init(graph:keeping:)``).
    public private(set) var keptOrder = false

    /// Contracts `graph`'s turn graph, each node by its priority; or, given the `previous`
    /// hierarchy's order, the nodes it holds in that order and each new node just before the
    /// first of its neighbours in it (new roads of their own first, by priority), unless the
    /// new nodes, with those placed so before, are more than ``Ordering/placedShareLimit`` of
    /// the nodes. Any order gives a hierarchy that answers exactly; a kept one spares the
    /// priorities, half of a contraction's work.
    public convenience init(graph: RoadGraph, keeping previous: Ordering? = nil) {
        self.init()
        let keys = graph.edgeKeys()
        var ranks: [Int32]?
        var placed = 0
        if let previous {
            var rankOf: [UInt64: Int32] = [:]
            rankOf.reserveCapacity(previous.keys.count)
            for (rank, key) in previous.keys.enumerated() { rankOf[key] = Int32(rank) }
            // A key found twice (a collision) is the first node's; the other is placed as new.
            let ranked = keys.map { key in rankOf.removeValue(forKey: key) ?? -1 }
            let new = ranked.count { $0 < 0 }
            if Double(previous.placed + new) <= Ordering.placedShareLimit * Double(max(1, keys.count)) {
                placed = previous.placed + new
                keptOrder = true
                ranks = ranked
            }
        }
        let count = graph.edgeCount
        var outs = [[Arc]](repeating: [], count: count)
        var ins = [[Arc]](repeating: [], count: count)
        // Each node's lists at their size from the start (a million small lists grow wastefully).
        var inDegree = [Int32](repeating: 0, count: count)
        /// The turns from `into` onto another edge.
        func turns(from into: Int) -> some Sequence<Int32> {
            graph.outEdges(of: Int(graph.edgeTo[into])).lazy.filter { Int($0) != into && graph.allows(Int32(into), $0) }
        }
        for into in 0..<count {
            var degree = 0
            for out in turns(from: into) {
                degree += 1
                inDegree[Int(out)] += 1
            }
            outs[into].reserveCapacity(degree)
        }
        for node in 0..<count { ins[node].reserveCapacity(Int(inDegree[node])) }
        inDegree = []
        for into in 0..<count {
            for out in turns(from: into) {
                let weight = graph.turnWeight(Int32(into), out) + graph.edgeWeight[Int(out)]
                outs[into].append(Arc(node: out, weight: weight, middle: -1))
                ins[Int(out)].append(Arc(node: Int32(into), weight: weight, middle: -1))
            }
        }
        var contractor = Contractor(outs: outs, ins: ins)
        outs = []
        ins = []
        var up = ArcList()
        var down = ArcList()
        let sequence = contractor.contractAll(up: &up, down: &down, ranks: ranks)
        ordering = Ordering(keys: sequence.map { keys[Int($0)] }, placed: placed)
        self.up = up.compressed(nodes: count)
        up = ArcList()
        self.down = down.compressed(nodes: count)
    }

    /// Arcs as they are found, each with the node it belongs to, in one flat list (no list
    /// per node: a city's turn graph has a million nodes).
    private struct ArcList {
        var owners: [Int32] = []
        var arcs: [Arc] = []

        mutating func append(_ owner: Int32, _ list: [Arc]) {
            for arc in list {
                owners.append(owner)
                arcs.append(arc)
            }
        }

        /// The arcs grouped by owner.
        func compressed(nodes: Int) -> ArcTable {
            var first = [Int32](repeating: 0, count: nodes + 1)
            for owner in owners { first[Int(owner) + 1] += 1 }
            for node in 0..<nodes { first[node + 1] += first[node] }
            var fill = first
            var node = [Int32](repeating: 0, count: arcs.count)
            var weight = [Float](repeating: 0, count: arcs.count)
            var middle = [Int32](repeating: 0, count: arcs.count)
            for (index, arc) in arcs.enumerated() {
                let slot = Int(fill[Int(owners[index])])
                fill[Int(owners[index])] += 1
                node[slot] = arc.node
                weight[slot] = arc.weight
                middle[slot] = arc.middle
            }
            return ArcTable(first: first, node: node, weight: weight, middle: middle)
        }
    }

    /// The nodes an upward search from `starts` settles (the forward search's climb with
    /// `upwards`, else the backward's), each with its weight, stalling on demand: a target's
    /// backward space, met with a point's forward search (``weights(from:to:)``), times the
    /// way there without a query of its own.
    func space(from starts: [(node: Int32, weight: Float)], upwards: Bool) -> [(node: Int32, weight: Float)] {
        prepareQueries()
        generation &+= 1
        var labels = SearchLabels()
        swap(&labels, &forward)
        defer { swap(&labels, &forward) }
        return climb(from: starts, upwards: upwards, labels: &labels, in: generation)
    }

    /// The least weight from `starts` to each target, a target given by its backward space
    /// (``space(from:upwards:)``): the forward search climbs once and every target's space is
    /// looked up in its labels. Infinity for a target it does not meet.
    func weights(from starts: [(node: Int32, weight: Float)], to spaces: [[(node: Int32, weight: Float)]]) -> [Float] {
        prepareQueries()
        generation &+= 1
        let current = generation
        var labels = SearchLabels()
        swap(&labels, &forward)
        defer { swap(&labels, &forward) }
        _ = climb(from: starts, upwards: true, labels: &labels, in: current)
        return spaces.map { space in
            var best = Float.infinity
            for (node, weight) in space where labels.has(node, in: current) {
                best = min(best, labels.cost(node) + weight)
            }
            return best
        }
    }

    /// An upward search to exhaustion with stall on demand, in `labels`.
    private func climb(
        from starts: [(node: Int32, weight: Float)], upwards: Bool, labels: inout SearchLabels, in current: UInt32
    ) -> [(node: Int32, weight: Float)] {
        let (rise, stall) = upwards ? (up, down) : (down, up)
        labels.queue.items.removeAll(keepingCapacity: true)
        for (node, weight) in starts { labels.offer(node, weight, parent: -1, in: current) }
        var settled: [(node: Int32, weight: Float)] = []
        while !labels.queue.isEmpty {
            let (cost, node) = labels.queue.pop()
            guard cost <= labels.cost(node) else { continue }
            settled.append((node, cost))
            // A node reached more cheaply from above is not climbed from.
            let stalled = stall.slots(node).contains { slot in
                let above = stall.node[slot]
                return labels.has(above, in: current) && labels.cost(above) + stall.weight[slot] < cost
            }
            if stalled { continue }
            for slot in rise.slots(node) {
                labels.offer(rise.node[slot], cost + rise.weight[slot], parent: node, in: current)
            }
        }
        return settled
    }

    /// Sizes the query state, once, before the first query.
    func prepareQueries() {
        guard forward.labels.count != nodeCount else { return }
        forward = SearchLabels(nodes: nodeCount)
        backward = SearchLabels(nodes: nodeCount)
    }

    /// The contraction: a dynamic graph of the nodes left, their order, and witness searches.
    private struct Contractor {
        var outs: [[Arc]]
        var ins: [[Arc]]
        var contracted: [Bool]
        /// Each node's depth in the hierarchy so far: one more than its deepest contracted
        /// neighbour's.
        var level: [Int32]
        // Witness search state.
        var distance: [Float]
        var seen: [UInt32]
        var round: UInt32 = 0
        /// The weight through the node being contracted to each of its out-neighbours, for the
        /// search from one in-neighbour: a target is witnessed once a path avoiding the node is
        /// as light (valid where `targetRound` is `round`).
        var targetWeight: [Float]
        var targetRound: [UInt32]
        /// The shortcuts the node being contracted needs (from, to, weight, turns).
        var shortcuts: [(from: Int32, to: Int32, weight: Float, hops: Int32)] = []
        var heap = MinHeap()
        /// Nodes a witness search settles at most (contraction, and estimating a priority).
        static let settleLimit = 200
        static let estimateLimit = 40

        init(outs: [[Arc]], ins: [[Arc]]) {
            self.outs = outs
            self.ins = ins
            contracted = [Bool](repeating: false, count: outs.count)
            level = [Int32](repeating: 0, count: outs.count)
            distance = [Float](repeating: 0, count: outs.count)
            seen = [UInt32](repeating: 0, count: outs.count)
            targetWeight = [Float](repeating: 0, count: outs.count)
            targetRound = [UInt32](repeating: 0, count: outs.count)
        }

        /// Contracts every node, adding to `up` its arcs up (out, to nodes contracted later) and
        /// to `down` its arcs down (in, from nodes contracted later): by priority; or, with
        /// `ranks` (each node's place in a kept order, -1 for a node new to it), the others in
        /// that order, each new node just before the first of its neighbours in it, and the new
        /// nodes with no neighbour in it (roads of their own) first, by priority.
        ///
        /// - Returns: the nodes in the order they were contracted.
        mutating func contractAll(up: inout ArcList, down: inout ArcList, ranks: [Int32]?) -> [Int32] {
            let count = outs.count
            var sequence: [Int32] = []
            sequence.reserveCapacity(count)
            var first: [Int32] = []
            var placed: [(place: Double, node: Int32)] = []
            if let ranks {
                placed.reserveCapacity(count)
                for node in 0..<count {
                    if ranks[node] >= 0 {
                        placed.append((Double(ranks[node]), Int32(node)))
                        continue
                    }
                    let neighbours = (outs[node] + ins[node]).lazy.map { ranks[Int($0.node)] }.filter { $0 >= 0 }
                    if let place = neighbours.min() {
                        placed.append((Double(place) - 0.5, Int32(node)))
                    } else {
                        first.append(Int32(node))
                    }
                }
                placed.sort { ($0.place, $0.node) < ($1.place, $1.node) }
            } else {
                first = (0..<Int32(count)).map { $0 }
            }
            contractByPriority(first, up: &up, down: &down, into: &sequence)
            for (_, node) in placed {
                contract(node, up: &up, down: &down)
                sequence.append(node)
            }
            return sequence
        }

        /// Contracts `nodes`, least priority first, with lazy updates: a node whose priority
        /// grew since it was queued goes back in line.
        mutating func contractByPriority(
            _ nodes: [Int32], up: inout ArcList, down: inout ArcList, into sequence: inout [Int32]
        ) {
            var queue = MinHeap()
            var queued = [Float](repeating: 0, count: outs.count)
            for node in nodes {
                queued[Int(node)] = priority(node)
                queue.push(queued[Int(node)], node)
            }
            while !queue.isEmpty {
                let (entry, node) = queue.pop()
                // An entry superseded by a later one, or for a node already contracted.
                guard !contracted[Int(node)], entry == queued[Int(node)] else { continue }
                let current = priority(node)
                if !queue.isEmpty && current > queue.minimum {
                    queued[Int(node)] = current
                    queue.push(current, node)
                    continue
                }
                contract(node, up: &up, down: &down)
                sequence.append(node)
            }
        }

        /// Contracts `node`: its arcs go into the hierarchy, its neighbours lose their arcs to
        /// it, and a shortcut joins each two of them that no witness joins as lightly.
        mutating func contract(_ node: Int32, up: inout ArcList, down: inout ArcList) {
            var shortcuts: [(from: Int32, to: Int32, weight: Float, hops: Int32)] = []
            swap(&shortcuts, &self.shortcuts)
            defer { swap(&shortcuts, &self.shortcuts) }
            shortcuts.removeAll(keepingCapacity: true)
            witnessShortcuts(node, limit: Self.settleLimit) { shortcuts.append(($0, $1, $2, $3)) }
            up.append(node, outs[Int(node)])
            down.append(node, ins[Int(node)])
            contracted[Int(node)] = true
            // Its neighbours lose their arcs to it, and are a level deeper than it at least.
            let deeper = level[Int(node)] + 1
            for arc in ins[Int(node)] {
                outs[Int(arc.node)].removeAll { $0.node == node }
                level[Int(arc.node)] = max(level[Int(arc.node)], deeper)
            }
            for arc in outs[Int(node)] {
                ins[Int(arc.node)].removeAll { $0.node == node }
                level[Int(arc.node)] = max(level[Int(arc.node)], deeper)
            }
            outs[Int(node)] = []
            ins[Int(node)] = []
            for shortcut in shortcuts {
                add(shortcut.from, shortcut.to, shortcut.weight, middle: node, hops: shortcut.hops)
            }
        }

        /// Adds the arc `from` → `to`, or lowers an existing one's weight.
        mutating func add(_ from: Int32, _ to: Int32, _ weight: Float, middle: Int32, hops: Int32) {
            if let index = outs[Int(from)].firstIndex(where: { $0.node == to }) {
                guard weight < outs[Int(from)][index].weight else { return }
                outs[Int(from)][index] = Arc(node: to, weight: weight, middle: middle, hops: hops)
                if let back = ins[Int(to)].firstIndex(where: { $0.node == from }) {
                    ins[Int(to)][back] = Arc(node: from, weight: weight, middle: middle, hops: hops)
                }
                return
            }
            outs[Int(from)].append(Arc(node: to, weight: weight, middle: middle, hops: hops))
            ins[Int(to)].append(Arc(node: from, weight: weight, middle: middle, hops: hops))
        }

        /// How early `node` should be contracted (lower is earlier): half its depth, plus the
        /// shortcuts it needs over the arcs it removes, plus the turns those shortcuts stand for
        /// over the turns of the arcs it removes. The depth spreads contraction evenly over the
        /// graph, and the two ratios keep the arcs few and short, so that a query's upward
        /// searches settle few nodes (on Porto's walking graph, the median query took 1,004
        /// labels off its queues with the plain edge difference and takes 769 with this).
        mutating func priority(_ node: Int32) -> Float {
            var added = 0
            var addedHops = 0
            witnessShortcuts(node, limit: Self.estimateLimit) { _, _, _, hops in
                added += 1
                addedHops += Int(hops)
            }
            let removed = ins[Int(node)].count + outs[Int(node)].count
            var removedHops = 0
            for arc in ins[Int(node)] { removedHops += Int(arc.hops) }
            for arc in outs[Int(node)] { removedHops += Int(arc.hops) }
            return 0.5 * Float(level[Int(node)]) + Float(added) / Float(max(1, removed))
                + Float(addedHops) / Float(max(1, removedHops))
        }

        /// Calls `shortcut` for each pair of neighbours (u → node → x) with no path from u to x
        /// as short that avoids `node`, found by a search settling at most `limit` nodes.
        mutating func witnessShortcuts(_ node: Int32, limit: Int, _ shortcut: (Int32, Int32, Float, Int32) -> Void) {
            let outArcs = outs[Int(node)]
            guard !outArcs.isEmpty else { return }
            let maxOut = outArcs.map(\.weight).max()!
            for inArc in ins[Int(node)] {
                let source = inArc.node
                let ceiling = inArc.weight + maxOut
                round &+= 1
                var targets = 0
                for outArc in outArcs where outArc.node != source {
                    let target = Int(outArc.node)
                    let via = inArc.weight + outArc.weight
                    if targetRound[target] == round {
                        targetWeight[target] = max(targetWeight[target], via)
                    } else {
                        targetRound[target] = round
                        targetWeight[target] = via
                        targets += 1
                    }
                }
                search(from: source, avoiding: node, ceiling: ceiling, limit: limit, targets: targets)
                for outArc in outArcs where outArc.node != source {
                    let via = inArc.weight + outArc.weight
                    let target = Int(outArc.node)
                    if seen[target] == round && distance[target] <= via { continue }
                    shortcut(source, outArc.node, via, inArc.hops + outArc.hops)
                }
            }
        }

        /// Dijkstra from `source` among the nodes left but `avoiding`, up to `ceiling` or
        /// `limit` settled nodes, or until each of the `targets` nodes marked for this round
        /// (`targetRound`) is reached as lightly as its `targetWeight`: no later label can undo
        /// a witness. Distances in `distance` where `seen` is this round (the caller's, begun by
        /// marking the targets).
        mutating func search(from source: Int32, avoiding: Int32, ceiling: Float, limit: Int, targets: Int) {
            guard targets > 0 else { return }
            var pending = targets
            heap.items.removeAll(keepingCapacity: true)
            distance[Int(source)] = 0
            seen[Int(source)] = round
            heap.push(0, source)
            var settled = 0
            while !heap.isEmpty {
                let (cost, node) = heap.pop()
                guard cost <= distance[Int(node)] else { continue }
                if cost > ceiling { break }
                settled += 1
                if settled > limit { break }
                for arc in outs[Int(node)] where arc.node != avoiding {
                    let next = Int(arc.node)
                    let candidate = cost + arc.weight
                    let unseen = seen[next] != round
                    guard unseen || candidate < distance[next] else { continue }
                    if targetRound[next] == round, candidate <= targetWeight[next],
                        unseen || distance[next] > targetWeight[next]
                    {
                        pending -= 1
                        if pending == 0 {
                            seen[next] = round
                            distance[next] = candidate
                            return
                        }
                    }
                    seen[next] = round
                    distance[next] = candidate
                    heap.push(candidate, arc.node)
                }
            }
        }
    }

    // MARK: Queries

    /// The lightest path from one of `starts` (node, the weight left to its end) to one of
    /// `ends` (node, the weight from its end back to the point: 0 or less), as the nodes (road
    /// edges) in order, and its weight (the start's and end's included); nil when none
    /// connects them.
    func path(from starts: [(node: Int32, weight: Float)], to ends: [(node: Int32, weight: Float)]) -> (
        path: [Int32], weight: Float
    )? {
        search(from: starts, to: ends, unpacking: true)
    }

    /// The weight of the lightest path from one of `starts` to one of `ends` (as ``path(from:to:)``
    /// takes them), without unpacking it; nil when none connects them.
    func weight(from starts: [(node: Int32, weight: Float)], to ends: [(node: Int32, weight: Float)]) -> Float? {
        search(from: starts, to: ends, unpacking: false)?.weight
    }

    /// The bidirectional search of ``path(from:to:)``: the path when `unpacking`, and its weight.
    private func search(
        from starts: [(node: Int32, weight: Float)], to ends: [(node: Int32, weight: Float)], unpacking: Bool
    ) -> (path: [Int32], weight: Float)? {
        prepareQueries()
        generation &+= 1
        let current = generation
        // The sides as locals for the search (no exclusivity checks on each access), put back
        // at the end.
        let (up, down) = (self.up, self.down)
        var forward = SearchLabels()
        var backward = SearchLabels()
        swap(&forward, &self.forward)
        swap(&backward, &self.backward)
        defer {
            swap(&forward, &self.forward)
            swap(&backward, &self.backward)
        }
        forward.queue.items.removeAll(keepingCapacity: true)
        backward.queue.items.removeAll(keepingCapacity: true)
        for (node, weight) in starts { forward.offer(node, weight, parent: -1, in: current) }
        // The ends' weights are 0 or less; the searches stop on sums, so they start from a
        // common lift that makes them all 0 or more (every path carries it once).
        let lift = -(ends.map(\.weight).min() ?? 0)
        for (node, weight) in ends { backward.offer(node, weight + lift, parent: -1, in: current) }
        var best = Float.infinity
        var meeting: Int32 = -1
        var popped = 0
        defer { lastQueryPops = popped }
        while !forward.queue.isEmpty || !backward.queue.isEmpty {
            let (forwardMinimum, backwardMinimum) = (forward.queue.minimum, backward.queue.minimum)
            if forwardMinimum >= best && backwardMinimum >= best { break }
            popped += 1
            if forwardMinimum <= backwardMinimum {
                forward.settleNext(
                    climbing: up, stallingBy: down, against: backward, in: current, best: &best, meeting: &meeting)
            } else {
                backward.settleNext(
                    climbing: down, stallingBy: up, against: forward, in: current, best: &best, meeting: &meeting)
            }
        }
        guard meeting >= 0 else { return nil }
        guard unpacking else { return ([], best - lift) }
        // The hierarchy's nodes from the start up to the meeting and down to the end, each arc
        // unpacked into the turns it stands for.
        let nodes = forward.chain(from: meeting).reversed() + backward.chain(from: meeting).dropFirst()
        var path = [nodes[0]]
        for index in 1..<nodes.count { unpack(nodes[index - 1], nodes[index], into: &path) }
        return (path, best - lift)
    }

    /// Appends the nodes after `from` on the arc `from` → `to` (a turn, or a shortcut through
    /// the nodes it skips).
    private func unpack(_ from: Int32, _ to: Int32, into path: inout [Int32]) {
        guard let middle = middle(from, to), middle >= 0 else {
            path.append(to)
            return
        }
        unpack(from, middle, into: &path)
        unpack(middle, to, into: &path)
    }

    /// The node the lightest arc `from` → `to` skips (-1 for a plain turn), nil when there is none.
    private func middle(_ from: Int32, _ to: Int32) -> Int32? {
        // The arc is stored at whichever end was contracted first: up out of `from`, or down
        // into `to`.
        var best: (weight: Float, middle: Int32)?
        func look(in table: ArcTable, at owner: Int32, for other: Int32) {
            for slot in table.slots(owner) where table.node[slot] == other {
                if best == nil || table.weight[slot] < best!.weight { best = (table.weight[slot], table.middle[slot]) }
            }
        }
        look(in: up, at: from, for: to)
        look(in: down, at: to, for: from)
        return best?.middle
    }
}

extension ContractionHierarchy {
    /// Why stored bytes are not a hierarchy.
    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The format's magic word: "OMCH" and its version, 2 with the contraction order after
    /// the arcs (version 1, without it, is still read).
    static let magic: [UInt8] = Array("OMCH2".utf8)

    /// The hierarchy as bytes: a magic word, then each array (count, then little-endian
    /// values), then the order (count, each key as 8 little-endian bytes, then how many were
    /// placed: ``Ordering``).
    public func serialized() -> [UInt8] {
        var bytes = Self.magic
        let keys = ordering?.keys ?? []
        bytes.reserveCapacity(
            Self.magic.count + 4 * (up.first.count + down.first.count + 3 * arcCount + 10) + 8 * keys.count)
        for array in [up.first, up.node, up.middle, down.first, down.node, down.middle] {
            Self.append(array, to: &bytes)
        }
        for array in [up.weight, down.weight] {
            Self.append(array.map { Int32(bitPattern: $0.bitPattern) }, to: &bytes)
        }
        withUnsafeBytes(of: Int32(keys.count).littleEndian) { bytes += $0 }
        for key in keys { withUnsafeBytes(of: key.littleEndian) { bytes += $0 } }
        withUnsafeBytes(of: Int32(ordering?.placed ?? 0).littleEndian) { bytes += $0 }
        return bytes
    }

    /// A hierarchy from ``serialized()`` bytes (of this version or the first), to query: its
    /// order is left in the bytes (``ordering(serialized:)`` reads it).
    ///
    /// - Throws: ``FormatError`` when the bytes are cut, of another format, or inconsistent.
    public convenience init(serialized bytes: [UInt8]) throws {
        self.init()
        let version = bytes.count >= Self.magic.count ? bytes[Self.magic.count - 1] : 0
        guard bytes.starts(with: Self.magic.dropLast()), version == UInt8(ascii: "1") || version == UInt8(ascii: "2")
        else { throw FormatError(description: "not a routing graph") }
        let cut = FormatError(description: "the routing graph is cut short")
        var offset = Self.magic.count
        var arrays: [[Int32]] = []
        try bytes.withUnsafeBytes { raw in
            func count() throws(FormatError) -> Int {
                guard offset + 4 <= raw.count else { throw cut }
                let count = Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
                offset += 4
                return count
            }
            for _ in 0..<8 {
                let count = try count()
                guard count >= 0, offset + 4 * count <= raw.count else { throw cut }
                arrays.append(
                    (0..<count).map {
                        Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4 * $0, as: Int32.self))
                    })
                offset += 4 * count
            }
            guard version == UInt8(ascii: "2") else { return }
            let keys = try count()
            guard keys >= 0, offset + 8 * keys + 4 <= raw.count else { throw cut }
        }
        func weights(_ values: [Int32]) -> [Float] { values.map { Float(bitPattern: UInt32(bitPattern: $0)) } }
        up = ArcTable(first: arrays[0], node: arrays[1], weight: weights(arrays[6]), middle: arrays[2])
        down = ArcTable(first: arrays[3], node: arrays[4], weight: weights(arrays[7]), middle: arrays[5])
        let nodes = up.first.count - 1
        guard nodes >= 0, down.first.count == up.first.count, up.isConsistent(nodes: nodes),
            down.isConsistent(nodes: nodes)
        else { throw FormatError(description: "the routing graph's arrays do not agree") }
    }

    /// The contraction order stored in ``serialized()`` bytes, read without the arcs; nil when
    /// the bytes hold none (the first version) or are not whole.
    public static func ordering(serialized bytes: [UInt8]) -> Ordering? {
        guard bytes.starts(with: magic) else { return nil }
        return bytes.withUnsafeBytes { raw -> Ordering? in
            var offset = magic.count
            func count() -> Int? {
                guard offset + 4 <= raw.count else { return nil }
                defer { offset += 4 }
                return Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
            }
            for _ in 0..<8 {
                guard let values = count(), values >= 0, offset + 4 * values <= raw.count else { return nil }
                offset += 4 * values
            }
            guard let keys = count(), keys > 0, offset + 8 * keys + 4 <= raw.count,
                offset + 8 * keys + 4 == raw.count
            else { return nil }
            let ordering = (0..<keys).map {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8 * $0, as: UInt64.self))
            }
            offset += 8 * keys
            guard let placed = count(), placed >= 0 else { return nil }
            return Ordering(keys: ordering, placed: placed)
        }
    }

    private static func append(_ values: [Int32], to bytes: inout [UInt8]) {
        withUnsafeBytes(of: Int32(values.count).littleEndian) { bytes += $0 }
        for value in values { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    }
}
