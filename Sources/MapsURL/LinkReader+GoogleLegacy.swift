import GeoCore

/// Google's legacy parameters, as desktop links and old exports write them.
extension LinkReader {

    mutating func readLegacyParameters(_ parameters: [Parameter]) {
        var directions = request.directions ?? Directions()
        var hasDirections = request.directions != nil
        var searchCenter: Coordinate?
        var searchSpan: CoordinateSpan?
        var streetView = LegacyStreetView()
        for parameter in firstOfEachName(parameters) {
            let where_ = parameter.location
            switch parameter.name {
            case "q", "query":
                if let text = decodedValue(parameter) { applySearch(text, name: parameter.name, at: where_) }
            case "ll":
                if let center = coordinateValue(parameter) { request.center = center }
            case "sll":
                searchCenter = coordinateValue(parameter)
            case "spn":
                if let span = spanValue(parameter) { request.span = span }
            case "sspn":
                searchSpan = spanValue(parameter)
            case "z":
                request.zoom = numberValue(parameter, limits: DesktopVocabulary.zoomLimits)
            case "t":
                applyMapType(parameter, DesktopVocabulary.mapTypes)
            case "layer":
                guard let text = decodedValue(parameter) else { break }
                if text == DesktopVocabulary.streetViewLayer {
                    streetView.isOn = true
                } else if let layer = DesktopVocabulary.layers.value(for: text) {
                    request.views = (request.views ?? []).union([layer])
                } else {
                    report(
                        .unknownLayer, .note, "'layer=\(text)' is not supported; only 'layer=t' (traffic) is",
                        at: where_)
                }
            case "lci":
                guard let text = decodedValue(parameter) else { break }
                if let layer = DesktopVocabulary.layerIDs.value(for: text) {
                    request.views = (request.views ?? []).union([layer])
                } else {
                    report(
                        .unknownLayer, .note,
                        "'lci=\(text)' is not supported (\(DesktopVocabulary.layerIDs.words)); it is ignored",
                        at: where_)
                }
            case "f":
                if decodedValue(parameter) == "d" { hasDirections = true }
            case "saddr", "origin":
                guard let text = decodedValue(parameter) else { break }
                directions.origin = waypoint(text, name: parameter.name, at: where_)
                hasDirections = true
            case "destination":
                guard let text = decodedValue(parameter) else { break }
                directions.destination = waypoint(text, name: "destination", at: where_)
                hasDirections = true
            case "daddr":
                guard let text = decodedValue(parameter) else { break }
                // Old multi-stop links chain stops with "+to:".
                let stops = text.splitOnSubstring(DesktopVocabulary.stopSeparator)
                directions.destination = waypoint(stops.last!, name: "daddr", at: where_)
                directions.waypoints = stops.dropLast().compactMap {
                    waypoint($0, name: "daddr", at: where_)
                }
                hasDirections = true
            case "dirflg":
                guard let text = decodedValue(parameter) else { break }
                readDirectionFlags(text, into: &directions, at: where_)
                hasDirections = true
            case "nav":
                if decodedValue(parameter) == "1" {
                    directions.navigate = true
                    hasDirections = true
                }
            case "cbll":
                streetView.position = coordinateValue(parameter)
            case "cbp":
                streetView.camera = parameter
            case "panoid":
                streetView.panorama = parameter
            case "mid", "msid":
                report(
                    .placeIdIgnored, .note,
                    "'\(parameter.name)' names a My Maps map, whose layers live in a Google account; only its view is shown",
                    at: parameter.nameRange)
            case "cid", "ftid":
                report(
                    .placeIdIgnored, .note,
                    "'\(parameter.name)' names a place in Google's own database, which cannot be looked up here; "
                        + "the other parameters are used",
                    at: parameter.nameRange)
            case "hl":
                guard let text = decodedValue(parameter) else { break }
                if Self.isLanguageTag(text) {
                    request.language = text
                } else {
                    report(
                        .badLanguage, .warning,
                        "'hl' must be a language code such as es or pt-BR, not '\(text)'; ignored",
                        at: where_)
                }
            case "gl", "ie", "oe", "output", "source", "authuser", "entry", "g_ep", "g_st", "ved", "sa", "usp",
                "hq", "api", "iwloc", "width", "height", "geocode", "hnear", "mra", "mrt", "msa", "vpsrc", "ei", "oi",
                "coh",
                "force", "skid", "ucbcb", "dg", "shorturl":
                continue
            case let name where name.utf8.starts(with: "utm_".utf8):
                continue
            default:
                unknownParameter(parameter)
            }
        }
        applyLegacyStreetView(streetView)
        if request.center == nil, let searchCenter { request.center = searchCenter }
        if request.span == nil, let searchSpan { request.span = searchSpan }
        if hasDirections { request.directions = directions }
    }

    /// Old Street View links: `layer=c`, the panorama's position `cbll`, its id `panoid` and
    /// the camera `cbp`.
    private struct LegacyStreetView {
        var isOn = false
        var position: Coordinate?
        /// `cbp` and `panoid`, read only when Street View is on.
        var camera: Parameter?
        var panorama: Parameter?
    }

    /// Street View with the position of `cbll` (else the map's center) and the camera of `cbp`
    /// and `panoid`, when `layer=c` or `cbll` asks for it.
    private mutating func applyLegacyStreetView(_ streetView: LegacyStreetView) {
        guard streetView.isOn || streetView.position != nil else { return }
        request.mapMode = .streetView
        if let position = streetView.position { request.center = position }
        var camera = StreetViewCamera()
        if let parameter = streetView.camera { readStreetViewCamera(parameter, into: &camera) }
        if let parameter = streetView.panorama {
            camera.panoramaID = decodedValue(parameter).flatMap { $0.isEmpty ? nil : $0 }
        }
        if !camera.isEmpty { request.streetView = camera }
    }

    /// `cbp=12,HEADING,,ZOOM,PITCH`: the heading in degrees and the pitch in degrees, positive
    /// looking down (the opposite of ``StreetViewCamera/pitch``); the rest is ignored.
    private mutating func readStreetViewCamera(_ parameter: Parameter, into camera: inout StreetViewCamera) {
        guard let text = decodedValue(parameter) else { return }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count > 1, let heading = DecimalText.parse(parts[1]) {
            camera.heading = clamp(heading, name: "cbp heading", limits: -180...360, at: parameter.location)
        }
        if parts.count > 4, let pitch = DecimalText.parse(parts[4]) {
            camera.pitch = clamp(-pitch, name: "cbp pitch", limits: -90...90, at: parameter.location)
        }
    }

    /// `dirflg`: one letter per flag, choosing the mode (``DesktopVocabulary/travelModes``) or
    /// avoiding a road feature (``DesktopVocabulary/avoidances``).
    private mutating func readDirectionFlags(_ text: String, into directions: inout Directions, at range: Range<Int>) {
        for flag in text.map(String.init) {
            if let mode = DesktopVocabulary.travelModes.value(for: flag) {
                directions.travelMode = mode
            } else if let avoidance = DesktopVocabulary.avoidances.value(for: flag) {
                directions.avoid.insert(avoidance)
            } else {
                report(.unknownDirflg, .warning, "'dirflg' letter '\(flag)' is not known; it is ignored", at: range)
            }
        }
    }

    mutating func spanValue(_ parameter: Parameter) -> CoordinateSpan? {
        guard let parsed = withValueBytes(parameter, Coordinate.parsePair(bytes:)) else { return nil }
        let where_ = parameter.location
        guard let pair = parsed else {
            report(
                .badSpan, .error, "'\(parameter.name)' must be two decimal degree extents; it is ignored", at: where_)
            return nil
        }
        let span = CoordinateSpan(latitudeDelta: pair.latitude, longitudeDelta: pair.longitude)
        guard span.isValid else {
            report(
                .spanOutOfRange, .error, "'\(parameter.name)' is outside 0...180, 0...360; it is ignored",
                at: where_)
            return nil
        }
        return span
    }

    /// Whether `text` is a language tag as `hl` carries one: two or three letters, then
    /// subtags of letters and digits after `-` or `_` (`es`, `pt-BR`, `zh_Hant`).
    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
