import GeoCore

/// Reads decoded parameter text that may name a place by coordinates.
///
/// Accepted coordinate text: an optional `loc:` or `@` prefix, `latitude,longitude` in
/// ``DecimalText``'s strict grammar (spaces allowed around the comma), and an optional
/// trailing `(label)`. Anything else is free text.
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
    /// coordinate-shaped and does not end in `@latitude,longitude`.
    static func readsBackAsText(_ text: String) -> Bool {
        guard case .text = read(text) else { return false }
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
        guard let coordinate = Coordinate.parsePair(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end])) else {
            return .text
        }
        guard coordinate.isValid else { return .outOfRange }
        return .coordinate(coordinate, label: label?.isEmpty == true ? nil : label)
    }

    private static func trimSpaces(_ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int, _ end: inout Int) {
        while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
    }
}

extension Waypoint {
    /// Reads a place as `saddr`/`daddr` would: blank is the current location, a
    /// `latitude,longitude` in range is a coordinate (a trailing `(label)` is dropped), anything
    /// else is a query.
    public init(parsing text: String) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty {
            self = .currentLocation
        } else if case .coordinate(let coordinate, _) = PlaceText.read(trimmed) {
            self = .coordinate(coordinate)
        } else {
            self = .query(trimmed)
        }
    }
}
