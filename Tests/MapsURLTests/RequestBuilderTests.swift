import Foundation
import GeoCore
import MapsURL
import Testing

/// Requests built from their parts, and callbacks made only through CallbackPolicy.
@Suite struct RequestBuilderTests {
    @Test func partsBecomeTheRequestTheParserWouldRead() throws {
        var builder = RequestBuilder()
        builder.center = "40.765819,-73.975866"
        builder.zoom = "14"
        builder.views = "traffic"
        builder.xSource = "SourceApp"
        builder.xSuccess = "sourceapp://?resume=true"
        let built = try builder.build()
        let parsed = MapsURLParser.parse(
            "comgooglemaps-x-callback://?center=40.765819,-73.975866&zoom=14&views=traffic&x-success=sourceapp://?resume=true&x-source=SourceApp"
        ).request
        #expect(built == parsed)
    }

    @Test func aQueryThatIsACoordinatePinsItAndBlankEndsAreHere() throws {
        var builder = RequestBuilder()
        builder.query = "60.17,24.94"
        builder.saddr = ""
        builder.daddr = "Tokyo Tower"
        builder.waypoints = ["35.66,139.75"]
        let request = try builder.build()
        #expect(request.marker == Coordinate(latitude: 60.17, longitude: 24.94) && request.query == nil)
        #expect(request.directions?.origin == .currentLocation)
        #expect(request.directions?.waypoints == [.coordinate(Coordinate(latitude: 35.66, longitude: 139.75))])
    }

    @Test(arguments: [
        ("center", "nan,1", "center"), ("zoom", "22", "zoom"), ("mapmode", "hybrid", "mapmode"),
        ("views", "traffic,rain", "views"), ("directionsmode", "flying", "directionsmode"),
        ("x-source", "App", "x-success"), ("x-error", "app://e", "x-error"),
    ])
    func eachBrokenRuleNamesItsPart(part: String, value: String, parameter: String) {
        var builder = RequestBuilder()
        switch part {
        case "center": builder.center = value
        case "zoom": builder.zoom = value
        case "mapmode": builder.mapMode = value
        case "views": builder.views = value
        case "directionsmode": builder.directionsMode = value
        case "x-source": builder.xSource = value
        default: builder.xError = value
        }
        #expect {
            try builder.build()
        } throws: { error in
            (error as? RequestBuilder.Failure)?.parameter == parameter
        }
    }

    @Test func callbacksAreCheckedWhereverTheyAreMade() throws {
        #expect(throws: CallbackPolicy.Refusal.self) { try Callback(source: "App", success: "javascript:alert(1)") }
        #expect(throws: CallbackPolicy.Refusal.self) { try Callback(source: "\u{202E}", success: "app://") }
        let refusal = #expect(throws: CallbackPolicy.Refusal.self) {
            try Callback(source: "App", success: "app://", cancel: "https://evil.example")
        }
        #expect(refusal?.parameter == "x-cancel" && refusal?.code == .callbackSchemeDenied)
        // The label is cleaned of controls and bidi overrides.
        #expect(try Callback(source: " Nom\u{202E} Nom ", success: "app://").source == "Nom Nom")
        // Decoding goes through the same checks.
        let hostile = #"{"source":"App","success":"javascript:alert(1)"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Callback.self, from: Data(hostile.utf8)) }
        let good = try JSONDecoder().decode(Callback.self, from: Data(#"{"source":"App","success":"app://x"}"#.utf8))
        #expect(good == (try Callback(source: "App", success: "app://x")))
    }
}
