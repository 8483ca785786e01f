import GeoCore
import MapCore
import Testing

/// Sections D, E and F of the map view specification: what is drawn and where controls sit.
@Suite struct ContentTests {
    func mapView(zoom: Double = 15, tilt: Double = 0, bearing: Double = 0) -> MapView {
        var options = MapViewOptions()
        options.frame = Rect(x: 0, y: 0, width: 400, height: 800)
        options.camera = CameraPosition(
            target: Coordinate(latitude: 60.17, longitude: 24.94), zoom: zoom, bearing: bearing, viewingAngle: tilt)
        return MapView(options: options)
    }

    @Test(arguments: MapType.allCases)
    func mapTypesDrawTheirBase(_ type: MapType) {  // item 52
        let view = mapView()
        view.mapType = type
        let content = view.content
        switch type {
        case .normal: #expect(content.base == .roadMap && content.roads && content.labels)
        case .hybrid: #expect(content.base == .imagery && content.roads && content.labels)
        case .satellite: #expect(content.base == .imagery && !content.roads && !content.labels)
        case .terrain: #expect(content.base == .relief && content.roads && content.labels)
        case .none: #expect(content.base == .none && !content.roads && !content.labels)
        }
    }

    @Test func noneNeverDrawsTrafficButKeepsTheRequest() {  // items 53, 54
        let view = mapView()
        view.isTrafficEnabled = true
        view.mapType = .none
        #expect(!view.content.traffic)
        #expect(view.isTrafficEnabled)
        view.mapType = .normal
        #expect(view.content.traffic)
    }

    @Test func bicyclingShowsWhereRoadsAreDrawn() {
        let view = mapView()
        view.isBicyclingEnabled = true
        for type in MapType.allCases {
            view.mapType = type
            #expect(view.content.bicycling == [.normal, .hybrid, .terrain].contains(type), "\(type)")
        }
        view.mapType = .normal
        view.isBicyclingEnabled = false
        #expect(!view.content.bicycling)
    }

    @Test func colorSchemeAppliesToNormalAndTerrainOnly() {  // items 62, 63
        let view = mapView()
        view.overrideUserInterfaceStyle = .dark
        #expect(view.content.colorScheme == .dark)
        view.mapType = .terrain
        #expect(view.content.colorScheme == .dark)
        for type in [MapType.satellite, .hybrid, .none] {
            view.mapType = type
            #expect(view.content.colorScheme == nil)
        }
        view.mapType = .normal
        view.overrideUserInterfaceStyle = .unspecified
        view.systemUserInterfaceStyle = .dark
        #expect(view.content.colorScheme == .dark)
    }

    @Test func backgroundColorPriority() {  // items 64, 65
        let view = mapView()
        #expect(view.content.backgroundColor == .lightGray)
        view.overrideUserInterfaceStyle = .dark
        #expect(view.content.backgroundColor == .darkGray)
        var options = MapViewOptions()
        options.backgroundColor = .yellow
        options.mapID = "demo-style"
        let styled = MapView(options: options)
        styled.overrideUserInterfaceStyle = .dark
        #expect(styled.content.backgroundColor == .yellow)
        styled.cloudStyleBackgroundColor = Color(red: 0, green: 0, blue: 1)
        #expect(styled.content.backgroundColor == Color(red: 0, green: 0, blue: 1))
    }

    @Test func indoorNeedsNormalTypeAndZoom17() {  // item 55
        #expect(!mapView(zoom: 16).content.indoor)
        let view = mapView(zoom: 17)
        #expect(view.content.indoor)
        view.mapType = .hybrid
        #expect(!view.content.indoor)
        view.mapType = .normal
        view.isIndoorEnabled = false
        #expect(!view.content.indoor)
    }

    @Test func buildingsExtrudeOnlyUnderTiltOnNormal() {  // item 59
        #expect(!mapView(tilt: 0).content.buildings3D)
        let view = mapView(zoom: 17, tilt: 45)
        #expect(view.content.buildings3D)
        view.isBuildingsEnabled = false
        #expect(!view.content.buildings3D)
    }

    @Test func compassOnlyWhenEnabledAndRotated() {  // item 69
        let view = mapView(bearing: 0)
        view.settings.compassButton = true
        #expect(view.controlLayout.compass == nil)
        view.camera = CameraPosition(target: view.camera.target, zoom: 15, bearing: 30)
        #expect(view.controlLayout.compass == Rect(x: 400 - 8 - 40, y: 8, width: 40, height: 40))  // item 75
        view.settings.compassButton = false
        #expect(view.controlLayout.compass == nil)
    }

    @Test func paddingMovesTheControls() {  // items 68, 72, 75, seed padding example
        let view = mapView(bearing: 10)
        view.settings.compassButton = true
        view.padding = EdgeInsets(top: 100, left: 0, bottom: 0, right: 300)
        let layout = view.controlLayout
        #expect(layout.compass == Rect(x: 400 - 300 - 8 - 40, y: 108, width: 40, height: 40))
        #expect(layout.logo == Rect(x: 8, y: 800 - 8 - 26, width: 66, height: 26))
        #expect(layout.attribution.origin.x == 400 - 300 - 8 - 160)
    }

    @Test func negativePaddingNeverPushesControlsOut() {  // item 76
        let view = mapView()
        view.padding = EdgeInsets(top: -100, left: -100, bottom: -100, right: -100)
        #expect(view.controlLayout.logo == Rect(x: 8, y: 800 - 8 - 26, width: 66, height: 26))
    }

    @Test func myLocationButtonNeedsTheButtonAndTheLayer() {  // items 70, 77
        let view = mapView()
        view.settings.myLocationButton = true
        #expect(view.controlLayout.myLocationButton == nil)
        view.isMyLocationEnabled = true
        let button = view.controlLayout.myLocationButton
        #expect(button == Rect(x: 400 - 8 - 44, y: 800 - 8 - 16 - 8 - 44, width: 44, height: 44))
        view.settings.zoomButtons = true
        let zoom = view.controlLayout.zoomButtons
        #expect(zoom?.origin.y == button!.origin.y - 8 - 88)
    }

    @Test func floorPickerNeedsIndoorDataInFocus() {  // items 58, 71
        let view = mapView(zoom: 18)
        #expect(view.controlLayout.floorPicker == nil)
        view.indoorBuildingInFocus = IndoorBuilding(
            id: "station", levels: [IndoorLevel(name: "Ground", shortName: "G")])
        #expect(view.controlLayout.floorPicker != nil)
        view.settings.indoorPicker = false
        #expect(view.controlLayout.floorPicker == nil)
    }
}
