/// One direction of a shortest-path search: each node's label (cost, parent, and the query it
/// belongs to, so that labels need no clearing between queries) and the queue of nodes still
/// to settle. The router's searches label road edges, the hierarchy's its nodes. A node's label
/// is one 12-byte record, so that reading it is one memory access.
struct SearchLabels {
    struct Label {
        var cost: Float
        var parent: Int32
        /// The query the label belongs to.
        var query: UInt32
    }

    var labels: [Label] = []
    var queue = MinHeap()

    init() {}

    init(nodes: Int) {
        labels = [Label](repeating: Label(cost: 0, parent: -1, query: 0), count: nodes)
    }

    /// Whether `node` has a label in the query `current`.
    @inline(__always)
    func has(_ node: Int32, in current: UInt32) -> Bool { labels[Int(node)].query == current }

    /// The cost of `node`'s label (meaningful when it ``has(_:in:)`` one).
    @inline(__always)
    func cost(_ node: Int32) -> Float { labels[Int(node)].cost }

    /// Labels `node` with `cost` from `parent` (-1 where the search began) when that is better
    /// than its label in the query `current`, and queues it.
    @inline(__always)
    mutating func offer(_ node: Int32, _ cost: Float, parent: Int32, in current: UInt32) {
        let index = Int(node)
        let label = labels[index]
        guard label.query != current || cost < label.cost else { return }
        labels[index] = Label(cost: cost, parent: parent, query: current)
        queue.push(cost, node)
    }

    /// Settles the cheapest queued node: meets the other side there (`best`, `meeting`), and
    /// unless a node above reaches it more cheaply (stall on demand, by `stall`'s arcs) labels
    /// the nodes it reaches by `climb`'s arcs.
    mutating func settleNext(
        climbing climb: ContractionHierarchy.ArcTable, stallingBy stall: ContractionHierarchy.ArcTable,
        against other: SearchLabels, in current: UInt32, best: inout Float, meeting: inout Int32
    ) {
        let (cost, node) = queue.pop()
        guard cost <= labels[Int(node)].cost else { return }
        let there = other.labels[Int(node)]
        if there.query == current, cost + there.cost < best {
            best = cost + there.cost
            meeting = node
        }
        for slot in stall.slots(node) {
            let above = labels[Int(stall.node[slot])]
            if above.query == current && above.cost + stall.weight[slot] < cost { return }
        }
        for slot in climb.slots(node) { offer(climb.node[slot], cost + climb.weight[slot], parent: node, in: current) }
    }

    /// The nodes from `node` back along the parents to where the search began.
    func chain(from node: Int32) -> [Int32] {
        var nodes: [Int32] = []
        var node = node
        while node >= 0 {
            nodes.append(node)
            node = labels[Int(node)].parent
        }
        return nodes
    }
}

/// A binary heap of (cost, node), least cost first.
struct MinHeap {
    var items: [(cost: Float, node: Int32)] = []
    var isEmpty: Bool { items.isEmpty }
    var minimum: Float { items.first?.cost ?? .infinity }

    /// Adds (cost, node).
    mutating func push(_ cost: Float, _ node: Int32) {
        items.append((cost, node))
        // The new item rises through a hole, each parent moved down once (not swapped).
        items.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[parent].cost > cost else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = (cost, node)
        }
    }

    /// Takes off the item of least cost (the heap must not be empty).
    mutating func pop() -> (cost: Float, node: Int32) {
        let top = items[0]
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        // The last item sinks from the root through a hole, the lesser child moved up each step.
        items.withUnsafeMutableBufferPointer { heap in
            let count = heap.count
            var hole = 0
            while true {
                var child = 2 * hole + 1
                guard child < count else { break }
                if child + 1 < count, heap[child + 1].cost < heap[child].cost { child += 1 }
                guard heap[child].cost < last.cost else { break }
                heap[hole] = heap[child]
                hole = child
            }
            heap[hole] = last
        }
        return top
    }
}
