import Foundation
import GeoCore

/// "Open now" and "open at 20:00" in a search text, in the four languages: "pharmacy open
/// now", "farmacia abierta ahora", "farmacia aperta ora", "दवाखाना अभी खुला", "cafe open at
/// 8pm", "bar abierto a las 23:00", "bar aperto alle 23", "20:00 बजे खुला".
public enum OpenFilter: Sendable, Equatable {
    /// Open at the search's moment.
    case now
    /// Open at this time of day on the place's clock (hour 0–23, minute 0–59): today's, or
    /// tomorrow's when today's has passed.
    case at(hour: Int, minute: Int)

    /// The filter a text asks for and the text without its words; nil and the text as it is
    /// when it asks for none.
    public static func read(_ text: String) -> (filter: OpenFilter?, rest: String) {
        let whole = NSRange(text.startIndex..., in: text)
        for pattern in [nowPattern, hindiNowPattern] {
            if let match = pattern.firstMatch(in: text, range: whole) {
                return (.now, removing(match.range, from: text))
            }
        }
        for pattern in [atPattern, hindiAtPattern] {
            guard let match = pattern.firstMatch(in: text, range: whole),
                let hour = number(match, "hour", in: text)
            else { continue }
            let minute = number(match, "minute", in: text) ?? 0
            let meridiem = Range(match.range(withName: "meridiem"), in: text).map { text[$0].lowercased() }
            var clock = hour
            if meridiem == "pm", hour < 12 { clock += 12 }
            if meridiem == "am", hour == 12 { clock = 0 }
            guard (0...23).contains(clock), (0...59).contains(minute) else { continue }
            return (.at(hour: clock, minute: minute), removing(match.range, from: text))
        }
        return (nil, text)
    }

    /// The moment a place must be open at: `now`, or the time of day on `zone`'s clock next
    /// reached from `now` (within the minute just gone).
    public func moment(from now: Date, in zone: TimeZone) -> Date {
        guard case .at(let hour, let minute) = self else { return now }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let today = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: now) else { return now }
        return today < now.addingTimeInterval(-60) ? calendar.date(byAdding: .day, value: 1, to: today) ?? today : today
    }

    private static func regex(_ pattern: String) -> NSRegularExpression {
        // The patterns are constants: a failure is a programming error caught by the tests.
        try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
    }

    private static let nowPattern = regex(
        #"\b(open now|opened now|abiert[oa]s? ahora|apert[oaie] (ora|adesso))\b"#)
    private static let hindiNowPattern = regex(#"अभी खुल[ाीे]"#)
    private static let atPattern = regex(
        #"\b(open at|abiert[oa]s? a las?|apert[oaie] all[e'’]?)\s*(?<hour>\d{1,2})(?::(?<minute>\d{2}))?\s*(?<meridiem>am|pm)?(?!\w)"#
    )
    private static let hindiAtPattern = regex(
        #"(?<hour>\d{1,2})(?::(?<minute>\d{2}))?\s*बजे\s*खुल[ाीे]"#)

    private static func number(_ match: NSTextCheckingResult, _ name: String, in text: String) -> Int? {
        Range(match.range(withName: name), in: text).flatMap { Int(text[$0]) }
    }

    private static func removing(_ range: NSRange, from text: String) -> String {
        guard let range = Range(range, in: text) else { return text }
        var rest = text
        rest.removeSubrange(range)
        return rest.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .trimmingCharacters(in: CharacterSet(charactersIn: ",;").union(.whitespaces))
    }
}

/// A place's opening hours at the moment of a search: what its `opening_hours` says then,
/// on its own clock.
public struct PlaceOpening: Sendable, Equatable {
    /// The status at ``moment``.
    public var status: OpeningHours.Status
    /// The place's time zone.
    public var zone: TimeZone
    /// The moment the status is of (the search's).
    public var moment: Date

    /// "Open until 20:00" in `words`' language.
    public func sentence(_ words: Phrasebook) -> String { status.sentence(words, now: moment, zone: zone) }

    /// When the status changes, on the place's clock (`2026-12-07T18:00+02:00`); nil for never.
    public var changesText: String? {
        guard let changes = status.changes else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [
            .withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate, .withTimeZone,
            .withColonSeparatorInTimeZone,
        ]
        return formatter.string(from: changes)
    }
}

extension PlaceSearch {
    /// A place's opening hours at `moment` on its clock; nil without a readable
    /// `opening_hours`.
    func opening(_ tags: [String: String], at place: Coordinate, _ moment: Date) -> PlaceOpening? {
        guard let (hours, zone) = hours(tags, at: place) else { return nil }
        return PlaceOpening(status: hours.status(at: moment, in: zone), zone: zone, moment: moment)
    }

    /// True when a match's hours say it is open as `filter` asks (places without readable
    /// hours are not).
    func isOpen(_ match: Match, _ filter: OpenFilter, _ moment: Date) -> Bool {
        guard let (hours, zone) = hours(match.feature.tags, at: match.coordinate) else { return false }
        return hours.status(at: filter.moment(from: moment, in: zone), in: zone).isOpen
    }

    /// A place's `opening_hours`, read, and its clock: its `timezone` tag, else the zone of
    /// its country (`addr:country`, `country_code`) nearest it, else the nearest zone.
    private func hours(_ tags: [String: String], at place: Coordinate) -> (OpeningHours, TimeZone)? {
        guard let value = tags["opening_hours"], let hours = try? OpeningHours(value),
            let zone = TimeZones.zone(
                at: place, country: tags["addr:country"] ?? tags["country_code"], identifier: tags["timezone"])
        else { return nil }
        return (hours, zone)
    }
}
