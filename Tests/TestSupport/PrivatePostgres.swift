import Foundation
import PostgresKit

/// A private PostgreSQL + PostGIS cluster for the tests (`scripts/postgres-private.sh`: a
/// temporary directory, a free loopback port, stopped and removed when the test process ends),
/// started once a process; each test gets a database of its own.
public enum PrivatePostgres {
    private static let cluster = Result<String, any Error> {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/postgres-private.sh").path
        // `system(3)` (fork and `waitpid`), not `Process`: this runs while other tests wait for
        // it, and `Process` needs a free Dispatch worker to notice that the script ended.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-postgres-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        let status = system(
            "/bin/sh '\(script)' \(ProcessInfo.processInfo.processIdentifier) > '\(output.path)' 2>&1 < /dev/null")
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let url = printed.split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0, url.hasPrefix("postgresql://") else {
            throw PostgresError(message: "the private cluster did not start: \(printed)")
        }
        return url
    }

    /// The URL of the cluster's `openmaps` database (PostGIS installed; the template of the others).
    public static func templateURL() throws -> String { try cluster.get() }

    /// A new empty database with PostGIS, by URL: `openmaps_test_N`, copied from the template.
    public static func newDatabase() throws -> String {
        let template = try templateURL()
        let name = "openmaps_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        // The URL ends with the database's name, `/openmaps`.
        let server = String(template.dropLast("openmaps".count))
        let admin = try PostgresConnection(server + "postgres")
        try admin.execute("CREATE DATABASE \(name) TEMPLATE openmaps")
        return server + name
    }
}
