import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapRenderer
import PlaceSearch
import VectorTiles
import ZlibKit

extension MapsApp {
    /// The app on a store: its name index and gazetteer find places, the renderer draws, the
    /// road network routes and the timetables plan journeys, and tiles render on every core.
    ///
    /// Every engine takes a store connection of its own from one pool for each call, and the
    /// routing graphs and timetables are loaded once and shared read-only, so the app answers
    /// on several threads at once (a server's workers) without a lock around it.
    ///
    /// - Parameter traffic: congestion for the traffic layer links turn on; nil for none.
    /// - Throws: ``AppError/engineFailed(_:underlying:)`` when the store cannot be opened.
    public static func onStore(path: String, traffic: TrafficFeed? = nil) throws(AppError) -> MapsApp {
        let connections: StorePool
        do { connections = try StorePool(opening: path) } catch {
            throw .engineFailed("opening the store", underlying: error)
        }
        // One decode of the world rasters for pictures and tiles alike.
        let rasters = RasterCache()
        let routing = StoreRouting(connections: connections)
        return MapsApp(
            places: PooledPlaceSearch(connections: connections),
            drawing: StoreDrawing(
                connections: connections, traffic: traffic ?? TrafficFeed(), rasters: rasters,
                hasTrafficFeed: traffic != nil),
            tiles: StoreTiles(connections: connections, traffic: traffic ?? TrafficFeed(), rasters: rasters),
            routing: routing, transit: StoreTransit(connections: connections, walking: routing),
            heights: StoreHeights(connections: connections))
    }
}

/// ``Geocoding`` by the place search, each call on a store connection of its own from a pool,
/// so that several threads search at once.
public struct PooledPlaceSearch: Geocoding, Sendable {
    let connections: StorePool

    /// Searches the store on a pooled connection.
    public func search(_ query: SearchQuery) throws -> [PlaceResult] {
        try connections.connection { try $0.search.search(query) }
    }

    /// Looks up what is at `coordinate` on a pooled connection.
    public func reverse(_ coordinate: Coordinate, language: Language?) throws -> PlaceResult? {
        try connections.connection { try $0.search.reverse(coordinate, language: language) }
    }

    /// The places a search box finds for `text`, ranked and filtered as ``PlaceFinding`` says, on a pooled connection.
    public func places(matching text: String, near: Coordinate?, limit: Int, names: Language?, typing: Bool) throws
        -> [FoundPlace]
    {
        try connections.connection {
            try $0.search.places(matching: text, near: near, limit: limit, names: names, typing: typing)
        }
    }
}

/// ``MapDrawing`` by the renderer, each call on a store connection of its own from a pool.
public struct StoreDrawing: MapDrawing, Sendable {
    let connections: StorePool
    /// Congestion the traffic layer colours.
    public var traffic: TrafficFeed
    /// One decode of the world rasters for every picture.
    let rasters: RasterCache
    /// True when a traffic feed was given.
    public var hasTrafficFeed: Bool

    init(connections: StorePool, traffic: TrafficFeed, rasters: RasterCache, hasTrafficFeed: Bool) {
        self.connections = connections
        self.traffic = traffic
        self.rasters = rasters
        self.hasTrafficFeed = hasTrafficFeed
    }

    /// `body` with a renderer on a connection of its own, its words and names in `language`.
    private func rendering<T>(_ language: Language?, _ body: (MapRenderer) throws -> T) throws -> T {
        try connections.with { store in
            var renderer = MapRenderer(store: store, traffic: traffic, rasters: rasters)
            renderer.language = language
            return try body(renderer)
        }
    }

    /// The indoor building nearest the view's centre, from the store.
    public func indoorBuilding(in view: MapView) throws -> IndoorBuilding? {
        try rendering(nil) { try $0.indoorBuilding(in: view) }
    }

    /// The credits and regions where `view` looks.
    public func coverage(of view: MapView, language: Language?) throws -> MapCoverage {
        let coverage = try rendering(language) { try $0.coverage(of: view) }
        return MapCoverage(credits: coverage.credits, regions: coverage.regions, notice: coverage.notice)
    }

    /// Draws `view` from the store on a pooled connection.
    public func draw(_ view: MapView, format: PictureFormat, scale: Double, language: Language?) throws -> DrawnMap {
        let (canvas, report) = try rendering(language) { try $0.render(view, format: format, scale: scale) }
        return DrawnMap(canvas: canvas, features: report.features.values.reduce(0, +), labels: report.labels.count)
    }
}

/// ``TileRendering`` into MBTiles, a store connection per worker thread; and one block at a
/// time for a server, on connections kept in a pool (one per thread rendering at once).
public struct StoreTiles: TileRendering, Sendable {
    /// The store's location, as given.
    public var storePath: String { connections.path }
    /// Congestion the traffic layer colours where a style asks for it.
    public var traffic: TrafficFeed
    private let connections: StorePool
    /// One decode of the world rasters for every block rendered.
    private let rasters: RasterCache

    /// Tiles from the store at `storePath`, on connections of their own.
    public init(storePath: String, traffic: TrafficFeed, rasters: RasterCache = RasterCache()) {
        self.init(connections: StorePool(path: storePath), traffic: traffic, rasters: rasters)
    }

    init(connections: StorePool, traffic: TrafficFeed, rasters: RasterCache) {
        self.connections = connections
        self.traffic = traffic
        self.rasters = rasters
    }

    /// Renders `block` in `style` from the store on a pooled connection.
    public func render(_ block: Metatile, style: TileStyle) throws -> [RenderedTile] {
        try connections.with { store in
            try TileRenderer(
                renderer: MapRenderer(store: store, traffic: traffic, rasters: rasters), style: style
            ).render(block)
        }
    }

    /// Cuts the vector tile `tile` from the store on a pooled connection, gzip-compressed;
    /// empty when nothing is in it.
    public func vectorTile(_ tile: TileID) throws -> [UInt8] {
        let cut = try connections.connection { try $0.vectorTiles().tile(tile) }
        return cut.layers.isEmpty ? [] : try Zlib.gzip(cut.encoded())
    }

    /// Cuts the traffic tile `tile` of the feed from the store's roads on a pooled connection,
    /// gzip-compressed; empty when the feed lists no road in it.
    public func trafficTile(_ tile: TileID) throws -> [UInt8] {
        guard !traffic.levels.isEmpty else { return [] }
        let cut = try connections.connection { try TrafficTiles.tile(tile, store: $0.store, feed: traffic) }
        return cut.layers.isEmpty ? [] : try Zlib.gzip(cut.encoded())
    }

    /// The imported regions' extents.
    public func regions() throws -> [CoordinateBounds] {
        try connections.with { try $0.sources(counting: false) }.filter { $0.kind == .osm }.map(\.bounds)
    }

    /// The imported images' or elevation models' credits, as a map type's tiles draw them.
    public func rasterCredits(for mapType: MapType) throws -> [String] {
        guard let kind = MapRenderer.rasterKind(of: MapContent.Base(mapType)) else { return [] }
        return try connections.with { try $0.sources(counting: false) }.filter { $0.kind == kind }.map(\.attribution)
    }

    /// Renders a tile run into the file at `output`, reporting the fraction done.
    public func render(_ plan: TilePlan, into output: String, progress: (Double) -> Void) throws -> TileSummary {
        if plan.request.format == .mvt { return try cutVectorTiles(plan, into: output, progress: progress) }
        let request = plan.request
        let tiles = plan.tiles
        let all = Metatile.blocks(covering: tiles, size: request.metatile)
        let blocks = request.shard.map { $0.part(of: all) } ?? all
        let sources = try connections.with { try $0.sources(counting: false) }.filter { source in
            plan.areas.contains { source.bounds.intersects($0) }
        }
        let streets = sources.contains { $0.kind == .osm }
        let feeds = sources.filter {
            $0.kind == .gtfs && (request.style.transit || Double(request.zooms.upperBound) >= ZoomRules.stops)
        }
        let base = MapContent.Base(request.style.mapType)
        let rasters = sources.filter { $0.kind == MapRenderer.rasterKind(of: base) }
        let start = Date()
        let writer = try MBTilesWriter(
            path: output,
            metadata: .init(
                name: (output as NSString).lastPathComponent,
                description: "OpenMaps \(request.style.mapType.rawValue) map",
                attribution: MapRenderer.credits(
                    streets: streets, placeNames: true, feeds: feeds.map(\.attribution),
                    rasters: rasters.map(\.attribution)
                ).joined(separator: " · "),
                bounds: plan.bounds, zooms: request.zooms))
        var job = TileJob(storePath: storePath, style: request.style, traffic: traffic)
        if let workers = request.workers { job.workers = workers }
        var done = 0
        try job.run(blocks) { _, rendered in
            for rendered in rendered { try writer.add(rendered.tile, data: rendered.png) }
            done += 1
            progress(Double(done) / Double(blocks.count))
        }
        try writer.finish()
        return TileSummary(
            tiles: writer.count, metatiles: blocks.count, workers: job.workers,
            seconds: Date().timeIntervalSince(start))
    }
}

extension StoreTiles {
    /// Cuts a run's vector tiles on every worker (each on a pooled connection) into a PMTiles
    /// archive, or MBTiles for a `.mbtiles` output, written in tile order, empty tiles left out.
    func cutVectorTiles(_ plan: TilePlan, into output: String, progress: (Double) -> Void) throws -> TileSummary {
        let all = plan.tiles
        let tiles = plan.request.shard.map { $0.part(of: all) } ?? all
        let workers = max(1, min(plan.request.workers ?? ProcessInfo.processInfo.activeProcessorCount, tiles.count))
        let sources = try connections.with { try $0.sources(counting: false) }.filter { source in
            plan.areas.contains { source.bounds.intersects($0) }
        }
        let attribution = MapRenderer.credits(
            streets: sources.contains { $0.kind == .osm }, placeNames: true,
            feeds: sources.filter { $0.kind == .gtfs }.map(\.attribution)
        ).joined(separator: " · ")
        let name = (output as NSString).lastPathComponent
        let archive = try VectorArchive(
            path: output, name: name, attribution: attribution, bounds: plan.bounds, zooms: plan.request.zooms)
        let start = Date()
        let state = VectorRunState()
        let progressLock = NSLock()
        nonisolated(unsafe) let report = progress
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = state.next(below: tiles.count) {
                do {
                    let tile = tiles[index]
                    let cut = try connections.connection { try $0.vectorTiles().tile(tile) }
                    let bytes = cut.layers.isEmpty ? nil : try Zlib.gzip(cut.encoded())
                    try state.locked {
                        if let bytes { try archive.add(tile, bytes: bytes) }
                    }
                    let done = state.finished()
                    if done % 64 == 0 || done == tiles.count {
                        progressLock.withLock { report(Double(done) / Double(tiles.count)) }
                    }
                } catch {
                    state.fail(error)
                }
            }
        }
        if let error = state.error { throw error }
        try archive.finish()
        return TileSummary(
            tiles: archive.count, metatiles: tiles.count, workers: workers, seconds: Date().timeIntervalSince(start))
    }
}

/// The shared state of a vector tile run's workers: the next tile, tiles done, the first
/// error (after which the workers stop) and the lock the archive is written under.
private final class VectorRunState: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var done = 0
    private(set) var error: (any Error)?
    private let writing = NSLock()

    /// The next tile's index, nil when every tile is taken or a worker failed.
    func next(below count: Int) -> Int? {
        lock.withLock {
            guard error == nil, nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    /// Counts a tile done; the count so far.
    func finished() -> Int {
        lock.withLock {
            done += 1; return done
        }
    }

    /// Keeps the first error.
    func fail(_ failure: any Error) { lock.withLock { if error == nil { error = failure } } }

    /// Runs `body` alone.
    func locked(_ body: () throws -> Void) throws { try writing.withLock { try body() } }
}

/// A vector tile archive being written: PMTiles, or MBTiles with `format=pbf`.
private enum VectorArchive: @unchecked Sendable {
    case pmtiles(PMTilesWriter, PMTilesWriter.Header, metadata: String)
    case mbtiles(MBTilesWriter)

    /// Starts the archive at `path`, of the kind its extension names.
    init(path: String, name: String, attribution: String, bounds: CoordinateBounds, zooms: ClosedRange<Int>) throws {
        let layers = MapsApp.vectorLayers
        if path.lowercased().hasSuffix(".mbtiles") {
            var metadata = MBTilesWriter.Metadata(
                name: name, description: "OpenMaps vector tiles (OpenMapTiles schema, docs/tiles.md)",
                attribution: attribution, bounds: bounds, zooms: zooms)
            metadata.format = "pbf"
            metadata.json = JSONText.pretty(["vector_layers": layers])
            self = .mbtiles(try MBTilesWriter(path: path, metadata: metadata))
        } else {
            let metadata = JSONText.pretty([
                "name": name, "description": "OpenMaps vector tiles (OpenMapTiles schema, docs/tiles.md)",
                "attribution": attribution, "format": "pbf", "type": "baselayer", "version": "1.0",
                "vector_layers": layers,
            ])
            self = .pmtiles(
                try PMTilesWriter(path: path), PMTilesWriter.Header(zooms: zooms, bounds: bounds), metadata: metadata)
        }
    }

    /// Tiles written so far.
    var count: Int {
        switch self {
        case .pmtiles(let writer, _, _): writer.count
        case .mbtiles(let writer): writer.count
        }
    }

    func add(_ tile: TileID, bytes: [UInt8]) throws {
        switch self {
        case .pmtiles(let writer, _, _): try writer.add(tile, bytes: bytes)
        case .mbtiles(let writer): try writer.add(tile, data: bytes)
        }
    }

    func finish() throws {
        switch self {
        case .pmtiles(let writer, let header, let metadata): try writer.finish(header: header, metadata: metadata)
        case .mbtiles(let writer): try writer.finish()
        }
    }
}

/// Store connections for threads that use the store at once: a thread takes an idle one or
/// opens a new one, and gives it back when done, so there are never more than threads using
/// it (a SQLite connection belongs to one thread at a time; a PostGIS one is one session).
/// Each connection keeps the place search made on it, with what that search caches.
public final class StorePool: @unchecked Sendable {
    /// A connection of the pool and the engines kept with it, used by one thread at a time.
    final class Connection {
        let store: MapStore
        /// The place search on this connection, made on first use and kept with its caches
        /// (the sources, the countries' names, the settlements).
        private(set) lazy var search = PlaceSearch(store: store)
        /// The vector tile builder on this connection, made on first use (it asks the store
        /// which levels of the world's detail it holds, once).
        private var builder: VectorTileBuilder?

        init(store: MapStore) { self.store = store }

        /// The vector tile builder on this connection.
        func vectorTiles() throws(DataError) -> VectorTileBuilder {
            if let builder { return builder }
            let made = try VectorTileBuilder(store: store)
            builder = made
            return made
        }
    }

    /// The store's location as given (a file's path, or a `postgresql://` URL with its password).
    let path: String
    // Guarded by `lock`.
    private let lock = NSLock()
    private var idle: [Connection] = []

    init(path: String) { self.path = path }

    /// A pool whose first connection is opened now, so a store that cannot be read is said at
    /// once.
    init(opening path: String) throws(DataError) {
        self.path = path
        idle = [Connection(store: try MapStore(path: path))]
    }

    /// Calls `body` with a connection of its own.
    func with<T>(_ body: (MapStore) throws -> T) throws -> T { try connection { try body($0.store) } }

    /// Calls `body` with a connection of its own and the engines kept with it.
    func connection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try lock.withLock { idle.popLast() } ?? Connection(store: MapStore(path: path))
        defer { lock.withLock { idle.append(connection) } }
        return try body(connection)
    }
}
