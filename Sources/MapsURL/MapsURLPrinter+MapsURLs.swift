import GeoCore

/// Maps URLs (`api=1`).
extension MapsURLPrinter {
    static func universalLink(_ r: inout Reduction) -> String {
        r.drop(\.language, "language", "Maps URLs have no language parameter")
        r.drop(\.callback, "callback", "Maps URLs have no callback")
        if r.request.isAppleShortLink {
            r.drop(\.shortLink, "shortLink", "an Apple Maps short link opens in Apple Maps only")
        }
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
            r.dropPlaceNames("Maps URLs ends are a text or a position, not both; the positions are kept")
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
            let separator = MapsURLsVocabulary.waypointSeparator.description
            if r.request.directions?.waypoints.contains(where: {
                waypointText($0).containsSeparator(MapsURLsVocabulary.waypointSeparator)
            }) == true {
                r.request.directions?.waypoints.removeAll {
                    waypointText($0).containsSeparator(MapsURLsVocabulary.waypointSeparator)
                }
                r.dropped.append(
                    UnexpressedPart(field: "directions.waypoints", reason: "Maps URLs waypoints cannot contain '|'"))
            }
            if let count = r.request.directions?.waypoints.count, count > Directions.maxWaypoints {
                r.request.directions?.waypoints.removeLast(count - Directions.maxWaypoints)
                r.dropped.append(
                    UnexpressedPart(
                        field: "directions.waypoints", reason: "Maps URLs allow \(Directions.maxWaypoints) waypoints"))
            }
            r.dropStopsLongerThanAValue(separator: separator, withDestination: false)
            let request = r.request
            let directions = request.directions!
            path = "www.google.com/maps/dir/"
            writer.add("origin", directions.origin.map(waypointText))
            writer.add("destination", directions.destination.map(waypointText))
            writer.add("travelmode", directions.travelMode.flatMap(MapsURLsVocabulary.travelModes.word))
            writer.add("dir_action", directions.navigate ? "navigate" : nil)
            writer.add(
                "waypoints",
                directions.waypoints.isEmpty ? nil : directions.waypoints.map(waypointText).joined(separator: separator)
            )
            writer.add(
                "avoid",
                directions.avoid.isEmpty
                    ? nil
                    : directions.avoid.sorted().compactMap(MapsURLsVocabulary.avoidances.word).joined(separator: ","))
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
            r.clampZoom(DesktopVocabulary.zoomLimits)
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
                let basemap = [MapsView.satellite, .terrain].first(where: views.contains)
                let layer = [MapsView.traffic, .transit, .bicycling].first(where: views.contains)
                if basemap != nil || layer == nil {
                    writer.add("basemap", MapsURLsVocabulary.basemaps.word(for: basemap))
                }
                writer.add("layer", layer.flatMap { MapsURLsVocabulary.layers.word(for: $0) })
            }
        }
        return "https://" + path + "?" + writer.query
    }
}
