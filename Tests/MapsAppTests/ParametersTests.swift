import GeoCore
import MapCore
import MapRenderer
import MapsApp
import Testing

/// The options every front end gives by name, read once.
@Suite struct ParametersTests {
    @Test func everyAnswerOptionIsReadByItsName() throws {
        let options = try AnswerOptions(parameters: [
            ("size", "1024x768.5"), ("scheme", "dark"), ("maptype", "terrain"), ("layers", "traffic, bicycling"),
            ("mylocation", "60.17,24.94"), ("accuracy", "12.5"), ("heading", "-90"), ("bearing", "45"),
            ("tilt", "30"), ("level", "2"), ("hl", "es-419"), ("step", "3"), ("url", "ignored"),
            ("padding", "10,48,24.5,0"),
        ])
        #expect(options.padding == EdgeInsets(top: 10, left: 48, bottom: 24.5, right: 0))
        #expect(options.size == Size(width: 1024, height: 768.5))
        #expect(options.style == .dark && options.mapType == .terrain && options.layers == [.traffic, .bicycling])
        #expect(options.myLocation == Coordinate(latitude: 60.17, longitude: 24.94))
        #expect(options.accuracy == 12.5 && options.heading == -90 && options.bearing == 45 && options.tilt == 30)
        #expect(options.level == "2" && options.language == .es && options.navigationStep == 3)
        // Nothing given: the defaults.
        var defaults = try AnswerOptions(parameters: [])
        let plain = AnswerOptions()
        defaults.departure = plain.departure
        #expect(defaults == plain)
        // Every name in the list is read (a value that is wrong for it is refused by that name).
        for name in AnswerOptions.parameterNames where name != "level" {
            #expect(throws: AppError.self, "\(name)") { try AnswerOptions(parameters: [(name, "?")]) }
        }
    }

    @Test(arguments: [
        ("size", "63x600", "'size' must be WIDTHxHEIGHT in points, each 64 to 4096, like 800x600, not '63x600'"),
        ("size", "800", "'size' must be WIDTHxHEIGHT in points, each 64 to 4096, like 800x600, not '800'"),
        ("scheme", "sepia", "'scheme' must be light or dark, not 'sepia'"),
        ("maptype", "roadmap", "'maptype' must be normal, hybrid, satellite, terrain or none, not 'roadmap'"),
        ("layers", "traffic,cycling", "'layers' may list traffic, transit and bicycling, not 'cycling'"),
        ("mylocation", "91,0", "'mylocation' must be LAT,LNG in decimal degrees, not '91,0'"),
        ("tilt", "120", "'tilt' must be a number from 0 to 90, not '120'"),
        ("bearing", "east", "'bearing' must be a number from -360 to 360, not 'east'"),
        ("hl", "fr", "'hl' must be en, es, it or hi, not 'fr'"),
        ("step", "-1", "'step' must be a whole number from 0 to 10000, not '-1'"),
        (
            "padding", "0,48,24",
            "'padding' must be TOP,LEFT,BOTTOM,RIGHT in points, each 0 to 2048, like 0,48,24,0, not '0,48,24'"
        ),
        (
            "padding", "0,-1,0,0",
            "'padding' must be TOP,LEFT,BOTTOM,RIGHT in points, each 0 to 2048, like 0,48,24,0, not '0,-1,0,0'"
        ),
        ("padding", "0,400,0,400", "'padding' must leave at least 64 × 64 points of the 800x600 view"),
    ])
    func aWrongValueIsRefusedInWordsNamingItsParameter(name: String, value: String, message: String) {
        do {
            _ = try AnswerOptions(parameters: [(name, value)])
            Issue.record("\(name)=\(value) was taken")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aTileStyleIsReadByTheSameNamesAndRules() throws {
        let style = try TileStyle(parameters: [
            ("maptype", "hybrid"), ("scheme", "dark"), ("layers", "transit,traffic"), ("hl", "hi-IN"), ("scale", "2"),
        ])
        var expected = TileStyle()
        expected.mapType = .hybrid
        expected.style = .dark
        expected.transit = true
        expected.traffic = true
        expected.language = .hi
        expected.scale = 2
        #expect(style == expected && style.key == "hybrid.dark.traffic.transit.-.hi.2")
        #expect(try TileStyle(parameters: []) == TileStyle())
        for (name, value, message) in [
            ("scheme", "sepia", "'scheme' must be light or dark, not 'sepia'"),
            ("scale", "3", "'scale' must be a whole number from 1 to 2, not '3'"),
            ("hl", "fr", "'hl' must be en, es, it or hi, not 'fr'"),
        ] {
            do {
                _ = try TileStyle(parameters: [(name, value)])
                Issue.record("\(name)=\(value) was taken")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func aPreferenceListPicksTheFirstLanguageSpoken() {
        #expect(Language.firstSpoken(in: "fi-FI, es-ES;q=0.8, en;q=0.5") == .es)
        #expect(Language.firstSpoken(in: "hi") == .hi && Language.firstSpoken(in: "fr, de") == nil)
        #expect(Language.firstSpoken(in: "") == nil)
    }
}
