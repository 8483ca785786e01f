import Foundation
import GeoCore
import MapCore
import MapRenderer
import MapsApp

/// `openmaps tiles --zooms 10-16 --out FILE.mbtiles`: XYZ map tiles into an MBTiles file;
/// `openmaps tiles --format mvt --out FILE.pmtiles`: vector tiles into a PMTiles archive.
enum TilesCommand {
    static let command = Command(
        name: "tiles",
        summary:
            "Render 256-pixel map tiles of an area and zooms into an MBTiles file, or cut vector tiles into a PMTiles or MBTiles archive.",
        usage:
            "tiles --out <FILE.mbtiles|FILE.pmtiles> [--format png|mvt] [--bbox WEST,SOUTH,EAST,NORTH] [--zooms 10-16] [--map-type TYPE] [--style light|dark] [--traffic FILE] [--transit] [--bicycling] [--lang en|es|it|hi] [--workers N] [--metatile N] [--shard K/N] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--out", value: "FILE",
                    help:
                        "The file to write (replaced atomically): MBTiles for PNG tiles; PMTiles (.pmtiles) or MBTiles (.mbtiles) for vector tiles."
                ),
                .init(
                    name: "--format", value: "FORMAT",
                    help:
                        "png (default: pictures of the map) or mvt (Mapbox Vector Tiles of the OpenMapTiles schema, zooms 0-14, default 0-14)."
                ),
                .init(
                    name: "--bbox", value: "W,S,E,N",
                    help: "Area in degrees (default: the imported OpenStreetMap regions)."),
                .init(name: "--zooms", value: "Z-Z", help: "A zoom or a range within 2-21 (default 10-16)."),
                ViewCommand.mapTypeOption(default: "normal"),
                .init(name: "--style", value: "STYLE", help: "light or dark (default light)."),
                DataCommand.trafficOption,
                .init(name: "--transit", value: nil, help: "Draw the transit layer: lines and stops."),
                .init(
                    name: "--bicycling", value: nil,
                    help: "Draw the bicycling layer: cycle tracks, lanes, friendly streets, trails and routes."),
                .init(
                    name: "--lang", value: "LANG",
                    help: "Place names in en, es, it or hi where the data has them (default: local names)."),
                .init(name: "--workers", value: "N", help: "Threads rendering at once (default: the processor count)."),
                .init(name: "--metatile", value: "N", help: "Tiles a side rendered as one picture, 1-16 (default 8)."),
                .init(
                    name: "--shard", value: "K/N",
                    help:
                        "Render part K of N of the run (every Nth metatile): N processes or machines given 1/N … N/N render disjoint parts, each into its own --out."
                ),
                DataCommand.storeOption,
            ], positionals: 0...0)
    ) { (arguments, console) throws(CLIError) in
        guard let output = arguments.value("--out") else { throw .usage("'--out FILE.mbtiles' is required") }
        var request = TileRequest()
        let formatText = arguments.value("--format") ?? "png"
        guard let format = TileFormat(rawValue: formatText) else {
            throw .usage("'--format' must be png or mvt, not '\(formatText)'")
        }
        request.format = format
        request.zooms = try parseZooms(
            arguments.value("--zooms") ?? (format == .mvt ? "0-14" : "10-16"), in: format.zooms)
        if format == .mvt {
            let pictureFlags =
                ["--map-type", "--style", "--traffic", "--lang", "--metatile"].filter {
                    arguments.value($0) != nil
                } + ["--transit", "--bicycling"].filter { arguments.flags.contains($0) }
            guard pictureFlags.isEmpty else {
                throw .usage(
                    "'\(pictureFlags[0])' sets how PNG tiles look; vector tiles hold every layer and name, and a style draws them"
                )
            }
            let lower = output.lowercased()
            guard lower.hasSuffix(".pmtiles") || lower.hasSuffix(".mbtiles") else {
                throw .usage("'--out' of vector tiles must end in .pmtiles or .mbtiles, not '\(output)'")
            }
        }
        request.style = try style(arguments)
        request.workers = try ViewCommand.count(arguments, "--workers", in: 1...256)
        request.metatile = try ViewCommand.count(arguments, "--metatile", in: 1...16) ?? 8
        request.bounds = try arguments.value("--bbox").map(parseBounds)
        request.shard = try arguments.value("--shard").map(parseShard)
        // Refused before the store is opened: a run too large is refused however the data stands.
        do throws(AppError) { try MapsApp.check(request) } catch { throw CLIError(error) }
        let app = try ViewCommand.app(arguments)
        let bar = ProgressBar()
        defer { bar.finish() }
        let summary: TileSummary
        do throws(AppError) {
            summary = try app.renderTiles(request, into: output) { bar.update(phase: "rendering", fraction: $0) }
        } catch {
            throw CLIError(error)
        }
        bar.finish()
        if format == .mvt {
            console.print(
                String(
                    format:
                        "%@: %d vector tiles (%d cut, the empty ones left out), zooms %d-%d, on %d threads in %.2f s (%.1f tiles/s)",
                    output, summary.tiles, summary.metatiles, request.zooms.lowerBound, request.zooms.upperBound,
                    summary.workers, summary.seconds, Double(summary.metatiles) / max(summary.seconds, 1e-9)))
            return
        }
        console.print(
            String(
                format: "%@: %d tiles, zooms %d-%d, %d metatiles on %d threads in %.2f s (%.1f tiles/s)", output,
                summary.tiles, request.zooms.lowerBound, request.zooms.upperBound, summary.metatiles, summary.workers,
                summary.seconds, Double(summary.tiles) / max(summary.seconds, 1e-9)))
    }

    /// The flags of the tiles' style and the names ``TileStyle/init(parameters:)`` reads them by.
    static let styleFlags: [(flag: String, name: String)] = [
        ("--map-type", "maptype"), ("--style", "scheme"), ("--lang", "hl"),
    ]

    /// The style the flags in `arguments` set, read as the server reads a tile's query: the
    /// layers from `--transit`, `--bicycling` and a `--traffic` feed.
    static func style(_ arguments: ArgumentParser.Result) throws(CLIError) -> TileStyle {
        let layers =
            [("--transit", "transit"), ("--bicycling", "bicycling")].filter {
                arguments.flags.contains($0.0)
            }.map(\.1) + (arguments.value("--traffic") != nil ? ["traffic"] : [])
        let parameters =
            styleFlags.compactMap { flag, name in arguments.value(flag).map { (name, $0) } }
            + [("layers", layers.joined(separator: ","))]
        return try ViewCommand.reading(styleFlags) { () throws(AppError) in try TileStyle(parameters: parameters) }
    }

    /// "K/N": part K of N, 1 <= K <= N <= 10,000.
    static func parseShard(_ text: String) throws(CLIError) -> TileShard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count <= 10_000,
            let shard = TileShard(index: index, count: count)
        else {
            throw .usage("'--shard' must be K/N with 1 <= K <= N <= 10000 (part K of N), not '\(text)'")
        }
        return shard
    }

    /// "14" or "10-16", inside `allowed` (the PNG tiles' zooms by default).
    static func parseZooms(_ text: String, in allowed: ClosedRange<Int> = TilePlan.zooms) throws(CLIError)
        -> ClosedRange<Int>
    {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(parts.count), let low = parts.first ?? nil, let high = parts.last ?? nil, low <= high,
            allowed.contains(low), allowed.contains(high)
        else {
            throw .usage(
                "'--zooms' must be a zoom or a range like \(allowed == TilePlan.zooms ? "10-16" : "\(allowed.lowerBound)-\(allowed.upperBound)") within \(allowed.lowerBound)-\(allowed.upperBound), not '\(text)'"
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
