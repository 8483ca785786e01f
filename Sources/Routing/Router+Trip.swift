import GeoCore

/// A trip through points (OSRM's `trip` service): the order to visit them in, and the route.
public struct Trip: Sendable {
    /// The points' indices in the order the trip visits them (a round trip's return to the
    /// first is not repeated).
    public var order: [Int]
    /// The route through them in that order, back to the first on a round trip: one leg
    /// between each visit and the next.
    public var route: Route

    /// A trip visiting in `order` along `route`.
    public init(order: [Int], route: Route) {
        self.order = order
        self.route = route
    }
}

extension Router {
    /// Most points a trip takes: 100, as OSRM's `trip` service by default.
    public static let maxTripPoints = 100

    /// Points visited in the order found exactly, every order tried: up to 9.
    static let exactTripPoints = 9

    /// The quickest trip through `points` this heuristic finds, as OSRM's `trip` finds it: the
    /// durations of one table between all of them, then every order for up to
    /// ``exactTripPoints`` points, else farthest insertion improved by 2-opt moves (reversing
    /// a stretch while that shortens the trip); then the route through them in that order.
    /// A round trip returns to its first point and starts at point 0; a trip that is not
    /// round goes from the first point to the last. Each point is met as its entry of the
    /// passage's approaches asks (one a point; none for any way), and passed straight on as it
    /// says (by default as the mode goes).
    ///
    /// - Throws: ``RoutingError`` when a point has no road near it or two points are not
    ///   connected (no trip visits them both).
    public func trip(_ points: [Coordinate], roundTrip: Bool, passing passage: Passage = Passage()) throws -> Trip {
        guard (2...Self.maxTripPoints).contains(points.count) else {
            throw RoutingError.waypointCount(points.count, max: Self.maxTripPoints)
        }
        let all = Array(points.indices)
        let table = try table(points, sources: all, destinations: all, approaches: passage.approaches)
        let cost = table.durations.map { $0.map { $0 ?? .infinity } }
        if let (from, to) = Self.unreachable(cost) {
            throw RoutingError.noRoute(from: from, to: to, mode: graph.profile.mode)
        }
        let order = Self.tripOrder(cost, roundTrip: roundTrip)
        let visits = roundTrip ? order + [order[0]] : order
        // Routes take at most ``maxPoints`` points: the trip in overlapping pieces, joined.
        var legs: [Route.Leg] = []
        var snapped: [(point: Coordinate, distance: Double, road: String?, hint: RoadGraph.Hint?)] = []
        var start = 0
        while start < visits.count - 1 {
            let end = min(start + Self.maxPoints - 1, visits.count - 1)
            let piece = try route(
                visits[start...end].map { points[$0] },
                passing: Passage(
                    approaches: visits[start...end].map { passage.approach($0) },
                    continuesStraight: passage.continuesStraight))
            legs += piece.legs
            snapped += start == 0 ? piece.snapped : Array(piece.snapped.dropFirst())
            start = end
        }
        var route = Route(legs: legs, snapped: Array(snapped.prefix(order.count)), mode: graph.profile.mode)
        route.requested = visits.map { points[$0] }
        return Trip(order: order, route: route)
    }

    /// Two points, by index, that no route joins in the durations `cost`; nil when every one
    /// reaches every other.
    static func unreachable(_ cost: [[Double]]) -> (Int, Int)? {
        for (from, row) in cost.enumerated() {
            if let to = row.firstIndex(where: { !$0.isFinite }) { return (from, to) }
        }
        return nil
    }

    /// The order of the points a trip visits, by the durations `cost[from][to]` (seconds, all
    /// finite, at least 2 points), starting at the first point: a cycle when `roundTrip`, else
    /// a path from the first point to the last.
    public static func tripOrder(_ cost: [[Double]], roundTrip: Bool) -> [Int] {
        let count = cost.count
        func length(_ order: [Int]) -> Double {
            var total = zip(order, order.dropFirst()).reduce(0) { $0 + cost[$1.0][$1.1] }
            if roundTrip, let last = order.last { total += cost[last][order[0]] }
            return total
        }
        // The points whose place is free: all but the first, and, for a path, the last.
        let free = Array(1..<(roundTrip ? count : count - 1))
        if count <= Self.exactTripPoints {
            var best = [0] + free + (roundTrip ? [] : [count - 1])
            var bestLength = length(best)
            var middle = free
            while Self.nextPermutation(&middle) {
                let candidate = [0] + middle + (roundTrip ? [] : [count - 1])
                let candidateLength = length(candidate)
                if candidateLength < bestLength { (best, bestLength) = (candidate, candidateLength) }
            }
            return best
        }
        // Farthest insertion: the point farthest from those placed goes where it adds least.
        var order = roundTrip ? [0] : [0, count - 1]
        var left = Set(free)
        var nearest = (0..<count).map { point in order.map { min(cost[$0][point], cost[point][$0]) }.min() ?? 0 }
        while !left.isEmpty {
            let point = left.max { (nearest[$0], $1) < (nearest[$1], $0) }!
            left.remove(point)
            var bestPlace = 1
            var bestAdded = Double.infinity
            let places = roundTrip ? Array(1...order.count) : Array(1..<order.count)
            for place in places {
                let before = order[place - 1]
                let after = place < order.count ? order[place] : order[0]
                let added = cost[before][point] + cost[point][after] - cost[before][after]
                if added < bestAdded { (bestPlace, bestAdded) = (place, added) }
            }
            order.insert(point, at: bestPlace)
            for other in left { nearest[other] = min(nearest[other], cost[point][other], cost[other][point]) }
        }
        // 2-opt: reverse a stretch of the free places while that shortens the trip.
        var currentLength = length(order)
        var improved = true
        // The free places: all but the first, and, for a path, the last (more than the exact
        // points: at least 8).
        let last = roundTrip ? order.count - 1 : order.count - 2
        var rounds = 0
        while improved && rounds < 100 {
            improved = false
            rounds += 1
            for i in 1..<last {
                for j in (i + 1)...last {
                    var candidate = order
                    candidate[i...j].reverse()
                    let candidateLength = length(candidate)
                    if candidateLength < currentLength - 1e-9 {
                        (order, currentLength) = (candidate, candidateLength)
                        improved = true
                    }
                }
            }
        }
        return order
    }

    /// Rearranges `values` into the next permutation in lexicographic order; false (and
    /// `values` sorted) after the last.
    static func nextPermutation(_ values: inout [Int]) -> Bool {
        guard values.count > 1 else { return false }
        var i = values.count - 2
        while i >= 0 && values[i] >= values[i + 1] { i -= 1 }
        guard i >= 0 else {
            values.reverse()
            return false
        }
        var j = values.count - 1
        while values[j] <= values[i] { j -= 1 }
        values.swapAt(i, j)
        values[(i + 1)...].reverse()
        return true
    }
}
