import Foundation

/// An OpenStreetMap `opening_hours` value, read and evaluated: the specification's common
/// subset (`Mo-Fr 08:00-18:00; Sa 09:00-13:00; Su,PH off`).
///
/// Read: `24/7`; rules separated by `;` (a later rule replaces earlier ones on the days it
/// names), `,` (an additional rule: adds its times, or takes them away when `off`) and `||` (a
/// fallback, for days no rule before named); months and month days (`Jan-Mar`, `Dec 24-26`,
/// `Dec 24-Jan 02`); weekdays, ranges and lists (`Mo-Fr`, `Fr-Mo`, `Mo,We`, `Su[1]` the first
/// Sunday of the month, `Sa[-1]` the last); times (`08:00-12:00,13:00-18:00`, past midnight
/// `22:00-02:00` or `18:00-26:00`, an open end `18:00+`); `open`, `closed`, `off`,
/// `unknown`; comments in double quotes. Public and school holidays (`PH`, `SH`) are read and
/// noted (``mentionsHolidays``) but never match: no holiday calendar is kept. Refused, saying
/// why: sunrise and sunset times, week numbers, years, Easter, repeating times (`/30`).
public struct OpeningHours: Sendable, Equatable {
    /// The value as given.
    public let text: String
    /// The rules, in order.
    let rules: [Rule]
    /// True when a rule names public or school holidays, whose hours are not known here.
    public let mentionsHolidays: Bool

    /// Why a value cannot be read, and where: ``offset`` is the character (0-based) it stops at.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public enum Reason: Sendable, Equatable {
            /// Nothing but spaces.
            case empty
            /// A word or sign the grammar does not have there.
            case unexpected(String)
            /// `sunrise`, `sunset`, `dawn`, `dusk`: times of the sun are not computed.
            case sunTimes
            /// `week 1-53`: week numbers are not read.
            case weekNumbers
            /// `2024 Dec 24`: years are not read.
            case years
            /// `easter`: movable feasts are not computed.
            case easter
            /// `10:00-16:00/30`: repeating times are not read.
            case repeatingTimes
            /// A time out of range or badly written (`25:00`, `8:5`), as written.
            case badTime(String)
            /// A comment whose `"` is not closed.
            case unclosedComment
            /// A weekday written in full (`Monday`): the value writes `Mo`.
            case weekdayName(String)
        }

        /// What is wrong.
        public var reason: Reason
        /// The character (0-based) of the value where reading stopped.
        public var offset: Int

        public var description: String {
            let what =
                switch reason {
                case .empty: "the value is empty"
                case .unexpected(let word): "'\(word)' is not expected here"
                case .sunTimes: "sunrise and sunset times are not computed"
                case .weekNumbers: "week numbers are not read"
                case .years: "years are not read"
                case .easter: "Easter dates are not computed"
                case .repeatingTimes: "repeating times ('/30') are not read"
                case .badTime(let time): "'\(time)' is not a time from 00:00 to 48:00"
                case .unclosedComment: "a comment's '\"' is not closed"
                case .weekdayName(let name): "weekdays are written Mo, Tu, We, Th, Fr, Sa, Su, not '\(name)'"
                }
            return "\(what) (at character \(offset + 1))"
        }
    }

    /// How a rule combines with the ones before it.
    enum Combination: Sendable, Equatable {
        /// After `;` (or first): replaces the earlier rules on the days it names.
        case replacing
        /// After `,`: adds its times (or, `off`, takes them away).
        case adding
        /// After `||`: for days no earlier rule named.
        case fallback
    }

    /// What a rule says of its times.
    enum State: Sendable, Equatable { case open, closed, unknown }

    /// One rule: its days, its times and what it says of them.
    struct Rule: Sendable, Equatable {
        var combination: Combination
        /// Months and days of the year it applies on; empty for every day.
        var dates: [DateRange] = []
        /// Weekdays it applies on; empty for every weekday.
        var weekdays: [WeekdayRange] = []
        /// True when its weekdays were only holidays (`PH off`): it never applies.
        var holidaysOnly = false
        /// Its times, minutes from midnight; empty for the whole day.
        var times: [TimeSpan] = []
        var state = State.open
        var comment: String?
    }

    /// Months and days from `start` to `end` (month 1–12, day 1–31, nil for the whole month),
    /// across the new year when `end` comes before `start`.
    struct DateRange: Sendable, Equatable {
        var startMonth: Int
        var startDay: Int?
        var endMonth: Int
        var endDay: Int?

        func contains(month: Int, day: Int) -> Bool {
            let value = month * 32 + day
            let start = startMonth * 32 + (startDay ?? 1)
            let end = endMonth * 32 + (endDay ?? 31)
            return start <= end ? (start...end).contains(value) : value >= start || value <= end
        }
    }

    /// Weekdays from `first` to `last` (0 Monday … 6 Sunday, across Sunday when `last` comes
    /// before `first`), on the `nth` of them in the month when given (1 the first, -1 the last).
    struct WeekdayRange: Sendable, Equatable {
        var first: Int
        var last: Int
        var nth: [Int] = []

        func contains(weekday: Int, day: Int, daysInMonth: Int) -> Bool {
            let inRange = first <= last ? (first...last).contains(weekday) : weekday >= first || weekday <= last
            guard inRange else { return false }
            guard !nth.isEmpty else { return true }
            return nth.contains { $0 > 0 ? (day - 1) / 7 + 1 == $0 : (daysInMonth - day) / 7 + 1 == -$0 }
        }
    }

    /// Minutes from midnight: `start` 0–1440, `end` after it, up to 2880 (the next day's
    /// 24:00); `openEnd` for `18:00+`, open for an unknown while (kept to midnight).
    struct TimeSpan: Sendable, Equatable {
        var start: Int
        var end: Int
        var openEnd = false
    }

    /// Reads a value.
    ///
    /// - Throws: ``Failure`` saying what is wrong and where.
    public init(_ text: String) throws(Failure) {
        self.text = text
        var parser = OpeningHoursParser(text)
        rules = try parser.rules()
        mentionsHolidays = parser.mentionsHolidays
    }

    // MARK: Evaluating

    /// Whether a place is open at a moment, and until when.
    public struct Status: Sendable, Equatable {
        /// True when open at the moment.
        public var isOpen: Bool
        /// True when the value says `unknown` for the moment (``isOpen`` false).
        public var isUnknown: Bool
        /// When it next closes (open) or opens (closed), within the next 8 days; nil when it
        /// does not change in that time (`24/7`, closed for good).
        public var changes: Date?
        /// The comment of the rule that decides the moment ("by appointment").
        public var comment: String?
        /// True when the value names holidays, whose hours may differ.
        public var holidaysDiffer: Bool
    }

    /// How many days ahead the next change is looked for.
    static let daysAhead = 8

    /// The status at `date` in `zone` (the place's time zone).
    public func status(at date: Date, in zone: TimeZone) -> Status {
        let clock = LocalClock(zone)
        let today = clock.day(of: date)
        var spans: [(start: Date, end: Date, state: State, comment: String?)] = []
        for offset in -1...Self.daysAhead {
            let day = today + offset
            let civil = CivilDay.date(ofDay: day)
            for interval in intervals(
                month: civil / 100 % 100, day: civil % 100, weekday: CivilDay.weekday(ofDay: day),
                daysInMonth: CivilDay.daysInMonth(of: civil))
            {
                let start = clock.instant(day, minute: interval.start)
                let end = clock.instant(day, minute: interval.end)
                guard start < end else { continue }
                spans.append((start, end, interval.state, interval.comment))
            }
        }
        let now = spans.filter { $0.start <= date && date < $0.end }
        let open = now.first { $0.state == .open }
        let deciding = open ?? now.first
        var status = Status(
            isOpen: open != nil, isUnknown: open == nil && now.contains { $0.state == .unknown }, changes: nil,
            comment: deciding?.comment ?? rules.compactMap(\.comment).first, holidaysDiffer: mentionsHolidays)
        let openSpans = spans.filter { $0.state == .open }.sorted { $0.start < $1.start }
        if status.isOpen {
            // The end of the open stretch holding `date` (spans that meet or overlap join).
            var end = date
            for span in openSpans where span.start <= end && span.end > end { end = span.end }
            let horizon = clock.instant(today + Self.daysAhead, minute: 0)
            status.changes = end < horizon ? end : nil
        } else {
            status.changes = openSpans.first { $0.start > date }?.start
        }
        return status
    }

    /// The open, closed and unknown intervals of one day (minutes from its midnight, past
    /// 1440 into the next day), the rules applied in order.
    func intervals(month: Int, day: Int, weekday: Int, daysInMonth: Int)
        -> [(start: Int, end: Int, state: State, comment: String?)]
    {
        var result: [(start: Int, end: Int, state: State, comment: String?)] = []
        var named = false
        for rule in rules {
            if rule.combination == .fallback && named { continue }
            guard !rule.holidaysOnly,
                rule.dates.isEmpty || rule.dates.contains(where: { $0.contains(month: month, day: day) }),
                rule.weekdays.isEmpty
                    || rule.weekdays.contains(where: {
                        $0.contains(weekday: weekday, day: day, daysInMonth: daysInMonth)
                    })
            else { continue }
            named = true
            let spans = rule.times.isEmpty ? [TimeSpan(start: 0, end: 1440)] : rule.times
            let own = spans.map { (start: $0.start, end: $0.end, state: rule.state, comment: rule.comment) }
            if rule.state == .closed {
                // `off` with times takes them away; without, closes the whole day.
                result = rule.times.isEmpty ? [] : result.flatMap { Self.subtract(spans, from: $0) }
            } else if rule.combination == .adding {
                result += own
            } else {
                result = own
            }
        }
        return result
    }

    /// `interval` without the parts `spans` cover.
    private static func subtract(
        _ spans: [TimeSpan], from interval: (start: Int, end: Int, state: State, comment: String?)
    ) -> [(start: Int, end: Int, state: State, comment: String?)] {
        var pieces = [interval]
        for span in spans {
            pieces = pieces.flatMap { piece in
                [(piece.start, min(piece.end, span.start)), (max(piece.start, span.end), piece.end)]
                    .filter { $0.0 < $0.1 }.map { (start: $0.0, end: $0.1, state: piece.state, comment: piece.comment) }
            }
        }
        return pieces
    }
}

/// A time zone's wall clock by day numbers (days since 1970-01-01, ``CivilDay``): the day of a
/// moment, and the moment a time of a day is shown on the clock (so that 18:00 is 18:00 on a
/// day the clocks change), in integer arithmetic on the zone's offsets rather than a
/// calendar's searches.
struct LocalClock {
    let zone: TimeZone

    init(_ zone: TimeZone) { self.zone = zone }

    /// The day `date` falls on by this clock, in days since 1970-01-01 (``CivilDay``).
    func day(of date: Date) -> Int {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }

    /// The moment the clock shows `minute` minutes past `day`'s midnight (past 1440 on the
    /// next day). A time the clocks skip is the same time after the change (02:30 on the
    /// morning they go from 02:00 to 03:00 is 03:30); a time they show twice, the first.
    func instant(_ day: Int, minute: Int) -> Date {
        let wall = Double(day * 86_400 + minute * 60)
        // The offset before the time, then the offset at the moment that gives.
        let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 86_400))
        let guess = wall - Double(before)
        let after = zone.secondsFromGMT(for: Date(timeIntervalSince1970: guess))
        if after == before { return Date(timeIntervalSince1970: guess) }
        // The clock changed within the day before: the offset of the moment itself, if the
        // time is shown under it; else the time is skipped and comes after the change.
        let moved = wall - Double(after)
        if zone.secondsFromGMT(for: Date(timeIntervalSince1970: moved)) == after {
            return Date(timeIntervalSince1970: moved)
        }
        return Date(timeIntervalSince1970: guess)
    }
}

/// Reads an `opening_hours` value into rules (``OpeningHours``): words, numbers and signs,
/// then the rules from them.
struct OpeningHoursParser {
    enum Token: Equatable {
        case word(String)
        case number(String)
        case sign(Character)
        /// `||`.
        case fallback
        case comment(String)
    }

    typealias Failure = OpeningHours.Failure
    typealias Rule = OpeningHours.Rule

    private let characters: [Character]
    private var tokens: [(token: Token, offset: Int)] = []
    private var position = 0
    /// Set when a rule names `PH` or `SH`.
    private(set) var mentionsHolidays = false

    static let weekdays = ["mo", "tu", "we", "th", "fr", "sa", "su"]
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let weekdayNames = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "wed", "thu",
        "fri", "sat", "sun",
    ]

    init(_ text: String) { characters = Array(text) }

    mutating func rules() throws(Failure) -> [Rule] {
        try tokenize()
        guard !tokens.isEmpty else { throw Failure(reason: .empty, offset: 0) }
        var rules: [Rule] = []
        var combination = OpeningHours.Combination.replacing
        while true {
            rules.append(try rule(combination))
            guard let next = peek() else { break }
            switch next {
            case .sign(";"):
                position += 1
                // A trailing `;` is common and harmless.
                if peek() == nil { return rules }
                combination = .replacing
            case .sign(","): position += 1; combination = .adding
            case .fallback: position += 1; combination = .fallback
            // "Mo-Fr 08:00-18:00 Sa 09:00-13:00": a `;` left out before the next rule's days.
            case _ where weekdayWord(next) != nil || monthNumber(next) != nil: combination = .replacing
            default: throw unexpected()
            }
        }
        return rules
    }

    // MARK: Rules

    private mutating func rule(_ combination: OpeningHours.Combination) throws(Failure) -> Rule {
        var rule = Rule(combination: combination)
        let start = position
        if peek() == .number("24"), peek(1) == .sign("/"), peek(2) == .number("7") {
            position += 3
        } else {
            if case .number(let digits) = peek(), digits.count == 4 { throw failure(.years) }
            while let month = monthNumber(peek()) {
                rule.dates.append(try dateRange(month))
                guard peek() == .sign(","), monthNumber(peek(1)) != nil else { break }
                position += 1
            }
            // "Sep-May: Fr 18:00-22:00", as after weekdays.
            if !rule.dates.isEmpty, peek() == .sign(":") { position += 1 }
            if case .word(let word) = peek() {
                if word.lowercased() == "week" { throw failure(.weekNumbers) }
                if word.lowercased() == "easter" { throw failure(.easter) }
            }
            var sawHoliday = false
            while let word = weekdayWord(peek()) {
                if word == "ph" || word == "sh" {
                    position += 1
                    sawHoliday = true
                    mentionsHolidays = true
                } else {
                    rule.weekdays.append(try weekdayRange())
                }
                guard peek() == .sign(","), weekdayWord(peek(1)) != nil else { break }
                position += 1
            }
            rule.holidaysOnly = sawHoliday && rule.weekdays.isEmpty
            // "Mo-Fr: 08:00-18:00" is a common slip, read as meant.
            if position > start, peek() == .sign(":") { position += 1 }
            if case .number = peek() { rule.times = try timeSpans() }
        }
        if case .word(let word) = peek() {
            switch word.lowercased() {
            case "open": rule.state = .open; position += 1
            case "closed", "off": rule.state = .closed; position += 1
            case "unknown": rule.state = .unknown; position += 1
            case "sunrise", "sunset", "dawn", "dusk": throw failure(.sunTimes)
            case let name where Self.weekdayNames.contains(name): throw failure(.weekdayName(word))
            default: break
            }
        }
        let selected = position > start
        if case .comment(let text) = peek() {
            rule.comment = text
            position += 1
            // A comment alone ("by appointment") says nothing of when it is open.
            if !selected { rule.state = .unknown }
        }
        guard position > start else { throw unexpected() }
        return rule
    }

    /// `Dec`, `Dec 24`, `Dec 24-26`, `Dec 24-Jan 02`, `Jan-Mar`, starting at its month.
    private mutating func dateRange(_ month: Int) throws(Failure) -> OpeningHours.DateRange {
        position += 1
        let day = try monthDay()
        var range = OpeningHours.DateRange(startMonth: month, startDay: day, endMonth: month, endDay: day)
        guard peek() == .sign("-") else { return range }
        if let endMonth = monthNumber(peek(1)) {
            position += 2
            range.endMonth = endMonth
            range.endDay = try monthDay()
        } else if day != nil, case .number = peek(1) {
            position += 1
            range.endDay = try monthDay()
        } else {
            position += 1
            throw unexpected()
        }
        return range
    }

    /// A day of the month after a month's name (not the hour of a time: `Dec 24 10:00`).
    private mutating func monthDay() throws(Failure) -> Int? {
        guard case .number(let digits) = peek(), peek(1) != .sign(":") else { return nil }
        guard let day = Int(digits), (1...31).contains(day) else { throw unexpected() }
        position += 1
        return day
    }

    /// `Mo`, `Mo-Fr`, `Su[1]`, `Sa[-1]`, `Mo[1,3]`.
    private mutating func weekdayRange() throws(Failure) -> OpeningHours.WeekdayRange {
        let first = weekdayIndex(peek())!
        position += 1
        var range = OpeningHours.WeekdayRange(first: first, last: first)
        if peek() == .sign("[") {
            position += 1
            while true {
                let negative = peek() == .sign("-")
                if negative { position += 1 }
                guard case .number(let digits) = peek(), let value = Int(digits), (1...5).contains(value) else {
                    throw unexpected()
                }
                position += 1
                range.nth.append(negative ? -value : value)
                if peek() == .sign(",") { position += 1 } else { break }
            }
            guard peek() == .sign("]") else { throw unexpected() }
            position += 1
        }
        if range.nth.isEmpty, peek() == .sign("-"), let last = weekdayIndex(peek(1)) {
            position += 2
            range.last = last
        }
        return range
    }

    /// `08:00-12:00,13:00-18:00`, `22:00-02:00`, `18:00+`.
    private mutating func timeSpans() throws(Failure) -> [OpeningHours.TimeSpan] {
        var spans: [OpeningHours.TimeSpan] = []
        while true {
            let start = try time(limit: 1440)
            var span = OpeningHours.TimeSpan(start: start, end: 1440)
            if peek() == .sign("+") {
                position += 1
                span.openEnd = true
            } else {
                guard peek() == .sign("-") else { throw unexpected() }
                position += 1
                if case .word(let word) = peek(), ["sunrise", "sunset", "dawn", "dusk"].contains(word.lowercased()) {
                    throw failure(.sunTimes)
                }
                if peek() == .sign("(") { throw failure(.sunTimes) }
                var end = try time(limit: 2880)
                // Past midnight: `22:00-02:00` ends on the next day.
                if end <= start { end += 1440 }
                span.end = min(end, 2880)
                if peek() == .sign("+") {
                    position += 1
                    span.openEnd = true
                }
            }
            if peek() == .sign("/") { throw failure(.repeatingTimes) }
            spans.append(span)
            guard peek() == .sign(","), case .number = peek(1) else { break }
            position += 1
        }
        return spans
    }

    /// `HH:MM` (one-digit hours read too, and whole hours without minutes) as minutes from
    /// midnight, at most `limit`.
    private mutating func time(limit: Int) throws(Failure) -> Int {
        if case .word(let word) = peek(), ["sunrise", "sunset", "dawn", "dusk"].contains(word.lowercased()) {
            throw failure(.sunTimes)
        }
        if peek() == .sign("(") { throw failure(.sunTimes) }
        guard case .number(let hours) = peek() else { throw unexpected() }
        guard peek(1) == .sign(":") || peek(1) == .sign(".") else {
            // Whole hours without minutes ("Sa 10-18"), a common shorthand.
            guard hours.count <= 2, let hour = Int(hours), hour * 60 <= limit else { throw failure(.badTime(hours)) }
            position += 1
            return hour * 60
        }
        guard case .number(let minutes) = peek(2) else { throw failure(.badTime(hours)) }
        let written = "\(hours):\(minutes)"
        guard hours.count <= 2, minutes.count == 2, let hour = Int(hours), let minute = Int(minutes), minute < 60,
            hour * 60 + minute <= limit
        else { throw failure(.badTime(written)) }
        position += 3
        return hour * 60 + minute
    }

    // MARK: Tokens

    private func peek(_ ahead: Int = 0) -> Token? {
        position + ahead < tokens.count ? tokens[position + ahead].token : nil
    }

    private func monthNumber(_ token: Token?) -> Int? {
        guard case .word(let word) = token else { return nil }
        return Self.months.firstIndex(of: word.lowercased()).map { $0 + 1 }
    }

    /// A weekday's two letters (`mo`) or a holiday (`ph`, `sh`), lower case.
    private func weekdayWord(_ token: Token?) -> String? {
        guard case .word(let word) = token else { return nil }
        let lower = word.lowercased()
        return Self.weekdays.contains(lower) || lower == "ph" || lower == "sh" ? lower : nil
    }

    private func weekdayIndex(_ token: Token?) -> Int? {
        guard case .word(let word) = token else { return nil }
        return Self.weekdays.firstIndex(of: word.lowercased())
    }

    private var offset: Int { position < tokens.count ? tokens[position].offset : characters.count }

    private func failure(_ reason: Failure.Reason) -> Failure { Failure(reason: reason, offset: offset) }

    private func unexpected() -> Failure {
        let word: String
        switch peek() {
        case .word(let text), .number(let text): word = text
        case .sign(let sign): word = String(sign)
        case .fallback: word = "||"
        case .comment(let text): word = "\"\(text)\""
        case nil: word = "the end"
        }
        return failure(.unexpected(word))
    }

    private mutating func tokenize() throws(Failure) {
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let start = index
            if character.isWhitespace {
                index += 1
            } else if character.isLetter {
                while index < characters.count, characters[index].isLetter { index += 1 }
                tokens.append((.word(String(characters[start..<index])), start))
            } else if character.isASCII, character.isNumber {
                while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
                tokens.append((.number(String(characters[start..<index])), start))
            } else if character == "\"" {
                guard let close = characters[(index + 1)...].firstIndex(of: "\"") else {
                    throw Failure(reason: .unclosedComment, offset: index)
                }
                tokens.append((.comment(String(characters[(index + 1)..<close])), start))
                index = close + 1
            } else if character == "|", index + 1 < characters.count, characters[index + 1] == "|" {
                tokens.append((.fallback, start))
                index += 2
            } else {
                // En dashes are written for ranges as often as hyphens.
                tokens.append((.sign(character == "–" ? "-" : character), start))
                index += 1
            }
        }
    }
}

extension OpeningHours.Status {
    /// The status as a place's card says it, in `words`' language: "Open until 20:00",
    /// "Closed; opens Monday at 09:00", "Open 24 hours", with the comment and a word on
    /// holidays. A change within 24 hours of `now` is named by its time, a later one by its
    /// weekday and time, both on the clock of `zone`.
    public func sentence(_ words: Phrasebook, now: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var values: [String: String] = [:]
        let key: String
        if isUnknown {
            key = "hours unknown"
        } else if let changes {
            let parts = calendar.dateComponents([.hour, .minute, .weekday], from: changes)
            let hour = parts.hour ?? 0
            values["time"] = String(format: "%02d:%02d", hour, parts.minute ?? 0)
            let soon = changes.timeIntervalSince(now) < 86_400
            if !soon { values["day"] = words.word("weekday \(((parts.weekday ?? 1) + 5) % 7)") }
            // Spanish says "la 01:00", not "las"; Italian "all'01:00".
            switch (isOpen, soon, hour == 1) {
            case (true, true, false): key = "hours open until"
            case (true, true, true): key = "hours open until one"
            case (true, false, false): key = "hours open until day"
            case (true, false, true): key = "hours open until day one"
            case (false, true, false): key = "hours opens"
            case (false, true, true): key = "hours opens one"
            case (false, false, false): key = "hours opens day"
            case (false, false, true): key = "hours opens day one"
            }
        } else {
            key = isOpen ? "hours open always" : "hours closed"
        }
        var sentence = words.note(key, values)
        if let comment, !comment.isEmpty {
            sentence = words.note("hours comment", ["sentence": sentence, "comment": comment])
        }
        if holidaysDiffer { sentence = words.note("hours holidays", ["sentence": sentence]) }
        return sentence
    }
}
