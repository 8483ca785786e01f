import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

/// A block of tiles of one zoom rendered as one picture and then cut, so that labels and wide
/// strokes carry on across tile edges. Blocks are aligned squares of the tile grid (never
/// across the antimeridian), trimmed to the tiles asked for.
public struct Metatile: Sendable, Hashable, CustomStringConvertible {
    public var zoom: Int
    public var columns: ClosedRange<Int>
    public var rows: ClosedRange<Int>

    public init(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        self.zoom = zoom
        self.columns = columns
        self.rows = rows
    }

    /// The tiles of the block, row by row.
    public var tiles: [TileID] { rows.flatMap { y in columns.map { TileID(x: $0, y: y, z: zoom) } } }

    public var description: String {
        "\(zoom)/\(columns.lowerBound)-\(columns.upperBound)/\(rows.lowerBound)-\(rows.upperBound)"
    }

    /// The blocks covering `tiles` (any zooms), each at most `size` × `size` tiles (1...16),
    /// in zoom, row and column order.
    public static func blocks(covering tiles: [TileID], size: Int) -> [Metatile] {
        let side = min(max(size, 1), 16)
        var groups: [TileID: (columns: ClosedRange<Int>, rows: ClosedRange<Int>)] = [:]
        for tile in tiles {
            let key = TileID(x: tile.x / side, y: tile.y / side, z: tile.z)
            if let group = groups[key] {
                groups[key] = (
                    min(group.columns.lowerBound, tile.x)...max(group.columns.upperBound, tile.x),
                    min(group.rows.lowerBound, tile.y)...max(group.rows.upperBound, tile.y)
                )
            } else {
                groups[key] = (tile.x...tile.x, tile.y...tile.y)
            }
        }
        return groups.sorted { ($0.key.z, $0.key.y, $0.key.x) < ($1.key.z, $1.key.y, $1.key.x) }.map {
            Metatile(zoom: $0.key.z, columns: $0.value.columns, rows: $0.value.rows)
        }
    }
}

/// Renders XYZ map tiles: 256 × 256 pixels, Web Mercator, north up, without controls.
public struct TileRenderer {
    /// Tile edge in pixels.
    public static let tileSize = 256
    /// The zooms a tile may have: MapCore's camera range.
    public static let zooms = 2...21

    public let renderer: MapRenderer
    /// The map type drawn; normal by default.
    public var mapType: MapType
    /// The colour scheme; unspecified (light) by default.
    public var style: UserInterfaceStyle
    /// The transit layer; off by default. (The traffic layer is on when the renderer has a feed.)
    public var transit: Bool

    public init(
        renderer: MapRenderer, mapType: MapType = .normal, style: UserInterfaceStyle = .unspecified,
        transit: Bool = false
    ) {
        self.renderer = renderer
        self.mapType = mapType
        self.style = style
        self.transit = transit
    }

    /// The centre of a block's tiles.
    static func centre(of block: Metatile) -> Coordinate {
        let size = Double(tileSize)
        let centre = WorldPoint(
            x: (Double(block.columns.lowerBound) + Double(block.columns.count) / 2) * size,
            y: (Double(block.rows.lowerBound) + Double(block.rows.count) / 2) * size)
        return WebMercator.unproject(centre, worldSize: WebMercator.worldSize(zoom: Double(block.zoom)))
    }

    /// The block actually drawn for `block`: itself, or, when its centre lies nearer a pole
    /// than a camera may look (±85°), grown row by row toward the equator until it does not,
    /// so that polar tiles are drawn where they are instead of shifted by the camera's clamp.
    static func drawnBlock(for block: Metatile) -> Metatile {
        var drawn = block
        let lastRow = (1 << block.zoom) - 1
        while centre(of: drawn).latitude > CameraPosition.maxTargetLatitude, drawn.rows.upperBound < lastRow {
            drawn.rows = drawn.rows.lowerBound...drawn.rows.upperBound + 1
        }
        while centre(of: drawn).latitude < -CameraPosition.maxTargetLatitude, drawn.rows.lowerBound > 0 {
            drawn.rows = drawn.rows.lowerBound - 1...drawn.rows.upperBound
        }
        return drawn
    }

    /// The view a metatile is: a frame of its tiles, the camera at their centre at the tile zoom.
    public func mapView(for block: Metatile) -> MapView {
        let size = Double(Self.tileSize)
        let width = Double(block.columns.count) * size
        let height = Double(block.rows.count) * size
        let target = Self.centre(of: block)
        var options = MapViewOptions()
        options.frame = Rect(x: 0, y: 0, width: width, height: height)
        options.camera = CameraPosition(target: target, zoom: Double(block.zoom))
        let view = MapView(options: options)
        view.mapType = mapType
        view.overrideUserInterfaceStyle = style
        view.isTrafficEnabled = !renderer.traffic.levels.isEmpty
        view.isTransitEnabled = transit
        return view
    }

    /// The PNG bytes of every tile of `block`.
    public func render(_ block: Metatile) throws -> [(tile: TileID, png: [UInt8])] {
        guard Self.zooms.contains(block.zoom) else {
            throw RenderError(
                message: "tile zoom \(block.zoom) is outside \(Self.zooms.lowerBound)...\(Self.zooms.upperBound)")
        }
        let drawn = Self.drawnBlock(for: block)
        let (canvas, _) = try renderer.render(mapView(for: drawn), controls: false)
        let size = Double(Self.tileSize)
        return try block.tiles.map { tile in
            let png = try canvas.encodedPNG(
                x: Double(tile.x - drawn.columns.lowerBound) * size, y: Double(tile.y - drawn.rows.lowerBound) * size,
                width: size, height: size)
            return (tile, png)
        }
    }
}

/// A rendering failure that is not Cairo's or the store's.
public struct RenderError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// Renders many metatiles on several threads, each with its own connection to the store
/// (a ``MapStore`` belongs to one thread).
public struct TileJob: Sendable {
    /// The store to draw from.
    public var storePath: String
    public var mapType: MapType
    public var style: UserInterfaceStyle
    /// Congestion for the traffic layer, drawn when not empty; empty by default.
    public var traffic: TrafficFeed
    /// The transit layer; off by default.
    public var transit: Bool
    /// Threads rendering at once, 1...; default: the active processor count.
    public var workers: Int

    public init(
        storePath: String, mapType: MapType = .normal, style: UserInterfaceStyle = .unspecified,
        traffic: TrafficFeed = TrafficFeed(), transit: Bool = false,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.storePath = storePath
        self.mapType = mapType
        self.style = style
        self.traffic = traffic
        self.transit = transit
        self.workers = max(workers, 1)
    }

    /// Renders every block on `workers` threads and hands each finished block's tiles to
    /// `deliver` on the calling thread, in no fixed order; at most two blocks a worker wait
    /// to be delivered, so memory stays bounded. The first error (a worker's or `deliver`'s)
    /// stops the job and is rethrown once every worker has stopped.
    public func run(
        _ blocks: [Metatile], deliver: (Metatile, [(tile: TileID, png: [UInt8])]) throws -> Void
    ) throws {
        let threads = min(workers, max(blocks.count, 1))
        let channel = TileChannel(count: blocks.count, capacity: 2 * threads)
        let group = DispatchGroup()
        for _ in 0..<threads {
            DispatchQueue.global().async(group: group) { [storePath, mapType, style, traffic, transit] in
                do {
                    let store = try MapStore(path: storePath)
                    let renderer = TileRenderer(
                        renderer: MapRenderer(store: store, traffic: traffic), mapType: mapType, style: style,
                        transit: transit)
                    while let index = channel.take() {
                        channel.put(index, try renderer.render(blocks[index]))
                    }
                } catch {
                    channel.fail(error)
                }
            }
        }
        defer { group.wait() }
        do {
            while let (index, tiles) = try channel.receive() { try deliver(blocks[index], tiles) }
        } catch {
            channel.fail(error)
            throw error
        }
    }
}

/// Hands block indices to workers and finished blocks back to the caller, bounded, keeping
/// the first error.
private final class TileChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let capacity: Int
    private var nextIndex = 0
    private var delivered = 0
    private var finished: [(Int, [(tile: TileID, png: [UInt8])])] = []
    private var error: (any Error)?

    init(count: Int, capacity: Int) {
        self.count = count
        self.capacity = max(capacity, 1)
    }

    /// The next block to render, once there is room for its result; nil when every block is
    /// taken or the job failed.
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while error == nil, nextIndex < count, nextIndex - delivered >= capacity { condition.wait() }
        guard error == nil, nextIndex < count else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
    }

    func put(_ index: Int, _ tiles: [(tile: TileID, png: [UInt8])]) {
        condition.lock()
        finished.append((index, tiles))
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ error: any Error) {
        condition.lock()
        if self.error == nil { self.error = error }
        condition.broadcast()
        condition.unlock()
    }

    /// The next finished block, waiting for one; nil once all are delivered.
    func receive() throws -> (Int, [(tile: TileID, png: [UInt8])])? {
        condition.lock()
        defer { condition.unlock() }
        while error == nil, finished.isEmpty, delivered < count { condition.wait() }
        if let error { throw error }
        guard !finished.isEmpty else { return nil }
        delivered += 1
        condition.broadcast()
        return finished.removeFirst()
    }
}
