import Foundation
import GeoCore
import Testing

/// Days since 1970-01-01 and their dates, as Foundation's Gregorian calendar counts them.
@Suite struct CivilDayTests {
    @Test func everyMonthHasTheDaysTheCalendarGivesIt() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for year in 1899...2101 {
            for month in 1...12 {
                let first = try #require(calendar.date(from: DateComponents(year: year, month: month, day: 1)))
                let days = try #require(calendar.range(of: .day, in: .month, for: first)).count
                let date = year * 10_000 + month * 100 + 1
                #expect(CivilDay.daysInMonth(of: date) == days, "\(date)")
                // The first of the month by day number, and its weekday.
                let number = Int((first.timeIntervalSince1970 / 86_400).rounded())
                #expect(CivilDay.number(of: date) == number && CivilDay.date(ofDay: number) == date)
                let weekday = (calendar.component(.weekday, from: first) + 5) % 7
                #expect(CivilDay.weekday(ofDay: number) == weekday, "\(date)")
            }
        }
    }
}
