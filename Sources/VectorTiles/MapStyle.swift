import GeoCore
import MapCore
import MapData
import MapRenderer

/// A MapLibre style (style specification v8) for the vector tiles, drawn as the raster renderer
/// draws its PNG tiles: the same palette (``MapPalette``, light or dark), the same road widths
/// (``MapRenderer/roadLook(_:zoom:)``) at every zoom, the same zoom rules (``ZoomRules``), the
/// same transit and bicycling colours, names in the asked language where the data has them.
///
/// Zooms: a style's zoom is MapLibre's, one less than the map zoom of Google's links and the
/// PNG tiles (512-pixel tiles); every zoom here is converted with ``styleZoom(_:)``.
public struct MapStyle: Sendable {
    /// The map type, scheme, layers and language drawn (its `scale` does not apply).
    public var style: TileStyle
    /// Where the server is, with no trailing slash (`http://127.0.0.1:8080`); the sources,
    /// glyphs and sprite are under it.
    public var base: String
    /// The finest zoom of the store's elevation models, nil without any: the terrain map is
    /// then also shaded from them (a `raster-dem` source of ``base``'s terrain tiles and a
    /// hillshade lit from the north-west).
    public var terrainZoom: Int?
    /// The credit lines of the imported rasters the map type's raster tiles draw (aerial
    /// images, elevation models), after the world rasters'.
    public var rasterCredits: [String]

    /// A style of `style` for tiles served from `base`, shaded from elevation models up to
    /// `terrainZoom` where given, crediting `rasterCredits` with the raster tiles.
    public init(style: TileStyle, base: String, terrainZoom: Int? = nil, rasterCredits: [String] = []) {
        self.style = style
        self.base = base
        self.terrainZoom = terrainZoom
        self.rasterCredits = rasterCredits
    }

    /// The font every label is written in, as the glyph ranges are served.
    public static let font = "Noto Sans Regular"
    /// The font of place and road names' bold text.
    public static let boldFont = "Noto Sans Bold"

    /// A map zoom (Google's) as a style's zoom (MapLibre's, 512-pixel tiles): one less.
    public static func styleZoom(_ mapZoom: Double) -> Double { mapZoom - 1 }

    /// The style document.
    public var json: String { JSONText.pretty(document) }

    /// The style as the values of its JSON document.
    public var document: [String: Any] {
        var sources: [String: Any] = [
            "openmaps": ["type": "vector", "url": base + "/tiles/vector.json"] as [String: Any]
        ]
        let imagery = style.mapType == .satellite || style.mapType == .hybrid
        if imagery || style.mapType == .terrain {
            let type = style.mapType == .terrain ? "terrain" : "satellite"
            sources["raster"] =
                [
                    "type": "raster", "tiles": [base + "/tiles/\(type)/{z}/{x}/{y}.png"], "tileSize": 256,
                    "maxzoom": 21,
                    "attribution": (["NASA Blue Marble and shaded relief; ETOPO1"] + rasterCredits).joined(
                        separator: " · "),
                ] as [String: Any]
        }
        if let terrainZoom, style.mapType == .terrain {
            sources["dem"] =
                [
                    "type": "raster-dem", "tiles": [base + "/tiles/terrain-rgb/{z}/{x}/{y}.png"], "tileSize": 256,
                    "encoding": "mapbox", "maxzoom": terrainZoom,
                ] as [String: Any]
        }
        if style.traffic && style.mapType != .satellite && style.mapType != .terrain && style.mapType != .none {
            sources["traffic"] = ["type": "vector", "url": base + "/tiles/traffic.json"] as [String: Any]
        }
        var layers: [[String: Any]] = []
        switch style.mapType {
        case .none:
            layers = [["id": "background", "type": "background", "paint": ["background-color": "#F8F9FA"]]]
        case .satellite:
            layers = [rasterLayer()]
        case .terrain:
            layers = [rasterLayer()] + (terrainZoom == nil ? [] : [hillshadeLayer()])
        case .hybrid:
            layers = [rasterLayer()] + roadLayers(overImagery: true) + layerLayers() + labelLayers(overImagery: true)
        case .normal:
            layers =
                baseLayers() + roadLayers(overImagery: false) + indoorLayers() + layerLayers()
                + labelLayers(overImagery: false)
        }
        return [
            "version": 8,
            "name": "OpenMaps \(style.mapType.rawValue) \(style.style == .dark ? "dark" : "light")",
            "sources": sources,
            "glyphs": base + "/fonts/{fontstack}/{range}.pbf",
            "sprite": base + "/sprites/openmaps",
            "layers": layers,
            "metadata": [Self.labelPicturesKey: labelPictures],
        ]
    }

    private var palette: MapPalette { MapPalette.forScheme(style.style) }

    /// `#rrggbb`, or `rgba(…)` with its opacity.
    static func css(_ color: Color) -> String {
        func byte(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
        if color.alpha >= 0.999 {
            return "#" + [color.red, color.green, color.blue].map { String(format: "%02X", byte($0)) }.joined()
        }
        return "rgba(\(byte(color.red)), \(byte(color.green)), \(byte(color.blue)), \(color.alpha))"
    }

    /// A width in points at zoom 15 at every style zoom 0...21, by the renderer's rule.
    static func width(_ base: Double) -> [Any] { zoomed { MapRenderer.width(base, zoom: $0) } }

    /// A value at every style zoom 0...21, `value` given the map zoom (the style's plus one);
    /// the one zoom interpolation an expression may hold, any data expression at each stop.
    static func zoomed(_ value: (Double) -> Any) -> [Any] {
        var stops: [Any] = ["interpolate", ["linear"], ["zoom"]]
        for zoom in 0...21 {
            stops.append(zoom)
            stops.append(value(Double(zoom) + 1))
        }
        return stops
    }

    private func rasterLayer() -> [String: Any] {
        ["id": "raster", "type": "raster", "source": "raster"]
    }

    /// The models' relief over the world's: light from the north-west (315°), shadows and
    /// highlights of the scheme.
    private func hillshadeLayer() -> [String: Any] {
        let dark = style.style == .dark
        return [
            "id": "hillshade", "type": "hillshade", "source": "dem",
            "paint": [
                "hillshade-illumination-direction": 315, "hillshade-exaggeration": 0.5,
                "hillshade-shadow-color": dark ? "#000000" : "#473B24",
                "hillshade-highlight-color": dark ? "#3C4043" : "#FFFFFF",
                "hillshade-accent-color": dark ? "#000000" : "#5A5140",
            ] as [String: Any],
        ]
    }

    /// Land, water, areas, waterways, buildings, railways and borders.
    private func baseLayers() -> [[String: Any]] {
        let streetData = Self.styleZoom(ZoomRules.streetData)
        let parks: [Any] = ["==", ["geometry-type"], "Polygon"]
        return [
            ["id": "background", "type": "background", "paint": ["background-color": Self.css(palette.land)]],
            [
                "id": "landuse", "type": "fill", "source": "openmaps", "source-layer": "landuse", "minzoom": streetData,
                "filter": ["!=", ["get", "class"], "playground"], "paint": ["fill-color": Self.css(palette.landuse)],
            ],
            [
                "id": "landcover", "type": "fill", "source": "openmaps", "source-layer": "landcover",
                "minzoom": streetData,
                "filter": ["!", ["in", ["get", "subclass"], ["literal", ["garden", "dog_park"]]]],
                "paint": ["fill-color": Self.css(palette.landuse)],
            ],
            [
                "id": "park", "type": "fill", "source": "openmaps", "source-layer": "park", "minzoom": streetData,
                "filter": parks, "paint": ["fill-color": Self.css(palette.park)],
            ],
            [
                "id": "park-gardens", "type": "fill", "source": "openmaps", "source-layer": "landcover",
                "minzoom": streetData, "filter": ["in", ["get", "subclass"], ["literal", ["garden", "dog_park"]]],
                "paint": ["fill-color": Self.css(palette.park)],
            ],
            [
                "id": "playground", "type": "fill", "source": "openmaps", "source-layer": "landuse",
                "minzoom": streetData, "filter": ["==", ["get", "class"], "playground"],
                "paint": ["fill-color": Self.css(palette.park)],
            ],
            [
                "id": "water", "type": "fill", "source": "openmaps", "source-layer": "water",
                "filter": ["!=", ["get", "brunnel"], "tunnel"], "paint": ["fill-color": Self.css(palette.water)],
            ],
            [
                "id": "waterway", "type": "line", "source": "openmaps", "source-layer": "waterway",
                "paint": [
                    "line-color": Self.css(palette.water),
                    "line-width": Self.zoomed { zoom in
                        zoom < ZoomRules.streetData ? 1 : MapRenderer.width(3, zoom: zoom)
                    },
                ],
            ],
            [
                "id": "building", "type": "fill", "source": "openmaps", "source-layer": "building",
                "minzoom": Self.styleZoom(ZoomRules.buildings),
                "paint": [
                    "fill-color": Self.css(palette.building), "fill-outline-color": Self.css(palette.buildingOutline),
                ],
            ],
            [
                "id": "railway", "type": "line", "source": "openmaps", "source-layer": "transportation",
                "minzoom": streetData,
                "filter": [
                    "all", ["in", ["get", "class"], ["literal", ["rail", "transit"]]],
                    ["!=", ["get", "brunnel"], "tunnel"],
                    ["any", ["!=", ["get", "subclass"], "tram"], [">=", ["zoom"], Self.styleZoom(ZoomRules.trams)]],
                ] as [Any],
                "paint": [
                    "line-color": Self.css(palette.railway),
                    "line-width": Self.zoomed { zoom in
                        [
                            "match", ["get", "subclass"], "tram", MapRenderer.width(0.8, zoom: zoom),
                            MapRenderer.width(1.5, zoom: zoom),
                        ] as [Any]
                    },
                ],
            ],
            [
                "id": "boundary-state", "type": "line", "source": "openmaps", "source-layer": "boundary",
                "minzoom": Self.styleZoom(ZoomRules.worldRivers), "filter": ["==", ["get", "admin_level"], 4],
                "paint": ["line-color": Self.css(palette.border), "line-width": 0.6, "line-dasharray": [4, 3]],
            ],
            [
                "id": "boundary-country", "type": "line", "source": "openmaps", "source-layer": "boundary",
                "filter": ["==", ["get", "admin_level"], 2],
                "paint": ["line-color": Self.css(palette.border), "line-width": 1.2, "line-dasharray": [4, 3]],
            ],
        ]
    }

    /// The classes of the transportation layer, each as the OSM kind the renderer styles it by.
    static let roadClasses: [(class: String, kind: String, ramp: String)] = [
        ("motorway", "motorway", "motorway_link"), ("trunk", "trunk", "trunk_link"),
        ("primary", "primary", "primary_link"), ("secondary", "secondary", "secondary_link"),
        ("tertiary", "tertiary", "tertiary_link"), ("minor", "residential", "residential"),
        ("service", "service", "service"), ("track", "track", "track"), ("path", "footway", "footway"),
    ]

    /// A road property at every zoom: `value(kind, zoom)` for each class (ramps by their link
    /// kind), interpolated between the zooms.
    private func byClass(_ value: (String, Double) -> Double) -> [Any] {
        var expression: [Any] = ["interpolate", ["linear"], ["zoom"]]
        for zoom in 4...21 {
            var match: [Any] = ["match", ["get", "class"]]
            for road in Self.roadClasses {
                match.append(road.class)
                match.append(
                    [
                        "case", ["==", ["get", "ramp"], 1], value(road.ramp, Double(zoom) + 1),
                        value(road.kind, Double(zoom) + 1),
                    ] as [Any])
            }
            match.append(value("residential", Double(zoom) + 1))
            expression.append(zoom)
            expression.append(match)
        }
        return expression
    }

    /// The classes shown at the current zoom, by the raster's rule for their kinds.
    private var roadsShown: [Any] {
        var any: [Any] = ["any"]
        for road in Self.roadClasses {
            guard let zoom = ZoomRules.road(road.kind) else { continue }
            any.append(
                ["all", ["==", ["get", "class"], road.class], [">=", ["zoom"], Self.styleZoom(zoom)]] as [Any])
        }
        return any
    }

    /// The names shown at the current zoom, by the raster's rule for their roads' kinds.
    private var roadNamesShown: [Any] {
        var any: [Any] = ["any"]
        for road in Self.roadClasses {
            let zoom = min(ZoomRules.roadName(road.kind), ZoomRules.roadName(road.ramp))
            any.append(
                ["all", ["==", ["get", "class"], road.class], [">=", ["zoom"], Self.styleZoom(zoom)]] as [Any])
        }
        return any
    }

    /// Roads by class, tunnels below and bridges above: casings, then fills.
    private func roadLayers(overImagery: Bool) -> [[String: Any]] {
        let widths = byClass { kind, zoom in MapRenderer.roadLook(kind, zoom: zoom)?.width ?? 1 }
        let major: [Any] = ["in", ["get", "class"], ["literal", ["motorway", "trunk", "primary"]]]
        let fill: [Any] = [
            "case", ["==", ["get", "class"], "path"], Self.css(palette.path), major, Self.css(palette.majorRoad),
            Self.css(palette.road),
        ]
        let casing: [Any] = ["case", major, Self.css(palette.majorRoadCasing), Self.css(palette.roadCasing)]
        var layers: [[String: Any]] = []
        for (level, brunnel) in [
            ("tunnel", ["==", ["get", "brunnel"], "tunnel"] as [Any]),
            ("road", ["!", ["in", ["get", "brunnel"], ["literal", ["tunnel", "bridge"]]]] as [Any]),
            ("bridge", ["==", ["get", "brunnel"], "bridge"] as [Any]),
        ] {
            let lines: [Any] = [
                "all", ["==", ["geometry-type"], "LineString"],
                ["!", ["in", ["get", "class"], ["literal", ["rail", "transit"]]]], brunnel, roadsShown,
            ]
            if !overImagery {
                layers.append([
                    "id": "\(level)-casing", "type": "line", "source": "openmaps", "source-layer": "transportation",
                    "filter": ["all", lines, ["!=", ["get", "class"], "path"]] as [Any],
                    "layout": ["line-cap": "round", "line-join": "round"],
                    "paint": [
                        "line-color": casing,
                        "line-width": byClass { kind, zoom in (MapRenderer.roadLook(kind, zoom: zoom)?.width ?? 1) + 2
                        },
                        "line-opacity": level == "tunnel" ? 0.6 : 1,
                    ] as [String: Any],
                ])
            }
            layers.append([
                "id": "\(level)-fill", "type": "line", "source": "openmaps", "source-layer": "transportation",
                "filter": lines, "layout": ["line-cap": "round", "line-join": "round"],
                "paint": [
                    "line-color": fill, "line-width": widths,
                    "line-opacity": overImagery ? 0.8 : level == "tunnel" ? 0.5 : 1,
                ] as [String: Any],
            ])
        }
        if !overImagery {
            layers.insert(
                [
                    "id": "road-area", "type": "fill", "source": "openmaps", "source-layer": "transportation",
                    "filter": ["==", ["geometry-type"], "Polygon"],
                    "paint": [
                        "fill-color": Self.css(palette.road), "fill-outline-color": Self.css(palette.roadCasing),
                    ],
                ], at: 0)
            layers.append([
                "id": "building-3d", "type": "fill-extrusion", "source": "openmaps", "source-layer": "building",
                "minzoom": Self.styleZoom(ZoomRules.extrudedBuildings),
                "paint": [
                    "fill-extrusion-color": Self.css(palette.building),
                    "fill-extrusion-height": ["get", "render_height"],
                    "fill-extrusion-base": ["get", "render_min_height"], "fill-extrusion-opacity": 0.9,
                ] as [String: Any],
            ])
        }
        return layers
    }

    /// The placeholder of the floor's name in a layer's ``floorFilterKey`` filter.
    public static let floorPlaceholder = "{floor}"

    /// The layer metadata's key for the filter of a layer that shows one floor of the indoor
    /// maps: the layer's filter with ``floorPlaceholder`` where the floor's name goes. A client
    /// with a floor picker sets the layer's filter to it with the floor picked; the style
    /// shows the ground floor (`0`).
    public static let floorFilterKey = "openmaps:floor-filter"

    /// The floor the style shows until a client picks one: the ground floor.
    public static let groundFloor = "0"

    /// True for a feature on `floor`: among its `level`s (`0;1`), or with `repeats` (the
    /// indoor layer's features) among its `repeat_on` floors.
    static func onFloor(_ floor: String, repeats: Bool = true) -> [Any] {
        let floor = ";\(floor);"
        let level: [Any] = ["in", floor, ["concat", ";", ["to-string", ["get", "level"]], ";"]]
        guard repeats else { return level }
        return ["any", level, ["in", floor, ["concat", ";", ["coalesce", ["get", "repeat_on"], ""], ";"]]]
    }

    /// `layer` filtered by `filter` of the ground floor, with its filter of any floor in
    /// ``floorFilterKey``.
    private static func onOneFloor(_ layer: [String: Any], filter: (String) -> [Any]) -> [String: Any] {
        var layer = layer
        layer["filter"] = filter(groundFloor)
        layer["metadata"] = [floorFilterKey: filter(floorPlaceholder)]
        return layer
    }

    /// The indoor maps from zoom ``MapView/indoorMinZoom``, one floor at a time, as the PNG
    /// maps draw them: rooms, areas and corridors filled, walls drawn.
    private func indoorLayers() -> [[String: Any]] {
        let minZoom = Self.styleZoom(MapView.indoorMinZoom)
        let wall: [Any] = ["any", ["==", ["get", "class"], "wall"], ["==", ["geometry-type"], "LineString"]]
        return [
            Self.onOneFloor(
                [
                    "id": "indoor-areas", "type": "fill", "source": "openmaps", "source-layer": "indoor",
                    "minzoom": minZoom,
                    "paint": [
                        "fill-color": Self.css(palette.indoorRoom), "fill-outline-color": Self.css(palette.indoorWall),
                    ],
                ]
            ) { floor in ["all", ["==", ["geometry-type"], "Polygon"], ["!", wall], Self.onFloor(floor)] },
            Self.onOneFloor(
                [
                    "id": "indoor-walls", "type": "line", "source": "openmaps", "source-layer": "indoor",
                    "minzoom": minZoom, "paint": ["line-color": Self.css(palette.indoorWall), "line-width": 1.5],
                ]
            ) { floor in ["all", wall, Self.onFloor(floor)] },
        ]
    }

    /// The traffic, transit and bicycling layers the style asks for.
    private func layerLayers() -> [[String: Any]] {
        var layers: [[String: Any]] = []
        if style.traffic {
            // As the PNG maps colour them: each road in its congestion's colour over its fill,
            // seven tenths of its width and at least 1.5 points.
            var colours: [Any] = ["match", ["get", "congestion"]]
            for level in TrafficFeed.Congestion.allCases {
                colours += [level.rawValue, Self.css(MapPalette.trafficColor(level))]
            }
            colours.append(Self.css(MapPalette.trafficColor(.free)))
            layers.append([
                "id": "traffic", "type": "line", "source": "traffic", "source-layer": TrafficTiles.layer.id,
                "layout": ["line-cap": "round", "line-join": "round"],
                "paint": [
                    "line-color": colours,
                    "line-width": byClass { kind, zoom in
                        max((MapRenderer.roadLook(kind, zoom: zoom)?.width ?? 1) * 0.7, 1.5)
                    },
                ] as [String: Any],
            ])
        }
        if style.transit {
            let kinds = ["train", "subway", "light_rail", "monorail", "tram", "ferry", "bus", "trolleybus"]
            var colours: [Any] = ["match", ["get", "class"]]
            var widths: [Any] = ["interpolate", ["linear"], ["zoom"]]
            for zoom in 8...21 {
                var match: [Any] = ["match", ["get", "class"]]
                for kind in kinds {
                    guard let look = MapRenderer.transitLook(kind) else { continue }
                    match += [kind, MapRenderer.width(look.width, zoom: Double(zoom) + 1)]
                }
                match.append(MapRenderer.width(1.6, zoom: Double(zoom) + 1))
                widths += [zoom, match]
            }
            var shown: [Any] = ["any"]
            for kind in kinds {
                guard let look = MapRenderer.transitLook(kind) else { continue }
                colours += [kind, Self.css(look.color)]
                shown.append(
                    [
                        "all", ["==", ["get", "class"], kind],
                        [">=", ["zoom"], Self.styleZoom(ZoomRules.transitLine(kind))],
                    ] as [Any])
            }
            colours.append(Self.css(MapRenderer.transitLook("bus")?.color ?? palette.railway))
            layers.append([
                "id": "transit-lines", "type": "line", "source": "openmaps", "source-layer": "transit",
                "filter": ["all", ["==", ["geometry-type"], "LineString"], shown] as [Any],
                "paint": [
                    "line-color": ["coalesce", ["get", "colour"], colours] as [Any],
                    "line-width": widths,
                ] as [String: Any],
            ])
        }
        if style.bicycling {
            let cycling = BicyclingPalette.forScheme(style.style)
            for kind in [
                "route-icn", "route-ncn", "route-rcn", "route-lcn", "route-mtb", "trail", "shared", "designated",
                "street", "lane", "track",
            ] {
                guard let look = MapRenderer.cyclingLook(kind, palette: cycling) else { continue }
                var paint: [String: Any] = ["line-color": Self.css(look.color), "line-width": Self.width(look.width)]
                if !look.dash.isEmpty { paint["line-dasharray"] = look.dash.map { $0 / max(look.width, 1) } }
                layers.append([
                    "id": "cycling-\(kind)", "type": "line", "source": "openmaps", "source-layer": "cycling",
                    "minzoom": Self.styleZoom(ZoomRules.cycling(kind)), "filter": ["==", ["get", "class"], kind],
                    "paint": paint,
                ])
            }
        }
        return layers
    }

    /// The name of a feature in the style's language where the data has it, else its own.
    private var name: [Any] {
        guard let language = style.language else { return ["get", "name"] }
        return ["coalesce", ["get", "name:\(language.rawValue)"], ["get", "name"]]
    }

    /// The prefix of the image ids that stand for a label drawn by the server: an id is
    /// `label:KIND:TEXT`, KIND a ``LabelKind/name``.
    public static let labelImagePrefix = "label:"

    /// The style metadata's key for the address of the label pictures: a URL with `{kind}`
    /// to fill, to which a client adds `&text=` (the name) and `&scale=` (its pixel ratio).
    public static let labelPicturesKey = "openmaps:label-pictures"

    /// Where the pictures of this style's labels are: `/labels/{kind}.png` with its scheme,
    /// and `imagery=1` over imagery.
    private var labelPictures: String {
        var query = "scheme=\(style.style == .dark ? "dark" : "light")"
        if style.mapType == .hybrid { query += "&imagery=1" }
        return base + "/labels/{kind}.png?" + query
    }

    /// The labels' palette: the scheme's, over imagery its white-on-dark labels.
    private func labelPalette(overImagery: Bool) -> MapPalette { overImagery ? palette.overImagery : palette }

    /// A symbol layer's layout for a name that MapLibre writes where it can shape the name's
    /// script (`is-supported-script`), and that is otherwise a picture the server draws
    /// (``labelImagePrefix``, kind `kind`, an expression or a kind's name): Devanagari and the
    /// other scripts MapLibre cannot shape come out as right as on the PNG maps. `icon` is
    /// the icon shown beside a name MapLibre writes; a picture holds its icon itself, its
    /// centre at the feature's point.
    private func labelled(_ layout: [String: Any], kind: Any, icon: Any? = nil) -> [String: Any] {
        let writable: [Any] = ["is-supported-script", name]
        var layout = layout
        layout["text-field"] = ["case", writable, name, ""] as [Any]
        layout["icon-image"] =
            ["case", writable, icon ?? "", ["concat", Self.labelImagePrefix, kind, ":", name]] as [Any]
        if icon != nil {
            // The picture's icon sits labelMargin + radius + 1 points from its left edge.
            let iconCentre = MapRenderer.labelMargin + MapRenderer.iconRadius + 1
            layout["icon-anchor"] = ["case", writable, "center", "left"] as [Any]
            layout["icon-offset"] = ["case", writable, ["literal", [0, 0]], ["literal", [-iconCentre, 0]]] as [Any]
        }
        return layout
    }

    /// An expression of a value for each of `kinds`, matched on `field`, `fallback` for others.
    private static func match(_ field: String, _ kinds: [(value: Any, result: Any)], fallback: Any) -> [Any] {
        var match: [Any] = ["match", ["get", field]]
        for kind in kinds { match += [kind.value, kind.result] }
        return match + [fallback]
    }

    /// The major streets' classes: those whose names the renderer writes in the larger size.
    private static var majorStreetClasses: [String] {
        roadClasses.filter { MapRenderer.streetNameKind($0.kind) == .street(major: true) }.map(\.class)
    }

    /// Place, road, water and park names and points of interest, each in the look the PNG
    /// maps give its kind (``LabelLook``).
    private func labelLayers(overImagery: Bool) -> [[String: Any]] {
        let palette = labelPalette(overImagery: overImagery)
        func look(_ kind: LabelKind) -> LabelLook { LabelLook(kind, palette: palette) }
        func paint(_ color: Any) -> [String: Any] {
            ["text-color": color, "text-halo-color": Self.css(palette.labelHalo), "text-halo-width": 1.5]
        }
        let major: [Any] = ["in", ["get", "class"], ["literal", Self.majorStreetClasses]]
        let large: [Any] = [">", ["coalesce", ["get", "population"], 0], LabelKind.largePlacePopulation]
        let placeKind: [Any] = ["case", large, LabelKind.place(large: true).name, LabelKind.place(large: false).name]
        let placeSize: [Any] = [
            "case", large, look(.place(large: true)).pixelSize, look(.place(large: false)).pixelSize,
        ]
        var layers: [[String: Any]] = [
            [
                "id": "road-names", "type": "symbol", "source": "openmaps", "source-layer": "transportation_name",
                "minzoom": Self.styleZoom(ZoomRules.roadName("motorway")),
                "filter": roadNamesShown,
                "layout": labelled(
                    [
                        "symbol-placement": "line", "text-font": [Self.font],
                        "text-size": [
                            "case", major, look(.street(major: true)).pixelSize, look(.street(major: false)).pixelSize,
                        ]
                            as [Any],
                        "icon-rotation-alignment": "map", "icon-keep-upright": true,
                    ],
                    kind: ["case", major, LabelKind.street(major: true).name, LabelKind.street(major: false).name]
                        as [Any]),
                "paint": paint(Self.css(look(.street(major: false)).color)),
            ],
            [
                "id": "water-names", "type": "symbol", "source": "openmaps", "source-layer": "water_name",
                "minzoom": Self.styleZoom(ZoomRules.areaNames),
                "layout": labelled(
                    ["text-font": [Self.font], "text-size": look(.water).pixelSize], kind: LabelKind.water.name),
                "paint": paint(Self.css(look(.water).color)),
            ],
            [
                "id": "park-names", "type": "symbol", "source": "openmaps", "source-layer": "park",
                "minzoom": Self.styleZoom(ZoomRules.areaNames),
                "layout": labelled(
                    ["text-font": [Self.font], "text-size": look(.park).pixelSize], kind: LabelKind.park.name),
                "paint": paint(Self.css(look(.park).color)),
            ],
        ]
        if !overImagery {
            let categories = POICategory.allCases.map { (rank: 10 * ($0.rawValue + 1), category: $0) }
            var shown: [Any] = ["any"]
            for (rank, category) in categories {
                shown.append(
                    ["all", ["==", ["get", "rank"], rank], [">=", ["zoom"], Self.styleZoom(category.minZoom)]] as [Any])
            }
            // With the indoor maps, the points of interest of the floor shown and those of none.
            let indoorZoom = Self.styleZoom(MapView.indoorMinZoom)
            func poiFilter(_ floor: String) -> [Any] {
                [
                    "all", ["has", "name"], ["!", ["in", ["get", "class"], ["literal", ["railway", "bus"]]]], shown,
                    [
                        "any", ["!", ["has", "level"]], ["<", ["zoom"], indoorZoom],
                        Self.onFloor(floor, repeats: false),
                    ],
                ]
            }
            layers.append([
                "id": "poi", "type": "symbol", "source": "openmaps", "source-layer": "poi",
                "filter": poiFilter(Self.groundFloor),
                "metadata": [Self.floorFilterKey: poiFilter(Self.floorPlaceholder)],
                "layout": labelled(
                    [
                        "text-font": [Self.font], "text-size": look(.poi(.other)).pixelSize, "text-anchor": "left",
                        "text-offset": [LabelLook.iconGap / look(.poi(.other)).pixelSize, 0], "text-optional": true,
                    ],
                    kind: Self.match(
                        "rank", categories.map { ($0.rank, LabelKind.poi($0.category).name) },
                        fallback: LabelKind.poi(.other).name),
                    icon: Self.match("rank", categories.map { ($0.rank, "poi-\($0.category)") }, fallback: "poi-other")),
                "paint": paint(
                    Self.match(
                        "rank", categories.map { ($0.rank, Self.css(look(.poi($0.category)).color)) },
                        fallback: Self.css(look(.poi(.other)).color))),
            ])
            layers.append([
                "id": "stations", "type": "symbol", "source": "openmaps", "source-layer": "transit",
                "minzoom": Self.styleZoom(ZoomRules.stops),
                "filter": ["all", ["==", ["geometry-type"], "Point"], ["==", ["get", "class"], "station"]] as [Any],
                "layout": labelled(
                    [
                        "text-font": [Self.font], "text-size": look(.station).pixelSize, "text-anchor": "left",
                        "text-offset": [LabelLook.iconGap / look(.station).pixelSize, 0], "text-optional": true,
                    ], kind: LabelKind.station.name, icon: "station"),
                "paint": paint(Self.css(look(.station).color)),
            ])
        }
        layers.append([
            "id": "places", "type": "symbol", "source": "openmaps", "source-layer": "place",
            "filter": ["!=", ["get", "class"], "country"],
            "layout": labelled(["text-font": [Self.font], "text-size": placeSize], kind: placeKind),
            "paint": paint(Self.css(look(.place(large: false)).color)),
        ])
        layers.append([
            "id": "countries", "type": "symbol", "source": "openmaps", "source-layer": "place",
            "maxzoom": Self.styleZoom(ZoomRules.countryNamesBelow),
            "filter": ["==", ["get", "class"], "country"],
            "layout": labelled(["text-font": [Self.font], "text-size": placeSize], kind: placeKind),
            "paint": paint(Self.css(look(.place(large: false)).color)),
        ])
        return layers
    }
}
