import Foundation
import MapsCLI
import TestSupport
import Testing

/// `openmaps match TRACE.gpx` as a user types it: a route written as GPX by `openmaps route`
/// comes back as one matching of the same length; bad files and options said so.
@Suite struct MatchCommandTests {
    @Test func aRoutesGPXIsMatchedBackToItsRoads() throws {
        let store = try SeedPlaces.westVillageStore()
        let route = OpenMapsCLI.run([
            "route", "40.73381,-74.00219", "40.73116,-73.99712", "--mode", "walking", "--format", "gpx", "--store",
            store,
        ])
        #expect(route.exitCode == 0)
        let gpx = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).gpx")
        try Data(route.standardOutput.utf8).write(to: gpx)
        defer { try? FileManager.default.removeItem(at: gpx) }
        let routed = OpenMapsCLI.run([
            "route", "40.73381,-74.00219", "40.73116,-73.99712", "--mode", "walking", "--store", store,
        ])
        let routeDistance = try #require(
            ((JSONSerialization.jsonObject(with: Data(routed.standardOutput.utf8)) as? [String: Any])?["routes"]
                as? [[String: Any]])?.first?["distance"] as? Double)
        let matched = OpenMapsCLI.run(["match", gpx.path, "--mode", "walking", "--steps", "--store", store])
        #expect(matched.exitCode == 0, "\(matched.standardError)")
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(matched.standardOutput.utf8)) as? [String: Any])
        let matchings = try #require(document["matchings"] as? [[String: Any]])
        #expect(matchings.count == 1)
        let distance = try #require(matchings.first?["distance"] as? Double)
        #expect(abs(distance - routeDistance) <= 0.02 * routeDistance, "\(distance) against \(routeDistance)")
        #expect((document["tracepoints"] as? [Any])?.contains { $0 is NSNull } == false)

        let missing = OpenMapsCLI.run(["match", "/nonexistent/trace.gpx", "--store", store])
        #expect(missing.exitCode == 1 && missing.standardError.contains("/nonexistent/trace.gpx"))
        let wrongGaps = OpenMapsCLI.run(["match", gpx.path, "--gaps", "sometimes", "--store", store])
        #expect(wrongGaps.exitCode == 64 && wrongGaps.standardError.contains("'--gaps' must be split or ignore"))
        let wrongAccuracy = OpenMapsCLI.run(["match", gpx.path, "--accuracy", "0", "--store", store])
        #expect(wrongAccuracy.exitCode == 64 && wrongAccuracy.standardError.contains("'--accuracy'"))
    }
}
