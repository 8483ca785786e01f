import Foundation
import MapsCLI
import TestSupport
import Testing

/// `openmaps import N43E007.hgt` then `openmaps elevation` as a user types them.
@Suite struct ElevationCommandTests {
    @Test func aModelIsImportedAndItsHeightsRead() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let cell = try FixtureElevation.writeHGT()
        let imported = OpenMapsCLI.run(["import", cell, "--store", store])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("N43E007: elevation model (SRTMHGT"))
        #expect(imported.standardOutput.contains("zooms") && imported.standardOutput.contains("to 11"))
        let asked = OpenMapsCLI.run(["elevation", "43.5,7.5", "45,7", "--store", store])
        #expect(asked.exitCode == 0, "\(asked.standardError)")
        let lines = asked.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        // 10 + 600 + 2 × 600 at the cell's middle.
        #expect(lines.first == "43.5,7.5: 1810.0 m (model pixels of 55.4 m)")
        #expect(lines.last == "45,7: no height (no imported elevation model covers it)")
        let json = OpenMapsCLI.run([
            "elevation", "--path", "43.1,7.1|43.9,7.9", "--samples", "5", "--format", "json", "--store", store,
        ])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((document["results"] as? [Any])?.count == 5 && document["status"] as? String == "OK")

        // The same lines in Spanish, Italian and Hindi, their decimal marks and words for metres.
        for (language, said, missing) in [
            ("es", "43.5,7.5: 1810,0 m (píxeles del modelo de 55,4 m)", "45,7: sin altitud"),
            ("it", "43.5,7.5: 1810,0 m (pixel del modello di 55,4 m)", "45,7: nessuna quota"),
            ("hi", "43.5,7.5: 1810.0 मीटर (मॉडल के पिक्सेल 55.4 मीटर के)", "45,7: ऊँचाई नहीं"),
        ] {
            let told = OpenMapsCLI.run(["elevation", "43.5,7.5", "45,7", "--lang", language, "--store", store])
            let lines = told.standardOutput.split(separator: "\n")
            #expect(lines.first.map(String.init) == said && lines.last?.hasPrefix(missing) == true, "\(lines)")
        }
        let nowhere = OpenMapsCLI.run(["elevation", "10,10", "--lang", "it", "--store", store])
        #expect(nowhere.exitCode == 1 && nowhere.standardError.contains("nessun modello di elevazione importato copre"))
        let language = OpenMapsCLI.run(["elevation", "43.5,7.5", "--lang", "fr", "--store", store])
        #expect(language.exitCode == 64 && language.standardError.contains("'--lang'"))
        let outside = OpenMapsCLI.run(["elevation", "10,10", "--store", store])
        #expect(outside.exitCode == 1 && outside.standardError.contains("no imported elevation model covers"))
        let bad = OpenMapsCLI.run(["elevation", "43.5", "--store", store])
        #expect(bad.exitCode == 64 && bad.standardError.contains("is not a latitude and longitude"))
        let tooLarge = OpenMapsCLI.run(["import", cell, "--max-tiles", "10", "--store", store])
        #expect(tooLarge.exitCode == 1 && tooLarge.standardError.contains("limit of 10"))
        let kind = OpenMapsCLI.run(["import", cell, "--kind", "photo", "--store", store])
        #expect(kind.exitCode == 64 && kind.standardError.contains("'--kind' must be elevation"))
    }
}
