import Foundation
import GeoCore
import MapCore
import MapRenderer

/// What a tile run writes.
public enum TileFormat: String, Sendable, CaseIterable {
    /// 256-pixel PNG pictures of the map, into MBTiles.
    case png
    /// Mapbox Vector Tiles of the schema in docs/tiles.md, gzip-compressed, into PMTiles or
    /// MBTiles.
    case mvt

    /// The zooms tiles of the format are made at: PNG 2...21, vector 0...14.
    public var zooms: ClosedRange<Int> {
        switch self {
        case .png: TilePlan.zooms
        case .mvt: MapsApp.vectorZooms
        }
    }
}

/// A run of XYZ tiles the app is asked for: area, zooms and look.
public struct TileRequest: Sendable, Equatable {
    /// PNG pictures (the default) or vector tiles.
    public var format = TileFormat.png
    /// The area; nil for every imported street-data region.
    public var bounds: CoordinateBounds?
    /// Zooms within the format's (``TileFormat/zooms``); default 10...16.
    public var zooms: ClosedRange<Int> = 10...16
    /// How the tiles are drawn (map type, scheme, layers, names' language, pixel density);
    /// the normal light map, 256-pixel tiles, local names by default. The traffic layer is
    /// drawn when it asks for it and the app has a traffic feed.
    public var style = TileStyle()
    /// Threads rendering at once; nil for the processor count.
    public var workers: Int?
    /// Tiles a side drawn as one picture, 1...16; default 8.
    public var metatile = 8
    /// The part of the run this process renders, when several share it; nil for all of it.
    public var shard: TileShard?

    /// A run of the whole world at the default zooms and style.
    public init() {}
}

/// Part `index` of `count` of a tile run: every `count`-th metatile from the `index`-th, so
/// that processes (or machines) given `1/N` … `N/N` of the same request render disjoint parts
/// of about equal work, and together every tile once.
public struct TileShard: Sendable, Equatable {
    /// 1...count.
    public var index: Int
    /// How many parts the run is shared between, 1 or more.
    public var count: Int

    /// Nil unless `1 <= index <= count`.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// The items of `all` in this part (`all` listed in the same order by every process).
    public func part<T>(of all: [T]) -> [T] {
        all.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}

/// A tile run the app accepted: the request with its area settled and its size known.
public struct TilePlan: Sendable, Equatable {
    /// The zooms tiles are rendered at: 2...21 (MapCore's camera range).
    public static let zooms = TileRenderer.zooms
    /// The most tiles one run renders: 4,000,000 (about 100 GB of tiles at most; the list of
    /// tiles alone takes 100 MB of memory).
    public static let maxTiles = 4_000_000

    /// The request as asked.
    public var request: TileRequest
    /// The areas rendered: the request's box, or each imported region on its own (regions far
    /// apart are not joined into one box spanning the world between them).
    public var areas: [CoordinateBounds]
    /// Tiles in the run (a tile in two areas counted once).
    public var count: Int

    /// The box around every area (the MBTiles `bounds`).
    public var bounds: CoordinateBounds { areas.reduce(CoordinateBounds()) { $0.including($1) } }

    /// The run's tiles, zoom by zoom, each once.
    public var tiles: [TileID] {
        var seen: Set<TileID> = []
        return request.zooms.flatMap { zoom in
            areas.flatMap { TileID.covering($0, zoom: zoom) }.filter { seen.insert($0).inserted }
        }
    }
}

/// What a tile run did.
public struct TileSummary: Sendable, Equatable {
    /// Tiles written.
    public var tiles: Int
    /// Metatiles drawn.
    public var metatiles: Int
    /// Threads that drew them.
    public var workers: Int
    /// Wall-clock seconds.
    public var seconds: Double

    /// A summary of these figures.
    public init(tiles: Int, metatiles: Int, workers: Int, seconds: Double) {
        self.tiles = tiles
        self.metatiles = metatiles
        self.workers = workers
        self.seconds = seconds
    }
}

extension MapsApp {
    /// Checks what can be checked of a tile run before any data is read: zooms within the
    /// format's (``TileFormat/zooms``), the metatile size, and, for a given area, at most
    /// ``TilePlan/maxTiles`` tiles.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the option at fault.
    public static func check(_ request: TileRequest) throws(AppError) {
        let zooms = request.format.zooms
        guard zooms.contains(request.zooms.lowerBound), zooms.contains(request.zooms.upperBound) else {
            throw .invalidOption(
                "zooms",
                message: "must lie within \(zooms.lowerBound)-\(zooms.upperBound) for \(request.format.rawValue) tiles")
        }
        guard (1...16).contains(request.metatile) else {
            throw .invalidOption("metatile", message: "must be 1 to 16 tiles a side")
        }
        if let bounds = request.bounds { try checkCount([bounds], request.zooms) }
    }

    /// Settles a tile run: the areas (the request's, else every imported region) and the
    /// count, refused above ``TilePlan/maxTiles`` before any tile is listed.
    ///
    /// - Throws: the errors of ``check(_:)``, and ``AppError/invalidOption(_:message:)`` when
    ///   there is no area at all.
    public func plan(_ request: TileRequest) throws(AppError) -> TilePlan {
        try Self.check(request)
        guard let tiles else { throw .engineMissing("tile renderer") }
        let areas: [CoordinateBounds]
        if let requested = request.bounds {
            areas = [requested]
        } else {
            do {
                areas = try tiles.regions().filter(\.isValid)
            } catch {
                throw .engineFailed("reading the imported regions", underlying: error)
            }
        }
        guard !areas.isEmpty else {
            throw .invalidOption("bbox", message: "is needed: the store has no imported region")
        }
        try Self.checkCount(areas, request.zooms)
        var plan = TilePlan(request: request, areas: areas, count: 0)
        plan.count = areas.count == 1 ? try Self.checkCount(areas, request.zooms) : plan.tiles.count
        return plan
    }

    /// Renders a tile run into the file at `output`, replaced atomically: PNG tiles into
    /// MBTiles; vector tiles into PMTiles (`.pmtiles`) or MBTiles (`.mbtiles`).
    ///
    /// - Parameter progress: the fraction of metatiles (vector tiles) done, 0...1.
    public func renderTiles(
        _ request: TileRequest, into output: String, progress: (Double) -> Void = { _ in }
    ) throws(AppError) -> TileSummary {
        let plan = try plan(request)
        guard let tiles else { throw .engineMissing("tile renderer") }
        do {
            return try tiles.render(plan, into: output, progress: progress)
        } catch {
            throw .engineFailed("rendering tiles into \(output)", underlying: error)
        }
    }

    /// The tiles `areas` and `zooms` make (at most: a tile in two areas counts twice), refused
    /// above ``TilePlan/maxTiles``.
    @discardableResult
    private static func checkCount(_ areas: [CoordinateBounds], _ zooms: ClosedRange<Int>) throws(AppError) -> Int {
        let count = areas.reduce(0) { total, area in
            zooms.reduce(total) { $0 + TileID.count(covering: area, zoom: $1) }
        }
        guard count <= TilePlan.maxTiles else {
            throw .invalidOption(
                "bbox",
                message:
                    "and the zooms make \(count) tiles; at most \(TilePlan.maxTiles) at once: give fewer zooms or a smaller area"
            )
        }
        return count
    }
}
