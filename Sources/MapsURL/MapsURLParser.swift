import GeoCore

/// Reads untrusted link text into a ``MapsRequest`` with diagnostics.
///
/// Forms: `comgooglemaps://`, `comgooglemaps-x-callback://`, `comgooglemapsurl://`, Google Maps
/// web URLs (desktop paths, legacy parameters, Maps URLs with `api=1`, Universal Links with or
/// without a scheme), `goo.gl/maps` and `maps.app.goo.gl` short links (recognised, never
/// resolved), RFC 5870 `geo:` URIs and Apple Maps links. One bad parameter never discards the
/// rest of the request; see ``PercentDecoding`` for the decoding policy, ``HostPolicy`` and
/// ``CallbackPolicy`` for the security rules.
public enum MapsURLParser {
    /// Longest accepted input, in UTF-8 bytes after trimming surrounding whitespace.
    public static let maxInputLength = 8192
    /// Most query parameters read from one link; the rest are ignored with a warning.
    public static let maxParameters = 256
    /// Longest accepted decoded text value (a query or an address), in bytes. Maps URLs are
    /// limited to 2,048 characters, so no real value comes close.
    public static let maxTextLength = 2048

    /// Parses one link.
    ///
    /// - Parameter text: the link; surrounding whitespace is ignored.
    /// - Returns: the request (nil when the link as a whole was rejected), its form and the
    ///   diagnostics, whose offsets count characters of `text`.
    public static func parse(_ text: String) -> ParsedMapsURL {
        var input = text
        return input.withUTF8 { bytes in
            var reader = LinkReader(bytes: bytes)
            return reader.read()
        }
    }
}

/// A query parameter located in the input; `value` is nil for a bare name (`&spam&`).
struct Parameter {
    var name: String
    var nameRange: Range<Int>
    var value: Range<Int>?
    /// True when an earlier parameter of the same query has the same name (first one wins).
    var isRepeat = false
    var whole: Range<Int> { nameRange.lowerBound..<(value?.upperBound ?? nameRange.upperBound) }
}

/// The state of reading one link: the request being built and the diagnostics so far.
/// Offsets are UTF-8 byte offsets until ``finish(form:)`` turns them into character offsets.
struct LinkReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var request = MapsRequest()
    private var pending: [(code: DiagnosticCode, severity: Diagnostic.Severity, message: String, range: Range<Int>)] =
        []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func read() -> ParsedMapsURL {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else {
            report(.empty, .error, "the link is empty", at: start..<start)
            return finish(form: nil, rejected: true)
        }
        guard end - start <= MapsURLParser.maxInputLength else {
            report(
                .tooLong, .error, "the link is longer than \(MapsURLParser.maxInputLength) bytes",
                at: (start + MapsURLParser.maxInputLength)..<end)
            return finish(form: nil, rejected: true)
        }
        let (scheme, afterColon) = scanScheme(start, end)
        switch scheme {
        case .comgooglemaps:
            return readSchemeLink(afterColon..<end, form: .comgooglemaps)
        case .comgooglemapsXCallback:
            return readSchemeLink(afterColon..<end, form: .comgooglemapsXCallback)
        case .comgooglemapsurl:
            return readWebLink(afterColon..<end, schemeRange: start..<afterColon, wrapped: true)
        case .web:
            return readWebLink(afterColon..<end, schemeRange: start..<afterColon, wrapped: false)
        case .geo:
            return readGeoLink(afterColon..<end)
        case .appleMaps:
            return readAppleSchemeLink(afterColon..<end)
        case .none:
            return readWebLink(start..<end, schemeRange: nil, wrapped: false)
        case .unknown:
            let name = text(start..<(afterColon - 1)).lowercased()
            report(.unsupportedScheme, .error, "'\(name):' links are not maps links", at: start..<(afterColon - 1))
            return finish(form: nil, rejected: true)
        }
    }

    /// The schemes the parser knows.
    private enum Scheme {
        case comgooglemaps, comgooglemapsXCallback, comgooglemapsurl, web, geo, appleMaps, unknown
        /// No `scheme:` at all (a Universal Link may omit it).
        case none
    }

    /// The scheme and the offset after its colon; `.none` when the text starts with no
    /// `scheme:` (a Universal Link may omit it).
    private func scanScheme(_ start: Int, _ end: Int) -> (Scheme, Int) {
        var index = start
        guard index < end, isLetter(bytes[index]) else { return (.none, start) }
        var hasDot = false
        while index < end, index - start < 40 {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { break }
            guard
                isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            else { return (.none, start) }
            hasDot = hasDot || byte == UInt8(ascii: ".")
            index += 1
        }
        guard index < end, bytes[index] == UInt8(ascii: ":") else { return (.none, start) }
        // "maps.google.com:443/…" has no scheme: a scheme has no dot followed by a port.
        if hasDot, index + 1 < end, isDigit(bytes[index + 1]) { return (.none, start) }
        let range = start..<index
        let scheme: Scheme
        switch range.count {
        case 3 where equalsIgnoringCase(range, "geo"): scheme = .geo
        case 4 where equalsIgnoringCase(range, "http"): scheme = .web
        case 4 where equalsIgnoringCase(range, "maps"): scheme = .appleMaps
        case 5 where equalsIgnoringCase(range, "https"): scheme = .web
        case 13 where equalsIgnoringCase(range, "comgooglemaps"): scheme = .comgooglemaps
        case 16 where equalsIgnoringCase(range, "comgooglemapsurl"): scheme = .comgooglemapsurl
        case 24 where equalsIgnoringCase(range, "comgooglemaps-x-callback"): scheme = .comgooglemapsXCallback
        default: scheme = .unknown
        }
        return (scheme, index + 1)
    }

    /// True when `range` holds `word` (lower-case ASCII) in any letter case.
    func equalsIgnoringCase(_ range: Range<Int>, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        let wordBytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for offset in 0..<wordBytes.count {
            let byte = bytes[range.lowerBound + offset]
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if lowered != wordBytes[offset] { return false }
        }
        return true
    }

    // MARK: Diagnostics

    mutating func report(
        _ code: DiagnosticCode, _ severity: Diagnostic.Severity, _ message: String, at range: Range<Int>
    ) {
        if pending.isEmpty { pending.reserveCapacity(4) }
        pending.append((code, severity, message, range))
    }

    /// Builds the result; `rejected` drops the request (the link as a whole is unusable).
    mutating func finish(form: LinkForm?, rejected: Bool = false) -> ParsedMapsURL {
        if pending.isEmpty { return ParsedMapsURL(request: rejected ? nil : request, form: form, diagnostics: []) }
        var diagnostics: [Diagnostic] = []
        diagnostics.reserveCapacity(pending.count)
        for item in pending.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let offset = characterCount(0..<min(item.range.lowerBound, bytes.count))
            let length = characterCount(item.range.clamped(to: 0..<bytes.count))
            diagnostics.append(
                Diagnostic(
                    code: item.code, severity: item.severity, message: item.message, offset: offset, length: length))
        }
        return ParsedMapsURL(request: rejected ? nil : request, form: form, diagnostics: diagnostics)
    }

    private func characterCount(_ range: Range<Int>) -> Int {
        // Printable ASCII is one character per byte (a CR LF pair would be one character).
        if bytes[range].allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return range.count }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self).count
    }

    // MARK: Scanning

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The first offset in `range` holding one of the stop bytes, or `range.upperBound`.
    @inline(__always)
    func firstIndex(in range: Range<Int>, of first: UInt8, _ second: UInt8 = 0, _ third: UInt8 = 0) -> Int {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == first || (byte == second && second != 0) || (byte == third && third != 0) { return index }
            index += 1
        }
        return index
    }

    /// True when two ranges of the input hold the same bytes.
    func sameBytes(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
        guard first.count == second.count else { return false }
        for offset in 0..<first.count where bytes[first.lowerBound + offset] != bytes[second.lowerBound + offset] {
            return false
        }
        return true
    }

    func hasPrefix(_ range: Range<Int>, _ prefix: StaticString) -> Bool {
        guard range.count >= prefix.utf8CodeUnitCount else { return false }
        let prefixBytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        for offset in 0..<prefixBytes.count where bytes[range.lowerBound + offset] != prefixBytes[offset] {
            return false
        }
        return true
    }

    /// Splits a query (or fragment) into parameters: on `&` first, then on the first `=`.
    /// Empty pairs (`&&`) are skipped; names are taken raw (they are ASCII in every form).
    mutating func parameters(in range: Range<Int>) -> [Parameter] {
        var result: [Parameter] = []
        result.reserveCapacity(8)
        var index = range.lowerBound
        while index <= range.upperBound {
            let pairEnd = firstIndex(in: index..<range.upperBound, of: UInt8(ascii: "&"))
            if pairEnd > index {
                if result.count == MapsURLParser.maxParameters {
                    report(
                        .tooManyParameters, .warning,
                        "more than \(MapsURLParser.maxParameters) parameters; the rest are ignored",
                        at: index..<range.upperBound)
                    break
                }
                let equals = firstIndex(in: index..<pairEnd, of: UInt8(ascii: "="))
                var parameter = Parameter(
                    name: text(index..<equals), nameRange: index..<equals,
                    value: equals < pairEnd ? (equals + 1)..<pairEnd : nil)
                parameter.isRepeat = result.contains { sameBytes($0.nameRange, parameter.nameRange) }
                result.append(parameter)
            }
            index = pairEnd + 1
        }
        return result
    }

    // MARK: Values

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
            if decoded.utf8.count > MapsURLParser.maxTextLength {
                report(
                    .valueTooLong, .error,
                    "\(what()) is longer than \(MapsURLParser.maxTextLength) bytes; the value is ignored", at: range)
                return nil
            }
            if !allowControls && hasControls {
                report(
                    .controlCharacter, .error, "\(what()) contains a control character; the value is ignored",
                    at: range)
                return nil
            }
            return decoded
        }
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
        return checkedCoordinate(parsed, name: parameter.name, at: parameter.value ?? parameter.nameRange)
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
    mutating func numberValue(
        _ parameter: Parameter, limits: ClosedRange<Double>, maxIntegerDigits: Int = 3
    ) -> Double? {
        guard let value = withValueBytes(parameter, { DecimalText.parse($0, maxIntegerDigits: maxIntegerDigits) })
        else { return nil }
        return clamp(value, name: parameter.name, limits: limits, at: parameter.value ?? parameter.nameRange)
    }

    mutating func number(
        _ digits: UnsafeBufferPointer<UInt8>, name: String, limits: ClosedRange<Double>, at range: Range<Int>
    ) -> Double? {
        clamp(DecimalText.parse(digits, maxIntegerDigits: 3), name: name, limits: limits, at: range)
    }

    /// Reports a missing number or clamps it into `limits` with a warning.
    mutating func clamp(_ value: Double?, name: String, limits: ClosedRange<Double>, at range: Range<Int>) -> Double? {
        guard let value else {
            report(.badNumber, .error, "'\(name)' must be a plain decimal number; it is ignored", at: range)
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
    /// location, a coordinate is a point, anything else a query. Coordinate-shaped text out of
    /// range stays a query, with a warning.
    mutating func waypoint(_ text: String, name: String, at range: Range<Int>, blankIsCurrentLocation: Bool = true)
        -> Waypoint?
    {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty { return blankIsCurrentLocation ? .currentLocation : nil }
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
            return .query(trimmed)
        }
    }

    /// Applies a search text (`q`, `query`): a coordinate pins a marker, `TEXT@lat,lng` is a
    /// query with a marker, `lat,lng (label)` a marker with the label as query.
    mutating func applySearch(_ text: String, name: String, at range: Range<Int>) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            report(.emptyQuery, .warning, "'\(name)' is empty; no search is made", at: range)
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
            // `TEXT@lat,lng`: a query with a marker.
            var text = trimmed
            let split: (query: String, marker: Coordinate)? = text.withUTF8 { bytes in
                guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0,
                    case .coordinate(let coordinate, nil) = PlaceText.read(
                        bytes: UnsafeBufferPointer(rebasing: bytes[(at + 1)...]))
                else { return nil }
                return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<at]), as: UTF8.self), coordinate)
            }
            if let split {
                request.query = split.query.trimmingWhitespace()
                request.marker = split.marker
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
            if equalsIgnoringCase(index..<end, "satellite") {
                views.insert(.satellite)
            } else if equalsIgnoringCase(index..<end, "traffic") {
                views.insert(.traffic)
            } else if equalsIgnoringCase(index..<end, "transit") {
                views.insert(.transit)
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

    /// Reads a one-letter map type (`t`): a letter mapped to nil is the plain road map (views
    /// cleared), any other adds its view.
    mutating func applyMapType(_ parameter: Parameter, _ types: [String: MapsView?]) {
        guard let text = decodedValue(parameter) else { return }
        guard let view = types[text] else {
            let letters = types.keys.sorted().joined(separator: ", ")
            report(
                .unknownMapType, .warning, "'t=\(text)' is not a map type (\(letters)); it is ignored",
                at: parameter.value ?? parameter.nameRange)
            return
        }
        request.views = (request.views ?? []).union(view.map { [$0] } ?? [])
    }

    mutating func unknownParameter(_ parameter: Parameter) {
        report(
            .unknownParameter, .note, "'\(parameter.name)' is not a parameter of this link form; it is ignored",
            at: parameter.nameRange)
    }

    mutating func duplicateParameter(_ parameter: Parameter) {
        report(
            .duplicateParameter, .warning, "'\(parameter.name)' is given more than once; the first one is used",
            at: parameter.whole)
    }

    /// Reads x-source / x-success / x-error / x-cancel; returns false for other names.
    mutating func readCallbackParameter(_ parameter: Parameter, into parts: inout CallbackParts) -> Bool {
        switch parameter.name {
        case "x-source":
            guard let text = decodedValue(parameter, allowControls: true) else { return true }
            guard let (label, changed) = CallbackPolicy.sanitizeSource(text) else {
                report(
                    .emptySource, .error, "'x-source' is empty after removing hidden characters", at: parameter.whole)
                return true
            }
            if changed {
                report(
                    .sourceSanitized, .warning,
                    "'x-source' had hidden or bidirectional characters or was over \(CallbackPolicy.maxSourceLength) characters; it was cleaned",
                    at: parameter.whole)
            }
            parts.source = label
        case "x-success", "x-error", "x-cancel":
            guard let text = decodedValue(parameter, plusIsSpace: false, allowControls: true) else { return true }
            switch CallbackPolicy.validateCallbackURL(text) {
            case .failure(let refusal):
                report(refusal.code, .error, "'\(parameter.name)' refused: \(refusal.message)", at: parameter.whole)
            case .success(let url):
                switch parameter.name {
                case "x-success": parts.success = url
                case "x-error": parts.error = url
                default: parts.cancel = url
                }
            }
        default:
            return false
        }
        return true
    }

    /// Turns the collected callback parameters into a ``Callback`` when both required ones
    /// are there; `required` makes a missing pair an error (the x-callback scheme).
    mutating func applyCallback(_ parts: CallbackParts, required: Bool, at range: Range<Int>) {
        if let source = parts.source, let success = parts.success {
            request.callback = Callback(
                validatedSource: source, success: success, error: parts.error, cancel: parts.cancel)
            return
        }
        guard required || parts.any else { return }
        let missing = [parts.source == nil ? "x-source" : nil, parts.success == nil ? "x-success" : nil]
            .compactMap { $0 }.joined(separator: " and ")
        report(
            .callbackIncomplete, .error,
            "a callback needs both x-source and x-success; \(missing) missing or refused, so no callback button is offered",
            at: range)
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// The x-callback parameters seen so far.
struct CallbackParts {
    var source: String?
    var success: String?
    var error: String?
    var cancel: String?
    var any: Bool { source != nil || success != nil || error != nil || cancel != nil }
}
