import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import TestSupport
import Testing

@testable import MapRenderer

/// The layers: traffic, transit, indoor, 3D buildings, My Location's accuracy and heading.
extension MapRendererTests {
    /// The midpoints of the primary segments of Mannerheimintie in view.
    func mannerheimintie(in mapView: MapView) throws -> [Coordinate] {
        let store = try MapStore(path: FixtureStore.path())
        return try store.features(named: "Mannerheimintie").filter { $0.kind == "primary" }.flatMap {
            feature -> [Coordinate] in
            guard case .line(let points) = feature.geometry else { return [] }
            return zip(points, points.dropFirst()).map {
                Coordinate(latitude: ($0.latitude + $1.latitude) / 2, longitude: ($0.longitude + $1.longitude) / 2)
            }
        }.filter { mapView.projection.contains($0) }
    }

    @Test func trafficColoursTheRoadsTheFeedListsAndNeverOnNone() throws {
        let store = try MapStore(path: FixtureStore.path())
        let ways = try store.features(named: "Mannerheimintie").filter { $0.kind == "primary" }.compactMap(\.osmID)
        let feed = TrafficFeed(levels: Dictionary(uniqueKeysWithValues: ways.map { ($0, .heavy) }))
        let trafficRenderer = MapRenderer(store: store, traffic: feed)
        let link = "comgooglemaps://?center=60.1699,24.9384&zoom=16&views=traffic"
        let mapView = try view(link)
        let (canvas, report) = try trafficRenderer.render(mapView)
        #expect(report.traffic[.heavy, default: 0] >= 10 && report.traffic[.free] == nil)
        let midpoints = try mannerheimintie(in: mapView)
        let red = midpoints.filter {
            share(of: MapPalette.trafficColor(.heavy), around: $0, in: mapView, on: canvas) >= 5
        }
        #expect(midpoints.count >= 5 && red.count * 10 >= midpoints.count * 8)
        // Without the layer, the same feed colours nothing; on `none` neither roads nor traffic.
        let off = try trafficRenderer.render(try view("comgooglemaps://?center=60.1699,24.9384&zoom=16")).1
        #expect(off.traffic.isEmpty)
        let none = try trafficRenderer.render(try view(link, type: .none)).1
        #expect(none.traffic.isEmpty && none.features.isEmpty)
    }

    @Test func transitDrawsLinesAndStopsOnlyWhenAskedFor() throws {
        let on = try renderer.render(try view("comgooglemaps://?center=60.1699,24.9434&zoom=16&views=transit")).1
        let off = try renderer.render(try view("comgooglemaps://?center=60.1699,24.9434&zoom=16")).1
        #expect(on.features[.route, default: 0] > 10 && off.features[.route] == nil)
        // Tram stops are named with the layer on; the railway station always.
        #expect(on.labels.contains("Ylioppilastalo") && !off.labels.contains("Ylioppilastalo"))
    }

    @Test(arguments: [UserInterfaceStyle.light, .dark])
    func bicyclingDrawsTheCycleTracksInItsColourOnlyWhenOn(style: UserInterfaceStyle) throws {
        // Pohjoisesplanadi has cycle tracks on both sides; a Maps URL turns the layer on.
        let link = "https://www.google.com/maps/@?api=1&map_action=map&center=60.1680,24.9440&zoom=17&layer=bicycling"
        let onView = try view(link, style: style)
        #expect(onView.content.bicycling)
        let offView = try view("comgooglemaps://?center=60.1680,24.9440&zoom=17", style: style)
        let palette = BicyclingPalette.forScheme(style)
        let street = [24.9405, 24.9425, 24.9435, 24.9455, 24.9465, 24.9475].map {
            Coordinate(latitude: 60.1680, longitude: $0)
        }
        let (on, report) = try renderer.render(onView)
        let (off, _) = try renderer.render(offView)
        let green = street.filter { share(of: palette.track, around: $0, in: onView, on: on) >= 3 }
        #expect(green.count >= 5, "\(green.count) of \(street.count) points of Pohjoisesplanadi in the track colour")
        #expect(street.allSatisfy { share(of: palette.track, around: $0, in: offView, on: off) == 0 })
        #expect(report.features[.cycling, default: 0] >= 10)
        // The cycle route's ref and the bicycle parking are placed at this zoom.
        #expect(report.labels.contains("2") && report.labels.contains("P"))
        // Kaivokatu's lane in the lane colour.
        let lanes = try view(
            "https://www.google.com/maps/@?api=1&map_action=map&center=60.1706,24.9415&zoom=17&layer=bicycling",
            style: style)
        // On the street, from (60.1705, 24.9385) to (60.1707, 24.9445).
        let kaivokatu = Coordinate(latitude: 60.1705 + 0.0002 * (0.0040 / 0.0060), longitude: 24.9425)
        #expect(share(of: palette.lane, around: kaivokatu, in: lanes, on: try renderer.render(lanes).0) >= 3)
        // Never on satellite (no roads) or none.
        for type in [MapType.satellite, .none] {
            let other = try view(link, type: type)
            let drawn = try renderer.render(other).1
            #expect(!other.content.bicycling && drawn.features[.cycling] == nil)
        }
    }

    @Test func realMonacoShowsEuroVelo8AndItsClosedWays() throws {
        let monaco = MapRenderer(store: try MapStore(path: try TestExtracts.monacoStore()))
        let link = "https://www.google.com/maps/@?api=1&map_action=map&center=43.7370,7.4230&zoom=15&layer=bicycling"
        for style in [UserInterfaceStyle.light, .dark] {
            let report = try monaco.render(try view(link, style: style)).1
            // The EuroVelo route along the coast, labelled by its ref, and the tunnels bicycles may not use.
            #expect(report.features[.cycling, default: 0] >= 5 && report.labels.contains("EV 8"), "\(report.labels)")
        }
    }

    @Test func tiltRaisesBuildingsAndLeavesTheFlatMapAlone() throws {
        let flatView = try view("comgooglemaps://?center=60.1699,24.9434&zoom=17")
        let tiltedView = try view("comgooglemaps://?center=60.1699,24.9434&zoom=17")
        let camera = tiltedView.camera
        tiltedView.camera = CameraPosition(target: camera.target, zoom: camera.zoom, viewingAngle: 60)
        #expect(tiltedView.content.buildings3D && !flatView.content.buildings3D)
        let flat = try renderer.render(flatView)
        let tilted = try renderer.render(tiltedView)
        #expect(tilted.1.features[.building, default: 0] > 50)
        // Walls are the building colour darkened; the flat map has no such pixels.
        let wall = MapPalette.light.building.darkened(by: 0.22)
        let shade = Pixel(wall)
        func walls(_ canvas: Canvas) -> Int {
            var count = 0
            for y in stride(from: 0, to: 600, by: 2) {
                for x in stride(from: 0, to: 800, by: 2) where canvas.pixel(x: x, y: y)!.distance(to: shade) <= 2 {
                    count += 1
                }
            }
            return count
        }
        #expect(walls(tilted.0) > 400)
        #expect(walls(flat.0) < 50)
        // Buildings off: the tilted map stays flat.
        tiltedView.isBuildingsEnabled = false
        #expect(!tiltedView.content.buildings3D)
    }

    @Test func myLocationShowsItsAccuracyAndHeading() throws {
        let mapView = try view("comgooglemaps://?center=60.1699,24.9384&zoom=17")
        let here = Coordinate(latitude: 60.1699, longitude: 24.9384)
        mapView.isMyLocationEnabled = true
        mapView.updateMyLocation(here, accuracy: 60, heading: 90)
        #expect(mapView.myLocationAccuracy == 60 && mapView.myLocationHeading == 90)
        let (canvas, _) = try renderer.render(mapView)
        let point = mapView.projection.point(for: here)
        let radius = mapView.projection.points(forMeters: 60, at: here)
        #expect(radius > 40)
        func blueness(_ x: Double, _ y: Double) -> Int {
            guard let pixel = canvas.pixel(x: Int(x), y: Int(y)) else { return 0 }
            return Int(pixel.blue) - Int(pixel.red)
        }
        // Inside the accuracy circle the map is tinted blue; outside it is not.
        let inside = blueness(point.x - radius * 0.7, point.y + radius * 0.4)
        let outside = blueness(point.x - radius * 1.4, point.y + radius * 0.8)
        #expect(inside > outside + 10)
        // The beam points east (heading 90°, bearing 0): bluer east of the dot than west.
        #expect(blueness(point.x + 20, point.y) > blueness(point.x - 20, point.y) + 20)
        // Turning My Location off forgets accuracy and heading.
        mapView.isMyLocationEnabled = false
        #expect(mapView.myLocationAccuracy == nil && mapView.myLocationHeading == nil)
    }

    @Test func indoorMapsListTheFloorsInViewAndShowOneFloorsPlaces() throws {
        let mapView = try view("comgooglemaps://?center=60.1688,24.9405&zoom=18")
        #expect(mapView.content.indoor)
        let building = try #require(try renderer.indoorBuilding(in: mapView))
        #expect(building.levels.map(\.name) == ["7", "1", "0"])
        #expect(building.defaultLevel?.name == "0" && !building.isUnderground)
        mapView.indoorBuildingInFocus = building
        #expect(mapView.controlLayout.floorPicker != nil && mapView.activeLevel?.name == "0")
        let ground = try renderer.render(mapView).1
        let seventh: IndoorLevel = try #require(building.levels.first { $0.name == "7" })
        mapView.activeLevel = seventh
        let top = try renderer.render(mapView).1
        // Fazer's 8th-floor café is on level 7 only.
        #expect(top.labels.contains("Fazer 8th Floor") && !ground.labels.contains("Fazer 8th Floor"))
        // Below the indoor zoom there is no indoor layer and no floor to pick.
        let far = try view("comgooglemaps://?center=60.1688,24.9405&zoom=16")
        #expect(!far.content.indoor)
    }
}

extension MapRendererTests {
    /// A 40 × 20 PNG file: red left half, blue right half.
    func twoColourImage() throws -> String {
        let canvas = try Canvas(width: 40, height: 20)
        canvas.rectangle(x: 0, y: 0, width: 20, height: 20)
        canvas.fill(Color(hex: 0xFF0000))
        canvas.rectangle(x: 20, y: 0, width: 20, height: 20)
        canvas.fill(Color(hex: 0x0000FF))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString).png")
            .path
        try canvas.write(to: path)
        return path
    }

    @Test func groundOverlaysLayTheirImageOverTheirBounds() throws {
        let path = try twoColourImage()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mapView = try view("comgooglemaps://?center=60.1699,24.9384&zoom=15")
        let bounds = CoordinateBounds(
            southWest: Coordinate(latitude: 60.165, longitude: 24.930),
            northEast: Coordinate(latitude: 60.175, longitude: 24.950))
        mapView.overlays = [.groundOverlay(GroundOverlay(bounds: bounds, icon: path))]
        let west = Coordinate(latitude: 60.170, longitude: 24.935)
        let east = Coordinate(latitude: 60.170, longitude: 24.945)
        let outside = Coordinate(latitude: 60.170, longitude: 24.955)
        func pixel(_ coordinate: Coordinate, _ canvas: Canvas) -> Pixel? {
            let point = mapView.projection.point(for: coordinate)
            return canvas.pixel(x: Int(point.x), y: Int(point.y))
        }
        let (canvas, report) = try renderer.render(mapView)
        #expect(report.overlays == 1 && report.missingImages.isEmpty)
        #expect(pixel(west, canvas) == Pixel(red: 255, green: 0, blue: 0))
        #expect(pixel(east, canvas) == Pixel(red: 0, green: 0, blue: 255))
        #expect(pixel(outside, canvas)?.blue != 255)
        // Turned half round about its centre, the halves swap.
        var turned = GroundOverlay(bounds: bounds, icon: path)
        turned.bearing = 180
        turned.opacity = 0.5
        mapView.overlays = [.groundOverlay(turned)]
        let swapped = try renderer.render(mapView).0
        let blended = try #require(pixel(west, swapped))
        // Half-transparent blue over the light map: bluish, but the map shows through.
        #expect(blended.blue > blended.red + 80 && blended.red > 60 && blended.red < 200, "\(blended)")
        // An image that cannot be read is named, not drawn.
        mapView.overlays = [.groundOverlay(GroundOverlay(bounds: bounds, icon: "/nonexistent/plan.png"))]
        let missing = try renderer.render(mapView).1
        #expect(missing.overlays == 0 && missing.missingImages == ["/nonexistent/plan.png"])
    }
}

extension MapRendererTests {
    @Test func tileLayersFromFilesAreDrawnAndOthersAreNamed() throws {
        // Zoom 15 tiles around central Helsinki: the left column red, the others blue, one
        // tile missing (left transparent).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-tiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let centre = Coordinate(latitude: 60.1699, longitude: 24.9384)
        let here = TileID(containing: centre, zoom: 15)
        for dx in -2...2 {
            for dy in -2...2 where !(dx == 1 && dy == 0) {
                let tile = TileID(x: here.x + dx, y: here.y + dy, z: 15)
                let canvas = try Canvas(width: 256, height: 256)
                canvas.fill(all: dx == 0 ? Color(hex: 0xFF0000) : Color(hex: 0x0000FF))
                let file = folder.appendingPathComponent("15/\(tile.x)/\(tile.y).png")
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try canvas.write(to: file.path)
            }
        }
        let mapView = try view("comgooglemaps://?center=60.1699,24.9384&zoom=15")
        mapView.mapType = .none
        mapView.tileLayers = [TileLayer(source: folder.path + "/{z}/{x}/{y}.png")]
        func pixel(_ tile: TileID, _ canvas: Canvas) -> Pixel? {
            guard let centre = tile.bounds.center else { return nil }
            let point = mapView.projection.point(for: centre)
            return canvas.pixel(x: Int(point.x), y: Int(point.y))
        }
        let (canvas, report) = try renderer.render(mapView)
        #expect(report.unapplied.isEmpty && report.overlays == 1)
        #expect(pixel(here, canvas) == Pixel(red: 255, green: 0, blue: 0))
        #expect(pixel(TileID(x: here.x - 1, y: here.y, z: 15), canvas) == Pixel(red: 0, green: 0, blue: 255))
        #expect(pixel(TileID(x: here.x + 1, y: here.y, z: 15), canvas)?.blue != 255, "the missing tile is not drawn")
        // Half transparent over the road map, as a file:// URL: the map shows through.
        mapView.mapType = .normal
        var faint = TileLayer(source: "file://" + folder.path + "/{z}/{x}/{y}.png")
        faint.opacity = 0.5
        mapView.tileLayers = [faint]
        let blended = try #require(pixel(here, try renderer.render(mapView).0))
        #expect(blended.red > blended.blue + 60 && blended.green > 40, "\(blended)")
        // A source on the network is not fetched, and the report says so; so is a JSON style.
        mapView.tileLayers = [TileLayer(source: "https://tile.example.org/{z}/{x}/{y}.png")]
        mapView.mapStyle = ##"[{"featureType":"water","stylers":[{"color":"#000000"}]}]"##
        let refused = try renderer.render(mapView).1
        #expect(
            refused.unapplied == [.jsonMapStyle, .tileLayerSource("https://tile.example.org/{z}/{x}/{y}.png")])
        #expect(refused.unapplied.map(\.description).allSatisfy { $0.contains("not") })
    }
}
