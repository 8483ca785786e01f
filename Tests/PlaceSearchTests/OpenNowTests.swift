import Foundation
import GeoCore
import MapData
import TestSupport
import Testing

@testable import PlaceSearch

/// "Open now" and "open at" in four languages on the fixture's places and their opening
/// hours (Helsinki's clock; December 2026: the 5th a Saturday, the 7th a Monday).
@Suite struct OpenNowTests {
    let search: PlaceSearch

    init() throws {
        search = PlaceSearch(store: try MapStore(path: FixtureStore.path()))
    }

    /// A moment on Helsinki's clock in December 2026.
    static func moment(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Helsinki")!
        return calendar.date(from: DateComponents(year: 2026, month: 12, day: day, hour: hour, minute: minute))!
    }

    func names(_ text: String, at moment: Date, language: Language? = nil) throws -> [String] {
        var query = SearchQuery(text, near: Coordinate(latitude: 60.1685, longitude: 24.945), language: language)
        query.moment = moment
        return try search.search(query).map(\.name)
    }

    @Test func openNowKeepsThePlacesOpenThen() throws {
        let monday = Self.moment(7, 12)
        for text in ["restaurant open now", "ristorante aperto ora", "restaurante abierto ahora", "pizza open now"] {
            #expect(try names(text, at: monday) == ["Ravintola Savoy"], "\(text)")
        }
        // Sunday: the restaurant is off.
        #expect(try names("restaurant open now", at: Self.moment(6, 12)).isEmpty)
        #expect(try names("cafe", at: Self.moment(6, 12)) == ["Fazer 8th Floor"])
        #expect(try names("cafe open now", at: Self.moment(6, 12)).isEmpty)
        // Saturday night past midnight: Friday's hours are over, Saturday's run to 01:00.
        #expect(try names("Savoy open now", at: Self.moment(6, 0, 30)) == ["Ravintola Savoy"])
        #expect(try names("Savoy open now", at: Self.moment(6, 1, 30)).isEmpty)
    }

    @Test func openAtATimeOfDay() throws {
        let saturdayMorning = Self.moment(5, 8)
        for text in ["cafe open at 10:30", "cafe open at 11am", "caffè aperto alle 10:30", "café abierto a las 11"] {
            #expect(try names(text, at: saturdayMorning) == ["Fazer 8th Floor"], "\(text)")
        }
        #expect(try names("cafe open at 9", at: saturdayMorning).isEmpty)
        // A time passed today is tomorrow's: at 21:00 on Friday, "open at 19:00" is Saturday's
        // (the café closes at 18:00 on Saturdays, 20:00 on weekdays).
        #expect(try names("cafe open at 7pm", at: Self.moment(4, 21)).isEmpty)
        #expect(try names("cafe open at 7pm", at: Self.moment(4, 17)) == ["Fazer 8th Floor"])
    }

    @Test func resultsSayWhetherTheyAreOpenAndUntilWhen() throws {
        var query = SearchQuery("Stockmann")
        query.moment = Self.moment(5, 12)
        let stockmann = try #require(try search.search(query).first)
        let opening = try #require(stockmann.opening)
        #expect(opening.status.isOpen && opening.zone.identifier == "Europe/Helsinki")
        #expect(opening.changesText == "2026-12-05T19:00:00+02:00")
        #expect(opening.sentence(Phrasebook(.en)) == "Open until 19:00")
        #expect(opening.sentence(Phrasebook(.hi)) == "19:00 बजे तक खुला")
        let document = ResultFormat.jsonv2.document([stockmann], language: .it)
        #expect(document.contains(#""text" : "Aperto fino alle 19:00""#))
        #expect(document.contains(#""open_now" : true"#))
        // Places without hours say nothing of them.
        #expect(try search.search(SearchQuery("Havis Amanda")).first?.opening == nil)
    }

    @Test func theFilterWordsAreReadInFourLanguages() {
        let cases: [(String, OpenFilter?, String)] = [
            ("pharmacy open now", .now, "pharmacy"), ("farmacia abierta ahora", .now, "farmacia"),
            ("farmacie aperte ora", .now, "farmacie"), ("दवा की दुकान अभी खुली", .now, "दवा की दुकान"),
            ("bar open at 23:30", .at(hour: 23, minute: 30), "bar"),
            ("bar open at 11pm", .at(hour: 23, minute: 0), "bar"),
            ("bar open at 12am", .at(hour: 0, minute: 0), "bar"),
            ("bar abierto a la 1", .at(hour: 1, minute: 0), "bar"),
            ("bar aperto all'una", nil, "bar aperto all'una"), ("bar aperto alle 21", .at(hour: 21, minute: 0), "bar"),
            ("बार 20:00 बजे खुला", .at(hour: 20, minute: 0), "बार"), ("Open Air Museum", nil, "Open Air Museum"),
            ("bar open at 25:00", nil, "bar open at 25:00"), ("Kaivokatu 8", nil, "Kaivokatu 8"),
        ]
        for (text, filter, rest) in cases {
            let read = OpenFilter.read(text)
            #expect(read.filter == filter && read.rest == rest, "\(text): \(read)")
        }
    }
}
