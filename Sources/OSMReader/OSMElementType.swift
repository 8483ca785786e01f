/// The three kinds of OpenStreetMap element.
///
/// The raw value is the PBF relation member type (0 node, 1 way, 2 relation); ``code`` is the
/// one-letter form the store keeps beside an OSM id (`n`, `w`, `r`, as in OSM's own tools).
public enum OSMElementType: Int, Sendable, Hashable, Codable, CaseIterable {
    case node = 0
    case way = 1
    case relation = 2

    /// `n`, `w` or `r`.
    public var code: String {
        switch self {
        case .node: "n"
        case .way: "w"
        case .relation: "r"
        }
    }

    /// The type of a one-letter ``code``; nil for anything else.
    public init?(code: String) {
        guard let type = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = type
    }
}
