import Foundation
import GeoCore
import MapCore
import MapData
import MapRenderer

/// The terrain map's relief alone, over the whole of the store's finest elevation model at its
/// own zoom, as `gdaldem hillshade` and `gdal_contour` work over a whole file: one view the
/// size of the model's pixels, its heights read from the store's tiles, then (1) tinted and
/// shaded, every pixel, and (2) traced for contour lines at `interval` metres and the lines
/// joined, as the terrain tiles do. In process, one thread, the best of `runs`.
///
/// Usage: `openmaps-bench relief --store S [--interval 50] [--runs 3]`
enum ReliefBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        let runs = max(1, flags.int("--runs", or: 3))
        let interval = flags.double("--interval", or: 50)
        guard interval.isFinite, interval >= 1 else {
            throw BenchError("--interval must be a number of metres, 1 or more (not \(flags["--interval"] ?? ""))")
        }
        let store = try MapStore(path: flags["--store"] ?? "")
        guard let model = try store.elevationModels().first, let southWest = model.bounds.southWest,
            let northEast = model.bounds.northEast
        else { throw BenchError("the store has no elevation model: import one first") }
        // The view: the model's bounds at its finest zoom, one point a pixel of its tiles.
        let zoom = Double(model.maxZoom)
        let northWest = WebMercator.project(
            Coordinate(latitude: northEast.latitude, longitude: southWest.longitude), zoom: zoom)
        let southEast = WebMercator.project(
            Coordinate(latitude: southWest.latitude, longitude: northEast.longitude), zoom: zoom)
        let size = Size(width: (southEast.x - northWest.x).rounded(), height: (southEast.y - northWest.y).rounded())
        let centre = WebMercator.unproject(
            WorldPoint(x: (northWest.x + southEast.x) / 2, y: (northWest.y + southEast.y) / 2), zoom: zoom)
        let camera = CameraPosition(target: centre, zoom: zoom)
        let projection = Projection(camera: camera, viewSize: size)
        print(
            "Relief of \(model.name) at zoom \(model.maxZoom): \(Int(size.width)) × \(Int(size.height)) pixels, best of \(runs), one thread"
        )
        var read = Double.infinity
        var shade = Double.infinity
        var trace = Double.infinity
        var lines = 0
        var pixels = 0
        for _ in 0..<runs {
            var begin = ContinuousClock.now
            guard
                let relief = try ReliefPainter(
                    store: store, projection: projection, camera: camera, size: size, bounds: model.bounds)
            else { throw BenchError("no height in the model's own bounds") }
            read = min(read, Statistics.seconds(since: begin))
            pixels = (relief.columns - 2) * (relief.rows - 2)
            begin = ContinuousClock.now
            let colours = relief.premultipliedColours(dark: false)
            shade = min(shade, Statistics.seconds(since: begin))
            begin = ContinuousClock.now
            lines = ReliefPainter.chains(relief.contours(interval: interval)).count
            trace = min(trace, Statistics.seconds(since: begin))
            // Keep the colours observable.
            if colours.isEmpty { print("no colours") }
        }
        let megapixels = Double(pixels) / 1_000_000
        print(String(format: "  heights read from the store: %.3f s (%.1f Mpixel/s)", read, megapixels / read))
        print(String(format: "  tinted and shaded: %.3f s (%.1f Mpixel/s)", shade, megapixels / shade))
        print(
            String(
                format: "  hillshade with its read: %.3f s, %.1f Mpixel/s", read + shade, megapixels / (read + shade)))
        print(
            String(
                format: "  contours every %.0f m with the read: %.3f s, %d lines, %.0f lines/s", interval,
                read + trace, lines, Double(lines) / (read + trace)))
    }
}
