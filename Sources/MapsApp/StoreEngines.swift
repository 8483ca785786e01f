import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapRenderer
import PlaceSearch

extension MapsApp {
    /// The app on a store: its name index and gazetteer find places, the renderer draws, and
    /// tiles render on every core from the same file.
    ///
    /// - Parameter traffic: congestion for the traffic layer links turn on; nil for none.
    /// - Throws: ``AppError/engineFailed(_:underlying:)`` when the store cannot be opened.
    public static func onStore(path: String, traffic: TrafficFeed? = nil) throws(AppError) -> MapsApp {
        let store: MapStore
        do { store = try MapStore(path: path) } catch { throw .engineFailed("opening the store", underlying: error) }
        // One decode of the world rasters for pictures and tiles alike.
        let rasters = RasterCache()
        let routing = StoreRouting(store: store)
        return MapsApp(
            places: PlaceSearch(store: store),
            drawing: StoreDrawing(
                renderer: MapRenderer(store: store, traffic: traffic ?? TrafficFeed(), rasters: rasters),
                hasTrafficFeed: traffic != nil),
            tiles: StoreTiles(storePath: path, traffic: traffic ?? TrafficFeed(), rasters: rasters),
            routing: routing, transit: StoreTransit(store: store, walking: routing))
    }
}

/// ``MapDrawing`` by the renderer over a store.
public struct StoreDrawing: MapDrawing {
    public var renderer: MapRenderer
    public var hasTrafficFeed: Bool

    public init(renderer: MapRenderer, hasTrafficFeed: Bool) {
        self.renderer = renderer
        self.hasTrafficFeed = hasTrafficFeed
    }

    public func indoorBuilding(in view: MapView) throws -> IndoorBuilding? { try renderer.indoorBuilding(in: view) }

    public func coverage(of view: MapView, language: Language?) throws -> MapCoverage {
        var renderer = renderer
        renderer.language = language
        let coverage = try renderer.coverage(of: view)
        return MapCoverage(credits: coverage.credits, regions: coverage.regions, notice: coverage.notice)
    }

    public func draw(_ view: MapView, format: PictureFormat, scale: Double, language: Language?) throws -> DrawnMap {
        var renderer = renderer
        renderer.language = language
        let (canvas, report) = try renderer.render(view, format: format, scale: scale)
        return DrawnMap(canvas: canvas, features: report.features.values.reduce(0, +), labels: report.labels.count)
    }
}

/// ``TileRendering`` into MBTiles, a store connection per worker thread; and one block at a
/// time for a server, on connections kept in a pool (one per thread rendering at once).
public struct StoreTiles: TileRendering {
    public var storePath: String
    public var traffic: TrafficFeed
    private let connections: StorePool
    /// One decode of the world rasters for every block rendered.
    private let rasters: RasterCache

    public init(storePath: String, traffic: TrafficFeed, rasters: RasterCache = RasterCache()) {
        self.storePath = storePath
        self.traffic = traffic
        self.rasters = rasters
        connections = StorePool(path: storePath)
    }

    public func render(_ block: Metatile, style: TileStyle) throws -> [(tile: TileID, png: [UInt8])] {
        try connections.with { store in
            var renderer = MapRenderer(store: store, traffic: style.traffic ? traffic : TrafficFeed(), rasters: rasters)
            renderer.language = style.language
            return try TileRenderer(
                renderer: renderer, mapType: style.mapType, style: style.style, transit: style.transit,
                bicycling: style.bicycling, scale: Double(style.scale)
            ).render(block)
        }
    }

    public func regions() throws -> [CoordinateBounds] {
        try MapStore(path: storePath).sources(counting: false).filter { $0.kind == .osm }.map(\.bounds)
    }

    public func render(_ plan: TilePlan, into output: String, progress: (Double) -> Void) throws -> TileSummary {
        let request = plan.request
        let tiles = plan.tiles
        let all = Metatile.blocks(covering: tiles, size: request.metatile)
        let blocks = request.shard.map { $0.part(of: all) } ?? all
        let sources = try MapStore(path: storePath).sources(counting: false).filter { source in
            plan.areas.contains { source.bounds.intersects($0) }
        }
        let streets = sources.contains { $0.kind == .osm }
        let feeds = sources.filter {
            $0.kind == .gtfs && (request.transit || Double(request.zooms.upperBound) >= MapRenderer.stopZoom)
        }
        let start = Date()
        let writer = try MBTilesWriter(
            path: output,
            metadata: .init(
                name: (output as NSString).lastPathComponent, description: "OpenMaps \(request.mapType.rawValue) map",
                attribution: MapRenderer.credits(streets: streets, placeNames: true, feeds: feeds.map(\.attribution))
                    .joined(separator: " · "),
                bounds: plan.bounds, zooms: request.zooms))
        var job = TileJob(
            storePath: storePath, mapType: request.mapType, style: request.style, traffic: traffic,
            transit: request.transit, bicycling: request.bicycling, language: request.language)
        if let workers = request.workers { job.workers = workers }
        var done = 0
        try job.run(blocks) { _, rendered in
            for (tile, png) in rendered { try writer.add(tile, data: png) }
            done += 1
            progress(Double(done) / Double(blocks.count))
        }
        try writer.finish()
        return TileSummary(
            tiles: writer.count, metatiles: blocks.count, workers: job.workers,
            seconds: Date().timeIntervalSince(start))
    }
}

/// Store connections for threads that render at once: a thread takes an idle one or opens a
/// new one, and gives it back when done, so there are never more than threads rendering.
final class StorePool: @unchecked Sendable {
    let path: String
    // Guarded by `lock`.
    private let lock = NSLock()
    private var idle: [MapStore] = []

    init(path: String) { self.path = path }

    /// Calls `body` with a connection of its own.
    func with<T>(_ body: (MapStore) throws -> T) throws -> T {
        let store = try lock.withLock { idle.popLast() } ?? MapStore(path: path)
        defer { lock.withLock { idle.append(store) } }
        return try body(store)
    }
}
