import GeoCore

/// The state of reading one link: the request being built and the diagnostics so far.
/// Offsets are UTF-8 byte offsets until ``finish(form:)`` turns them into character offsets.
struct LinkReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var request = MapsRequest()
    private var pending: [(code: DiagnosticCode, severity: Diagnostic.Severity, message: String, range: Range<Int>)] =
        []

    /// How many links this one is nested in (a dynamic link's `link=`); nested links are
    /// never followed further.
    let depth: Int
    /// True once an `&amp;` separator has been reported (it is reported once per link).
    private var sawHTMLAmpersand = false

    init(bytes: UnsafeBufferPointer<UInt8>, depth: Int = 0) {
        self.bytes = bytes
        self.depth = depth
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
        case .googleNavigation:
            return readNavigationLink(afterColon..<end)
        case .intent:
            return readIntentLink(afterColon..<end)
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
        case comgooglemaps, comgooglemapsXCallback, comgooglemapsurl, web, geo, appleMaps, googleNavigation, intent
        case unknown
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
        case 6 where equalsIgnoringCase(range, "intent"): scheme = .intent
        case 13 where equalsIgnoringCase(range, "comgooglemaps"): scheme = .comgooglemaps
        case 16 where equalsIgnoringCase(range, "comgooglemapsurl"): scheme = .comgooglemapsurl
        case 17 where equalsIgnoringCase(range, "google.navigation"): scheme = .googleNavigation
        case 24 where equalsIgnoringCase(range, "comgooglemaps-x-callback"): scheme = .comgooglemapsXCallback
        default: scheme = .unknown
        }
        return (scheme, index + 1)
    }

    /// True when `range` holds `word` (lower-case ASCII) in any letter case.
    func equalsIgnoringCase(_ range: Range<Int>, _ word: StaticString) -> Bool {
        equalsIgnoringCase(range, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    /// True when `range` holds `word` (lower-case ASCII bytes) in any letter case.
    func equalsIgnoringCase(_ range: Range<Int>, _ word: [UInt8]) -> Bool {
        word.withUnsafeBufferPointer { equalsIgnoringCase(range, $0) }
    }

    private func equalsIgnoringCase(_ range: Range<Int>, _ wordBytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard range.count == wordBytes.count else { return false }
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
    /// True when `range` holds exactly `word`'s bytes (letter case counts).
    func isWord(_ range: Range<Int>, _ word: StaticString) -> Bool {
        range.count == word.utf8CodeUnitCount && hasPrefix(range, word)
    }

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
            if index > range.lowerBound, hasPrefix(index..<pairEnd, "amp;") {
                // `&amp;`: the link was copied from a page's HTML source.
                if !sawHTMLAmpersand {
                    report(
                        .htmlAmpersand, .note,
                        "'&amp;' is HTML's escape for '&' (a link copied from a page's source); it is read as '&'",
                        at: (index - 1)..<(index + 4))
                    sawHTMLAmpersand = true
                }
                index += 4
            }
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

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
