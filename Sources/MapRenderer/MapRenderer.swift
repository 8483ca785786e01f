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
/// ``TrafficFeed``, transit lines and stops, bicycling (``BicyclingPalette``), the indoor
/// floor shown, 3D buildings under tilt,
/// My Location with its accuracy and heading. One picture reads the store twice (a
/// ``Scene``); ``TileRenderer`` draws XYZ tiles with the same code.
public struct MapRenderer {
    /// The store the map's features are read from.
    public let store: MapStore
    /// Congestion for the traffic layer; empty by default (the layer then colours nothing).
    public var traffic: TrafficFeed
    /// Draws the world's full level of detail from zoom 8 where the store has it (`data
    /// install --hires`); false keeps the intermediate level, so pictures do not depend on
    /// whether it was installed. Default true.
    public var usesFullWorldDetail = true
    /// Decoded world rasters and ground-overlay images, within a byte budget.
    public let rasters: RasterCache
    /// The language of the map's own words (the no-data notice) and of place names where the
    /// data has them (`name:es`); nil (the default) for English words and the names as the
    /// data writes them locally.
    public var language: Language?

    /// - Parameter rasters: the cache of decoded images; renderers drawing from one process
    ///   at once (a tile job's workers) may share one. Default: a cache of this renderer's own.
    public init(store: MapStore, traffic: TrafficFeed = TrafficFeed(), rasters: RasterCache = RasterCache()) {
        self.store = store
        self.traffic = traffic
        self.rasters = rasters
    }

    /// What a render drew, for callers and tests.
    public struct Report: Sendable, Equatable {
        /// Features drawn, by class.
        public var features: [FeatureClass: Int] = [:]
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
        /// The view's settings the picture could not follow (a tile layer from the network, a
        /// JSON map style): nothing a caller sets is dropped without a word.
        public var unapplied: [Unapplied] = []
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
        canvas.fill(all: content.backgroundColor)
        let projection = view.projection
        let zoom = view.camera.zoom
        let scheme = MapPalette.forScheme(content.colorScheme)
        let palette = content.base == .imagery ? scheme.overImagery : scheme
        let bounds = Self.bounds(of: projection.visibleRegion, viewWidth: size.width, zoom: zoom)
        var painter = Painter(canvas: canvas, projection: projection, report: Report(), rasters: rasters)
        if content.style == .json { painter.report.unapplied.append(.jsonMapStyle) }
        guard content.base != .none else {
            painter.drawTileLayers(of: view)
            painter.drawOverlays(of: view, label: palette.label, halo: palette.labelHalo)
            painter.drawMyLocation(of: view)
            if controls {
                ControlPainter(canvas: canvas, palette: palette).draw(view.controlLayout, bearing: 0, credits: [])
            }
            return (canvas, painter.report)
        }
        // 3D buildings on the road map under tilt, from zoom 15.
        let extrudeBuildings = content.buildings3D && zoom >= ZoomRules.extrudedBuildings
        let scene = try Scene(
            store: store, bounds: bounds, zoom: zoom, classes: Self.localClasses(zoom: zoom, content: content),
            fullDetail: usesFullWorldDetail, names: language)

        // The terrain map's major contour lines, for their labels.
        var contourLines: [(metres: Double, line: [Point])] = []
        switch content.base {
        case .roadMap:
            drawRoadMapBase(&painter, scene: scene, zoom: zoom, palette: palette, extrudeBuildings: extrudeBuildings)
        case .imagery:
            // The world's imagery where the store has it, the imported images over it.
            if try hasRaster(.blueMarble) { try drawRaster(.blueMarble, on: canvas, projection: projection) }
            try ImageryPainter(store: store, bounds: bounds)?.paint(on: canvas, projection: projection, zoom: zoom)
        case .relief:
            // The world's relief where the store has it (a store of extracts alone has none:
            // the map's background then), the imported elevation models' over it.
            if try hasRaster(.shadedRelief) {
                try drawRaster(.shadedRelief, on: canvas, projection: projection)
            }
            let relief = try ReliefPainter(
                store: store, projection: projection, camera: view.camera, size: size, bounds: bounds)
            try relief?.paint(on: canvas, dark: content.colorScheme == .dark)
            // The world's relief has no detail at street zooms: the road map's areas go over
            // it, translucent, so the terrain's tint stays (a model's relief shows more).
            if zoom >= ZoomRules.streetData {
                var overRelief = palette
                overRelief.land = palette.land.withAlpha(relief == nil ? 0.75 : 0.3)
                drawRoadMapBase(
                    &painter, scene: scene, zoom: zoom, palette: overRelief, extrudeBuildings: false, overRaster: true)
            }
            contourLines = relief?.drawContours(on: canvas, zoom: zoom, dark: content.colorScheme == .dark) ?? []
        case .none:
            break
        }
        var roads: [(MapStore.Feature, RoadStyle)] = []
        if content.roads && zoom >= ZoomRules.streetData {
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
        if content.bicycling { drawBicycling(&painter, scene: scene, zoom: zoom, scheme: content.colorScheme) }
        if extrudeBuildings {
            painter.drawExtruded(scene.local(.building), palette: palette)
        }
        // Country borders at every zoom, state and province borders from zoom 4.
        for feature in scene.world(.border) where feature.kind == "country" || zoom >= ZoomRules.worldRivers {
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
            if content.bicycling {
                placeBicycling(&placer, scene: scene, zoom: zoom, projection: projection, scheme: content.colorScheme)
            }
            if zoom >= ZoomRules.pointsOfInterest {
                placePOIs(&placer, scene: scene, zoom: zoom, projection: projection, floor: floor)
            }
            if content.base == .relief && zoom >= ZoomRules.peaks {
                try placePeaks(&placer, bounds: bounds, projection: projection)
            }
            // The major contours' heights along them, where the names leave room (at most 24).
            for contour in contourLines.prefix(24) {
                placer.place(
                    "\(Int(contour.metres)) m", along: contour.line, look: LabelLook(.contour, palette: palette))
            }
            labels = placer.placed
        }
        painter.drawTileLayers(of: view)
        painter.drawOverlays(of: view, label: palette.label, halo: palette.labelHalo)
        painter.drawMyLocation(of: view)
        var report = painter.report
        report.labels = labels
        let coverage = try coverage(
            of: bounds, zoom: zoom, labelled: !labels.isEmpty, transit: content.transit, base: content.base,
            scene: scene)
        if let notice = coverage.notice, controls {
            let layout = view.controlLayout
            drawNotice(
                notice, on: canvas, palette: palette, above: min(layout.logo.origin.y, layout.attribution.origin.y))
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
        return try coverage(
            of: bounds, zoom: view.camera.zoom, labelled: content.base != .none && content.labels,
            transit: content.transit, base: content.base)
    }

    /// Street zooms show streets only where a region was imported; elsewhere the picture says
    /// so, and what it shows instead, rather than pass coarse world data off as a street map.
    /// Transit feeds are credited where their lines (the transit layer) or stations (from
    /// ``ZoomRules.stops``, where the type has labels) are in view; the imported images in
    /// view on the satellite and hybrid maps, the elevation models on the terrain map.
    /// - Parameter scene: the features the picture read (its transit lines and stops), when
    ///   drawn: asked instead of the store.
    func coverage(
        of bounds: CoordinateBounds, zoom: Double, labelled: Bool, transit: Bool, base: MapContent.Base,
        scene: Scene? = nil
    ) throws -> Coverage {
        let sources = try store.sources(counting: false)
        let rasters = sources.filter {
            $0.kind == Self.rasterKind(of: base) && $0.bounds.intersects(bounds)
        }
        let regions = sources.filter { $0.kind == .osm && $0.bounds.intersects(bounds) }
        // What the transit layer draws: lines with the layer; stations from ``ZoomRules.stops`` where
        // the type has labels, and the other stops too with the layer.
        func sourcesInView(_ featureClass: FeatureClass, kinds: [String]? = nil) throws -> Set<Int64> {
            guard let scene else {
                return try store.sources(withFeaturesIn: bounds, classes: [featureClass], kinds: kinds)
            }
            return Set(
                scene.local(featureClass).filter { kinds?.contains($0.kind) ?? true }.map {
                    MapStore.sourceID(ofFeature: $0.id)
                })
        }
        var inView = transit ? try sourcesInView(.route) : []
        var stations: Set<Int64> = []
        if labelled && zoom >= ZoomRules.stops {
            stations = try sourcesInView(.transit, kinds: ["station"])
            inView.formUnion(stations)
            if transit { inView.formUnion(try sourcesInView(.transit)) }
        }
        let feeds = sources.filter { $0.kind == .gtfs && inView.contains($0.id) }
        var notice: String?
        if zoom >= ZoomRules.streets && regions.isEmpty, let center = bounds.center {
            notice = Self.noStreetDataNotice(
                at: center, regions: sources.filter { $0.kind == .osm },
                stationsOf: sources.filter { stations.contains($0.id) }.map(\.name), labelled: labelled,
                nearestStop: try nearestStop(to: center, sources: sources), words: Phrasebook(language ?? .en))
        }
        return Coverage(
            credits: Self.credits(
                streets: zoom >= ZoomRules.streetData && !regions.isEmpty, placeNames: labelled,
                feeds: feeds.map(\.attribution), rasters: rasters.map(\.attribution)),
            regions: regions.map(\.name), notice: notice)
    }

    /// The credits of an attribution line: OpenStreetMap when street data is shown, the world
    /// layers always, GeoNames when place names are, and the transit feeds' and the imported
    /// rasters' (images, elevation models) own lines.
    public static func credits(
        streets: Bool, placeNames: Bool, feeds: [String] = [], rasters: [String] = []
    ) -> [String] {
        ((streets ? [.osm] : []) + [.basemap] + (placeNames ? [.gazetteer] : [])).compactMap {
            ControlPainter.credits[$0]
        } + feeds + rasters
    }

    /// The kind of imported raster a base map draws: images for satellite and hybrid, elevation
    /// models for terrain, none for the others.
    public static func rasterKind(of base: MapContent.Base) -> SourceKind? {
        switch base {
        case .imagery: .imagery
        case .relief: .elevation
        case .roadMap, .none: nil
        }
    }

    /// How far around a picture's center ``nearestStop(to:sources:)`` looks: 2 km.
    static let nearbyStopRadius = 2000.0

    /// The transit stop nearest `center` within ``nearbyStopRadius``, with its feed's name and
    /// its distance in metres.
    func nearestStop(to center: Coordinate, sources: [MapStore.Source]) throws -> (
        name: String, feed: String, metres: Double
    )? {
        let box = CoordinateBounds(
            center.destination(meters: Self.nearbyStopRadius * 1.5, bearing: 225),
            center.destination(meters: Self.nearbyStopRadius * 1.5, bearing: 45))
        let names = Dictionary(sources.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        return try store.features(in: box, classes: [.transit]).compactMap { stop in
            guard let name = stop.name, let anchor = stop.geometry.anchor,
                let feed = names[MapStore.sourceID(ofFeature: stop.id)]
            else { return nil }
            return (name, feed, anchor.distance(to: center))
        }.filter { $0.metres <= Self.nearbyStopRadius }.min { $0.metres < $1.metres }
    }

    /// What a street-zoom picture says outside every imported region, in `words`' language:
    /// that it has no streets, how far the nearest imported region is, what it shows instead
    /// (the world map, place names, the stations of the feeds in view), the transit stop
    /// nearest its center, and how to add streets.
    public static func noStreetDataNotice(
        at center: Coordinate, regions: [MapStore.Source], stationsOf feeds: [String], labelled: Bool,
        nearestStop: (name: String, feed: String, metres: Double)? = nil, words: Phrasebook = Phrasebook(.en)
    ) -> String {
        var text = words.note("no street data")
        let nearest = regions.compactMap { region in
            region.bounds.center.map { (region, Self.distance(from: center, to: region.bounds, center: $0)) }
        }.min { $0.1 < $1.1 }
        if let (region, metres) = nearest {
            text += words.note("nearest region", ["region": region.name, "distance": words.roundedDistance(metres)])
        }
        var shown = [words.word("world map")]
        if labelled { shown.append(words.word("place names")) }
        if !feeds.isEmpty { shown.append(words.note("stations of", ["feeds": words.list(feeds)])) }
        text += words.note("shown", ["list": words.list(shown)])
        if let stop = nearestStop {
            text += words.note(
                "nearest stop", ["stop": stop.name, "feed": stop.feed, "distance": words.roundedDistance(stop.metres)])
        }
        return text + words.note("add streets", ["command": "openmaps import"])
    }

    /// Metres from `point` to the nearest edge of `bounds` (0 inside).
    private static func distance(from point: Coordinate, to bounds: CoordinateBounds, center: Coordinate) -> Double {
        guard let southWest = bounds.southWest, let northEast = bounds.northEast else {
            return point.distance(to: center)
        }
        let nearest = Coordinate(
            latitude: min(max(point.latitude, southWest.latitude), northEast.latitude),
            longitude: min(max(point.longitude, southWest.longitude), northEast.longitude))
        return point.distance(to: nearest)
    }

    /// A notice in a box at the bottom centre of the picture, its bottom 8 points above `above`
    /// (the logo's and the attribution's top, so it never covers them).
    func drawNotice(_ text: String, on canvas: Canvas, palette: MapPalette, above: Double) {
        let layout = TextLayout(text, size: 12, maxWidth: canvas.width - 40, on: canvas)
        let box = layout.logicalBox
        let x = (canvas.width - box.width) / 2
        let y = min(canvas.height - 28, above - 8) - 6 - box.height
        canvas.rectangle(x: x - 10, y: y - 6, width: box.width + 20, height: box.height + 12)
        canvas.fill(palette.labelHalo.withAlpha(0.9), keepPath: true)
        canvas.stroke(palette.label, width: 0.5)
        layout.draw(x: x, y: y, color: palette.label)
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
