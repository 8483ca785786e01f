import MapsURL
import Testing

/// The `hl` of Google's links: the language the map speaks, read, written where a form can
/// carry it, and reported where it cannot.
@Suite struct LanguageParameterTests {
    @Test func hlIsReadAsTheLinksLanguage() throws {
        let parsed = MapsURLParser.parse(
            "http://maps.google.com/maps?saddr=Home@52.5,13.4&daddr=Work@52.52,13.38&hl=es-419")
        #expect(parsed.request?.language == "es-419" && parsed.diagnostics.isEmpty)
        let bad = MapsURLParser.parse("https://maps.google.com/maps?q=pizza&hl=<script>")
        #expect(bad.request?.language == nil)
        #expect(bad.diagnostics.contains { $0.code == .badLanguage && $0.severity == .warning })
    }

    @Test func desktopLinksCarryItAndTheOthersSaySoWhenTheyCannot() throws {
        let request = try #require(MapsURLParser.parse("https://maps.google.com/maps?q=pizza&hl=hi").request)
        let desktop = try MapsURLPrinter.print(request, as: .desktop)
        #expect(desktop.url.hasSuffix("&hl=hi") && desktop.unexpressed.isEmpty)
        #expect(MapsURLParser.parse(desktop.url).request?.language == "hi")
        let scheme = try MapsURLPrinter.print(request, as: .comgooglemaps)
        #expect(!scheme.url.contains("hl=") && scheme.unexpressed.map(\.field) == ["language"])
    }
}
