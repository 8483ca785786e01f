import Foundation

/// The languages OpenMaps speaks, as their ISO 639-1 codes.
public enum Language: String, Sendable, CaseIterable, Codable {
    case en, es, it, hi

    /// The language of a BCP 47 or POSIX tag OpenMaps speaks (`es`, `es-419`, `it_IT`, `HI`
    /// alike), nil for any other.
    public init?(tag: String) {
        guard let code = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first else {
            return nil
        }
        self.init(rawValue: String(code))
    }
}

/// Metres and kilometres, or feet and miles.
public enum DistanceUnits: String, Sendable {
    case metric, imperial
}

/// Everything OpenMaps says to a person, in one language: the words of turn-by-turn guidance,
/// the notes of an answer, the map's notices, distances and durations. One file per language
/// holds its templates (`PhrasebookEnglish.swift`, `…Spanish`, `…Italian`, `…Hindi`), the same
/// keys in each (a test checks); a template's `{key}` is filled with a value as written
/// (names and refs exactly as the data has them).
public struct Phrasebook: Sendable {
    /// The language every sentence is written in.
    public let language: Language
    /// Metric or imperial, for the distances it writes.
    public let units: DistanceUnits
    /// The language's templates, keyed as in every other language.
    public let templates: Templates

    /// One language's templates.
    public struct Templates: Decodable, Sendable {
        /// Compass points, `north`…`northwest`.
        public var direction: [String: String]
        /// Turn modifiers as OSRM names them (`sharp left`, `straight`, …).
        public var modifier: [String: String]
        /// `left` and `right` as a side (of a fork, a ramp, the road).
        public var side: [String: String]
        /// Exit ordinals, first to tenth.
        public var ordinal: [String]
        /// A manoeuvre's sentences by kind, then variant (`default`, `name`, `destination`;
        /// `straight`, `left`, `right` for arrivals).
        public var phrase: [String: [String: String]]
        /// Distances and durations: `m`, `km`, `ft`, `mi` (`{n}`), `minutes` (`{n}`), `hours`
        /// (`{h}`, `{m}`), `total` (`{distance}`, `{duration}`).
        public var unit: [String: String]
        /// `ahead`: an announcement before the manoeuvre; `arrive ahead`: the arrival's.
        public var voice: [String: String]
        /// The names of a route's ends on the map: `start`, `stop`, `destination`.
        public var role: [String: String]
        /// A navigation state in a line: `{instruction}`, `{distance}` to it, `{time}` and
        /// `{distance_left}` left, `{arrival}`.
        public var navigation: String
        /// An answer's notes and the map's notices, by key (``note(_:_:)``).
        public var note: [String: String]
        /// Words put into notes: travel modes, road features, a route's ends, `and`.
        public var word: [String: String]
        /// The web app's words: labels, buttons, headings and messages, by key (``app(_:_:)``).
        public var app: [String: String]
        /// Whether a sentence starts lower-case inside another (Latin scripts).
        public var lowercase: Bool
        /// The decimal mark and the thousands separator.
        public var decimal: String
        /// The thousands separator (`,` in English, `.` in Spanish and Italian).
        public var thousands: String
    }

    /// The templates of `language`.
    ///
    /// - Precondition: every language's file decodes (a test reads them all).
    public init(_ language: Language, units: DistanceUnits = .metric) {
        self.language = language
        self.units = units
        templates = Self.decoded[language]!
    }

    /// Every language's templates, decoded once, on first use.
    static let decoded: [Language: Templates] = Dictionary(
        uniqueKeysWithValues: Language.allCases.map { ($0, decode(source($0))!) })

    /// A language file's templates, nil when it does not decode.
    public static func decode(_ text: String) -> Templates? {
        try? JSONDecoder().decode(Templates.self, from: Data(text.utf8))
    }

    /// The raw text of `language`'s file.
    public static func source(_ language: Language) -> String {
        switch language {
        case .en: english
        case .es: spanish
        case .it: italian
        case .hi: hindi
        }
    }

    // MARK: Notes

    /// The note or notice `key` with its values filled in; the key itself when the language
    /// has no such template (never for the keys OpenMaps uses: a test checks every language).
    public func note(_ key: String, _ values: [String: String] = [:]) -> String {
        guard let template = templates.note[key] else { return key }
        return Self.fill(template, values)
    }

    /// A word put into notes (`driving`, `toll`, `start`, …), the key itself when missing.
    public func word(_ key: String) -> String { templates.word[key] ?? key }

    /// The web app's text `key` with its values filled in; the key itself when missing (never
    /// for the keys the app uses: a test checks every language).
    public func app(_ key: String, _ values: [String: String] = [:]) -> String {
        templates.app[key].map { Self.fill($0, values) } ?? key
    }

    /// Items as a list in a sentence: `a`, `a and b`, `a, b and c`.
    public func list(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        return items.dropLast().joined(separator: ", ") + (templates.word["and"] ?? " and ") + last
    }

    // MARK: Numbers

    /// `metres` as people read them: metres to the nearest 10 (5 under 100) below 1 km, then
    /// kilometres with one decimal; feet to the nearest 10 below a tenth of a mile, then miles.
    public func distance(_ metres: Double) -> String {
        switch units {
        case .metric:
            if metres < 1_000 {
                let step = metres < 100 ? 5.0 : 10.0
                return Self.fill(templates.unit["m"] ?? "", ["n": "\(Int((metres / step).rounded() * step))"])
            }
            return Self.fill(templates.unit["km"] ?? "", ["n": decimal(metres / 1_000)])
        case .imperial:
            let miles = metres / 1_609.344
            if miles < 0.1 {
                return Self.fill(templates.unit["ft"] ?? "", ["n": "\(Int((metres * 3.28084 / 10).rounded() * 10))"])
            }
            return Self.fill(templates.unit["mi"] ?? "", ["n": decimal(miles)])
        }
    }

    /// A distance in a sentence, rounded as far things are: metres to 10 below a kilometre,
    /// then whole kilometres with thousands grouped (`850 m`, `12 km`, `8,640 km`; `8.640 km`
    /// in Spanish and Italian); in imperial units feet below a tenth of a mile, miles with one
    /// decimal below ten, then whole miles.
    public func roundedDistance(_ metres: Double) -> String {
        switch units {
        case .metric:
            if metres < 995 {
                return Self.fill(templates.unit["m"] ?? "", ["n": "\(Int((metres / 10).rounded()) * 10)"])
            }
            return Self.fill(templates.unit["km"] ?? "", ["n": grouped(Int((metres / 1_000).rounded()))])
        case .imperial:
            let miles = metres / 1_609.344
            if miles < 9.95 { return distance(metres) }
            return Self.fill(templates.unit["mi"] ?? "", ["n": grouped(Int(miles.rounded()))])
        }
    }

    /// A limit in metres someone set, as set: metres with up to three decimals below a
    /// kilometre (`5 m`, `0,5 m` in Spanish and Italian), whole kilometres or more as
    /// ``roundedDistance(_:)`` says them (metric whatever the units: the limit was given in
    /// metres).
    public func limit(metres: Double) -> String {
        guard metres < 1_000 else { return Phrasebook(language, units: .metric).roundedDistance(metres) }
        var text = String(format: "%.3f", metres == 0 ? 0 : metres)  // not "-0"
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return Self.fill(templates.unit["m"] ?? "", ["n": text.replacingOccurrences(of: ".", with: templates.decimal)])
    }

    /// `seconds` as minutes (at least 1), or hours and minutes.
    public func duration(_ seconds: Double) -> String {
        let minutes = max(1, Int((seconds / 60).rounded()))
        if minutes < 60 { return Self.fill(templates.unit["minutes"] ?? "", ["n": "\(minutes)"]) }
        return Self.fill(templates.unit["hours"] ?? "", ["h": "\(minutes / 60)", "m": "\(minutes % 60)"])
    }

    /// `metres` with one decimal, in the language's decimal mark and word for metres (a
    /// height: `1810.0 m`, `1810,0 m`, `1810.0 मीटर`).
    public func metres(_ metres: Double) -> String {
        Self.fill(templates.unit["m"] ?? "", ["n": decimal(metres)])
    }

    /// `value` with one decimal, in the language's decimal mark.
    public func decimal(_ value: Double) -> String {
        String(format: "%.1f", value).replacingOccurrences(of: ".", with: templates.decimal)
    }

    /// A whole number with its thousands grouped by the language's separator.
    public func grouped(_ value: Int) -> String {
        var digits = String(value.magnitude)
        var text = ""
        while digits.count > 3 {
            text = templates.thousands + digits.suffix(3) + text
            digits.removeLast(3)
        }
        return (value < 0 ? "-" : "") + digits + text
    }

    /// `template` with each `{key}` replaced by its value (a key without one by nothing).
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var text = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            text += values[String(rest[rest.index(after: open)..<close])] ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return text + rest
    }
}
