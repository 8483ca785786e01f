import Foundation
import GDALKit
import GeoCore
import TestSupport
import Testing

@testable import MapData

/// A real elevation model: Rocky Mountain National Park as the data install takes it from its
/// pinned wheel (heights in metres, in WGS 84, 230 m pixels), read back from the store where
/// GDAL itself reads the file.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: DataInstaller().path(of: .rockyMountainsModel)),
        "needs the installed data (make data)"))
struct RockyMountainsTests {
    static let file = DataInstaller().path(of: .rockyMountainsModel)

    static let store = Result<String, any Error> {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-rockies-\(UUID().uuidString).sqlite"
        ).path
        _ = try ElevationImporter.importModel(file, into: path, name: "rockies")
        return path
    }

    @Test func theModelIsImportedAtItsOwnResolution() throws {
        let model = try #require(try MapStore(path: try Self.store.get()).elevationModels().first)
        // 230 m pixels at 40.35° are nearest zoom 9's (233 m).
        #expect(model.maxZoom == 9 && model.name == "rockies")
        #expect(model.bounds.contains(Coordinate(latitude: 40.2549, longitude: -105.6160)), "Longs Peak")
    }

    @Test func heightsAreThoseGDALReadsInTheFile() throws {
        let raster = try RasterFile(path: Self.file)
        let store = try MapStore(path: try Self.store.get())
        var generator = SeededGenerator(seed: 4346)
        let points = (0..<300).map { _ in
            Coordinate(
                latitude: Double.random(in: 40.17...40.54, using: &generator),
                longitude: Double.random(in: -105.90 ... -105.51, using: &generator))
        }
        let stored = try Elevation.heights(at: points, in: store)
        var differences: [Double] = []
        for (point, sample) in zip(points, stored) {
            guard let expected = try raster.value(longitude: point.longitude, latitude: point.latitude) else {
                continue
            }
            let sample = try #require(sample, "no height at \(point)")
            differences.append(abs(sample.metres - expected))
        }
        // Resampled once into Web Mercator pixels of about the file's size, then read bilinear:
        // close to GDAL's own bilinear reading of the file on mountain slopes (when written:
        // median 2.7 m, 95th percentile 11.9 m).
        #expect(differences.count > 250)
        let sorted = differences.sorted()
        #expect(sorted[sorted.count / 2] < 6, "median difference \(sorted[sorted.count / 2]) m")
        #expect(sorted[sorted.count * 95 / 100] < 25, "95th percentile \(sorted[sorted.count * 95 / 100]) m")
        // Longs Peak, 4,346 m, stands above 4,000 m at this resolution; Estes Park lies below 2,500 m.
        let (peak, town) = try (
            #require(try Elevation.heights(at: [Coordinate(latitude: 40.2549, longitude: -105.6160)], in: store)[0]),
            #require(try Elevation.heights(at: [Coordinate(latitude: 40.3772, longitude: -105.5217)], in: store)[0])
        )
        #expect(peak.metres > 4_000 && town.metres < 2_500, "Longs Peak \(peak.metres) m, Estes Park \(town.metres) m")
    }
}
