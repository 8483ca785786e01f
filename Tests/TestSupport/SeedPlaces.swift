import Foundation
import MapData

/// The seed places' real extracts committed in `data/seed-places`, for tests on real data.
public enum SeedPlaces {
    /// The path of a file of `data/seed-places`.
    public static func path(of file: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/seed-places").appendingPathComponent(file).path
    }

    private static let westVillage = Result<String, any Error> {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-west-village-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).sqlite"
        ).path
        _ = try OSMImporter.importFile(
            path(of: "nyc-west-village-8th-ave-2015.osm.pbf"), into: store, region: "nyc-west-village")
        atexit { SeedPlaces.removeStores() }
        return store
    }

    /// A store holding the West Village extract (2015: 1,744 addresses, 108 named places),
    /// imported once a process and removed when it exits.
    public static func westVillageStore() throws -> String { try westVillage.get() }

    private static func removeStores() {
        if case .success(let store) = westVillage { try? FileManager.default.removeItem(atPath: store) }
    }
}
