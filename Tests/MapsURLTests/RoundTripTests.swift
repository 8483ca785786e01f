import GeoCore
import MapsURL
import TestSupport
import Testing

/// Random requests in the parser's canonical shape: texts trimmed and never coordinate-shaped,
/// labels already sanitized, values inside their ranges.
struct RequestGenerator {
    var random: SeededGenerator

    static let words = [
        "Pizza", "Café", "Zürich", "東京タワー", "नई दिल्ली", "A & B", "C+D", "100%", "#1", "why?", "x=y", "a/b", "Main St.",
        "O'Brien", "(annex)", "Ünter", "北京", "Straße", "l'Hôpital", "50/50", "x|y", "go to:it",
    ]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func text() -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.words.randomElement(using: &random)! }
            .joined(separator: " ")
    }

    mutating func coordinate() -> Coordinate {
        let scale = chance(20) ? 1.0 : 1_000_000.0
        return Coordinate(
            latitude: (Double.random(in: -90...90, using: &random) * scale).rounded() / scale,
            longitude: (Double.random(in: -180...180, using: &random) * scale).rounded() / scale)
    }

    mutating func waypoint() -> Waypoint {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .currentLocation
        case 1: return .coordinate(coordinate())
        case 2: return .place(name: text(), coordinate: coordinate())
        default: return .query(text())
        }
    }

    mutating func request() -> MapsRequest {
        var request = MapsRequest()
        if chance(3) {
            request.shortLink =
                chance(50) ? "https://goo.gl/maps/AbC123xyz" : "https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8"
            return request
        }
        if chance(60) { request.center = coordinate() }
        if chance(50) { request.zoom = Double(Int.random(in: 0...42, using: &random)) / 2 }
        if chance(10) {
            request.span = CoordinateSpan(
                latitudeDelta: Double(Int.random(in: 1...1000, using: &random)) / 100,
                longitudeDelta: Double(Int.random(in: 1...1000, using: &random)) / 100)
        }
        if chance(20) { request.mapMode = chance(50) ? .standard : .streetView }
        if chance(40) {
            request.views = Set(MapsView.allCases.filter { _ in chance(30) })
        }
        if chance(40) { request.query = text() }
        if chance(15) { request.marker = coordinate() }
        if chance(5) { request.placeID = "ChIJ" + String(Int.random(in: 1000...9999, using: &random)) }
        if chance(40) {
            var directions = Directions()
            if chance(70) { directions.origin = waypoint() }
            if chance(80) { directions.destination = waypoint() }
            if chance(25) { directions.waypoints = (0..<Int.random(in: 1...4, using: &random)).map { _ in waypoint() } }
            if chance(60) { directions.travelMode = TravelMode.allCases.randomElement(using: &random) }
            directions.navigate = chance(20)
            if chance(20) { directions.avoid = Set(RouteAvoidance.allCases.filter { _ in chance(50) }) }
            request.directions = directions
        }
        if request.mapMode == .streetView && chance(60) {
            request.streetView = StreetViewCamera(
                heading: chance(70) ? Double(Int.random(in: -180...360, using: &random)) : nil,
                pitch: chance(70) ? Double(Int.random(in: -90...90, using: &random)) : nil,
                fieldOfView: chance(70) ? Double(Int.random(in: 10...100, using: &random)) : nil,
                panoramaID: chance(30) ? "F:-ud6AZSB-sQg/V0cfCSV3OWI" : nil)
            if request.streetView!.isEmpty { request.streetView = nil }
        }
        if chance(30) {
            request.callback = try? Callback(
                source: chance(50) ? "SourceApp" : "Nom Nom & Co",
                success: chance(50) ? "sourceapp://?resume=true" : "my-app+x://done?a=1&b=x+y%20z#frag",
                error: chance(30) ? "sourceapp://error" : nil, cancel: chance(30) ? "sourceapp://cancel" : nil)
        }
        return request
    }
}

@Suite struct RoundTripTests {
    /// For every target: the printed link parses back to exactly the request the printer
    /// says it expresses, losses are always listed, and the printed link parses cleanly.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func seededRandomRequestsRoundTripThroughEveryTarget(seed: UInt64) {
        var generator = RequestGenerator(random: SeededGenerator(seed: seed))
        var failures: [String] = []
        for _ in 0..<1500 {
            let request = generator.request()
            let violations = RoundTrip.violations(for: request)
            if !violations.isEmpty { failures.append("\(violations)") }
        }
        #expect(failures.prefix(5) == [], "\(failures.count) requests failed")
    }

    /// Each target expresses its native requests without loss.
    @Test func nativeRequestsLoseNothing() throws {
        let map = MapsRequest(center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 14, views: [.traffic])
        for target in [LinkTarget.comgooglemaps, .desktop, .universal] {
            #expect(try MapsURLPrinter.print(map, as: target).unexpressed == [], "\(target)")
        }
        let search = MapsRequest(query: "Pizza")
        for target in LinkTarget.allCases where target != .xCallback {
            #expect(try MapsURLPrinter.print(search, as: target).unexpressed == [], "\(target)")
        }
    }

    @Test func whatATargetCannotCarryIsReported() throws {
        let request = MapsRequest(
            span: CoordinateSpan(latitudeDelta: 1, longitudeDelta: 1), views: [.bicycling],
            directions: Directions(destination: .query("Home"), waypoints: [.query("Shop")], navigate: true))
        let printed = try MapsURLPrinter.print(request, as: .comgooglemaps)
        #expect(printed.url == "comgooglemaps://?daddr=Home")
        #expect(printed.unexpressed.map(\.field) == ["span", "views", "directions.waypoints", "directions.navigate"])
    }

    @Test func printingEncodesReservedCharacters() throws {
        let request = MapsRequest(query: "A & B = C+D #1 50% why? a|b")
        let printed = try MapsURLPrinter.print(request, as: .comgooglemaps)
        #expect(printed.url == "comgooglemaps://?q=A+%26+B+%3D+C%2BD+%231+50%25+why%3F+a%7Cb")
    }

    @Test func defaultsPrintNothing() throws {
        #expect(try MapsURLPrinter.print(MapsRequest(), as: .comgooglemaps).url == "comgooglemaps://")
        #expect(try MapsURLPrinter.print(MapsRequest(), as: .apple).url == "https://maps.apple.com/")
    }

    @Test func xCallbackNeedsACallbackAndGeoNeedsAPlace() {
        #expect(throws: PrintError.self) { try MapsURLPrinter.print(MapsRequest(query: "x"), as: .xCallback) }
        #expect(throws: PrintError.self) { try MapsURLPrinter.print(MapsRequest(zoom: 3), as: .geo) }
    }

    /// Inputs the fuzzer (`make fuzz`) found; each broke an invariant once.
    @Test(arguments: [
        // A label holding '(' was split at the last '(' instead of the first.
        "comgooglemapsurl://maps.google.cm/?q=@37.31aps.google.(cm/?q=@37.3161,-061.1836",
        // A coordinate-shaped text out of range is kept as text, and warned about again.
        "comgooglemaps://?saddr=85,-922.083898&zoom=10",
        // A text that itself ends in "@lat,lng" reads back as a coordinate when printed alone.
        "comgooglemapsurl://maps.google.cm/?q=@37131aps.google.cm/?q=mapsurl://maps.google.cm/?q=@37131aps.google.cm/"
            + "?q=@37.3161,-061.183@37.3161,-061.1836",
        // A short link whose path held controls and spaces (now refused).
        "maps.app.goo.gl/\u{0}\u{0} ?0s&2,gpg&v\n",
        // An Apple Maps link with a blank address made an empty query.
        "maps://?address=&ll=1,2",
        // An x-source cut at 64 characters ended in a space, which printing then lost.
        "comgooglemaps-x-callback://?q=dessert&x-success=sourcea-p://?re&x-source=Nogoogle.com/?q=mmmmmmmmmmmmmmmmm~"
            + "mmmmmmmmmmhhhhhhhhhhh@hm36.1\u{FFFD}+No\u{FFFD}",
        // A /dir/ path whose segments held a '|', which Maps URLs waypoints cannot carry.
        "https://www.google.com/maps/pr\u{0}\u{FFFD}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}cf/o\u{0}\u{0}B\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}%\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}/8\u{FFFD}s\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}la\u{E}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}://dir/7\u{FFFD}|:/ww/|\u{352}\u{FFFD}/enttps:/ww/w\u{E}go/\u{FFFD}sew/w\u{E}go/\u{FFFD}senue,+/enttps:\u{FFFD}\u{408}\u{FFFD}/www.g\u{FFFD}\u{FFFD}t443,",
        // An embedded map's base64 name (`!2z`) decoded to control characters, which no
        // printed link may carry.
        "https://www.google.com/maps/embed?pb=!1m3!1d1000!2d2.35!3d48.85!3m3!1m2!1s0x1%3A0x2!2zQ2FmBGU",
        // A /dir/ path whose stops each fit a value but, joined into one daddr, did not.
        "https://www.google.com/maps/dir/A/" + String(repeating: "x", count: 700) + "/"
            + String(repeating: "y", count: 700) + "/" + String(repeating: "z", count: 700) + "/B",
        // A legacy Street View pitch whose tilt (pitch + 90) rounded and read back 1 ulp off.
        "https://maps.google.com/maps?layer=c&cbll=40.748817,-73.985428&cbp=12,,0,5.748817,-73.985428",
        // Stops of non-ASCII text that fit the input but, percent-encoded, made a longer link
        // than any reader accepts.
        "https://www.google.com/maps/dir/" + String(repeating: "€", count: 680) + "/"
            + String(repeating: "€", count: 680),
        // Texts a geo: URI reads as a pin's label or position, written by other forms.
        "comgooglemaps://?q=(Treasure)&center=1,2",
        "comgooglemaps://?q=52,9,0",
    ])
    func fuzzRegressions(_ input: String) {
        #expect(RoundTrip.violations(for: input) == [])
    }
}
