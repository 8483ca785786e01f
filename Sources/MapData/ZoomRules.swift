/// Which features a map shows from which zoom: the one table the raster renderer draws by and
/// the vector tiles are cut by, so a PNG tile and a vector tile of the same place never
/// disagree about what is on the map. Zooms are Google's (0 the whole world on one 256-point
/// tile); a vector tile archive stops at ``VectorTileSchema``'s top zoom and carries there
/// everything shown above it, for clients to show from its zoom on.
public enum ZoomRules {
    /// The world layers' rivers and state borders: from zoom 4.
    public static let worldRivers = 4.0
    /// The world layers at full detail (from `data install --hires`): from zoom 8.
    public static let worldFullDetail = 8.0
    /// The store's street data (areas, waters, railways, main roads): from zoom 11; the world
    /// layers' rivers give way to the streets' own there.
    public static let streetData = 11.0
    /// Summits with their heights, on the terrain map: from zoom 10.
    public static let peaks = 10.0
    /// Transit stops and stations: read and labelled from zoom 13.
    public static let stops = 13.0
    /// The zoom from which a map is expected to show streets: 13.
    public static let streets = 13.0
    /// Buildings, flat: from zoom 14.
    public static let buildings = 14.0
    /// Buildings' outlines: from zoom 16 (below, a building is a few pixels and its wall line
    /// a blur).
    public static let buildingOutlines = 16.0
    /// Trams: from zoom 14.
    public static let trams = 14.0
    /// Buildings extruded under tilt: from zoom 15.
    public static let extrudedBuildings = 15.0
    /// Names of parks and waters wide enough for them: from zoom 15.
    public static let areaNames = 15.0
    /// Points of interest: from zoom 16 (sights and lodging; others later, ``POICategory/minZoom``).
    public static let pointsOfInterest = 16.0
    /// Country names: up to zoom 6 (cities take over from 7).
    public static let countryNamesBelow = 7.0

    /// The zoom from which a road of OSM `highway` kind `kind` shows; nil for kinds never drawn
    /// as roads. Motorways and trunks from 5, primaries from 8, secondaries from 10, tertiaries
    /// from 11, main links from 12, streets from 13, pedestrian and service roads from 14,
    /// paths and tracks from 15.
    public static func road(_ kind: String) -> Double? { roadZooms[kind] }

    /// ``road(_:)``'s table.
    private static let roadZooms: [String: Double] = [
        "motorway": 5, "trunk": 5, "primary": 8, "secondary": 10, "tertiary": 11, "secondary_link": 11,
        "tertiary_link": 11, "motorway_link": 12, "trunk_link": 12, "primary_link": 12, "residential": 13,
        "unclassified": 13, "living_street": 13, "road": 13, "pedestrian": 14, "service": 14, "footway": 15,
        "path": 15, "cycleway": 15, "steps": 15, "track": 15, "bridleway": 15, "trail": 15,
    ]

    /// The OSM `highway` kinds drawn as roads at `zoom` (``road(_:)``), sorted: what a picture
    /// reads of the road class (crossings, street lamps and signals, also in it, never).
    public static func roadKinds(atZoom zoom: Double) -> [String] {
        roadZooms.filter { $0.value <= zoom }.keys.sorted()
    }

    /// The zoom from which a road of OSM `highway` kind `kind` is named along its line: main
    /// roads (motorways, trunks, primaries and their links, secondaries) from 14, tertiaries and
    /// streets from 15, the rest from 16.
    public static func roadName(_ kind: String) -> Double {
        switch kind {
        case "motorway", "trunk", "primary", "motorway_link", "trunk_link", "primary_link", "secondary": 14
        case "tertiary", "secondary_link", "tertiary_link", "residential", "unclassified", "living_street", "road":
            15
        default: 16
        }
    }

    /// The world layers' level of detail at `zoom`: crude below 3, low below 5, intermediate
    /// above (full from ``worldFullDetail`` where the store has it).
    public static func worldDetail(zoom: Double) -> DetailLevel {
        zoom < 3 ? .crude : zoom < 5 ? .low : .intermediate
    }

    /// The smallest population of a place named at `zoom`: a million below 5, 100,000 below 8,
    /// 15,000 below 11, any above.
    public static func placePopulation(zoom: Double) -> Int64 {
        zoom < 5 ? 1_000_000 : zoom < 8 ? 100_000 : zoom < 11 ? 15_000 : 0
    }

    /// The zoom from which the transit layer shows a route of OSM `route` kind `kind` (`train`,
    /// `subway`, `light_rail`, `monorail`, `ferry`, `tram`, `bus`, `trolleybus`): rail and ferries
    /// from 10, trams from 12, buses from 14.
    public static func transitLine(_ kind: String) -> Double {
        switch kind {
        case "tram": 12
        case "bus", "trolleybus": 14
        default: 10
        }
    }

    /// The zoom from which a ``FeatureClass/transit`` feature of `kind` is named: stations from
    /// 13, subway entrances and tram and bus stops (with the transit layer) from 16; nil for
    /// kinds never named (platforms).
    public static func transitStop(_ kind: String) -> Double? {
        switch kind {
        case "station": stops
        case "subway_entrance", "tram_stop", "bus_stop": pointsOfInterest
        default: nil
        }
    }

    /// The zoom from which the bicycling layer shows a ``FeatureClass/cycling`` kind: national
    /// and international routes from 8, regional from 10, local and mountain-bike routes from
    /// 12, ways from 13.
    public static func cycling(_ kind: String) -> Double {
        switch kind {
        case "route-icn", "route-ncn": 8
        case "route-rcn": 10
        case let route where route.hasPrefix("route-"): 12
        default: 13
        }
    }
}

/// What a point of interest is, for its icon's colour and when it shows; in label priority.
public enum POICategory: Int, CaseIterable, Sendable {
    case sight, lodging, food, shop, health, other

    /// The category of a POI's `key=value` kind, or nil for street furniture and other
    /// unlabelled things.
    public init?(kind: String) {
        let parts = kind.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        let (key, value) = (parts[0], parts[1])
        switch (key, value) {
        case ("tourism", "museum"), ("tourism", "gallery"), ("tourism", "attraction"), ("tourism", "artwork"),
            ("tourism", "viewpoint"), ("historic", _), ("amenity", "theatre"), ("amenity", "place_of_worship"),
            ("amenity", "library"), ("amenity", "arts_centre"), ("amenity", "cinema"):
            self = .sight
        case ("tourism", "hotel"), ("tourism", "hostel"), ("tourism", "guest_house"), ("tourism", "motel"):
            self = .lodging
        case ("amenity", "restaurant"), ("amenity", "cafe"), ("amenity", "fast_food"), ("amenity", "pub"),
            ("amenity", "bar"), ("amenity", "ice_cream"), ("amenity", "food_court"), ("amenity", "nightclub"):
            self = .food
        case ("shop", _): self = .shop
        case ("amenity", "pharmacy"), ("amenity", "hospital"), ("amenity", "clinic"), ("amenity", "doctors"),
            ("amenity", "dentist"):
            self = .health
        case ("amenity", "bench"), ("amenity", "waste_basket"), ("amenity", "bicycle_parking"),
            ("amenity", "vending_machine"), ("amenity", "post_box"), ("amenity", "waste_disposal"),
            ("amenity", "life_ring"), ("amenity", "clock"), ("amenity", "fountain"), ("amenity", "toilets"),
            ("amenity", "motorcycle_parking"), ("amenity", "taxi"), ("amenity", "parking"), ("leisure", "pitch"):
            return nil
        default: self = .other
        }
    }

    /// The zoom from which the category is labelled: sights and lodging from 16, food,
    /// shops and health from 17, the rest from 18.
    public var minZoom: Double {
        switch self {
        case .sight, .lodging: ZoomRules.pointsOfInterest
        case .food, .shop, .health: ZoomRules.pointsOfInterest + 1
        case .other: ZoomRules.pointsOfInterest + 2
        }
    }
}
