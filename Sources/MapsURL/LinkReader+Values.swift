import GeoCore

/// Reading values: decoding once, coordinates, numbers, places, searches, views and map types.
extension LinkReader {

    /// Decodes a parameter value once; reports and returns nil when it cannot be decoded, has
    /// control characters or is too long.
    /// - Parameter allowControls: keep control characters for a caller that removes or refuses
    ///   them itself (the callback parameters).
    mutating func decodedValue(_ parameter: Parameter, plusIsSpace: Bool = true, allowControls: Bool = false) -> String?
    {
        guard let value = parameter.value else { return "" }
        let name = parameter.name
        return decodedText(value, plusIsSpace: plusIsSpace, what: "'\(name)'", allowControls: allowControls)
    }

    /// - Parameter what: names the value in messages; evaluated only when there is a problem.
    mutating func decodedText(
        _ range: Range<Int>, plusIsSpace: Bool, what: @autoclosure () -> String, allowControls: Bool = false
    ) -> String? {
        switch PercentDecoding.decode(bytes, range, plusIsSpace: plusIsSpace) {
        case .failure(.malformedEscape(let at)):
            report(
                .malformedEscape, .error, "\(what()) has a '%' not followed by two hex digits; the value is ignored",
                at: at..<min(at + 3, range.upperBound))
            return nil
        case .failure(.invalidUTF8):
            report(.invalidUTF8, .error, "\(what()) decodes to invalid UTF-8; the value is ignored", at: range)
            return nil
        case .success(let (decoded, hasControls)):
            return checkedText(decoded, hasControls: hasControls, what: what(), at: range, allowControls: allowControls)
        }
    }

    /// A decoded text as every value must be: at most ``MapsURLParser/maxTextLength`` bytes and,
    /// unless `allowControls`, without control characters (bytes below 0x20 and 0x7F); nil,
    /// reported at `range`, otherwise.
    mutating func checkedText(
        _ text: String, hasControls: Bool, what: @autoclosure () -> String, at range: Range<Int>,
        allowControls: Bool = false
    ) -> String? {
        if text.utf8.count > MapsURLParser.maxTextLength {
            report(
                .valueTooLong, .error,
                "\(what()) is longer than \(MapsURLParser.maxTextLength) bytes; the value is ignored", at: range)
            return nil
        }
        if !allowControls && hasControls {
            report(.controlCharacter, .error, "\(what()) contains a control character; the value is ignored", at: range)
            return nil
        }
        return text
    }

    /// Calls `body` with a value's bytes decoded once: the input's own bytes when the value
    /// has no escapes, `+` or controls (the common case, no copy), a decoded copy otherwise.
    ///
    /// - Returns: nil when the value could not be decoded (already reported).
    mutating func withValueBytes<T>(_ parameter: Parameter, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        guard let value = parameter.value else { return body(UnsafeBufferPointer(rebasing: bytes[0..<0])) }
        var isPlain = true
        for index in value {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") || byte < 0x20 || byte == 0x7F {
                isPlain = false
                break
            }
        }
        if isPlain { return body(UnsafeBufferPointer(rebasing: bytes[value])) }
        guard var text = decodedValue(parameter) else { return nil }
        return text.withUTF8(body)
    }

    /// A strict `latitude,longitude` value (no labels, no free text).
    mutating func coordinateValue(_ parameter: Parameter) -> Coordinate? {
        guard let parsed = withValueBytes(parameter, Coordinate.parsePair(bytes:)) else { return nil }
        return checkedCoordinate(parsed, name: parameter.name, at: parameter.location)
    }

    /// Reports a missing or out-of-range coordinate; returns the coordinate when it is usable.
    mutating func checkedCoordinate(_ coordinate: Coordinate?, name: String, at range: Range<Int>) -> Coordinate? {
        guard let coordinate else {
            report(
                .badCoordinate, .error,
                "'\(name)' must be 'latitude,longitude' in plain decimal degrees; it is ignored", at: range)
            return nil
        }
        guard coordinate.isValid else {
            report(
                .coordinateOutOfRange, .error,
                "'\(name)' is out of range (latitude -90...90, longitude -180...180); it is ignored", at: range)
            return nil
        }
        return coordinate
    }

    mutating func coordinate(from text: Substring, name: String, at range: Range<Int>) -> Coordinate? {
        checkedCoordinate(Coordinate.parsePair(text), name: name, at: range)
    }

    /// A strict decimal number, clamped into `limits` with a warning.
    /// - Parameter badSeverity: how a value that is not a number is reported: an error (the
    ///   default), or a warning where readers in the wild ignore it and read on (`geo:`'s `z`).
    mutating func numberValue(
        _ parameter: Parameter, limits: ClosedRange<Double>, maxIntegerDigits: Int = 3,
        badSeverity: Diagnostic.Severity = .error
    ) -> Double? {
        guard let value = withValueBytes(parameter, { DecimalText.parse($0, maxIntegerDigits: maxIntegerDigits) })
        else { return nil }
        return clamp(value, name: parameter.name, limits: limits, at: parameter.location, badSeverity: badSeverity)
    }

    mutating func number(
        _ digits: UnsafeBufferPointer<UInt8>, name: String, limits: ClosedRange<Double>, at range: Range<Int>
    ) -> Double? {
        clamp(DecimalText.parse(digits, maxIntegerDigits: 3), name: name, limits: limits, at: range)
    }

    /// Reports a missing number or clamps it into `limits` with a warning.
    mutating func clamp(
        _ value: Double?, name: String, limits: ClosedRange<Double>, at range: Range<Int>,
        badSeverity: Diagnostic.Severity = .error
    ) -> Double? {
        guard let value else {
            report(.badNumber, badSeverity, "'\(name)' must be a plain decimal number; it is ignored", at: range)
            return nil
        }
        let clamped = min(max(value, limits.lowerBound), limits.upperBound)
        if clamped != value {
            report(
                .clamped, .warning,
                "'\(name)' \(DecimalText.format(value)) is outside \(DecimalText.format(limits.lowerBound))..."
                    + "\(DecimalText.format(limits.upperBound)); \(DecimalText.format(clamped)) is used",
                at: range)
        }
        return clamped
    }

    /// A place value (`saddr`, `daddr`, `origin`, a `/dir/` segment): blank is the current
    /// location, a coordinate is a point, `NAME@latitude,longitude` a named place, anything
    /// else a query. Coordinate-shaped text out of range stays a query, with a warning.
    mutating func waypoint(_ text: String, name: String, at range: Range<Int>, blankIsCurrentLocation: Bool = true)
        -> Waypoint?
    {
        var trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty { return blankIsCurrentLocation ? .currentLocation : nil }
        if PlaceText.namesCurrentLocation(trimmed) { return .currentLocation }
        // Google's `/dir/'LAT,LNG'/…` quotes the coordinates typed into its boxes.
        if let inner = PlaceText.unquoted(trimmed), case .coordinate = PlaceText.read(inner) { trimmed = inner }
        switch PlaceText.read(trimmed) {
        case .coordinate(let coordinate, let label):
            if let label {
                report(
                    .labelIgnored, .warning,
                    "'\(name)' has a label '(\(label))' after its coordinate; the label is ignored", at: range)
            }
            return .coordinate(coordinate)
        case .outOfRange:
            report(
                .coordinateOutOfRange, .warning,
                "'\(name)' looks like a coordinate but is out of range; it is kept as a search text", at: range)
            return .query(trimmed)
        case .text:
            if let (name, coordinate) = PlaceText.named(trimmed) { return .place(name: name, coordinate: coordinate) }
            return .query(trimmed)
        }
    }

    /// Applies a search text (`q`, `query`): a coordinate pins a marker, `TEXT@lat,lng` is a
    /// query with a marker, `lat,lng (label)` a marker with the label as query. A `/data=…`
    /// tail glued onto the value is cut off with a note, its numbers never read.
    mutating func applySearch(_ text: String, name: String, at range: Range<Int>) {
        var trimmed = text.trimmingWhitespace()
        let withoutTail = PlaceText.withoutDataTail(trimmed)
        if withoutTail != trimmed {
            report(.dataTailIgnored, .note, "'\(name)' ends in a '/data=' blob; it is ignored", at: range)
            trimmed = withoutTail.trimmingWhitespace()
        }
        guard !trimmed.isEmpty else {
            report(.emptyQuery, .warning, "'\(name)' is empty; no search is made", at: range)
            return
        }
        // `q=place_id:ChIJ…`: Google's documented way to name a place by its id.
        if trimmed.utf8.count > 9, trimmed.utf8.starts(with: "place_id:".utf8) {
            request.placeID = String(decoding: trimmed.utf8.dropFirst(9), as: UTF8.self)
            report(
                .placeIdIgnored, .note,
                "'\(name)' names a place by its Google place id, which cannot be looked up here", at: range)
            return
        }
        switch PlaceText.read(trimmed) {
        case .coordinate(let coordinate, let label):
            request.marker = coordinate
            if let label { request.query = label }
            return
        case .outOfRange:
            report(
                .coordinateOutOfRange, .warning,
                "'\(name)' looks like a coordinate but is out of range; it is searched as text", at: range)
        case .text:
            if let (query, marker) = PlaceText.named(trimmed) {
                request.query = query
                request.marker = marker
                return
            }
        }
        request.query = trimmed
    }

    /// Parses a comma list of views (`satellite,traffic`); an empty list clears all views.
    mutating func viewsValue(_ parameter: Parameter) -> Set<MapsView>? {
        guard let value = parameter.value else { return [] }
        var views = Set<MapsView>()
        var index = value.lowerBound
        while index < value.upperBound {
            let end = firstIndex(in: index..<value.upperBound, of: UInt8(ascii: ","))
            defer { index = end + 1 }
            if let entry = SchemeVocabulary.viewWords.first(where: { equalsIgnoringCase(index..<end, $0.word) }) {
                views.insert(entry.view)
            } else if end > index {
                let name = decodedText(index..<end, plusIsSpace: true, what: "the view") ?? text(index..<end)
                if name.trimmingWhitespace().isEmpty { continue }
                report(
                    .unknownView, .warning, "'\(name)' is not a view (satellite, traffic, transit); it is ignored",
                    at: index..<end)
            }
        }
        return views
    }

    /// A travel mode named by `vocabulary` (a word in any letter case, or a letter, as
    /// `caseSensitive` says); an unknown one is ignored with a warning coded `code`.
    mutating func travelModeValue(
        _ parameter: Parameter, _ vocabulary: Vocabulary<TravelMode>, code: DiagnosticCode = .unknownTravelmode,
        caseSensitive: Bool = false
    ) -> TravelMode? {
        guard let text = decodedValue(parameter) else { return nil }
        if let mode = vocabulary.value(for: caseSensitive ? text : text.lowercased()) { return mode }
        report(
            code, .warning, "'\(parameter.name)' must be one of \(vocabulary.words); '\(text)' is ignored",
            at: parameter.location)
        return nil
    }

    /// Reads a one-letter map type (`t`): a letter mapped to nil is the plain road map (views
    /// cleared), any other adds its view.
    mutating func applyMapType(_ parameter: Parameter, _ types: Vocabulary<MapsView?>) {
        // An empty `t=` (web pages' embed snippets write one) leaves the map as it is.
        guard let text = decodedValue(parameter), !text.isEmpty else { return }
        guard let view = types.value(for: text) else {
            report(
                .unknownMapType, .warning,
                "'\(parameter.name)=\(text)' is not a map type (\(types.words)); it is ignored",
                at: parameter.location)
            return
        }
        request.views = (request.views ?? []).union(view.map { [$0] } ?? [])
    }

    mutating func unknownParameter(_ parameter: Parameter) {
        report(
            .unknownParameter, .note, "'\(parameter.name)' is not a parameter of this link form; it is ignored",
            at: parameter.nameRange)
    }

    /// The parameters without repeats: a name given again is reported and left out (the first
    /// one is used).
    mutating func firstOfEachName(_ parameters: [Parameter]) -> [Parameter] {
        guard parameters.contains(where: \.isRepeat) else { return parameters }
        for parameter in parameters where parameter.isRepeat { duplicateParameter(parameter) }
        return parameters.filter { !$0.isRepeat }
    }

    /// `saddr` or `daddr` as the URL scheme and Apple Maps read them: a place each (blank is
    /// the current location). False when the value could not be decoded (already reported).
    mutating func readDirectionsEnd(_ parameter: Parameter, into directions: inout Directions) -> Bool {
        guard let text = decodedValue(parameter) else { return false }
        let end = waypoint(text, name: parameter.name, at: parameter.location)
        if parameter.name == "saddr" { directions.origin = end } else { directions.destination = end }
        return true
    }

    mutating func duplicateParameter(_ parameter: Parameter) {
        report(
            .duplicateParameter, .warning, "'\(parameter.name)' is given more than once; the first one is used",
            at: parameter.whole)
    }
}
