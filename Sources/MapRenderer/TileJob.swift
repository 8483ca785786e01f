import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

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
    /// The bicycling layer; off by default.
    public var bicycling: Bool
    /// The language of place names where the data has them; nil (the default) for local names.
    public var language: Language?
    /// Threads rendering at once, 1...; default: the active processor count.
    public var workers: Int

    public init(
        storePath: String, mapType: MapType = .normal, style: UserInterfaceStyle = .unspecified,
        traffic: TrafficFeed = TrafficFeed(), transit: Bool = false, bicycling: Bool = false,
        language: Language? = nil,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.storePath = storePath
        self.mapType = mapType
        self.style = style
        self.traffic = traffic
        self.transit = transit
        self.bicycling = bicycling
        self.language = language
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
        // One decode of the world rasters for all workers.
        let rasters = RasterCache()
        for _ in 0..<threads {
            DispatchQueue.global().async(group: group) {
                [storePath, mapType, style, traffic, transit, bicycling, language] in
                do {
                    var mapRenderer = MapRenderer(
                        store: try MapStore(path: storePath), traffic: traffic, rasters: rasters)
                    mapRenderer.language = language
                    let renderer = TileRenderer(
                        renderer: mapRenderer, mapType: mapType, style: style, transit: transit, bicycling: bicycling)
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
