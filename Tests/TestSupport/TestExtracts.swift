import Foundation
import MapData

/// The real extracts committed in `data/test-extracts` for tests (their provenance is in that
/// folder's README), each imported once a process into a store removed when it exits.
public enum TestExtracts {
    /// The path of a file of `data/test-extracts`.
    public static func path(of file: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/test-extracts").appendingPathComponent(file)
            .path
    }

    private static let monaco = Result<String, any Error> {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-monaco-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).sqlite"
        ).path
        _ = try OSMImporter.importFile(path(of: "monaco-centre.osm.pbf"), into: store, region: "Monaco")
        atexit { TestExtracts.removeStores() }
        return store
    }

    /// A store holding central Monaco (2016), imported once a process.
    public static func monacoStore() throws -> String { try monaco.get() }

    private static func removeStores() {
        if case .success(let store) = monaco { try? FileManager.default.removeItem(atPath: store) }
    }
}

/// The debug `openmaps` binary `make test` builds, for tests that run it as a user does (a
/// kill in the middle of an import, a second process's answer).
public let openmapsDebugBinary = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../.build/debug/openmaps").standardized.path
