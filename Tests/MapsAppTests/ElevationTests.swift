import CairoKit
import Foundation
import GeoCore
import MapData
import MapsURL
import Routing
import TestSupport
import Testing

@testable import MapsApp

/// Heights asked as Google's Elevation API asks them, answered from an imported model.
@Suite struct ElevationTests {
    static let store = Result<String, any Error> {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-heights-\(UUID().uuidString).sqlite"
        ).path
        _ = try ElevationImporter.importModel(try FixtureElevation.writeHGT(), into: path)
        return path
    }

    @Test func locationsAndPathsAreReadInGooglesForms() throws {
        let listed = try ElevationQuery(locations: "43.5,7.5|43.25,7.75", path: nil, samples: nil)
        #expect(
            listed.points == [Coordinate(latitude: 43.5, longitude: 7.5), Coordinate(latitude: 43.25, longitude: 7.75)])
        let line = [Coordinate(latitude: 43.1, longitude: 7.1), Coordinate(latitude: 43.9, longitude: 7.9)]
        let encoded = try ElevationQuery(locations: "enc:" + EncodedPolyline.encode(line), path: nil, samples: nil)
        #expect(encoded.points == line)
        // Three samples along a path: its ends and its middle.
        let sampled = try ElevationQuery(locations: nil, path: "43.1,7.1|43.9,7.9", samples: "3")
        #expect(sampled.points.count == 3 && sampled.points.first == line[0] && sampled.points.last == line[1])
        #expect(abs(sampled.points[1].latitude - 43.5) < 0.01 && abs(sampled.points[1].longitude - 7.5) < 0.01)
        for (locations, path, samples, name, said) in [
            ("43.5,7.5|x", nil, nil, "locations", "point 2, 'x'"), ("91,7", nil, nil, "locations", "point 1, '91,7'"),
            (nil, "43,7|44,8", nil, "samples", "from 2 to 512"), (nil, "43,7|44,8", "600", "samples", "not '600'"),
            (nil, "43,7", "3", "path", "at least two points"), (nil, nil, nil, "locations", "give 'locations'"),
            ("43,7", "43,7|44,8", "2", "path", "not both"), ("enc:!!", nil, nil, "locations", "does not decode"),
        ] as [(String?, String?, String?, String, String)] {
            #expect {
                try ElevationQuery(locations: locations, path: path, samples: samples)
            } throws: { error in
                guard case AppError.invalidOption(let option, let message) = error else { return false }
                return option == name && message.contains(said)
            }
        }
        let many = Array(repeating: "43.5,7.5", count: 513).joined(separator: "|")
        #expect(throws: AppError.self) { try ElevationQuery(locations: many, path: nil, samples: nil) }
    }

    @Test func theAnswerIsGooglesDocumentWithTheModelsHeights() throws {
        let app = try MapsApp.onStore(path: try Self.store.get())
        let query = try ElevationQuery(locations: "43.5,7.5|45,7", path: nil, samples: nil)
        let answer = try app.elevation(query)
        let height = try #require(answer.results[0].sample?.metres)
        #expect(abs(height - FixtureElevation.defaultHeight(latitude: 43.5, longitude: 7.5)) < 0.5)
        // Where no model covers the point: no height, not zero, and Google's status for that.
        #expect(answer.results[1].sample == nil && answer.status == "DATA_NOT_AVAILABLE")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(answer.googleDocument.utf8)) as? [String: Any])
        let results = try #require(document["results"] as? [[String: Any]])
        #expect(document["status"] as? String == "DATA_NOT_AVAILABLE" && results.count == 2)
        #expect((results[0]["location"] as? [String: Double]) == ["lat": 43.5, "lng": 7.5])
        #expect(abs((results[0]["elevation"] as? Double ?? 0) - height) < 0.01 && results[0]["resolution"] is Double)
        #expect(results[1]["elevation"] == nil)
        let inside = try app.elevation(try ElevationQuery(locations: "43.5,7.5", path: nil, samples: nil))
        #expect(inside.status == "OK")
        // Without a store of models the app says which engine is missing.
        #expect { try MapsApp().elevation(query) } throws: { "\($0)".contains("elevation model") }
    }
}

/// Routes over an elevation model say how they climb; without one they say nothing of it.
@Suite struct RouteElevationTests {
    /// Central Monaco with the test cell under it (a copy of the shared store).
    static let store = Result<String, any Error> {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-monaco-heights-\(UUID().uuidString).sqlite"
        ).path
        try FileManager.default.copyItem(atPath: try TestExtracts.monacoStore(), toPath: path)
        _ = try ElevationImporter.importModel(try FixtureElevation.writeHGT(), into: path)
        return path
    }

    static let ends = [
        Coordinate(latitude: 43.7310, longitude: 7.4190), Coordinate(latitude: 43.7400, longitude: 7.4270),
    ]

    @Test(arguments: [TravelMode.bicycling, .walking, .driving])
    func aRouteClimbsAsTheModelUnderItRises(mode: TravelMode) throws {
        let app = try MapsApp.onStore(path: try Self.store.get())
        let answer = try app.directions(DirectionsQuery(ends: Self.ends.map { .coordinate($0) }, mode: mode))
        let route = try #require(answer.routes.first)
        let elevation = try #require(route.elevation, "a route over the model has its heights")
        #expect(elevation.heights.count == route.geometry.count)
        // The cell's function at each point, and the climb it makes along the line sampled
        // every 20 m: what the route says, within a metre.
        for (point, height) in zip(route.geometry, elevation.heights) {
            #expect(
                abs(height - FixtureElevation.defaultHeight(latitude: point.latitude, longitude: point.longitude)) < 0.5
            )
        }
        let expected = RouteElevation.climb(
            RouteElevation.dense(route.geometry).map {
                FixtureElevation.defaultHeight(latitude: $0.latitude, longitude: $0.longitude)
            })
        #expect(abs(elevation.ascent - expected.ascent) < 1 && abs(elevation.descent - expected.descent) < 1)
        #expect(elevation.ascent > 0 && elevation.legs.count == 1)
        // 10 + row + 2 × column: heights fall northward and rise eastward; the end is higher.
        let rise =
            FixtureElevation.defaultHeight(latitude: Self.ends[1].latitude, longitude: Self.ends[1].longitude)
            - FixtureElevation.defaultHeight(latitude: Self.ends[0].latitude, longitude: Self.ends[0].longitude)
        #expect(abs(elevation.ascent - elevation.descent - rise) < 5)
        // OSRM's document carries them on the route and its legs, GeoJSON as third coordinates.
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(answer.osrm().utf8)) as? [String: Any])
        let written = try #require((document["routes"] as? [[String: Any]])?.first)
        #expect(written["ascent"] as? Double == elevation.ascent && written["descent"] as? Double == elevation.descent)
        #expect((written["legs"] as? [[String: Any]])?.first?["ascent"] as? Double == elevation.ascent)
        let feature = try #require(try JSONSerialization.jsonObject(with: Data(answer.geoJSON.utf8)) as? [String: Any])
        let line = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(line.allSatisfy { $0.count == 3 })
        #expect(answer.gpx?.contains("<ele>") == true)
    }

    @Test func withoutAModelTheFieldsAreAbsentNotZero() throws {
        let app = try MapsApp.onStore(path: try TestExtracts.monacoStore())
        let answer = try app.directions(DirectionsQuery(ends: Self.ends.map { .coordinate($0) }, mode: .bicycling))
        #expect(answer.routes.first?.elevation == nil)
        #expect(!answer.osrm().contains("ascent") && !answer.geoJSON.contains("ascent"))
        #expect(answer.gpx?.contains("<ele>") == false)
    }
}

/// Terrain tiles: the models' heights as the colours MapLibre's `raster-dem` sources decode.
@Suite struct TerrainTileTests {
    @Test(arguments: TerrainEncoding.allCases)
    func theColoursDecodeToTheHeights(encoding: TerrainEncoding) throws {
        for metres: Float in [-420.5, 0, 0.1, 8848.86, 1810] {
            let (r, g, b) = encoding.rgb(metres)
            #expect(abs(encoding.metres(r, g, b) - Double(metres)) <= 0.05, "\(metres) m")
        }
        #expect(encoding.rgb(.nan) == encoding.rgb(0))
    }

    @Test(arguments: [(TerrainEncoding.mapbox, 11), (.terrarium, 13), (.mapbox, 8)])
    func aTileHoldsTheModelsHeights(encoding: TerrainEncoding, zoom: Int) throws {
        let app = try MapsApp.onStore(path: try ElevationTests.store.get())
        let tile = TileID(containing: Coordinate(latitude: 43.5, longitude: 7.5), zoom: zoom)
        let png = try #require(try app.terrainTile(tile, encoding: encoding))
        let picture = try Canvas(png: png)
        #expect(picture.width == 256 && picture.height == 256)
        // Each sampled pixel's centre: its colour is the cell's function there.
        let count = Double(1 << zoom) * 256
        for (x, y) in [(10, 10), (128, 128), (250, 40), (77, 201)] {
            let pixel = try #require(picture.pixel(x: x, y: y))
            let centre = WebMercator.unproject(
                WorldPoint(x: (Double(tile.x * 256 + x) + 0.5) / count, y: (Double(tile.y * 256 + y) + 0.5) / count),
                worldSize: 1)
            // Outside the cell (a zoom 8 tile is larger than it) the tile says sea level.
            guard (43.05...43.95).contains(centre.latitude), (7.05...7.95).contains(centre.longitude) else {
                #expect(encoding.metres(pixel.red, pixel.green, pixel.blue) == 0 || abs(centre.longitude - 8) < 0.05)
                continue
            }
            let expected = FixtureElevation.defaultHeight(latitude: centre.latitude, longitude: centre.longitude)
            // Zoom 8 averages 8 × 8 of the model's pixels: the plane's mean is its centre's height.
            #expect(abs(encoding.metres(pixel.red, pixel.green, pixel.blue) - expected) < 1, "pixel \(x),\(y)")
        }
        #expect(try app.terrainTile(TileID(x: 0, y: 0, z: 5), encoding: encoding) == nil)
        // Coarser than the model's coarsest tile (zoom 6): sampled from it, not missing.
        let centre = Coordinate(latitude: 43.5, longitude: 7.5)
        let coarse = TileID(containing: centre, zoom: 4)
        let small = try Canvas(png: try #require(try app.terrainTile(coarse, encoding: encoding)))
        let world = WebMercator.project(centre, worldSize: Double(16 * 256))
        let pixel = try #require(small.pixel(x: Int(world.x) - coarse.x * 256, y: Int(world.y) - coarse.y * 256))
        let pixelCentre = WebMercator.unproject(
            WorldPoint(x: world.x.rounded(.down) + 0.5, y: world.y.rounded(.down) + 0.5), worldSize: Double(16 * 256))
        let there = FixtureElevation.defaultHeight(latitude: pixelCentre.latitude, longitude: pixelCentre.longitude)
        #expect(abs(encoding.metres(pixel.red, pixel.green, pixel.blue) - there) < 2, "\(pixel)")
        #expect(throws: AppError.self) { try app.terrainTile(TileID(x: 0, y: 0, z: 16), encoding: encoding) }
    }
}
