import GeoCore

/// Joins the member ways of a multipolygon into closed rings by matching end nodes; a ring
/// that cannot be closed is reported, never guessed.
enum RingAssembler {
    struct Way {
        var id: Int64
        var nodeIDs: [Int64]
        var coordinates: [Coordinate]
    }

    /// - Returns: the closed rings (each first == last) and the ids of ways left in broken rings.
    static func rings(from ways: [Way]) -> (rings: [[Coordinate]], broken: [Int64]) {
        var unused = ways.filter { $0.nodeIDs.count >= 2 }
        var rings: [[Coordinate]] = []
        var broken: [Int64] = []
        while !unused.isEmpty {
            let first = unused.removeFirst()
            var nodeIDs = first.nodeIDs
            var coordinates = first.coordinates
            var used = [first.id]
            while nodeIDs.first != nodeIDs.last {
                let end = nodeIDs.last!
                guard let next = unused.firstIndex(where: { $0.nodeIDs.first == end || $0.nodeIDs.last == end }) else {
                    break
                }
                let way = unused.remove(at: next)
                used.append(way.id)
                let forward = way.nodeIDs.first == end
                nodeIDs += (forward ? way.nodeIDs : way.nodeIDs.reversed()).dropFirst()
                coordinates += (forward ? way.coordinates : way.coordinates.reversed()).dropFirst()
            }
            if nodeIDs.count >= 4 && nodeIDs.first == nodeIDs.last {
                rings.append(coordinates)
            } else {
                broken += used
            }
        }
        return (rings, broken)
    }
}
