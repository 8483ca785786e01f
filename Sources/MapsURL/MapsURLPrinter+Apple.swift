import GeoCore

/// Apple Maps links.
extension MapsURLPrinter {
    static func appleLink(_ r: inout Reduction) -> String {
        r.drop(\.language, "language", "Apple Maps links have no language parameter")
        r.drop(\.callback, "callback", "Apple Maps links have no callback")
        if let shortLink = r.request.shortLink, r.request.isAppleShortLink {
            r.dropAll(except: [\.shortLink], reason: "a short link carries nothing else until it is resolved")
            return shortLink
        }
        r.drop(\.shortLink, "shortLink", "Apple Maps cannot open a Google short link")
        r.drop(\.placeID, "placeID", "Apple Maps does not know Google place ids")
        r.drop(\.mapMode, "mapMode", "Apple Maps links have no map mode")
        r.dropStreetViewCamera("Apple Maps links have no Street View")
        r.keepViews([.satellite, .transit], "Apple Maps links show satellite or transit only")
        r.exclusiveViews([.satellite, .transit], "Apple Maps links show one map type")
        r.clampZoom(AppleVocabulary.zoomLimits)
        if r.request.query != nil {
            r.drop(\.marker, "marker", "Apple Maps' q is either a text or a coordinate, not both")
        }
        r.dropQueryReadingAsCoordinate()
        r.dropPlaceNames("Apple Maps ends are a text or a position, not both; the positions are kept")
        r.reduceDirections(
            waypoints: "Apple Maps links have only saddr and daddr", navigate: "Apple Maps links have no navigate flag",
            avoid: "Apple Maps links cannot avoid road features",
            modes: AppleVocabulary.travelModes.values, needsEnds: true
        )
        let request = r.request
        var writer = QueryWriter()
        writer.add("q", request.query ?? request.marker?.description)
        writer.add("ll", request.center?.description)
        writer.add("z", request.zoom.map(DecimalText.format))
        writer.add("spn", request.span?.description)
        if let views = request.views {
            let type: MapsView? = views.contains(.satellite) ? .satellite : views.contains(.transit) ? .transit : nil
            writer.add("t", AppleVocabulary.mapTypes.word(for: type))
        }
        if let directions = request.directions {
            writer.add("saddr", directions.origin.map(waypointText))
            writer.add("daddr", directions.destination.map(waypointText))
            writer.add("dirflg", directions.travelMode.flatMap(AppleVocabulary.travelModes.word))
        }
        return writer.pairs.isEmpty ? "https://maps.apple.com/" : "https://maps.apple.com/?" + writer.query
    }
}
