import Foundation

/// What OSRM calls a roundabout a route enters, for its `maneuver.type`: a `roundabout`; a
/// `roundabout turn` (a small one that looks like a junction, told as a turn); a `rotary` (a
/// large ring with a name of its own, told by its name). Classified as OSRM's guidance
/// classifies them, walking the ring once from where the route enters it.
public enum Ring: String, Sendable, CaseIterable {
    case roundabout
    case roundaboutTurn = "roundabout turn"
    case rotary

    /// Radius below which a ring of simple, well-separated exits is a `roundabout turn`, and
    /// above which a named ring is a `rotary`: 15 m (OSRM's).
    static let turnRadius = 15.0
    static let rotaryRadius = 15.0
    /// Exits closer in heading than this are not told apart as turns: 40° (OSRM's narrow turn).
    static let narrowAngle = 40.0

    /// The ring `graph`'s edge `entry` (onto a roundabout way) runs around, and its name when
    /// it is a rotary: a ring with exactly one name, not a name of a road meeting it, and a
    /// radius (its length over 2π) above ``rotaryRadius``. A ring with one way off it, or
    /// with at most four exits each of one road, their headings more than ``narrowAngle``
    /// apart, and a radius below ``turnRadius``, is a roundabout turn. A ring that forks or
    /// does not close (data the walk cannot follow) is a plain roundabout.
    static func classify(entering entry: Int32, on graph: RoadGraph) -> (ring: Ring, name: String) {
        let lengths = graph.edgeLengths
        let start = graph.edgeFrom[Int(entry)]
        var edge = entry
        var length = 0.0
        var exits: [Int32] = []
        var names = Set<String>()
        var connected = Set<String>()
        for _ in 0..<256 {
            length += Double(lengths[Int(edge)])
            if let name = graph.way(of: edge).name, !name.isEmpty { names.insert(name) }
            let node = graph.edgeTo[Int(edge)]
            if graph.degree[Int(node)] > 2 { exits.append(node) }
            for other in graph.outEdges(of: Int(node)) + graph.inEdges(of: Int(node))
            where !graph.way(of: other).isRoundabout {
                if let name = graph.way(of: other).name { connected.insert(name) }
            }
            let onward = graph.outEdges(of: Int(node)).filter {
                graph.way(of: $0).isRoundabout && !graph.isUTurn(edge, $0)
            }
            guard onward.count == 1 else { return (.roundabout, "") }
            if node == start {
                let radius = length / (2 * .pi)
                if exits.count == 1 { return (.roundaboutTurn, "") }
                if names.count == 1, let name = names.first, !connected.contains(name), radius > rotaryRadius {
                    return (.rotary, name)
                }
                if radius < turnRadius, looksLikeAJunction(exits, on: graph) { return (.roundaboutTurn, "") }
                return (.roundabout, "")
            }
            edge = onward[0]
        }
        return (.roundabout, "")
    }

    /// Whether a ring's exit nodes look like a junction's arms: at most four, each with one
    /// road off the ring, their headings more than ``narrowAngle`` apart.
    private static func looksLikeAJunction(_ exits: [Int32], on graph: RoadGraph) -> Bool {
        guard exits.count <= 4, exits.allSatisfy({ graph.degree[Int($0)] <= 3 }) else { return false }
        var headings: [Double] = []
        for node in exits {
            if let out = graph.outEdges(of: Int(node)).first(where: { !graph.way(of: $0).isRoundabout }) {
                headings.append(normalized(Double(graph.edgeBearing[Int(out)])))
            } else if let into = graph.inEdges(of: Int(node)).first(where: { !graph.way(of: $0).isRoundabout }) {
                headings.append(normalized(Double(graph.edgeBearing[Int(into)]) + 180))
            }
        }
        headings.sort()
        /// Degrees in 0..<360.
        func normalized(_ degrees: Double) -> Double {
            let turned = degrees.truncatingRemainder(dividingBy: 360)
            return turned < 0 ? turned + 360 : turned
        }
        return zip(headings, headings.dropFirst()).allSatisfy { $1 - $0 > narrowAngle }
    }
}
