import GeoCore
import MapCore
import Testing

/// Sections I and J: overlays, draw order, accessibility elements.
@Suite struct OverlayTests {
    func mapView() -> MapView {
        var options = MapViewOptions()
        options.frame = Rect(x: 0, y: 0, width: 400, height: 400)
        options.camera = CameraPosition.camera(withLatitude: 60.17, longitude: 24.94, zoom: 15)
        return MapView(options: options)
    }

    @Test func markerDefaults() {  // item 96
        let marker = Marker(position: Coordinate(latitude: 0, longitude: 0))
        #expect(marker.groundAnchor == Point(x: 0.5, y: 1) && marker.opacity == 1 && !marker.isFlat)
        #expect(marker.rotation == 0 && marker.isTappable)
    }

    @Test func markersDrawAboveEverythingElse() {  // item 95
        let view = mapView()
        let target = view.camera.target
        view.overlays = [
            .marker(Marker(position: target, title: "low")),
            .polyline(Polyline(path: [target], title: "high line")),
        ]
        if case .polyline(var line) = view.overlays[1] {
            line.zIndex = 100
            view.overlays[1] = .polyline(line)
        }
        #expect(
            view.overlaysInDrawOrder.map { if case .marker = $0 { "marker" } else { "other" } } == ["other", "marker"])
    }

    @Test func markerFrameSitsOnItsAnchor() {
        let view = mapView()
        let frame = view.frame(of: .marker(Marker(position: view.camera.target)))
        #expect(frame == Rect(x: 200 - 13.5, y: 200 - 43, width: 27, height: 43))
    }

    @Test func accessibilityElementsAreHiddenByDefault() {  // item 90
        let view = mapView()
        view.overlays = [.marker(Marker(position: view.camera.target, title: "Kiasma"))]
        #expect(view.accessibilityElements.isEmpty)
    }

    @Test func elementsForVisibleTitledOverlaysInReadingOrder() {  // items 91-93
        let view = mapView()
        view.accessibilityElementsHidden = false
        let center = view.camera.target
        let north = view.projection.coordinate(for: Point(x: 300, y: 100))
        let far = Coordinate(latitude: 61, longitude: 26)
        view.overlays = [
            .marker(Marker(position: center, title: "Centre", snippet: "Helsinki")),
            .marker(Marker(position: north, title: "North")),
            .marker(Marker(position: far, title: "Far away")),
            .marker(Marker(position: center)),
            .polyline(Polyline(path: [north, center], title: "Route")),
        ]
        let elements = view.accessibilityElements
        #expect(elements.map(\.label) == ["North", "Route", "Centre"])
        #expect(elements.last?.value == "Helsinki")
    }

    @Test func clearRemovesOverlaysButNotMyLocation() {  // item 61
        let view = mapView()
        view.isMyLocationEnabled = true
        view.updateMyLocation(Coordinate(latitude: 1, longitude: 1))
        view.mapType = .hybrid
        view.overlays = [.circle(Circle(center: view.camera.target, radius: 100))]
        view.clear()
        #expect(view.overlays.isEmpty && view.myLocation != nil && view.mapType == .hybrid)
    }
}
