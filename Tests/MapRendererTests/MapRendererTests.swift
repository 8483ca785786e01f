import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import MapsURL
import TestSupport
import Testing

@testable import MapRenderer

/// Rules the road map must keep, probed on pictures of the installed default store.
@Suite
struct MapRendererTests {
    let renderer: MapRenderer

    init() throws {
        renderer = MapRenderer(store: try MapStore(path: FixtureStore.path()))
    }

    /// The map view a link opens, at 800×600 points.
    func view(_ link: String, type: MapType = .normal, style: UserInterfaceStyle = .light) throws -> MapView {
        let mapView = try MapsApp().answer(link).mapView
        mapView.mapType = type
        mapView.overrideUserInterfaceStyle = style
        return mapView
    }

    /// How many of the 5×5 pixels around a coordinate's screen point have `color` (±3 a channel).
    func share(of color: Color, around coordinate: Coordinate, in view: MapView, on canvas: Canvas) -> Int {
        let point = view.projection.point(for: coordinate)
        let expected = Pixel(color)
        var count = 0
        for dy in -2...2 {
            for dx in -2...2 {
                if let pixel = canvas.pixel(x: Int(point.x) + dx, y: Int(point.y) + dy),
                    pixel.distance(to: expected) <= 3
                {
                    count += 1
                }
            }
        }
        return count
    }

    @Test func seaIsWaterAndLandIsLandAcrossTheGulfOfFinland() throws {
        let mapView = try view("comgooglemaps://?center=60.0,25.0&zoom=6")
        let (canvas, report) = try renderer.render(mapView)
        #expect(report.features[.land, default: 0] > 0)
        let gulf = Coordinate(latitude: 59.85, longitude: 25.3)
        let estonia = Coordinate(latitude: 58.9, longitude: 25.6)
        #expect(share(of: MapPalette.light.water, around: gulf, in: mapView, on: canvas) == 25)
        #expect(share(of: MapPalette.light.land, around: estonia, in: mapView, on: canvas) >= 20)
        #expect(
            report.labels.contains("Tampere") && report.labels.contains("Helsinki") && report.labels.contains("Tallinn")
        )
    }

    @Test func darkSchemeRepaintsTheSameMap() throws {
        let light = try renderer.render(try view("comgooglemaps://?center=60.0,25.0&zoom=6")).0
        let darkView = try view("comgooglemaps://?center=60.0,25.0&zoom=6", style: .dark)
        let dark = try renderer.render(darkView).0
        let gulf = Coordinate(latitude: 59.85, longitude: 25.3)
        #expect(share(of: MapPalette.dark.water, around: gulf, in: darkView, on: dark) == 25)
        #expect(light.pixel(x: 10, y: 10) != dark.pixel(x: 10, y: 10))
    }

    @Test func noneDrawsTheBackgroundOnly() throws {
        let mapView = try view("comgooglemaps://?center=60.1699,24.9384&zoom=15&views=traffic", type: .none)
        let (canvas, report) = try renderer.render(mapView)
        #expect(report.features.isEmpty && report.labels.isEmpty)
        let background = try #require(canvas.pixel(x: 0, y: 0))
        for y in stride(from: 0, to: 600, by: 37) {
            for x in stride(from: 0, to: 800, by: 41) { #expect(canvas.pixel(x: x, y: y) == background) }
        }
    }

    @Test func streetsOfHelsinkiAreDrawnWhereTheyAre() throws {
        let mapView = try view("comgooglemaps://?center=60.1699,24.9384&zoom=16")
        let (canvas, report) = try renderer.render(mapView)
        #expect(report.features[.road, default: 0] > 100 && report.features[.building, default: 0] > 100)
        // Every segment midpoint of Mannerheimintie (primary) in view: mostly the major road colour
        // (labels may cover a few).
        let store = try MapStore(path: FixtureStore.path())
        let midpoints = try store.features(named: "Mannerheimintie").filter { $0.kind == "primary" }.flatMap {
            feature -> [Coordinate] in
            guard case .line(let points) = feature.geometry else { return [] }
            return zip(points, points.dropFirst()).map {
                Coordinate(latitude: ($0.latitude + $1.latitude) / 2, longitude: ($0.longitude + $1.longitude) / 2)
            }
        }.filter { mapView.projection.contains($0) }
        #expect(midpoints.count >= 5)
        let onRoad = midpoints.filter {
            share(of: MapPalette.light.majorRoad, around: $0, in: mapView, on: canvas) >= 5
        }
        #expect(onRoad.count * 10 >= midpoints.count * 8)
    }

    @Test func satelliteShowsTheImageryWithoutRoadsOrLabels() throws {
        let mapView = try view("comgooglemaps://?center=60.0,25.0&zoom=5", type: .satellite)
        let (canvas, report) = try renderer.render(mapView)
        #expect(report.labels.isEmpty && report.features[.road] == nil)
        // The Gulf of Bothnia is deep blue, the Norwegian mountains' snow is bright.
        let sea = try #require(canvas.pixel(for: Coordinate(latitude: 62.5, longitude: 20.0), in: mapView))
        #expect(Int(sea.blue) > Int(sea.red) + 40 && Int(sea.blue) > Int(sea.green) + 20)
        let snow = try #require(canvas.pixel(for: Coordinate(latitude: 61.6, longitude: 8.3), in: mapView))
        #expect(snow.red > 150 && snow.green > 150 && snow.blue > 150)
    }

    @Test func hybridAndTerrainDrawLabelsOverTheirRasters() throws {
        let hybridView = try view("comgooglemaps://?center=60.0,25.0&zoom=5", type: .hybrid)
        let (hybrid, hybridReport) = try renderer.render(hybridView)
        #expect(hybridReport.labels.contains("Tampere"))
        let terrainView = try view("comgooglemaps://?center=60.0,25.0&zoom=5", type: .terrain)
        let (terrain, terrainReport) = try renderer.render(terrainView)
        #expect(terrainReport.labels.contains("Tampere"))
        let land = Coordinate(latitude: 63.0, longitude: 27.0)
        #expect(hybrid.pixel(for: land, in: hybridView) != terrain.pixel(for: land, in: terrainView))
    }

    @Test func theImageryDecodesAtItsFullSize() throws {
        let store = try MapStore(path: FixtureStore.path())
        let raster = try #require(try store.rasters().first { $0.name == .blueMarble })
        let image = try RasterImage(file: raster.path)
        #expect(image.width == raster.width && image.height == raster.height)
    }

    @Test func directionsEndsArePinnedWhereTheyAreOnEveryMapType() throws {
        let link = "comgooglemaps://?saddr=60.1713,24.9414&daddr=60.1675,24.9530&directionsmode=walking"
        for type in [MapType.normal, .none, .satellite] {
            let mapView = try view(link, type: type)
            let (canvas, report) = try renderer.render(mapView)
            #expect(report.overlays == 2)
            for end in [
                Coordinate(latitude: 60.1713, longitude: 24.9414), Coordinate(latitude: 60.1675, longitude: 24.9530),
            ] {
                // A few points above the tip, inside the pin's red drop.
                let tip = mapView.projection.point(for: end)
                let pixel = try #require(canvas.pixel(x: Int(tip.x), y: Int(tip.y - 6)))
                #expect(pixel.distance(to: Pixel(red: 0xEA, green: 0x43, blue: 0x35)) <= 3, "\(type) at \(end)")
            }
        }
    }

    @Test func streetZoomsWithoutStreetDataSaySo() throws {
        let paris = try view("comgooglemaps://?center=48.8584,2.2945&zoom=15")
        let (canvas, report) = try renderer.render(paris)
        #expect(report.notice?.contains("No street data here") == true)
        // The notice's box is drawn at the bottom centre above the logo, over the plain land.
        #expect(canvas.pixel(x: 400, y: 548) != canvas.pixel(x: 400, y: 300))
        #expect(try renderer.render(try view("comgooglemaps://?center=48.8584,2.2945&zoom=10")).1.notice == nil)
        #expect(try renderer.render(try view("comgooglemaps://?center=60.1699,24.9384&zoom=15")).1.notice == nil)
    }

    @Test func theNoticeIsInTheChosenLanguage() throws {
        let paris = try view("comgooglemaps://?center=48.8584,2.2945&zoom=15")
        var renderer = renderer
        renderer.language = .es
        #expect(
            try renderer.render(paris).1.notice
                == "No hay datos de calles aquí (la región importada más cercana, Helsinki, está a 1.911 km); se muestra: "
                + "el mapa del mundo. Añade calles con «openmaps import».")
        renderer.language = .hi
        #expect(
            try renderer.render(paris).1.notice
                == "यहाँ सड़कों का डेटा नहीं है (सबसे नज़दीकी आयातित क्षेत्र, Helsinki, 1,911 किमी दूर है); दिखाया गया: "
                + "विश्व मानचित्र। सड़कें ‘openmaps import’ से जोड़ें।")
    }

    @Test func theSelectedPinShowsItsInfoWindowOnlyWhenInThePicture() throws {
        let mapView = try view("comgooglemaps://?center=60.1699,24.9384&zoom=15")
        let centre = Coordinate(latitude: 60.1699, longitude: 24.9384)
        var marker = Marker(position: centre, title: "Stockmann", snippet: "Aleksanterinkatu 52, 00100 Helsinki")
        marker.glyph = "1"
        mapView.overlays = [.marker(marker)]
        mapView.selectedMarker = 0
        let tip = mapView.projection.point(for: centre)
        // The window's white box above the pin's head (its bottom padding, clear of the text).
        let (shown, _) = try renderer.render(mapView)
        let inside = try #require(shown.pixel(x: Int(tip.x) - 60, y: Int(tip.y) - 54))
        #expect(inside.distance(to: Pixel(red: 255, green: 255, blue: 255)) <= 2, "\(inside)")
        // A pin off the picture: no window left floating at its edge.
        let far = mapView.projection.coordinate(for: Point(x: 1200, y: 300))
        mapView.overlays = [.marker(Marker(position: far, title: "Far away", snippet: "nowhere"))]
        mapView.selectedMarker = 0
        #expect(mapView.selectedMarker == 0)
        let (hidden, _) = try renderer.render(mapView)
        mapView.selectedMarker = nil
        let (plain, _) = try renderer.render(mapView)
        #expect(
            try hidden.encodedPNG(x: 0, y: 0, width: hidden.width, height: hidden.height)
                == plain.encodedPNG(x: 0, y: 0, width: plain.width, height: plain.height))
    }

    @Test func myLocationIsABlueDot() throws {
        let mapView = try view("comgooglemaps://?center=60.1699,24.9384&zoom=15")
        let here = Coordinate(latitude: 60.1690, longitude: 24.9420)
        let (before, _) = try renderer.render(mapView)
        mapView.isMyLocationEnabled = true
        mapView.updateMyLocation(here)
        let (canvas, _) = try renderer.render(mapView)
        let point = mapView.projection.point(for: here)
        #expect(canvas.pixel(x: Int(point.x), y: Int(point.y)) == Pixel(red: 0x42, green: 0x85, blue: 0xF4))
        #expect(before.pixel(x: Int(point.x), y: Int(point.y)) != Pixel(red: 0x42, green: 0x85, blue: 0xF4))
    }

    /// Pixels in a frame that differ from the map drawn without controls there.
    func inkedPixels(in frame: Rect, of canvas: Canvas, color: Color) -> Int {
        let expected = Pixel(color)
        var count = 0
        for y in Int(frame.origin.y)..<Int(frame.origin.y + frame.size.height) {
            for x in Int(frame.origin.x)..<Int(frame.origin.x + frame.size.width)
            where canvas.pixel(x: x, y: y).map({ $0.distance(to: expected) <= 40 }) == true {
                count += 1
            }
        }
        return count
    }

    @Test func controlsSitWhereMapCoreLaysThemOutAndPaddingMovesThem() throws {
        let mapView = try view("comgooglemaps://?center=60.1699,24.9384&zoom=16")
        let (canvas, report) = try renderer.render(mapView)
        #expect(report.credits.first == "© OpenStreetMap contributors")
        let logo = mapView.controlLayout.logo
        #expect(inkedPixels(in: logo, of: canvas, color: MapPalette.light.label) > 20)
        mapView.padding = EdgeInsets(top: 0, left: 0, bottom: 200, right: 0)
        let moved = mapView.controlLayout.logo
        #expect(moved.origin.y < logo.origin.y - 150)
        let (padded, _) = try renderer.render(mapView)
        #expect(inkedPixels(in: moved, of: padded, color: MapPalette.light.label) > 20)
        #expect(
            inkedPixels(in: logo, of: padded, color: MapPalette.light.label)
                < inkedPixels(in: logo, of: canvas, color: MapPalette.light.label))
        // Rotated, with the compass enabled, the compass appears.
        mapView.settings.compassButton = true
        mapView.camera = CameraPosition(target: mapView.camera.target, zoom: 16, bearing: 45)
        let compass = try #require(mapView.controlLayout.compass)
        let (rotated, _) = try renderer.render(mapView)
        #expect(inkedPixels(in: compass, of: rotated, color: .white) > 200)
        #expect(
            try renderer.render(try view("comgooglemaps://?center=48.8584,2.2945&zoom=15")).1.credits == ["GSHHG, NASA"]
        )
    }

    @Test func continentsStayWholeAtHighZoomAndScale() throws {
        // Eurasia's outline reaches millions of pixels out at zoom 16 and scale 2; clipped
        // before drawing, it still fills the land west of the extract.
        let mapView = try view("comgooglemaps://?center=60.1699,24.9384&zoom=16")
        let (canvas, _) = try renderer.render(mapView, scale: 2)
        let land = MapPalette.light.land
        let expected = Pixel(land)
        for (x, y) in [(40, 40), (100, 700), (300, 1100)] {
            #expect(canvas.pixel(x: x, y: y).map { $0.distance(to: expected) <= 3 } == true, "at \(x),\(y)")
        }
    }

    @Test func shapesAcrossTheAntimeridianStayWhole() throws {
        let mapView = try view("comgooglemaps://?center=60,-175&zoom=3")
        let (canvas, report) = try renderer.render(mapView)
        #expect(report.features[.land, default: 0] > 0)
        // Chukotka (west of the line) and Alaska (east of it) are both land; the Bering Sea is not.
        #expect(
            share(
                of: MapPalette.light.land, around: Coordinate(latitude: 67.0, longitude: 175.0), in: mapView, on: canvas
            ) >= 15)
        #expect(
            share(
                of: MapPalette.light.land, around: Coordinate(latitude: 64.5, longitude: -155.0), in: mapView,
                on: canvas) >= 15)
        #expect(
            share(
                of: MapPalette.light.water, around: Coordinate(latitude: 57.0, longitude: -178.0), in: mapView,
                on: canvas) == 25)
    }

    @Test func streetsAreNamedAlongThemAndSightsBesideTheirIcons() throws {
        let mapView = try view("comgooglemaps://?center=60.1699,24.9434&zoom=16")
        let (_, report) = try renderer.render(mapView)
        // Mannerheimintie is dozens of short ways: only joined end to end is it long enough.
        for street in ["Mannerheimintie", "Aleksanterinkatu", "Pohjoisesplanadi", "Kaivokatu"] {
            #expect(report.labels.contains(street), "\(street)")
        }
        // Parks wide enough for their names are named, in their own colour, before streets and POIs.
        #expect(report.labels.contains("Esplanadinpuisto") && report.labels.contains("Hotel Kämp"))
        // Restaurants wait for zoom 17; one name is not repeated close by.
        #expect(!report.labels.contains("Chilli"))
        #expect(report.labels.filter { $0 == "Mannerheimintie" }.count <= 2)
        let closer = try renderer.render(try view("comgooglemaps://?center=60.1679,24.9484&zoom=17")).1
        #expect(closer.labels.contains("Ravintola Savoy") && closer.labels.contains("Havis Amanda"))
    }

    @Test(arguments: [
        (Language.en, "Esplanade Park"), (.es, "Parque de la Explanada"), (.it, "Parco dell'Esplanade"),
        (.hi, "एस्प्लेनेड पार्क"),
    ])
    func placesAreNamedInTheChosenLanguageWhereTheDataHasIt(language: Language, name: String) throws {
        var renderer = renderer
        renderer.language = language
        let (_, report) = try renderer.render(try view("comgooglemaps://?center=60.1699,24.9434&zoom=16"))
        #expect(report.labels.contains(name) && !report.labels.contains("Esplanadinpuisto"))
        // Names the data has in no other language are drawn as written.
        #expect(report.labels.contains("Mannerheimintie") && report.labels.contains("Hotel Kämp"))
    }

    @Test func labelsKeepClearOfTheControls() throws {
        let mapView = try view("comgooglemaps://?center=60.1699,24.9434&zoom=17")
        let layout = mapView.controlLayout
        let reserved = MapRenderer.reservedBoxes(layout)
        let bottom = try #require(reserved.last)
        // The row from the logo to the attribution's right edge.
        #expect(bottom.x == layout.logo.origin.x)
        #expect(bottom.x + bottom.width == layout.attribution.origin.x + layout.attribution.size.width)
    }
}

extension Canvas {
    /// The pixel under a coordinate's screen point.
    func pixel(for coordinate: Coordinate, in view: MapView) -> Pixel? {
        let point = view.projection.point(for: coordinate)
        return pixel(x: Int(point.x * scale), y: Int(point.y * scale))
    }
}
