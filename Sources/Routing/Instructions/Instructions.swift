import Foundation

/// The words of turn-by-turn guidance in one language, from its templates (one file per
/// language, the same keys in each: `InstructionsEnglish.swift`, `…Spanish`, `…Italian`,
/// `…Hindi`): a sentence per step with the road's name and ref as the data writes them,
/// localized distances and durations, and a written itinerary.
public struct Instructions: Sendable {
    /// The languages OpenMaps speaks, as their ISO 639-1 codes.
    public enum Language: String, Sendable, CaseIterable {
        case en, es, it, hi
    }

    /// Metres and kilometres, or feet and miles.
    public enum Units: String, Sendable {
        case metric, imperial
    }

    public let language: Language
    public let units: Units
    let templates: Templates

    struct Templates: Decodable, Sendable {
        var direction: [String: String]
        var modifier: [String: String]
        var side: [String: String]
        var ordinal: [String]
        var phrase: [String: [String: String]]
        var unit: [String: String]
        /// `ahead`: an announcement before the manoeuvre; `arrive ahead`: the arrival's.
        var voice: [String: String]
        /// The names of a route's ends on the map: `start`, `stop`, `destination`.
        var role: [String: String]
        /// A navigation state in a line: `{instruction}`, `{distance}` to it, `{time}` and
        /// `{distance_left}` left, `{arrival}`.
        var navigation: String
        /// Whether a sentence starts lower-case inside another (Latin scripts).
        var lowercase: Bool
        var decimal: String
    }

    /// The templates of `language`.
    ///
    /// - Precondition: every language's file decodes (a test reads them all).
    public init(_ language: Language, units: Units = .metric) {
        self.language = language
        self.units = units
        templates = Self.decoded[language]!
    }

    /// Every language's templates, decoded once, on first use.
    static let decoded: [Language: Templates] = Dictionary(
        uniqueKeysWithValues: Language.allCases.map { language in
            let text =
                switch language {
                case .en: english
                case .es: spanish
                case .it: italian
                case .hi: hindi
                }
            return (language, decode(text)!)
        })

    static func decode(_ text: String) -> Templates? {
        try? JSONDecoder().decode(Templates.self, from: Data(text.utf8))
    }

    /// The sentence for `step`.
    public func text(for step: Step) -> String {
        let way = wayName(step)
        let modifier = step.maneuver.modifier ?? .straight
        let side = modifier.isLeft ? "left" : "right"
        var values: [String: String] = [
            "way_name": way, "modifier": templates.modifier[modifier.rawValue] ?? "",
            "side": templates.side[side] ?? "", "destination": step.destinations,
        ]
        let key: String
        switch step.maneuver.kind {
        case .depart:
            key = "depart"
            values["direction"] = templates.direction[Self.compass(step.maneuver.bearingAfter)] ?? ""
        case .arrive:
            return templates.phrase["arrive"]?[modifier == .straight || modifier == .uturn ? "straight" : side] ?? ""
        case .turn, .endOfRoad:
            key =
                modifier == .uturn
                ? "uturn"
                : modifier == .straight && step.maneuver.kind == .turn
                    ? "turn straight"
                    : step.maneuver.kind.rawValue
        case .continue:
            key = modifier == .uturn ? "uturn" : modifier == .straight ? "continue straight" : "continue"
        case .newName: key = "new name"
        case .fork, .merge, .onRamp, .offRamp: key = step.maneuver.kind.rawValue
        case .roundabout:
            key = "roundabout"
            let exit = step.maneuver.exit ?? 1
            values["exit"] = exit <= templates.ordinal.count ? templates.ordinal[exit - 1] : "\(exit)"
        case .notification:
            key = step.maneuver.mode == "ferry" ? "ferry" : "leave ferry"
        }
        let phrases = templates.phrase[key] ?? [:]
        let variant =
            !step.destinations.isEmpty && phrases["destination"] != nil && way.isEmpty
            ? "destination" : way.isEmpty ? "default" : "name"
        return Self.fill(phrases[variant] ?? phrases["default"] ?? "", values)
    }

    /// The short text of a navigation banner for `step`: the road it leads onto (as the data
    /// names it), else its destinations, else its sentence.
    public func banner(for step: Step) -> String {
        let way = wayName(step)
        if step.maneuver.kind == .arrive { return text(for: step) }
        return !way.isEmpty ? way : !step.destinations.isEmpty ? step.destinations : text(for: step)
    }

    /// Distances before a manoeuvre at which it is announced: 500 m, 100 m, and at it.
    public static let announcementDistances = [500.0, 100.0, 0.0]

    /// What a navigation voice says of `step`'s manoeuvre as it comes: "In 500 m, turn right
    /// onto …", "In 100 m, …", then the sentence itself; the early phases only when the way
    /// before (`approach` metres) is longer than their distance. The departure is said once.
    public func voice(for step: Step, approach: Double) -> [(distance: Double, text: String)] {
        let now = text(for: step)
        guard step.maneuver.kind != .depart else { return [(0, now)] }
        var phases: [(distance: Double, text: String)] = []
        for distance in Self.announcementDistances where distance > 0 && approach > distance * 1.2 {
            var sentence = step.maneuver.kind == .arrive ? (templates.voice["arrive ahead"] ?? now) : now
            if templates.lowercase, let first = sentence.first, step.name.isEmpty || !sentence.hasPrefix(step.name) {
                sentence = first.lowercased() + sentence.dropFirst()
            }
            phases.append(
                (
                    distance,
                    Self.fill(
                        templates.voice["ahead"] ?? "", ["distance": self.distance(distance), "instruction": sentence])
                ))
        }
        phases.append((0, now))
        return phases
    }

    /// What the map calls a route's end: `start`, `stop` or `destination` in this language.
    public func role(_ key: String) -> String { templates.role[key] ?? key }

    /// A navigation state in one line: the next manoeuvre's sentence and how far it is, the time
    /// and distance left, and the arrival time as written.
    public func navigationLine(
        next: Step, distance: Double, remainingTime: Double, remainingDistance: Double, arrival: String
    ) -> String {
        Self.fill(
            templates.navigation,
            [
                "instruction": text(for: next), "distance": self.distance(distance), "time": duration(remainingTime),
                "distance_left": self.distance(remainingDistance), "arrival": arrival,
            ])
    }

    /// The road as the data names it: `name (ref)`, the name, the ref, or "".
    func wayName(_ step: Step) -> String {
        switch (step.name.isEmpty, step.ref.isEmpty) {
        case (false, false): "\(step.name) (\(step.ref))"
        case (false, true): step.name
        case (true, false): step.ref
        case (true, true): ""
        }
    }

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

    /// `seconds` as minutes (at least 1), or hours and minutes.
    public func duration(_ seconds: Double) -> String {
        let minutes = max(1, Int((seconds / 60).rounded()))
        if minutes < 60 { return Self.fill(templates.unit["minutes"] ?? "", ["n": "\(minutes)"]) }
        return Self.fill(templates.unit["hours"] ?? "", ["h": "\(minutes / 60)", "m": "\(minutes % 60)"])
    }

    /// A route written out: its steps numbered, each with the distance to the next, then the
    /// total distance and time.
    public func itinerary(_ steps: [[Step]], distance: Double, duration: Double) -> String {
        var lines: [String] = []
        for step in steps.joined() {
            let text = text(for: step)
            lines.append(
                "\(lines.count + 1). " + text
                    + (step.maneuver.kind == .arrive ? "" : " (\(self.distance(step.distance)))"))
        }
        lines.append(
            Self.fill(
                templates.unit["total"] ?? "",
                ["distance": self.distance(distance), "duration": self.duration(duration)]))
        return lines.joined(separator: "\n")
    }

    func decimal(_ value: Double) -> String {
        String(format: "%.1f", value).replacingOccurrences(of: ".", with: templates.decimal)
    }

    /// The compass point nearest `bearing` (degrees clockwise from north).
    static func compass(_ bearing: Double) -> String {
        let points = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
        let index = Int(((bearing.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)) % 8
        return points[index]
    }

    /// `template` with each `{key}` replaced by its value (a key without one by nothing).
    static func fill(_ template: String, _ values: [String: String]) -> String {
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
