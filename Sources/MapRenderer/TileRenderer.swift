import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

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
    /// The bicycling layer; off by default.
    public var bicycling: Bool
    /// Pixels per point: 1 for 256-pixel tiles (the default), 2 for 512-pixel (`@2x`) ones.
    public var scale: Double

    public init(
        renderer: MapRenderer, mapType: MapType = .normal, style: UserInterfaceStyle = .unspecified,
        transit: Bool = false, bicycling: Bool = false, scale: Double = 1
    ) {
        self.renderer = renderer
        self.mapType = mapType
        self.style = style
        self.transit = transit
        self.bicycling = bicycling
        self.scale = scale
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
        view.isBicyclingEnabled = bicycling
        return view
    }

    /// The PNG bytes of every tile of `block` (``tileSize`` × ``scale`` pixels a side).
    public func render(_ block: Metatile) throws -> [(tile: TileID, png: [UInt8])] {
        guard Self.zooms.contains(block.zoom) else {
            throw RenderError(
                .unsupported,
                message: "tile zoom \(block.zoom) is outside \(Self.zooms.lowerBound)...\(Self.zooms.upperBound)")
        }
        let drawn = Self.drawnBlock(for: block)
        let (canvas, _) = try renderer.render(mapView(for: drawn), scale: scale, controls: false)
        let size = Double(Self.tileSize)
        return try block.tiles.map { tile in
            let png = try canvas.encodedPNG(
                x: Double(tile.x - drawn.columns.lowerBound) * size, y: Double(tile.y - drawn.rows.lowerBound) * size,
                width: size, height: size)
            return (tile, png)
        }
    }
}
