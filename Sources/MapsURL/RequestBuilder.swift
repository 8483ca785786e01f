import GeoCore

/// Builds a ``MapsRequest`` from its parts as a person types them (the `comgooglemaps://`
/// parameters, one text each), with the same rules the parser keeps for links.
///
/// Rules: `center` is `LAT,LNG` in decimal degrees within range; `zoom` a decimal in 0...21;
/// a `query` that is a coordinate pins that point instead of searching; a blank `saddr` or
/// `daddr` is the current location; `x-source` and `x-success` go together, and every callback
/// passes ``CallbackPolicy`` through ``Callback``'s initializer; `x-error` and `x-cancel`
/// need the pair.
public struct RequestBuilder: Sendable, Equatable {
    /// The map's center, `LAT,LNG` in decimal degrees.
    public var center: String?
    /// The zoom level, a decimal 0...21.
    public var zoom: String?
    /// The map mode: `standard` or `streetview`.
    public var mapMode: String?
    /// Comma list of ``MapsView`` names; empty clears every view.
    public var views: String?
    /// What to search for (`q`); a `LAT,LNG` pins that point.
    public var query: String?
    /// Where directions start (`saddr`): a place or `LAT,LNG`; blank is the current location.
    public var saddr: String?
    /// Where directions end (`daddr`): a place or `LAT,LNG`; blank is the current location.
    public var daddr: String?
    /// Stops between `saddr` and `daddr`, in order.
    public var waypoints: [String] = []
    /// How to travel: `driving`, `transit`, `bicycling` or `walking`.
    public var directionsMode: String?
    /// Whether to start navigation at once (Universal Links' `dir_action=navigate`).
    public var navigate = false
    /// The calling app's name shown on the back button (`x-source`); needs ``xSuccess``.
    public var xSource: String?
    /// The link the back button opens (`x-success`); needs ``xSource``.
    public var xSuccess: String?
    /// The link opened when the request fails (`x-error`).
    public var xError: String?
    /// The link opened when the person cancels (`x-cancel`).
    public var xCancel: String?

    /// An empty builder: ``build()`` gives the map as it opens.
    public init() {}

    /// A part that could not be used: the parameter and what was wrong with it.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// The parameter's name as in a link (`center`, `x-success`, …).
        public var parameter: String
        /// What was wrong with it, one sentence.
        public var message: String
        public var description: String { "\(parameter): \(message)" }
    }

    /// The request the parts describe.
    ///
    /// - Throws: ``Failure`` naming the first part that breaks a rule.
    public func build() throws(Failure) -> MapsRequest {
        var request = MapsRequest()
        if let center {
            guard let coordinate = Coordinate(parsing: center) else {
                throw Failure(
                    parameter: "center", message: "must be LAT,LNG in decimal degrees within range, not '\(center)'")
            }
            request.center = coordinate
        }
        if let zoom {
            guard let value = DecimalText.parse(Substring(zoom)), (0...21).contains(value) else {
                throw Failure(parameter: "zoom", message: "must be a decimal number in 0...21, not '\(zoom)'")
            }
            request.zoom = value
        }
        if let mapMode {
            guard let mode = MapMode(rawValue: mapMode) else {
                throw Failure(parameter: "mapmode", message: "must be standard or streetview, not '\(mapMode)'")
            }
            request.mapMode = mode
        }
        if let views { request.views = try Self.views(views) }
        if let query {
            if case .coordinate(let coordinate) = Waypoint(parsing: query) {
                request.marker = coordinate
            } else {
                request.query = query
            }
        }
        let mode = try directionsMode.map { (text) throws(Failure) -> TravelMode in
            guard let mode = TravelMode(rawValue: text) else {
                throw Failure(
                    parameter: "directionsmode",
                    message:
                        "must be \(TravelMode.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
            }
            return mode
        }
        if saddr != nil || daddr != nil || !waypoints.isEmpty || mode != nil || navigate {
            guard waypoints.count <= Directions.maxWaypoints else {
                throw Failure(
                    parameter: "waypoints", message: "at most \(Directions.maxWaypoints), not \(waypoints.count)")
            }
            request.directions = Directions(
                origin: saddr.map(Waypoint.init(parsing:)), destination: daddr.map(Waypoint.init(parsing:)),
                waypoints: waypoints.map(Waypoint.init(parsing:)), travelMode: mode, navigate: navigate)
        }
        request.callback = try callback()
        return request
    }

    private static func views(_ text: String) throws(Failure) -> Set<MapsView> {
        var views = Set<MapsView>()
        for name in text.split(separator: ",") {
            guard let view = MapsView(rawValue: String(name)) else {
                throw Failure(
                    parameter: "views",
                    message: "items must be \(MapsView.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'"
                )
            }
            views.insert(view)
        }
        return views
    }

    private func callback() throws(Failure) -> Callback? {
        guard let xSource, let xSuccess else {
            if xSource != nil || xSuccess != nil {
                throw Failure(
                    parameter: xSource == nil ? "x-source" : "x-success", message: "x-source and x-success go together")
            }
            if xError != nil || xCancel != nil {
                throw Failure(
                    parameter: xError != nil ? "x-error" : "x-cancel", message: "needs x-source and x-success")
            }
            return nil
        }
        do {
            return try Callback(source: xSource, success: xSuccess, error: xError, cancel: xCancel)
        } catch {
            throw Failure(parameter: error.parameter ?? "x-success", message: "refused: \(error.message)")
        }
    }
}
