import Foundation
import GDALKit
import GeoCore
import TestSupport
import Testing

@testable import MapData

/// Aerial images imported into the store and read back from their tiles: made by the tests
/// as quadrants of known colours (``FixtureImagery``), written by GDAL in the projections,
/// layouts and formats users bring.
@Suite struct ImageryImportTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-imagery-\(UUID().uuidString)-\(name)")
            .path
    }

    /// The colour of the stored tile pixel under `point` at `zoom`, nil where no tile is.
    static func storedColour(at point: Coordinate, zoom: Int, in store: MapStore) throws -> [UInt8]? {
        guard let image = try store.imagery().first else { return nil }
        let tile = TileID(containing: point, zoom: zoom)
        guard let bytes = try store.imageryTile(source: image.source, tile) else { return nil }
        let decoded = try ImageTile.decode(bytes)
        let world = WebMercator.project(point, worldSize: Double((1 << zoom) * 256))
        let column = Int(world.x) - tile.x * 256
        let row = Int(world.y) - tile.y * 256
        let index = (row * decoded.width + column) * 4
        return Array(decoded.rgba[index..<index + 4])
    }

    /// Points well inside each quadrant (800 m from the centre each way, the image reaching 2 km
    /// east and west, 1.5 km north and south).
    static let quadrantPoints: [Coordinate] = [(1, -1), (1, 1), (-1, -1), (-1, 1)].map { north, east in
        Coordinate(
            latitude: FixtureImagery.centre.latitude + Double(north) * 800 / 111_320,
            longitude: FixtureImagery.centre.longitude
                + Double(east) * 800 / (111_320 * cos(FixtureImagery.centre.latitude * .pi / 180)))
    }

    static func close(_ stored: [UInt8]?, _ expected: (UInt8, UInt8, UInt8)?, tolerance: Int = 10) -> Bool {
        guard let expected else { return stored == nil || stored![3] == 0 }
        guard let stored, stored[3] == 255 else { return false }
        return abs(Int(stored[0]) - Int(expected.0)) <= tolerance && abs(Int(stored[1]) - Int(expected.1)) <= tolerance
            && abs(Int(stored[2]) - Int(expected.2)) <= tolerance
    }

    @Test(arguments: [
        (Int32(32632), true, [2, 4, 8]), (Int32(4326), false, []), (Int32(3857), true, []),
    ])
    func imagesInEveryProjectionKeepTheirColoursAtTheirPlaces(epsg: Int32, tiled: Bool, overviews: [Int]) throws {
        let image = try FixtureImagery.write(epsg: epsg, tiled: tiled, overviews: overviews)
        let store = Self.temporary("store.sqlite")
        defer {
            try? FileManager.default.removeItem(atPath: store)
            try? FileManager.default.removeItem(atPath: image)
        }
        #expect(try DataImport.kind(of: image) == .imagery)
        guard case .imagery(let report) = try DataImport.importFile(image, into: store, name: "harbour") else {
            Issue.record("not imported as imagery")
            return
        }
        // 4 m pixels are 3.4 m Web Mercator pixels' nearest at 43.7° (zoom 15, 3.45 m); every
        // zoom up to the one tile that holds 4 km.
        #expect(report.maxZoom == 15 && report.minZoom <= 12 && report.layout == "rgb" && report.format == "GTiff")
        #expect(report.tiles > 20 && report.bytes > 0)
        let mapStore = try MapStore(path: store)
        let images = try mapStore.imagery()
        #expect(images.count == 1 && images[0].name == "harbour" && images[0].attribution == "Imagery: harbour")
        #expect(abs((images[0].bounds.center?.latitude ?? 0) - FixtureImagery.centre.latitude) < 0.001)
        for zoom in [report.minZoom, 13, 15] {
            for point in Self.quadrantPoints {
                let stored = try Self.storedColour(at: point, zoom: zoom, in: mapStore)
                let expected = FixtureImagery.colour(at: point)
                #expect(
                    Self.close(stored, expected), "EPSG:\(epsg) zoom \(zoom) at \(point): \(String(describing: stored))"
                )
            }
        }
        // Outside the image: no tile, or a transparent pixel at its edge.
        let outside = Coordinate(
            latitude: FixtureImagery.centre.latitude + 0.02, longitude: FixtureImagery.centre.longitude)
        #expect(try Self.storedColour(at: outside, zoom: 15, in: mapStore).map { $0[3] == 0 } ?? true)
    }

    @Test(arguments: [FixtureImagery.Layout.palette, .grey, .rgba])
    func palettesGreysAndAlphaBecomeColours(layout: FixtureImagery.Layout) throws {
        let image = try FixtureImagery.write(epsg: 3857, metresPerPixel: 8, layout: layout)
        let store = Self.temporary("store.sqlite")
        defer {
            try? FileManager.default.removeItem(atPath: store)
            try? FileManager.default.removeItem(atPath: image)
        }
        let report = try Imagery.importImage(image, into: store)
        #expect(report.maxZoom == 14)
        let mapStore = try MapStore(path: store)
        for point in Self.quadrantPoints {
            let stored = try Self.storedColour(at: point, zoom: 14, in: mapStore)
            #expect(
                Self.close(stored, FixtureImagery.colour(at: point, layout: layout)),
                "\(layout) at \(point): \(String(describing: stored))")
        }
    }

    @Test func rasterMBTilesAreImagesToo() throws {
        let image = try FixtureImagery.write(epsg: 3857)
        let mbtiles = Self.temporary("harbour.mbtiles")
        let store = Self.temporary("store.sqlite")
        defer {
            for path in [image, mbtiles, store] { try? FileManager.default.removeItem(atPath: path) }
        }
        try RasterFile.translate(image, to: mbtiles, driver: "MBTiles", options: ["TILE_FORMAT=PNG"])
        #expect(try DataImport.kind(of: mbtiles) == .imagery)
        guard case .imagery(let report) = try DataImport.importFile(mbtiles, into: store) else {
            Issue.record("not imported as imagery")
            return
        }
        #expect(report.format == "MBTiles" && report.layout == "rgba")
        let mapStore = try MapStore(path: store)
        for point in Self.quadrantPoints {
            let stored = try Self.storedColour(at: point, zoom: report.maxZoom, in: mapStore)
            #expect(Self.close(stored, FixtureImagery.colour(at: point)), "at \(point): \(String(describing: stored))")
        }
    }

    @Test func badImagesAreRefusedByNameAndTheStoreStaysAsItWas() throws {
        let store = Self.temporary("store.sqlite")
        let image = try FixtureImagery.write(epsg: 3857, metresPerPixel: 8)
        let junk = Self.temporary("junk.tif")
        let heights = Self.temporary("heights.tif")
        defer {
            for path in [store, image, junk, heights] { try? FileManager.default.removeItem(atPath: path) }
        }
        _ = try Imagery.importImage(image, into: store, name: "harbour")
        let before = try MapStore(path: store).imagery()
        // Heights are not an image: 16-bit values beyond 255 are no colours.
        try RasterFile.writeGeoTIFF(
            to: heights, width: 4, height: 4, type: .int16, bands: [(0..<16).map { Double($0 * 100) }],
            transform: [7.4, 0.01, 0, 43.8, 0, -0.01], epsg: 4326)
        #expect(try DataImport.kind(of: heights) == .elevation)
        #expect {
            try DataImport.importFile(heights, into: store, kind: .imagery)
        } throws: {
            "\($0)".contains("not an image: 1 band(s) of int16, values 0 to 1500") && "\($0)".contains(heights)
        }
        // Bytes GDAL does not read, though they start as a TIFF does.
        try Data([0x49, 0x49, 0x2A, 0] + Array("not a raster at all".utf8)).write(to: URL(fileURLWithPath: junk))
        #expect {
            try DataImport.importFile(junk, into: store, kind: .imagery)
        } throws: { "\($0)".contains("not a raster GDAL reads") && "\($0)".contains(junk) }
        // Larger than the limit, named with its size; replacing an image that way keeps the old one.
        #expect {
            try Imagery.importImage(image, into: store, name: "harbour", tileLimit: 4)
        } throws: { "\($0)".contains("the image is too large") && "\($0)".contains("limit of 4") }
        #expect(try MapStore(path: store).imagery() == before)
    }

    @Test func wideBandsOfByteValuesAreColoursWhenAskedFor() throws {
        // A scene's digital numbers kept as floating point (as the Landsat sample data are):
        // heights by their type, an image when the user says so.
        let store = Self.temporary("store.sqlite")
        let scene = Self.temporary("scene.tif")
        defer { for path in [store, scene] { try? FileManager.default.removeItem(atPath: path) } }
        try RasterFile.writeGeoTIFF(
            to: scene, width: 64, height: 64, type: .float32,
            bands: [40.0, 160, 250].map { Array(repeating: $0, count: 64 * 64) },
            transform: [7.42, 0.0002, 0, 43.74, 0, -0.0002], epsg: 4326)
        #expect(try DataImport.kind(of: scene) == .elevation)
        guard case .imagery(let report) = try DataImport.importFile(scene, into: store, kind: .imagery) else {
            Issue.record("not imported as imagery")
            return
        }
        let centre = Coordinate(latitude: 43.74 - 32 * 0.0002, longitude: 7.42 + 32 * 0.0002)
        let stored = try Self.storedColour(at: centre, zoom: report.maxZoom, in: try MapStore(path: store))
        #expect(Self.close(stored, (40, 160, 250), tolerance: 4), "\(String(describing: stored))")
    }

    @Test func separateBandFilesAreOneImage() throws {
        let store = Self.temporary("store.sqlite")
        let files = (0..<3).map { Self.temporary("band\($0).tif") }
        defer { for path in [store] + files { try? FileManager.default.removeItem(atPath: path) } }
        for (file, value) in zip(files, [200.0, 100, 30]) {
            try RasterFile.writeGeoTIFF(
                to: file, width: 64, height: 64, type: .byte, bands: [Array(repeating: value, count: 64 * 64)],
                transform: [7.42, 0.0002, 0, 43.74, 0, -0.0002], epsg: 4326)
        }
        let report = try Imagery.importImage(bands: files, into: store, name: "bands")
        #expect(report.format == "VRT" && report.layout == "rgb")
        let centre = Coordinate(latitude: 43.74 - 32 * 0.0002, longitude: 7.42 + 32 * 0.0002)
        let stored = try Self.storedColour(at: centre, zoom: report.maxZoom, in: try MapStore(path: store))
        #expect(Self.close(stored, (200, 100, 30), tolerance: 4), "\(String(describing: stored))")
        // A fourth file is the alpha: here the western half transparent.
        let alpha = Self.temporary("alpha.tif")
        defer { try? FileManager.default.removeItem(atPath: alpha) }
        try RasterFile.writeGeoTIFF(
            to: alpha, width: 64, height: 64, type: .byte, bands: [(0..<64 * 64).map { $0 % 64 < 32 ? 0 : 255 }],
            transform: [7.42, 0.0002, 0, 43.74, 0, -0.0002], epsg: 4326)
        let masked = try Imagery.importImage(bands: files + [alpha], into: store, name: "masked")
        #expect(masked.layout == "rgba")
        let west = Coordinate(latitude: centre.latitude, longitude: 7.42 + 8 * 0.0002)
        let east = Coordinate(latitude: centre.latitude, longitude: 7.42 + 56 * 0.0002)
        let images = try MapStore(path: store)
        let maskedImage = try #require(try images.imagery().first { $0.name == "masked" })
        func alphaAt(_ point: Coordinate) throws -> UInt8? {
            let tile = TileID(containing: point, zoom: maskedImage.maxZoom)
            guard let bytes = try images.imageryTile(source: maskedImage.source, tile) else { return nil }
            let decoded = try ImageTile.decode(bytes)
            let world = WebMercator.project(point, worldSize: Double((1 << maskedImage.maxZoom) * 256))
            return decoded.rgba[((Int(world.y) - tile.y * 256) * decoded.width + Int(world.x) - tile.x * 256) * 4 + 3]
        }
        #expect(try alphaAt(west) ?? 0 == 0 && alphaAt(east) == 255)
        // Files that do not stack are refused by name.
        #expect {
            try Imagery.importImage(bands: [files[0], Self.temporary("missing.tif")], into: store)
        } throws: { "\($0)".contains("missing.tif") && "\($0)".contains("no such file") }
    }

    @Test func aTransparentImageIsRefused() throws {
        let store = Self.temporary("store.sqlite")
        let image = Self.temporary("clear.tif")
        defer { for path in [store, image] { try? FileManager.default.removeItem(atPath: path) } }
        try RasterFile.writeGeoTIFF(
            to: image, width: 16, height: 16, type: .byte,
            bands: Array(repeating: Array(repeating: 0, count: 256), count: 4),
            transform: [7.42, 0.0001, 0, 43.74, 0, -0.0001], epsg: 4326, alpha: true)
        #expect {
            try Imagery.importImage(image, into: store)
        } throws: { "\($0)".contains("no pixels") && "\($0)".contains(image) }
        #expect(!FileManager.default.fileExists(atPath: store), "no store made for nothing")
    }

    @Test func postGISStoresHoldTheSameTiles() throws {
        let url = try PrivatePostgres.newDatabase()
        let sqlite = Self.temporary("store.sqlite")
        let image = try FixtureImagery.write(epsg: 3857, metresPerPixel: 8)
        defer { for path in [sqlite, image] { try? FileManager.default.removeItem(atPath: path) } }
        let there = try Imagery.importImage(image, into: url)
        let here = try Imagery.importImage(image, into: sqlite)
        #expect(there.tiles == here.tiles && there.bytes == here.bytes)
        let (postgis, local) = (try MapStore(path: url), try MapStore(path: sqlite))
        let tile = TileID(containing: Self.quadrantPoints[0], zoom: 14)
        let (a, b) = (try postgis.imagery()[0], try local.imagery()[0])
        #expect(a.maxZoom == b.maxZoom && a.minZoom == b.minZoom)
        #expect(try postgis.imageryTile(source: a.source, tile) == (try local.imageryTile(source: b.source, tile)))
        #expect(try postgis.imageryTile(source: a.source, tile) != nil)
    }

    @Test func thePyramidIsBuiltDepthFirstOverTheArea() throws {
        // A tile row straddling the zoom 1 tiles' edge at the prime meridian: the pyramid goes
        // up to zoom 0, every tile once.
        let bounds = CoordinateBounds(
            southWest: Coordinate(latitude: 51.4, longitude: -0.1),
            northEast: Coordinate(latitude: 51.5, longitude: 0.1))
        var emitted: [TileID] = []
        let minZoom = try TilePyramid.build(
            over: bounds, maxZoom: 10, leaf: { _ in 1 },
            parent: { _, children in children.compactMap { $0 }.reduce(0, +) },
            emit: { tile, _ in emitted.append(tile) })
        #expect(minZoom == 0)
        #expect(Set(emitted).count == emitted.count)
        let leaves = TileID.covering(bounds, zoom: 10)
        #expect(emitted.filter { $0.z == 10 }.count == leaves.count)
        #expect(emitted.last == TileID(x: 0, y: 0, z: 0))
        // Each parent after its children.
        for (index, tile) in emitted.enumerated() where tile.z < 10 {
            let children = emitted[..<index].filter { $0.z == tile.z + 1 && $0.x / 2 == tile.x && $0.y / 2 == tile.y }
            #expect(!children.isEmpty, "\(tile) before its children")
        }
    }
}
