/// Dates as timetables count them: `YYYYMMDD` numbers and days since 1970-01-01 in the
/// proleptic Gregorian calendar, with no time zone.
public enum CivilDay {
    /// Days since 1970-01-01 of a `YYYYMMDD` date, in the proleptic Gregorian calendar
    /// (Hinnant's days-from-civil).
    public static func number(of date: Int) -> Int {
        let month = date / 100 % 100
        let year = date / 10_000 - (month <= 2 ? 1 : 0)
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + date % 100 - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    }

    /// The `YYYYMMDD` date `day` days after 1970-01-01 (Hinnant's civil-from-days).
    public static func date(ofDay day: Int) -> Int {
        let shifted = day + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth + (shiftedMonth < 10 ? 3 : -9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return year * 10_000 + month * 100 + dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    }

    /// 28 … 31: the days of the month of a `YYYYMMDD` date.
    public static func daysInMonth(of date: Int) -> Int {
        let year = date / 10_000
        switch date / 100 % 100 {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// 0 Monday … 6 Sunday of a day since 1970-01-01 (a Thursday).
    public static func weekday(ofDay day: Int) -> Int { ((day + 3) % 7 + 7) % 7 }

    /// The `YYYYMMDD` date `days` after `date` (before it when negative).
    public static func adding(_ days: Int, to date: Int) -> Int { self.date(ofDay: number(of: date) + days) }

    /// 0 Monday … 6 Sunday of a `YYYYMMDD` date.
    public static func weekday(of date: Int) -> Int { weekday(ofDay: number(of: date)) }

    /// `date`, or the same weekday in the last week up to `last` (`YYYYMMDD`) when it falls
    /// after it: the day a timetable that has ended is read for.
    public static func within(_ date: Int, last: Int) -> Int {
        guard date > last else { return date }
        let day = number(of: date)
        let weeks = (day - number(of: last) + 6) / 7
        return self.date(ofDay: day - 7 * weeks)
    }
}
