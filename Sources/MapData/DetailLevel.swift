/// A level of detail of the world layers (GSHHG's resolutions), coarsest first: each level
/// keeps shapes and vertices down to about 25 km, 5 km, 1 km, 200 m and 40 m.
public enum DetailLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case crude = "c"
    case low = "l"
    case intermediate = "i"
    /// From `data install --hires`.
    case high = "h"
    /// From `data install --hires`.
    case full = "f"

    public static func < (lhs: DetailLevel, rhs: DetailLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
