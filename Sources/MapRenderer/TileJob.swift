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
    /// How the tiles are drawn.
    public var style: TileStyle
    /// Congestion for the traffic layer, drawn when the style asks for it and it is not empty;
    /// empty by default.
    public var traffic: TrafficFeed
    /// Threads rendering at once, 1...; default: the active processor count.
    public var workers: Int

    /// A job on the store at `storePath` drawing in `style`, on `workers` threads (at least 1).
    public init(
        storePath: String, style: TileStyle = TileStyle(), traffic: TrafficFeed = TrafficFeed(),
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.storePath = storePath
        self.style = style
        self.traffic = traffic
        self.workers = max(workers, 1)
    }

    /// Renders every block on `workers` threads and hands each finished block's tiles to
    /// `deliver` on the calling thread, in no fixed order; at most two blocks a worker wait
    /// to be delivered, so memory stays bounded. The first error (a worker's or `deliver`'s)
    /// stops the job and is rethrown once every worker has stopped.
    public func run(
        _ blocks: [Metatile], deliver: (Metatile, [RenderedTile]) throws -> Void
    ) throws {
        let threads = min(workers, max(blocks.count, 1))
        let channel = TileChannel(count: blocks.count, capacity: 2 * threads)
        let group = DispatchGroup()
        // One decode of the world rasters for all workers.
        let rasters = RasterCache()
        for _ in 0..<threads {
            DispatchQueue.global().async(group: group) {
                [storePath, style, traffic] in
                do {
                    let renderer = TileRenderer(
                        renderer: MapRenderer(store: try MapStore(path: storePath), traffic: traffic, rasters: rasters),
                        style: style)
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
