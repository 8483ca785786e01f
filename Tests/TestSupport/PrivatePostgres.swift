import Foundation
import PostgresKit

/// A private PostgreSQL + PostGIS cluster for the tests (`scripts/postgres-private.sh`: a
/// temporary directory, a free loopback port, stopped and removed when the test process ends),
/// started once a process; each test gets a database of its own.
public enum PrivatePostgres {
    private static let cluster = Result<String, any Error> {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/postgres-private.sh").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-postgres-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        let status = try spawnClosingDescriptors(
            ["/bin/sh", script, String(ProcessInfo.processInfo.processIdentifier)], output: output.path)
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let url = printed.split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0, url.hasPrefix("postgresql://") else {
            throw PostgresError(message: "the private cluster did not start: \(printed)")
        }
        return url
    }

    /// Runs `arguments` with standard input from `/dev/null`, standard output and error into
    /// the file at `output`, and every other descriptor closed, and waits for it to exit.
    ///
    /// `posix_spawn` and `waitpid`, not `Process`: this runs while other tests wait for it,
    /// and `Process` needs a free Dispatch worker to notice that the script ended. Not
    /// `system(3)`: the cluster's watcher outlives the script, and a descriptor it inherited (the
    /// write end of another test's pipe, open at that moment) would keep that pipe from ever
    /// reaching its end.
    private static func spawnClosingDescriptors(_ arguments: [String], output: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeDescriptors(from: 3, in: &actions)
        var pointers = arguments.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, &pointers, environ)
        guard spawned == 0 else {
            throw PostgresError(message: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        // The exit code when it exited (WIFEXITED, WEXITSTATUS), else a failure.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
    }

    /// Adds closing every descriptor from `first` up to `actions`, with glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later: Debian 12 has 2.36), looked
    /// up at run time because the C module does not declare it; without it, nothing is closed.
    private static func closeDescriptors(from first: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, first)
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
