import Dispatch
import Foundation
import MapData
import MapsApp
import MapsServer
import Synchronization
import VectorTiles

/// `openmaps serve`: the maps app over HTTP until SIGINT or SIGTERM.
enum ServeCommand {
    static let command = Command(
        name: "serve",
        summary:
            "Serve the maps app over HTTP: the web app at / and every Google Maps web path, /open?url=LINK, tiles, static maps, Nominatim's /search, OSRM's /route/v1.",
        usage:
            "serve [--port 8080] [--host 127.0.0.1] [--threads N] [--connections N] [--connections-per-address N] [--cache DIR] [--cache-size MB] [--tiles FILE.pmtiles|URL] [--max-table-cells N] [--store STORE] [--traffic FEED]",
        parser: ArgumentParser(
            options: [
                .init(name: "--port", value: "N", help: "The port, 1-65535 (default 8080)."),
                .init(
                    name: "--host", value: "IPV4",
                    help: "The address listened on (default 127.0.0.1: this machine only)."),
                .init(name: "--threads", value: "N", help: "Threads answering requests, 1-64 (default 4)."),
                .init(
                    name: "--connections", value: "N",
                    help:
                        "Connections held open at once, 1-65536 (default: as many as the open-file limit allows, less 256)."
                ),
                .init(
                    name: "--connections-per-address", value: "N",
                    help: "Connections held open at once from one address, 1-65536 (default: no limit of its own)."),
                .init(
                    name: "--cache", value: "DIR",
                    help:
                        "The folder rendered tiles and static maps are kept in (default: tile-cache beside the store file, or in the data directory for a database)."
                ),
                .init(
                    name: "--cache-size", value: "MB",
                    help: "Megabytes the folder may hold, 16-1048576 (default 1024); the least recently used go first."),
                .init(
                    name: "--tiles", value: "FILE|URL",
                    help:
                        "A PMTiles archive of vector tiles (openmaps tiles --format mvt), a file or an http(s) URL on any host answering Range requests (object store, CDN): /tiles/vector is read from it, and it is served at /tiles/vector.pmtiles (a file with Range requests, a URL by redirect)."
                ),
                .init(
                    name: "--max-table-cells", value: "N",
                    help:
                        "Cells a /table/v1 request may ask for, sources × destinations (default 10000); more are refused with OSRM's TooBig."
                ),
                DataCommand.storeOption, DataCommand.trafficOption,
            ], positionals: 0...0)
    ) { (arguments, console) throws(CLIError) in
        var options = ServerOptions()
        options.port = try ViewCommand.count(arguments, "--port", in: 1...65_535) ?? 8080
        options.threads = try ViewCommand.count(arguments, "--threads", in: 1...64) ?? 4
        options.host = arguments.value("--host") ?? "127.0.0.1"
        if let connections = try ViewCommand.count(arguments, "--connections", in: 1...65_536) {
            options.limits.connections = connections
        }
        options.limits.perAddress = try ViewCommand.count(arguments, "--connections-per-address", in: 1...65_536) ?? 0
        options.cacheDiskBytes = (try ViewCommand.count(arguments, "--cache-size", in: 16...1_048_576) ?? 1024) << 20
        options.maxTableCells =
            try ViewCommand.count(arguments, "--max-table-cells", in: 1...100_000_000) ?? TableQuery.defaultMaxCells
        let store = try DataCommand.store(arguments)
        // Beside a store file; in the data directory for a database.
        let home =
            StoreEngine(location: store) == .sqlite
            ? (store as NSString).deletingLastPathComponent : DataInstaller.defaultDirectory
        options.cacheFolder = arguments.value("--cache") ?? (home as NSString).appendingPathComponent("tile-cache")
        do { options.dataVersion = try MapStore(path: store).dataVersion() } catch { throw .failure("\(error)") }
        var archive: PMTilesArchive?
        if let path = arguments.value("--tiles") {
            do {
                archive = try PMTilesArchive(location: path)
                guard archive?.tileType == 1 else {
                    throw CLIError.usage(
                        "'--tiles' must be a PMTiles archive of vector tiles; '\(path)' holds tile type \(archive?.tileType ?? 0)"
                    )
                }
            } catch let error as CLIError {
                throw error
            } catch {
                throw .failure("\(error)")
            }
        }
        // The app on the store as it is: at the start, and again each time the store changes.
        let tiles = archive
        let makeApp = { @Sendable () throws(CLIError) -> MapsApp in
            var app = try ViewCommand.app(arguments)
            app.vectorArchive = tiles
            return app
        }
        let app = try makeApp()
        let server: MapsServer
        do {
            server = try MapsServer(app: app, options: options) { line in
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
        } catch {
            throw .failure("\(error)")
        }
        if !server.hasMapLibre {
            console.error(
                "warning: MapLibre GL JS is not installed ('openmaps data install' puts it in the data directory): /vector cannot draw"
            )
        }
        if !server.hasLeaflet {
            console.error(
                "warning: Leaflet is not installed (Debian's libjs-leaflet): the web app cannot show its map")
        }
        // The realtime feeds kept with URLs, polled while the server runs (on the app of the
        // moment: a new app after a change of the store gets pollers of its own).
        let poller = Mutex<RealtimePoller?>(nil)
        @Sendable func startPolling(_ app: MapsApp) -> String? {
            guard let transit = app.transit as? StoreTransit else { return nil }
            do {
                let started = try RealtimePoller(transit: transit) { line in
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                }
                poller.withLock { $0 = started }
                return started.feeds > 0 ? "polling \(started.feeds) realtime feeds" : nil
            } catch {
                return "warning: the realtime feeds cannot be read, journeys follow the timetables: \(error)"
            }
        }
        if let line = startPolling(app) { console.error(line) }
        let watcher = StoreWatcher(store: store, version: options.dataVersion) { version in
            let line: String
            do {
                let fresh = try makeApp()
                poller.withLock { $0?.stop() }
                server.reload(app: fresh, dataVersion: version)
                line = "the store changed: serving its new data" + (startPolling(fresh).map { " (\($0))" } ?? "")
            } catch {
                line = "the store changed but cannot be read (still serving the previous data): \(error)"
            }
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        FileHandle.standardError.write(
            Data("serving on http://\(options.host):\(server.port)/ (Ctrl-C stops)\n".utf8))
        waitForSignal()
        watcher.stop()
        poller.withLock { $0?.stop() }
        server.stop()
        console.error("stopped")
    }

    /// Blocks until SIGINT or SIGTERM.
    private static func waitForSignal() {
        let stop = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            sources.append(source)
        }
        stop.wait()
        for source in sources { source.cancel() }
    }
}
