import GeoCore

/// Reads decoded parameter text that may name a place by coordinates.
///
/// Accepted coordinate text: an optional `loc:` or `@` prefix, `latitude,longitude` in
/// ``DecimalText``'s strict grammar (spaces allowed around the comma) or with hemisphere
/// letters instead of signs (`N34.99393,W106.61568`, `34.99393N,106.61568W`: N or S with the
/// latitude, E or W with the longitude, before or after the number, never with a sign), in
/// degrees, minutes and seconds as Google names a dropped pin (`48°51'29.6"N 2°17'40.2"E`,
/// ``DegreesText``), and an optional trailing `(label)`. Anything else is free text; `NAME@latitude,longitude` is a named
/// position (``named(_:)``).
enum PlaceText {
    enum Reading: Equatable {
        /// A coordinate in range, with the label that followed it, if any.
        case coordinate(Coordinate, label: String?)
        /// Shaped like a coordinate, but latitude or longitude is out of range.
        case outOfRange
        /// Free text (an address, a name, a query).
        case text
    }

    /// True when `text`, given alone as a search, reads back as this same text: it is not
    /// coordinate-shaped, does not end in `@latitude,longitude` and holds no `/data=` tail.
    static func readsBackAsText(_ text: String) -> Bool {
        guard case .text = read(text), withoutDataTail(text) == text else { return false }
        guard let at = text.utf8.lastIndex(of: UInt8(ascii: "@")) else { return true }
        if case .coordinate(_, nil) = read(String(text[text.utf8.index(after: at)...])) { return false }
        return true
    }

    static func read(_ text: String) -> Reading {
        var text = text
        return text.withUTF8 { read(bytes: $0) }
    }

    static func read(bytes: UnsafeBufferPointer<UInt8>) -> Reading {
        var start = 0
        var end = bytes.count
        trimSpaces(bytes, &start, &end)
        var label: String?
        // The coordinate part never holds a parenthesis, so the label starts at the first one.
        if end > start, bytes[end - 1] == UInt8(ascii: ")"),
            let open = bytes[start..<end].firstIndex(of: UInt8(ascii: "("))
        {
            label = String(decoding: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<(end - 1)]), as: UTF8.self)
                .trimmingWhitespace()
            end = open
            trimSpaces(bytes, &start, &end)
        }
        if end - start >= 4, bytes[start] | 0x20 == UInt8(ascii: "l"), bytes[start + 1] | 0x20 == UInt8(ascii: "o"),
            bytes[start + 2] | 0x20 == UInt8(ascii: "c"), bytes[start + 3] == UInt8(ascii: ":")
        {
            start += 4
        } else if end > start, bytes[start] == UInt8(ascii: "@") {
            start += 1
        }
        let pair = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard mayBeCoordinate(pair),
            let coordinate = Coordinate.parsePair(bytes: pair) ?? hemispherePair(pair) ?? DegreesText.pair(pair)
        else { return .text }
        guard coordinate.isValid else { return .outOfRange }
        return .coordinate(coordinate, label: label?.isEmpty == true ? nil : label)
    }

    /// False as soon as `bytes` hold a byte no coordinate grammar above uses (a letter other
    /// than N, S, E, W, a symbol other than the signs, separators and degree marks), so that
    /// ordinary text is told apart in one pass.
    private static func mayBeCoordinate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "-"),
                UInt8(ascii: "+"), UInt8(ascii: " "), UInt8(ascii: "'"), UInt8(ascii: "\""),
                UInt8(ascii: "N"), UInt8(ascii: "S"), UInt8(ascii: "E"), UInt8(ascii: "W"),
                UInt8(ascii: "n"), UInt8(ascii: "s"), UInt8(ascii: "e"), UInt8(ascii: "w"):
                continue
            case 0x80...0xFF:
                // Degree signs and primes are multi-byte (`°` C2 B0, `′` E2 80 B2, …).
                continue
            default:
                return false
            }
        }
        return true
    }

    /// `N34.99393,W106.61568` or `34.99393N,106.61568W` (a space may stand between letter and
    /// number): unsigned numbers, N/S on the first, E/W on the second.
    private static func hemispherePair(_ bytes: UnsafeBufferPointer<UInt8>) -> Coordinate? {
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")),
            let latitude = hemisphereNumber(
                UnsafeBufferPointer(rebasing: bytes[..<comma]), positive: "N", negative: "S"),
            let longitude = hemisphereNumber(
                UnsafeBufferPointer(rebasing: bytes[(comma + 1)...]), positive: "E", negative: "W")
        else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// An unsigned decimal with a hemisphere letter before or after it.
    private static func hemisphereNumber(
        _ bytes: UnsafeBufferPointer<UInt8>, positive: Unicode.Scalar, negative: Unicode.Scalar
    ) -> Double? {
        var start = 0
        var end = bytes.count
        trimSpaces(bytes, &start, &end)
        guard end - start >= 2 else { return nil }
        func sign(_ byte: UInt8) -> Double? {
            switch byte & ~0x20 {
            case UInt8(ascii: positive): 1
            case UInt8(ascii: negative): -1
            default: nil
            }
        }
        let factor: Double
        if let leading = sign(bytes[start]) {
            factor = leading
            start += 1
        } else if let trailing = sign(bytes[end - 1]) {
            factor = trailing
            end -= 1
        } else {
            return nil
        }
        trimSpaces(bytes, &start, &end)
        guard start < end, bytes[start] != UInt8(ascii: "-"), bytes[start] != UInt8(ascii: "+"),
            let value = DecimalText.parse(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        else { return nil }
        return factor * value
    }

    /// `NAME@latitude,longitude`: a name (not blank) and a position in range after the last
    /// `@`; nil for anything else.
    static func named(_ text: String) -> (name: String, coordinate: Coordinate)? {
        // Most texts hold no '@': tell so without copying or calling a closure.
        guard text.utf8.withContiguousStorageIfAvailable({ $0.contains(UInt8(ascii: "@")) }) ?? true else {
            return nil
        }
        var text = text
        return text.withUTF8 { bytes in
            guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0,
                case .coordinate(let coordinate, nil) = read(bytes: UnsafeBufferPointer(rebasing: bytes[(at + 1)...]))
            else { return nil }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<at]), as: UTF8.self).trimmingWhitespace()
            return name.isEmpty ? nil : (name, coordinate)
        }
    }

    /// The text without a `/data=…` tail glued onto it (old exports append the desktop URL's
    /// blob to a `q` value); the tail's numbers are never read as a position.
    static func withoutDataTail(_ text: String) -> String {
        guard let cut = firstOffset(of: "/data=", in: text) else { return text }
        return String(decoding: text.utf8.prefix(cut), as: UTF8.self)
    }

    /// The UTF-8 offset of `word` (ASCII) in `text`, or nil; no allocation for native strings.
    static func firstOffset(of word: StaticString, in text: String) -> Int? {
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        func search(_ haystack: UnsafeBufferPointer<UInt8>) -> Int? {
            guard haystack.count >= needle.count, let first = needle.first else { return nil }
            var offset = 0
            while offset + needle.count <= haystack.count {
                if haystack[offset] == first
                    && UnsafeBufferPointer(rebasing: haystack[offset..<(offset + needle.count)]).elementsEqual(needle)
                {
                    return offset
                }
                offset += 1
            }
            return nil
        }
        if let found = text.utf8.withContiguousStorageIfAvailable(search) { return found }
        return Array(text.utf8).withUnsafeBufferPointer(search)
    }

    /// True when `text` is how apps write the user's location as a directions end ("My
    /// Location", "Current Location", in the four languages of ``currentLocationNames``), in
    /// any case of ASCII letters; compared byte by byte, without allocating.
    static func namesCurrentLocation(_ text: String) -> Bool {
        let utf8 = text.utf8
        // Every name starts with one of these bytes (ASCII in either case, or Devanagari's lead
        // byte): most texts are told apart by their first byte.
        switch utf8.first.map({ $0 | 0x20 }) {
        case UInt8(ascii: "m"), UInt8(ascii: "c"), UInt8(ascii: "y"), UInt8(ascii: "t"), UInt8(ascii: "u"),
            UInt8(ascii: "l"), UInt8(ascii: "p"), 0xE0:
            break
        default:
            return false
        }
        let length = utf8.count
        guard length >= currentLocationLengths.lowerBound, length <= currentLocationLengths.upperBound else {
            return false
        }
        return currentLocationBytes.contains { name in
            name.count == length
                && zip(name, utf8).allSatisfy { expected, byte in
                    expected == byte || (byte >= 65 && byte <= 90 && expected == byte + 32)
                }
        }
    }

    private static let currentLocationBytes = currentLocationNames.map { Array($0.utf8) }
    private static let currentLocationLengths =
        currentLocationBytes.map(\.count).min()!...currentLocationBytes.map(\.count).max()!

    /// The user's location as Google Maps and other apps write it into `saddr`, `origin` and
    /// `/dir/` paths: English, Spanish, Italian and Hindi.
    static let currentLocationNames: [String] = [
        "my location", "current location", "your location", "mi ubicación", "tu ubicación", "ubicación actual",
        "la mia posizione", "la tua posizione", "posizione attuale", "मेरा स्थान", "आपका स्थान", "वर्तमान स्थान",
    ]

    /// The text inside a pair of single quotes (`'48.85,2.35'`), or nil.
    static func unquoted(_ text: String) -> String? {
        guard text.utf8.first == UInt8(ascii: "'"), text.utf8.count >= 2, text.utf8.last == UInt8(ascii: "'") else {
            return nil
        }
        return String(text.dropFirst().dropLast())
    }

    private static func trimSpaces(_ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int, _ end: inout Int) {
        while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
    }
}

extension Waypoint {
    /// Reads a place as `saddr`/`daddr` would: blank or "My Location"
    /// (``PlaceText/currentLocationNames``) is the current location, a `latitude,longitude` in
    /// range, bare or in single quotes, is a coordinate (a trailing `(label)` is dropped),
    /// `NAME@latitude,longitude` a named place, anything else a query.
    public init(parsing text: String) {
        var trimmed = text.trimmingWhitespace()
        if let inner = PlaceText.unquoted(trimmed), case .coordinate = PlaceText.read(inner) { trimmed = inner }
        if trimmed.isEmpty || PlaceText.namesCurrentLocation(trimmed) {
            self = .currentLocation
        } else if case .coordinate(let coordinate, _) = PlaceText.read(trimmed) {
            self = .coordinate(coordinate)
        } else if let (name, coordinate) = PlaceText.named(trimmed) {
            self = .place(name: name, coordinate: coordinate)
        } else {
            self = .query(trimmed)
        }
    }
}
