import CairoKit
import GeoCore
import MapData
import MapRenderer

/// The vector styles' sprite: the renderer's own icons (``MapRenderer/drawIcon(on:x:y:color:)``),
/// one a point-of-interest category (`poi-sight`, `poi-lodging`, `poi-food`, `poi-shop`,
/// `poi-health`, `poi-other`) and `station`, in a row of a PNG with the JSON index MapLibre
/// reads (`x`, `y`, `width`, `height`, `pixelRatio` of each).
public enum SpriteSheet {
    /// Each icon's cell a side, points: 14 (the dot, its outline and a point of air).
    public static let cell = 14.0

    /// The icons: name and colour, in the sheet's order.
    public static var icons: [(name: String, color: Color)] {
        POICategory.allCases.map { ("poi-\($0)", $0.color) }
            + [("station", LabelLook(.station, palette: .light).icon ?? Color(hex: 0x8C4799))]
    }

    /// The sheet at `pixelRatio` (1, or 2 for `@2x`): its PNG and its JSON index.
    /// - Throws: ``CairoError`` when the picture cannot be drawn.
    public static func sheet(pixelRatio: Int) throws(CairoError) -> (png: [UInt8], json: String) {
        let icons = Self.icons
        let canvas = try Canvas(width: cell * Double(icons.count), height: cell, scale: Double(pixelRatio))
        var index: [String: Any] = [:]
        for (position, icon) in icons.enumerated() {
            let x = Double(position) * cell
            MapRenderer.drawIcon(on: canvas, x: x + cell / 2, y: cell / 2, color: icon.color)
            index[icon.name] = [
                "x": Int(x) * pixelRatio, "y": 0, "width": Int(cell) * pixelRatio, "height": Int(cell) * pixelRatio,
                "pixelRatio": pixelRatio,
            ]
        }
        return (try canvas.encoded(), JSONText.pretty(index))
    }
}
