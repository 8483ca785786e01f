import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

/// Places labels on a canvas so that none overlaps another: place names at points, street
/// names along their streets, POI names beside their icons. Whatever is placed first wins
/// the space, so callers place the most important labels first.
struct LabelPlacer {
    let canvas: Canvas
    let palette: MapPalette
    /// Boxes already taken by labels and icons, points.
    private(set) var taken: [TextLayout.Box] = []
    /// The text of every label placed, in order.
    private(set) var placed: [String] = []
    /// Where each street name was placed, so that one name is not repeated too close.
    private var streetNamePoints: [String: [Point]] = [:]
    /// The texts laid out so far, by font, size and text: a street's name is asked for once
    /// a way of it, and shaping it again each time costs more than drawing it.
    private var layouts: [String: TextLayout] = [:]

    /// A placer for `canvas` whose labels keep clear of `reserved` boxes (the controls).
    init(canvas: Canvas, palette: MapPalette, reserved: [TextLayout.Box] = []) {
        self.canvas = canvas
        self.palette = palette
        taken = reserved
    }

    /// Empty space kept around each POI's name, points.
    static let poiMargin = 4.0

    /// Minimum distance between two labels of the same street, points.
    static let streetNameSpacing = 300.0

    /// `text` laid out in `look`'s font and size, shaped once a placer.
    private mutating func layout(of text: String, look: LabelLook) -> TextLayout {
        let key = "\(look.font)\u{1F}\(look.size)\u{1F}\(text)"
        if let known = layouts[key] { return known }
        let layout = TextLayout(text, font: look.font, size: look.size, on: canvas)
        layouts[key] = layout
        return layout
    }

    /// True when `box` lies inside the canvas and meets no taken box.
    func isFree(_ box: TextLayout.Box) -> Bool {
        box.x >= 0 && box.y >= 0 && box.x + box.width <= canvas.width && box.y + box.height <= canvas.height
            && !taken.contains { $0.overlaps(box) }
    }

    /// A name centred on `point` in `look`, if it fits; true when placed.
    @discardableResult
    mutating func place(_ text: String, centredAt point: Point, look: LabelLook) -> Bool {
        let layout = layout(of: text, look: look)
        let box = layout.logicalBox
        let x = point.x - box.width / 2
        let y = point.y - box.height / 2
        let frame = TextLayout.Box(x: x - 2, y: y - 2, width: box.width + 4, height: box.height + 4)
        guard isFree(frame) else { return false }
        taken.append(frame)
        layout.draw(x: x, y: y, color: look.color, halo: look.halo, haloWidth: look.haloWidth)
        placed.append(text)
        return true
    }

    /// A POI or a stop: the round icon of `look` at `point` with its name to the right (or left
    /// when the right is taken or off the picture); true when placed. Nothing is drawn unless
    /// both fit.
    @discardableResult
    mutating func placeIcon(_ text: String, at point: Point, look: LabelLook) -> Bool {
        let radius = MapRenderer.iconRadius
        let icon = TextLayout.Box(
            x: point.x - radius - 1, y: point.y - radius - 1, width: 2 * radius + 2, height: 2 * radius + 2)
        guard isFree(icon) else { return false }
        let layout = layout(of: text, look: look)
        let box = layout.logicalBox
        let y = point.y - box.height / 2
        let candidates = [point.x + LabelLook.iconGap, point.x - LabelLook.iconGap - box.width]
        let margin = Self.poiMargin
        func frame(_ x: Double) -> TextLayout.Box {
            TextLayout.Box(x: x - margin, y: y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin)
        }
        guard let x = candidates.first(where: { isFree(frame($0)) }) else { return false }
        taken.append(icon)
        taken.append(frame(x))
        MapRenderer.drawIcon(on: canvas, x: point.x, y: point.y, color: look.icon ?? look.color)
        layout.draw(x: x, y: y, color: look.color, halo: look.halo, haloWidth: look.haloWidth)
        placed.append(text)
        return true
    }

    /// A street name along `line` (projected points), read left to right, centred at the
    /// middle of the line or else 30 % or 70 % along it: the first place where the line turns
    /// less than 36° under the text, the space is free, and no label of the same name lies
    /// within ``streetNameSpacing``; true when placed.
    @discardableResult
    mutating func place(_ text: String, along line: [Point], look: LabelLook) -> Bool {
        guard line.count >= 2 else { return false }
        let layout = layout(of: text, look: look)
        let width = layout.logicalBox.width
        let height = layout.logicalBox.height
        var guide = MeasuredPath(line.map { (x: $0.x, y: $0.y) })
        guard guide.length >= width + 2 * height else { return false }
        // Text reads left to right: reverse lines that run right to left at their middle.
        if guide.position(at: guide.length / 2).dx < 0 { guide = MeasuredPath(guide.points.reversed()) }
        for fraction in [0.5, 0.3, 0.7] {
            let start = guide.length * fraction - width / 2
            guard start >= height / 2, start + width <= guide.length - height / 2 else { continue }
            let middle = guide.position(at: start + width / 2)
            let centre = Point(x: middle.x, y: middle.y)
            if let earlier = streetNamePoints[text],
                earlier.contains(where: { hypot($0.x - centre.x, $0.y - centre.y) < Self.streetNameSpacing })
            {
                return false
            }
            guard Self.turning(of: guide, from: start, to: start + width) < .pi / 5 else { continue }
            // Square boxes one text-height apart along the label stand for its outline.
            let boxes = stride(from: start, through: start + width, by: height / 2).map { distance in
                let at = guide.position(at: distance)
                return TextLayout.Box(x: at.x - height / 2, y: at.y - height / 2, width: height, height: height)
            }
            guard boxes.allSatisfy(isFree) else { continue }
            taken += boxes
            layout.draw(
                along: guide.points, start: start, color: look.color, halo: look.halo, haloWidth: look.haloWidth)
            streetNamePoints[text, default: []].append(centre)
            placed.append(text)
            return true
        }
        return false
    }

    /// The largest change of direction, radians, between the start of a stretch of `guide`
    /// and any point along it (sampled every 4 points).
    static func turning(of guide: MeasuredPath, from start: Double, to end: Double) -> Double {
        let first = guide.position(at: start)
        let heading = atan2(first.dy, first.dx)
        var largest = 0.0
        for distance in stride(from: start, through: end, by: 4) {
            let at = guide.position(at: distance)
            var change = abs(atan2(at.dy, at.dx) - heading)
            if change > .pi { change = 2 * .pi - change }
            largest = max(largest, change)
        }
        return largest
    }
}

extension Color {
    /// The colour mixed with white: `amount` 0 (unchanged) to 1 (white).
    func lightened(by amount: Double) -> Color {
        Color(
            red: red + (1 - red) * amount, green: green + (1 - green) * amount, blue: blue + (1 - blue) * amount,
            alpha: alpha)
    }

    /// True for colours darker than mid-grey (Rec. 709 luma below 0.5).
    var isDark: Bool { 0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.5 }

    /// The colour mixed with black: `amount` 0 (unchanged) to 1 (black).
    func darkened(by amount: Double) -> Color {
        Color(
            red: red * (1 - amount), green: green * (1 - amount), blue: blue * (1 - amount), alpha: alpha)
    }
}

extension MapRenderer {
    /// The radius of a point of interest's or a stop's icon: 5 points (and its white outline).
    public static let iconRadius = 5.0

    /// Draws the icon of a point of interest or a stop centred at (`x`, `y`): a dot of `color`
    /// with a white outline, as the map and the vector styles' sprite show it.
    public static func drawIcon(on canvas: Canvas, x: Double, y: Double, color: Color) {
        canvas.circle(x: x, y: y, radius: iconRadius)
        canvas.fill(color, keepPath: true)
        canvas.stroke(.white, width: 1.2)
    }
}

extension POICategory {
    /// The icon's colour, on the map and in the vector styles' sprite.
    public var color: Color {
        switch self {
        case .sight: Color(hex: 0x12A4AF)
        case .lodging: Color(hex: 0xE0457B)
        case .food: Color(hex: 0xE8710A)
        case .shop: Color(hex: 0x4B6FD6)
        case .health: Color(hex: 0xD93025)
        case .other: Color(hex: 0x7B8088)
        }
    }
}
