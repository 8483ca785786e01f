import Foundation
import MapData
import TestSupport
import Testing

/// The debug `openmaps` binary `make test` builds.
let openmapsBinary = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../.build/debug/openmaps").standardized.path

/// Several `openmaps serve` processes on one PostGIS store, as `docs/deploy.md` runs them
/// behind a load balancer: each answers the same tiles, byte for byte, and the same searches.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: openmapsBinary),
        "needs the debug openmaps binary to start servers: run 'make test'"))
struct SharedStoreTests {
    /// A free loopback port.
    static func freePort() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(socket, $0, length)
                return getsockname(socket, $0, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `openmaps serve` on `store` and a free port, once it answers `/health`.
    static func serve(_ store: String, cache: String) throws -> (process: Process, port: Int) {
        let port = freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openmapsBinary)
        process.arguments = ["serve", "--store", store, "--port", "\(port)", "--threads", "2", "--cache", cache]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<300
        where exchange(port: port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") == nil {
            Thread.sleep(forTimeInterval: 0.1)
        }
        return (process, port)
    }

    @Test func twoServersOnOneStoreAnswerTheSameTiles() throws {
        let store = try PrivatePostgres.newDatabase()
        _ = try OSMImporter.importFile(TestExtracts.path(of: "monaco-centre.osm.pbf"), into: store, region: "Monaco")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let servers = try [1, 2].map { try Self.serve(store, cache: folder + "/cache-\($0)") }
        defer {
            for server in servers {
                server.process.terminate()
                server.process.waitUntilExit()
            }
        }
        // Central Monaco at zoom 15 to 17, a tile of each 4 × 4 block, light and dark.
        let targets =
            [(15, 17059, 11948), (16, 34119, 23897), (17, 68238, 47794), (17, 68239, 47795)].flatMap {
                z, x, y in ["/tiles/normal/\(z)/\(x)/\(y).png", "/tiles/normal/\(z)/\(x)/\(y).png?scheme=dark"]
            } + ["/search?q=Casino&format=json", "/reverse?lat=43.7397&lon=7.4275&format=json"]
        for target in targets {
            let answers = servers.map {
                exchange(port: $0.port, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            }
            let first = try #require(answers[0], "\(target)")
            #expect(first.status == 200, "\(target)")
            #expect(first.bytes.count > (target.hasPrefix("/tiles") ? 1000 : 200), "\(target) is nearly empty")
            #expect(answers[1]?.bytes == first.bytes, "\(target) differs between the servers")
        }
    }
}
