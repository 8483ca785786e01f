/// One point of a GPX file: where, and when when it says.
public struct GPXPoint: Sendable, Equatable {
    /// Decimal degrees, WGS 84.
    public var latitude: Double
    public var longitude: Double
    /// Seconds since 1970-01-01T00:00:00Z (UNIX time, as OSRM's `timestamps`); nil without
    /// a `<time>`.
    public var time: Double?
}

/// Reads the points of a GPX 1.0 or 1.1 file (GPS traces as devices and OpenStreetMap's trace
/// uploads write them): every track's points (`<trkpt>`) in order, segment after segment and
/// track after track; a file without tracks gives its route's points (`<rtept>`), else its
/// waypoints (`<wpt>`). Each point's `lat` and `lon`, and its `<time>` (ISO 8601, as GPX writes
/// it: `2026-12-01T10:15:30Z`, fractions of a second and an offset such as `+01:00` read).
/// Errors name the line and column; the XML is read by the same scanner as OSM XML's.
public enum GPXReader {
    /// The points of the GPX file at `path` (plain, `.gz` or `.bz2`).
    ///
    /// - Throws: ``OSMReaderError`` for a file that cannot be read, is not GPX, or has a point
    ///   without valid coordinates or with a time that is not ISO 8601.
    public static func points(path: String) throws(OSMReaderError) -> [GPXPoint] {
        var scanner = XMLScanner(stream: try ByteStream(path: path))
        scanner.keepsText = true
        let root = try scanner.next()
        guard root.kind == .start, scanner.matches(root.name, "gpx") else {
            throw OSMReaderError(
                kind: .malformed,
                message: "the root element is <\(scanner.text(root.name))>, not <gpx>: this is not a GPX file",
                offset: root.offset, line: root.line, column: root.column)
        }
        // Points by kind: tracks', routes', waypoints'.
        var found: [[GPXPoint]] = [[], [], []]
        var current: (kind: Int, point: GPXPoint)?
        var inTime = false
        while true {
            let markup = try scanner.next()
            switch markup.kind {
            case .endOfFile:
                return found.first { !$0.isEmpty } ?? []
            case .start:
                let kinds: [StaticString] = ["trkpt", "rtept", "wpt"]
                if let kind = kinds.firstIndex(where: { scanner.matches(markup.name, $0) }) {
                    let point = try coordinates(of: markup, in: scanner)
                    if markup.isEmpty { found[kind].append(point) } else { current = (kind, point) }
                } else if current != nil, scanner.matches(markup.name, "time"), !markup.isEmpty {
                    inTime = true
                }
            case .end:
                if inTime, scanner.matches(markup.name, "time") {
                    inTime = false
                    let text = String(decoding: scanner.text, as: UTF8.self)
                    guard let seconds = unixTime(text) else {
                        throw OSMReaderError(
                            kind: .malformed,
                            message: "the time '\(text.prefix(40))' is not an ISO 8601 date and time",
                            offset: markup.offset, line: markup.line, column: markup.column)
                    }
                    current?.point.time = seconds
                } else if let (kind, point) = current,
                    ["trkpt", "rtept", "wpt"].contains(where: { scanner.matches(markup.name, $0) })
                {
                    found[kind].append(point)
                    current = nil
                }
            }
        }
    }

    /// A point's `lat` and `lon` attributes.
    private static func coordinates(of markup: XMLMarkup, in scanner: XMLScanner) throws(OSMReaderError) -> GPXPoint {
        func value(_ name: StaticString, limit: Double) -> Double? {
            guard let attribute = scanner.attributes.first(where: { scanner.matches($0.name, name) }),
                let number = Double(scanner.text(attribute.value)), abs(number) <= limit
            else { return nil }
            return number
        }
        guard let latitude = value("lat", limit: 90), let longitude = value("lon", limit: 180) else {
            throw OSMReaderError(
                kind: .malformed,
                message:
                    "<\(scanner.text(markup.name))> needs lat (-90 to 90) and lon (-180 to 180) in decimal degrees",
                offset: markup.offset, line: markup.line, column: markup.column)
        }
        return GPXPoint(latitude: latitude, longitude: longitude, time: nil)
    }

    /// Seconds since 1970 of an ISO 8601 date and time `YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]`
    /// (no zone: UTC); nil for anything else.
    public static func unixTime(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
            expect(0x54) || expect(0x20), let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A),
            let second = digits(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second <= 60
        else { return nil }
        var fraction = 0.0
        if expect(0x2E) {
            var scale = 0.1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if expect(0x5A) {
            offset = 0
        } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            let sign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let hours = digits(2) else { return nil }
            _ = expect(0x3A)  // `+01:00` or `+0100`
            guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
        }
        guard index == bytes.count else { return nil }
        // Days from 1970-01-01 of the civil date (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second - offset) + fraction
    }
}
