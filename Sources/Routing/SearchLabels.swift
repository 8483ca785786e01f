/// One direction of a shortest-path search: each node's label (cost, parent, and the query it
/// belongs to, so that labels need no clearing between queries) and the queue of nodes still
/// to settle. The router's searches label road edges, the hierarchy's its nodes.
struct SearchLabels {
    var cost: [Float] = []
    var parent: [Int32] = []
    var seen: [UInt32] = []
    var queue = MinHeap()

    init() {}

    init(nodes: Int) {
        cost = [Float](repeating: 0, count: nodes)
        parent = [Int32](repeating: -1, count: nodes)
        seen = [UInt32](repeating: 0, count: nodes)
    }

    /// Whether `node` has a label in the query `current`.
    func has(_ node: Int32, in current: UInt32) -> Bool { seen[Int(node)] == current }

    /// Labels `node` with `cost` from `parent` (-1 where the search began) when that is better
    /// than its label in the query `current`, and queues it.
    mutating func offer(_ node: Int32, _ cost: Float, parent: Int32, in current: UInt32) {
        let index = Int(node)
        guard seen[index] != current || cost < self.cost[index] else { return }
        seen[index] = current
        self.cost[index] = cost
        self.parent[index] = parent
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
        guard cost <= self.cost[Int(node)] else { return }
        if other.seen[Int(node)] == current, cost + other.cost[Int(node)] < best {
            best = cost + other.cost[Int(node)]
            meeting = node
        }
        for slot in stall.slots(node) {
            let above = Int(stall.node[slot])
            if seen[above] == current && self.cost[above] + stall.weight[slot] < cost { return }
        }
        for slot in climb.slots(node) { offer(climb.node[slot], cost + climb.weight[slot], parent: node, in: current) }
    }

    /// The nodes from `node` back along the parents to where the search began.
    func chain(from node: Int32) -> [Int32] {
        var nodes: [Int32] = []
        var node = node
        while node >= 0 {
            nodes.append(node)
            node = parent[Int(node)]
        }
        return nodes
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
