import Foundation

/// An XYZ map tile: at zoom z the world is 2^z × 2^z tiles, x counted east from the
/// antimeridian and y south from the top (north-west origin).
public struct TileID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Column, 0 at the antimeridian, up to 2^z − 1 eastwards.
    public var x: Int
    /// Row, 0 at the top, up to 2^z − 1 southwards.
    public var y: Int
    /// Zoom level, 0 (one tile for the world) up.
    public var z: Int

    /// The tile at column `x`, row `y`, zoom `z`.
    public init(x: Int, y: Int, z: Int) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The tile holding `coordinate` at zoom `z` (0...30).
    public init(containing coordinate: Coordinate, zoom z: Int) {
        let count = 1 << z
        let world = WebMercator.project(coordinate, worldSize: Double(count))
        self.init(
            x: min(max(Int(world.x.rounded(.down)), 0), count - 1),
            y: min(max(Int(world.y.rounded(.down)), 0), count - 1), z: z)
    }

    /// The tile's corners.
    public var bounds: CoordinateBounds {
        let count = Double(1 << z)
        let northWest = WebMercator.unproject(WorldPoint(x: Double(x), y: Double(y)), worldSize: count)
        let southEast = WebMercator.unproject(WorldPoint(x: Double(x + 1), y: Double(y + 1)), worldSize: count)
        return CoordinateBounds(
            southWest: Coordinate(latitude: southEast.latitude, longitude: northWest.longitude),
            northEast: Coordinate(latitude: northWest.latitude, longitude: southEast.longitude))
    }

    public var description: String { "\(z)/\(x)/\(y)" }

    /// Every tile at zoom `z` that covers `bounds` (across the antimeridian too), row by row.
    public static func covering(_ bounds: CoordinateBounds, zoom z: Int) -> [TileID] {
        guard let (columns, rows) = grid(covering: bounds, zoom: z) else { return [] }
        return rows.flatMap { row in columns.map { TileID(x: $0, y: row, z: z) } }
    }

    /// How many tiles ``covering(_:zoom:)`` returns, without listing them.
    public static func count(covering bounds: CoordinateBounds, zoom z: Int) -> Int {
        guard let (columns, rows) = grid(covering: bounds, zoom: z) else { return 0 }
        return columns.count * rows.count
    }

    /// The columns (west to east, wrapping at the antimeridian) and rows covering `bounds`.
    private static func grid(covering bounds: CoordinateBounds, zoom z: Int) -> (
        columns: [Int], rows: ClosedRange<Int>
    )? {
        guard let southWest = bounds.southWest, let northEast = bounds.northEast else { return nil }
        let northWestTile = TileID(
            containing: Coordinate(latitude: northEast.latitude, longitude: southWest.longitude), zoom: z)
        let southEastTile = TileID(
            containing: Coordinate(latitude: southWest.latitude, longitude: northEast.longitude), zoom: z)
        let count = 1 << z
        let columns =
            bounds.crossesAntimeridian
            ? Array(northWestTile.x..<count) + Array(0...southEastTile.x)
            : Array(northWestTile.x...max(northWestTile.x, southEastTile.x))
        return (columns, northWestTile.y...southEastTile.y)
    }
}
