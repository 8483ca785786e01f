import Foundation
import GeoCore
import Testing

/// `opening_hours` values as OpenStreetMap holds them, evaluated at given moments in
/// Helsinki's time zone (December 2026: the 5th a Saturday, the 7th a Monday), and values
/// refused with why.
@Suite struct OpeningHoursTests {
    static let helsinki = TimeZone(identifier: "Europe/Helsinki")!

    /// A moment on Helsinki's clock: `day` of December 2026 (or of `month`), `time` "HH:MM".
    static func moment(_ day: Int, _ time: String, month: Int = 12) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = helsinki
        let parts = time.split(separator: ":").compactMap { Int($0) }
        return calendar.date(
            from: DateComponents(year: 2026, month: month, day: day, hour: parts[0], minute: parts[1]))!
    }

    /// A value, a moment (day of December, time), whether it is open then and when that
    /// changes (day of December and time; nil for no change within eight days).
    struct Case: Sendable, CustomTestStringConvertible {
        var value: String
        var day: Int
        var time: String
        var open: Bool
        var changes: (day: Int, time: String)?
        var testDescription: String { "\(value) at \(day) Dec \(time)" }
    }

    static let cases: [Case] = [
        Case(
            value: "Mo-Fr 08:00-18:00; Sa 09:00-13:00; Su off", day: 7, time: "07:59", open: false,
            changes: (7, "08:00")),
        Case(
            value: "Mo-Fr 08:00-18:00; Sa 09:00-13:00; Su off", day: 7, time: "12:00", open: true, changes: (7, "18:00")
        ),
        Case(
            value: "Mo-Fr 08:00-18:00; Sa 09:00-13:00; Su off", day: 5, time: "13:00", open: false,
            changes: (7, "08:00")),
        Case(
            value: "Mo-Fr 08:00-18:00; Sa 09:00-13:00; Su off", day: 6, time: "12:00", open: false,
            changes: (7, "08:00")),
        Case(value: "24/7", day: 6, time: "03:00", open: true, changes: nil),
        // Past midnight: Sunday's hours run into Monday.
        Case(value: "Mo-Su 10:00-02:00", day: 7, time: "01:00", open: true, changes: (7, "02:00")),
        Case(value: "Mo-Su 10:00-02:00", day: 7, time: "03:00", open: false, changes: (7, "10:00")),
        Case(value: "Fr-Mo 18:00-24:00", day: 8, time: "19:00", open: false, changes: (11, "18:00")),
        Case(value: "Fr-Mo 18:00-24:00", day: 5, time: "19:00", open: true, changes: (6, "00:00")),
        Case(value: "Mo-Fr 09:00-12:00,13:00-17:30", day: 7, time: "12:30", open: false, changes: (7, "13:00")),
        Case(value: "Mo-Fr 09:00-12:00,13:00-17:30", day: 7, time: "17:29", open: true, changes: (7, "17:30")),
        // `off` with times takes them away; an additional rule adds.
        Case(value: "Mo-Fr 08:00-18:00; We 12:00-14:00 off", day: 9, time: "13:00", open: false, changes: (9, "14:00")),
        Case(value: "Mo-Fr 08:00-18:00, Sa 10:00-14:00", day: 5, time: "11:00", open: true, changes: (5, "14:00")),
        Case(value: "Mo-Fr 09:00-17:00; PH off", day: 7, time: "10:00", open: true, changes: (7, "17:00")),
        // Christmas closed: from the 24th (a Thursday) to Monday the 28th.
        Case(value: "Mo-Sa 10:00-20:00; Dec 24-26 off", day: 24, time: "12:00", open: false, changes: (28, "10:00")),
        Case(value: "Mo-Sa 10:00-20:00; Dec 24-26 off", day: 23, time: "12:00", open: true, changes: (23, "20:00")),
        // The first Sunday of December 2026 is the 6th; the last Saturday the 26th.
        Case(value: "Su[1] 10:00-14:00", day: 6, time: "11:00", open: true, changes: (6, "14:00")),
        Case(value: "Su[1] 10:00-14:00", day: 13, time: "11:00", open: false, changes: nil),
        Case(value: "Sa[-1] 10:00-12:00", day: 26, time: "11:00", open: true, changes: (26, "12:00")),
        Case(value: "Sa[-1] 10:00-12:00", day: 19, time: "11:00", open: false, changes: (26, "10:00")),
        Case(value: "Mo-Fr 18:00+", day: 7, time: "19:00", open: true, changes: (8, "00:00")),
        // Written loosely, read as meant.
        Case(value: "mo-fr 8:00-18:00", day: 7, time: "08:30", open: true, changes: (7, "18:00")),
        Case(value: "Mo-Fr: 09:00-17:00", day: 7, time: "09:30", open: true, changes: (7, "17:00")),
        Case(value: "Mo–Fr 08:00–16:00", day: 7, time: "16:00", open: false, changes: (8, "08:00")),
        Case(value: "Mo-Fr 08:00-18:00;", day: 7, time: "08:30", open: true, changes: (7, "18:00")),
        Case(
            value: "Jan-Mar Mo-Fr 09:00-15:00; Apr-Dec Mo-Fr 09:00-18:00", day: 7, time: "17:00", open: true,
            changes: (7, "18:00")),
        Case(value: "off", day: 7, time: "12:00", open: false, changes: nil),
        Case(value: "Mo,We,Fr 10:00-12:00", day: 8, time: "11:00", open: false, changes: (9, "10:00")),
        Case(
            value: "Mo-Fr 10:00-18:00; Dec 24 10:00-14:00", day: 24, time: "15:00", open: false, changes: (25, "10:00")),
        // Slips in Helsinki's data, read as meant: a `;` left out, a colon after months, whole hours.
        Case(
            value: "Mo-Fr 08:00-19:00 Sa 09:00-19:00 Su 12:00-18:00", day: 6, time: "12:30", open: true,
            changes: (6, "18:00")),
        Case(value: "Sep-May: Fr 18:00-22:00", day: 11, time: "18:30", open: true, changes: (11, "22:00")),
        Case(value: "Mo-Fr 10:00-20:00, Sa 10-18, Su 12-18", day: 5, time: "17:59", open: true, changes: (5, "18:00")),
        Case(value: "Su-Th 15-00; Fr-Sa 15-02", day: 6, time: "23:00", open: true, changes: (7, "00:00")),
    ]

    @Test(arguments: cases)
    func valuesAreOpenWhenTheySay(_ test: Case) throws {
        let hours = try OpeningHours(test.value)
        let status = hours.status(at: Self.moment(test.day, test.time), in: Self.helsinki)
        #expect(status.isOpen == test.open)
        #expect(status.changes == test.changes.map { Self.moment($0.day, $0.time) })
    }

    @Test func commentsHolidaysAndFallbacksAreKept() throws {
        let appointments = try OpeningHours(#"Mo-Fr 08:00-18:00 "appointments only""#)
        #expect(appointments.status(at: Self.moment(7, "09:00"), in: Self.helsinki).comment == "appointments only")
        let unknown = try OpeningHours(#""by appointment""#).status(at: Self.moment(7, "09:00"), in: Self.helsinki)
        #expect(unknown.isUnknown && !unknown.isOpen && unknown.comment == "by appointment")
        let fallback = try OpeningHours(#"Mo-Fr 08:00-18:00 || "call ahead""#)
        #expect(fallback.status(at: Self.moment(5, "10:00"), in: Self.helsinki).isUnknown)
        #expect(fallback.status(at: Self.moment(7, "10:00"), in: Self.helsinki).isOpen)
        #expect(try OpeningHours("Mo-Sa 09:00-18:00; Su,PH off").mentionsHolidays)
        #expect(try !OpeningHours("Mo-Sa 09:00-18:00").mentionsHolidays)
    }

    @Test func theClockIsThePlacesOnDaysItChanges() throws {
        // Helsinki's clocks go from 03:00 to 04:00 on 29 March 2026: 02:00-05:00 is two hours.
        let hours = try OpeningHours("Su 02:00-05:00")
        let status = hours.status(at: Self.moment(29, "02:30", month: 3), in: Self.helsinki)
        #expect(status.isOpen && status.changes == Self.moment(29, "05:00", month: 3))
        #expect(status.changes!.timeIntervalSince(Self.moment(29, "02:00", month: 3)) == 2 * 3600)
        // The same moment is another hour in Tokyo.
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(try !OpeningHours("Mo-Fr 09:00-17:00").status(at: Self.moment(7, "12:00"), in: tokyo).isOpen)
    }

    @Test(arguments: [
        ("", OpeningHours.Failure.Reason.empty), ("sunrise-sunset", .sunTimes),
        ("Mo-Fr 08:00-(sunset-01:00)", .sunTimes), ("Mo-Fr 08:00-sunset", .sunTimes),
        ("week 1-53/2 Fr 09:00-12:00", .weekNumbers), ("2024 Dec 24 off", .years), ("easter off", .easter),
        ("Mo-Fr 10:00-16:00/30", .repeatingTimes), ("Mo-Fr 25:00-26:00", .badTime("25:00")),
        ("Mo-Fr 08:00-8:5", .badTime("8:5")), ("Monday 09:00-17:00", .weekdayName("Monday")),
        (#"Mo-Fr 08:00-18:00 "open"#, .unclosedComment), ("Mo-Fr 08:00-18:00 Lunch", .unexpected("Lunch")),
        // Values of Helsinki's data that say what no rule can.
        ("Seasonal, only summer time", .unexpected("Seasonal")),
        ("Mon - Fri 11am - 11pm, Sat 12am - 11pm", .weekdayName("Mon")),
        ("2017 Jul 1 - 2017 Aug 8 off; PH off", .years),
        ("Mo-Fr 16:00-, Sa 14:00-", .unexpected(",")),
        ("closed on Sundays", .unexpected("on")), ("Mo-Fr 09:00", .unexpected("the end")),
    ])
    func unreadableValuesAreRefusedSayingWhy(value: String, reason: OpeningHours.Failure.Reason) {
        #expect(throws: OpeningHours.Failure.self) { try OpeningHours(value) }
        do {
            _ = try OpeningHours(value)
        } catch {
            #expect(error.reason == reason)
            #expect(error.description.contains("at character"))
        }
    }

    @Test func theStatusIsSaidInFourLanguages() throws {
        let hours = try OpeningHours("Mo-Fr 09:00-01:00; PH off")
        let now = Self.moment(7, "10:00")
        let open = hours.status(at: now, in: Self.helsinki)
        let expected: [(Language, String)] = [
            (.en, "Open until 01:00 (hours may differ on public holidays)"),
            (.es, "Abierto hasta la 01:00 (el horario puede cambiar en días festivos)"),
            (.it, "Aperto fino all'01:00 (gli orari possono cambiare nei giorni festivi)"),
            (.hi, "01:00 बजे तक खुला (सार्वजनिक छुट्टियों पर समय अलग हो सकता है)"),
        ]
        for (language, sentence) in expected {
            #expect(open.sentence(Phrasebook(language), now: now, zone: Self.helsinki) == sentence)
        }
        let saturday = Self.moment(5, "12:00")
        let closed = try OpeningHours("Mo-Fr 09:00-17:00").status(at: saturday, in: Self.helsinki)
        let opens: [(Language, String)] = [
            (.en, "Closed; opens Monday at 09:00"), (.es, "Cerrado; abre el lunes a las 09:00"),
            (.it, "Chiuso; apre lunedì alle 09:00"), (.hi, "बंद; सोमवार को 09:00 बजे खुलेगा"),
        ]
        for (language, sentence) in opens {
            #expect(closed.sentence(Phrasebook(language), now: saturday, zone: Self.helsinki) == sentence)
        }
        let always = try OpeningHours("24/7").status(at: saturday, in: Self.helsinki)
        #expect(always.sentence(Phrasebook(.es), now: saturday, zone: Self.helsinki) == "Abierto las 24 horas")
    }

    @Test func placesAreInTheirCountrysZone() {
        #expect(TimeZones.zone(at: Coordinate(latitude: 60.17, longitude: 24.94))?.identifier == "Europe/Helsinki")
        // Los Angeles and New York: two zones of one country.
        #expect(
            TimeZones.zone(at: Coordinate(latitude: 34.05, longitude: -118.24), country: "us")?.identifier
                == "America/Los_Angeles")
        #expect(
            TimeZones.zone(at: Coordinate(latitude: 40.71, longitude: -74.0), country: "US")?.identifier
                == "America/New_York")
        // Monaco keeps Paris's clock since 1970: the table lists it under Paris's zone.
        #expect(
            TimeZones.zone(at: Coordinate(latitude: 43.73, longitude: 7.42), country: "MC")?.identifier
                == "Europe/Paris")
        // Spain's Canary Islands, not Madrid.
        #expect(
            TimeZones.zone(at: Coordinate(latitude: 28.1, longitude: -15.4), country: "ES")?.identifier
                == "Atlantic/Canary")
        // A `timezone` tag decides.
        #expect(
            TimeZones.zone(at: Coordinate(latitude: 0, longitude: 0), identifier: "Asia/Kolkata")?.identifier
                == "Asia/Kolkata")
    }
}
