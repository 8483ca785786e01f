import GeoCore

/// What a map view draws, derived from its type, layers, camera and scheme: the one
/// description the renderer follows.
public struct MapContent: Sendable, Equatable, Codable {
    /// The base map under everything.
    public enum Base: String, Sendable, Codable {
        /// Nothing: background and overlays only (`mapType == .none`).
        case none
        /// The cartographic road map.
        case roadMap
        /// Satellite imagery.
        case imagery
        /// Shaded relief with contours.
        case relief

        /// The base a map type draws.
        public init(_ mapType: MapType) {
            switch mapType {
            case .normal: self = .roadMap
            case .hybrid, .satellite: self = .imagery
            case .terrain: self = .relief
            case .none: self = .none
            }
        }
    }

    /// What is drawn under everything.
    public var base: Base
    /// Roads drawn over the base (normal, hybrid, terrain).
    public var roads: Bool
    /// Place, road and feature labels (normal, hybrid, terrain; never satellite or none).
    public var labels: Bool
    /// The colour scheme in use: set for normal and terrain, nil for the others.
    public var colorScheme: UserInterfaceStyle?
    /// Traffic congestion: requested and the type is not `none`.
    public var traffic: Bool
    /// Transit lines and stations: requested and the type is not `none`.
    public var transit: Bool
    /// Cycle tracks, lanes, friendly streets, trails and routes: requested and roads are drawn
    /// (normal, hybrid, terrain).
    public var bicycling: Bool
    /// Indoor floor plans: enabled, normal type, zoom at least ``MapView/indoorMinZoom``.
    public var indoor: Bool
    /// Extruded 3D buildings: enabled, normal type, tilted camera.
    public var buildings3D: Bool
    /// The background colour: cloud style first, then the explicit colour, then the scheme's.
    public var backgroundColor: Color
    /// Which style dresses the map: the cloud style of the map ID wins over a JSON style,
    /// which applies only on the normal type.
    public var style: StyleSource

    /// Where the map's style comes from.
    public enum StyleSource: String, Sendable, Codable {
        case standard, cloud, json
    }
}

extension MapView {
    /// The zoom from which indoor floor plans show (Google gives none; 17 as AMap).
    public static let indoorMinZoom = 17.0

    /// The light or dark scheme after following the system for `.unspecified`.
    public var resolvedUserInterfaceStyle: UserInterfaceStyle {
        overrideUserInterfaceStyle == .unspecified
            ? (systemUserInterfaceStyle == .dark ? .dark : .light) : overrideUserInterfaceStyle
    }

    /// What the map draws now.
    public var content: MapContent {
        let scheme = resolvedUserInterfaceStyle
        let schemed = mapType == .normal || mapType == .terrain
        let base = MapContent.Base(mapType)
        let schemeBackground: Color = schemed && scheme == .dark ? .darkGray : .lightGray
        let background =
            (mapID != nil ? cloudStyleBackgroundColor : nil) ?? explicitBackgroundColor ?? schemeBackground
        return MapContent(
            base: base,
            roads: mapType == .normal || mapType == .hybrid || mapType == .terrain,
            labels: mapType == .normal || mapType == .hybrid || mapType == .terrain,
            colorScheme: schemed ? scheme : nil,
            traffic: isTrafficEnabled && mapType != .none,
            transit: isTransitEnabled && mapType != .none,
            bicycling: isBicyclingEnabled && (mapType == .normal || mapType == .hybrid || mapType == .terrain),
            indoor: isIndoorEnabled && mapType == .normal && camera.zoom >= Self.indoorMinZoom,
            buildings3D: isBuildingsEnabled && mapType == .normal && camera.viewingAngle > 0,
            backgroundColor: background,
            style: mapID != nil ? .cloud : (mapStyle != nil && mapType == .normal ? .json : .standard))
    }
}
