import GeoCore

/// Embedded Google maps, as web pages put them in iframes: the Embed API
/// (`/maps/embed/v1/place|view|directions|streetview|search?key=…&…`) and the blob of the
/// share dialog's "Embed a map" (`/maps/embed?pb=!1m18!1m12!1m3!1d<metres>!2d<lng>!3d<lat>…`).
extension LinkReader {
    /// Reads `/embed/…` (the segments after `/maps`, starting at `embed`).
    mutating func readEmbed(segments: [Range<Int>], parameters: [Parameter]) {
        if segments.count >= 2, isWord(segments[1], "v1") {
            readEmbedAPI(segments: Array(segments.dropFirst(2)), parameters: parameters)
        } else {
            for segment in segments.dropFirst() {
                report(.unknownPathSegment, .note, "this path segment has no known meaning; it is ignored", at: segment)
            }
            readEmbedBlob(parameters)
        }
    }

    /// The Embed API: `q` (place, search), `center`, `zoom`, `maptype`; `origin`,
    /// `destination`, `waypoints`, `mode`, `avoid` (directions); `location`, `pano`, `heading`,
    /// `pitch`, `fov` (streetview).
    private mutating func readEmbedAPI(segments: [Range<Int>], parameters: [Parameter]) {
        guard let first = segments.first, let mode = EmbedVocabulary.Mode(rawValue: text(first)) else {
            report(
                .unknownPathSegment, .warning,
                "an embedded map's mode must be one of \(EmbedVocabulary.Mode.allCases.map(\.rawValue)); a map is shown",
                at: segments.first ?? 0..<0)
            return
        }
        var directions = Directions()
        var camera = StreetViewCamera()
        for parameter in firstOfEachName(parameters) {
            let where_ = parameter.location
            switch parameter.name {
            case "q" where mode == .place || mode == .search:
                if let text = decodedValue(parameter) { applySearch(text, name: "q", at: where_) }
            case "maptype":
                applyMapType(parameter, EmbedVocabulary.mapTypes)
            case "mode" where mode == .directions:
                if let travelMode = travelModeValue(parameter, EmbedVocabulary.travelModes) {
                    directions.travelMode = travelMode
                }
            case "location" where mode == .streetview:
                if let center = coordinateValue(parameter) { request.center = center }
            case let name where EmbedVocabulary.ignored.contains(name):
                continue
            default:
                let handled =
                    switch mode {
                    case .directions: readAPIDirectionsParameter(parameter, into: &directions, at: where_)
                    case .streetview: readAPIPanoParameter(parameter, into: &camera)
                    default: false
                    }
                if !handled && !readAPIMapParameter(parameter, at: where_) { unknownParameter(parameter) }
            }
        }
        switch mode {
        case .directions:
            request.directions = directions
        case .streetview:
            request.mapMode = .streetView
            request.streetView = camera.isEmpty ? nil : camera
        case .place, .search:
            if request.query == nil && request.marker == nil {
                report(.missingQuery, .warning, "an embedded \(mode.rawValue) needs 'q'", at: first)
            }
        case .view:
            break
        }
    }

    /// `pb=`: the view (its centre and the metres of ground it shows), the place's name and
    /// pin, the directions' stops and travel mode, the layers.
    private mutating func readEmbedBlob(_ parameters: [Parameter]) {
        for parameter in firstOfEachName(parameters) {
            switch parameter.name {
            case "pb":
                guard let value = parameter.value else { break }
                readEmbedBlob(GoogleDataBlob(bytes, value), at: parameter.location)
            case let name where EmbedVocabulary.ignored.contains(name) || name == "hl" || name == "gl":
                continue
            default:
                unknownParameter(parameter)
            }
        }
    }

    private mutating func readEmbedBlob(_ blob: GoogleDataBlob, at range: Range<Int>) {
        if let view = blob.embeddedView {
            request.center = view.center
            request.span = CoordinateSpan(seenFrom: view.metres, at: view.center)
        }
        if let listed = blob.directions {
            let waypoints: [Waypoint] = zip(listed.positions, listed.names).map { position, blobName in
                let name = blobName.flatMap { text(of: $0, what: "a stop's name") }
                switch (name, position) {
                case (let name?, let position?): return .place(name: name, coordinate: position)
                case (let name?, nil): return .query(name)
                case (nil, let position?): return .coordinate(position)
                case (nil, nil): return .currentLocation
                }
            }
            var directions = Directions(origin: waypoints.first, destination: waypoints.last)
            directions.waypoints = Array(waypoints.dropFirst().dropLast().prefix(Directions.maxWaypoints))
            directions.travelMode = listed.travelMode
            request.directions = directions
        } else if let blobName = blob.placeName, let name = text(of: blobName, what: "the place's name") {
            applySearch(name, name: "the embedded place", at: blobName.value)
            if let pin = blob.pin, request.marker == nil { request.marker = pin }
        } else if let pin = blob.pin {
            request.marker = pin
        }
        let views = blob.views.union(blob.embeddedViews)
        if !views.isEmpty { request.views = (request.views ?? []).union(views) }
        if request == MapsRequest() {
            report(.badViewport, .warning, "the embedded map's 'pb' holds no position this reader knows", at: range)
        }
    }

    /// A name of the blob as text: percent-decoded, or base64url-decoded UTF-8 for `!2z`.
    private mutating func text(of name: GoogleDataBlob.Name, what: String) -> String? {
        guard name.isBase64 else { return decodedText(name.value, plusIsSpace: true, what: what) }
        guard let utf8 = Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[name.value])),
            let text = String(validating: utf8, as: UTF8.self), !text.isEmpty
        else {
            report(.invalidUTF8, .warning, "\(what) is not base64 of UTF-8 text; it is ignored", at: name.value)
            return nil
        }
        let hasControls = utf8.contains { $0 < 0x20 || $0 == 0x7F }
        return checkedText(text, hasControls: hasControls, what: what, at: name.value)
    }
}
