import Foundation
import GeoCore
import MapData
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
