import Foundation
import GeoCore

/// The words of turn-by-turn guidance in one language, from the language's ``Phrasebook``: a
/// sentence per step with the road's name and ref as the data writes them, banners, voice
/// announcements, localized distances and durations, and a written itinerary.
public struct Instructions: Sendable {
    /// The language's words: templates, distances, durations.
    public let words: Phrasebook
    /// The language the instructions are written in.
    public var language: Language { words.language }
    /// Metric or imperial distances.
    public var units: DistanceUnits { words.units }
    var templates: Phrasebook.Templates { words.templates }

    /// Instructions in `language`, distances in `units` (metric by default).
    public init(_ language: Language, units: DistanceUnits = .metric) {
        words = Phrasebook(language, units: units)
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
        case .roundabout where step.maneuver.ring == .roundaboutTurn && modifier != .uturn:
            // A small roundabout told as the turn it is, as OSRM tells it.
            key = modifier == .straight ? "roundabout turn straight" : "roundabout turn"
        case .roundabout:
            key = step.rotaryName.isEmpty ? "roundabout" : "rotary"
            values["rotary_name"] = step.rotaryName
            let exit = step.maneuver.exit ?? 1
            values["exit"] = exit <= templates.ordinal.count ? templates.ordinal[exit - 1] : "\(exit)"
        case .notification:
            key = step.maneuver.mode == "ferry" ? "ferry" : "leave ferry"
        }
        let phrases = templates.phrase[key] ?? [:]
        var variant =
            !step.destinations.isEmpty && phrases["destination"] != nil && way.isEmpty
            ? "destination" : way.isEmpty ? "default" : "name"
        // A slip road's exit number, where the phrase says it ("Take exit 12 on the right"): the
        // first of them, as OSRM's text instructions say it.
        if let exit = step.exits.split(separator: ";").first, phrases["exit"] != nil {
            variant = !step.destinations.isEmpty && phrases["exit_destination"] != nil ? "exit_destination" : "exit"
            values["exit"] = exit.trimmingCharacters(in: .whitespaces)
        }
        return Phrasebook.fill(phrases[variant] ?? phrases["default"] ?? "", values)
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
                    Phrasebook.fill(
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
        Phrasebook.fill(
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

    /// `metres` as a step's distance (``Phrasebook/distance(_:)``).
    public func distance(_ metres: Double) -> String { words.distance(metres) }

    /// `seconds` as a step's or a route's time (``Phrasebook/duration(_:)``).
    public func duration(_ seconds: Double) -> String { words.duration(seconds) }

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
            Phrasebook.fill(
                templates.unit["total"] ?? "",
                ["distance": self.distance(distance), "duration": self.duration(duration)]))
        return lines.joined(separator: "\n")
    }

    /// The compass point nearest `bearing` (degrees clockwise from north).
    static func compass(_ bearing: Double) -> String {
        let points = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
        let index = Int(((bearing.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)) % 8
        return points[index]
    }
}
