import GeoCore
import MapCore
import MapData

/// The vector tiles' layers and fields: the OpenMapTiles schema's names (so its styles, Positron
/// and OSM Bright among them, draw our tiles), plus `transit`, `cycling` and `indoor` of our own.
/// docs/tiles.md documents every layer and field; ``layers`` is that table for TileJSON's
/// `vector_layers`.
///
/// Which features a tile holds at which zoom is ``ZoomRules``', the raster renderer's table: a
/// feature shown from map zoom z is in the tiles drawn at z on (tile zoom z − 1, as tiles are
/// drawn 512 pixels a side: ``mapZoom(ofTile:)``), and in the tiles of the archive's top zoom
/// (``maxZoom``) when z is above it, for clients to show from z.
public enum VectorTileSchema {
    /// The top zoom of a vector tile archive: 14, as OpenMapTiles; clients zoom past it into
    /// its tiles.
    public static let maxZoom = 14

    /// The schema's version, part of every cached tile's key: raised whenever what a tile holds
    /// changes, so that a server never serves tiles cut by an older build.
    public static let version = 1

    /// A layer as TileJSON's `vector_layers` declares it.
    public struct Layer: Sendable, Equatable {
        /// The layer's name, a style's `source-layer`.
        public var id: String
        /// What it holds, one sentence.
        public var description: String
        /// The lowest tile zoom whose tiles hold some of it (``tileZoom(_:)`` of the map zoom it
        /// shows from).
        public var minZoom: Int
        /// Its fields, each with its type: `String`, `Number` or `Boolean`.
        public var fields: [String: String]
    }

    /// The name fields every named feature carries: `name` (local), `name:latin` and
    /// `name:nonlatin` (the name in and out of the Latin script, as OpenMapTiles splits it),
    /// and `name:en` (also as OpenMapTiles' older `name_en`), `name:es`, `name:it`, `name:hi`
    /// where the data has them.
    public static let nameFields: [String: String] = [
        "name": "String", "name:latin": "String", "name:nonlatin": "String", "name_en": "String",
        "name:en": "String", "name:es": "String", "name:it": "String", "name:hi": "String",
    ]

    /// Every layer, in drawing order.
    public static let layers: [Layer] = [
        Layer(
            id: "water", description: "Oceans, lakes, rivers as areas, ponds and docks.", minZoom: 0,
            fields: ["class": "String", "intermittent": "Number", "brunnel": "String"]),
        Layer(
            id: "waterway", description: "Rivers, streams, canals, drains and ditches as lines.",
            minZoom: tileZoom(ZoomRules.worldRivers),
            fields: nameFields.merging(["class": "String", "brunnel": "String", "intermittent": "Number"]) { a, _ in a }
        ),
        Layer(
            id: "landcover", description: "Natural cover: wood, grass, farmland, wetland, sand, rock, ice.",
            minZoom: tileZoom(ZoomRules.streetData), fields: ["class": "String", "subclass": "String"]),
        Layer(
            id: "landuse", description: "Residential, commercial, industrial and other land uses.",
            minZoom: tileZoom(ZoomRules.streetData), fields: ["class": "String"]),
        Layer(
            id: "park", description: "Public parks and nature reserves.", minZoom: tileZoom(ZoomRules.streetData),
            fields: nameFields.merging(["class": "String"]) { a, _ in a }),
        Layer(
            id: "boundary", description: "Country, state and local administrative borders, as lines.", minZoom: 0,
            fields: ["admin_level": "Number", "disputed": "Number", "maritime": "Number", "claimed_by": "String"]),
        Layer(
            id: "aeroway", description: "Aerodromes, runways, taxiways, aprons and helipads.",
            minZoom: tileZoom(ZoomRules.streetData), fields: ["class": "String", "ref": "String"]),
        Layer(
            id: "transportation", description: "Roads, paths, railways and their areas.",
            minZoom: tileZoom(ZoomRules.road("motorway") ?? 5),
            fields: [
                "class": "String", "subclass": "String", "oneway": "Number", "brunnel": "String", "layer": "Number",
                "ramp": "Number", "surface": "String", "service": "String", "level": "Number",
            ]),
        Layer(
            id: "building", description: "Building footprints with their heights for 3D.",
            minZoom: tileZoom(ZoomRules.buildings),
            fields: ["render_height": "Number", "render_min_height": "Number", "colour": "String"]),
        Layer(
            id: "water_name", description: "Names of lakes and other waters, at a point inside them.",
            minZoom: tileZoom(ZoomRules.areaNames),
            fields: nameFields.merging(["class": "String", "intermittent": "Number"]) { a, _ in a }),
        Layer(
            id: "transportation_name", description: "Roads with a name or a ref, for labels and shields.",
            minZoom: tileZoom(ZoomRules.roadName("motorway")),
            fields: nameFields.merging([
                "class": "String", "subclass": "String", "ref": "String", "ref_length": "Number", "network": "String",
                "brunnel": "String", "layer": "Number",
            ]) { a, _ in a }),
        Layer(
            id: "place", description: "Countries, states, cities, towns, villages and their parts, as points.",
            minZoom: 0,
            fields: nameFields.merging([
                "class": "String", "rank": "Number", "capital": "Number", "iso_a2": "String", "population": "Number",
            ]) { a, _ in a }),
        Layer(
            id: "housenumber", description: "House numbers, at a point of their building or address.",
            minZoom: tileZoom(ZoomRules.buildings), fields: ["housenumber": "String"]),
        Layer(
            id: "poi", description: "Points of interest, stations and stops.", minZoom: tileZoom(ZoomRules.stops),
            fields: nameFields.merging([
                "class": "String", "subclass": "String", "rank": "Number", "level": "Number", "indoor": "Number",
                "layer": "Number",
            ]) { a, _ in a }),
        Layer(
            id: "aerodrome_label", description: "Airports, at a point, with their codes.",
            minZoom: tileZoom(ZoomRules.streetData),
            fields: nameFields.merging(["class": "String", "iata": "String", "icao": "String", "ele": "Number"]) {
                a, _ in a
            }),
        Layer(
            id: "mountain_peak", description: "Summits (peaks and volcanoes), at a point, with their heights.",
            minZoom: tileZoom(ZoomRules.peaks),
            fields: nameFields.merging(["class": "String", "ele": "Number", "ele_ft": "Number", "rank": "Number"]) {
                a, _ in a
            }),
        Layer(
            id: "transit", description: "Transit lines in their colours, and stations, entrances and stops.",
            minZoom: tileZoom(ZoomRules.transitLine("train")),
            fields: nameFields.merging(["class": "String", "colour": "String", "ref": "String"]) { a, _ in a }),
        Layer(
            id: "cycling", description: "The bicycling layer: cycle tracks, lanes, friendly streets, trails, routes.",
            minZoom: tileZoom(ZoomRules.cycling("route-icn")),
            fields: nameFields.merging(["class": "String", "ref": "String"]) { a, _ in a }),
        Layer(
            id: "indoor", description: "Indoor rooms, areas, corridors and walls, by level.",
            minZoom: tileZoom(MapView.indoorMinZoom),
            fields: nameFields.merging(["class": "String", "level": "String", "repeat_on": "String"]) { a, _ in a }),
    ]

    /// The layers whose features carry the store's feature id, for a client to pick one (a
    /// place's details, its feature state): labelled points and named lines. Areas and the
    /// network's lines go without (a tenth of a dense tile's size).
    public static let identifiedLayers: Set<String> = [
        "poi", "place", "transit", "aerodrome_label", "mountain_peak", "water_name", "transportation_name",
        "housenumber",
    ]

    /// The tile zoom whose tiles are drawn at map zoom `zoom`: one less, and at most
    /// ``maxZoom``.
    public static func tileZoom(_ zoom: Double) -> Int { min(max(Int(zoom) - 1, 0), maxZoom) }

    /// The map zoom (Google's, 256-point tiles, as ``ZoomRules`` counts) at which a tile of
    /// zoom `zoom` is first drawn: one more. Vector tiles are drawn 512 pixels a side (MapLibre's
    /// default and OpenMapTiles'), so the tile of zoom z covers the view of map zoom z + 1.
    public static func mapZoom(ofTile zoom: Int) -> Double { Double(zoom) + 1 }

    /// The store classes a tile at `zoom` reads (the world layers apart).
    static func classes(zoom: Int) -> [FeatureClass] {
        let z = zoom >= maxZoom ? Double.infinity : mapZoom(ofTile: zoom)
        var classes: [FeatureClass] = [.place]
        if z >= 8 { classes.append(.cycling) }
        if z >= 10 { classes.append(.route) }
        if z >= ZoomRules.streetData {
            classes += [.water, .waterway, .landcover, .landuse, .park, .boundary, .aeroway, .railway, .road, .address]
        }
        if z >= ZoomRules.stops { classes += [.transit, .poi] }
        if z >= ZoomRules.buildings { classes.append(.building) }
        if z >= MapView.indoorMinZoom { classes.append(.indoor) }
        return classes
    }

    /// True when a feature shown from map zoom `minZoom` belongs in a tile at `zoom`: from the
    /// tile drawn at that map zoom on, and in the top zoom's tiles whatever its zoom.
    static func shows(from minZoom: Double?, at zoom: Int) -> Bool {
        guard let minZoom else { return false }
        return zoom >= maxZoom || mapZoom(ofTile: zoom) >= minZoom
    }
}

/// One feature of a tile before its geometry is cut: its layer, what of its geometry to draw
/// and its attributes.
struct SchemaItem {
    /// How the store geometry becomes the tile's.
    enum Shape {
        /// As it is: points, lines or areas.
        case asIs
        /// A point inside it (a label's anchor).
        case anchor
        /// The rings of an area as lines (boundaries).
        case outline
    }

    var layer: String
    var shape: Shape
    var properties: [String: VectorTile.Value]
}

/// The OpenMapTiles reading of a store feature: its layer or layers and their fields.
struct SchemaMapping {
    let zoom: Int

    /// The items `tagged` gives at the mapping's zoom; none when nothing of it shows there.
    func items(_ tagged: MapStore.TaggedFeature) -> [SchemaItem] {
        let feature = tagged.feature
        let tags = tagged.tags
        var items: [SchemaItem] = []
        func add(_ layer: String, _ properties: [String: VectorTile.Value], as shape: SchemaItem.Shape = .asIs) {
            items.append(SchemaItem(layer: layer, shape: shape, properties: properties))
        }
        let names = Self.names(feature, tags)
        let kind = feature.kind
        switch feature.featureClass {
        case .water:
            // An imported region's own sea (``MapData``'s coastline assembly), where it stands
            // for the world's ocean (``VectorTileBuilder``).
            guard kind != FeatureKind.extractSea.kind else {
                add("water", ["class": .string("ocean")])
                break
            }
            var properties = ["class": VectorTile.Value.string(Self.waterClass(kind))]
            if let flag = Self.intermittent(tags) { properties["intermittent"] = flag }
            if let brunnel = Self.brunnel(feature, tags) { properties["brunnel"] = .string(brunnel) }
            add("water", properties)
            if feature.name != nil, VectorTileSchema.shows(from: ZoomRules.areaNames, at: zoom) {
                add("water_name", names.merging(properties.filter { $0.key != "brunnel" }) { a, _ in a }, as: .anchor)
            }
        case .waterway:
            var properties = names
            properties["class"] = .string(feature.detail == nil ? kind : "river")
            if let flag = Self.intermittent(tags) { properties["intermittent"] = flag }
            if let brunnel = Self.brunnel(feature, tags) { properties["brunnel"] = .string(brunnel) }
            add("waterway", properties)
        case .landcover, .landuse, .park:
            if let (layer, properties) = Self.area(feature.featureClass, kind) {
                add(layer, layer == "park" ? names.merging(properties) { a, _ in a } : properties)
            }
        case .boundary:
            let level = Int64(kind.dropFirst("admin_level_".count)) ?? 0
            guard level >= 2 else { break }
            add(
                "boundary",
                [
                    "admin_level": .int(level), "disputed": .int(tags["disputed"] == "yes" ? 1 : 0),
                    "maritime": .int(tags["maritime"] == "yes" ? 1 : 0),
                ], as: .outline)
        case .border:
            add(
                "boundary",
                ["admin_level": .int(kind == "country" ? 2 : 4), "disputed": .int(0), "maritime": .int(0)])
        case .aeroway:
            var properties: [String: VectorTile.Value] = ["class": .string(kind)]
            if let ref = tags["ref"] { properties["ref"] = .string(ref) }
            add("aeroway", properties)
            if kind == "aerodrome" && feature.name != nil {
                var label = names
                label["class"] = .string(tags["iata"] != nil ? "international" : "other")
                for key in ["iata", "icao"] { if let code = tags[key] { label[key] = .string(code) } }
                if let ele = tags["ele"].flatMap(Double.init) { label["ele"] = .int(Int64(ele.rounded())) }
                add("aerodrome_label", label, as: .anchor)
            }
        case .road, .railway:
            guard let road = Self.transportation(feature, tags, zoom: zoom) else { break }
            add("transportation", road)
            if feature.featureClass == .road, feature.name != nil || tags["ref"] != nil, !feature.geometry.isArea,
                VectorTileSchema.shows(from: ZoomRules.roadName(kind), at: zoom)
            {
                var label = names
                for key in ["class", "subclass", "brunnel", "layer"] { label[key] = road[key] }
                if let ref = tags["ref"] {
                    label["ref"] = .string(ref)
                    label["ref_length"] = .int(Int64(ref.count))
                    label["network"] = .string("road")
                }
                add("transportation_name", label)
            }
        case .building:
            // Whole metres, as OpenMapTiles writes them: a style extrudes to the metre, and few
            // distinct values are shared by many buildings.
            var properties: [String: VectorTile.Value] = [
                "render_height": .int(Int64(Self.height(feature, tags).rounded())),
                "render_min_height": .int(Int64(Self.minimumHeight(tags).rounded())),
            ]
            if let colour = tags["building:colour"].flatMap(FeatureColour.normalized) {
                properties["colour"] = .string(colour)
            }
            add("building", properties)
        case .place:
            guard let properties = Self.place(feature, tags, zoom: zoom) else { break }
            add("place", names.merging(properties) { a, _ in a }, as: .anchor)
        case .poi where kind.hasPrefix("natural="):
            // Summits, the only points of interest classified by `natural=*`.
            guard VectorTileSchema.shows(from: ZoomRules.peaks, at: zoom) else { break }
            var summit = names
            summit["class"] = .string(String(kind.dropFirst("natural=".count)))
            if let metres = tags["ele"].flatMap(FeatureClassifier.metres(ofElevation:)) {
                summit["ele"] = .int(Int64(metres.rounded()))
                summit["ele_ft"] = .int(Int64((metres / 0.3048).rounded()))
            }
            // 1 for a named summit, 2 for one without a name (labelled after).
            summit["rank"] = .int(feature.name == nil ? 2 : 1)
            add("mountain_peak", summit, as: .anchor)
        case .poi:
            guard let category = POICategory(kind: kind), feature.name != nil,
                VectorTileSchema.shows(from: category.minZoom, at: zoom)
            else { break }
            let value = String(kind.split(separator: "=", maxSplits: 1).last ?? "")
            var properties = names
            properties["class"] = .string(Self.poiClass(kind))
            properties["subclass"] = .string(value)
            properties["rank"] = .int(Int64(10 * (category.rawValue + 1)))
            if let level = feature.level.flatMap({ Int64($0) }) {
                properties["level"] = .int(level)
                properties["indoor"] = .int(1)
            }
            if feature.layer != 0 { properties["layer"] = .int(Int64(feature.layer)) }
            add("poi", properties, as: .anchor)
        case .transit:
            guard feature.name != nil, VectorTileSchema.shows(from: ZoomRules.transitStop(kind), at: zoom) else {
                break
            }
            add("transit", names.merging(["class": .string(kind)]) { a, _ in a }, as: .anchor)
            let bus = kind == "bus_stop"
            add(
                "poi",
                names.merging([
                    "class": .string(bus ? "bus" : "railway"), "subclass": .string(kind),
                    "rank": .int(kind == "station" ? 1 : 20),
                ]) { a, _ in a }, as: .anchor)
        case .route:
            guard VectorTileSchema.shows(from: ZoomRules.transitLine(kind), at: zoom) else { break }
            var properties = names
            properties["class"] = .string(kind)
            if let colour = feature.colour { properties["colour"] = .string(colour.hexString) }
            if let ref = tags["ref"] { properties["ref"] = .string(ref) }
            add("transit", properties)
        case .cycling:
            guard VectorTileSchema.shows(from: ZoomRules.cycling(kind), at: zoom) else { break }
            var properties = names
            properties["class"] = .string(kind)
            if let ref = tags["ref"] { properties["ref"] = .string(ref) }
            add("cycling", properties)
        case .indoor:
            var properties = names
            properties["class"] = .string(kind)
            if let level = feature.level { properties["level"] = .string(level) }
            if let repeats = tags["repeat_on"] { properties["repeat_on"] = .string(repeats) }
            add("indoor", properties)
        case .address, .land:
            break
        }
        if let number = tags["addr:housenumber"], VectorTileSchema.shows(from: ZoomRules.buildings, at: zoom),
            feature.featureClass != .land
        {
            add("housenumber", ["housenumber": .string(number)], as: .anchor)
        }
        // Areas' layers take areas only (a building mapped as a node is its POI's business),
        // and roads are lines or areas.
        return items.filter { item in
            guard item.shape == .asIs else { return true }
            if Self.areaLayers.contains(item.layer) { return feature.geometry.isArea }
            if item.layer == "transportation" || item.layer == "waterway" {
                if case .point = feature.geometry { return false }
            }
            return true
        }
    }

    /// The layers of areas only.
    static let areaLayers: Set<String> = ["water", "landcover", "landuse", "park", "building"]

    /// The name fields of a named feature (see ``VectorTileSchema/nameFields``).
    static func names(_ feature: MapStore.Feature, _ tags: [String: String]) -> [String: VectorTile.Value] {
        guard let name = feature.name, !name.isEmpty else { return [:] }
        var fields: [String: VectorTile.Value] = ["name": .string(name)]
        let latin = isLatin(name)
        if latin {
            fields["name:latin"] = .string(name)
        } else {
            fields["name:nonlatin"] = .string(name)
            if let other = tags["name:en"] ?? tags["int_name"] ?? tags["name:latin"], isLatin(other) {
                fields["name:latin"] = .string(other)
            }
        }
        if let english = tags["name:en"] { fields["name_en"] = .string(english) }
        for language in Language.allCases {
            if let value = tags["name:\(language.rawValue)"] { fields["name:\(language.rawValue)"] = .string(value) }
        }
        return fields
    }

    /// True when every letter of `text` is of the Latin script (digits, spaces, punctuation
    /// and combining marks count as Latin).
    static func isLatin(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            !scalar.properties.isAlphabetic || scalar.value < 0x250 || (0x1E00...0x1EFF).contains(scalar.value)
                || (0x2C60...0x2C7F).contains(scalar.value) || (0xA720...0xA7FF).contains(scalar.value)
                || (0x0300...0x036F).contains(scalar.value)
        }
    }

    /// OpenMapTiles' `water` class of a water kind: `lake`, `river`, `pond`, `dock` or
    /// `swimming_pool` (`ocean` is the sea the world's land leaves).
    static func waterClass(_ kind: String) -> String {
        switch kind {
        case "river", "riverbank", "canal", "stream", "ditch", "drain", "stream_pool": "river"
        case "pond": "pond"
        case "dock": "dock"
        case "swimming_pool": "swimming_pool"
        default: "lake"
        }
    }

    static func intermittent(_ tags: [String: String]) -> VectorTile.Value? {
        tags["intermittent"].map { .int($0 == "yes" ? 1 : 0) }
    }

    /// `bridge`, `tunnel` or `ford`, nil for none.
    static func brunnel(_ feature: MapStore.Feature, _ tags: [String: String]) -> String? {
        feature.isBridge ? "bridge" : feature.isTunnel ? "tunnel" : tags["ford"] == "yes" ? "ford" : nil
    }

    /// The landcover, landuse or park layer and fields of an area of `featureClass` and `kind`;
    /// nil for kinds none of them holds.
    static func area(_ featureClass: FeatureClass, _ kind: String) -> (String, [String: VectorTile.Value])? {
        if featureClass == .park {
            switch kind {
            case "park": return ("park", ["class": .string("public_park")])
            case "nature_reserve": return ("park", ["class": .string("nature_reserve")])
            case "playground": return ("landuse", ["class": .string("playground")])
            default: return ("landcover", ["class": .string("grass"), "subclass": .string(kind)])
            }
        }
        if let cover = landcoverClass[kind] {
            return ("landcover", ["class": .string(cover), "subclass": .string(kind)])
        }
        guard featureClass == .landuse else { return nil }
        return ("landuse", ["class": .string(kind)])
    }

    /// OpenMapTiles' landcover classes, by the `natural`, `landuse` or `leisure` value.
    static let landcoverClass: [String: String] = {
        var table: [String: String] = [:]
        let classes: [String: [String]] = [
            "farmland": ["farmland", "farm", "orchard", "vineyard", "plant_nursery"],
            "ice": ["glacier", "ice_shelf"],
            "wood": ["wood", "forest"],
            "rock": ["bare_rock", "scree"],
            "grass": [
                "fell", "flowerbed", "grassland", "heath", "scrub", "tundra", "shrubbery", "grass", "meadow",
                "allotments", "village_green", "recreation_ground", "garden", "golf_course",
            ],
            "wetland": [
                "wetland", "bog", "swamp", "wet_meadow", "marsh", "reedbed", "saltern", "tidalflat", "mangrove",
            ],
            "sand": ["beach", "sand", "dune"],
        ]
        for (cover, kinds) in classes { for kind in kinds { table[kind] = cover } }
        return table
    }()

    /// The transportation fields of a road or railway, nil when it does not show at `zoom`.
    static func transportation(_ feature: MapStore.Feature, _ tags: [String: String], zoom: Int) -> [String:
        VectorTile.Value]?
    {
        let kind = feature.kind
        var properties: [String: VectorTile.Value] = [:]
        if feature.featureClass == .railway {
            let transit = ["subway", "light_rail", "tram", "monorail"].contains(kind)
            guard VectorTileSchema.shows(from: kind == "tram" ? ZoomRules.trams : ZoomRules.streetData, at: zoom)
            else { return nil }
            properties["class"] = .string(transit ? "transit" : "rail")
            properties["subclass"] = .string(kind)
        } else {
            guard VectorTileSchema.shows(from: ZoomRules.road(kind), at: zoom) else { return nil }
            let base = kind.hasSuffix("_link") ? String(kind.dropLast(5)) : kind
            switch base {
            case "motorway", "trunk", "primary", "secondary", "tertiary": properties["class"] = .string(base)
            case "residential", "unclassified", "living_street", "road": properties["class"] = .string("minor")
            case "service": properties["class"] = .string("service")
            case "track": properties["class"] = .string("track")
            default:
                properties["class"] = .string("path")
                properties["subclass"] = .string(kind)
            }
            if kind.hasSuffix("_link") { properties["ramp"] = .int(1) }
            switch tags["oneway"] {
            case "yes", "true", "1": properties["oneway"] = .int(1)
            case "-1", "reverse": properties["oneway"] = .int(-1)
            default: break
            }
            if let surface = tags["surface"] {
                properties["surface"] = .string(Self.unpaved.contains(surface) ? "unpaved" : "paved")
            }
        }
        if let service = tags["service"] { properties["service"] = .string(service) }
        if let brunnel = brunnel(feature, tags) { properties["brunnel"] = .string(brunnel) }
        if feature.layer != 0 { properties["layer"] = .int(Int64(feature.layer)) }
        if let level = feature.level.flatMap({ Int64($0) }) { properties["level"] = .int(level) }
        return properties
    }

    /// Surfaces OpenMapTiles calls unpaved.
    static let unpaved: Set<String> = [
        "unpaved", "compacted", "dirt", "earth", "fine_gravel", "grass", "grass_paver", "gravel", "gravel_turf",
        "ground", "ice", "mud", "pebblestone", "salt", "sand", "snow", "woodchips",
    ]

    /// Metres from the ground to the top: `height`, else 3.66 m a storey (`building:levels`),
    /// else one storey.
    static func height(_ feature: MapStore.Feature, _ tags: [String: String]) -> Double {
        if let height = feature.height, height > 0 { return (height * 10).rounded() / 10 }
        return ((feature.levels ?? 1) * 3.66 * 10).rounded() / 10
    }

    /// Metres from the ground to the bottom: `min_height`, else 3.66 m a storey below
    /// (`building:min_level`), else 0.
    static func minimumHeight(_ tags: [String: String]) -> Double {
        if let height = tags["min_height"].flatMap({ Double($0.split(separator: " ").first ?? "") }) { return height }
        if let levels = tags["building:min_level"].flatMap(Double.init) { return (levels * 3.66 * 10).rounded() / 10 }
        return 0
    }

    /// The place fields (class, rank, capital, population, iso_a2), nil when the place is not
    /// named at `zoom` (``ZoomRules/placePopulation(zoom:)``).
    static func place(_ feature: MapStore.Feature, _ tags: [String: String], zoom: Int) -> [String: VectorTile.Value]? {
        guard feature.name != nil else { return nil }
        let z = zoom >= VectorTileSchema.maxZoom ? Double.infinity : VectorTileSchema.mapZoom(ofTile: zoom)
        let population = feature.population ?? 0
        if feature.kind == "country" {
            guard z < ZoomRules.countryNamesBelow || zoom >= VectorTileSchema.maxZoom else { return nil }
        } else {
            guard population >= ZoomRules.placePopulation(zoom: z == .infinity ? 99 : z),
                feature.osmType == nil || z >= ZoomRules.streetData
            else { return nil }
        }
        var properties: [String: VectorTile.Value] = [
            "class": .string(feature.kind), "rank": .int(rank(population: population)),
        ]
        if population > 0 { properties["population"] = .int(population) }
        switch tags["capital"] {
        case "yes": properties["capital"] = .int(2)
        case let level?: if let number = Int64(level) { properties["capital"] = .int(number) }
        default: break
        }
        if feature.kind == "country", let code = tags["country_code"] ?? tags["ISO3166-1"] {
            properties["iso_a2"] = .string(code.uppercased())
        }
        return properties
    }

    /// 1 for the biggest places (10 million people or more) to 10 for the smallest.
    static func rank(population: Int64) -> Int64 {
        guard population > 0 else { return 10 }
        let steps: [Int64] = [10_000_000, 5_000_000, 2_000_000, 1_000_000, 500_000, 200_000, 100_000, 50_000, 15_000]
        return Int64((steps.firstIndex { population >= $0 } ?? 9) + 1)
    }

    /// OpenMapTiles' `poi` class of a `key=value` kind: the value itself where OpenMapTiles
    /// keeps it (`cafe`, `pharmacy`, `museum`), its group otherwise (`shop` values to `shop`,
    /// `grocery`, `clothing_store`, …).
    static func poiClass(_ kind: String) -> String {
        let parts = kind.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return kind }
        let (key, value) = (parts[0], parts[1])
        switch (key, value) {
        case ("shop", "supermarket"), ("shop", "convenience"), ("shop", "greengrocer"), ("shop", "grocery"):
            return "grocery"
        case ("shop", "clothes"), ("shop", "fashion"), ("shop", "shoes"): return "clothing_store"
        case ("shop", "bakery"), ("shop", "butcher"), ("shop", "alcohol"), ("shop", "books"), ("shop", "florist"):
            return value == "books" ? "library" : value
        case ("shop", _): return "shop"
        case ("amenity", "fast_food"), ("amenity", "food_court"): return "fast_food"
        case ("amenity", "pub"), ("amenity", "bar"), ("amenity", "biergarten"): return value == "pub" ? "beer" : "bar"
        case ("amenity", "place_of_worship"): return "place_of_worship"
        case ("amenity", "clinic"), ("amenity", "doctors"), ("amenity", "dentist"), ("amenity", "hospital"):
            return "hospital"
        case ("tourism", "hotel"), ("tourism", "hostel"), ("tourism", "guest_house"), ("tourism", "motel"):
            return "lodging"
        case ("tourism", "attraction"), ("tourism", "viewpoint"), ("tourism", "artwork"): return "attraction"
        case ("historic", _): return "monument"
        default: return value
        }
    }
}

extension Color {
    /// `#rrggbb`, the colour without its opacity.
    var hexString: String {
        func byte(_ value: Double) -> String {
            let text = String(Int((min(max(value, 0), 1) * 255).rounded()), radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }
}
