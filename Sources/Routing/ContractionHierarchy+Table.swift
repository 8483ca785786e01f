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

    /// A node of a table's search and what it costs to reach: the weight, duration and
    /// distance counted to it. A search's starts are ones (for a backward search, 0 or less:
    /// the part of the end's edge not travelled), and so is each node it settles.
    struct Label {
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

    /// The search of a table's source (`upwards`, the forward search) or destination from
    /// `starts`: every node it settles, stalling on demand, each with the duration and distance
    /// of the path its label came by.
    func tableSpace(from starts: [Label], upwards: Bool, annotations: ArcAnnotations) -> [Label] {
        prepareQueries()
        if tableState.seen.count != nodeCount { tableState = TableSearch(nodes: nodeCount) }
        var state = TableSearch(nodes: 0)
        swap(&state, &tableState)
        defer { swap(&state, &tableState) }
        return starts.isEmpty
            ? [] : annotatedClimb(from: starts, upwards: upwards, annotations: annotations, state: &state)
    }

    /// The cells of the sources' forward spaces met with the destinations' backward ones: the
    /// backward spaces in buckets by node (node n's entries `entries[bucketStart[n]..<bucketStart[n + 1]]`,
    /// a counting sort), each forward space's nodes looked up in them; nil where none meets.
    /// (Ends on one edge meet there with each end's part of it, which is no way from one to the
    /// other: the caller routes those cells on their own.)
    func combine(_ forward: [[Label]], _ backward: [[Label]]) -> [[Cell?]] {
        var bucketStart = [Int32](repeating: 0, count: nodeCount + 1)
        var total = 0
        for space in backward {
            for entry in space { bucketStart[Int(entry.node) + 1] += 1 }
            total += space.count
        }
        for node in 0..<nodeCount { bucketStart[node + 1] += bucketStart[node] }
        var fill = bucketStart
        var entries = [(target: Int32, label: Label)](
            repeating: (0, Label(node: 0, weight: 0, duration: 0, distance: 0)), count: total)
        for (target, space) in backward.enumerated() {
            for entry in space {
                entries[Int(fill[Int(entry.node)])] = (Int32(target), entry)
                fill[Int(entry.node)] += 1
            }
        }
        fill = []
        let columns = backward.count
        var weights = [Float](repeating: .infinity, count: forward.count * columns)
        var durations = [Float](repeating: 0, count: forward.count * columns)
        var distances = [Float](repeating: 0, count: forward.count * columns)
        for (row, space) in forward.enumerated() {
            let base = row * columns
            for settled in space {
                for index in Int(bucketStart[Int(settled.node)])..<Int(bucketStart[Int(settled.node) + 1]) {
                    let (target, entry) = entries[index]
                    let cell = base + Int(target)
                    let sum = settled.weight + entry.weight
                    guard sum < weights[cell] else { continue }
                    weights[cell] = sum
                    durations[cell] = settled.duration + entry.duration
                    distances[cell] = settled.distance + entry.distance
                }
            }
        }
        return (0..<forward.count).map { row in
            (0..<columns).map { column in
                let cell = row * columns + column
                return weights[cell].isFinite
                    ? Cell(weight: weights[cell], duration: durations[cell], distance: distances[cell]) : nil
            }
        }
    }

    /// The labels of a table's searches, one search at a time: each node's weight, duration
    /// and distance and the search it belongs to (no clearing between searches), and the queue.
    struct TableSearch {
        var weight: [Float]
        var duration: [Float]
        var distance: [Float]
        var seen: [UInt32]
        var round: UInt32 = 0
        var queue = MinHeap()

        init(nodes: Int) {
            weight = [Float](repeating: 0, count: nodes)
            duration = [Float](repeating: 0, count: nodes)
            distance = [Float](repeating: 0, count: nodes)
            seen = [UInt32](repeating: 0, count: nodes)
        }

        /// Labels `node` when this is better than its label in this search, and queues it.
        @inline(__always)
        mutating func offer(_ node: Int32, _ weight: Float, _ duration: Float, _ distance: Float) {
            let index = Int(node)
            guard seen[index] != round || weight < self.weight[index] else { return }
            seen[index] = round
            self.weight[index] = weight
            self.duration[index] = duration
            self.distance[index] = distance
            queue.push(weight, node)
        }
    }

    /// An upward search to exhaustion with stall on demand, as ``space(from:upwards:)``'s: each
    /// node settled, with the duration and distance of the path its label came by.
    private func annotatedClimb(
        from starts: [Label], upwards: Bool, annotations: ArcAnnotations, state: inout TableSearch
    ) -> [Label] {
        state.round &+= 1
        let current = state.round
        let (rise, stall) = upwards ? (up, down) : (down, up)
        let (durations, distances) =
            upwards
            ? (annotations.upDuration, annotations.upDistance) : (annotations.downDuration, annotations.downDistance)
        state.queue.items.removeAll(keepingCapacity: true)
        for start in starts { state.offer(start.node, start.weight, start.duration, start.distance) }
        var settled: [Label] = []
        while !state.queue.isEmpty {
            let (cost, node) = state.queue.pop()
            let index = Int(node)
            guard cost <= state.weight[index] else { continue }
            let (duration, distance) = (state.duration[index], state.distance[index])
            settled.append(Label(node: node, weight: cost, duration: duration, distance: distance))
            var stalled = false
            for slot in stall.slots(node) {
                let above = Int(stall.node[slot])
                if state.seen[above] == current && state.weight[above] + stall.weight[slot] < cost {
                    stalled = true
                    break
                }
            }
            if stalled { continue }
            for slot in rise.slots(node) {
                state.offer(
                    rise.node[slot], cost + rise.weight[slot], duration + durations[slot], distance + distances[slot])
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
        let lengths = graph.edgeLengths
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
            guard middle >= 0 else {
                return (graph.turnDuration(from, to) + graph.edgeDuration[Int(to)], lengths[Int(to)])
            }
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
