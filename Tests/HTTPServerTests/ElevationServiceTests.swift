import Foundation
import MapData
import MapsApp
import TestSupport
import Testing

@testable import MapsServer

/// Google's Elevation API as its clients call it, at its own path and at `/elevation`.
@Suite struct ElevationServiceTests: ServerExchanges {
    @Test func heightsAnswerAsGooglesClientsReadThem() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        _ = try ElevationImporter.importModel(try FixtureElevation.writeHGT(), into: store)
        let server = try MapsServer(app: try MapsApp.onStore(path: store), options: .loopback())
        defer { server.stop() }
        let found = try #require(get(server, "/maps/api/elevation/json?locations=43.5,7.5%7C43.25,7.75"))
        #expect(found.status == 200 && found.headers["access-control-allow-origin"] == "*")
        let document = json(found.body)
        #expect(document["status"] as? String == "OK")
        let results = try #require(document["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let heights = results.compactMap { $0["elevation"] as? Double }
        #expect(abs(heights[0] - 1810) < 0.5 && abs(heights[1] - (10 + 900 + 2 * 900)) < 0.5)
        let along = json(get(server, "/elevation?path=43.1,7.1%7C43.9,7.9&samples=4")?.body ?? "")
        #expect((along["results"] as? [Any])?.count == 4)
        let refused = try #require(get(server, "/elevation?locations=43.5"))
        #expect(refused.status == 400 && json(refused.body)["status"] as? String == "INVALID_REQUEST")
        #expect((json(refused.body)["error_message"] as? String)?.contains("'locations'") == true)
        let uncovered = json(get(server, "/elevation?locations=10,10")?.body ?? "")
        #expect(uncovered["status"] as? String == "DATA_NOT_AVAILABLE")
        // Terrain tiles for MapLibre: PNG where the model is, 404 elsewhere and past zoom 15.
        let tile = try #require(get(server, "/tiles/terrain-rgb/11/1066/746.png"))
        #expect(tile.status == 200 && tile.headers["content-type"] == "image/png")
        #expect(tile.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && tile.headers["etag"] != nil)
        #expect(get(server, "/tiles/terrarium/11/1066/746.png")?.status == 200)
        #expect(get(server, "/tiles/terrarium/11/0/0.png")?.status == 404)
        #expect(get(server, "/tiles/terrain-rgb/16/0/0.png")?.status == 404)
        #expect(get(server, "/tiles/terrain-rgb/11/1066.png")?.status == 404)
        // The terrain map's MapLibre style shades the relief from them; the others do not.
        let style = json(get(server, "/styles/terrain.json")?.body ?? "")
        let dem = try #require((style["sources"] as? [String: Any])?["dem"] as? [String: Any])
        #expect(dem["type"] as? String == "raster-dem" && dem["encoding"] as? String == "mapbox")
        #expect(dem["maxzoom"] as? Int == 11)
        #expect((dem["tiles"] as? [String])?.first?.hasSuffix("/tiles/terrain-rgb/{z}/{x}/{y}.png") == true)
        let layers = try #require(style["layers"] as? [[String: Any]])
        #expect(layers.contains { $0["type"] as? String == "hillshade" && $0["source"] as? String == "dem" })
        let normal = json(get(server, "/styles/normal.json")?.body ?? "")
        #expect((normal["sources"] as? [String: Any])?["dem"] == nil)
    }
}
