import Foundation

/// The time zone of a place from the system's time zone table (`zone1970.tab` of the IANA
/// database, `/usr/share/zoneinfo`, Debian's `tzdata`): the zone whose principal city is
/// nearest among the zones of the place's country, or among all zones when the country is
/// not known or not listed.
public enum TimeZones {
    /// One zone of the table: the countries it covers (ISO 3166 alpha-2), its principal
    /// city's position and its identifier (`Europe/Helsinki`).
    struct Zone: Sendable {
        var countries: [String]
        var city: Coordinate
        var identifier: String
    }

    /// The table, read once; empty when the system has none.
    static let table: [Zone] = {
        for path in ["/usr/share/zoneinfo/zone1970.tab", "/usr/share/zoneinfo/zone.tab"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let zones = text.split(separator: "\n").compactMap(zone(of:))
            if !zones.isEmpty { return zones }
        }
        return []
    }()

    /// A line `FI,AX\t+6010+02458\tEurope/Helsinki`; nil for comments and unreadable lines.
    static func zone(of line: Substring) -> Zone? {
        guard !line.hasPrefix("#") else { return nil }
        let fields = line.split(separator: "\t")
        guard fields.count >= 3, let city = position(fields[1]) else { return nil }
        return Zone(
            countries: fields[0].split(separator: ",").map(String.init), city: city, identifier: String(fields[2]))
    }

    /// `±DDMM±DDDMM` or `±DDMMSS±DDDMMSS` as a coordinate.
    static func position(_ text: Substring) -> Coordinate? {
        let characters = Array(text)
        guard let split = characters.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        func degrees(_ part: ArraySlice<Character>, degreeDigits: Int) -> Double? {
            guard let sign = part.first, sign == "+" || sign == "-" else { return nil }
            let digits = Array(part.dropFirst())
            guard digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4,
                let whole = Int(String(digits[0..<degreeDigits])),
                let minutes = Int(String(digits[degreeDigits..<(degreeDigits + 2)]))
            else { return nil }
            let seconds = digits.count > degreeDigits + 2 ? Int(String(digits[(degreeDigits + 2)...])) ?? 0 : 0
            let value = Double(whole) + Double(minutes) / 60 + Double(seconds) / 3600
            return sign == "-" ? -value : value
        }
        guard let latitude = degrees(characters[..<split], degreeDigits: 2),
            let longitude = degrees(characters[split...], degreeDigits: 3)
        else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The zone of a place: `identifier` when it names one (an OSM `timezone` tag), else the
    /// nearest zone of `country` (ISO 3166 alpha-2, any case), else the nearest of all; nil
    /// when the system has no table.
    public static func zone(at place: Coordinate, country: String? = nil, identifier: String? = nil) -> TimeZone? {
        if let identifier, let zone = TimeZone(identifier: identifier) { return zone }
        let code = country?.uppercased()
        let candidates = code.map { code in table.filter { $0.countries.contains(code) } } ?? []
        let nearest = (candidates.isEmpty ? table : candidates).min {
            place.distance(to: $0.city) < place.distance(to: $1.city)
        }
        return nearest.flatMap { TimeZone(identifier: $0.identifier) }
    }
}
