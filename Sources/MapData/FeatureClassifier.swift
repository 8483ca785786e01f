/// What a feature is, for rendering and search: a class and a kind within it.
public struct FeatureKind: Sendable, Equatable {
    /// The broad class.
    public var featureClass: FeatureClass
    /// The value that refines the class ("primary", "station", "cafe").
    public var kind: String
    /// True when a closed way of this kind is an area.
    public var isArea: Bool

    /// A kind of `featureClass` refined by `kind`; an area when `isArea` and the way is closed.
    public init(featureClass: FeatureClass, kind: String, isArea: Bool) {
        self.featureClass = featureClass
        self.kind = kind
        self.isArea = isArea
    }

    /// The land an extract's coastline makes within its box (``CoastlineAssembler``).
    public static let extractLand = FeatureKind(featureClass: .land, kind: "coast", isArea: true)
    /// The sea within an extract's box: the box with its coastline's land cut out.
    public static let extractSea = FeatureKind(featureClass: .water, kind: "sea", isArea: true)

    /// The world's shorelines by GSHHG level, each inside the one before: land (level 1) …
    public static let worldLand = FeatureKind(featureClass: .land, kind: "land", isArea: true)
    /// … lakes (2) …
    public static let worldLake = FeatureKind(featureClass: .water, kind: "lake", isArea: true)
    /// … islands in lakes (3) …
    public static let worldIslandInLake = FeatureKind(featureClass: .land, kind: "island_in_lake", isArea: true)
    /// … and ponds on those islands (4); Antarctica's ice and ground line (5, 6) are land.
    public static let worldPond = FeatureKind(featureClass: .water, kind: "pond_in_island", isArea: true)
    public static let worldAntarctica = FeatureKind(featureClass: .land, kind: "antarctica", isArea: true)
}

/// Sorts OSM tags into feature classes (a documented subset of OSM's tagging).
public enum FeatureClassifier {
    static let railwayLines: Set<String> = [
        "rail", "subway", "tram", "light_rail", "narrow_gauge", "monorail", "funicular",
    ]
    static let waterwayLines: Set<String> = ["river", "stream", "canal", "drain", "ditch"]
    static let parks: Set<String> = ["park", "garden", "playground", "nature_reserve", "dog_park"]
    static let landcover: Set<String> = [
        "wood", "scrub", "heath", "grassland", "beach", "sand", "wetland", "bare_rock",
    ]
    static let aeroways: Set<String> = [
        "aerodrome", "heliport", "runway", "taxiway", "apron", "helipad", "gate", "hangar", "stopway",
    ]
    /// An `ele` tag's metres: a number, with or without " m" (OpenStreetMap's unit); feet
    /// (" ft", "'") turned to metres; nil for anything else.
    public static func metres(ofElevation text: String) -> Double? {
        var value = text.trimmingCharacters(in: .whitespaces).lowercased()
        var factor = 1.0
        for (suffix, scale) in [("ft", 0.3048), ("'", 0.3048), ("m", 1.0)] where value.hasSuffix(suffix) {
            value = String(value.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            factor = scale
            break
        }
        guard let number = Double(value), number.isFinite else { return nil }
        return number * factor
    }

    /// `natural=*` values that are summits.
    public static let peaks: Set<String> = ["peak", "volcano"]
    static let poiKeys = ["amenity", "shop", "tourism", "leisure", "office", "craft", "historic", "healthcare"]

    /// The kind of a tagged element, nil when it is not a feature of its own (an untagged node).
    public static func classify(_ tags: [(key: String, value: String)]) -> FeatureKind? {
        func value(_ key: String) -> String? { tags.first { $0.key == key }?.value }
        if let value = value("building"), value != "no" {
            return FeatureKind(featureClass: .building, kind: value, isArea: true)
        }
        if let value = value("indoor"), value != "no" {
            return FeatureKind(
                featureClass: .indoor, kind: value, isArea: value != "corridor" || self.value(tags, "area") == "yes")
        }
        if let value = value("highway") {
            if value == "bus_stop" || value == "platform" {
                return FeatureKind(featureClass: .transit, kind: value, isArea: false)
            }
            return FeatureKind(featureClass: .road, kind: value, isArea: self.value(tags, "area") == "yes")
        }
        if let value = value("railway") {
            if railwayLines.contains(value) { return FeatureKind(featureClass: .railway, kind: value, isArea: false) }
            if ["station", "halt", "tram_stop", "subway_entrance", "platform"].contains(value) {
                return FeatureKind(
                    featureClass: .transit, kind: value, isArea: value == "platform" || value == "station")
            }
        }
        if let value = value("public_transport") {
            return FeatureKind(featureClass: .transit, kind: value, isArea: value == "platform" || value == "station")
        }
        if let value = value("aeroway"), Self.aeroways.contains(value) {
            let lines = value == "runway" || value == "taxiway"
            return FeatureKind(
                featureClass: .aeroway, kind: value, isArea: !lines || self.value(tags, "area") == "yes")
        }
        if let value = value("waterway") {
            if waterwayLines.contains(value) {
                return FeatureKind(featureClass: .waterway, kind: value, isArea: false)
            }
            if value == "riverbank" || value == "dock" {
                return FeatureKind(featureClass: .water, kind: value, isArea: true)
            }
        }
        if value("natural") == "water" || value("water") != nil
            || ["reservoir", "basin"].contains(value("landuse") ?? "")
        {
            return FeatureKind(featureClass: .water, kind: value("water") ?? "water", isArea: true)
        }
        if let value = value("leisure"), parks.contains(value) {
            return FeatureKind(featureClass: .park, kind: value, isArea: true)
        }
        if let value = value("natural"), landcover.contains(value) {
            return FeatureKind(featureClass: .landcover, kind: value, isArea: true)
        }
        if let value = value("landuse") { return FeatureKind(featureClass: .landuse, kind: value, isArea: true) }
        if value("boundary") == "administrative" {
            return FeatureKind(
                featureClass: .boundary, kind: "admin_level_" + (value("admin_level") ?? "?"), isArea: true)
        }
        if let value = value("place") { return FeatureKind(featureClass: .place, kind: value, isArea: false) }
        // Summits: the terrain map writes them with their height (`ele`).
        if let value = value("natural"), peaks.contains(value) {
            return FeatureKind(featureClass: .poi, kind: "natural=\(value)", isArea: false)
        }
        for key in poiKeys {
            if let value = value(key) {
                return FeatureKind(
                    featureClass: .poi, kind: "\(key)=\(value)", isArea: self.value(tags, "area") != "no")
            }
        }
        if value("addr:housenumber") != nil {
            return FeatureKind(featureClass: .address, kind: "address", isArea: true)
        }
        return nil
    }

    /// Surfaces a road bike does not like: the bicycling layer draws such tracks and paths as trails.
    static let unpavedSurfaces: Set<String> = [
        "unpaved", "dirt", "gravel", "fine_gravel", "compacted", "ground", "earth", "grass", "sand", "mud",
        "pebblestone", "woodchips", "rock", "stone",
    ]

    /// What the bicycling layer shows of a way, nil when bicycles have nothing particular there:
    /// - `no:HIGHWAY` (`no:motorway`, `no:footway`): closed to bicycles (`bicycle=no` or
    ///   `use_sidepath`, motorways unless allowed), with the way's `highway` value;
    /// - `track`: a way of its own (`highway=cycleway`, `cycleway[:side]=track`);
    /// - `lane`: a painted lane (`cycleway[:left|:right|:both]=lane`);
    /// - `trail`: a mountain-bike or unpaved trail (`mtb:scale`, tracks and paths on unpaved
    ///   surfaces or of grade 2–5);
    /// - `designated`: a path or footway signed for bicycles (`bicycle=designated`);
    /// - `street`: a cycle street (`cyclestreet=yes`, `bicycle_road=yes`);
    /// - `shared`: a lane shared with cars or buses (`shared_lane`, `share_busway`).
    public static func cyclingKind(_ tags: [(key: String, value: String)]) -> String? {
        func value(_ key: String) -> String? { tags.first { $0.key == key }?.value }
        guard let highway = value("highway") else { return nil }
        let bicycle = value("bicycle")
        let sides = ["cycleway", "cycleway:left", "cycleway:right", "cycleway:both"].compactMap(value)
        if highway == "cycleway" || sides.contains(where: { $0 == "track" || $0 == "opposite_track" }) {
            return "track"
        }
        if bicycle == "no" || bicycle == "use_sidepath" { return "no:" + highway }
        if highway == "motorway" || highway == "motorway_link" {
            return ["yes", "designated", "permissive"].contains(bicycle ?? "") ? nil : "no:" + highway
        }
        if sides.contains(where: { $0 == "lane" || $0 == "opposite_lane" }) { return "lane" }
        let unpaved =
            unpavedSurfaces.contains(value("surface") ?? "")
            || ["grade2", "grade3", "grade4", "grade5"].contains(value("tracktype") ?? "")
        if value("mtb:scale") != nil || (["track", "path", "bridleway"].contains(highway) && unpaved) {
            return "trail"
        }
        if bicycle == "designated" { return "designated" }
        if value("cyclestreet") == "yes" || value("bicycle_road") == "yes" { return "street" }
        if sides.contains(where: { ["shared_lane", "share_busway", "opposite_share_busway", "shared"].contains($0) }) {
            return "shared"
        }
        return nil
    }

    /// The bicycling layer's kind of a cycle route relation (`route=bicycle` or `mtb`): by its
    /// network, `route-icn` (international), `route-ncn`, `route-rcn`, `route-lcn` (local, also
    /// without a network), `route-mtb`; nil for another relation.
    public static func cyclingRouteKind(_ tags: [(key: String, value: String)]) -> String? {
        switch value(tags, "route") {
        case "mtb": return "route-mtb"
        case "bicycle":
            let network = value(tags, "network") ?? "lcn"
            return ["icn", "ncn", "rcn", "lcn"].contains(network) ? "route-" + network : "route-lcn"
        default: return nil
        }
    }

    /// Every name of a feature for the name index: name, name:xx, alternative, old, short, official.
    public static func names(_ tags: [(key: String, value: String)]) -> [String] {
        tags.filter { tag in
            tag.key == "name" || tag.key.hasPrefix("name:")
                || ["alt_name", "old_name", "short_name", "official_name", "loc_name"]
                    .contains(tag.key)
                || tag.key.hasPrefix("alt_name:") || tag.key.hasPrefix("official_name:")
        }.flatMap { $0.value.split(separator: ";").map(String.init) }
    }

    private static func value(_ tags: [(key: String, value: String)], _ key: String) -> String? {
        tags.first { $0.key == key }?.value
    }
}
