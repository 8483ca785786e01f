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

    static func read(_ text: String) -> Reading {
        var body = Substring(text)
        trimSpaces(&body)
        var label: String?
        // The coordinate part never holds a parenthesis, so the label starts at the first one.
        if body.hasSuffix(")"), let open = body.firstIndex(of: "(") {
            let inner = body[body.index(after: open)..<body.index(before: body.endIndex)]
            label = String(inner).trimmingWhitespace()
            body = body[..<open]
            trimSpaces(&body)
        }
        if body.lowercased().hasPrefix("loc:") {
            body = body.dropFirst(4)
        } else if body.hasPrefix("@") {
            body = body.dropFirst()
        }
        guard let coordinate = Coordinate.parsePair(body) else { return .text }
        guard coordinate.isValid else { return .outOfRange }
        return .coordinate(coordinate, label: label?.isEmpty == true ? nil : label)
    }

    private static func trimSpaces(_ text: inout Substring) {
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
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
