import GeoCore

/// Desktop URLs and `comgooglemapsurl://`.
extension MapsURLPrinter {
    static func desktopLink(_ r: inout Reduction, target: LinkTarget) -> String {
        if target == .desktop {
            r.drop(\.callback, "callback", "a desktop URL has no callback; use the comgooglemapsurl target")
        }
        if r.request.isAppleShortLink {
            r.drop(\.shortLink, "shortLink", "an Apple Maps short link opens in Apple Maps only")
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
        r.clampZoom(DesktopVocabulary.zoomLimits)
        r.reduceDirections(
            waypoints: nil, navigate: nil, avoid: "desktop URLs avoid only highways and tolls",
            modes: DesktopVocabulary.travelModes.values, needsEnds: false,
            avoidable: DesktopVocabulary.avoidances.values)
        // Old desktop links chain stops in daddr with " to:", so no stop may contain it.
        let separator = DesktopVocabulary.stopSeparator.description
        if let directions = r.request.directions,
            (directions.waypoints + [directions.destination].compactMap { $0 }).contains(where: {
                waypointText($0).containsSeparator(DesktopVocabulary.stopSeparator)
            })
        {
            var field = "directions.waypoints"
            r.request.directions?.waypoints = []
            if let destination = directions.destination,
                waypointText(destination).containsSeparator(DesktopVocabulary.stopSeparator)
            {
                r.request.directions?.destination = nil
                field = "directions.destination"
            }
            r.dropped.append(UnexpressedPart(field: field, reason: "desktop stops cannot contain ' to:'"))
        }
        if r.request.directions?.destination == nil && r.request.directions?.waypoints.isEmpty == false {
            r.request.directions?.waypoints = []
            r.dropped.append(UnexpressedPart(field: "directions.waypoints", reason: "desktop stops need a destination"))
        }
        r.dropStopsLongerThanAValue(separator: separator, withDestination: true)
        if let pitch = r.request.streetView?.pitch, tiltText(forPitch: pitch) == nil {
            r.request.streetView?.pitch = nil
            if r.request.streetView?.isEmpty == true { r.request.streetView = nil }
            r.dropped.append(
                UnexpressedPart(field: "streetView.pitch", reason: "no tilt in degrees reads back as this exact pitch"))
        }
        let request = r.request
        var path = "maps.google.com/maps"
        var writer = QueryWriter()
        if request.mapMode == .streetView, let center = request.center {
            let camera = request.streetView ?? StreetViewCamera()
            var tokens = ["\(center)", "3a"]
            if let fov = camera.fieldOfView { tokens.append(DecimalText.format(fov) + "y") }
            if let heading = camera.heading { tokens.append(DecimalText.format(heading) + "h") }
            if let pitch = camera.pitch, let tilt = tiltText(forPitch: pitch) { tokens.append(tilt + "t") }
            path += "/@" + tokens.joined(separator: ",")
        }
        if let directions = request.directions {
            writer.add("f", "d")
            writer.add("saddr", directions.origin.map(waypointText))
            if let destination = directions.destination {
                writer.add(
                    "daddr", (directions.waypoints + [destination]).map(waypointText).joined(separator: separator))
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
            let type: MapsView? = views.contains(.satellite) ? .satellite : views.contains(.terrain) ? .terrain : nil
            if type != nil || views.isEmpty { writer.add("t", DesktopVocabulary.mapTypes.word(for: type)) }
            writer.add("layer", views.contains(.traffic) ? DesktopVocabulary.layers.word(for: .traffic) : nil)
            writer.add(
                "lci",
                [MapsView.transit, .bicycling].first(where: views.contains).flatMap(DesktopVocabulary.layerIDs.word))
        }
        if let directions = request.directions {
            let mode = directions.travelMode.flatMap(DesktopVocabulary.travelModes.word) ?? ""
            let avoid = directions.avoid.sorted().compactMap(DesktopVocabulary.avoidances.word).joined()
            let flags = mode + avoid
            writer.add("dirflg", flags.isEmpty ? nil : flags)
            writer.add("nav", directions.navigate ? "1" : nil)
        }
        writer.add("hl", request.language)
        let base = writer.pairs.isEmpty ? path : path + "?" + writer.query
        return wrap(base, request.callback, target: target, hasQuery: !writer.pairs.isEmpty)
    }

    /// `https://` + `rest` for desktop; `comgooglemapsurl://` + `rest` + callback otherwise.
    static func wrap(_ rest: String, _ callback: Callback?, target: LinkTarget, hasQuery: Bool) -> String {
        guard target == .comgooglemapsurl else { return "https://" + rest }
        var writer = QueryWriter()
        addCallback(callback, to: &writer)
        guard !writer.pairs.isEmpty else { return "comgooglemapsurl://" + rest }
        return "comgooglemapsurl://" + rest + (hasQuery ? "&" : "?") + writer.query
    }

    /// The viewport's tilt (`t`, 0 looking down … 180 looking up) for a Street View pitch
    /// (-90…90): the decimal text whose value less 90 is exactly `pitch`, trying the sum and its
    /// neighbouring doubles, since adding 90 rounds; nil when none reads back exactly.
    static func tiltText(forPitch pitch: Double) -> String? {
        let tilt = pitch + 90
        for candidate in [tilt, tilt.nextUp, tilt.nextDown] {
            let text = DecimalText.format(candidate)
            if let value = DecimalText.parse(text), value - 90 == pitch { return text }
        }
        return nil
    }
}
