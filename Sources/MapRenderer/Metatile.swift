import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

/// A block of tiles of one zoom rendered as one picture and then cut, so that labels and wide
/// strokes carry on across tile edges. Blocks are aligned squares of the tile grid (never
/// across the antimeridian), trimmed to the tiles asked for.
public struct Metatile: Sendable, Hashable, CustomStringConvertible {
    /// The tiles' zoom.
    public var zoom: Int
    /// The tiles' columns (x) and rows (y) at that zoom.
    public var columns: ClosedRange<Int>
    /// The tiles' rows (y) at that zoom.
    public var rows: ClosedRange<Int>

    /// The block of the tiles `columns` × `rows` at `zoom`.
    public init(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        self.zoom = zoom
        self.columns = columns
        self.rows = rows
    }

    /// The tiles of the block, row by row.
    public var tiles: [TileID] { rows.flatMap { y in columns.map { TileID(x: $0, y: y, z: zoom) } } }

    /// `z/x0-x1/y0-y1`: a stable name, for cache keys and messages.
    public var description: String {
        "\(zoom)/\(columns.lowerBound)-\(columns.upperBound)/\(rows.lowerBound)-\(rows.upperBound)"
    }

    /// The block of `size` × `size` tiles (1...16), aligned to the zoom's grid and trimmed to
    /// it, that holds `tile`: the block a server renders for one tile asked for, and names its
    /// cache entries by.
    public static func block(containing tile: TileID, size: Int) -> Metatile {
        let side = min(max(size, 1), 16)
        let last = (1 << tile.z) - 1
        let column = tile.x / side * side
        let row = tile.y / side * side
        return Metatile(
            zoom: tile.z, columns: column...min(column + side - 1, last), rows: row...min(row + side - 1, last))
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

/// A tile as rendered: where it is and its PNG bytes.
public struct RenderedTile: Sendable, Equatable {
    /// Which tile.
    public var tile: TileID
    /// Its PNG file's bytes.
    public var png: [UInt8]

    /// The tile `tile`, drawn as `png`.
    public init(tile: TileID, png: [UInt8]) {
        self.tile = tile
        self.png = png
    }
}
