import GeoCore

/// What a Maps link asks for, whatever form it came in.
///
/// Every field is optional: a field is nil when the link does not set it, so that
/// "not given" and "given" stay apart (`views == nil` is no `views` parameter, `views == []`
/// is `views=`, which clears all views). Which form a link used is not part of the request;
/// ``ParsedMapsURL/form`` keeps it.
public struct MapsRequest: Sendable, Equatable, Codable {
    /// The fields, kept in one copy-on-write box: a request is passed around far more often
    /// than it is changed, and a box moves as one pointer instead of ~350 bytes.
    private struct Fields: Equatable {
        var center: Coordinate? = nil
        var zoom: Double? = nil
        var span: CoordinateSpan? = nil
        var mapMode: MapMode? = nil
        var views: Set<MapsView>? = nil
        var query: String? = nil
        var placeID: String? = nil
        var marker: Coordinate? = nil
        var directions: Directions? = nil
        var streetView: StreetViewCamera? = nil
        var callback: Callback? = nil
        var shortLink: String? = nil
        var language: String? = nil
    }

    private final class Storage: @unchecked Sendable {
        // Safe to share across threads: a shared box is never written (see `uniqueStorage`).
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    /// The box, copied first when another request shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    /// The map viewport's center (`center`, `ll`, `sll`, `@lat,lng`, `geo:lat,lng`).
    public var center: Coordinate? {
        get { storage.fields.center }
        _modify { yield &uniqueStorage().fields.center }
    }
    /// Zoom level, 0...21 (2...21 for Apple Maps links); fractional zoom is kept.
    public var zoom: Double? {
        get { storage.fields.zoom }
        _modify { yield &uniqueStorage().fields.zoom }
    }
    /// The viewport's extent in degrees (`spn`, `sspn`); an alternative to zoom.
    public var span: CoordinateSpan? {
        get { storage.fields.span }
        _modify { yield &uniqueStorage().fields.span }
    }
    /// The kind of map (`mapmode`); nil keeps the app's current setting.
    public var mapMode: MapMode? {
        get { storage.fields.mapMode }
        _modify { yield &uniqueStorage().fields.mapMode }
    }
    /// Views switched on; nil when not given, empty when cleared (`views=`).
    public var views: Set<MapsView>? {
        get { storage.fields.views }
        _modify { yield &uniqueStorage().fields.views }
    }
    /// A free-text search (`q`, `query`, `/search/…`, `/place/NAME/…`).
    public var query: String? {
        get { storage.fields.query }
        _modify { yield &uniqueStorage().fields.query }
    }
    /// A Google place id that identifies the searched place (`query_place_id`).
    public var placeID: String? {
        get { storage.fields.placeID }
        _modify { yield &uniqueStorage().fields.placeID }
    }
    /// A point the link pins on the map (`q=lat,lng`, `q=@lat,lng`, a `!3d…!4d…` data pin).
    public var marker: Coordinate? {
        get { storage.fields.marker }
        _modify { yield &uniqueStorage().fields.marker }
    }
    /// A directions request (`saddr`/`daddr`, `/dir/…`, `api=1` `dir`).
    public var directions: Directions? {
        get { storage.fields.directions }
        _modify { yield &uniqueStorage().fields.directions }
    }
    /// Street View camera (`map_action=pano`, `…,3a,75y,90h,80t`); goes with `mapMode == .streetView`.
    public var streetView: StreetViewCamera? {
        get { storage.fields.streetView }
        _modify { yield &uniqueStorage().fields.streetView }
    }
    /// The "back to the calling app" callback of the x-callback-url forms.
    public var callback: Callback? {
        get { storage.fields.callback }
        _modify { yield &uniqueStorage().fields.callback }
    }
    /// A short link (`goo.gl/maps/…`, `maps.app.goo.gl/…`) that must be resolved over the
    /// network before anything else is known. Never resolved implicitly.
    public var shortLink: String? {
        get { storage.fields.shortLink }
        _modify { yield &uniqueStorage().fields.shortLink }
    }
    /// The language the link asks the map to speak (`hl`), as written: `es`, `hi`, `pt-BR`.
    public var language: String? {
        get { storage.fields.language }
        _modify { yield &uniqueStorage().fields.language }
    }

    /// A request of these parts; every part is optional and an empty request opens the map as it is.
    public init(
        center: Coordinate? = nil, zoom: Double? = nil, span: CoordinateSpan? = nil, mapMode: MapMode? = nil,
        views: Set<MapsView>? = nil, query: String? = nil, placeID: String? = nil, marker: Coordinate? = nil,
        directions: Directions? = nil, streetView: StreetViewCamera? = nil, callback: Callback? = nil,
        shortLink: String? = nil, language: String? = nil
    ) {
        storage = Storage(
            Fields(
                center: center, zoom: zoom, span: span, mapMode: mapMode, views: views, query: query, placeID: placeID,
                marker: marker, directions: directions, streetView: streetView, callback: callback,
                shortLink: shortLink, language: language))
    }

    public static func == (lhs: MapsRequest, rhs: MapsRequest) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        center = try container.decodeIfPresent(Coordinate.self, forKey: .center)
        zoom = try container.decodeIfPresent(Double.self, forKey: .zoom)
        span = try container.decodeIfPresent(CoordinateSpan.self, forKey: .span)
        mapMode = try container.decodeIfPresent(MapMode.self, forKey: .mapMode)
        views = try container.decodeIfPresent(Set<MapsView>.self, forKey: .views)
        query = try container.decodeIfPresent(String.self, forKey: .query)
        placeID = try container.decodeIfPresent(String.self, forKey: .placeID)
        marker = try container.decodeIfPresent(Coordinate.self, forKey: .marker)
        directions = try container.decodeIfPresent(Directions.self, forKey: .directions)
        streetView = try container.decodeIfPresent(StreetViewCamera.self, forKey: .streetView)
        callback = try container.decodeIfPresent(Callback.self, forKey: .callback)
        shortLink = try container.decodeIfPresent(String.self, forKey: .shortLink)
        language = try container.decodeIfPresent(String.self, forKey: .language)
    }

    /// What the maps app does with the request.
    public var action: MapsAction {
        if shortLink != nil { return .resolveShortLink }
        if directions != nil { return .directions }
        if query != nil || marker != nil || placeID != nil { return .search }
        if mapMode == .streetView || streetView != nil { return .streetView }
        return .map
    }

    /// True when the request sets nothing at all ("just open the app").
    public var isEmpty: Bool { self == MapsRequest() }

    private enum CodingKeys: String, CodingKey {
        case center, zoom, span, mapMode, views, query, placeID, marker, directions, streetView, callback, shortLink
        case language
    }

    /// Encodes unset fields as absent and sets as sorted arrays, so the JSON is deterministic.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(center, forKey: .center)
        try container.encodeIfPresent(zoom, forKey: .zoom)
        try container.encodeIfPresent(span, forKey: .span)
        try container.encodeIfPresent(mapMode, forKey: .mapMode)
        try container.encodeIfPresent(views?.sorted(), forKey: .views)
        try container.encodeIfPresent(query, forKey: .query)
        try container.encodeIfPresent(placeID, forKey: .placeID)
        try container.encodeIfPresent(marker, forKey: .marker)
        try container.encodeIfPresent(directions, forKey: .directions)
        try container.encodeIfPresent(streetView, forKey: .streetView)
        try container.encodeIfPresent(callback, forKey: .callback)
        try container.encodeIfPresent(shortLink, forKey: .shortLink)
        try container.encodeIfPresent(language, forKey: .language)
    }
}

/// The action a request leads to, derived from its fields.
public enum MapsAction: String, Sendable, Codable {
    case map, search, directions, streetView, resolveShortLink
}

/// `mapmode`: the kind of map shown.
public enum MapMode: String, Sendable, Codable, CaseIterable {
    case standard
    case streetView = "streetview"
}

/// A view drawn over or instead of the road map (`views`, `basemap`, `layer`, `t`).
public enum MapsView: String, Sendable, Codable, CaseIterable, Comparable {
    case satellite, terrain, traffic, transit, bicycling

    public static func < (lhs: MapsView, rhs: MapsView) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A directions request.
public struct Directions: Sendable, Equatable, Codable {
    /// Start (`saddr`, `origin`); nil when not given, `.currentLocation` when given blank.
    public var origin: Waypoint?
    /// End (`daddr`, `destination`); nil when not given.
    public var destination: Waypoint?
    /// Stops between origin and destination, in order (at most ``Directions/maxWaypoints``).
    public var waypoints: [Waypoint]
    /// How to travel (`directionsmode`, `travelmode`, `dirflg`); nil keeps the app's default.
    public var travelMode: TravelMode?
    /// Start turn-by-turn navigation (`nav=1`, `dir_action=navigate`).
    public var navigate: Bool
    /// Road features to avoid (`avoid`, `dirflg=h`/`t`).
    public var avoid: Set<RouteAvoidance>

    /// The Maps URLs limit on intermediate waypoints.
    public static let maxWaypoints = 9

    private enum CodingKeys: String, CodingKey {
        case origin, destination, waypoints, travelMode, navigate, avoid
    }

    /// Encodes `avoid` as a sorted array, so the JSON is deterministic.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(origin, forKey: .origin)
        try container.encodeIfPresent(destination, forKey: .destination)
        try container.encode(waypoints, forKey: .waypoints)
        try container.encodeIfPresent(travelMode, forKey: .travelMode)
        try container.encode(navigate, forKey: .navigate)
        try container.encode(avoid.sorted(), forKey: .avoid)
    }

    /// Directions between these ends, through `waypoints` in order, for `travelMode`.
    public init(
        origin: Waypoint? = nil, destination: Waypoint? = nil, waypoints: [Waypoint] = [],
        travelMode: TravelMode? = nil, navigate: Bool = false, avoid: Set<RouteAvoidance> = []
    ) {
        self.origin = origin
        self.destination = destination
        self.waypoints = waypoints
        self.travelMode = travelMode
        self.navigate = navigate
        self.avoid = avoid
    }
}

/// One end or stop of a directions request.
public enum Waypoint: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The device's location (a blank `saddr=`/`daddr=`, an empty `/dir/` segment).
    case currentLocation
    /// A point given as `latitude,longitude`.
    case coordinate(Coordinate)
    /// An address or place name, geocoded by the app (first result wins).
    case query(String)
    /// A named place at a known position (`NAME@latitude,longitude`, a `/dir/` stop whose
    /// position the link's `data=` blob gives): shown with its name, found by its position.
    case place(name: String, coordinate: Coordinate)

    private enum CodingKeys: String, CodingKey { case kind, coordinate, query, name }
    private enum Kind: String, Codable { case currentLocation, coordinate, query, place }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .currentLocation: self = .currentLocation
        case .coordinate: self = .coordinate(try container.decode(Coordinate.self, forKey: .coordinate))
        case .query: self = .query(try container.decode(String.self, forKey: .query))
        case .place:
            self = .place(
                name: try container.decode(String.self, forKey: .name),
                coordinate: try container.decode(Coordinate.self, forKey: .coordinate))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .currentLocation:
            try container.encode(Kind.currentLocation, forKey: .kind)
        case .coordinate(let coordinate):
            try container.encode(Kind.coordinate, forKey: .kind)
            try container.encode(coordinate, forKey: .coordinate)
        case .query(let text):
            try container.encode(Kind.query, forKey: .kind)
            try container.encode(text, forKey: .query)
        case .place(let name, let coordinate):
            try container.encode(Kind.place, forKey: .kind)
            try container.encode(name, forKey: .name)
            try container.encode(coordinate, forKey: .coordinate)
        }
    }

    public var description: String {
        switch self {
        case .currentLocation: return "current location"
        case .coordinate(let coordinate): return coordinate.description
        case .query(let text): return text
        case .place(let name, let coordinate): return "\(name)@\(coordinate)"
        }
    }

    /// The position the waypoint names, when it names one.
    public var coordinate: Coordinate? {
        switch self {
        case .coordinate(let coordinate), .place(_, let coordinate): coordinate
        case .currentLocation, .query: nil
        }
    }
}

/// How to travel between the ends of a directions request.
public enum TravelMode: String, Sendable, Codable, CaseIterable {
    case driving, transit, bicycling, walking
    /// Motorcycles and scooters (Maps URLs `travelmode=two-wheeler` only).
    case twoWheeler = "two-wheeler"
}

/// Road features a route should avoid (Maps URLs `avoid`).
public enum RouteAvoidance: String, Sendable, Codable, CaseIterable, Comparable {
    case ferries, highways, tolls

    public static func < (lhs: RouteAvoidance, rhs: RouteAvoidance) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Street View camera of a panorama request.
public struct StreetViewCamera: Sendable, Equatable, Codable {
    /// Compass heading of the camera in degrees, -180...360.
    public var heading: Double?
    /// Camera pitch in degrees, -90 (down) ... 90 (up); 0 is level.
    public var pitch: Double?
    /// Horizontal field of view in degrees, 10...100.
    public var fieldOfView: Double?
    /// A panorama id (`pano`), which wins over the viewpoint.
    public var panoramaID: String?

    /// A Street View camera; nil parts are left to the viewer.
    public init(heading: Double? = nil, pitch: Double? = nil, fieldOfView: Double? = nil, panoramaID: String? = nil) {
        self.heading = heading
        self.pitch = pitch
        self.fieldOfView = fieldOfView
        self.panoramaID = panoramaID
    }

    /// True when no camera value is set.
    public var isEmpty: Bool { self == StreetViewCamera() }
}

/// The x-callback-url parameters of a link: a validated "back to the calling app" target.
///
/// `source` is an untrusted display label, never an identity. A callback can only be made
/// through ``CallbackPolicy``: the initializer (and decoding) cleans the label and refuses URLs
/// that are not the calling app's own custom scheme, and the fields cannot be changed
/// afterwards. The URLs must never be opened without the user's tap.
public struct Callback: Sendable, Equatable, Codable {
    /// `x-source`: the label of the "back" button, sanitized, at most 64 characters.
    public let source: String
    /// `x-success`: the URL the button opens.
    public let success: String
    /// `x-error`: the URL to open on failure, with `errorCode` and `errorMessage` appended.
    public let error: String?
    /// `x-cancel`: the URL to open when the user cancels.
    public let cancel: String?

    /// A callback from untrusted parts, checked by ``CallbackPolicy``.
    ///
    /// - Throws: the refusal of the first part that fails, naming its parameter (`x-source`
    ///   when the label is empty once cleaned, else the URL's parameter).
    public init(source: String, success: String, error: String? = nil, cancel: String? = nil)
        throws(CallbackPolicy.Refusal)
    {
        guard let (label, _) = CallbackPolicy.sanitizeSource(source) else {
            throw CallbackPolicy.Refusal(
                code: .emptySource, message: "the x-source label is empty once controls are removed",
                parameter: "x-source")
        }
        func checked(_ url: String, _ parameter: String) throws(CallbackPolicy.Refusal) -> String {
            switch CallbackPolicy.validateCallbackURL(url) {
            case .success(let url): return url
            case .failure(var refusal):
                refusal.parameter = parameter
                throw refusal
            }
        }
        self.init(
            validatedSource: label, success: try checked(success, "x-success"),
            error: try error.map { (url) throws(CallbackPolicy.Refusal) in try checked(url, "x-error") },
            cancel: try cancel.map { (url) throws(CallbackPolicy.Refusal) in try checked(url, "x-cancel") })
    }

    /// A callback whose parts already passed ``CallbackPolicy`` (the parser checks each one as
    /// it reads it, with a diagnostic of its own).
    init(validatedSource source: String, success: String, error: String?, cancel: String?) {
        self.source = source
        self.success = success
        self.error = error
        self.cancel = cancel
    }

    private enum CodingKeys: String, CodingKey { case source, success, error, cancel }

    /// Decodes through ``CallbackPolicy``; a refused part is a data corruption error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                source: try container.decode(String.self, forKey: .source),
                success: try container.decode(String.self, forKey: .success),
                error: try container.decodeIfPresent(String.self, forKey: .error),
                cancel: try container.decodeIfPresent(String.self, forKey: .cancel))
        } catch let refusal as CallbackPolicy.Refusal {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: refusal.message, underlyingError: refusal))
        }
    }
}
