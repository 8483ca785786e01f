import Foundation
import GeoCore
import MapCore
import MapRenderer

/// A rendered tile with the other tiles of its block, drawn together so that labels run across
/// their edges: a server caches them all.
public struct RenderedBlock: Sendable {
    /// The tile asked for.
    public var tile: TileID
    /// Every tile of the block, with its PNG bytes (the one asked for among them).
    public var tiles: [RenderedTile]

    /// The PNG bytes of the tile asked for.
    public var png: [UInt8] { tiles.first { $0.tile == tile }?.png ?? [] }
}

extension MapsApp {
    /// Tiles a side of the block drawn for one tile asked for: 4 (16 tiles, 1,024 pixels).
    public static let tileBlockSize = 4

    /// Checks a tile's address: zoom within ``TilePlan/zooms``, column and row within the
    /// zoom's 2^z, scale within ``TileStyle/scales``.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the part at fault.
    public static func check(_ tile: TileID, style: TileStyle) throws(AppError) {
        guard TilePlan.zooms.contains(tile.z) else {
            throw .invalidOption(
                "z", message: "must lie within \(TilePlan.zooms.lowerBound)-\(TilePlan.zooms.upperBound), not \(tile.z)"
            )
        }
        let count = 1 << tile.z
        guard (0..<count).contains(tile.x), (0..<count).contains(tile.y) else {
            throw .invalidOption("x/y", message: "must lie within 0-\(count - 1) at zoom \(tile.z)")
        }
        guard TileStyle.scales.contains(style.scale) else {
            throw .invalidOption("scale", message: "must be 1 or 2, not \(style.scale)")
        }
    }

    /// The tile at `tile` in `style`, with the rest of its block of ``tileBlockSize`` ×
    /// ``tileBlockSize`` tiles (fewer at zooms with fewer tiles). Safe to call from several
    /// threads at once: each render uses its own store connection.
    ///
    /// - Throws: the errors of ``check(_:style:)``, ``AppError/engineMissing(_:)`` without a
    ///   tile renderer, ``AppError/engineFailed(_:underlying:)`` when rendering fails.
    public func tile(_ tile: TileID, style: TileStyle) throws(AppError) -> RenderedBlock {
        try Self.check(tile, style: style)
        guard let tiles else { throw .engineMissing("tile renderer") }
        do {
            let rendered = try tiles.render(Metatile.block(containing: tile, size: Self.tileBlockSize), style: style)
            return RenderedBlock(tile: tile, tiles: rendered)
        } catch {
            throw .engineFailed("rendering tile \(tile)", underlying: error)
        }
    }
}
