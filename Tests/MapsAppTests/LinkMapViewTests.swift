import GeoCore
import MapCore
import MapsApp
import MapsURL
import Testing

/// The map view the app opens for a link.
@Suite struct LinkMapViewTests {
    let size = Size(width: 800, height: 600)

    func view(_ link: String) throws -> LinkMapView {
        LinkMapView(request: try #require(MapsURLParser.parse(link).request), size: size)
    }

    @Test func theSeedsCentralParkLink() throws {
        let view = try view("comgooglemaps://?center=40.765819,-73.975866&zoom=14&views=traffic").mapView
        #expect(view.camera.target == Coordinate(latitude: 40.765819, longitude: -73.975866))
        #expect(view.camera.zoom == 14)
        #expect(view.content.traffic && view.mapType == .normal)
        #expect(view.frame.size == size)
    }

    @Test func satelliteViewShowsHybridAndClearedViewsTheRoadMap() throws {
        #expect(try view("comgooglemaps://?center=1,2&views=satellite,transit").mapView.mapType == .hybrid)
        #expect(try view("comgooglemaps://?center=1,2&views=satellite,transit").mapView.content.transit)
        #expect(try view("comgooglemaps://?center=1,2&views=").mapView.mapType == .normal)
    }

    @Test func centerWithoutZoomUsesTheDefault() throws {
        #expect(try view("comgooglemaps://?center=46.414382,10.013988&mapmode=streetview").mapView.camera.zoom == 15)
        #expect(try view("comgooglemaps://?center=46.414382,10.013988&mapmode=streetview").notes.count == 1)
    }

    @Test func aPinnedSearchCentresOnItsMarker() throws {
        let link = try view("https://maps.google.com/?q=@37.3161,-122.1836")
        #expect(link.mapView.camera.target == Coordinate(latitude: 37.3161, longitude: -122.1836))
        #expect(link.mapView.overlays.count == 1)
    }

    @Test func aRouteBetweenCoordinatesFitsBothEnds() throws {
        let mapView = try view("comgooglemaps://?saddr=60.17,24.94&daddr=60.20,24.97").mapView
        let projection = mapView.projection
        for end in [Coordinate(latitude: 60.17, longitude: 24.94), Coordinate(latitude: 60.20, longitude: 24.97)] {
            let point = projection.point(for: end)
            #expect(
                point.x >= 64 - 1e-6 && point.x <= 800 - 64 + 1e-6 && point.y >= 64 - 1e-6 && point.y <= 600 - 64 + 1e-6
            )
        }
        #expect(mapView.overlays.count == 2)
    }

    @Test func aSpanFitsItsBox() throws {
        let mapView = try view("https://maps.google.com/maps?ll=35.6586,139.7454&spn=0.2,0.1").mapView
        let projection = mapView.projection
        let southWest = projection.point(for: Coordinate(latitude: 35.5586, longitude: 139.6954))
        let northEast = projection.point(for: Coordinate(latitude: 35.7586, longitude: 139.7954))
        // The box fills the view in its tighter dimension (height here) and fits in the other.
        #expect(abs(southWest.y - 600) < 1e-6 && abs(northEast.y) < 1e-6)
        #expect(southWest.x >= 0 && northEast.x <= 800)
        #expect(abs(mapView.camera.target.latitude - 35.6586) < 1e-3)
    }
}
