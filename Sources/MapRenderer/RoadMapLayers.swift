import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

/// The road map's layers and style: world land and water, the street data's areas,
/// buildings, railways and roads by class and level, the traffic layer; with the zooms each
/// appears from.
extension MapRenderer {
    /// Sea, land, lakes and rivers of the world; land use, parks, water and buildings of the
    /// store's street data from zoom 11.
    /// - Parameter overRaster: true when a raster is already drawn, which then stands for the
    ///   sea instead of a plain fill.
    func drawRoadMapBase(
        _ painter: inout Painter, scene: Scene, zoom: Double, palette: MapPalette, extrudeBuildings: Bool,
        overRaster: Bool = false
    ) {
        if !overRaster { painter.canvas.fill(all: palette.water) }
        // GSHHG's levels one inside the other: land, lakes, islands in lakes, ponds on them.
        let islandInLake = FeatureKind.worldIslandInLake.kind
        let pond = FeatureKind.worldPond.kind
        painter.fill(scene.world(.land).filter { $0.kind != islandInLake }, palette.land)
        painter.fill(scene.world(.water).filter { $0.kind != pond }, palette.water)
        painter.fill(scene.world(.land).filter { $0.kind == islandInLake }, palette.land)
        painter.fill(scene.world(.water).filter { $0.kind == pond }, palette.water)
        guard zoom >= ZoomRules.streetData else {
            if zoom >= ZoomRules.worldRivers {
                for feature in scene.world(.waterway) { painter.stroke(feature, palette.water, width: 1) }
            }
            return
        }
        // Inside an imported region with a coast, its own sea and land (from its coastline)
        // replace the world's, whose shorelines are a staircase at street zoom.
        let water = scene.local(.water)
        painter.fill(water.filter { $0.kind == FeatureKind.extractSea.kind }, palette.water)
        painter.fill(scene.local(.land), palette.land)
        painter.fill(scene.local([.landuse, .landcover]), palette.landuse)
        painter.fill(scene.local(.park), palette.park)
        painter.fill(water.filter { $0.kind != FeatureKind.extractSea.kind }, palette.water)
        for feature in scene.local(.waterway) {
            painter.stroke(feature, palette.water, width: Self.width(3, zoom: zoom))
        }
        // Under a tilted camera with 3D buildings on, buildings rise after the roads instead.
        if zoom >= ZoomRules.buildings && !extrudeBuildings {
            // Outlined from zoom 16, where a building is big enough for a wall line to show.
            let outline = zoom >= ZoomRules.buildingOutlines ? palette.buildingOutline : nil
            for feature in scene.local(.building) {
                painter.fill(feature, palette.building, outline: outline)
            }
        }
        // Railways above ground: main lines, light rail and trams (thinner), from zoom 11.
        for feature in scene.local(.railway) where !feature.isTunnel {
            switch feature.kind {
            case "rail", "light_rail", "narrow_gauge":
                painter.stroke(feature, palette.railway, width: Self.width(1.5, zoom: zoom))
            case "tram" where zoom >= ZoomRules.trams:
                painter.stroke(feature, palette.railway, width: Self.width(0.8, zoom: zoom))
            default:
                continue
            }
        }
    }

    /// The street-data classes a picture reads: places always; from zoom 11 the areas and
    /// railways (road map and terrain) and the roads (where the type has roads); transit
    /// routes with the transit layer; stops from zoom 13 and POIs from zoom 16 where the type
    /// has labels; indoor plans, and everything that carries a floor, with indoor maps.
    static func localClasses(zoom: Double, content: MapContent) -> Set<FeatureClass> {
        var classes: Set<FeatureClass> = [.place]
        if zoom >= ZoomRules.streetData && (content.base == .roadMap || content.base == .relief) {
            classes.formUnion([.land, .landuse, .landcover, .park, .water, .waterway, .railway])
            if zoom >= ZoomRules.buildings { classes.insert(.building) }
        }
        if zoom >= ZoomRules.streetData && content.roads { classes.insert(.road) }
        if content.transit { classes.insert(.route) }
        if content.bicycling {
            classes.insert(.cycling)
            if zoom >= ZoomRules.pointsOfInterest { classes.insert(.poi) }
        }
        if zoom >= ZoomRules.stops && content.labels { classes.insert(.transit) }
        if zoom >= ZoomRules.pointsOfInterest && content.labels { classes.insert(.poi) }
        if content.indoor { classes.formUnion(leveledClasses) }
        return classes
    }

    /// Roads by class, level by level; returns the roads drawn with their styles.
    func drawRoads(
        _ painter: inout Painter, scene: Scene, zoom: Double, palette: MapPalette
    ) -> [(MapStore.Feature, RoadStyle)] {
        let roads = scene.local(.road).compactMap {
            feature in RoadStyle(kind: feature.kind).map { (feature, $0) }
        }.filter { zoom >= $0.1.minZoom }
        // Squares and plazas mapped as areas are paved surfaces, not centre lines.
        for (feature, _) in roads where feature.geometry.isArea {
            painter.fill(feature, palette.road, outline: palette.roadCasing)
        }
        // Level by level, bottom up (tunnels below, bridges above): casings, then fills, so a
        // bridge's casing cuts across the roads it passes over.
        let lines = roads.filter { !$0.0.geometry.isArea }
        for level in Set(lines.map { $0.0.drawingLevel }).sorted() {
            let onLevel = lines.filter { $0.0.drawingLevel == level }.sorted { $0.1.rank < $1.1.rank }
            for (feature, style) in onLevel where style.casing {
                painter.stroke(
                    feature, style.major ? palette.majorRoadCasing : palette.roadCasing,
                    width: Self.width(style.width, zoom: zoom) + 2, dash: feature.isTunnel ? [3, 2] : [])
            }
            for (feature, style) in onLevel {
                var color = style.path ? palette.path : style.major ? palette.majorRoad : palette.road
                if feature.isTunnel { color.alpha = 0.5 }
                painter.stroke(
                    feature, color, width: Self.width(style.width, zoom: zoom), dash: style.path ? [2, 2] : [])
            }
        }
        return roads
    }

    /// The traffic layer: each road the feed lists, in its congestion colour over its fill
    /// (casings stay visible); paths and squares are never coloured.
    func drawTraffic(_ painter: inout Painter, roads: [(MapStore.Feature, RoadStyle)], zoom: Double) {
        guard !traffic.levels.isEmpty else { return }
        for (feature, style) in roads where !feature.geometry.isArea && !style.path {
            guard feature.osmType == .way, let id = feature.osmID, let level = traffic[way: id] else { continue }
            let color = MapPalette.trafficColor(level)
            guard painter.addOutline(of: feature) else { continue }
            painter.canvas.stroke(color, width: max(Self.width(style.width, zoom: zoom) * 0.7, 1.5))
            painter.report.traffic[level, default: 0] += 1
        }
    }

    /// How the road map draws a road of OSM `highway` kind `kind` at `zoom`: its width in
    /// points, whether it is a major road (drawn in ``MapPalette/majorRoad``), a path (dashed in
    /// ``MapPalette/path``, no casing) or cased; nil for kinds not drawn as roads. The vector
    /// styles draw by the same figures.
    public static func roadLook(_ kind: String, zoom: Double) -> (width: Double, major: Bool, path: Bool, casing: Bool)?
    {
        guard let style = RoadStyle(kind: kind) else { return nil }
        return (width(style.width, zoom: zoom), style.major, style.path, style.casing)
    }

    /// A line width in points at `zoom` for one of `base` points at zoom 15: halving per zoom
    /// below 15, growing by half per zoom above (streets stay streets, not slabs); 0.5...40.
    public static func width(_ base: Double, zoom: Double) -> Double {
        min(max(base * pow(zoom < 15 ? 2 : 1.5, zoom - 15), 0.5), 40)
    }

}

struct RoadStyle {
    /// The rank from which a road's name is written in the major streets' size: 6 (secondary).
    static let majorNameRank = 6

    /// Width in points at zoom 15.
    var width: Double
    var major = false
    var path = false
    var casing = true
    /// Drawing order: higher on top.
    var rank: Int
    /// Drawn from this zoom on (``ZoomRules/road(_:)``).
    var minZoom: Double
}

extension RoadStyle {
    /// The style of an OSM `highway` kind, or nil for kinds not drawn as roads.
    init?(kind: String) {
        guard let minZoom = ZoomRules.road(kind) else { return nil }
        switch kind {
        case "motorway", "trunk": self.init(width: 9, major: true, rank: 9, minZoom: minZoom)
        case "primary": self.init(width: 8, major: true, rank: 8, minZoom: minZoom)
        case "motorway_link", "trunk_link", "primary_link": self.init(width: 5, major: true, rank: 7, minZoom: minZoom)
        case "secondary": self.init(width: 7, rank: 6, minZoom: minZoom)
        case "tertiary", "secondary_link", "tertiary_link": self.init(width: 6, rank: 5, minZoom: minZoom)
        case "residential", "unclassified", "living_street", "road": self.init(width: 5, rank: 4, minZoom: minZoom)
        case "pedestrian": self.init(width: 4, rank: 3, minZoom: minZoom)
        case "service": self.init(width: 3, rank: 2, minZoom: minZoom)
        case "footway", "path", "cycleway", "steps", "track", "bridleway", "trail":
            self.init(width: 1.2, path: true, casing: false, rank: 1, minZoom: minZoom)
        default: return nil
        }
    }
}
