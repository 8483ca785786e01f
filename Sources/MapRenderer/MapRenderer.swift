import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

/// Draws what a ``MapView`` describes from a ``MapStore``, in the view's frame: the base map
/// its type and scheme ask for, roads and labels where the type has them, the overlays, the
/// My Location dot and the controls.
///
/// Bases: the road map (world land, lakes, rivers and borders at every zoom; OSM land use,
/// parks, water, buildings, railways and roads by class where the store has street data) in
/// the light and dark schemes, the Blue Marble mosaic for satellite and hybrid, the shaded
/// relief for terrain (under the street data's areas at street zooms), and the background
/// alone for `none`. Labels never overlap: place names biggest first, then the names of parks
/// and waters wide enough to hold them, transit stops, street names along their streets, and
/// POIs with category icons. Layers: traffic from a
/// ``TrafficFeed``, transit lines and stops, the indoor floor shown, 3D buildings under tilt,
/// My Location with its accuracy and heading. One picture reads the store twice (a
/// ``Scene``); ``TileRenderer`` draws XYZ tiles with the same code.
public struct MapRenderer {
    public let store: MapStore
    /// Congestion for the traffic layer; empty by default (the layer then colours nothing).
    public var traffic: TrafficFeed
    /// Draws the world's full level of detail from zoom 8 where the store has it (`data
    /// install --hires`); false keeps the intermediate level, so pictures do not depend on
    /// whether it was installed. Default true.
    public var usesFullWorldDetail = true

    public init(store: MapStore, traffic: TrafficFeed = TrafficFeed()) {
        self.store = store
        self.traffic = traffic
    }

    /// What a render drew, for callers and tests.
    public struct Report: Sendable, Equatable {
        /// Features drawn, by class.
        public var features: [String: Int] = [:]
        /// Labels placed (after collisions).
        public var labels: [String] = []
        /// Overlays drawn (markers, polylines, polygons, circles).
        public var overlays = 0
        /// Ground overlay images that could not be read (their paths).
        public var missingImages: [String] = []
        /// Roads the traffic layer coloured, by congestion level.
        public var traffic: [TrafficFeed.Congestion: Int] = [:]
        /// The data credited in the attribution line, e.g. "© OpenStreetMap contributors".
        public var credits: [String] = []
        /// What the picture says about missing data (street zooms outside every imported
        /// region), or nil.
        public var notice: String?
    }

    /// Renders `view` onto a new canvas of the view's frame size.
    ///
    /// - Parameters:
    ///   - scale: device pixels per point for PNG, 1...8; default 1.
    ///   - controls: false for map tiles: no controls, logo, attribution or notice drawn (the
    ///     report still lists the credits); default true.
    public func render(
        _ view: MapView, format: PictureFormat = .png, scale: Double = 1, controls: Bool = true
    ) throws -> (Canvas, Report) {
        let size = view.frame.size
        let canvas = try Canvas(width: size.width, height: size.height, scale: scale, format: format)
        let content = view.content
        canvas.fill(all: CairoKit.Color(content.backgroundColor))
        let projection = view.projection
        let zoom = view.camera.zoom
        var palette = MapPalette.forScheme(content.colorScheme)
        if content.base == .imagery {
            // Over imagery, light text on a dark halo reads best.
            palette.label = .white
            palette.labelHalo = CairoKit.Color(red: 0, green: 0, blue: 0, alpha: 0.75)
        }
        let bounds = Self.bounds(of: projection.visibleRegion, viewWidth: size.width, zoom: zoom)
        var painter = Painter(canvas: canvas, projection: projection, report: Report())
        guard content.base != .none else {
            painter.drawOverlays(of: view, label: palette.label, halo: palette.labelHalo)
            painter.drawMyLocation(of: view)
            if controls {
                ControlPainter(canvas: canvas, palette: palette).draw(view.controlLayout, bearing: 0, credits: [])
            }
            return (canvas, painter.report)
        }
        // 3D buildings on the road map under tilt, from zoom 15.
        let extrudeBuildings = content.buildings3D && zoom >= Self.buildingsZoom
        let scene = try Scene(
            store: store, bounds: bounds, zoom: zoom, classes: Self.localClasses(zoom: zoom, content: content),
            fullDetail: usesFullWorldDetail)

        switch content.base {
        case .roadMap:
            drawRoadMapBase(&painter, scene: scene, zoom: zoom, palette: palette, extrudeBuildings: extrudeBuildings)
        case .imagery:
            try drawRaster(named: "bmng", on: canvas, projection: projection)
        case .relief:
            try drawRaster(named: "shadedrelief", on: canvas, projection: projection)
            // The relief has no detail at street zooms: the road map's areas go over it,
            // translucent, so the terrain's tint stays.
            if zoom >= 11 {
                var overRelief = palette
                overRelief.land = palette.land.withAlpha(0.75)
                drawRoadMapBase(
                    &painter, scene: scene, zoom: zoom, palette: overRelief, extrudeBuildings: false, overRaster: true)
            }
        case .none:
            break
        }
        var roads: [(MapStore.Feature, RoadStyle)] = []
        if content.roads && zoom >= 11 {
            roads = drawRoads(&painter, scene: scene, zoom: zoom, palette: palette)
        }
        // Indoor maps: the active floor of the building in focus, else the default floor of
        // the levels in view (tiles have no floor picker), from the features already read.
        let floor =
            content.indoor
            ? view.activeLevel?.name
                ?? (view.activeBuilding ?? Self.floors(of: Self.leveledClasses.flatMap { scene.local($0) }))?
                .defaultLevel?.name : nil
        if let floor { drawIndoor(&painter, scene: scene, level: floor, palette: palette) }
        if content.traffic { drawTraffic(&painter, roads: roads, zoom: zoom) }
        if content.transit { drawTransitLines(&painter, scene: scene, zoom: zoom) }
        if extrudeBuildings {
            painter.drawExtruded(scene.local("building"), palette: palette)
        }
        // Country borders at every zoom, state and province borders from zoom 4.
        for feature in scene.world("border") where feature.kind == "country" || zoom >= 4 {
            painter.stroke(feature, palette.border, width: feature.kind == "country" ? 1.2 : 0.6, dash: [4, 3])
        }
        var labels: [String] = []
        if content.labels {
            var placer = LabelPlacer(
                canvas: canvas, palette: palette, reserved: controls ? Self.reservedBoxes(view.controlLayout) : [])
            placeNames(&placer, scene: scene, zoom: zoom, projection: projection)
            placeAreaNames(&placer, scene: scene, zoom: zoom, projection: projection)
            placeTransitStops(&placer, scene: scene, zoom: zoom, projection: projection, layer: content.transit)
            placeStreetNames(&placer, roads: roads, zoom: zoom, projection: projection)
            if zoom >= Self.poiZoom {
                placePOIs(&placer, scene: scene, zoom: zoom, projection: projection, floor: floor)
            }
            labels = placer.placed
        }
        painter.drawOverlays(of: view, label: palette.label, halo: palette.labelHalo)
        painter.drawMyLocation(of: view)
        var report = painter.report
        report.labels = labels
        let coverage = try coverage(of: bounds, zoom: zoom, labelled: !labels.isEmpty)
        if let notice = coverage.notice, controls {
            drawNotice(notice, on: canvas, palette: palette)
            report.notice = notice
        }
        report.credits = coverage.credits
        if controls {
            ControlPainter(canvas: canvas, palette: palette).draw(
                view.controlLayout, bearing: view.camera.bearing, credits: report.credits,
                floors: view.activeBuilding?.levels ?? [], activeFloor: view.activeLevel)
        }
        return (canvas, report)
    }

    /// Sea, land, lakes and rivers of the world; land use, parks, water and buildings of the
    /// store's street data from zoom 11.
    /// - Parameter overRaster: true when a raster is already drawn, which then stands for the
    ///   sea instead of a plain fill.
    private func drawRoadMapBase(
        _ painter: inout Painter, scene: Scene, zoom: Double, palette: MapPalette, extrudeBuildings: Bool,
        overRaster: Bool = false
    ) {
        if !overRaster { painter.canvas.fill(all: palette.water) }
        for feature in scene.world("land") { painter.fill(feature, palette.land) }
        for feature in scene.world("water") { painter.fill(feature, palette.water) }
        guard zoom >= 11 else {
            if zoom >= 4 {
                for feature in scene.world("waterway") { painter.stroke(feature, palette.water, width: 1) }
            }
            return
        }
        for feature in scene.local(["landuse", "landcover"]) { painter.fill(feature, palette.landuse) }
        for feature in scene.local("park") { painter.fill(feature, palette.park) }
        for feature in scene.local("water") { painter.fill(feature, palette.water) }
        for feature in scene.local("waterway") {
            painter.stroke(feature, palette.water, width: Self.width(3, zoom: zoom))
        }
        // Under a tilted camera with 3D buildings on, buildings rise after the roads instead.
        if zoom >= 14 && !extrudeBuildings {
            for feature in scene.local("building") {
                painter.fill(feature, palette.building, outline: palette.buildingOutline)
            }
        }
        // Railways above ground: main lines, light rail and trams (thinner), from zoom 11.
        for feature in scene.local("railway") where !feature.isTunnel {
            switch feature.kind {
            case "rail", "light_rail", "narrow_gauge":
                painter.stroke(feature, palette.railway, width: Self.width(1.5, zoom: zoom))
            case "tram" where zoom >= 14:
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
    static func localClasses(zoom: Double, content: MapContent) -> Set<String> {
        var classes: Set<String> = ["place"]
        if zoom >= 11 && (content.base == .roadMap || content.base == .relief) {
            classes.formUnion(["landuse", "landcover", "park", "water", "waterway", "railway"])
            if zoom >= 14 { classes.insert("building") }
        }
        if zoom >= 11 && content.roads { classes.insert("road") }
        if content.transit { classes.insert("route") }
        if zoom >= 13 && content.labels { classes.insert("transit") }
        if zoom >= poiZoom && content.labels { classes.insert("poi") }
        if content.indoor { classes.formUnion(leveledClasses) }
        return classes
    }

    /// Roads by class, level by level; returns the roads drawn with their styles.
    private func drawRoads(
        _ painter: inout Painter, scene: Scene, zoom: Double, palette: MapPalette
    ) -> [(MapStore.Feature, RoadStyle)] {
        let roads = scene.local("road").compactMap {
            feature in RoadStyle(kind: feature.kind).map { (feature, $0) }
        }.filter { zoom >= $0.1.minZoom }
        // Squares and plazas mapped as areas are paved surfaces, not centre lines.
        for (feature, _) in roads where feature.isArea {
            painter.fill(feature, palette.road, outline: palette.roadCasing)
        }
        // Level by level, bottom up (tunnels below, bridges above): casings, then fills, so a
        // bridge's casing cuts across the roads it passes over.
        let lines = roads.filter { !$0.0.isArea }
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
    private func drawTraffic(_ painter: inout Painter, roads: [(MapStore.Feature, RoadStyle)], zoom: Double) {
        guard !traffic.levels.isEmpty else { return }
        for (feature, style) in roads where !feature.isArea && !style.path {
            guard feature.osmType == "w", let id = feature.osmID, let level = traffic[way: id] else { continue }
            let color = MapPalette.trafficColor(level)
            guard painter.addOutline(of: feature) else { continue }
            painter.canvas.stroke(color, width: max(Self.width(style.width, zoom: zoom) * 0.7, 1.5))
            painter.report.traffic[level, default: 0] += 1
        }
    }

    /// A world raster (plate carrée, -180...180 by 90...-90) reprojected pixel by pixel into
    /// the view, whatever its bearing and tilt.
    private func drawRaster(named name: String, on canvas: Canvas, projection: Projection) throws {
        guard let raster = try store.rasters().first(where: { $0.name == name }) else {
            throw DataError(message: "the store has no '\(name)' raster (run 'openmaps data install')")
        }
        let image = try RasterCache.shared.image(at: raster.path)
        try canvas.paintPixels { x, y in
            let coordinate = projection.coordinate(for: Point(x: x, y: y))
            return image.sample(u: (coordinate.longitude + 180) / 360, v: (90 - coordinate.latitude) / 180)
        }
    }

    /// What the data holds where a picture looks.
    public struct Coverage: Sendable, Equatable {
        /// The credits of the attribution line: street data in view (from zoom 11), the world
        /// layers, place names when labels are drawn.
        public var credits: [String]
        /// The imported street-data regions in view, by name.
        public var regions: [String]
        /// ``noStreetDataNotice`` at street zooms (``streetZoom`` and closer) outside every
        /// imported region, else nil.
        public var notice: String?
    }

    /// What the data holds where `view` looks, as ``render(_:format:scale:controls:)`` credits
    /// and notes it (place names credited when the view's type has labels).
    public func coverage(of view: MapView) throws -> Coverage {
        let bounds = Self.bounds(
            of: view.projection.visibleRegion, viewWidth: view.frame.size.width, zoom: view.camera.zoom)
        let content = view.content
        return try coverage(of: bounds, zoom: view.camera.zoom, labelled: content.base != .none && content.labels)
    }

    /// Street zooms show streets only where a region was imported; elsewhere the picture says
    /// so instead of passing coarse world data off as a street map.
    func coverage(of bounds: CoordinateBounds, zoom: Double, labelled: Bool) throws -> Coverage {
        let regions = try store.sources(counting: false).filter { $0.kind == "osm" && $0.bounds.intersects(bounds) }
        return Coverage(
            credits: Self.credits(streets: zoom >= 11 && !regions.isEmpty, placeNames: labelled),
            regions: regions.map(\.name),
            notice: zoom >= Self.streetZoom && regions.isEmpty ? Self.noStreetDataNotice : nil)
    }

    /// The credits of an attribution line: OpenStreetMap when street data is shown, the world
    /// layers always, GeoNames when place names are.
    public static func credits(streets: Bool, placeNames: Bool) -> [String] {
        ((streets ? ["osm"] : []) + ["basemap"] + (placeNames ? ["gazetteer"] : [])).compactMap {
            ControlPainter.credits[$0]
        }
    }

    /// What a street-zoom picture says outside every imported region.
    public static let noStreetDataNotice =
        "No street data here: import an OpenStreetMap extract with 'openmaps import'"

    /// The zoom from which a map is expected to show streets: 13.
    public static let streetZoom = 13.0

    /// A notice in a rounded box at the bottom centre of the picture.
    private func drawNotice(_ text: String, on canvas: Canvas, palette: MapPalette) {
        let layout = TextLayout(text, size: 12, maxWidth: canvas.width - 40, on: canvas)
        let box = layout.logicalBox
        let x = (canvas.width - box.width) / 2
        let y = canvas.height - box.height - 28
        canvas.rectangle(x: x - 10, y: y - 6, width: box.width + 20, height: box.height + 12)
        canvas.fill(palette.labelHalo.withAlpha(0.9), keepPath: true)
        canvas.stroke(palette.label, width: 0.5)
        layout.draw(x: x, y: y, color: palette.label)
    }

    /// Place names, biggest first, each only where it overlaps no earlier one.
    private func placeNames(_ placer: inout LabelPlacer, scene: Scene, zoom: Double, projection: Projection) {
        let minimumPopulation: Int64 = zoom < 5 ? 1_000_000 : zoom < 8 ? 100_000 : zoom < 11 ? 15_000 : 0
        // Countries label the map up to zoom 6, then give way to cities; the extract's own
        // places (suburbs, quarters) join from zoom 11.
        let places = scene.local("place").filter {
            $0.name != nil && ($0.population ?? 0) >= minimumPopulation
                && ($0.kind == "country" ? zoom < 7 : zoom >= 11 || $0.osmType == nil)
        }.sorted {
            // From zoom 5, cities come first and countries fill the gaps (a country's point is
            // its capital, which would otherwise lose its own name).
            let first = zoom >= 5 && $0.kind == "country" ? 0 : 1
            let second = zoom >= 5 && $1.kind == "country" ? 0 : 1
            return (first, $0.population ?? 0, $0.id) > (second, $1.population ?? 0, $1.id)
        }
        for place in places {
            // One label a name: the gazetteer's city and the extract's place are the same town.
            guard case .point(let coordinate) = place.geometry, let name = place.name, !placer.placed.contains(name)
            else { continue }
            placer.place(
                name, centredAt: projection.point(for: coordinate), size: (place.population ?? 0) > 1_000_000 ? 14 : 12)
        }
    }

    /// Names of parks and waters, in italics of their own colour, from zoom 15, at their
    /// ``Geometry/anchor``: only areas at least as wide on the picture as their name (about
    /// 5.5 points a character), the widest first.
    private func placeAreaNames(_ placer: inout LabelPlacer, scene: Scene, zoom: Double, projection: Projection) {
        guard zoom >= 15 else { return }
        let areas = (scene.local("park") + scene.local("water")).compactMap { feature -> (MapStore.Feature, Double)? in
            guard let name = feature.name, case .polygon(let rings) = feature.geometry, let outer = rings.first else {
                return nil
            }
            let xs = projection.points(forPath: outer).map(\.x).filter(\.isFinite)
            guard let left = xs.min(), let right = xs.max(), right - left >= Double(name.count) * 5.5 else {
                return nil
            }
            return (feature, right - left)
        }.sorted { ($0.1, $1.0.id) > ($1.1, $0.0.id) }
        for (feature, _) in areas {
            guard let anchor = feature.geometry.anchor, let name = feature.name else { continue }
            let color = feature.featureClass == "park" ? placer.palette.parkLabel : placer.palette.waterLabel
            placer.place(
                name, centredAt: projection.point(for: anchor), size: 10, font: "Noto Sans Italic", color: color)
        }
    }

    /// Street names along their streets: major roads from zoom 14, streets from 15, lanes,
    /// squares and named paths from 16; longer streets first within a class.
    private func placeStreetNames(
        _ placer: inout LabelPlacer, roads: [(MapStore.Feature, RoadStyle)], zoom: Double, projection: Projection
    ) {
        let box = ClipBox(width: placer.canvas.width, height: placer.canvas.height, margin: 0)
        // A street is usually many short ways: pieces of one name and rank are joined end to end.
        var pieces: [String: (rank: Int, lines: [[Point]])] = [:]
        for (feature, style) in roads {
            guard let name = feature.name, !feature.isArea, !feature.isTunnel,
                zoom >= (style.major || style.rank >= 6 ? 14 : style.rank >= 4 ? 15 : 16)
            else { continue }
            let lines: [[Point]]
            switch feature.geometry {
            case .line(let points): lines = box.clip(line: projection.points(forPath: points))
            case .lines(let parts): lines = parts.flatMap { box.clip(line: projection.points(forPath: $0)) }
            default: lines = []
            }
            pieces[name, default: (style.rank, [])].rank = max(pieces[name]?.rank ?? 0, style.rank)
            pieces[name, default: (style.rank, [])].lines += lines
        }
        let named = pieces.flatMap { name, entry in
            LineMerger.merge(entry.lines).map { line in
                (name: name, rank: entry.rank, line: line, length: MeasuredPath(line.map { (x: $0.x, y: $0.y) }).length)
            }
        }.sorted { ($0.rank, $0.length, $0.name) > ($1.rank, $1.length, $1.name) }
        for road in named {
            placer.place(road.name, along: road.line, size: road.rank >= 6 ? 11 : 10)
        }
    }

    /// Named points of interest with a category icon, in ``POICategory`` order and from its
    /// zoom (sights and lodging from 16, food, shops and health from 17, the rest from 18).
    /// With indoor maps on (`floor` set), POIs on other floors are left out.
    private func placePOIs(
        _ placer: inout LabelPlacer, scene: Scene, zoom: Double, projection: Projection, floor: String?
    ) {
        let pois = scene.local("poi").compactMap {
            feature -> (MapStore.Feature, POICategory)? in
            guard feature.name != nil, let category = POICategory(kind: feature.kind),
                zoom >= category.minZoom
            else { return nil }
            if let floor, !feature.levelNames.isEmpty, !feature.levelNames.contains(floor) { return nil }
            return (feature, category)
        }.sorted { ($0.1.rawValue, $0.0.id) < ($1.1.rawValue, $1.0.id) }
        for (feature, category) in pois {
            guard let anchor = feature.geometry.anchor, let name = feature.name else { continue }
            placer.placeIcon(name, at: projection.point(for: anchor), color: category.color)
        }
    }

    /// The frames of the controls drawn over the map, which labels keep clear of; the
    /// attribution's text may be wider than its frame, so the whole row from the logo to the
    /// attribution's right edge is kept.
    static func reservedBoxes(_ layout: ControlLayout) -> [TextLayout.Box] {
        let bottomRow = Rect(
            x: layout.logo.origin.x, y: layout.attribution.origin.y,
            width: layout.attribution.origin.x + layout.attribution.size.width - layout.logo.origin.x,
            height: layout.attribution.size.height)
        return [
            layout.compass, layout.myLocationButton, layout.zoomButtons, layout.floorPicker, layout.logo, bottomRow,
        ]
        .compactMap { $0 }.map {
            TextLayout.Box(x: $0.origin.x, y: $0.origin.y, width: $0.size.width, height: $0.size.height)
        }
    }

    /// The zoom from which buildings are extruded under tilt: 15.
    public static let buildingsZoom = 15.0

    /// The zoom from which points of interest are labelled: 16.
    public static let poiZoom = 16.0

    /// The world's level of detail for a zoom: crude below 3, low below 5, intermediate above
    /// (full, from zoom 8, when `data install --hires` put it in the store).
    static func worldDetail(forZoom zoom: Double) -> String { zoom < 3 ? "c" : zoom < 5 ? "l" : "i" }

    /// A line width in points at `zoom` for one of `base` points at zoom 15: halving per zoom
    /// below 15, growing by half per zoom above (streets stay streets, not slabs); 0.5...40.
    static func width(_ base: Double, zoom: Double) -> Double {
        min(max(base * pow(zoom < 15 ? 2 : 1.5, zoom - 15), 0.5), 40)
    }

    /// The bounds to query for a visible region: its four corners, or every longitude when
    /// the view is wider than half the world at this zoom (the corners then wrap).
    static func bounds(of region: VisibleRegion, viewWidth: Double, zoom: Double) -> CoordinateBounds {
        let corners = [region.nearRight, region.farLeft, region.farRight].reduce(
            CoordinateBounds(region.nearLeft, region.nearLeft)
        ) { $0.including($1) }
        guard viewWidth >= WebMercator.worldSize(zoom: zoom) / 2, let south = corners.southWest?.latitude,
            let north = corners.northEast?.latitude
        else { return corners }
        return CoordinateBounds(
            southWest: Coordinate(latitude: south, longitude: -180),
            northEast: Coordinate(latitude: north, longitude: 180))
    }
}

/// How one road class is drawn.
struct RoadStyle {
    /// Width in points at zoom 15.
    var width: Double
    var major = false
    var path = false
    var casing = true
    /// Drawn from this zoom on.
    var minZoom: Double
    /// Drawing order: higher on top.
    var rank: Int
}

extension RoadStyle {
    /// The style of an OSM `highway` kind, or nil for kinds not drawn as roads.
    init?(kind: String) {
        switch kind {
        case "motorway", "trunk": self.init(width: 9, major: true, minZoom: 5, rank: 9)
        case "primary": self.init(width: 8, major: true, minZoom: 8, rank: 8)
        case "motorway_link", "trunk_link", "primary_link": self.init(width: 5, major: true, minZoom: 12, rank: 7)
        case "secondary": self.init(width: 7, minZoom: 10, rank: 6)
        case "tertiary", "secondary_link", "tertiary_link": self.init(width: 6, minZoom: 11, rank: 5)
        case "residential", "unclassified", "living_street", "road": self.init(width: 5, minZoom: 13, rank: 4)
        case "pedestrian": self.init(width: 4, minZoom: 14, rank: 3)
        case "service": self.init(width: 3, minZoom: 14, rank: 2)
        case "footway", "path", "cycleway", "steps", "track", "bridleway", "trail":
            self.init(width: 1.2, path: true, casing: false, minZoom: 15, rank: 1)
        default: return nil
        }
    }
}

/// Projects features onto a canvas and paints them.
struct Painter {
    let canvas: Canvas
    let projection: Projection
    var report: MapRenderer.Report

    mutating func fill(_ feature: MapStore.Feature, _ color: CairoKit.Color, outline: CairoKit.Color? = nil) {
        guard case .polygon(let rings) = feature.geometry else { return }
        for ring in rings { addPath(ring, close: true) }
        canvas.fill(color, keepPath: outline != nil)
        if let outline { canvas.stroke(outline, width: 0.5) }
        report.features[feature.featureClass, default: 0] += 1
    }

    mutating func stroke(_ feature: MapStore.Feature, _ color: CairoKit.Color, width: Double, dash: [Double] = []) {
        guard addOutline(of: feature) else { return }
        canvas.stroke(color, width: width, dash: dash)
        report.features[feature.featureClass, default: 0] += 1
    }

    /// Adds a feature's lines, or its rings' outlines, to the current path; false for a point.
    func addOutline(of feature: MapStore.Feature) -> Bool {
        switch feature.geometry {
        case .line(let points): addPath(points, close: false)
        case .lines(let lines): for line in lines { addPath(line, close: false) }
        case .polygon(let rings): for ring in rings { addPath(ring, close: true) }
        case .point: return false
        }
        return true
    }

    /// Adds a line or ring, projected continuously and clipped (on the ground to what lies in
    /// front of the camera, then to the picture), to the canvas's current path.
    func addPath(_ coordinates: [Coordinate], close: Bool) {
        for piece in projection.clippedPoints(forPath: coordinates, closed: close) {
            addPath(points: piece, close: close)
        }
    }

    /// Adds projected points as a line or ring, clipped, to the canvas's current path; points
    /// without a screen position (behind the camera) are left out.
    func addPath(points projected: [Point], close: Bool) {
        let points =
            projected.allSatisfy { $0.x.isFinite && $0.y.isFinite }
            ? projected : projected.filter { $0.x.isFinite && $0.y.isFinite }
        // Far enough out that clipped edges and wide strokes never show.
        let box = ClipBox(width: canvas.width, height: canvas.height, margin: 256)
        for piece in close ? [box.clip(ring: points)] : box.clip(line: points) {
            guard let first = piece.first else { continue }
            canvas.move(x: first.x, y: first.y)
            for point in piece.dropFirst() { canvas.line(x: point.x, y: point.y) }
            if close { canvas.closePath() }
        }
    }
}

extension MapStore.Feature {
    /// The level a road is drawn on: its layer, at most -1 in a tunnel and at least 1 on a bridge.
    var drawingLevel: Int { isTunnel ? min(layer, -1) : isBridge ? max(layer, 1) : layer }

    /// True for polygons (areas), false for points and lines.
    var isArea: Bool {
        if case .polygon = geometry { true } else { false }
    }
}

/// Decoded rasters, kept for the life of the process (a world mosaic takes a moment to decode).
final class RasterCache: @unchecked Sendable {
    static let shared = RasterCache()
    private let lock = NSLock()
    private var images: [String: RasterImage] = [:]

    func image(at path: String) throws -> RasterImage {
        lock.lock()
        defer { lock.unlock() }
        if let image = images[path] { return image }
        let image = try RasterImage(file: path)
        images[path] = image
        return image
    }
}
