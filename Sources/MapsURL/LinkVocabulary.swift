/// The words and letters of one link parameter and what each means, written once for both
/// directions: the reader looks a word up (``value(for:)``), the printer writes the first
/// word of a value (``word(for:)``). A value may have several words (`t=k` and `t=h` are both
/// satellite); the first one listed is the one printed.
struct Vocabulary<Value: Equatable>: Sendable where Value: Sendable {
    let entries: [(word: String, value: Value)]

    init(_ entries: [(String, Value)]) { self.entries = entries.map { (word: $0.0, value: $0.1) } }

    /// What `word` means, or nil when it is not a word of this parameter.
    func value(for word: String) -> Value? { entries.first { $0.word == word }?.value }

    /// The word printed for `value`, or nil when the parameter cannot say it.
    func word(for value: Value) -> String? { entries.first { $0.value == value }?.word }

    /// Every word, for messages: "m, k, h, p".
    var words: String { entries.map(\.word).joined(separator: ", ") }
}

extension Vocabulary where Value: Hashable {
    /// Everything the parameter can say.
    var values: Set<Value> { Set(entries.map(\.value)) }
}

/// The vocabulary of Google Maps desktop URLs and their legacy parameters.
enum DesktopVocabulary {
    /// Zoom range of Google Maps web URLs (Maps URLs: whole numbers 0...21).
    static let zoomLimits = 0.0...21.0
    /// `t`: map, satellite, hybrid (satellite with labels), terrain; nil is the plain road map.
    static let mapTypes = Vocabulary<MapsView?>([("m", nil), ("k", .satellite), ("h", .satellite), ("p", .terrain)])
    /// `dirflg` letters that choose the travel mode.
    static let travelModes = Vocabulary<TravelMode>([
        ("d", .driving), ("r", .transit), ("w", .walking), ("b", .bicycling),
    ])
    /// `dirflg` letters that avoid road features.
    static let avoidances = Vocabulary<RouteAvoidance>([("h", .highways), ("t", .tolls)])
    /// `layer`: only traffic.
    /// A viewport's `Na` below this opens Street View (`3a`); above, it is a 3D camera's altitude.
    static let streetViewMarkLimit = 10.0
    /// A viewport's metres of ground (`500m`) or camera altitude (`2848a`).
    static let metresLimits = 1.0...40_000_000.0
    /// `layer=c`: Street View, with `cbll`, `cbp` and `panoid`.
    static let streetViewLayer = "c"
    static let layers = Vocabulary<MapsView>([("t", .traffic)])
    /// `lci`: the layer shown (`transit_comp` is what Google writes).
    static let layerIDs = Vocabulary<MapsView>([
        ("transit_comp", .transit), ("transit", .transit), ("bike", .bicycling),
    ])
    /// What separates the stops chained in `daddr` (`A+to:B+to:C`), decoded.
    static let stopSeparator: StaticString = " to:"
}

/// The vocabulary of Maps URLs (`api=1`).
enum MapsURLsVocabulary {
    /// `basemap`; nil is the road map.
    static let basemaps = Vocabulary<MapsView?>([("roadmap", nil), ("satellite", .satellite), ("terrain", .terrain)])
    /// `layer`; nil is none.
    static let layers = Vocabulary<MapsView?>([
        ("none", nil), ("transit", .transit), ("traffic", .traffic), ("bicycling", .bicycling),
    ])
    /// `travelmode`: the names of ``TravelMode``.
    static let travelModes = Vocabulary<TravelMode>(TravelMode.allCases.map { ($0.rawValue, $0) })
    /// `avoid`: the names of ``RouteAvoidance``, comma-separated.
    static let avoidances = Vocabulary<RouteAvoidance>(RouteAvoidance.allCases.map { ($0.rawValue, $0) })
    /// What separates `waypoints`.
    static let waypointSeparator: StaticString = "|"
}

/// The vocabulary of Apple Maps links.
enum AppleVocabulary {
    /// Apple's documented zoom range.
    static let zoomLimits = 2.0...21.0
    /// `t`: standard, satellite, hybrid (satellite with labels), transit; nil is the standard map.
    static let mapTypes = Vocabulary<MapsView?>([("m", nil), ("k", .satellite), ("h", .satellite), ("r", .transit)])
    /// `dirflg`: one letter, the travel mode.
    static let travelModes = Vocabulary<TravelMode>([("d", .driving), ("w", .walking), ("r", .transit)])
    /// `map` of the unified Maps URLs: Apple Maps' four map modes (explore is the standard map,
    /// driving shows traffic).
    static let mapModes = Vocabulary<MapsView?>([
        ("explore", nil), ("driving", .traffic), ("transit", .transit), ("satellite", .satellite),
    ])
    /// `distance`: the camera's distance from the ground, in metres.
    static let distanceLimits = 1.0...63_000_000.0
    /// `mode` of the unified Maps URLs' directions.
    static let modes = Vocabulary<TravelMode>([
        ("driving", .driving), ("walking", .walking), ("transit", .transit), ("cycling", .bicycling),
    ])
}

/// The vocabulary of `comgooglemaps://` links, as the URL scheme document lists it: words
/// are the names of ``MapsView``, ``MapMode`` and ``TravelMode``.
enum SchemeVocabulary {
    /// Zoom range of the URL scheme (the document gives none; Google's launcher uses 0...21).
    static let zoomLimits = 0.0...21.0
    /// `views`: a comma list of these.
    static let views: [MapsView] = [.satellite, .traffic, .transit]
    /// ``views`` with their words as bytes, for reading without making strings.
    static let viewWords: [(word: [UInt8], view: MapsView)] = views.map { (Array($0.rawValue.utf8), $0) }
    /// `directionsmode`: the four modes of the document (no two-wheeler).
    static let travelModes: [TravelMode] = [.driving, .transit, .bicycling, .walking]
}

/// The vocabulary of RFC 5870 `geo:` URIs as map apps read them.
enum GeoVocabulary {
    /// `z`: the zoom Android and others accept.
    static let zoomLimits = 0.0...21.0
}

/// The vocabulary of embedded maps: the Embed API (`/maps/embed/v1/MODE?key=…`) and the
/// `pb` blobs of `/maps/embed?pb=…`.
enum EmbedVocabulary {
    /// The Embed API's modes, the path segment after `v1`.
    enum Mode: String, CaseIterable { case place, view, directions, streetview, search }
    /// `maptype`; nil is the road map.
    static let mapTypes = Vocabulary<MapsView?>([("roadmap", nil), ("satellite", .satellite)])
    /// `mode` of directions: the travel modes OpenMaps routes (the API's `flying` is not one).
    static let travelModes = Vocabulary<TravelMode>([
        ("driving", .driving), ("walking", .walking), ("bicycling", .bicycling), ("transit", .transit),
    ])
    /// Parameters of the API that change nothing shown (`key` is the embedding site's API key).
    static let ignored: Set<String> = [
        "key", "language", "region", "units", "attribution_source", "attribution_web_url",
    ]
}

/// The vocabulary of Android intent links (`intent://…#Intent;scheme=…;end`).
enum IntentVocabulary {
    /// What opens the extras block.
    static let blockStart: StaticString = "#Intent;"
    /// The schemes whose links an intent may carry: the web and Android's maps schemes.
    static let schemes: Set<String> = ["http", "https", "geo", "google.navigation"]
}

/// The vocabulary of Android's navigation intent, `google.navigation:q=…&mode=…&avoid=…`.
enum NavigationVocabulary {
    /// `mode`: one letter.
    static let travelModes = Vocabulary<TravelMode>([
        ("d", .driving), ("b", .bicycling), ("w", .walking), ("l", .twoWheeler),
    ])
    /// `avoid`: letters, any number of them.
    static let avoidances = Vocabulary<RouteAvoidance>([("t", .tolls), ("h", .highways), ("f", .ferries)])
}
