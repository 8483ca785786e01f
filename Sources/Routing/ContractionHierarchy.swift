import Foundation

/// Contraction hierarchies on the graph of turns: each directed road edge is a node, and each
/// allowed turn from one edge onto the next an arc weighing the turn and the next edge
/// (``RoadGraph/turnWeight(_:_:)`` + ``RoadGraph/edgeWeight``), so that turn costs, turn
/// restrictions and the u-turn rule are kept exactly. Nodes are contracted one by one, least
/// important first (fewest shortcuts for the arcs they remove, neighbours spread out), adding a
/// shortcut between two neighbours wherever no other path (a witness) is as short. A query
/// then searches only upwards from both ends, a few hundred labels in a city.
public final class ContractionHierarchy: @unchecked Sendable {
    /// Arcs up the hierarchy, for the forward search: out of node n are `up[upFirst[n]..<upFirst[n+1]]`.
    var upFirst: [Int32] = []
    var upTarget: [Int32] = []
    var upWeight: [Float] = []
    /// The node a shortcut skips, or -1 for a turn of the graph.
    var upMiddle: [Int32] = []
    /// Arcs up the hierarchy for the backward search: into node n from `downSource`.
    var downFirst: [Int32] = []
    var downSource: [Int32] = []
    var downWeight: [Float] = []
    var downMiddle: [Int32] = []

    /// Number of nodes (road edges) and of arcs, shortcuts included.
    public var nodeCount: Int { max(0, upFirst.count - 1) }
    public var arcCount: Int { upTarget.count + downSource.count }

    // Query state, reused between queries (one at a time: callers serialize).
    private var forwardCost: [Float] = []
    private var backwardCost: [Float] = []
    private var forwardParent: [Int32] = []
    private var backwardParent: [Int32] = []
    private var forwardSeen: [UInt32] = []
    private var backwardSeen: [UInt32] = []
    private var generation: UInt32 = 0

    init() {}

    // MARK: Building

    /// An arc of the graph being contracted.
    private struct Arc {
        var node: Int32
        var weight: Float
        var middle: Int32
    }

    /// Contracts `graph`'s turn graph.
    public convenience init(graph: RoadGraph) {
        self.init()
        let count = graph.edgeCount
        var outs = [[Arc]](repeating: [], count: count)
        var ins = [[Arc]](repeating: [], count: count)
        // Each node's lists at their size from the start (a million small lists grow wastefully).
        var inDegree = [Int32](repeating: 0, count: count)
        for into in 0..<count {
            let node = Int(graph.edgeTo[into])
            var degree = 0
            for slot in Int(graph.firstOut[node])..<Int(graph.firstOut[node + 1]) {
                let out = graph.outEdge[slot]
                guard Int(out) != into, graph.allows(Int32(into), out) else { continue }
                degree += 1
                inDegree[Int(out)] += 1
            }
            outs[into].reserveCapacity(degree)
        }
        for node in 0..<count { ins[node].reserveCapacity(Int(inDegree[node])) }
        inDegree = []
        for into in 0..<count {
            let node = Int(graph.edgeTo[into])
            for slot in Int(graph.firstOut[node])..<Int(graph.firstOut[node + 1]) {
                let out = graph.outEdge[slot]
                guard Int(out) != into, graph.allows(Int32(into), out) else { continue }
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
        contractor.contractAll(up: &up, down: &down)
        (upFirst, upTarget, upWeight, upMiddle) = up.compressed(nodes: count)
        up = ArcList()
        (downFirst, downSource, downWeight, downMiddle) = down.compressed(nodes: count)
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

        /// The arcs grouped by owner: each owner's range in `first`, then node, weight, middle.
        func compressed(nodes: Int) -> ([Int32], [Int32], [Float], [Int32]) {
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
            return (first, node, weight, middle)
        }
    }

    /// Sizes the query state, once, before the first query.
    private func prepareQueries() {
        guard forwardCost.count != nodeCount else { return }
        let count = nodeCount
        forwardCost = [Float](repeating: 0, count: count)
        backwardCost = forwardCost
        forwardParent = [Int32](repeating: -1, count: count)
        backwardParent = forwardParent
        forwardSeen = [UInt32](repeating: 0, count: count)
        backwardSeen = forwardSeen
    }

    /// The contraction: a dynamic graph of the nodes left, their order, and witness searches.
    private struct Contractor {
        var outs: [[Arc]]
        var ins: [[Arc]]
        var contracted: [Bool]
        var deletedNeighbours: [Int32]
        // Witness search state.
        var distance: [Float]
        var seen: [UInt32]
        var round: UInt32 = 0
        var heap = MinHeap()
        /// Nodes a witness search settles at most (contraction, and estimating a priority).
        static let settleLimit = 200
        static let estimateLimit = 40

        init(outs: [[Arc]], ins: [[Arc]]) {
            self.outs = outs
            self.ins = ins
            contracted = [Bool](repeating: false, count: outs.count)
            deletedNeighbours = [Int32](repeating: 0, count: outs.count)
            distance = [Float](repeating: 0, count: outs.count)
            seen = [UInt32](repeating: 0, count: outs.count)
        }

        /// Contracts every node, adding to `up` its arcs up (out, to nodes contracted later) and
        /// to `down` its arcs down (in, from nodes contracted later).
        mutating func contractAll(up: inout ArcList, down: inout ArcList) {
            let count = outs.count
            var queue = MinHeap()
            var queued = [Float](repeating: 0, count: count)
            for node in 0..<count {
                queued[node] = priority(Int32(node))
                queue.push(queued[node], Int32(node))
            }
            var shortcuts: [(from: Int32, to: Int32, weight: Float)] = []
            while !queue.isEmpty {
                let (entry, node) = queue.pop()
                // An entry superseded by a later one, or for a node already contracted.
                guard !contracted[Int(node)], entry == queued[Int(node)] else { continue }
                // Lazy update: a node whose priority grew goes back in line.
                let current = priority(node)
                if !queue.isEmpty && current > queue.minimum {
                    queued[Int(node)] = current
                    queue.push(current, node)
                    continue
                }
                shortcuts.removeAll(keepingCapacity: true)
                witnessShortcuts(node, limit: Self.settleLimit) { shortcuts.append(($0, $1, $2)) }
                up.append(node, outs[Int(node)])
                down.append(node, ins[Int(node)])
                contracted[Int(node)] = true
                for arc in ins[Int(node)] {
                    outs[Int(arc.node)].removeAll { $0.node == node }
                    deletedNeighbours[Int(arc.node)] += 1
                }
                for arc in outs[Int(node)] {
                    ins[Int(arc.node)].removeAll { $0.node == node }
                    deletedNeighbours[Int(arc.node)] += 1
                }
                outs[Int(node)] = []
                ins[Int(node)] = []
                for shortcut in shortcuts { add(shortcut.from, shortcut.to, shortcut.weight, middle: node) }
            }
        }

        /// Adds the arc `from` → `to`, or lowers an existing one's weight.
        mutating func add(_ from: Int32, _ to: Int32, _ weight: Float, middle: Int32) {
            if let index = outs[Int(from)].firstIndex(where: { $0.node == to }) {
                guard weight < outs[Int(from)][index].weight else { return }
                outs[Int(from)][index] = Arc(node: to, weight: weight, middle: middle)
                if let back = ins[Int(to)].firstIndex(where: { $0.node == from }) {
                    ins[Int(to)][back] = Arc(node: from, weight: weight, middle: middle)
                }
                return
            }
            outs[Int(from)].append(Arc(node: to, weight: weight, middle: middle))
            ins[Int(to)].append(Arc(node: from, weight: weight, middle: middle))
        }

        /// How early `node` should be contracted: shortcuts it needs less the arcs it removes,
        /// plus its contracted neighbours (lower is earlier).
        mutating func priority(_ node: Int32) -> Float {
            var added = 0
            witnessShortcuts(node, limit: Self.estimateLimit) { _, _, _ in added += 1 }
            let removed = ins[Int(node)].count + outs[Int(node)].count
            return Float(2 * added - removed) + Float(deletedNeighbours[Int(node)])
        }

        /// Calls `shortcut` for each pair of neighbours (u → node → x) with no path from u to x
        /// as short that avoids `node`, found by a search settling at most `limit` nodes.
        mutating func witnessShortcuts(_ node: Int32, limit: Int, _ shortcut: (Int32, Int32, Float) -> Void) {
            let outArcs = outs[Int(node)]
            guard !outArcs.isEmpty else { return }
            let maxOut = outArcs.map(\.weight).max()!
            for inArc in ins[Int(node)] {
                let source = inArc.node
                let ceiling = inArc.weight + maxOut
                search(from: source, avoiding: node, ceiling: ceiling, limit: limit)
                for outArc in outArcs where outArc.node != source {
                    let via = inArc.weight + outArc.weight
                    let target = Int(outArc.node)
                    if seen[target] == round && distance[target] <= via { continue }
                    shortcut(source, outArc.node, via)
                }
            }
        }

        /// Dijkstra from `source` among the nodes left but `avoiding`, up to `ceiling` or
        /// `limit` settled nodes; distances in `distance` where `seen` is this round.
        mutating func search(from source: Int32, avoiding: Int32, ceiling: Float, limit: Int) {
            round &+= 1
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
                    if seen[next] != round || candidate < distance[next] {
                        seen[next] = round
                        distance[next] = candidate
                        heap.push(candidate, arc.node)
                    }
                }
            }
        }
    }

    // MARK: Queries

    /// The lightest path from one of `starts` (node, the weight left to its end) to one of
    /// `ends` (node, the weight from its end back to the point: 0 or less), as the nodes (road
    /// edges) in order; nil when none connects them.
    func path(from starts: [(node: Int32, weight: Float)], to ends: [(node: Int32, weight: Float)]) -> [Int32]? {
        prepareQueries()
        generation &+= 1
        let current = generation
        // The arrays as locals for the search (no exclusivity checks on each access), put
        // back at the end.
        let (upFirst, upTarget, upWeight) = (self.upFirst, self.upTarget, self.upWeight)
        let (downFirst, downSource, downWeight) = (self.downFirst, self.downSource, self.downWeight)
        var forwardCost: [Float] = []
        var backwardCost: [Float] = []
        var forwardParent: [Int32] = []
        var backwardParent: [Int32] = []
        var forwardSeen: [UInt32] = []
        var backwardSeen: [UInt32] = []
        swap(&forwardCost, &self.forwardCost)
        swap(&backwardCost, &self.backwardCost)
        swap(&forwardParent, &self.forwardParent)
        swap(&backwardParent, &self.backwardParent)
        swap(&forwardSeen, &self.forwardSeen)
        swap(&backwardSeen, &self.backwardSeen)
        defer {
            swap(&forwardCost, &self.forwardCost)
            swap(&backwardCost, &self.backwardCost)
            swap(&forwardParent, &self.forwardParent)
            swap(&backwardParent, &self.backwardParent)
            swap(&forwardSeen, &self.forwardSeen)
            swap(&backwardSeen, &self.backwardSeen)
        }
        var forwardQueue = MinHeap()
        var backwardQueue = MinHeap()
        for (node, weight) in starts where forwardSeen[Int(node)] != current || weight < forwardCost[Int(node)] {
            forwardSeen[Int(node)] = current
            forwardCost[Int(node)] = weight
            forwardParent[Int(node)] = -1
            forwardQueue.push(weight, node)
        }
        // The ends' weights are 0 or less; the searches stop on sums, so they start from a
        // common lift that makes them all 0 or more (every path carries it once).
        let lift = -(ends.map(\.weight).min() ?? 0)
        for (node, weight) in ends where backwardSeen[Int(node)] != current || weight + lift < backwardCost[Int(node)] {
            backwardSeen[Int(node)] = current
            backwardCost[Int(node)] = weight + lift
            backwardParent[Int(node)] = -1
            backwardQueue.push(weight + lift, node)
        }
        var best = Float.infinity
        var meeting: Int32 = -1
        while !forwardQueue.isEmpty || !backwardQueue.isEmpty {
            let forwardMinimum = forwardQueue.minimum
            let backwardMinimum = backwardQueue.minimum
            if forwardMinimum >= best && backwardMinimum >= best { break }
            if forwardMinimum <= backwardMinimum {
                let (cost, node) = forwardQueue.pop()
                guard cost <= forwardCost[Int(node)] else { continue }
                if backwardSeen[Int(node)] == current, cost + backwardCost[Int(node)] < best {
                    best = cost + backwardCost[Int(node)]
                    meeting = node
                }
                // Stall on demand: reached more cheaply from a node above, it leads nowhere better.
                var stalled = false
                for slot in Int(downFirst[Int(node)])..<Int(downFirst[Int(node) + 1]) {
                    let above = Int(downSource[slot])
                    if forwardSeen[above] == current && forwardCost[above] + downWeight[slot] < cost {
                        stalled = true
                        break
                    }
                }
                if stalled { continue }
                for slot in Int(upFirst[Int(node)])..<Int(upFirst[Int(node) + 1]) {
                    let next = Int(upTarget[slot])
                    let candidate = cost + upWeight[slot]
                    if forwardSeen[next] != current || candidate < forwardCost[next] {
                        forwardSeen[next] = current
                        forwardCost[next] = candidate
                        forwardParent[next] = node
                        forwardQueue.push(candidate, Int32(next))
                    }
                }
            } else {
                let (cost, node) = backwardQueue.pop()
                guard cost <= backwardCost[Int(node)] else { continue }
                if forwardSeen[Int(node)] == current, cost + forwardCost[Int(node)] < best {
                    best = cost + forwardCost[Int(node)]
                    meeting = node
                }
                var stalled = false
                for slot in Int(upFirst[Int(node)])..<Int(upFirst[Int(node) + 1]) {
                    let above = Int(upTarget[slot])
                    if backwardSeen[above] == current && backwardCost[above] + upWeight[slot] < cost {
                        stalled = true
                        break
                    }
                }
                if stalled { continue }
                for slot in Int(downFirst[Int(node)])..<Int(downFirst[Int(node) + 1]) {
                    let previous = Int(downSource[slot])
                    let candidate = cost + downWeight[slot]
                    if backwardSeen[previous] != current || candidate < backwardCost[previous] {
                        backwardSeen[previous] = current
                        backwardCost[previous] = candidate
                        backwardParent[previous] = node
                        backwardQueue.push(candidate, Int32(previous))
                    }
                }
            }
        }
        guard meeting >= 0 else { return nil }
        // The hierarchy's nodes from the start up to the meeting and down to the end, each arc
        // unpacked into the turns it stands for.
        var upward: [Int32] = []
        var node = meeting
        while node >= 0 {
            upward.append(node)
            node = forwardParent[Int(node)]
        }
        upward.reverse()
        var downward: [Int32] = []
        node = backwardParent[Int(meeting)]
        while node >= 0 {
            downward.append(node)
            node = backwardParent[Int(node)]
        }
        let nodes = upward + downward
        var path = [nodes[0]]
        for index in 1..<nodes.count { unpack(nodes[index - 1], nodes[index], into: &path) }
        return path
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
        for slot in Int(upFirst[Int(from)])..<Int(upFirst[Int(from) + 1]) where upTarget[slot] == to {
            if best == nil || upWeight[slot] < best!.weight { best = (upWeight[slot], upMiddle[slot]) }
        }
        for slot in Int(downFirst[Int(to)])..<Int(downFirst[Int(to) + 1]) where downSource[slot] == from {
            if best == nil || downWeight[slot] < best!.weight { best = (downWeight[slot], downMiddle[slot]) }
        }
        return best?.middle
    }
}

/// A binary heap of (cost, node), least cost first.
struct MinHeap {
    var items: [(cost: Float, node: Int32)] = []
    var isEmpty: Bool { items.isEmpty }
    var minimum: Float { items.first?.cost ?? .infinity }

    mutating func push(_ cost: Float, _ node: Int32) {
        items.append((cost, node))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[parent].cost > items[child].cost else { break }
            items.swapAt(parent, child)
            child = parent
        }
    }

    mutating func pop() -> (cost: Float, node: Int32) {
        let top = items[0]
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = parent * 2 + 1
                let right = left + 1
                var smallest = parent
                if left < items.count, items[left].cost < items[smallest].cost { smallest = left }
                if right < items.count, items[right].cost < items[smallest].cost { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}

extension ContractionHierarchy {
    /// Why stored bytes are not a hierarchy.
    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    static let magic: [UInt8] = Array("OMCH1".utf8)

    /// The hierarchy as bytes: a magic word, then each array (count, then little-endian values).
    public func serialized() -> [UInt8] {
        var bytes = Self.magic
        bytes.reserveCapacity(Self.magic.count + 4 * (upFirst.count + downFirst.count + 3 * arcCount + 8))
        for array in [upFirst, upTarget, upMiddle, downFirst, downSource, downMiddle] { Self.append(array, to: &bytes) }
        for array in [upWeight, downWeight] { Self.append(array.map { Int32(bitPattern: $0.bitPattern) }, to: &bytes) }
        return bytes
    }

    /// A hierarchy from ``serialized()`` bytes.
    ///
    /// - Throws: ``FormatError`` when the bytes are cut, of another format, or inconsistent.
    public convenience init(serialized bytes: [UInt8]) throws {
        self.init()
        guard bytes.starts(with: Self.magic) else { throw FormatError(description: "not a routing graph") }
        var offset = Self.magic.count
        var arrays: [[Int32]] = []
        try bytes.withUnsafeBytes { raw in
            for _ in 0..<8 {
                guard offset + 4 <= raw.count else { throw FormatError(description: "the routing graph is cut short") }
                let count = Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
                offset += 4
                guard count >= 0, offset + 4 * count <= raw.count else {
                    throw FormatError(description: "the routing graph is cut short")
                }
                arrays.append(
                    (0..<count).map {
                        Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4 * $0, as: Int32.self))
                    })
                offset += 4 * count
            }
        }
        (upFirst, upTarget, upMiddle, downFirst, downSource, downMiddle) = (
            arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5]
        )
        upWeight = arrays[6].map { Float(bitPattern: UInt32(bitPattern: $0)) }
        downWeight = arrays[7].map { Float(bitPattern: UInt32(bitPattern: $0)) }
        let nodes = upFirst.count - 1
        guard nodes >= 0, downFirst.count == upFirst.count, upTarget.count == upWeight.count,
            upTarget.count == upMiddle.count, downSource.count == downWeight.count,
            downSource.count == downMiddle.count,
            Int(upFirst.last ?? -1) == upTarget.count, Int(downFirst.last ?? -1) == downSource.count,
            (upTarget + downSource).allSatisfy({ $0 >= 0 && $0 < nodes }),
            (upMiddle + downMiddle).allSatisfy({ $0 >= -1 && $0 < nodes })
        else { throw FormatError(description: "the routing graph's arrays do not agree") }
    }

    private static func append(_ values: [Int32], to bytes: inout [UInt8]) {
        withUnsafeBytes(of: Int32(values.count).littleEndian) { bytes += $0 }
        for value in values { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    }
}
