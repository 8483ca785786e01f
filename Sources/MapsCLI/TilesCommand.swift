import Foundation
import GeoCore
import MapCore
import MapData
import MapRenderer

/// `openmaps tiles --zooms 10-16 --out FILE.mbtiles`: XYZ map tiles into an MBTiles file.
enum TilesCommand {
    static let command = Command(
        name: "tiles",
        summary: "Render 256-pixel map tiles of an area and zooms into an MBTiles file.",
        usage:
            "tiles --out <FILE.mbtiles> [--bbox WEST,SOUTH,EAST,NORTH] [--zooms 10-16] [--map-type TYPE] [--style light|dark] [--traffic FILE] [--transit] [--workers N] [--metatile N] [--store PATH]",
        parser: ArgumentParser(
            options: [
                .init(name: "--out", value: "FILE", help: "The MBTiles file to write (replaced atomically)."),
                .init(
                    name: "--bbox", value: "W,S,E,N",
                    help: "Area in degrees (default: the imported OpenStreetMap regions)."),
                .init(name: "--zooms", value: "Z-Z", help: "A zoom or a range within 2-21 (default 10-16)."),
                .init(
                    name: "--map-type", value: "TYPE",
                    help: "normal, hybrid, satellite, terrain or none (default normal)."),
                .init(name: "--style", value: "STYLE", help: "light or dark (default light)."),
                .init(
                    name: "--traffic", value: "FILE",
                    help: "Draw the traffic layer from this feed (WAY_ID,LEVEL lines)."),
                .init(name: "--transit", value: nil, help: "Draw the transit layer: lines and stops."),
                .init(name: "--workers", value: "N", help: "Threads rendering at once (default: the processor count)."),
                .init(name: "--metatile", value: "N", help: "Tiles a side rendered as one picture, 1-16 (default 8)."),
                DataCommand.storeOption,
            ], positionals: 0...0)
    ) { (arguments, console) throws(CLIError) in
        guard let output = arguments.value("--out") else { throw .usage("'--out FILE.mbtiles' is required") }
        let zooms = try parseZooms(arguments.value("--zooms") ?? "10-16")
        let mapType = try ViewCommand.parseMapType(arguments.value("--map-type") ?? "normal")
        let style = try ViewCommand.parseStyle(arguments.value("--style") ?? "light")
        let workers = try ViewCommand.count(arguments, "--workers", in: 1...256)
        let metatile = try ViewCommand.count(arguments, "--metatile", in: 1...16) ?? 8
        let requestedBounds = try arguments.value("--bbox").map(parseBounds)
        if let requestedBounds { try checkCount(requestedBounds, zooms) }
        let traffic: TrafficFeed?
        do { traffic = try DataCommand.trafficFeed(arguments) } catch { throw .failure("\(error)") }
        let storePath = arguments.value("--store") ?? DataInstaller().storePath
        let sources: [MapStore.Source]
        do { sources = try MapStore(path: storePath).sources(counting: false) } catch { throw .failure("\(error)") }
        let regions = sources.filter { $0.kind == "osm" }
        let bounds = requestedBounds ?? regions.reduce(CoordinateBounds()) { $0.including($1.bounds) }
        guard bounds.isValid else {
            throw .usage("the store has no imported region: give '--bbox WEST,SOUTH,EAST,NORTH'")
        }
        try checkCount(bounds, zooms)
        let tiles = zooms.flatMap { TileID.covering(bounds, zoom: $0) }
        let blocks = Metatile.blocks(covering: tiles, size: metatile)
        let attribution =
            (regions.contains { $0.bounds.intersects(bounds) } ? ["© OpenStreetMap contributors"] : [])
            + ["GSHHG, NASA", "GeoNames"]
        let start = Date()
        let bar = ProgressBar()
        defer { bar.finish() }
        do {
            let writer = try MBTilesWriter(
                path: output,
                metadata: .init(
                    name: (output as NSString).lastPathComponent, description: "OpenMaps \(mapType.rawValue) map",
                    attribution: attribution.joined(separator: " · "), bounds: bounds, zooms: zooms))
            var job = TileJob(
                storePath: storePath, mapType: mapType, style: style, traffic: traffic ?? TrafficFeed(),
                transit: arguments.flags.contains("--transit"))
            if let workers { job.workers = workers }
            var done = 0
            try job.run(blocks) { _, rendered in
                for (tile, png) in rendered { try writer.add(tile, data: png) }
                done += 1
                bar.update(phase: "rendering", fraction: Double(done) / Double(blocks.count))
            }
            try writer.finish()
            bar.finish()
            let seconds = Date().timeIntervalSince(start)
            console.print(
                String(
                    format: "%@: %d tiles, zooms %d-%d, %d metatiles on %d threads in %.2f s (%.1f tiles/s)", output,
                    writer.count, zooms.lowerBound, zooms.upperBound, blocks.count, job.workers, seconds,
                    Double(writer.count) / max(seconds, 1e-9)))
        } catch {
            throw .failure("\(error)")
        }
    }

    /// The most tiles one run renders: 4,000,000 (about 100 GB of tiles at most; the list of
    /// tiles alone takes 100 MB of memory).
    static let maxTiles = 4_000_000

    /// Refuses runs of more than ``maxTiles`` tiles before listing them.
    static func checkCount(_ bounds: CoordinateBounds, _ zooms: ClosedRange<Int>) throws(CLIError) {
        let count = zooms.reduce(0) { $0 + TileID.count(covering: bounds, zoom: $1) }
        guard count <= maxTiles else {
            throw .usage(
                "the area and zooms make \(count) tiles; at most \(maxTiles) at once: give fewer zooms or a smaller '--bbox'"
            )
        }
    }

    /// "14" or "10-16", inside the tile zooms.
    static func parseZooms(_ text: String) throws(CLIError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let allowed = TileRenderer.zooms
        guard (1...2).contains(parts.count), let low = parts.first ?? nil, let high = parts.last ?? nil, low <= high,
            allowed.contains(low), allowed.contains(high)
        else {
            throw .usage(
                "'--zooms' must be a zoom or a range like 10-16 within \(allowed.lowerBound)-\(allowed.upperBound), not '\(text)'"
            )
        }
        return low...high
    }

    /// WEST,SOUTH,EAST,NORTH in decimal degrees; west may exceed east across the antimeridian.
    static func parseBounds(_ text: String) throws(CLIError) -> CoordinateBounds {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
            DecimalText.parse($0, maxIntegerDigits: 3)
        }
        let limit = WebMercator.maxLatitude
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2],
            let north = numbers[3], abs(west) <= 180, abs(east) <= 180, abs(south) <= limit, abs(north) <= limit,
            south < north, west != east
        else {
            throw .usage(
                "'--bbox' must be WEST,SOUTH,EAST,NORTH in degrees (south below north, latitudes within ±\(String(format: "%.4f", limit))), not '\(text)'"
            )
        }
        return CoordinateBounds(
            southWest: Coordinate(latitude: south, longitude: west),
            northEast: Coordinate(latitude: north, longitude: east))
    }
}
