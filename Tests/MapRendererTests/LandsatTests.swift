import CairoKit
import Foundation
import GDALKit
import GeoCore
import MapCore
import MapData
import MapsApp
import TestSupport
import Testing

@testable import MapRenderer

/// A real aerial image: the Landsat 7 scene of Raleigh the data install takes from its pinned
/// wheel (three single-band files, in North Carolina's State Plane projection), drawn on the
/// satellite map where GDAL itself reads its colours.
@Suite(
    .enabled(
        if: DataInstaller.PinnedFile.landsatBands.allSatisfy {
            FileManager.default.fileExists(atPath: DataInstaller().path(of: $0))
        },
        "needs the installed data (make data)"))
struct LandsatTests {
    static let bands = DataInstaller.PinnedFile.landsatBands.map { DataInstaller().path(of: $0) }

    static let store = Result<String, any Error> {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-landsat-\(UUID().uuidString).sqlite"
        ).path
        _ = try Imagery.importImage(bands: bands, into: path, name: "raleigh")
        return path
    }

    @Test func theSceneIsImportedAtItsOwnResolution() throws {
        let store = try MapStore(path: try Self.store.get())
        let image = try #require(try store.imagery().first)
        // 28.5 m pixels at 35.7° are nearest zoom 12's (31.7 m).
        #expect(image.maxZoom == 12 && image.name == "raleigh")
        #expect(image.bounds.contains(Coordinate(latitude: 35.7796, longitude: -78.6382)), "downtown Raleigh")
    }

    @Test(arguments: [13.0, 15])
    func theSatelliteMapShowsTheScenesOwnColours(zoom: Double) throws {
        let files = try Self.bands.map { try RasterFile(path: $0) }
        let renderer = MapRenderer(store: try MapStore(path: try Self.store.get()))
        // Places across the scene, each compared with GDAL's own bilinear reading of the bands.
        var generator = SeededGenerator(seed: UInt64(zoom))
        var pairs: [(Double, Double)] = []
        for _ in 0..<60 {
            let place = Coordinate(
                latitude: Double.random(in: 35.70...35.80, using: &generator),
                longitude: Double.random(in: -78.76 ... -78.62, using: &generator))
            let view = try MapsApp().answer(
                "comgooglemaps://?center=\(place.latitude),\(place.longitude)&zoom=\(zoom)"
            ).mapView
            view.frame = Rect(x: 0, y: 0, width: 16, height: 16)
            view.mapType = .satellite
            let canvas = try renderer.render(view, controls: false).0
            // The picture's pixel at the view's centre, and the place at that pixel's centre.
            let pixel = try #require(canvas.pixel(x: 8, y: 8))
            let centre = view.projection.coordinate(for: Point(x: 8.5, y: 8.5))
            let expected = try files.map { try $0.value(longitude: centre.longitude, latitude: centre.latitude) }
            guard let red = expected[0], let green = expected[1], let blue = expected[2] else { continue }
            pairs += [(Double(pixel.red), red), (Double(pixel.green), green), (Double(pixel.blue), blue)]
        }
        #expect(pairs.count >= 150)
        // Resampled twice (the tiles, then the picture) and kept as JPEG: near on the whole, and
        // following the scene from dark woods to bright roofs.
        let meanError = pairs.map { abs($0.0 - $0.1) }.reduce(0, +) / Double(pairs.count)
        let (meanA, meanB) = (
            pairs.map(\.0).reduce(0, +) / Double(pairs.count), pairs.map(\.1).reduce(0, +) / Double(pairs.count)
        )
        let covariance = pairs.map { ($0.0 - meanA) * ($0.1 - meanB) }.reduce(0, +)
        let spreadA = pairs.map { ($0.0 - meanA) * ($0.0 - meanA) }.reduce(0, +).squareRoot()
        let spreadB = pairs.map { ($0.1 - meanB) * ($0.1 - meanB) }.reduce(0, +).squareRoot()
        let correlation = covariance / (spreadA * spreadB)
        #expect(meanError < 12, "the picture's colours differ from the scene's by \(meanError) on average")
        #expect(correlation > 0.8, "correlation \(correlation)")
    }
}
