import Foundation
import GeoCore
import MapCore
import Testing

/// Section B of the map view specification: camera construction, clamping, normalisation.
@Suite struct CameraTests {
    func camera(_ latitude: Double, _ longitude: Double, zoom: Double = 10, bearing: Double = 0, tilt: Double = 0)
        -> CameraPosition
    {
        CameraPosition(
            target: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom, bearing: bearing,
            viewingAngle: tilt)
    }

    @Test func latitudeIsClampedTo85() {  // item 15
        #expect(camera(100, 0).target.latitude == 85)
        #expect(camera(-100, 0).target.latitude == -85)
    }

    @Test(arguments: [(480.0, 120.0), (840, 120), (1200, 120), (180, -180), (-180, -180), (-181, 179)])
    func longitudeWrapsIntoMinus180To180(longitude: Double, expected: Double) {  // item 16
        #expect(abs(camera(0, longitude).target.longitude - expected) < 1e-9)
    }

    @Test(arguments: [(370.0, 10.0), (-90, 270), (360, 0), (-999, 81), (999, 279)])
    func bearingWrapsInto0To360(bearing: Double, expected: Double) {  // item 17
        #expect(abs(camera(0, 0, bearing: bearing).bearing - expected) < 1e-9)
    }

    @Test func zoomIsClampedToTheLevels() {  // items 10, 13, 18
        #expect(camera(0, 0, zoom: 0).zoom == 2)
        #expect(camera(0, 0, zoom: 30).zoom == 21)
        #expect(CameraPosition.camera(withLatitude: -33.8683, longitude: 151.2086, zoom: 6).zoom == 6)
    }

    @Test(arguments: [(2.0, 30.0), (10, 30), (12, 37.5), (14, 45), (15, 55), (16, 65), (21, 65)])
    func maxTiltIsPiecewiseLinear(zoom: Double, expected: Double) {  // items 19, 109
        #expect(abs(CameraPosition.maxViewingAngle(atZoom: zoom) - expected) < 1e-9)
    }

    @Test func tiltIsClampedAgainstTheCamerasOwnZoom() {  // items 19, 20
        #expect(camera(0, 0, zoom: 12, tilt: 80).viewingAngle == 37.5)
        #expect(camera(0, 0, zoom: 18, tilt: 80).viewingAngle == 65)
        #expect(camera(0, 0, zoom: 18, tilt: -5).viewingAngle == 0)
    }

    @Test func convenienceConstructorsSetBearingAndTiltToZero() {  // item 14
        let made = CameraPosition.camera(withLatitude: 10, longitude: 20, zoom: 6)
        #expect(made.bearing == 0 && made.viewingAngle == 0)
    }

    @Test func renderingEqualityHasTolerances() {  // item 28
        #expect(CameraPosition.areEqualForRendering(camera(1, 2, bearing: 359.9999), camera(1.0000001, 2, bearing: 0)))
        #expect(!CameraPosition.areEqualForRendering(camera(1, 2), camera(1.001, 2)))
    }
}

/// Section A and B on a map view: options, defaults, zoom limits, camera updates.
@Suite struct MapViewTests {
    @Test func optionsDefaults() {  // items 1-4
        let options = MapViewOptions()
        #expect(options.frame == .zero)
        #expect(options.camera == nil)
        #expect(options.mapID == nil)
        #expect(options.backgroundColor == Color(white: 2.0 / 3.0))
    }

    @Test func optionsAreCopiedAtCreation() {  // item 6
        var options = MapViewOptions()
        options.backgroundColor = .yellow  // seed: options.backgroundColor = UIColor.yellowColor
        let mapView = MapView(options: options)
        options.backgroundColor = .lightGray
        #expect(mapView.backgroundColor == .yellow)
    }

    @Test func viewDefaults() {  // items 8, 9, seed snippets
        let mapView = MapView(options: MapViewOptions())  // seed: initialized with default values
        #expect(mapView.mapType == .normal)
        #expect(!mapView.isTrafficEnabled && !mapView.isTransitEnabled)
        #expect(mapView.isIndoorEnabled && mapView.isBuildingsEnabled)
        #expect(!mapView.isMyLocationEnabled && mapView.myLocation == nil)
        #expect(mapView.accessibilityElementsHidden)
        #expect(mapView.overrideUserInterfaceStyle == .unspecified)
        #expect(mapView.padding == .zero && mapView.paddingAdjustmentBehavior == .always)
        #expect(mapView.minZoom == 2 && mapView.maxZoom == 21)
        #expect(mapView.settings.scrollGestures && mapView.settings.rotateGestures && mapView.settings.indoorPicker)
        #expect(!mapView.settings.compassButton && !mapView.settings.myLocationButton)
    }

    @Test func theSeedsSnippets() {
        var options = MapViewOptions()
        options.camera = CameraPosition.camera(withLatitude: -33.8683, longitude: 151.2086, zoom: 6)
        let mapView = MapView(options: options)
        mapView.mapType = .satellite
        #expect(mapView.mapType == .satellite)
        #expect(mapView.camera.target == Coordinate(latitude: -33.8683, longitude: 151.2086))
        mapView.isIndoorEnabled = false
        mapView.accessibilityElementsHidden = false
        mapView.isBuildingsEnabled = false
        #expect(!mapView.isIndoorEnabled && !mapView.accessibilityElementsHidden && !mapView.isBuildingsEnabled)
        // My Location: nil until a fix arrives, and only while enabled.
        mapView.updateMyLocation(Coordinate(latitude: 1, longitude: 2))
        #expect(mapView.myLocation == nil)
        mapView.isMyLocationEnabled = true
        #expect(mapView.myLocation == nil)
        mapView.updateMyLocation(Coordinate(latitude: 1, longitude: 2))
        #expect(mapView.myLocation == Coordinate(latitude: 1, longitude: 2))
        mapView.isMyLocationEnabled = false
        #expect(mapView.myLocation == nil)
        // Insets are specified in this order: top, left, bottom, right.
        mapView.padding = EdgeInsets(top: 100, left: 0, bottom: 0, right: 300)
        #expect(mapView.padding.top == 100 && mapView.padding.right == 300)
        mapView.overrideUserInterfaceStyle = .dark
        mapView.overrideUserInterfaceStyle = .light
        mapView.overrideUserInterfaceStyle = .unspecified
        #expect(mapView.overrideUserInterfaceStyle == .unspecified)
    }

    @Test func setMinZoomRefusesMinAboveMaxAndClampsTheCamera() throws {  // items 21, 22
        var options = MapViewOptions()
        options.camera = CameraPosition.camera(withLatitude: 0, longitude: 0, zoom: 6)
        let mapView = MapView(options: options)
        #expect(throws: MapViewError.invalidZoomRange(min: 15, max: 10)) { try mapView.setMinZoom(15, maxZoom: 10) }
        #expect(mapView.minZoom == 2 && mapView.maxZoom == 21)
        try mapView.setMinZoom(18, maxZoom: 21)
        #expect(mapView.camera.zoom == 18)
        mapView.moveCamera(.zoomIn)
        mapView.moveCamera(.zoomIn)
        mapView.moveCamera(.zoomIn)
        mapView.moveCamera(.zoomIn)
        #expect(mapView.camera.zoom == 21)  // item 27
    }

    @Test func cameraUpdates() {  // item 26
        let mapView = MapView(options: MapViewOptions())
        mapView.frame = Rect(x: 0, y: 0, width: 400, height: 400)
        mapView.camera = CameraPosition.camera(withLatitude: 10, longitude: 20, zoom: 10)
        mapView.moveCamera(.zoomIn)
        #expect(mapView.camera.zoom == 11)
        mapView.moveCamera(.zoomOut)
        mapView.moveCamera(.zoomBy(2.5))
        #expect(mapView.camera.zoom == 12.5)
        mapView.moveCamera(.zoomTo(7))
        #expect(mapView.camera.zoom == 7)
        mapView.moveCamera(.setTargetZoom(Coordinate(latitude: 0, longitude: 0), 8))
        #expect(mapView.camera.target == Coordinate(latitude: 0, longitude: 0) && mapView.camera.zoom == 8)
        // Scrolling by 256 points at zoom 8 (world 65,536 points) moves 360/256 degrees east.
        mapView.moveCamera(.scrollBy(x: 256, y: 0))
        #expect(abs(mapView.camera.target.longitude - 360.0 / 256) < 1e-9)
        #expect(abs(mapView.camera.target.latitude) < 1e-9)
    }

    @Test func zoomAtAPointKeepsThatCoordinateUnderIt() {  // item 26
        let mapView = MapView(options: MapViewOptions())
        mapView.frame = Rect(x: 0, y: 0, width: 800, height: 600)
        mapView.camera = CameraPosition(
            target: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 14, bearing: 30, viewingAngle: 40)
        let focus = Point(x: 650, y: 120)
        let before = mapView.projection.coordinate(for: focus)
        mapView.moveCamera(.zoomByAt(1.5, focus))
        let after = mapView.projection.point(for: before)
        #expect(abs(after.x - focus.x) < 1e-3 && abs(after.y - focus.y) < 1e-3)
        #expect(mapView.camera.zoom == 15.5)
    }

    @Test func targetBoundsConstrainEveryMove() {  // item 25
        let mapView = MapView(options: MapViewOptions())
        mapView.cameraTargetBounds = CoordinateBounds(
            Coordinate(latitude: 59, longitude: 24), Coordinate(latitude: 61, longitude: 26))
        mapView.moveCamera(.setTarget(Coordinate(latitude: 70, longitude: 10)))
        #expect(mapView.camera.target == Coordinate(latitude: 61, longitude: 24))
    }
}

/// Cameras decoded from JSON keep the same invariants as cameras made in code.
@Suite struct CameraDecodingTests {
    func decode(_ json: String) throws -> CameraPosition {
        try JSONDecoder().decode(CameraPosition.self, from: Data(json.utf8))
    }

    @Test func decodingClampsAndNormalises() throws {
        let camera = try decode(
            #"{"target":{"latitude":89,"longitude":190},"zoom":40,"bearing":-90,"viewingAngle":80}"#)
        #expect(camera.target.latitude == 85 && camera.target.longitude == -170)
        #expect(camera.zoom == 21 && camera.bearing == 270 && camera.viewingAngle == 65)
        let defaults = try decode(#"{"target":{"latitude":1,"longitude":2},"zoom":1}"#)
        #expect(defaults.zoom == 2 && defaults.bearing == 0 && defaults.viewingAngle == 0)
    }

    @Test func aRoundTripKeepsTheCamera() throws {
        let camera = CameraPosition(
            target: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 16.5, bearing: 30, viewingAngle: 40)
        #expect(try decode(String(decoding: try JSONEncoder().encode(camera), as: UTF8.self)) == camera)
    }
}
