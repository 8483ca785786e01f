import Foundation
import MapData

/// Watches a store for new data committed under a running server (`openmaps update`, an
/// import, `update --replication --follow` in another process) by its data version
/// (``MapStore/dataVersion()``: a SQLite file's size and time, a PostGIS store's sources'
/// fingerprints), and says when it changes, so the server can answer from the new data
/// (``MapsServer/reload(app:dataVersion:)``) without a restart.
public final class StoreWatcher: @unchecked Sendable {
    private let stopped = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Starts watching the store at `store`, known to be at `version`, every `interval` seconds
    /// (default 5); `changed` is called on the watcher's thread with each new version. A store
    /// that cannot be read for a moment (a PostGIS server restarting) is asked again next time.
    public init(
        store: String, version: String, every interval: TimeInterval = 5,
        changed: @escaping @Sendable (String) -> Void
    ) {
        let stopped = stopped
        let done = done
        let thread = Thread {
            var last = version
            while stopped.wait(timeout: .now() + interval) == .timedOut {
                guard let current = try? MapStore(path: store).dataVersion(), current != last else { continue }
                last = current
                changed(current)
            }
            done.signal()
        }
        thread.name = "openmaps-store-watcher"
        thread.start()
    }

    /// Stops watching, once the check under way (if any) is done.
    public func stop() {
        stopped.signal()
        done.wait()
    }
}
