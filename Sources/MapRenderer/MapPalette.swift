import CairoKit
import GeoCore
import MapCore
import MapData

/// The colours of the road map in one colour scheme.
public struct MapPalette: Sendable {
    /// Land where nothing else is drawn: the map's ground.
    public var land: Color
    /// Seas, lakes and rivers.
    public var water: Color
    /// Parks, woods and other green spaces.
    public var park: Color
    /// Built-up land use (residential, commercial, industrial, …).
    public var landuse: Color
    /// Building footprints, and the walls of 3D buildings.
    public var building: Color
    /// The outline drawn around each building.
    public var buildingOutline: Color
    /// Administrative borders.
    public var border: Color
    /// Railway lines.
    public var railway: Color
    /// Motorways, trunk and primary roads.
    public var majorRoad: Color
    /// The casing drawn under major roads.
    public var majorRoadCasing: Color
    /// Other roads and streets.
    public var road: Color
    /// The casing drawn under other roads.
    public var roadCasing: Color
    /// Footways, paths and tracks.
    public var path: Color
    /// Labels of places, roads and points of interest.
    public var label: Color
    /// The halo behind every label, for contrast.
    public var labelHalo: Color
    /// Names of parks and of waters.
    public var parkLabel: Color
    /// Names of waters (``parkLabel`` is the parks').
    public var waterLabel: Color
    /// Rooms of the indoor layer, and their walls.
    public var indoorRoom: Color
    /// The walls of the indoor layer's rooms.
    public var indoorWall: Color

    /// The light road map.
    public static let light = MapPalette(
        land: .init(hex: 0xF5F3EE), water: .init(hex: 0xAADAFF), park: .init(hex: 0xC6E8C0),
        landuse: .init(hex: 0xEDEAE3), building: .init(hex: 0xE6E2DA), buildingOutline: .init(hex: 0xD5CFC5),
        border: .init(hex: 0x9A8FA8), railway: .init(hex: 0xA9A9A9), majorRoad: .init(hex: 0xFFE08A),
        majorRoadCasing: .init(hex: 0xE5B95C), road: .init(hex: 0xFFFFFF), roadCasing: .init(hex: 0xD6D4CF),
        path: .init(hex: 0xC9C4BA), label: .init(hex: 0x3C4043), labelHalo: .init(hex: 0xFFFFFF),
        parkLabel: .init(hex: 0x2E7D32), waterLabel: .init(hex: 0x1967D2), indoorRoom: .init(hex: 0xFBF8F3),
        indoorWall: .init(hex: 0xB8AFA3))

    /// The dark road map.
    public static let dark = MapPalette(
        land: .init(hex: 0x242F3E), water: .init(hex: 0x17263C), park: .init(hex: 0x263C3F),
        landuse: .init(hex: 0x283443), building: .init(hex: 0x2F3A4B), buildingOutline: .init(hex: 0x3A4556),
        border: .init(hex: 0x8A7F9C), railway: .init(hex: 0x4F5A69), majorRoad: .init(hex: 0x746855),
        majorRoadCasing: .init(hex: 0x1F2835), road: .init(hex: 0x38414E), roadCasing: .init(hex: 0x212A37),
        path: .init(hex: 0x4B5563), label: .init(hex: 0xD0C4B0), labelHalo: .init(hex: 0x17263C),
        parkLabel: .init(hex: 0x7FB58A), waterLabel: .init(hex: 0x6FA8DC), indoorRoom: .init(hex: 0x34404F),
        indoorWall: .init(hex: 0x5C6878))

    /// The traffic layer's colour for a congestion level (the same in both schemes).
    public static func trafficColor(_ level: TrafficFeed.Congestion) -> Color {
        switch level {
        case .free: Color(hex: 0x34A853)
        case .moderate: Color(hex: 0xF29C38)
        case .heavy: Color(hex: 0xE8433A)
        case .stopped: Color(hex: 0x8B1A1A)
        }
    }

    /// The palette with labels for imagery: white text on a dark halo, which reads best over
    /// aerial pictures.
    public var overImagery: MapPalette {
        var palette = self
        palette.label = .white
        palette.labelHalo = Color(red: 0, green: 0, blue: 0, alpha: 0.75)
        return palette
    }

    /// The palette for a scheme; unspecified is light.
    public static func forScheme(_ scheme: UserInterfaceStyle?) -> MapPalette { scheme == .dark ? .dark : .light }
}
