import Foundation
import MapData
import MapsApp
import MapsServer
import OSMReader
import TestSupport
import Testing

/// A store updated under a running server: the server answers from the new data once the
/// watcher sees the store change, without a restart.
@Suite struct StoreReloadTests {
    @Test func anUpdatedStoreIsServedWithoutARestart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/store.sqlite"
        let extract = try FixtureStreet.write(in: folder)
        _ = try OSMImporter.importFile(extract, into: store)
        let server = try MapsServer(app: try MapsApp.onStore(path: store), options: .loopback())
        defer { server.stop() }
        func found(_ name: String) -> Bool {
            let query = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let answer = exchange(
                port: server.port, "GET /search?q=\(query) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return answer?.status == 200 && answer?.body.contains(name) == true
        }
        #expect(found(FixtureStreet.oldName) && !found(FixtureStreet.newName))
        let watcher = StoreWatcher(store: store, version: try MapStore(path: store).dataVersion(), every: 0.1) {
            version in
            guard let app = try? MapsApp.onStore(path: store) else { return }
            server.reload(app: app, dataVersion: version)
        }
        defer { watcher.stop() }
        let renamed = OSMChangeWriter.document([FixtureStreet.renamed])
        _ = try OSMUpdater.apply([PBFWriter.temporaryFile(renamed)], to: store)
        let deadline = Date().addingTimeInterval(10)
        while !found(FixtureStreet.newName) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(found(FixtureStreet.newName) && !found(FixtureStreet.oldName))
    }
}
