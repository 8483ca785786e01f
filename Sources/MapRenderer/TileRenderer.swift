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

    /// The renderer, its place names in the style's language.
    public let renderer: MapRenderer
    /// How the tiles are drawn: map type, scheme, layers, language and pixel density. The
    /// traffic layer is drawn when the style asks for it and the renderer has a feed.
    public let style: TileStyle

    /// Tiles drawn by `renderer` (its names set to the style's language) in `style`.
    public init(renderer: MapRenderer, style: TileStyle = TileStyle()) {
        var renderer = renderer
        renderer.language = style.language
        self.renderer = renderer
        self.style = style
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
        view.mapType = style.mapType
        view.overrideUserInterfaceStyle = style.style
        view.isTrafficEnabled = style.traffic && !renderer.traffic.levels.isEmpty
        view.isTransitEnabled = style.transit
        view.isBicyclingEnabled = style.bicycling
        return view
    }

    /// The PNG bytes of every tile of `block` (``tileSize`` × the style's scale pixels a side).
    public func render(_ block: Metatile) throws -> [RenderedTile] {
        guard Self.zooms.contains(block.zoom) else {
            throw RenderError(
                .unsupported,
                message: "tile zoom \(block.zoom) is outside \(Self.zooms.lowerBound)...\(Self.zooms.upperBound)")
        }
        let drawn = Self.drawnBlock(for: block)
        let (canvas, _) = try renderer.render(mapView(for: drawn), scale: Double(style.scale), controls: false)
        let size = Double(Self.tileSize)
        return try block.tiles.map { tile in
            let png = try canvas.encodedPNG(
                x: Double(tile.x - drawn.columns.lowerBound) * size, y: Double(tile.y - drawn.rows.lowerBound) * size,
                width: size, height: size)
            return RenderedTile(tile: tile, png: png)
        }
    }
}
