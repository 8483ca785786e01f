import GeoCore
import MapCore
import Testing

/// Section G: gestures obey their switches, programmatic moves do not.
@Suite struct GestureTests {
    func mapView() -> MapView {
        var options = MapViewOptions()
        options.frame = Rect(x: 0, y: 0, width: 400, height: 400)
        options.camera = CameraPosition.camera(withLatitude: 0, longitude: 0, zoom: 10)
        return MapView(options: options)
    }

    @Test func panMovesTheGroundWithTheFinger() {
        let view = mapView()
        let east = view.projection.coordinate(for: Point(x: 300, y: 200))
        #expect(view.pan(byX: -100, y: 0))
        #expect(abs(view.camera.target.longitude - east.longitude) < 1e-9)
    }

    @Test func pinchAndTaps() {
        let view = mapView()
        #expect(view.pinch(scale: 4, at: Point(x: 200, y: 200)))
        #expect(view.camera.zoom == 12)
        view.doubleTap(at: Point(x: 100, y: 100))
        #expect(view.camera.zoom == 13)
        view.twoFingerTap()
        #expect(view.camera.zoom == 12)
    }

    @Test func rotateAndTilt() {
        let view = mapView()
        view.camera = CameraPosition.camera(withLatitude: 0, longitude: 0, zoom: 16)
        view.rotate(by: 30)
        #expect(view.camera.bearing == 330)
        view.tilt(byVerticalTranslation: -40)
        #expect(view.camera.viewingAngle == 20)
        view.tilt(byVerticalTranslation: -400)
        #expect(view.camera.viewingAngle == 65)
    }

    @Test func disabledGesturesAreIgnoredButProgrammaticMovesWork() {  // item 80
        let view = mapView()
        view.settings.setAllGesturesEnabled(false)
        let before = view.camera
        #expect(!view.pan(byX: 50, y: 50))
        #expect(!view.pinch(scale: 2, at: .zero))
        #expect(!view.rotate(by: 10))
        #expect(!view.tilt(byVerticalTranslation: -20))
        #expect(view.camera == before)
        view.moveCamera(.zoomIn)
        #expect(view.camera.zoom == before.zoom + 1)
    }

    @Test func zoomAnchorsOnThePrincipalPointWhenScrollingDuringZoomIsOff() {  // item 83
        let view = mapView()
        view.settings.allowScrollGesturesDuringRotateOrZoom = false
        let target = view.camera.target
        view.pinch(scale: 2, at: Point(x: 10, y: 10))
        #expect(abs(view.camera.target.latitude - target.latitude) < 1e-9)
        #expect(abs(view.camera.target.longitude - target.longitude) < 1e-9)
    }
}
