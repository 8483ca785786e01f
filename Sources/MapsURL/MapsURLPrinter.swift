import GeoCore

/// The link forms a request can be printed as.
public enum LinkTarget: String, Sendable, Codable, CaseIterable {
    /// `comgooglemaps://?…`, the iOS URL scheme.
    case comgooglemaps
    /// `comgooglemaps-x-callback://?…`, the iOS URL scheme with a callback (needs one).
    case xCallback = "x-callback"
    /// `comgooglemapsurl://` + the desktop URL, with the callback parameters.
    case comgooglemapsurl
    /// A Google Maps desktop URL (`https://maps.google.com/maps?…`, legacy parameters).
    case desktop
    /// A cross-platform Maps URL (`https://www.google.com/maps/…?api=1…`), also a Universal Link.
    case universal
    /// An Apple Maps link (`https://maps.apple.com/?…`).
    case apple
    /// An RFC 5870 `geo:` URI with the `q` and `z` extensions.
    case geo
}

/// A part of a request that a target cannot carry, and why.
public struct UnexpressedPart: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The request field, for example `span` or `directions.waypoints`.
    public var field: String
    public var reason: String

    public var description: String { "\(field): \(reason)" }
}

/// A printed link with what it carries and what it had to leave out.
public struct PrintedURL: Sendable, Equatable {
    /// The link text.
    public var url: String
    /// The request the link expresses: the input less ``unexpressed``. Parsing ``url`` gives
    /// exactly this request.
    public var expressed: MapsRequest
    /// Everything the target could not carry; empty when nothing was lost.
    public var unexpressed: [UnexpressedPart]
}

/// Why a request cannot be printed as a target at all.
public struct PrintError: Error, Equatable, CustomStringConvertible {
    public var target: LinkTarget
    public var message: String
    public var description: String { "cannot print as \(target.rawValue): \(message)" }
}

/// Prints a ``MapsRequest`` as each ``LinkTarget``, canonically: fixed parameter order, unset
/// fields left out, values encoded by ``URLEncoding``. What a target cannot express is listed
/// in ``PrintedURL/unexpressed``, never silently dropped.
public enum MapsURLPrinter {
    /// Prints `request` as `target`.
    ///
    /// - Throws: ``PrintError`` when the target needs something the request lacks (a callback
    ///   for `x-callback`, a position or search for `geo`).
    public static func print(_ request: MapsRequest, as target: LinkTarget) throws(PrintError) -> PrintedURL {
        var reduction = Reduction(request: request)
        let url: String
        switch target {
        case .comgooglemaps, .xCallback:
            url = try schemeLink(&reduction, target: target)
        case .comgooglemapsurl, .desktop:
            url = desktopLink(&reduction, target: target)
        case .universal:
            url = universalLink(&reduction)
        case .apple:
            url = appleLink(&reduction)
        case .geo:
            url = try geoLink(&reduction)
        }
        return PrintedURL(url: url, expressed: reduction.request, unexpressed: reduction.dropped)
    }

    // MARK: comgooglemaps:// and comgooglemaps-x-callback://

    private static func schemeLink(_ r: inout Reduction, target: LinkTarget) throws(PrintError) -> String {
        if target == .xCallback && r.request.callback == nil {
            throw PrintError(
                target: target, message: "comgooglemaps-x-callback:// needs a callback (x-source and x-success)")
        }
        r.drop(\.shortLink, "shortLink", "the URL scheme cannot carry a short link; resolve it first")
        r.drop(\.span, "span", "the URL scheme has no span; use zoom")
        r.drop(\.placeID, "placeID", "the URL scheme has no place ids")
        r.dropStreetViewCamera("the URL scheme has no Street View camera parameters")
        r.keepViews([.satellite, .traffic, .transit], "the URL scheme's views are satellite, traffic and transit")
        r.clampZoom(LinkReader.schemeZoomLimits)
        if r.request.query != nil {
            r.drop(\.marker, "marker", "the URL scheme's q is either a text or a coordinate, not both")
        }
        r.dropQueryReadingAsCoordinate()
        if target == .comgooglemaps {
            r.drop(\.callback, "callback", "comgooglemaps:// has no callback; use the x-callback target")
        }
        r.reduceDirections(
            waypoints: "the URL scheme has only saddr and daddr", navigate: "the URL scheme has no navigate flag",
            avoid: "the URL scheme cannot avoid road features", modes: [.driving, .transit, .bicycling, .walking],
            needsEnds: true)
        let request = r.request
        var writer = QueryWriter()
        writer.add("q", request.query ?? request.marker?.description)
        writer.add("saddr", request.directions?.origin.map(waypointText))
        writer.add("daddr", request.directions?.destination.map(waypointText))
        writer.add("center", request.center?.description)
        writer.add("zoom", request.zoom.map(DecimalText.format))
        writer.add("mapmode", request.mapMode?.rawValue)
        writer.add("views", request.views.map(viewsText))
        writer.add("directionsmode", request.directions?.travelMode?.rawValue)
        addCallback(request.callback, to: &writer)
        let scheme = target == .xCallback ? "comgooglemaps-x-callback://" : "comgooglemaps://"
        return writer.pairs.isEmpty ? scheme : scheme + "?" + writer.query
    }

    // MARK: Desktop and comgooglemapsurl://

    private static func desktopLink(_ r: inout Reduction, target: LinkTarget) -> String {
        if target == .desktop {
            r.drop(\.callback, "callback", "a desktop URL has no callback; use the comgooglemapsurl target")
        }
        if let shortLink = r.request.shortLink {
            r.dropAll(
                except: [\.shortLink, \.callback], reason: "a short link carries nothing else until it is resolved")
            let rest = shortLink.dropFirst("https://".count)
            return wrap(String(rest), r.request.callback, target: target, hasQuery: false)
        }
        r.drop(\.placeID, "placeID", "desktop URLs carry no place id")
        r.dropQueryReadingAsCoordinate()
        if r.request.mapMode == .standard {
            r.drop(\.mapMode, "mapMode", "desktop URLs cannot force the standard map mode")
        }
        if r.request.mapMode == .streetView && r.request.center == nil {
            r.drop(\.mapMode, "mapMode", "a desktop Street View URL needs a center")
            r.dropStreetViewCamera("a desktop Street View URL needs a center")
        }
        if r.request.mapMode != .streetView { r.dropStreetViewCamera("Street View camera without Street View mode") }
        if r.request.streetView?.panoramaID != nil {
            r.request.streetView?.panoramaID = nil
            if r.request.streetView?.isEmpty == true { r.request.streetView = nil }
            r.dropped.append(
                UnexpressedPart(field: "streetView.panoramaID", reason: "desktop URLs here carry no panorama id"))
        }
        r.exclusiveViews([.satellite, .terrain], "desktop URLs show one map type (t=k or t=p)")
        r.exclusiveViews([.transit, .bicycling], "desktop URLs show one of the transit and bicycling layers")
        r.clampZoom(LinkReader.webZoomLimits)
        r.reduceDirections(
            waypoints: nil, navigate: nil, avoid: "desktop URLs avoid only highways and tolls",
            modes: [.driving, .transit, .bicycling, .walking], needsEnds: false, avoidable: [.highways, .tolls])
        // Old desktop links chain stops in daddr with " to:", so no stop may contain it.
        if let directions = r.request.directions,
            (directions.waypoints + [directions.destination].compactMap { $0 }).contains(where: {
                waypointText($0).contains(" to:")
            })
        {
            var field = "directions.waypoints"
            r.request.directions?.waypoints = []
            if let destination = directions.destination, waypointText(destination).contains(" to:") {
                r.request.directions?.destination = nil
                field = "directions.destination"
            }
            r.dropped.append(UnexpressedPart(field: field, reason: "desktop stops cannot contain ' to:'"))
        }
        if r.request.directions?.destination == nil && r.request.directions?.waypoints.isEmpty == false {
            r.request.directions?.waypoints = []
            r.dropped.append(UnexpressedPart(field: "directions.waypoints", reason: "desktop stops need a destination"))
        }
        let request = r.request
        var path = "maps.google.com/maps"
        var writer = QueryWriter()
        if request.mapMode == .streetView, let center = request.center {
            let camera = request.streetView ?? StreetViewCamera()
            var tokens = ["\(center)", "3a"]
            if let fov = camera.fieldOfView { tokens.append(DecimalText.format(fov) + "y") }
            if let heading = camera.heading { tokens.append(DecimalText.format(heading) + "h") }
            if let pitch = camera.pitch { tokens.append(DecimalText.format(pitch + 90) + "t") }
            path += "/@" + tokens.joined(separator: ",")
        }
        if let directions = request.directions {
            writer.add("f", "d")
            writer.add("saddr", directions.origin.map(waypointText))
            if let destination = directions.destination {
                writer.add("daddr", (directions.waypoints + [destination]).map(waypointText).joined(separator: " to:"))
            }
        }
        if let query = request.query {
            writer.add("q", request.marker.map { "\(query)@\($0)" } ?? query)
        } else if let marker = request.marker {
            writer.add("q", "@\(marker)")
        }
        if request.mapMode != .streetView { writer.add("ll", request.center?.description) }
        writer.add("z", request.zoom.map(DecimalText.format))
        writer.add("spn", request.span?.description)
        if let views = request.views {
            if views.contains(.satellite) {
                writer.add("t", "k")
            } else if views.contains(.terrain) {
                writer.add("t", "p")
            } else if views.isEmpty {
                writer.add("t", "m")
            }
            writer.add("layer", views.contains(.traffic) ? "t" : nil)
            writer.add("lci", views.contains(.transit) ? "transit_comp" : views.contains(.bicycling) ? "bike" : nil)
        }
        if let directions = request.directions {
            var flags = ""
            switch directions.travelMode {
            case .driving?: flags += "d"
            case .transit?: flags += "r"
            case .walking?: flags += "w"
            case .bicycling?: flags += "b"
            case .twoWheeler?, nil: break
            }
            if directions.avoid.contains(.highways) { flags += "h" }
            if directions.avoid.contains(.tolls) { flags += "t" }
            writer.add("dirflg", flags.isEmpty ? nil : flags)
            writer.add("nav", directions.navigate ? "1" : nil)
        }
        let base = writer.pairs.isEmpty ? path : path + "?" + writer.query
        return wrap(base, request.callback, target: target, hasQuery: !writer.pairs.isEmpty)
    }

    /// `https://` + `rest` for desktop; `comgooglemapsurl://` + `rest` + callback otherwise.
    private static func wrap(_ rest: String, _ callback: Callback?, target: LinkTarget, hasQuery: Bool) -> String {
        guard target == .comgooglemapsurl else { return "https://" + rest }
        var writer = QueryWriter()
        addCallback(callback, to: &writer)
        guard !writer.pairs.isEmpty else { return "comgooglemapsurl://" + rest }
        return "comgooglemapsurl://" + rest + (hasQuery ? "&" : "?") + writer.query
    }

    // MARK: Maps URLs (api=1)

    private static func universalLink(_ r: inout Reduction) -> String {
        r.drop(\.callback, "callback", "Maps URLs have no callback")
        if let shortLink = r.request.shortLink {
            r.dropAll(except: [\.shortLink], reason: "a short link carries nothing else until it is resolved")
            return shortLink
        }
        var writer = QueryWriter()
        writer.add("api", "1")
        let path: String
        switch r.request.action {
        case .directions:
            r.dropAll(except: [\.directions], reason: "a Maps URLs directions link carries only the route")
            if r.request.directions?.origin == .currentLocation {
                r.request.directions?.origin = nil
                r.dropped.append(
                    UnexpressedPart(
                        field: "directions.origin",
                        reason: "Maps URLs start at the current location by leaving the origin out"))
            }
            if r.request.directions?.destination == .currentLocation {
                r.request.directions?.destination = nil
                r.dropped.append(
                    UnexpressedPart(
                        field: "directions.destination", reason: "Maps URLs cannot route to the current location"))
            }
            if r.request.directions?.waypoints.contains(.currentLocation) == true {
                r.request.directions?.waypoints.removeAll { $0 == .currentLocation }
                r.dropped.append(
                    UnexpressedPart(
                        field: "directions.waypoints", reason: "Maps URLs waypoints cannot be the current location"))
            }
            if r.request.directions?.waypoints.contains(where: { waypointText($0).contains("|") }) == true {
                r.request.directions?.waypoints.removeAll { waypointText($0).contains("|") }
                r.dropped.append(
                    UnexpressedPart(field: "directions.waypoints", reason: "Maps URLs waypoints cannot contain '|'"))
            }
            if let count = r.request.directions?.waypoints.count, count > Directions.maxWaypoints {
                r.request.directions?.waypoints.removeLast(count - Directions.maxWaypoints)
                r.dropped.append(
                    UnexpressedPart(
                        field: "directions.waypoints", reason: "Maps URLs allow \(Directions.maxWaypoints) waypoints"))
            }
            let request = r.request
            let directions = request.directions!
            path = "www.google.com/maps/dir/"
            writer.add("origin", directions.origin.map(waypointText))
            writer.add("destination", directions.destination.map(waypointText))
            writer.add("travelmode", directions.travelMode?.rawValue)
            writer.add("dir_action", directions.navigate ? "navigate" : nil)
            writer.add(
                "waypoints",
                directions.waypoints.isEmpty ? nil : directions.waypoints.map(waypointText).joined(separator: "|"))
            writer.add(
                "avoid",
                directions.avoid.isEmpty ? nil : directions.avoid.sorted().map(\.rawValue).joined(separator: ","))
        case .search:
            r.dropAll(except: [\.query, \.marker, \.placeID], reason: "a Maps URLs search carries only the query")
            if r.request.query != nil {
                r.drop(\.marker, "marker", "a Maps URLs query is either a text or a coordinate, not both")
            }
            r.dropQueryReadingAsCoordinate()
            let request = r.request
            path = "www.google.com/maps/search/"
            writer.add("query", request.query ?? request.marker?.description)
            writer.add("query_place_id", request.placeID)
        case .streetView:
            r.dropAll(
                except: [\.center, \.mapMode, \.streetView],
                reason: "a Maps URLs panorama carries only the viewpoint and camera")
            r.request.mapMode = .streetView
            let request = r.request
            path = "www.google.com/maps/@"
            writer.add("map_action", "pano")
            writer.add("viewpoint", request.center?.description)
            writer.add("pano", request.streetView?.panoramaID)
            writer.add("heading", request.streetView?.heading.map(DecimalText.format))
            writer.add("pitch", request.streetView?.pitch.map(DecimalText.format))
            writer.add("fov", request.streetView?.fieldOfView.map(DecimalText.format))
        case .map, .resolveShortLink:
            r.drop(\.span, "span", "Maps URLs have no span; use zoom")
            r.drop(\.mapMode, "mapMode", "Maps URLs cannot force the standard map mode")
            r.exclusiveViews([.satellite, .terrain], "Maps URLs show one basemap")
            r.exclusiveViews([.traffic, .transit, .bicycling], "Maps URLs show one layer")
            r.clampZoom(LinkReader.webZoomLimits)
            if let zoom = r.request.zoom, zoom != zoom.rounded() {
                r.request.zoom = zoom.rounded()
                r.dropped.append(UnexpressedPart(field: "zoom", reason: "Maps URLs zoom is a whole number; rounded"))
            }
            let request = r.request
            path = "www.google.com/maps/@"
            writer.add("map_action", "map")
            writer.add("center", request.center?.description)
            writer.add("zoom", request.zoom.map(DecimalText.format))
            if let views = request.views {
                let basemap = views.contains(.satellite) ? "satellite" : views.contains(.terrain) ? "terrain" : nil
                let layer = [MapsView.traffic, .transit, .bicycling].first { views.contains($0) }?.rawValue
                writer.add("basemap", basemap ?? (layer == nil ? "roadmap" : nil))
                writer.add("layer", layer)
            }
        }
        return "https://" + path + "?" + writer.query
    }

    // MARK: Apple Maps

    private static func appleLink(_ r: inout Reduction) -> String {
        r.drop(\.callback, "callback", "Apple Maps links have no callback")
        r.drop(\.shortLink, "shortLink", "Apple Maps cannot open a Google short link")
        r.drop(\.placeID, "placeID", "Apple Maps does not know Google place ids")
        r.drop(\.mapMode, "mapMode", "Apple Maps links have no map mode")
        r.dropStreetViewCamera("Apple Maps links have no Street View")
        r.keepViews([.satellite, .transit], "Apple Maps links show satellite or transit only")
        r.exclusiveViews([.satellite, .transit], "Apple Maps links show one map type")
        r.clampZoom(LinkReader.appleZoomLimits)
        if r.request.query != nil {
            r.drop(\.marker, "marker", "Apple Maps' q is either a text or a coordinate, not both")
        }
        r.dropQueryReadingAsCoordinate()
        r.reduceDirections(
            waypoints: "Apple Maps links have only saddr and daddr", navigate: "Apple Maps links have no navigate flag",
            avoid: "Apple Maps links cannot avoid road features", modes: [.driving, .walking, .transit], needsEnds: true
        )
        let request = r.request
        var writer = QueryWriter()
        writer.add("q", request.query ?? request.marker?.description)
        writer.add("ll", request.center?.description)
        writer.add("z", request.zoom.map(DecimalText.format))
        writer.add("spn", request.span?.description)
        if let views = request.views {
            writer.add("t", views.contains(.satellite) ? "k" : views.contains(.transit) ? "r" : "m")
        }
        if let directions = request.directions {
            writer.add("saddr", directions.origin.map(waypointText))
            writer.add("daddr", directions.destination.map(waypointText))
            switch directions.travelMode {
            case .driving?: writer.add("dirflg", "d")
            case .walking?: writer.add("dirflg", "w")
            case .transit?: writer.add("dirflg", "r")
            default: break
            }
        }
        return writer.pairs.isEmpty ? "https://maps.apple.com/" : "https://maps.apple.com/?" + writer.query
    }

    // MARK: geo:

    private static func geoLink(_ r: inout Reduction) throws(PrintError) -> String {
        r.dropAll(
            except: [\.center, \.zoom, \.query, \.marker],
            reason: "geo: URIs carry a position, a zoom and a search only")
        r.clampZoom(LinkReader.geoZoomLimits)
        r.dropQueryReadingAsCoordinate()
        let searches = r.request.query != nil || r.request.marker != nil
        if searches, r.request.center == Coordinate(latitude: 0, longitude: 0) {
            r.drop(\.center, "center", "geo:0,0 with a search means 'no position'")
        }
        let request = r.request
        guard request.center != nil || searches else {
            throw PrintError(target: .geo, message: "a geo: URI needs a position or a search")
        }
        var writer = QueryWriter()
        writer.add("z", request.zoom.map(DecimalText.format))
        if let marker = request.marker {
            writer.add("q", request.query.map { "\(marker)(\($0))" } ?? marker.description)
        } else {
            writer.add("q", request.query)
        }
        let position = request.center?.description ?? "0,0"
        return writer.pairs.isEmpty ? "geo:" + position : "geo:" + position + "?" + writer.query
    }

    // MARK: Shared pieces

    private static func waypointText(_ waypoint: Waypoint) -> String {
        switch waypoint {
        case .currentLocation: return ""
        case .coordinate(let coordinate): return coordinate.description
        case .query(let text): return text
        }
    }

    private static func viewsText(_ views: Set<MapsView>) -> String {
        views.sorted().map(\.rawValue).joined(separator: ",")
    }

    private static func addCallback(_ callback: Callback?, to writer: inout QueryWriter) {
        guard let callback else { return }
        writer.add("x-source", callback.source)
        writer.add("x-success", callback.success)
        writer.add("x-error", callback.error)
        writer.add("x-cancel", callback.cancel)
    }
}

/// A request being cut down to what a target can carry, with the list of what was cut.
private struct Reduction {
    var request: MapsRequest
    var dropped: [UnexpressedPart] = []

    mutating func drop<Value>(_ field: WritableKeyPath<MapsRequest, Value?>, _ name: String, _ reason: String) {
        guard request[keyPath: field] != nil else { return }
        request[keyPath: field] = nil
        dropped.append(UnexpressedPart(field: name, reason: reason))
    }

    /// Drops every field but `kept`.
    mutating func dropAll(except kept: [PartialKeyPath<MapsRequest>], reason: String) {
        func dropUnlessKept<Value>(_ field: WritableKeyPath<MapsRequest, Value?>, _ name: String) {
            if !kept.contains(field) { drop(field, name, reason) }
        }
        dropUnlessKept(\.center, "center")
        dropUnlessKept(\.zoom, "zoom")
        dropUnlessKept(\.span, "span")
        dropUnlessKept(\.mapMode, "mapMode")
        dropUnlessKept(\.views, "views")
        dropUnlessKept(\.query, "query")
        dropUnlessKept(\.placeID, "placeID")
        dropUnlessKept(\.marker, "marker")
        dropUnlessKept(\.directions, "directions")
        dropUnlessKept(\.streetView, "streetView")
        dropUnlessKept(\.callback, "callback")
        dropUnlessKept(\.shortLink, "shortLink")
    }

    /// Drops a query that would read back as a coordinate when printed without its marker
    /// (only crafted links carry such texts, for example `q=a@1,2@3,4`).
    mutating func dropQueryReadingAsCoordinate() {
        guard request.marker == nil, let query = request.query, !PlaceText.readsBackAsText(query) else { return }
        request.query = nil
        dropped.append(UnexpressedPart(field: "query", reason: "the text would read back as a coordinate"))
    }

    mutating func dropStreetViewCamera(_ reason: String) {
        drop(\.streetView, "streetView", reason)
    }

    /// Keeps only `allowed` views; the others are reported.
    mutating func keepViews(_ allowed: Set<MapsView>, _ reason: String) {
        guard let views = request.views else { return }
        let removed = views.subtracting(allowed)
        guard !removed.isEmpty else { return }
        // Views the target cannot show leave the map as the app has it, not cleared.
        let kept = views.intersection(allowed)
        request.views = kept.isEmpty ? nil : kept
        dropped.append(
            UnexpressedPart(field: "views", reason: "\(reason); \(removed.sorted().map(\.rawValue)) left out"))
    }

    /// Keeps at most one of `group` (the first in `group`'s declared order).
    mutating func exclusiveViews(_ group: [MapsView], _ reason: String) {
        guard let views = request.views else { return }
        let present = group.filter(views.contains)
        guard present.count > 1 else { return }
        request.views = views.subtracting(present.dropFirst())
        dropped.append(
            UnexpressedPart(field: "views", reason: "\(reason); \(present.dropFirst().map(\.rawValue)) left out"))
    }

    mutating func clampZoom(_ limits: ClosedRange<Double>) {
        guard let zoom = request.zoom else { return }
        let clamped = min(max(zoom, limits.lowerBound), limits.upperBound)
        guard clamped != zoom else { return }
        request.zoom = clamped
        dropped.append(
            UnexpressedPart(field: "zoom", reason: "outside \(limits); clamped to \(DecimalText.format(clamped))"))
    }

    /// Cuts directions down to what a target carries; a nil reason means the target carries it.
    mutating func reduceDirections(
        waypoints: String?, navigate: String?, avoid: String, modes: Set<TravelMode>, needsEnds: Bool,
        avoidable: Set<RouteAvoidance> = []
    ) {
        guard var directions = request.directions else { return }
        if let waypoints, !directions.waypoints.isEmpty {
            directions.waypoints = []
            dropped.append(UnexpressedPart(field: "directions.waypoints", reason: waypoints))
        }
        if let navigate, directions.navigate {
            directions.navigate = false
            dropped.append(UnexpressedPart(field: "directions.navigate", reason: navigate))
        }
        if !directions.avoid.isSubset(of: avoidable) {
            directions.avoid.formIntersection(avoidable)
            dropped.append(UnexpressedPart(field: "directions.avoid", reason: avoid))
        }
        if let mode = directions.travelMode, !modes.contains(mode) {
            directions.travelMode = nil
            dropped.append(
                UnexpressedPart(field: "directions.travelMode", reason: "'\(mode.rawValue)' is not available"))
        }
        if needsEnds && directions.origin == nil && directions.destination == nil && directions.travelMode == nil {
            request.directions = nil
            dropped.append(
                UnexpressedPart(field: "directions", reason: "an empty directions request cannot be written"))
            return
        }
        request.directions = directions
    }
}
