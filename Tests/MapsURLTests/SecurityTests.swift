import GeoCore
import MapsURL
import Testing

/// The attacks and edge cases of the URL security specification: hosts, callbacks,
/// decoding, numbers and sizes.
@Suite struct SecurityTests {
    struct Rejected: CustomTestStringConvertible, Sendable {
        var url: String
        var code: DiagnosticCode
        var testDescription: String { "\(code): \(url)" }
    }

    @Test(arguments: [
        Rejected(url: "https://maps.google.com@evil.com/maps/@1,2,3z", code: .userinfo),
        Rejected(url: "https://evil.com\\@maps.google.com/", code: .backslashInHost),
        Rejected(url: "https://maps.google.com\\.evil.com/", code: .backslashInHost),
        Rejected(url: "https://maps.gооgle.com/", code: .nonAsciiHost),
        Rejected(url: "https://maps.google．com/", code: .nonAsciiHost),
        Rejected(url: "https://maps.xn--ggle-55da.com/", code: .punycodeHost),
        Rejected(url: "https://maps.google.com:8080/", code: .port),
        Rejected(url: "https://maps.google.com%2eevil.com/", code: .escapedHost),
        Rejected(url: "https://maps.google.evil.com/maps/@1,2,3z", code: .hostNotMaps),
        Rejected(url: "https://google.evil.com/maps/", code: .hostNotMaps),
        Rejected(url: "https://maps.google.co.zz/", code: .hostNotMaps),
        Rejected(url: "https://evilgoogle.com/maps/", code: .hostNotMaps),
        Rejected(url: "https://google.com.evil.com/maps/", code: .hostNotMaps),
        Rejected(url: "https://gooXgl/maps/abc", code: .hostNotMaps),
        Rejected(url: "https://example.com/maps/@1,2,3z", code: .hostNotMaps),
        Rejected(url: "comgooglemapsurl://example.com/maps/@1,2,3z", code: .hostNotMaps),
        Rejected(url: "comgooglemapsurl://maps.apple.com/?q=x", code: .hostNotGoogle),
        Rejected(url: "https://www.google.com/search?q=maps", code: .notAMapsPath),
        Rejected(url: "https://www.google.com/mapsevil/", code: .notAMapsPath),
        Rejected(url: "javascript:alert(1)//maps.google.com/", code: .unsupportedScheme),
        Rejected(url: "ftp://maps.google.com/", code: .unsupportedScheme),
        Rejected(url: "https:maps.google.com/", code: .missingSlashes),
    ])
    func hostileLinksAreRejected(_ case_: Rejected) {
        let parsed = MapsURLParser.parse(case_.url)
        #expect(parsed.request == nil)
        #expect(parsed.diagnostics.first?.code == case_.code)
        #expect(parsed.diagnostics.first?.severity == .error)
    }

    @Test(arguments: [
        "https://MAPS.Google.COM./?q=x", "https://maps.google.com:443/?q=x", "http://maps.google.com:80/?q=x",
        "maps.google.co.uk/?q=x", "www.google.com.tr/maps/?q=x", "google.cat/maps?q=x",
        "https://www.google.com/maps?q=x",
    ])
    func normalisedGoogleHostsAreAccepted(_ url: String) {
        #expect(MapsURLParser.parse(url).request?.query == "x")
    }

    /// Every one of Google's 187 country domains is a Maps host, in all three host shapes.
    @Test func everyGoogleCountryDomainIsAccepted() {
        #expect(GoogleDomains.suffixes.count == 187)
        for suffix in GoogleDomains.suffixes {
            #expect(MapsURLParser.parse("https://maps.google.\(suffix)/?q=x").request?.query == "x", "\(suffix)")
            #expect(MapsURLParser.parse("https://www.google.\(suffix)/maps?q=x").request?.query == "x", "\(suffix)")
            #expect(MapsURLParser.parse("https://google.\(suffix)/maps/?q=x").request?.query == "x", "\(suffix)")
            #expect(MapsURLParser.parse("https://maps.google.\(suffix)x/?q=x").request == nil, "\(suffix)x")
        }
    }

    @Test(arguments: [
        ("javascript:alert(1)", DiagnosticCode.callbackSchemeDenied), ("JavaScript:alert(1)", .callbackSchemeDenied),
        ("https://evil.example/", .callbackSchemeDenied), ("http://evil.example/", .callbackSchemeDenied),
        ("data:text/html,hi", .callbackSchemeDenied), ("file:///etc/passwd", .callbackSchemeDenied),
        ("comgooglemaps://?q=loop", .callbackSchemeDenied), ("java%0Ascript:alert(1)", .callbackBadCharacter),
        ("%20javascript:alert(1)", .callbackBadCharacter), ("noscheme", .callbackNotAbsolute),
        ("1app://x", .callbackBadScheme),
    ])
    func dangerousCallbacksAreRefused(success: String, code: DiagnosticCode) {
        let parsed = MapsURLParser.parse("comgooglemaps-x-callback://?q=x&x-source=App&x-success=\(success)")
        #expect(parsed.request?.callback == nil)
        #expect(parsed.request?.query == "x")
        // The missing callback is reported at the scheme, the refusal at the parameter.
        #expect(parsed.diagnostics.map(\.code) == [.callbackIncomplete, code])
    }

    @Test func xCallbackNeedsBothSourceAndSuccess() {
        let parsed = MapsURLParser.parse("comgooglemaps-x-callback://?q=x&x-source=App")
        #expect(parsed.request == MapsRequest(query: "x"))
        #expect(parsed.diagnostics.map(\.code) == [.callbackIncomplete])
        #expect(!parsed.isValid)
    }

    @Test func callbackParametersOnThePlainSchemeAreIgnored() {
        let parsed = MapsURLParser.parse("comgooglemaps://?q=x&x-source=App&x-success=app://")
        #expect(parsed.request == MapsRequest(query: "x"))
        #expect(parsed.diagnostics.map(\.code) == [.callbackNeedsXCallback, .callbackNeedsXCallback])
    }

    @Test func xSourceIsSanitisedForDisplay() {
        let spoof = "comgooglemaps-x-callback://?q=x&x-success=app://&x-source=%E2%80%AEknaB%E2%80%ACruoY%07"
        let parsed = MapsURLParser.parse(spoof)
        #expect(parsed.request?.callback?.source == "knaBruoY")
        #expect(parsed.diagnostics.map(\.code) == [.sourceSanitized])

        let bidi = MapsURLParser.parse("comgooglemaps-x-callback://?q=x&x-success=app://&x-source=%E2%80%AEknaB")
        #expect(bidi.request?.callback?.source == "knaB")
        #expect(bidi.diagnostics.map(\.code) == [.sourceSanitized])

        let long = String(repeating: "A", count: 100)
        let capped = MapsURLParser.parse("comgooglemaps-x-callback://?q=x&x-success=app://&x-source=\(long)")
        #expect(capped.request?.callback?.source.count == CallbackPolicy.maxSourceLength)
    }

    @Test func xSuccessIsDecodedExactlyOnce() {
        let parsed = MapsURLParser.parse(
            "comgooglemaps-x-callback://?q=x&x-source=App&x-success=app://done%3Fa%3D1%2526b%3D2%2Bc")
        #expect(parsed.request?.callback?.success == "app://done?a=1%26b=2+c")
    }

    @Test func plusIsASpaceAndEscapedPlusIsAPlus() {
        #expect(MapsURLParser.parse("comgooglemaps://?q=C%2B%2B+books").request?.query == "C++ books")
        #expect(MapsURLParser.parse("comgooglemaps://?q=A%20%26%20B").request?.query == "A & B")
        #expect(MapsURLParser.parse("comgooglemaps://?q=%2526").request?.query == "%26")
    }

    @Test func lowerCaseEscapesDecode() {
        #expect(MapsURLParser.parse("comgooglemaps://?q=H%c3%b4pital%2c+Paris").request?.query == "Hôpital, Paris")
    }

    @Test(arguments: ["%", "%4", "%G1", "abc%zz"])
    func malformedEscapesDropOnlyTheirParameter(_ value: String) {
        let parsed = MapsURLParser.parse("comgooglemaps://?q=\(value)&center=1,2&zoom=3")
        #expect(parsed.request == MapsRequest(center: Coordinate(latitude: 1, longitude: 2), zoom: 3))
        #expect(parsed.diagnostics.map(\.code) == [.malformedEscape])
    }

    @Test(arguments: ["%D0%9D%D0", "%E6%B5v%B7", "%FF", "%C0%AF"])
    func invalidUTF8DropsOnlyItsParameter(_ value: String) {
        let parsed = MapsURLParser.parse("geo:1,2?q=\(value)&z=4")
        #expect(parsed.request == MapsRequest(center: Coordinate(latitude: 1, longitude: 2), zoom: 4))
        #expect(parsed.diagnostics.map(\.code) == [.invalidUTF8])
    }

    @Test(arguments: [
        "nan,0", "0,nan", "inf,0", "-infinity,0", "0x1p3,0", "1e1,2", "1E1,2", "%2B-1,2", "1_0,2", "٣,4", "34.,1",
        ".5,1",
        " 1,2x", "1,2,3", "",
    ])
    func coordinatesFollowAStrictGrammar(_ value: String) {
        let parsed = MapsURLParser.parse("comgooglemaps://?center=\(value)&q=kept")
        #expect(parsed.request == MapsRequest(query: "kept"))
        #expect(parsed.diagnostics.map(\.code) == [.badCoordinate])
    }

    @Test(arguments: ["90.000001,0", "-91,0", "0,180.5", "0,-181"])
    func outOfRangeCenterIsRejected(_ value: String) {
        let parsed = MapsURLParser.parse("comgooglemaps://?center=\(value)&q=kept")
        #expect(parsed.request == MapsRequest(query: "kept"))
        #expect(parsed.diagnostics.map(\.code) == [.coordinateOutOfRange])
    }

    @Test func outOfRangeCoordinateInATextFieldStaysText() {
        let parsed = MapsURLParser.parse("comgooglemaps://?daddr=-100.5,200.25")
        #expect(parsed.request?.directions?.destination == .query("-100.5,200.25"))
        #expect(parsed.diagnostics.map(\.code) == [.coordinateOutOfRange])
    }

    @Test(arguments: [
        ("nan", DiagnosticCode.badNumber), ("inf", .badNumber), ("1e3", .badNumber), ("0x10", .badNumber),
    ])
    func zoomMustBeFinite(zoom: String, code: DiagnosticCode) {
        let parsed = MapsURLParser.parse("comgooglemaps://?zoom=\(zoom)&center=1,2")
        #expect(parsed.request == MapsRequest(center: Coordinate(latitude: 1, longitude: 2)))
        #expect(parsed.diagnostics.map(\.code) == [code])
    }

    @Test func zoomIsClampedToTheFormsRange() {
        #expect(MapsURLParser.parse("comgooglemaps://?zoom=30").request?.zoom == 21)
        #expect(MapsURLParser.parse("comgooglemaps://?zoom=-3").request?.zoom == 0)
        #expect(MapsURLParser.parse("https://maps.apple.com/?z=25").request?.zoom == 21)
    }

    @Test func overLongInputIsRejectedWhole() {
        let url = "comgooglemaps://?q=" + String(repeating: "a", count: MapsURLParser.maxInputLength)
        let parsed = MapsURLParser.parse(url)
        #expect(parsed.request == nil)
        #expect(parsed.diagnostics.map(\.code) == [.tooLong])
    }

    @Test func overLongValueIsDroppedAlone() {
        let url = "comgooglemaps://?center=1,2&q=" + String(repeating: "a", count: MapsURLParser.maxTextLength + 1)
        let parsed = MapsURLParser.parse(url)
        #expect(parsed.request == MapsRequest(center: Coordinate(latitude: 1, longitude: 2)))
        #expect(parsed.diagnostics.map(\.code) == [.valueTooLong])
    }

    @Test func thousandsOfAmpersandsAndParametersStayBounded() {
        let ampersands = MapsURLParser.parse("comgooglemaps://?" + String(repeating: "&", count: 8000))
        #expect(ampersands.request == MapsRequest())
        let many = MapsURLParser.parse(
            "comgooglemaps://?" + Array(repeating: "a=1", count: 1000).joined(separator: "&"))
        #expect(many.diagnostics.contains { $0.code == .tooManyParameters })
        #expect(many.diagnostics.count <= MapsURLParser.maxParameters + 1)
    }

    @Test func controlCharactersInValuesAreRejected() {
        let parsed = MapsURLParser.parse("comgooglemaps://?q=a%0Ab&center=1,2")
        #expect(parsed.request?.query == nil)
        #expect(parsed.diagnostics.map(\.code) == [.controlCharacter])
    }

    @Test func diagnosticsPointAtCharactersWithACaret() throws {
        let input = "comgooglemaps://?q=Zürich&center=nan,1"
        let parsed = MapsURLParser.parse(input)
        let diagnostic = try #require(parsed.diagnostics.first)
        #expect(diagnostic.offset == 33)
        #expect(diagnostic.length == 5)
        #expect(
            diagnostic.rendered(under: input)
                == "\(input)\n" + String(repeating: " ", count: 33) + "^^^^^\n"
                + "error[bad-coordinate] at 33: 'center' must be 'latitude,longitude' in plain decimal degrees; it is ignored"
        )
    }
}
