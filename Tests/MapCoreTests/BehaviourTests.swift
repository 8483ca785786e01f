import GeoCore
import MapCore
import Testing

/// The remaining numbered behaviours of the map view specification.
@Suite struct BehaviourTests {
    func mapView(width: Double = 400, height: Double = 400) -> MapView {
        var options = MapViewOptions()
        options.frame = Rect(x: 0, y: 0, width: width, height: height)
        options.camera = CameraPosition.camera(withLatitude: 60.17, longitude: 24.94, zoom: 15)
        return MapView(options: options)
    }

    @Test func plainInitIsDefaultOptions() {  // item 7
        let view = MapView()
        #expect(view.frame == .zero && view.camera.zoom == CameraPosition.minZoomLevel && view.mapID == nil)
    }

    @Test func effectiveMinZoomKeepsTheWorldTallerThanTheView() {  // item 11
        #expect(mapView(height: 2048).effectiveMinZoom == 3)
        #expect(mapView(height: 300).effectiveMinZoom == 2)
    }

    @Test func settingTheCameraTakesEffectAtOnceAndProjectionsAreSnapshots() {  // items 24, 41
        let view = mapView()
        let before = view.projection
        view.camera = CameraPosition.camera(withLatitude: 0, longitude: 0, zoom: 5)
        #expect(view.projection.camera.zoom == 5)
        #expect(before.camera.zoom == 15)
    }

    @Test func shortestPathInterpolation() {  // item 30
        let from = CameraPosition(target: Coordinate(latitude: 0, longitude: 170), zoom: 5, bearing: 350)
        let to = CameraPosition(target: Coordinate(latitude: 0, longitude: -170), zoom: 7, bearing: 10)
        let middle = from.interpolated(to: to, fraction: 0.5)
        #expect(abs(middle.bearing) < 1e-9 || abs(middle.bearing - 360) < 1e-9)
        #expect(abs(abs(middle.target.longitude) - 180) < 1e-9)
        #expect(middle.zoom == 6)
    }

    @Test func safeAreaCombinesWithPaddingByBehaviour() {  // item 44
        let view = mapView()
        view.padding = EdgeInsets(top: 10, left: 0, bottom: 30, right: 0)
        view.safeAreaInsets = EdgeInsets(top: 20, left: 0, bottom: 20, right: 0)
        #expect(view.effectivePadding == EdgeInsets(top: 30, left: 0, bottom: 50, right: 0))
        view.paddingAdjustmentBehavior = .automatic
        #expect(view.effectivePadding == EdgeInsets(top: 20, left: 0, bottom: 30, right: 0))
        view.paddingAdjustmentBehavior = .never
        #expect(view.effectivePadding == view.padding)
    }

    @Test func styleSourcePriority() {  // items 60, 66
        let view = mapView()
        #expect(view.content.style == .standard)
        view.mapStyle = ##"[{"featureType":"water","stylers":[{"color":"#0000ff"}]}]"##
        #expect(view.content.style == .json)
        view.mapType = .satellite
        #expect(view.content.style == .standard)
        #expect(view.mapStyle != nil)
        var options = MapViewOptions()
        options.mapID = "demo"
        let cloud = MapView(options: options)
        cloud.mapStyle = "[]"
        #expect(cloud.content.style == .cloud)
    }

    @Test func capabilitiesNeedAMapID() {  // item 101
        let view = mapView()
        view.cloudStyleCapabilities = [.advancedMarkers]
        #expect(view.mapCapabilities == [])
        var options = MapViewOptions()
        options.mapID = "demo"
        let cloud = MapView(options: options)
        cloud.cloudStyleCapabilities = [.advancedMarkers, .spritePolylines]
        #expect(cloud.mapCapabilities.contains(.spritePolylines))
    }

    @Test func cameraEventsComeInTheDelegatesOrder() {  // item 84
        let view = mapView()
        var events: [MapEvent] = []
        view.onEvent = { events.append($0) }
        view.moveCamera(.zoomIn)
        #expect(events == [.willMove(gesture: false), .didChangeCameraPosition(view.camera), .idleAt(view.camera)])
        events.removeAll()
        view.pan(byX: 10, y: 0)
        #expect(events.first == .willMove(gesture: true))
    }

    @Test func tapsHitMarkersOrReportTheCoordinate() {  // item 85
        let view = mapView()
        var events: [MapEvent] = []
        view.onEvent = { events.append($0) }
        view.overlays = [.marker(Marker(position: view.camera.target, title: "Here"))]
        view.tap(at: Point(x: 200, y: 190))
        #expect(events == [.didTapMarker(0)])
        #expect(view.selectedMarker == 0)
        view.tap(at: Point(x: 20, y: 20))
        #expect(view.selectedMarker == nil)
        if case .didTapAt = events.last {} else { Issue.record("expected didTapAt, got \(events)") }
        view.shouldHandleMarkerTap = { _ in true }
        view.tap(at: Point(x: 200, y: 190))
        #expect(view.selectedMarker == nil)
    }

    @Test func myLocationButtonCentresOnTheLocation() {  // item 88
        let view = mapView()
        view.settings.myLocationButton = true
        view.isMyLocationEnabled = true
        let before = view.camera
        view.tapMyLocationButton()
        #expect(view.camera == before)  // no fix yet
        view.updateMyLocation(Coordinate(latitude: 60.2, longitude: 25))
        view.shouldHandleMyLocationButtonTap = { true }
        view.tapMyLocationButton()
        #expect(view.camera == before)
        view.shouldHandleMyLocationButtonTap = nil
        view.tapMyLocationButton()
        #expect(view.camera.target == Coordinate(latitude: 60.2, longitude: 25))
    }

    @Test func compassTapReturnsNorthAndHides() {  // item 69
        let view = mapView()
        view.settings.compassButton = true
        view.camera = CameraPosition(target: view.camera.target, zoom: 15, bearing: 45)
        view.tapCompass()
        #expect(view.camera.bearing == 0 && view.controlLayout.compass == nil)
        #expect(MapView.accessibilityCompass == "GMSAccessibilityCompass")  // item 78
    }

    @Test func overlayDefaults() {  // items 97, 98
        let line = Polyline(path: [])
        #expect(line.strokeWidth == 1 && line.strokeColor == Color(red: 0, green: 0, blue: 1) && line.spans.isEmpty)
        let polygon = Polygon(path: [])
        #expect(
            polygon.strokeWidth == 1 && polygon.strokeColor == nil
                && polygon.fillColor == Color(red: 0, green: 0, blue: 1))
        let circle = Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 10)
        #expect(circle.strokeWidth == 1 && circle.strokeColor == Color(white: 0) && circle.fillColor == nil)
        let bounds = CoordinateBounds(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 10, longitude: 20))
        var ground = GroundOverlay(bounds: bounds, icon: nil)
        #expect(ground.anchor == Point(x: 0.5, y: 0.5) && ground.opacity == 1 && ground.bearing == 0)
        #expect(ground.position == Coordinate(latitude: 5, longitude: 10))
        ground.anchor = Point(x: 0, y: 0)
        #expect(ground.position == Coordinate(latitude: 10, longitude: 0))
    }

    @Test func fewerSpansThanSegmentsLastSpanCoversTheRest() {  // item 97
        var line = Polyline(path: [])
        #expect(line.color(ofSegment: 3) == line.strokeColor)
        line.spans = [StyleSpan(color: .yellow, segments: 2), StyleSpan(color: .lightGray)]
        #expect(line.color(ofSegment: 1) == .yellow)
        #expect(line.color(ofSegment: 2) == .lightGray)
        #expect(line.color(ofSegment: 9) == .lightGray)
    }

    @Test func tileIndexingAndCoverage() {  // item 99
        #expect(TileID(containing: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 0) == TileID(x: 0, y: 0, z: 0))
        #expect(TileID(containing: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 1) == TileID(x: 1, y: 0, z: 1))
        #expect(
            TileID(containing: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 10) == TileID(x: 582, y: 296, z: 10)
        )
        let tile = TileID(x: 582, y: 296, z: 10)
        #expect(tile.bounds.contains(Coordinate(latitude: 60.17, longitude: 24.94)))
        let view = mapView()
        let tiles = view.visibleTiles()
        #expect(tiles.allSatisfy { $0.z == 15 })
        #expect(tiles.contains(TileID(containing: view.camera.target, zoom: 15)))
        #expect(tiles.count >= 4 && tiles.count <= 9)
        let pacific = CoordinateBounds(
            Coordinate(latitude: -10, longitude: 170), Coordinate(latitude: 10, longitude: -170))
        #expect(TileID.covering(pacific, zoom: 2).map(\.x) == [3, 0, 3, 0])
        // Counting without listing agrees, across the antimeridian and at the world's edge.
        for bounds in [pacific, .world, CoordinateBounds(tile.bounds.southWest!, tile.bounds.northEast!)] {
            for zoom in [2, 7, 10] {
                #expect(TileID.count(covering: bounds, zoom: zoom) == TileID.covering(bounds, zoom: zoom).count)
            }
        }
        #expect(TileID.count(covering: CoordinateBounds(), zoom: 5) == 0)
    }
}

/// Items 55-58: indoor maps.
@Suite struct IndoorTests {
    let station = IndoorBuilding(
        id: "central-station",
        levels: [IndoorLevel(name: "Platforms", shortName: "0"), IndoorLevel(name: "Metro", shortName: "-1")],
        defaultLevelIndex: 0)

    func mapView(zoom: Double) -> MapView {
        var options = MapViewOptions()
        options.frame = Rect(x: 0, y: 0, width: 400, height: 400)
        options.camera = CameraPosition.camera(withLatitude: 60.171, longitude: 24.941, zoom: zoom)
        return MapView(options: options)
    }

    @Test func activeBuildingNeedsFocusZoomAndNormalType() {
        let view = mapView(zoom: 18)
        #expect(view.activeBuilding == nil && view.activeLevel == nil)
        view.indoorBuildingInFocus = station
        #expect(view.activeBuilding == station && view.activeLevel == station.levels[0])
        view.mapType = .satellite
        #expect(view.activeBuilding == nil && view.activeLevel == nil)
        view.mapType = .normal
        view.camera = CameraPosition.camera(withLatitude: 60.171, longitude: 24.941, zoom: 15)
        #expect(view.activeBuilding == nil)
    }

    @Test func buildingEventComesFirstWithTheLevelAlreadySet() {  // item 57
        let view = mapView(zoom: 18)
        var events: [MapEvent] = []
        var levelAtBuildingEvent: IndoorLevel?
        view.onEvent = { event in
            events.append(event)
            if case .didChangeActiveBuilding = event { levelAtBuildingEvent = view.activeLevel }
        }
        view.indoorBuildingInFocus = station
        #expect(events == [.didChangeActiveBuilding(station), .didChangeActiveLevel(station.levels[0])])
        #expect(levelAtBuildingEvent == station.levels[0])
        events.removeAll()
        view.activeLevel = station.levels[1]
        #expect(events == [.didChangeActiveLevel(station.levels[1])])
    }

    @Test func invalidLevelsAreIgnoredAndDisablingPurges() {  // item 56
        let view = mapView(zoom: 18)
        view.indoorBuildingInFocus = station
        view.activeLevel = IndoorLevel(name: "Roof")
        #expect(view.activeLevel == station.levels[0])
        view.activeLevel = nil
        #expect(view.activeLevel == station.levels[0])
        view.isIndoorEnabled = false
        #expect(view.activeBuilding == nil && view.activeLevel == nil)
    }

    @Test func floorPickerFollowsTheActiveBuilding() {  // item 58
        let view = mapView(zoom: 18)
        view.indoorBuildingInFocus = station
        #expect(view.controlLayout.floorPicker != nil)
        view.settings.indoorPicker = false
        #expect(view.controlLayout.floorPicker == nil)
        view.activeLevel = station.levels[1]  // the floor can still be set without the picker
        #expect(view.activeLevel == station.levels[1])
    }
}

/// Item 18: a NaN update is ignored as a whole.
@Suite struct NonFiniteUpdateTests {
    @Test(arguments: [
        CameraUpdate.zoomTo(.nan), .zoomBy(.infinity), .setTarget(Coordinate(latitude: .nan, longitude: 0)),
        .scrollBy(x: .nan, y: 0), .zoomByAt(1, Point(x: .infinity, y: 0)),
    ])
    func nonFiniteUpdatesAreIgnored(_ update: CameraUpdate) {
        let view = MapView()
        let before = view.camera
        view.moveCamera(update)
        #expect(view.camera == before)
        #expect(view.selectedMarker == nil)  // item 8 default
    }
}
