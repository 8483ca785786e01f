import Foundation

/// The many-to-many search of a table (OSRM's `table` service): every target's backward search
/// space is put in buckets at the nodes it settles, then each source's forward search looks up
/// the buckets of the nodes it settles; the least weight through any node meeting both is the
/// cell's (Knopp et al., "Computing many-to-many shortest paths using highway hierarchies").
/// Durations and distances ride along the searches, summed from each arc's own (a shortcut's
/// the sum of the arcs it skips), so a cell's duration is that of the lightest path, as a route
/// between the two points counts it.
extension ContractionHierarchy {
    /// Each arc's duration (seconds) and distance (metres): the turn's duration and the next
    /// road edge's for a turn of the graph, a shortcut's the sums of the two arcs it skips.
    /// Found once for a hierarchy and kept, shared with those ``sharingArcs()`` makes.
    final class ArcAnnotations: @unchecked Sendable {
        let upDuration: [Float]
        let upDistance: [Float]
        let downDuration: [Float]
        let downDistance: [Float]

        init(upDuration: [Float], upDistance: [Float], downDuration: [Float], downDistance: [Float]) {
            self.upDuration = upDuration
            self.upDistance = upDistance
            self.downDuration = downDuration
            self.downDistance = downDistance
        }
    }

    /// Where a search starts: a node, the weight, duration and distance already counted to it
    /// (for a backward search, 0 or less: the part of the end's edge not travelled).
    struct Start {
        var node: Int32
        var weight: Float
        var duration: Float
        var distance: Float
    }

    /// A cell of a table: the least weight, and that path's duration and distance.
    struct Cell {
        var weight: Float
        var duration: Float
        var distance: Float
    }

    /// The table from each of `sources` to each of `targets` (each a node's starts, as
    /// ``Start`` gives them); nil where no path joins them.
    func table(from sources: [[Start]], to targets: [[Start]], annotations: ArcAnnotations) -> [[Cell?]] {
        prepareQueries()
        // The buckets: every node a target's backward search settles, with the target and what
        // it costs from there to it; grouped by node.
        var entries: [(node: Int32, target: Int32, cell: Cell)] = []
        for (index, starts) in targets.enumerated() where !starts.isEmpty {
            for settled in annotatedClimb(from: starts, upwards: false, annotations: annotations) {
                entries.append((settled.node, Int32(index), settled.cell))
            }
        }
        entries.sort { $0.node < $1.node }
        var buckets: [Int32: Range<Int>] = [:]
        buckets.reserveCapacity(entries.count / 2)
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count && entries[end].node == entries[start].node { end += 1 }
            buckets[entries[start].node] = start..<end
            start = end
        }
        var table = [[Cell?]](repeating: [Cell?](repeating: nil, count: targets.count), count: sources.count)
        let targetNodes = targets.map { Set($0.map(\.node)) }
        for (row, starts) in sources.enumerated() where !starts.isEmpty {
            let sourceNodes = Set(starts.map(\.node))
            for settled in annotatedClimb(from: starts, upwards: true, annotations: annotations) {
                guard let range = buckets[settled.node] else { continue }
                for entry in entries[range] {
                    let column = Int(entry.target)
                    // On an edge both start on, the two labels are each end's part of it, which
                    // do not add up to a way from one to the other (the caller goes along it).
                    if sourceNodes.contains(settled.node) && targetNodes[column].contains(settled.node) { continue }
                    let weight = settled.cell.weight + entry.cell.weight
                    if let best = table[row][column], best.weight <= weight { continue }
                    table[row][column] = Cell(
                        weight: weight, duration: settled.cell.duration + entry.cell.duration,
                        distance: settled.cell.distance + entry.cell.distance)
                }
            }
        }
        return table
    }

    /// An upward search to exhaustion with stall on demand, as ``space(from:upwards:)``'s, each
    /// node settled with the duration and distance of the path its label came by.
    private func annotatedClimb(from starts: [Start], upwards: Bool, annotations: ArcAnnotations) -> [(
        node: Int32, cell: Cell
    )] {
        generation &+= 1
        let current = generation
        var labels = SearchLabels()
        swap(&labels, &forward)
        defer { swap(&labels, &forward) }
        let (rise, stall) = upwards ? (up, down) : (down, up)
        let (durations, distances) =
            upwards
            ? (annotations.upDuration, annotations.upDistance) : (annotations.downDuration, annotations.downDistance)
        // Each labelled node's duration and distance, by node, for this search only.
        var along: [Int32: (duration: Float, distance: Float)] = [:]
        labels.queue.items.removeAll(keepingCapacity: true)
        for start in starts {
            let before = labels.has(start.node, in: current) ? labels.cost[Int(start.node)] : .infinity
            labels.offer(start.node, start.weight, parent: -1, in: current)
            if start.weight < before { along[start.node] = (start.duration, start.distance) }
        }
        var settled: [(node: Int32, cell: Cell)] = []
        while !labels.queue.isEmpty {
            let (cost, node) = labels.queue.pop()
            guard cost <= labels.cost[Int(node)] else { continue }
            let here = along[node] ?? (0, 0)
            settled.append((node, Cell(weight: cost, duration: here.duration, distance: here.distance)))
            let stalled = stall.slots(node).contains { slot in
                let above = stall.node[slot]
                return labels.seen[Int(above)] == current && labels.cost[Int(above)] + stall.weight[slot] < cost
            }
            if stalled { continue }
            for slot in rise.slots(node) {
                let next = rise.node[slot]
                let weight = cost + rise.weight[slot]
                guard !labels.has(next, in: current) || weight < labels.cost[Int(next)] else { continue }
                labels.offer(next, weight, parent: node, in: current)
                along[next] = (here.duration + durations[slot], here.distance + distances[slot])
            }
        }
        return settled
    }

    /// The arcs' durations and distances on `graph` (the graph this hierarchy contracts).
    func annotations(on graph: RoadGraph) -> ArcAnnotations {
        if let made = annotationBox.lock.withLock({ annotationBox.value }) { return made }
        let made = annotate(on: graph)
        annotationBox.lock.withLock { annotationBox.value = made }
        return made
    }

    /// Works out every arc's duration and distance: a turn's from the graph, a shortcut's from
    /// the two arcs it skips (the lightest arc between each pair of its nodes, as unpacking a
    /// path takes them), each arc once.
    private func annotate(on graph: RoadGraph) -> ArcAnnotations {
        var upDuration = [Float](repeating: -1, count: up.node.count)
        var upDistance = [Float](repeating: 0, count: up.node.count)
        var downDuration = [Float](repeating: -1, count: down.node.count)
        var downDistance = [Float](repeating: 0, count: down.node.count)
        func length(_ edge: Int32) -> Float {
            Float(
                graph.positions[Int(graph.edgeFrom[Int(edge)])].distance(
                    to: graph.positions[Int(graph.edgeTo[Int(edge)])]))
        }
        /// The lightest arc `from` → `to`: in `up` at `from`, or in `down` at `to`.
        func arc(_ from: Int32, _ to: Int32) -> (upwards: Bool, slot: Int)? {
            var best: (weight: Float, upwards: Bool, slot: Int)?
            for slot in up.slots(from) where up.node[slot] == to {
                if best == nil || up.weight[slot] < best!.weight { best = (up.weight[slot], true, slot) }
            }
            for slot in down.slots(to) where down.node[slot] == from {
                if best == nil || down.weight[slot] < best!.weight { best = (down.weight[slot], false, slot) }
            }
            return best.map { ($0.upwards, $0.slot) }
        }
        /// The duration and distance of the arc `from` → `to` skipping `middle` (-1: a turn).
        func value(_ from: Int32, _ to: Int32, middle: Int32) -> (Float, Float) {
            guard middle >= 0 else { return (graph.turnDuration(from, to) + graph.edgeDuration[Int(to)], length(to)) }
            let first = annotated(from, middle)
            let second = annotated(middle, to)
            return (first.0 + second.0, first.1 + second.1)
        }
        func annotated(_ from: Int32, _ to: Int32) -> (Float, Float) {
            guard let (upwards, slot) = arc(from, to) else { return (0, 0) }
            if upwards {
                if upDuration[slot] < 0 {
                    (upDuration[slot], upDistance[slot]) = value(from, to, middle: up.middle[slot])
                }
                return (upDuration[slot], upDistance[slot])
            }
            if downDuration[slot] < 0 {
                (downDuration[slot], downDistance[slot]) = value(from, to, middle: down.middle[slot])
            }
            return (downDuration[slot], downDistance[slot])
        }
        for owner in 0..<Int32(nodeCount) {
            for slot in up.slots(owner) where upDuration[slot] < 0 {
                (upDuration[slot], upDistance[slot]) = value(owner, up.node[slot], middle: up.middle[slot])
            }
            for slot in down.slots(owner) where downDuration[slot] < 0 {
                (downDuration[slot], downDistance[slot]) = value(down.node[slot], owner, middle: down.middle[slot])
            }
        }
        return ArcAnnotations(
            upDuration: upDuration, upDistance: upDistance, downDuration: downDuration, downDistance: downDistance)
    }
}

/// A value made once and shared by the hierarchies on the same arcs.
final class SharedBox<Value>: @unchecked Sendable {
    let lock = NSLock()
    var value: Value?
}
