import GeoCore
import MapsURL
import Testing

/// The link forms beyond the seed's examples: desktop paths, data blobs, legacy parameters,
/// Maps URLs (`api=1`), short links, `geo:` and Apple Maps.
@Suite struct FormTests {
    func request(_ url: String, sourceLocation: SourceLocation = #_sourceLocation) -> MapsRequest? {
        let parsed = MapsURLParser.parse(url)
        #expect(
            parsed.diagnostics.allSatisfy { $0.severity != .error }, "\(parsed.diagnostics)",
            sourceLocation: sourceLocation)
        return parsed.request
    }

    @Test func fractionalZoomAndMetresInTheViewport() {
        #expect(request("https://www.google.com/maps/@52.5,13.4,6.33z")?.zoom == 6.33)
        let metres = request("https://www.google.com/maps/@52.5,13.4,247m/data=!3m1!1e3")
        #expect(metres?.zoom == nil)
        #expect(metres?.center == Coordinate(latitude: 52.5, longitude: 13.4))
    }

    @Test func streetViewTokensAreACameraNotAZoom() {
        let parsed = request("https://www.google.com/maps/@48.8584,2.2945,3a,75y,90h,80t/data=!3m6!1e1")
        #expect(parsed?.zoom == nil)
        #expect(parsed?.mapMode == .streetView)
        #expect(parsed?.streetView == StreetViewCamera(heading: 90, pitch: -10, fieldOfView: 75))
    }

    @Test func placeWithDataPinUsesThePinAndKeepsTheViewportZoom() {
        let parsed = request(
            "https://www.google.com/maps/place/Eiffel+Tower/@48.85,2.29,15z/data=!3m1!4b1!4m6!3m5!1s0x47e66e2964e34e2d:"
                + "0x8ddca9ee380ef7e0!8m2!3d48.8583701!4d2.2944813!16zL20vMDJqODE")
        #expect(parsed?.query == "Eiffel Tower")
        #expect(parsed?.marker == Coordinate(latitude: 48.8583701, longitude: 2.2944813))
        #expect(parsed?.center == Coordinate(latitude: 48.8583701, longitude: 2.2944813))
        #expect(parsed?.zoom == 15)
    }

    @Test func placeByCoordinatesIsAMarker() {
        let parsed = request("https://www.google.com/maps/place/48.8584,2.2945/@48.85,2.29,17z")
        #expect(parsed?.marker == Coordinate(latitude: 48.8584, longitude: 2.2945))
        #expect(parsed?.query == nil)
    }

    /// A plus code keeps its `+` where a link writes spaces as `+`: in a place path, a search
    /// path and a query (`%2B` too); other `+`s are spaces.
    @Test func plusCodesKeepTheirPlus() {
        #expect(request("https://www.google.com/maps/place/8FVC9G8F+6X")?.query == "8FVC9G8F+6X")
        #expect(
            request("https://www.google.com/maps/place/CWC8+R9+Mountain+View,+California")?.query
                == "CWC8+R9 Mountain View, California")
        #expect(request("https://www.google.com/maps/search/8FVC9G8F+")?.query == "8FVC9G8F+")
        #expect(request("https://www.google.com/maps/?q=CWC8%2BR9+Mountain+View")?.query == "CWC8+R9 Mountain View")
        #expect(request("https://www.google.com/maps/?q=CWC8+R9+Mountain+View")?.query == "CWC8+R9 Mountain View")
        #expect(
            request("https://www.google.com/maps/search/?api=1&query=849VCWC8%2BR9")?.query == "849VCWC8+R9")
        #expect(request("comgooglemaps://?q=9G8F+6X,+Zurich")?.query == "9G8F+6X, Zurich")
        #expect(request("comgooglemaps://?q=9G8F+6X%2C+Zurich")?.query == "9G8F+6X, Zurich")
        #expect(request("comgooglemaps://?q=9G8F+6X%20Zurich")?.query == "9G8F+6X Zurich")
        // Not codes: the `+` is a space.
        for (link, text) in [
            ("https://www.google.com/maps/place/Eiffel+Tower", "Eiffel Tower"),
            ("comgooglemaps://?q=22+Main+St", "22 Main St"), ("comgooglemaps://?q=5+7", "5 7"),
            ("comgooglemaps://?q=CWC8+R", "CWC8 R"), ("comgooglemaps://?q=CWC8+R9Mountain", "CWC8 R9Mountain"),
            ("comgooglemaps://?q=CWC8+R9%2D", "CWC8 R9-"), ("comgooglemaps://?q=55+99+99999-9999", "55 99 99999-9999"),
            ("comgooglemaps://?q=5555+5555", "5555 5555"),
        ] {
            #expect(request(link)?.query == text, "\(link)")
        }
    }

    @Test func searchPath() {
        #expect(
            request("https://www.google.co.uk/maps/search/coffee+near+Soho/@51.51,-0.13,15z")?.query
                == "coffee near Soho")
        #expect(
            request("https://www.google.com/maps/search/51.5,-0.1")?.marker
                == Coordinate(latitude: 51.5, longitude: -0.1))
    }

    @Test func directionsPathEverySegmentIsAPoint() {
        let parsed = request("https://www.google.com/maps/dir/New+York,+NY/40.7,-74.0/Boston,+MA/@41,-72,7z")
        #expect(
            parsed?.directions
                == Directions(
                    origin: .query("New York, NY"), destination: .query("Boston, MA"),
                    waypoints: [.coordinate(Coordinate(latitude: 40.7, longitude: -74.0))]))
        #expect(parsed?.zoom == 7)
    }

    @Test func anEmptyDirectionsSegmentIsTheCurrentLocation() {
        let parsed = request("https://www.google.com/maps/dir//Louvre+Museum/")
        #expect(parsed?.directions == Directions(origin: .currentLocation, destination: .query("Louvre Museum")))
    }

    @Test func directionsBlobStopsAreLongitudeFirstAndKeepThePathsNames() {
        let parsed = request(
            "https://www.google.com/maps/dir/Paris/Lyon/data=!4m12!4m11!1m5!1m1!1s0x1:0x2!2m2!1d2.35!2d48.85!1m3!2m2!1d4.83!2d45.76!3e0"
        )
        #expect(
            parsed?.directions
                == Directions(
                    origin: .place(name: "Paris", coordinate: Coordinate(latitude: 48.85, longitude: 2.35)),
                    destination: .place(name: "Lyon", coordinate: Coordinate(latitude: 45.76, longitude: 4.83)),
                    travelMode: .driving))
    }

    @Test func legacyParameters() {
        let parsed = request(
            "https://maps.google.de/maps?q=Brandenburger+Tor&ll=52.5163,13.3777&z=16&t=k&layer=t&saddr=&daddr=52.52,13.40"
                + "&dirflg=wh")
        #expect(parsed?.query == "Brandenburger Tor")
        #expect(parsed?.center == Coordinate(latitude: 52.5163, longitude: 13.3777))
        #expect(parsed?.zoom == 16)
        #expect(parsed?.views == [.satellite, .traffic])
        #expect(
            parsed?.directions
                == Directions(
                    origin: .currentLocation, destination: .coordinate(Coordinate(latitude: 52.52, longitude: 13.40)),
                    travelMode: .walking, avoid: [.highways]))
    }

    @Test func legacyMultiStopDestination() {
        let parsed = request("https://maps.google.com/maps?saddr=A&daddr=B+to:C+to:D")
        #expect(
            parsed?.directions
                == Directions(origin: .query("A"), destination: .query("D"), waypoints: [.query("B"), .query("C")]))
    }

    @Test func textAtCoordinateIsAQueryWithAMarker() {
        let parsed = request("https://maps.google.com/maps?q=Cafe+Central@48.2104,16.3655")
        #expect(parsed?.query == "Cafe Central")
        #expect(parsed?.marker == Coordinate(latitude: 48.2104, longitude: 16.3655))
    }

    @Test func mapsURLsSearch() {
        let parsed = request(
            "https://www.google.com/maps/search/?api=1&query=centurylink%2Bfield&query_place_id=ChIJKxjxuaNqkFQR3CK6O1HNNqY"
        )
        #expect(parsed?.query == "centurylink+field")
        #expect(parsed?.placeID == "ChIJKxjxuaNqkFQR3CK6O1HNNqY")
    }

    @Test func mapsURLsDirectionsWithWaypoints() {
        let parsed = request(
            "https://www.google.com/maps/dir/?api=1&origin=Paris,France&destination=Cherbourg,France&travelmode=driving"
                + "&waypoints=Versailles,France%7CChartres,France%7CLe+Mans,France%7CCaen,France&dir_action=navigate"
                + "&avoid=tolls,ferries")
        #expect(
            parsed?.directions
                == Directions(
                    origin: .query("Paris,France"), destination: .query("Cherbourg,France"),
                    waypoints: [
                        .query("Versailles,France"), .query("Chartres,France"), .query("Le Mans,France"),
                        .query("Caen,France"),
                    ],
                    travelMode: .driving, navigate: true, avoid: [.tolls, .ferries]))
    }

    @Test func mapsURLsMapAndPano() {
        let map = request(
            "https://www.google.com/maps/@?api=1&map_action=map&center=-33.712206,150.311941&zoom=12&basemap=terrain&layer=transit"
        )
        #expect(
            map
                == MapsRequest(
                    center: Coordinate(latitude: -33.712206, longitude: 150.311941), zoom: 12,
                    views: [.terrain, .transit]))
        let pano = request(
            "https://www.google.com/maps/@?api=1&map_action=pano&viewpoint=48.857832,2.295226&heading=-45&pitch=38&fov=80"
        )
        #expect(pano?.mapMode == .streetView)
        #expect(pano?.center == Coordinate(latitude: 48.857832, longitude: 2.295226))
        #expect(pano?.streetView == StreetViewCamera(heading: -45, pitch: 38, fieldOfView: 80))
    }

    @Test func mapsURLsOutOfRangeValuesAreClampedWithAWarning() {
        let parsed = MapsURLParser.parse(
            "https://www.google.com/maps/@?api=1&map_action=pano&viewpoint=1,2&fov=140&pitch=-100")
        #expect(parsed.request?.streetView == StreetViewCamera(pitch: -90, fieldOfView: 100))
        #expect(parsed.diagnostics.map(\.code) == [.clamped, .clamped])
    }

    @Test(arguments: [
        "https://goo.gl/maps/abcDEF123", "https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8",
        "comgooglemapsurl://goo.gl/maps/xyz",
    ])
    func shortLinksAreRecognisedButNeverResolved(_ url: String) throws {
        let parsed = MapsURLParser.parse(url)
        let request = try #require(parsed.request)
        #expect(request.action == .resolveShortLink)
        #expect(request.shortLink?.hasPrefix("https://") == true)
        #expect(parsed.diagnostics.map(\.code).contains(.needsResolution))
    }

    @Test func shortLinkOutsideMapsPathIsRejected() {
        #expect(MapsURLParser.parse("https://goo.gl/abc").request == nil)
        #expect(MapsURLParser.parse("https://maps.app.goo.gl/%20b").diagnostics.map(\.code) == [.badShortLink])
        // Text after the id (an encoded space, prose pasted with the link) is cut off and said so.
        let cut = MapsURLParser.parse("https://maps.app.goo.gl/a%20b")
        #expect(cut.request?.shortLink == "https://maps.app.goo.gl/a")
        #expect(cut.diagnostics.map(\.code) == [.needsResolution, .trailingTextIgnored])
    }

    @Test func geoURIs() {
        #expect(request("geo:37.786971,-122.399677")?.center == Coordinate(latitude: 37.786971, longitude: -122.399677))
        #expect(request("geo:37.78,-122.39?z=11")?.zoom == 11)
        let search = request("geo:0,0?q=1600+Amphitheatre+Parkway%2C+CA")
        #expect(search == MapsRequest(query: "1600 Amphitheatre Parkway, CA"))
        let pin = request("geo:0,0?q=34.99,-106.61(Treasure)")
        #expect(pin == MapsRequest(query: "Treasure", marker: Coordinate(latitude: 34.99, longitude: -106.61)))
        #expect(request("geo:0,0?q=86HJV99P%2B29")?.query == "86HJV99P+29")
        #expect(request("geo:48.2,16.3,190;crs=wgs84;u=40")?.center == Coordinate(latitude: 48.2, longitude: 16.3))
        #expect(MapsURLParser.parse("geo:48.2,16.3;crs=epsg:4326").request == nil)
        #expect(MapsURLParser.parse("geo:91,0").request == nil)
    }

    @Test func appleMapsLinks() {
        let parsed = request("https://maps.apple.com/?ll=50.894967,4.341626&z=10&t=k&q=Atomium")
        #expect(
            parsed
                == MapsRequest(
                    center: Coordinate(latitude: 50.894967, longitude: 4.341626), zoom: 10, views: [.satellite],
                    query: "Atomium"))
        let directions = request("maps://?saddr=Cupertino&daddr=San+Francisco&dirflg=r")
        #expect(
            directions?.directions
                == Directions(origin: .query("Cupertino"), destination: .query("San Francisco"), travelMode: .transit))
        #expect(request("https://maps.apple.com/?z=1")?.zoom == 2)
    }

    @Test func schemeWithMapsHostAndNoSlashes() {
        #expect(request("comgooglemaps://maps?daddr=Berlin")?.directions?.destination == .query("Berlin"))
        #expect(request("comgooglemaps:?q=Berlin")?.query == "Berlin")
    }

    @Test func viewsGivenEmptyClearAllViewsAndDifferFromAbsent() {
        #expect(request("comgooglemaps://?center=1,2&views=")?.views == [])
        #expect(request("comgooglemaps://?center=1,2")?.views == nil)
    }

    @Test func blankSaddrIsTheCurrentLocationAndAbsentIsNil() {
        #expect(request("comgooglemaps://?saddr=&daddr=Home")?.directions?.origin == .currentLocation)
        #expect(request("comgooglemaps://?daddr=Home")?.directions?.origin == nil)
    }

    @Test func coordinateWithLabelInSaddrKeepsTheCoordinate() {
        let parsed = MapsURLParser.parse("comgooglemaps://?saddr=52.5,13.4+(Home)&daddr=Work")
        #expect(parsed.request?.directions?.origin == .coordinate(Coordinate(latitude: 52.5, longitude: 13.4)))
        #expect(parsed.diagnostics.map(\.code) == [.labelIgnored])
    }

    @Test func duplicateParametersFirstWins() {
        let parsed = MapsURLParser.parse("comgooglemaps://?q=first&q=second")
        #expect(parsed.request?.query == "first")
        #expect(parsed.diagnostics.map(\.code) == [.duplicateParameter])
    }

    @Test func emptyPairsAndBareNamesAreHarmless() throws {
        let parsed = MapsURLParser.parse("comgooglemaps-x-callback://?center=1,2&&x-source=App&x-success=app://&spam")
        #expect(parsed.request?.callback == (try Callback(source: "App", success: "app://")))
        #expect(parsed.diagnostics.map(\.code) == [.unknownParameter])
    }
}
