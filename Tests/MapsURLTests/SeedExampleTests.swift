import Foundation
import GeoCore
import MapsURL
import Testing

/// Every example link of the URL scheme seed document (the four language copies carry the
/// same ones) parses to exactly the request the document describes.
@Suite struct SeedExampleTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var url: String
        var form: LinkForm
        var request: MapsRequest
        var testDescription: String { url }
    }

    static let sourceApp = try! Callback(source: "SourceApp", success: "sourceapp://?resume=true")
    static let jfk = Waypoint.query("John F. Kennedy International Airport, Van Wyck Expressway, Jamaica, New York")
    static let tokyo = MapsRequest(
        center: Coordinate(latitude: 35.6586, longitude: 139.7454),
        span: CoordinateSpan(latitudeDelta: 0.2, longitudeDelta: 0.1),
        directions: Directions(destination: .query("Tokyo Tower, Tokyo, Japan"), navigate: true))

    static let examples: [Example] = [
        Example(
            url: "comgooglemaps://?center=40.765819,-73.975866&zoom=14&views=traffic", form: .comgooglemaps,
            request: MapsRequest(
                center: Coordinate(latitude: 40.765819, longitude: -73.975866), zoom: 14, views: [.traffic])),
        Example(
            url: "comgooglemaps://?center=37.788463,-122.392545&zoom=12", form: .comgooglemaps,
            request: MapsRequest(center: Coordinate(latitude: 37.788463, longitude: -122.392545), zoom: 12)),
        Example(
            url: "comgooglemaps://?center=46.414382,10.013988&mapmode=streetview", form: .comgooglemaps,
            request: MapsRequest(center: Coordinate(latitude: 46.414382, longitude: 10.013988), mapMode: .streetView)),
        Example(
            url: "comgooglemaps://?q=Pizza&center=37.759748,-122.427135", form: .comgooglemaps,
            request: MapsRequest(center: Coordinate(latitude: 37.759748, longitude: -122.427135), query: "Pizza")),
        Example(
            url:
                "comgooglemaps://?q=Steamers+Lane+Santa+Cruz,+CA&center=37.782652,-122.410126&views=satellite,traffic&zoom=15",
            form: .comgooglemaps,
            request: MapsRequest(
                center: Coordinate(latitude: 37.782652, longitude: -122.410126), zoom: 15,
                views: [.satellite, .traffic], query: "Steamers Lane Santa Cruz, CA")),
        Example(
            url:
                "comgooglemaps://?q=Google+Japan,+Minato,+Tokyo,+Japan&center=35.660888,139.73073&zoom=15&views=transit",
            form: .comgooglemaps,
            request: MapsRequest(
                center: Coordinate(latitude: 35.660888, longitude: 139.73073), zoom: 15, views: [.transit],
                query: "Google Japan, Minato, Tokyo, Japan")),
        Example(
            url:
                "comgooglemaps://?saddr=Google+Inc,+8th+Avenue,+New+York,+NY&daddr=John+F.+Kennedy+International+Airport,"
                + "+Van+Wyck+Expressway,+Jamaica,+New+York&directionsmode=transit",
            form: .comgooglemaps,
            request: MapsRequest(
                directions: Directions(
                    origin: .query("Google Inc, 8th Avenue, New York, NY"), destination: jfk, travelMode: .transit))),
        Example(
            url: "comgooglemaps://?saddr=Google,+1600+Amphitheatre+Parkway,+Mountain+View,+CA+94043&daddr=Google+Inc,"
                + "+345+Spear+Street,+San+Francisco,+CA&center=37.422185,-122.083898&zoom=10",
            form: .comgooglemaps,
            request: MapsRequest(
                center: Coordinate(latitude: 37.422185, longitude: -122.083898), zoom: 10,
                directions: Directions(
                    origin: .query("Google, 1600 Amphitheatre Parkway, Mountain View, CA 94043"),
                    destination: .query("Google Inc, 345 Spear Street, San Francisco, CA")))),
        Example(
            url:
                "comgooglemaps://?saddr=2025+Garcia+Ave,+Mountain+View,+CA,+USA&daddr=Google,+1600+Amphitheatre+Parkway,"
                + "+Mountain+View,+CA,+United+States&center=37.423725,-122.0877&directionsmode=walking&zoom=17",
            form: .comgooglemaps,
            request: MapsRequest(
                center: Coordinate(latitude: 37.423725, longitude: -122.0877), zoom: 17,
                directions: Directions(
                    origin: .query("2025 Garcia Ave, Mountain View, CA, USA"),
                    destination: .query("Google, 1600 Amphitheatre Parkway, Mountain View, CA, United States"),
                    travelMode: .walking))),
        Example(
            url:
                "comgooglemaps-x-callback://?center=40.765819,-73.975866&zoom=14\n   &x-success=sourceapp://?resume=true\n   &x-source=SourceApp",
            form: .comgooglemapsXCallback,
            request: MapsRequest(
                center: Coordinate(latitude: 40.765819, longitude: -73.975866), zoom: 14, callback: sourceApp)),
        Example(
            url:
                "comgooglemaps-x-callback://?q=dessert&center=37.759748,-122.427135\n   &x-success=sourceapp://?resume=true\n   &x-source=Nom+Nom",
            form: .comgooglemapsXCallback,
            request: MapsRequest(
                center: Coordinate(latitude: 37.759748, longitude: -122.427135), query: "dessert",
                callback: try! Callback(source: "Nom Nom", success: "sourceapp://?resume=true"))),
        Example(
            url: "comgooglemaps-x-callback://"
                + "?daddr=John+F.+Kennedy+International+Airport,+Van+Wyck+Expressway,+Jamaica,+New+York"
                + "&x-success=sourceapp://?resume=true&x-source=AirApp",
            form: .comgooglemapsXCallback,
            request: MapsRequest(
                directions: Directions(destination: jfk),
                callback: try! Callback(source: "AirApp", success: "sourceapp://?resume=true"))),
        Example(
            url: "https://www.google.com/maps/@42.585444,13.007813,6z", form: .googleMapsWeb,
            request: MapsRequest(center: Coordinate(latitude: 42.585444, longitude: 13.007813), zoom: 6)),
        Example(
            url: "https://www.google.com/maps/preview/@42.585444,13.007813,6z", form: .googleMapsWeb,
            request: MapsRequest(center: Coordinate(latitude: 42.585444, longitude: 13.007813), zoom: 6)),
        Example(
            url: "comgooglemapsurl://www.google.com/maps/preview/@42.585444,13.007813,6z", form: .comgooglemapsurl,
            request: MapsRequest(center: Coordinate(latitude: 42.585444, longitude: 13.007813), zoom: 6)),
        Example(
            url: "https://maps.google.com/?q=@37.3161,-122.1836", form: .googleMapsWeb,
            request: MapsRequest(marker: Coordinate(latitude: 37.3161, longitude: -122.1836))),
        Example(
            url: "comgooglemapsurl://maps.google.com/?q=@37.3161,-122.1836", form: .comgooglemapsurl,
            request: MapsRequest(marker: Coordinate(latitude: 37.3161, longitude: -122.1836))),
        Example(
            url:
                "http://maps.google.com/maps?f=d&daddr=Tokyo+Tower,+Tokyo,+Japan&sll=35.6586,139.7454&sspn=0.2,0.1&nav=1",
            form: .googleMapsWeb, request: tokyo),
        Example(
            url:
                "comgooglemapsurl://maps.google.com/maps?f=d&daddr=Tokyo+Tower,+Tokyo,+Japan&sll=35.6586,139.7454&sspn=0.2,0.1&nav=1\n"
                + "    &x-source=SourceApp\n    &x-success=sourceapp://?resume=true",
            form: .comgooglemapsurl,
            request: {
                var request = tokyo
                request.callback = sourceApp
                return request
            }()),
    ]

    /// The document breaks long links over lines "for clarity"; a reader joins them.
    static func joined(_ url: String) -> String {
        url.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    }

    @Test(arguments: examples)
    func parsesToTheDocumentedRequest(_ example: Example) {
        let parsed = MapsURLParser.parse(Self.joined(example.url))
        #expect(parsed.form == example.form)
        #expect(parsed.request == example.request)
        #expect(parsed.diagnostics.filter { $0.severity != .note } == [])
    }

    @Test func theExamplesFileCarriesEveryExample() throws {
        // Examples/seed-links.txt feeds `make demo` and the fuzz corpus; it must not drift.
        let fileURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/seed-links.txt").standardized
        let lines = try String(contentsOf: fileURL, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
        #expect(lines == Self.examples.map { Self.joined($0.url) })
    }

    /// The document's desktop URLs and their comgooglemapsurl:// forms carry the same request,
    /// and each converts into the other.
    @Test(arguments: [
        (
            "https://www.google.com/maps/preview/@42.585444,13.007813,6z",
            "comgooglemapsurl://www.google.com/maps/preview/@42.585444,13.007813,6z"
        ),
        ("https://maps.google.com/?q=@37.3161,-122.1836", "comgooglemapsurl://maps.google.com/?q=@37.3161,-122.1836"),
        (
            "http://maps.google.com/maps?f=d&daddr=Tokyo+Tower,+Tokyo,+Japan&sll=35.6586,139.7454&sspn=0.2,0.1&nav=1",
            "comgooglemapsurl://maps.google.com/maps?f=d&daddr=Tokyo+Tower,+Tokyo,+Japan&sll=35.6586,139.7454&sspn=0.2,0.1&nav=1"
                + "&x-source=SourceApp&x-success=sourceapp://?resume=true"
        ),
    ])
    func desktopAndWrappedFormsConvertBothWays(desktop: String, wrapped: String) throws {
        let fromDesktop = try #require(MapsURLParser.parse(desktop).request)
        var fromWrapped = try #require(MapsURLParser.parse(wrapped).request)
        let callback = fromWrapped.callback
        fromWrapped.callback = nil
        #expect(fromDesktop == fromWrapped)

        var withCallback = fromDesktop
        withCallback.callback = callback
        let toWrapped = try MapsURLPrinter.print(withCallback, as: .comgooglemapsurl)
        #expect(toWrapped.url.hasPrefix("comgooglemapsurl://maps.google.com/maps"))
        #expect(toWrapped.unexpressed == [])
        #expect(MapsURLParser.parse(toWrapped.url).request == withCallback)

        let toDesktop = try MapsURLPrinter.print(fromWrapped, as: .desktop)
        #expect(toDesktop.url.hasPrefix("https://maps.google.com/maps"))
        #expect(toDesktop.unexpressed == [])
        #expect(MapsURLParser.parse(toDesktop.url).request == fromDesktop)
    }

    @Test func theCentralParkExamplePrintsBackCanonically() throws {
        let request = try #require(
            MapsURLParser.parse("comgooglemaps://?center=40.765819,-73.975866&zoom=14&views=traffic").request)
        #expect(
            try MapsURLPrinter.print(request, as: .comgooglemaps).url
                == "comgooglemaps://?center=40.765819,-73.975866&zoom=14&views=traffic")
    }

    @Test func theAirAppExamplePrintsItsCallbackEncoded() throws {
        let request = try #require(Self.examples[11].request as MapsRequest?)
        let printed = try MapsURLPrinter.print(request, as: .xCallback)
        #expect(
            printed.url
                == "comgooglemaps-x-callback://?daddr=John+F.+Kennedy+International+Airport,+Van+Wyck+Expressway,"
                + "+Jamaica,+New+York&x-source=AirApp&x-success=sourceapp://%3Fresume%3Dtrue")
    }
}
