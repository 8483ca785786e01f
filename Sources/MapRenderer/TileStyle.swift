import GeoCore
import MapCore

/// How one tile is drawn: map type, colour scheme, layers, the language of names and the
/// pixel density. A web map asks for tiles in one style; its ``key`` names the style in caches.
public struct TileStyle: Sendable, Hashable {
    /// The map type; normal by default.
    public var mapType: MapType = .normal
    /// Light (the default) or dark; unspecified draws light.
    public var style: UserInterfaceStyle = .light
    /// The traffic layer (coloured where a traffic feed is loaded); off by default.
    public var traffic = false
    /// The transit layer; off by default.
    public var transit = false
    /// The bicycling layer; off by default.
    public var bicycling = false
    /// The language of place names where the data has them; nil (the default) for local names.
    public var language: Language?
    /// Pixels per point: 1 (256-pixel tiles, the default) or 2 (512-pixel `@2x` tiles).
    public var scale = 1

    /// The normal light map, no layers, local names, 256-pixel tiles.
    public init() {}

    /// The pixel densities served: 1 and 2.
    public static let scales = 1...2

    /// The style as a short stable name, for cache keys: `normal.light.-.-.-.local.1`.
    public var key: String {
        [
            mapType.rawValue, style == .dark ? "dark" : "light", traffic ? "traffic" : "-", transit ? "transit" : "-",
            bicycling ? "bicycling" : "-", language?.rawValue ?? "local", "\(scale)",
        ].joined(separator: ".")
    }
}
