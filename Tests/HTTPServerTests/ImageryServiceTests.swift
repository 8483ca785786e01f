import CairoKit
import Foundation
import GeoCore
import MapData
import MapsApp
import TestSupport
import Testing

@testable import MapsServer

/// An imported aerial image as the server's clients see it: in the satellite tiles the
/// MapLibre and Leaflet web apps draw, and credited in their TileJSON and styles.
@Suite struct ImageryServiceTests: ServerExchanges {
    @Test func satelliteTilesShowTheImageAndCreditIt() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).sqlite").path
        let image = try FixtureImagery.write(epsg: 3857, metresPerPixel: 8)
        defer { for path in [store, image] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try Imagery.importImage(image, into: store, name: "harbour", attribution: "Imagery: Harbour survey")
        let server = try MapsServer(app: try MapsApp.onStore(path: store), options: .loopback())
        defer { server.stop() }
        // The zoom 14 tile holding a point 600 m north-west of the image's centre.
        let place = Coordinate(latitude: 43.7384 + 600 / 111_320.0, longitude: 7.4246 - 600 / 80_450.0)
        let tile = TileID(containing: place, zoom: 14)
        let found = try #require(get(server, "/tiles/satellite/14/\(tile.x)/\(tile.y).png"))
        #expect(found.status == 200 && found.headers["content-type"] == "image/png")
        let canvas = try Canvas(png: found.bytes)
        let world = WebMercator.project(place, worldSize: Double((1 << 14) * 256))
        let pixel = try #require(canvas.pixel(x: Int(world.x) - tile.x * 256, y: Int(world.y) - tile.y * 256))
        let red = FixtureImagery.colours[0]
        #expect(abs(Int(pixel.red) - Int(red.0)) < 12 && abs(Int(pixel.green) - Int(red.1)) < 12, "\(pixel)")
        let style = json(get(server, "/styles/satellite.json")?.body ?? "")
        let raster = try #require((style["sources"] as? [String: Any])?["raster"] as? [String: Any])
        #expect((raster["attribution"] as? String)?.contains("Imagery: Harbour survey") == true)
        let tileJSON = json(get(server, "/tiles/hybrid.json")?.body ?? "")
        #expect((tileJSON["attribution"] as? String)?.contains("Imagery: Harbour survey") == true)
        // Not on the maps that do not draw it.
        let normal = json(get(server, "/tiles/normal.json")?.body ?? "")
        #expect((normal["attribution"] as? String)?.contains("Imagery") == false)
    }
}
