import CairoKit
import Foundation
import MapsCLI
import TestSupport
import Testing

/// `openmaps import IMAGE.tif` then `openmaps open … --map-type satellite` as a user types them.
@Suite struct ImageryCommandTests {
    @Test func anImageIsImportedAndDrawnOnTheSatelliteMap() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).sqlite").path
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).png").path
        let image = try FixtureImagery.write(epsg: 32632, metresPerPixel: 8)
        defer { for path in [store, picture, image] { try? FileManager.default.removeItem(atPath: path) } }
        let imported = OpenMapsCLI.run([
            "import", image, "--store", store, "--region", "harbour", "--attribution", "Imagery: Harbour survey",
        ])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("harbour: aerial image (GTiff, rgb, pixels of 7."))
        #expect(imported.standardOutput.contains("at zooms") && imported.standardOutput.contains("to 14"))
        // The north-east quadrant, 600 m from the centre each way, in the middle of the picture
        // (above the notice that the store has no streets there).
        let place = (43.7384 + 600 / 111_320.0, 7.4246 + 600 / (111_320 * cos(43.7384 * .pi / 180)))
        let opened = OpenMapsCLI.run([
            "open", "comgooglemaps://?center=\(place.0),\(place.1)&zoom=15", "--map-type", "satellite", "--size",
            "600x450", "-o", picture, "--store", store,
        ])
        #expect(opened.exitCode == 0, "\(opened.standardError)")
        let canvas = try Canvas(png: Array(try Data(contentsOf: URL(fileURLWithPath: picture))))
        let pixel = try #require(canvas.pixel(x: 300, y: 150))
        let green = FixtureImagery.colours[1]
        #expect(abs(Int(pixel.red) - Int(green.0)) < 12 && abs(Int(pixel.green) - Int(green.1)) < 12, "\(pixel)")
    }

    @Test func theKindIsCheckedAndHeightsAreNotAnImage() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let cell = try FixtureElevation.writeHGT()
        let wrong = OpenMapsCLI.run(["import", cell, "--kind", "imagery", "--store", store])
        #expect(wrong.exitCode != 0)
        #expect(wrong.standardError.contains("not an image: 1 band(s) of int16") && wrong.standardError.contains(cell))
        let bogus = OpenMapsCLI.run(["import", cell, "--kind", "photo", "--store", store])
        #expect(
            bogus.exitCode != 0 && bogus.standardError.contains("'--kind' must be elevation or imagery, not 'photo'"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
