import Foundation
import GeoCore
import MapsURL
import Testing

/// Links as people share them, in the shapes the public test suites of other link readers
/// (Android and iOS map apps, link-sharing tools) and Google's and Apple's pages show, with
/// what each must read as. Only the fields named are checked.
struct Expected: Sendable, CustomTestStringConvertible {
    var link: String
    var form: LinkForm?
    var center: (Double, Double)?
    var zoom: Double?
    var marker: (Double, Double)?
    var query: String?
    var origin: Waypoint?
    var destination: Waypoint?
    var stops: [Waypoint]?
    var travelMode: TravelMode?
    var navigate: Bool?
    var avoid: Set<RouteAvoidance>?
    var shortLink: String?
    var span: (Double, Double)?
    var views: Set<MapsView>?
    var mapMode: MapMode?
    var placeID: String?

    var testDescription: String { link }

    func check() {
        let parsed = MapsURLParser.parse(link)
        guard let request = parsed.request else {
            Issue.record("no request from \(link): \(parsed.diagnostics)")
            return
        }
        if let form { #expect(parsed.form == form, "\(link)") }
        if let center { #expect(request.center == Coordinate(latitude: center.0, longitude: center.1), "\(link)") }
        if let zoom { #expect(request.zoom == zoom, "\(link)") }
        if let marker { #expect(request.marker == Coordinate(latitude: marker.0, longitude: marker.1), "\(link)") }
        if let query { #expect(request.query == query, "\(link)") }
        if let origin { #expect(request.directions?.origin == origin, "\(link)") }
        if let destination { #expect(request.directions?.destination == destination, "\(link)") }
        if let stops { #expect(request.directions?.waypoints == stops, "\(link)") }
        if let travelMode { #expect(request.directions?.travelMode == travelMode, "\(link)") }
        if let navigate { #expect(request.directions?.navigate == navigate, "\(link)") }
        if let avoid { #expect(request.directions?.avoid == avoid, "\(link)") }
        if let shortLink { #expect(request.shortLink == shortLink, "\(link)") }
        if let span {
            #expect(request.span == CoordinateSpan(latitudeDelta: span.0, longitudeDelta: span.1), "\(link)")
        }
        if let views { #expect(request.views == views, "\(link)") }
        if let mapMode { #expect(request.mapMode == mapMode, "\(link)") }
        if let placeID { #expect(request.placeID == placeID, "\(link)") }
        #expect(parsed.isValid, "\(link): \(parsed.diagnostics)")
    }
}

func at(_ latitude: Double, _ longitude: Double) -> Waypoint {
    .coordinate(Coordinate(latitude: latitude, longitude: longitude))
}

func place(_ name: String, _ latitude: Double, _ longitude: Double) -> Waypoint {
    .place(name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude))
}

@Suite struct RealWorldLinkTests {
    @Test(arguments: [
        Expected(
            link: "google.navigation:q=50.123456,-120.123456", form: .googleNavigation,
            destination: at(50.123456, -120.123456), navigate: true),
        Expected(link: "google.navigation:q=50.123456+-120.123456", destination: at(50.123456, -120.123456)),
        Expected(link: "google.navigation:q=50.123456%2B-120.123456", destination: at(50.123456, -120.123456)),
        Expected(link: "google.navigation:q=50.123456%20-120.123456", destination: at(50.123456, -120.123456)),
        Expected(link: "google.navigation:q=34.99393,-106.61568", destination: at(34.99393, -106.61568)),
        Expected(
            link: "google.navigation:q=foo+bar&avoid=tf&mode=l", destination: .query("foo bar"),
            travelMode: .twoWheeler, avoid: [.tolls, .ferries]),
        Expected(
            link: "google.navigation:avoid=h&mode=b&q=Taj+Mahal,+Agra", destination: .query("Taj Mahal, Agra"),
            travelMode: .bicycling, avoid: [.highways]),
        Expected(link: "google.navigation:q=Bahnhof+Z%C3%BCrich&mode=w", travelMode: .walking),
    ])
    func androidNavigationIntents(_ expected: Expected) { expected.check() }

    @Test(arguments: [
        Expected(link: "http://maps.google.com/maps/ll=34,-106,z=11", center: (34, -106), zoom: 11),
        Expected(
            link: "http://maps.google.com/maps/ll=34.99393,-106.61568,z=11", center: (34.99393, -106.61568), zoom: 11),
        Expected(
            link: "http://maps.google.com/maps/q=loc:34.99393,-106.61568&z=11", zoom: 11, marker: (34.99393, -106.61568)
        ),
        Expected(link: "http://maps.google.com/maps/q=loc:34,-106 (You)", marker: (34, -106), query: "You"),
        Expected(
            link: "https://maps.google.com/maps?q=loc:-21.8835112,-47.7838932 (Name)",
            marker: (-21.8835112, -47.7838932),
            query: "Name"),
        Expected(
            link: "https://maps.google.com/maps?q=loc:34.99393,-106.61568 (+55 99 99999-9999)",
            marker: (34.99393, -106.61568)),
        Expected(
            link: "http://www.google.com/maps/?q=loc:34.99393,-106.61568&z=11", zoom: 11, marker: (34.99393, -106.61568)
        ),
        Expected(
            link: "https://maps.google.com/maps?q=loc:34.99393,-106.61568/data=!4m4!2m3!3m1!2s-23.2776,-45.8443128!4b1",
            marker: (34.99393, -106.61568)),
        Expected(link: "http://maps.google.com/maps?q=N34.99393,W106.61568", marker: (34.99393, -106.61568)),
        Expected(link: "https://maps.google.com/?q=34.99393N,106.61568W", marker: (34.99393, -106.61568)),
        Expected(link: "https://maps.google.com/?q=S33.8683,E151.2086", marker: (-33.8683, 151.2086)),
        Expected(
            link: "https://www.google.com/maps?daddr=Bahnhofplatz+3,+7000+Chur@46.853582,9.529903",
            destination: place("Bahnhofplatz 3, 7000 Chur", 46.853582, 9.529903)),
        Expected(
            link: "https://maps.google.com/maps?f=d&daddr=2088 Albion Rd+@43.7481,-79.6332",
            destination: place("2088 Albion Rd", 43.7481, -79.6332)),
        Expected(
            link: "http://maps.google.com/maps?f=d&saddr=Home@52.5,13.4&daddr=Work@52.52,13.38&hl=en",
            origin: place("Home", 52.5, 13.4), destination: place("Work", 52.52, 13.38)),
        Expected(
            link: "https://maps.google.com/?q=Caf%C3%A9+Central@48.2104,16.3655", marker: (48.2104, 16.3655),
            query: "Café Central"),
        Expected(
            link: "http://www.google.com/maps/search/food/34.99393,-106.61568,14z", center: (34.99393, -106.61568),
            zoom: 14,
            query: "food"),
        Expected(link: "http://www.google.com/maps/search/food/34,-106,14z", center: (34, -106), zoom: 14),
        Expected(
            link: "https://www.google.com/?q=40.7128,-74.0060&ll=34.0522,-118.2437", center: (34.0522, -118.2437),
            marker: (40.7128, -74.006)),
        Expected(
            link: "https://www.google.com/?destination=Cherbourg,France&q=Paris,France",
            destination: .query("Cherbourg,France")),
        Expected(
            link: "https://www.google.com/?destination=Cherbourg,France&query=Paris,France", query: "Paris,France",
            destination: .query("Cherbourg,France")),
        Expected(link: "https://www.google.com/?q=Eiffel+Tower", query: "Eiffel Tower"),
        Expected(link: "https://maps.google.co.uk/?q=34.99393,-106.61568", marker: (34.99393, -106.61568)),
        Expected(link: "http://www.google.com.tr/maps?q=34.99393,-106.61568", marker: (34.99393, -106.61568)),
        Expected(link: "http://maps.google.com?saddr=Current+Location&daddr=34,-106", destination: at(34, -106)),
        Expected(
            link:
                "http://maps.google.com/maps?lci=com.google.latitudepublicupdates&ll=34.99393%2C-106.61568&q=34.99393%2C-106.61568",
            center: (34.99393, -106.61568), marker: (34.99393, -106.61568)),
        Expected(
            link: "https://maps.google.com/?q=39.797573,18.370173&entry=gps&g_ep=abc&shorturl=1",
            marker: (39.797573, 18.370173)),
        Expected(link: "https://www.google.com/maps?foo=bar&q=48.857832,2.295226&spam", marker: (48.857832, 2.295226)),
    ])
    func legacyGoogleForms(_ expected: Expected) {
        // Unknown parameters are notes: the links stay valid.
        expected.check()
    }

    @Test(arguments: [
        Expected(
            link:
                "https://www.google.com/maps/dir/Hermannstra%C3%9Fe+1,+12049+Berlin,+Germany/Weserstr.+1,+12047+Berlin,+Germany/Reuterstra%C3%9Fe+1,+Berlin-Neuk%C3%B6lln,+Germany/@52.4844406,13.4217121,16z/data=!3m1!4b1!4m20!4m19!1m5!1m1!1s0x47a84fb831937021:0x28d6914e5ca0f9f5!2m2!1d13.4236883!2d52.4858222!1m5!1m1!1s0x47a84fb7098f1d89:0x74c8a84ad2981e9f!2m2!1d13.4255518!2d52.4881038!1m5!1m1!1s0x47a84fbb7c0791d7:0xf6e39aaedab8b2d9!2m2!1d13.4300356!2d52.4807739!3e2",
            center: (52.4844406, 13.4217121), zoom: 16,
            origin: place("Hermannstraße 1, 12049 Berlin, Germany", 52.4858222, 13.4236883),
            destination: place("Reuterstraße 1, Berlin-Neukölln, Germany", 52.4807739, 13.4300356),
            stops: [place("Weserstr. 1, 12047 Berlin, Germany", 52.4881038, 13.4255518)], travelMode: .walking),
        Expected(
            link:
                "https://www.google.com/maps/dir/%D0%9B%D0%B8%D0%BA%D0%B8%D0%BD%D0%BE/%D0%9B%D0%B5%D1%81%D0%BD%D0%BE%D0%B9+%D0%93%D0%BE%D1%80%D0%BE%D0%B4%D0%BE%D0%BA/%D0%91%D0%B0%CC%81%D0%BA%D0%BE%D0%B2%D0%BA%D0%B0/data=!4m38!4m37!1m5!1m4!1s0x46b55767341de071:0xe1281fa8dd2b9f9c!8m2!3d55.626402299999995!4d37.1331874!1m5!1m4!1s0x46b550cf63985f73:0x6b36a6abc6d503bc!8m2!3d55.637071!4d37.206128!1m5!1m4!1s0x46b551d28d217481:0x798f7f7ed913cf5!8m2!3d55.6826036!4d37.3149893!3e0",
            origin: place("Ликино", 55.626402299999995, 37.1331874),
            destination: place("Ба\u{301}ковка", 55.6826036, 37.3149893),
            stops: [place("Лесной Городок", 55.637071, 37.206128)], travelMode: .driving),
        Expected(
            link:
                "https://www.google.com/maps/dir//The+Station,+1+Mends+St,+South+Perth+WA+6151/@-31.9614112,115.8523381,14z/data=!4m6!4m5!1m0!1m2!1m1!1s0x2a32a529928d7447%3A0x4a1084749ffdee05!3e0!11m1!6b1?entry=ml&utm_campaign=ml-navnp-dr&coh=230964",
            origin: .currentLocation, destination: .query("The Station, 1 Mends St, South Perth WA 6151")),
        Expected(
            link: "https://www.google.com/maps/dir/40.7128,-74.0060/34.0522,-118.2437", origin: at(40.7128, -74.006),
            destination: at(34.0522, -118.2437)),
        Expected(
            link: "https://www.google.com/maps/dir/New+York,+NY/Philadelphia,+PA/Washington,+DC",
            origin: .query("New York, NY"), destination: .query("Washington, DC"), stops: [.query("Philadelphia, PA")]),
        Expected(link: "https://www.google.com/maps/dir/Berlin/Potsdam/data=spam", destination: .query("Potsdam")),
        Expected(
            link:
                "https://www.google.com/maps/dir/My+location/H%c3%b4pital+Europ%c3%a9en+Georges+Pompidou,20+r+Leblanc%2c+75015+Paris/@48.83887481689453,2.2740750312805176,8z/",
            destination: .query("Hôpital Européen Georges Pompidou,20 r Leblanc, 75015 Paris")),
    ])
    func directionsWithTheirStops(_ expected: Expected) { expected.check() }

    @Test(arguments: [
        Expected(
            link: "https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8", form: .googleShortLink,
            shortLink: "https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8"),
        Expected(
            link: "https://maps.app.goo.gl/ABCdef123%3C/a%3E%3C/p%3E", shortLink: "https://maps.app.goo.gl/ABCdef123"),
        Expected(link: "https://maps.app.goo.gl/ABCdef123).", shortLink: "https://maps.app.goo.gl/ABCdef123"),
        Expected(link: "https://maps.app.goo.gl/ABCdef123\"", shortLink: "https://maps.app.goo.gl/ABCdef123"),
        Expected(link: "https://maps.app.goo.gl/ABCdef123?g_st=ic", shortLink: "https://maps.app.goo.gl/ABCdef123"),
        Expected(link: "https://goo.gl/maps/AbC123xyz", shortLink: "https://goo.gl/maps/AbC123xyz"),
        Expected(link: "https://app.goo.gl/maps/AbCdEf", shortLink: "https://app.goo.gl/maps/AbCdEf"),
        Expected(link: "https://g.co/kgs/AbCdEf", shortLink: "https://g.co/kgs/AbCdEf"),
        Expected(
            link: "https://maps.apple/p/7E-Brjrk_THN14", form: .appleShortLink,
            shortLink: "https://maps.apple/p/7E-Brjrk_THN14"),
        Expected(link: "maps.apple/p/7E-Brjrk_THN14", shortLink: "https://maps.apple/p/7E-Brjrk_THN14"),
        Expected(
            link:
                "https://maps.app.goo.gl/?link=https://www.google.com/maps/place/Central+Park/@40.785091,-73.968285,15z&apn=com.google.android.apps.maps&ibi=com.google.Maps&ius=comgooglemapsurl",
            form: .googleMapsWeb, center: (40.785091, -73.968285), zoom: 15, query: "Central Park"),
        Expected(
            link: "https://maps.app.goo.gl/?link=https%3A%2F%2Fwww.google.com%2Fmaps%2F%3Fq%3D48.8584%2C2.2945&apn=x",
            marker: (48.8584, 2.2945)),
    ])
    func shortAndDynamicLinks(_ expected: Expected) { expected.check() }

    @Test(arguments: [
        Expected(
            link: "geo:34.99393,-106.61568 (Treasure Island)", center: (34.99393, -106.61568),
            marker: (34.99393, -106.61568), query: "Treasure Island"),
        Expected(link: "geo:34.99393,-106.61568?z=11 (Treasure Island)", zoom: 11, query: "Treasure Island"),
        Expected(link: "geo:0,0(Treasure Island)", query: "Treasure Island"),
        Expected(
            link: "geo:0,0?q=34.99393,-106.61568(Treasure+Island)", marker: (34.99393, -106.61568),
            query: "Treasure Island"),
        Expected(
            link: "geo:0,0?z=11&q=34.99393,-106.61568 (Treasure Island)", zoom: 11, marker: (34.99393, -106.61568)),
        Expected(link: "geo:?q=Paris", query: "Paris"),
        Expected(link: "geo:0,0?Z=11&q=Paris", zoom: 11, query: "Paris"),
        Expected(
            link: "geo:50.451300,30.569900?z=15&q=50.451300,30.569900 (Kiev)", zoom: 15, marker: (50.4513, 30.5699),
            query: "Kiev"),
        Expected(link: "geo:0,0?q=50.4513%2C%2030.5699", marker: (50.4513, 30.5699)),
        Expected(link: "geo:50.4513%2C%2030.5699", center: (50.4513, 30.5699)),
        Expected(
            link: "geo:0,0?q=760 West Genesee Street Syracuse NY 13204",
            query: "760 West Genesee Street Syracuse NY 13204"),
        Expected(link: "geo:0,0?q=86HJV99P%2B29", query: "86HJV99P+29"),
        Expected(link: "geo:34,-106", center: (34, -106)),
        Expected(link: "geo:52,9?q=(theName)", center: (52, 9), marker: (52, 9), query: "theName"),
        Expected(
            link: "geo:0,0?q=52,9,0(theName,containing,kommas)", marker: (52, 9), query: "theName,containing,kommas"),
        Expected(link: "geo:0,0?q=(theName)", query: "theName"),
        Expected(link: "geo:52.1,9.2,100;crs=wgs84;u=35", center: (52.1, 9.2)),
    ])
    func geoURIsAsAppsWriteThem(_ expected: Expected) { expected.check() }

    @Test func geoKeepsThePositionWhenZIsNotANumberAndOutOfRangeNumbersStayText() throws {
        let badZoom = MapsURLParser.parse("geo:34.99393,-106.61568?z=abc")
        #expect(badZoom.request?.center == Coordinate(latitude: 34.99393, longitude: -106.61568))
        #expect(badZoom.diagnostics.map(\.severity) == [.warning] && badZoom.isValid)
        let outOfRange = MapsURLParser.parse("geo:0,0?q=-100.5,200.25")
        #expect(outOfRange.request?.query == "-100.5,200.25" && outOfRange.request?.marker == nil)
    }

    @Test(arguments: [
        Expected(
            link:
                "https://maps.apple.com/search?span=0.0076562252877820924,0.009183883666992188&center=52.49115540927951,13.42595574770533",
            center: (52.49115540927951, 13.42595574770533), span: (0.0076562252877820924, 0.009183883666992188)),
        Expected(
            link: "https://maps.apple.com/?address=Reuterplatz+3,+12047+Berlin,+Germany&q=Reuterplatz",
            query: "Reuterplatz 3, 12047 Berlin, Germany"),
        Expected(
            link: "https://maps.apple.com/?name=Reuterplatz&q=Reuterplatz+3,+12047+Berlin,+Germany",
            query: "Reuterplatz"),
        Expected(
            link:
                "https://maps.apple.com/place?place-id=I1E40915DF4BA1C96&address=Reuterplatz+3,+12047+Berlin,+Germany&coordinate=52.4890246,13.4295963&name=Reuterplatz&_provider=9902",
            marker: (52.4890246, 13.4295963), query: "Reuterplatz 3, 12047 Berlin, Germany"),
        Expected(
            link: "https://maps.apple.com/?address=Reuterplatz+3,+12047+Berlin,+Germany&name=Reuterplatz",
            query: "Reuterplatz 3, 12047 Berlin, Germany"),
        Expected(link: "https://maps.apple.com/?daddr=50.894967,4.341626", destination: at(50.894967, 4.341626)),
        Expected(link: "https://maps.apple.com/?sll=50.894967,4.341626", center: (50.894967, 4.341626)),
        Expected(
            link: "https://maps.apple.com/directions?destination=Reuterplatz+3,+Berlin&mode=cycling",
            destination: .query("Reuterplatz 3, Berlin"), travelMode: .bicycling),
        Expected(link: "http://maps.apple.com/?ll=34.99393,-106.61568&z=11", center: (34.99393, -106.61568), zoom: 11),
    ])
    func appleMapsLinks(_ expected: Expected) { expected.check() }

    @Test func appleDirectionsTakeEveryWaypointInOrderAndTheirAvoidances() throws {
        let parsed = MapsURLParser.parse(
            "https://maps.apple.com/directions?source=Roma&waypoint=Firenze&waypoint=43.77,11.25"
                + "&destination=Milano&mode=driving&avoid=tolls,Highways")
        let directions = try #require(parsed.request?.directions)
        #expect(directions.waypoints == [.query("Firenze"), at(43.77, 11.25)])
        #expect(directions.origin == .query("Roma") && directions.destination == .query("Milano"))
        #expect(directions.avoid == [.tolls, .highways] && directions.travelMode == .driving)
        #expect(parsed.diagnostics.isEmpty)
        let many = (1...11).map { "waypoint=\($0),\($0)" }.joined(separator: "&")
        let capped = MapsURLParser.parse("https://maps.apple.com/directions?destination=Milano&\(many)")
        #expect(capped.request?.directions?.waypoints.count == Directions.maxWaypoints)
        #expect(capped.diagnostics.map(\.code) == [.tooManyWaypoints])
    }

    @Test func appleFramesTakeTheirMapModeAndACameraDistanceWhenNoSpanIsGiven() throws {
        let satellite = try #require(
            MapsURLParser.parse("https://maps.apple.com/frame?center=40.35,-111.98&distance=5000&map=satellite").request
        )
        #expect(satellite.views == [.satellite])
        let span = try #require(satellite.span)
        #expect(abs(span.latitudeDelta - 5000 / 111_319.49) < 1e-4)
        #expect(span.longitudeDelta > span.latitudeDelta)
        let framed = try #require(
            MapsURLParser.parse(
                "https://maps.apple.com/frame?center=40.351526,-111.988386&distance=488.744275&map=explore"
                    + "&span=0.002334,0.003289"
            ).request)
        #expect(framed.span == CoordinateSpan(latitudeDelta: 0.002334, longitudeDelta: 0.003289))
        #expect(framed.views == [])
        #expect(MapsURLParser.parse("https://maps.apple.com/?map=driving&ll=1,2").request?.views == [.traffic])
        let lonely = MapsURLParser.parse("https://maps.apple.com/?ll=1,2&avoid=tolls")
        #expect(lonely.request?.directions == nil && lonely.diagnostics.map(\.code) == [.needsDirections])
    }

    /// Where OpenMaps reads differently from other readers on purpose, and says why.
    @Test(arguments: [
        // Web links on other schemes: a browser would not open them as maps links.
        ("ftp://www.google.com/maps/@52.5067296,13.2599309,6z", DiagnosticCode.unsupportedScheme),
        // A Google web search is not a Maps link.
        ("https://www.google.com/search?q=pizza", .notAMapsPath),
        // Raw control characters are refused, not stripped.
        ("https://maps.google.com/?q=foo%0Abar", .controlCharacter),
        // Look-alike hosts.
        ("https://maps.google.com.evil.example/?q=x", .hostNotMaps),
        ("https://maps.apple.com.evil.example/?q=x", .hostNotMaps),
        // A dynamic link's link= must itself be a maps link.
        ("https://maps.app.goo.gl/?link=https://evil.example/maps/@1,2,3z", .hostNotMaps),
    ])
    func deliberateRefusals(_ link: String, _ code: DiagnosticCode) {
        let parsed = MapsURLParser.parse(link)
        #expect(parsed.diagnostics.contains { $0.code == code && $0.severity == .error }, "\(parsed.diagnostics)")
        #expect(!parsed.isValid)
    }

    @Test func linksInsideTextAreFoundWithTheirRanges() throws {
        let text = """
            Meet here: https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8 see you! Or \
            <a href="https://www.google.com/maps/place/Central+Park/@40.785091,-73.968285,15z">the park</a>, \
            (geo:34.99393,-106.61568). Not https://example.com/maps or google.com, but maps.apple.com/?q=Coffee.
            """
        let links = MapsURLParser.find(in: text)
        #expect(
            links.map(\.link) == [
                "https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8",
                "https://www.google.com/maps/place/Central+Park/@40.785091,-73.968285,15z",
                "geo:34.99393,-106.61568", "maps.apple.com/?q=Coffee",
            ])
        for link in links { #expect(String(text[link.range]) == link.link) }
        #expect(links.map(\.parsed.form) == [.googleShortLink, .googleMapsWeb, .geo, .appleMaps])
        let reading = MapsURLParser.read("Meet here: https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8 see you")
        #expect(reading.wasInText && reading.linksInText == 1 && reading.parsed.request?.shortLink != nil)
        let alone = MapsURLParser.read("geo:1,2")
        #expect(!alone.wasInText && alone.link == "geo:1,2")
        #expect(MapsURLParser.find(in: "no links here, just google.com and a.b").isEmpty)
    }

    /// Google names a dropped pin by its position in degrees, minutes and seconds.
    @Test(arguments: [
        Expected(
            link: "https://www.google.com/maps/place/48%C2%B051'29.6%22N+2%C2%B017'40.2%22E/@48.8582222,2.2945,17z",
            center: (48.8582222, 2.2945), zoom: 17, marker: (48.85822222, 2.2945)),
        Expected(
            link: "https://www.google.com/maps?q=33%C2%B051%E2%80%B254%E2%80%B3S,151%C2%B012%E2%80%B234%E2%80%B3E",
            marker: (-33.865, 151.20944444)),
        Expected(
            link: "https://maps.google.com/?q=N%2048%C2%B051.493'%20E%202%C2%B017.67'", marker: (48.85821667, 2.2945)),
        Expected(link: "https://maps.google.com/?q=48.8582%C2%B0N%202.2945%C2%B0E", marker: (48.8582, 2.2945)),
        Expected(link: "https://maps.google.com/?q=48%C2%B061'N%202%C2%B0E", query: "48°61'N 2°E"),
        Expected(link: "https://maps.google.com/?q=Route%2066%C2%B0", query: "Route 66°"),
    ])
    func droppedPinsInDegreesMinutesAndSeconds(_ expected: Expected) { expected.check() }

    /// Maps embedded in web pages: the Embed API and the share dialog's `pb` blob.
    @Test(arguments: [
        Expected(
            link: "https://www.google.com/maps/embed/v1/place?key=API_KEY&q=Space+Needle,Seattle+WA",
            query: "Space Needle,Seattle WA"),
        Expected(
            link: "https://www.google.com/maps/embed/v1/view?key=K&center=-33.8569,151.2152&zoom=18&maptype=satellite",
            center: (-33.8569, 151.2152), zoom: 18, views: [.satellite]),
        Expected(
            link:
                "https://www.google.com/maps/embed/v1/directions?key=K&origin=Oslo+Norway&destination=Telemark+Norway"
                + "&avoid=tolls|highways&mode=bicycling&waypoints=Drammen|Kongsberg",
            origin: .query("Oslo Norway"), destination: .query("Telemark Norway"),
            stops: [.query("Drammen"), .query("Kongsberg")], travelMode: .bicycling, avoid: [.tolls, .highways]),
        Expected(
            link: "https://www.google.com/maps/embed/v1/streetview?key=K&location=46.414382,10.013988&heading=210",
            center: (46.414382, 10.013988), mapMode: .streetView),
        Expected(
            link:
                "https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d3022.9663095343008!2d-73.98784368459418"
                + "!3d40.75798597932681!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13.1!3m3!1m2!1s0x89c25855c6480299%3A"
                + "0x55194ec5a1ae072e!2sTimes%20Square!5e0!3m2!1sen!2sus!4v1600000000000!5m2!1sen!2sus",
            center: (40.75798597932681, -73.98784368459418), query: "Times Square"),
        Expected(
            link:
                "https://www.google.com/maps/embed?pb=!1m28!1m12!1m3!1d421188.1259875271!2d1.5370175529156327"
                + "!3d49.028173071130745!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13.1!4m13!3e0!4m5!1s0x47e66e1f06e2b70f"
                + "%3A0x40b82c3688c9460!2sParis!3m2!1d48.856614!2d2.3522219!4m5!1s0x47e1289bac44658f%3A"
                + "0xe940a5c757b0bf2a!2sL%C3%A9ry-Poses+en+Normandie%2C+Poses!3m2!1d49.302783!2d1.209404!5e1!3m2!1sfr"
                + "!2sfr!4v1544558819114",
            origin: place("Paris", 48.856614, 2.3522219),
            destination: place("Léry-Poses en Normandie, Poses", 49.302783, 1.209404), travelMode: .driving,
            views: [.satellite]),
        Expected(
            link:
                "https://www.google.com/maps/embed?pb=!1m28!1m12!1m3!1d177327.27!2d60.548!3d55.075!2m3!1f0!2f0!3f0"
                + "!3m2!1i1024!2i768!4f13.1!4m13!3e2!4m5!1s0x43c592cb104a3a8d%3A0xef224a2a6d1711bf!2z0KfQtdC70Y_Qs"
                + "dC40L3RgdC6!3m2!1d55.1644419!2d61.4368432!4m5!1s0x1%3A0x2!2sKopeysk!3m2!1d55.0053557!2d60.3180498",
            origin: place("Челябинск", 55.1644419, 61.4368432), destination: place("Kopeysk", 55.0053557, 60.3180498),
            travelMode: .walking),
    ])
    func embeddedMaps(_ expected: Expected) { expected.check() }

    /// Desktop share links: layers and travel modes in the data blob, quoted coordinates and
    /// the user's location as directions ends, legacy Street View, intents.
    @Test(arguments: [
        Expected(link: "https://www.google.com/maps/@48.8566,2.3522,14z/data=!5m1!1e1", views: [.traffic]),
        Expected(
            link: "https://www.google.com/maps/@48.8566,2.3522,14z/data=!5m2!1e4!1e2", views: [.terrain, .transit]),
        Expected(link: "https://www.google.com/maps/@48.8566,2.3522,500m/data=!3m1!1e3", views: [.satellite]),
        Expected(link: "https://www.google.com/maps/dir/Paris/Lyon/data=!4m2!4m1!3e2", travelMode: .walking),
        Expected(
            link: "https://www.google.com/maps/dir/'40.7,-74'/'41.0,-73.5'/", origin: at(40.7, -74),
            destination: at(41, -73.5)),
        Expected(
            link: "https://www.google.com/maps/dir/Current+Location/40.7,-74", origin: .currentLocation,
            destination: at(40.7, -74)),
        Expected(
            link: "https://maps.google.com/maps?saddr=Mi%20ubicaci%C3%B3n&daddr=Times+Square", origin: .currentLocation,
            destination: .query("Times Square")),
        Expected(
            link: "https://maps.google.com/maps?ll=37.06,-95.67&z=4&layer=c&cbll=40.748817,-73.985428&cbp=12,180,,0,5",
            center: (40.748817, -73.985428), mapMode: .streetView),
        Expected(
            link: "https://www.google.com/maps/place/?q=place_id:ChIJN1t_tDeuEmsRUsoyG83frY4",
            placeID: "ChIJN1t_tDeuEmsRUsoyG83frY4"),
        Expected(
            link:
                "intent://maps.google.com/maps?daddr=45.1,7.6#Intent;scheme=https;package=com.google.android.apps.maps;end",
            destination: at(45.1, 7.6)),
        Expected(link: "intent:0,0?q=Pizza#Intent;scheme=geo;end", query: "Pizza"),
        Expected(link: "maps://app?daddr=45.1,7.6", destination: at(45.1, 7.6)),
    ])
    func desktopShareDetails(_ expected: Expected) { expected.check() }

    /// `@lat,lng,500m` shows 500 m of ground; `2848a` is a 3D camera's altitude; `3a` and `0a`
    /// open Street View.
    @Test func viewportMetresBecomeASpanAndSmallAltitudesOpenStreetView() throws {
        let satellite = try #require(MapsURLParser.parse("https://www.google.com/maps/@48.8566,2.3522,500m").request)
        #expect(abs((satellite.span?.latitudeDelta ?? 0) - 500 / 111_319.49) < 1e-6 && satellite.mapMode == nil)
        let earth = try #require(
            MapsURLParser.parse("https://www.google.com/maps/@44.4490541,26.0888398,2848a,13.1y").request)
        #expect(earth.mapMode == nil && earth.span != nil)
        for mark in ["0a", "3a"] {
            let parsed = MapsURLParser.parse("https://www.google.com/maps/@53.51,57.68,\(mark),75y,90t/data=abc")
            #expect(parsed.request?.mapMode == .streetView && parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        }
    }

    @Test func appleLlWinsOverTheUnifiedCenterAndTrackingParametersAreQuiet() {
        let apple = MapsURLParser.parse("https://maps.apple.com/?ll=-17.2165721,-149.9470294&center=52.49,13.42")
        #expect(apple.request?.center == Coordinate(latitude: -17.2165721, longitude: -149.9470294))
        let tracked = MapsURLParser.parse(
            "https://www.google.com/maps/place/Pozna%C5%84/data=12345?utm_source=mstt_1&entry=gps&coh=12345&g_ep=abcd")
        #expect(tracked.request?.query == "Poznań" && tracked.diagnostics.isEmpty)
    }

    @Test func legacyStreetViewKeepsItsCameraWithPitchTurnedUpright() throws {
        let request = try #require(
            MapsURLParser.parse("https://maps.google.com/maps?layer=c&cbll=40.7,-73.9&panoid=abc&cbp=12,180,,0,5")
                .request)
        #expect(request.streetView == StreetViewCamera(heading: 180, pitch: -5, panoramaID: "abc"))
    }

    /// Links copied from a page's HTML source keep `&amp;`; embed snippets write an empty `t=`.
    @Test func htmlSourceAndEmbedSnippetsReadCleanly() throws {
        let copied = MapsURLParser.parse(
            "https://maps.google.com/maps?width=100%25&amp;height=600&amp;hl=en&amp;q=1%20Grafton%20Street,%20Dublin"
                + "&amp;t=&amp;z=14&amp;ie=UTF8&amp;iwloc=B&amp;output=embed")
        #expect(copied.request?.query == "1 Grafton Street, Dublin" && copied.request?.zoom == 14)
        #expect(copied.diagnostics.map(\.code) == [.htmlAmpersand])
        let snippet = MapsURLParser.parse("https://maps.google.com/maps?q=manhatan&t=&z=13&ie=UTF8&iwloc=&output=embed")
        #expect(snippet.diagnostics.isEmpty && snippet.request?.views == nil)
    }

    /// Place ids and feature ids name places in Google's database: noted, never followed.
    @Test(arguments: [
        "https://maps.google.com/?cid=11170656748112423237&entry=gps",
        "https://www.google.com/maps?ftid=0x47e66e2964e34e2d:0x8ddca9ee380ef7e0",
        "https://www.google.com/maps/place/data=!4m2!3m1!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0",
        "https://www.google.com/maps/place//data=!4m2!3m1!1s0xc3f7d4e21a00705:0xa9ea51361ed84bda",
        "https://www.google.com/maps/d/viewer?mid=1abcDEF&ll=40.7,-74&z=10",
    ])
    func databaseIdsAreNoted(_ link: String) {
        let parsed = MapsURLParser.parse(link)
        #expect(parsed.request != nil && parsed.diagnostics.map(\.code) == [.placeIdIgnored], "\(parsed.diagnostics)")
    }

    @Test(arguments: [
        "intent://maps.google.com/maps?daddr=45.1,7.6#Intent;scheme=evilapp;end",
        "intent://maps.google.com/?q=x",
        "intent://x#Intent;scheme=intent;end",
        "intent://evil.example/maps?q=x#Intent;scheme=https;end",
    ])
    func intentsCarryOnlyMapsLinks(_ link: String) {
        let parsed = MapsURLParser.parse(link)
        #expect(parsed.request == nil && parsed.diagnostics.contains { $0.severity == .error })
    }
}

/// Every link of `Examples/real-world-links.txt` (the fuzzer's wild seeds) against the parser's
/// invariants: each line above the `# [refused]` marker is read (as a link, or as a text holding
/// one) without errors, each line below it is refused or carries an error, and converting any
/// of them to every target and back loses nothing unreported.
@Suite struct RealWorldLinksFileTests {
    static let sections: (read: [String], refused: [String]) = {
        let fileURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/real-world-links.txt").standardized
        let text = (try? String(contentsOf: fileURL, encoding: .utf8)) ?? ""
        var read: [String] = []
        var refused: [String] = []
        var inRefused = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# [refused]") { inRefused = true }
            guard !line.hasPrefix("#"), !line.isEmpty else { continue }
            if inRefused { refused.append(String(line)) } else { read.append(String(line)) }
        }
        return (read, refused)
    }()

    @Test func theFileIsThere() {
        #expect(Self.sections.read.count >= 150 && Self.sections.refused.count >= 5)
    }

    @Test func everyLinkIsReadWithoutErrors() {
        for line in Self.sections.read {
            let reading = MapsURLParser.read(line)
            #expect(reading.parsed.request != nil, "\(line)")
            #expect(
                reading.parsed.diagnostics.allSatisfy { $0.severity != .error },
                "\(line): \(reading.parsed.diagnostics)")
        }
    }

    @Test func everyRefusedLinkIsRefused() {
        for line in Self.sections.refused {
            let parsed = MapsURLParser.read(line).parsed
            #expect(parsed.request == nil || parsed.diagnostics.contains { $0.severity == .error }, "\(line)")
        }
    }

    @Test func everyLinkKeepsTheRoundTripInvariants() {
        for line in Self.sections.read + Self.sections.refused {
            let violations = RoundTrip.violations(for: MapsURLParser.read(line).link)
            #expect(violations.isEmpty, "\(line): \(violations)")
        }
    }
}
