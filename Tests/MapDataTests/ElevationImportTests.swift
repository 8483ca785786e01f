import Foundation
import GDALKit
import GeoCore
import TestSupport
import Testing

@testable import MapData

/// Digital elevation models imported into the store and read back: made by the tests as
/// known functions of place, written by GDAL in the formats and projections users bring.
@Suite struct ElevationImportTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-elevation-\(UUID().uuidString)-\(name)")
            .path
    }

    static func writeHGT() throws -> String { try FixtureElevation.writeHGT() }

    static func hgtHeight(_ point: Coordinate) -> Double {
        FixtureElevation.defaultHeight(latitude: point.latitude, longitude: point.longitude)
    }

    @Test func anSRTMCellIsReadAtItsOwnHeights() throws {
        let store = Self.temporary("store.sqlite")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let report = try ElevationImporter.importModel(try Self.writeHGT(), into: store)
        #expect(report.format == "SRTMHGT" && report.name == "N43E007")
        // 3″ is 93 m north–south, 67 m east–west at 43.5°: zoom 11 (55 m pixels) is the first as fine.
        // Every zoom below down to one that holds it in one tile.
        #expect(report.maxZoom == 11 && report.minZoom <= 8)
        #expect(abs(report.lowest - 10) < 2 && abs(report.highest - (10 + 1200 + 2400)) < 2)
        var generator = SeededGenerator(seed: 31)
        let points = (0..<200).map { _ in
            Coordinate(
                latitude: Double.random(in: 43.01...43.99, using: &generator),
                longitude: Double.random(in: 7.01...7.99, using: &generator))
        }
        let heights = try Elevation.heights(at: points, in: try MapStore(path: store))
        for (point, sample) in zip(points, heights) {
            let sample = try #require(sample, "no height at \(point)")
            #expect(abs(sample.metres - Self.hgtHeight(point)) < 0.5, "at \(point)")
            // Zoom 11's pixels there: 40,075 km × cos(latitude) / 2¹¹ / 256.
            #expect(abs(sample.resolution - 40_075_016.686 * cos(point.latitude * .pi / 180) / 524_288) < 0.01)
        }
        // Outside the cell: no height, not zero.
        #expect(
            try Elevation.heights(at: [Coordinate(latitude: 45, longitude: 7.5)], in: try MapStore(path: store)) == [
                nil
            ])
    }

    /// GeoTIFFs in three projections, tiled and in strips, with overviews and without, 16-bit
    /// and float: the store's heights are GDAL's own reading of the file at the same points.
    @Test(arguments: [
        (Int32(4326), SampleType.float32, false, [Int]()), (32632, .int16, true, [2, 4]), (3857, .float32, true, []),
        (32632, .float32, false, [2]),
    ])
    func geoTIFFsInAnyProjectionAreReadAsGDALReadsThem(epsg: Int32, type: SampleType, tiled: Bool, overviews: [Int])
        throws
    {
        let path = Self.temporary("dem.tif")
        let store = Self.temporary("store.sqlite")
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: store)
        }
        // A hill over Monaco: 400 × 300 pixels, its height a smooth function of the pixel.
        let (width, height) = (400, 300)
        let transform: [Double] =
            switch epsg {
            case 4326: [7.40, 0.0001, 0, 43.76, 0, -0.0001]
            case 3857: [823_000, 10, 0, 5_425_000, 0, -10]
            default: [370_000, 10, 0, 4_846_000, 0, -10]  // UTM 32N
            }
        let heights = (0..<height).flatMap { row in
            (0..<width).map { column in
                let (x, y) = (Double(column) / Double(width), Double(row) / Double(height))
                return (150 + 120 * sin(x * 3) * cos(y * 2) + 30 * x).rounded()
            }
        }
        try RasterFile.writeGeoTIFF(
            to: path, width: width, height: height, type: type, bands: [heights], transform: transform, epsg: epsg,
            noData: -9999, tiled: tiled, overviews: overviews)
        let file = try RasterFile(path: path)
        let report = try ElevationImporter.importModel(path, into: store, name: "hill")
        #expect(report.tiles > 1 && report.minZoom < report.maxZoom)
        var generator = SeededGenerator(seed: UInt64(epsg))
        let (west, south, east, north) = file.bounds
        let points = (0..<150).map { _ in
            Coordinate(
                latitude: Double.random(
                    in: (south + 0.1 * (north - south))...(north - 0.1 * (north - south)), using: &generator),
                longitude: Double.random(
                    in: (west + 0.1 * (east - west))...(east - 0.1 * (east - west)), using: &generator))
        }
        let ours = try Elevation.heights(at: points, in: try MapStore(path: store))
        var compared = 0
        for (point, sample) in zip(points, ours) {
            guard let direct = try file.value(longitude: point.longitude, latitude: point.latitude) else { continue }
            let sample = try #require(sample, "no height at \(point)")
            compared += 1
            // Two bilinear resamplings of 1 m steps: within a metre and a half of GDAL's own.
            #expect(abs(sample.metres - direct) < 1.5, "at \(point): \(sample.metres) against GDAL's \(direct)")
        }
        #expect(compared > 100)
    }

    @Test func whatIsNotAModelIsRefusedByNameAndTheStoreIsKept() throws {
        let store = Self.temporary("store.sqlite")
        let image = Self.temporary("photo.tif")
        let junk = Self.temporary("junk.tif")
        defer {
            for path in [store, image, junk] { try? FileManager.default.removeItem(atPath: path) }
        }
        let hgt = try Self.writeHGT()
        _ = try ElevationImporter.importModel(hgt, into: store, name: "cell")
        let before = try MapStore(path: store).elevationModels()
        // An image (three bands of bytes) is imagery, not heights.
        try RasterFile.writeGeoTIFF(
            to: image, width: 8, height: 8, type: .byte,
            bands: Array(repeating: Array(repeating: 128, count: 64), count: 3),
            transform: [7.4, 0.001, 0, 43.75, 0, -0.001], epsg: 4326)
        #expect {
            try ElevationImporter.importModel(image, into: store)
        } throws: { "\($0)".contains("not an elevation model: 3 band(s) of byte") && "\($0)".contains(image) }
        // Bytes GDAL does not read.
        try Data("not a raster at all".utf8).write(to: URL(fileURLWithPath: junk))
        #expect {
            try ElevationImporter.importModel(junk, into: store)
        } throws: { "\($0)".contains("not a raster GDAL reads") && "\($0)".contains(junk) }
        // Larger than the limit, named with its size; replacing a model that way keeps the old one.
        #expect {
            try ElevationImporter.importModel(hgt, into: store, name: "cell", tileLimit: 50)
        } throws: { "\($0)".contains("too large") && "\($0)".contains("limit of 50") }
        #expect(try MapStore(path: store).elevationModels() == before)
    }

    /// GDAL is loaded at the first raster, not linked: where it cannot be loaded, the import
    /// says so with the file and changes nothing (`OPENMAPS_LIBGDAL` names a library that is
    /// not there, in a process of its own, since a process loads GDAL once).
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: openmapsDebugBinary),
            "needs the debug openmaps binary: run 'make test'"))
    func aGDALThatCannotBeLoadedIsNamedWithTheFileAndTheStoreIsKept() throws {
        let store = Self.temporary("store.sqlite")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let hgt = try Self.writeHGT()
        _ = try ElevationImporter.importModel(hgt, into: store, name: "cell")
        let before = try MapStore(path: store).elevationModels()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openmapsDebugBinary)
        process.arguments = ["import", hgt, "--store", store]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["OPENMAPS_LIBGDAL": "/nonexistent/libgdal.so.99"]
        ) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(
            message.contains("GDAL's library could not be loaded from OPENMAPS_LIBGDAL=/nonexistent/libgdal.so.99")
                && message.contains(hgt), "\(message)")
        #expect(try MapStore(path: store).elevationModels() == before)
    }

    @Test func rastersAreToldFromExtractsAndFeedsByTheirContent() throws {
        let tiff = Self.temporary("model.data")
        defer { try? FileManager.default.removeItem(atPath: tiff) }
        try RasterFile.writeGeoTIFF(
            to: tiff, width: 4, height: 4, type: .int16, bands: [Array(repeating: 5, count: 16)],
            transform: [7.4, 0.01, 0, 43.8, 0, -0.01], epsg: 4326)
        #expect(try DataImport.kind(of: tiff) == .elevation)
        #expect(try DataImport.kind(of: try Self.writeHGT()) == .elevation)
        // A file named .hgt of another size is not an SRTM cell.
        let short = Self.temporary("N10E010.hgt")
        defer { try? FileManager.default.removeItem(atPath: short) }
        try Data(repeating: 0, count: 1000).write(to: URL(fileURLWithPath: short))
        #expect(try DataImport.kind(of: short) == .osm)
        let store = Self.temporary("store.sqlite")
        defer { try? FileManager.default.removeItem(atPath: store) }
        guard case .elevation(let report) = try DataImport.importFile(tiff, into: store, name: "tiny") else {
            Issue.record("a GeoTIFF of heights is imported as an elevation model")
            return
        }
        #expect(report.name == "tiny" && report.lowest == 5 && report.highest == 5)
    }

    @Test func aModelImportedAgainReplacesItself() throws {
        let store = Self.temporary("store.sqlite")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let hgt = try Self.writeHGT()
        let first = try ElevationImporter.importModel(hgt, into: store)
        let second = try ElevationImporter.importModel(hgt, into: store)
        #expect(first.tiles == second.tiles)
        let models = try MapStore(path: store).elevationModels()
        #expect(models.count == 1 && models[0].name == "N43E007" && models[0].maxZoom == 11)
    }

    @Test func postGISStoresHoldTheSameHeights() throws {
        let url = try PrivatePostgres.newDatabase()
        let sqlite = Self.temporary("store.sqlite")
        defer { try? FileManager.default.removeItem(atPath: sqlite) }
        let hgt = try Self.writeHGT()
        _ = try ElevationImporter.importModel(hgt, into: url)
        _ = try ElevationImporter.importModel(hgt, into: sqlite)
        let points = [
            Coordinate(latitude: 43.7384, longitude: 7.4246), Coordinate(latitude: 43.2, longitude: 7.9),
            Coordinate(latitude: 50, longitude: 7.5),
        ]
        let there = try Elevation.heights(at: points, in: try MapStore(path: url))
        #expect(there == (try Elevation.heights(at: points, in: try MapStore(path: sqlite))))
        #expect(there[0] != nil && there[2] == nil)
        let tile = TileID(containing: points[0], zoom: 13)
        #expect(
            try Elevation.tile(tile, in: try MapStore(path: url))
                == (try Elevation.tile(tile, in: try MapStore(path: sqlite))))
    }
}
