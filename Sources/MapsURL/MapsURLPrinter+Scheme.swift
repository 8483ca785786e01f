import GeoCore

/// `comgooglemaps://` and `comgooglemaps-x-callback://`.
extension MapsURLPrinter {
    static func schemeLink(_ r: inout Reduction, target: LinkTarget) throws(PrintError) -> String {
        r.drop(\.language, "language", "the URL scheme has no language parameter")
        if target == .xCallback && r.request.callback == nil {
            throw PrintError(
                target: target, message: "comgooglemaps-x-callback:// needs a callback (x-source and x-success)")
        }
        r.drop(\.shortLink, "shortLink", "the URL scheme cannot carry a short link; resolve it first")
        r.drop(\.span, "span", "the URL scheme has no span; use zoom")
        r.drop(\.placeID, "placeID", "the URL scheme has no place ids")
        r.dropStreetViewCamera("the URL scheme has no Street View camera parameters")
        r.keepViews(Set(SchemeVocabulary.views), "the URL scheme's views are satellite, traffic and transit")
        r.clampZoom(SchemeVocabulary.zoomLimits)
        if r.request.query != nil {
            r.drop(\.marker, "marker", "the URL scheme's q is either a text or a coordinate, not both")
        }
        r.dropQueryReadingAsCoordinate()
        if target == .comgooglemaps {
            r.drop(\.callback, "callback", "comgooglemaps:// has no callback; use the x-callback target")
        }
        r.reduceDirections(
            waypoints: "the URL scheme has only saddr and daddr", navigate: "the URL scheme has no navigate flag",
            avoid: "the URL scheme cannot avoid road features", modes: Set(SchemeVocabulary.travelModes),
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
}
