import CairoKit
import GeoCore
import MapCore
import MapData

/// How the transit layer draws one mode of OSM `route` relation and its stops.
enum TransitMode: String, CaseIterable {
    case train, subway, lightRail = "light_rail", tram, monorail, ferry, bus, trolleybus

    /// Line colour.
    var color: Color {
        switch self {
        case .train: Color(hex: 0x8C4799)
        case .subway: Color(hex: 0xFF6319)
        case .lightRail, .monorail: Color(hex: 0x00A19A)
        case .tram: Color(hex: 0x00985F)
        case .ferry: Color(hex: 0x0089C7)
        case .bus, .trolleybus: Color(hex: 0x2F6FC4)
        }
    }

    /// Line width in points at zoom 15 (see ``MapRenderer/width(_:zoom:)``).
    var width: Double {
        switch self {
        case .train, .subway, .lightRail, .monorail: 4
        case .tram: 3
        case .ferry, .bus, .trolleybus: 1.6
        }
    }

    /// Drawing order: buses lowest, trains on top.
    var rank: Int { Self.allCases.count - Self.allCases.firstIndex(of: self)! }
}

extension MapRenderer {
    /// The transit layer's colour and width in points at zoom 15 for a line of OSM `route` kind
    /// `kind` (`train`, `subway`, `light_rail`, `tram`, `monorail`, `ferry`, `bus`,
    /// `trolleybus`), when its route gives no colour of its own; nil for other kinds.
    public static func transitLook(_ kind: String) -> (color: Color, width: Double)? {
        TransitMode(rawValue: kind).map { ($0.color, $0.width) }
    }

    /// The transit layer's lines: each route (an OSM `route` relation or a GTFS route) in its own
    /// colour, else its mode's, over a white casing, buses below trams below rail.
    func drawTransitLines(_ painter: inout Painter, scene: Scene, zoom: Double) {
        let routes = scene.local(.route).compactMap { feature in
            TransitMode(rawValue: feature.kind).map { (feature, $0) }
        }.filter { zoom >= ZoomRules.transitLine($0.0.kind) }.sorted { ($0.1.rank, $0.0.id) < ($1.1.rank, $1.0.id) }
        for (feature, mode) in routes {
            let width = Self.width(mode.width, zoom: zoom)
            painter.stroke(feature, .white, width: width + 2)
            painter.stroke(feature, feature.colour ?? mode.color, width: width, dash: mode == .ferry ? [6, 4] : [])
        }
    }

    /// Stations with their names from zoom 13; with the transit layer on, also subway
    /// entrances and tram and bus stops from zoom 16, in their mode's colour.
    func placeTransitStops(
        _ placer: inout LabelPlacer, scene: Scene, zoom: Double, projection: Projection, layer: Bool
    ) {
        guard zoom >= ZoomRules.stops else { return }
        let kinds: [String: (rank: Int, color: Color)] = [
            "station": (0, TransitMode.train.color), "subway_entrance": (1, TransitMode.subway.color),
            "tram_stop": (2, TransitMode.tram.color), "bus_stop": (3, TransitMode.bus.color),
        ]
        let stops = scene.local(.transit).compactMap { feature in
            kinds[feature.kind].map { (feature, $0) }
        }.filter { feature, _ in
            feature.name != nil && zoom >= ZoomRules.transitStop(feature.kind) ?? .infinity
                && (layer || feature.kind == "station")
        }.sorted { ($0.1.rank, $0.0.id) < ($1.1.rank, $1.0.id) }
        for (feature, style) in stops {
            guard let anchor = feature.geometry.anchor, let name = feature.name else { continue }
            placer.placeIcon(
                name, at: projection.point(for: anchor), look: LabelLook(icon: style.color, palette: placer.palette))
        }
    }
}
