import CairoKit
import GeoCore
import MapCore
import MapData

/// Draws the map's controls at the frames MapCore lays out (so padding moves them): the
/// compass, zoom buttons, My Location button, logo and attribution.
struct ControlPainter {
    let canvas: Canvas
    let palette: MapPalette

    /// Short credits by source kind, for the attribution line.
    static let credits: [SourceKind: String] = [
        .osm: "© OpenStreetMap contributors", .basemap: "GSHHG, NASA", .gazetteer: "GeoNames",
    ]
    /// Shorter forms for narrow maps.
    static let shortCredits = ["© OpenStreetMap contributors": "© OpenStreetMap"]

    /// Draws every control `layout` has; the floor picker lists `floors` (top first) with
    /// `activeFloor` highlighted.
    func draw(
        _ layout: ControlLayout, bearing: Double, credits: [String], floors: [IndoorLevel] = [],
        activeFloor: IndoorLevel? = nil
    ) {
        if let compass = layout.compass { drawCompass(in: compass, bearing: bearing) }
        if let picker = layout.floorPicker, !floors.isEmpty {
            drawFloorPicker(in: picker, floors: floors, active: activeFloor)
        }
        if let zoom = layout.zoomButtons { drawZoomButtons(in: zoom) }
        if let button = layout.myLocationButton { drawMyLocationButton(in: button) }
        let logo = TextLayout("OpenMaps", font: "Noto Sans Bold", size: 12, on: canvas)
        logo.draw(
            x: layout.logo.origin.x, y: layout.logo.origin.y + layout.logo.size.height - logo.logicalBox.height,
            color: palette.label, halo: palette.labelHalo, haloWidth: 1.5)
        // The attribution fits between the logo and its frame's right edge: shortened, then
        // in a smaller type (down to 6 points), then wrapped, rising from the bottom.
        let frame = layout.attribution
        let room = frame.origin.x + frame.size.width - (layout.logo.origin.x + logo.logicalBox.width + 8)
        var text = TextLayout(credits.joined(separator: " · "), size: 9, on: canvas)
        if text.logicalBox.width > room {
            let short = credits.map { Self.shortCredits[$0] ?? $0 }.joined(separator: " · ")
            text = TextLayout(short, size: 9, on: canvas)
            if text.logicalBox.width > room, room > 0 {
                text = TextLayout(
                    short, size: max(6, 9 * room / text.logicalBox.width), maxWidth: max(room, 40), on: canvas)
            }
        }
        let box = text.logicalBox
        text.draw(
            x: frame.origin.x + frame.size.width - box.width, y: frame.origin.y + frame.size.height - box.height,
            color: palette.label, halo: palette.labelHalo, haloWidth: 1.5)
    }

    /// A white disc with a needle pointing to north (red half north).
    private func drawCompass(in frame: Rect, bearing: Double) {
        let radius = min(frame.size.width, frame.size.height) / 2
        let x = frame.origin.x + frame.size.width / 2
        let y = frame.origin.y + frame.size.height / 2
        button(circleAt: x, y, radius: radius)
        canvas.save()
        canvas.translate(x: x, y: y)
        canvas.rotate(radians: -bearing * .pi / 180)
        for (tip, color) in [
            (-radius * 0.7, Color(hex: 0xEA4335)), (radius * 0.7, Color(hex: 0x9AA0A6)),
        ] {
            canvas.move(x: -radius * 0.18, y: 0)
            canvas.line(x: 0, y: tip)
            canvas.line(x: radius * 0.18, y: 0)
            canvas.closePath()
            canvas.fill(color)
        }
        canvas.restore()
    }

    /// Two stacked square buttons, + above −.
    private func drawZoomButtons(in frame: Rect) {
        let half = frame.size.height / 2
        for (index, plus) in [true, false].enumerated() {
            let top = frame.origin.y + Double(index) * half
            canvas.rectangle(x: frame.origin.x, y: top, width: frame.size.width, height: half)
            canvas.fill(.white, keepPath: true)
            canvas.stroke(Color(hex: 0xDADCE0), width: 1)
            let x = frame.origin.x + frame.size.width / 2
            let y = top + half / 2
            canvas.move(x: x - 7, y: y)
            canvas.line(x: x + 7, y: y)
            if plus {
                canvas.move(x: x, y: y - 7)
                canvas.line(x: x, y: y + 7)
            }
            canvas.stroke(Color(hex: 0x5F6368), width: 2, cap: .butt)
        }
    }

    /// A column of floor buttons, at most three, centred on the active floor, which is
    /// highlighted; chevrons say when more floors lie above or below.
    private func drawFloorPicker(in frame: Rect, floors: [IndoorLevel], active: IndoorLevel?) {
        let activeIndex = active.flatMap { floors.firstIndex(of: $0) } ?? 0
        let first = min(max(activeIndex - 1, 0), max(floors.count - 3, 0))
        let shown = Array(floors[first..<min(first + 3, floors.count)])
        let rowHeight = frame.size.height / 3
        for (row, floor) in shown.enumerated() {
            let top = frame.origin.y + Double(row) * rowHeight
            let isActive = floor == active
            canvas.rectangle(x: frame.origin.x, y: top, width: frame.size.width, height: rowHeight)
            canvas.fill(isActive ? Color(hex: 0xE8F0FE) : .white, keepPath: true)
            canvas.stroke(Color(hex: 0xDADCE0), width: 1)
            let text = TextLayout(
                floor.shortName ?? floor.name, font: isActive ? "Noto Sans Bold" : "Noto Sans", size: 13, on: canvas)
            let box = text.logicalBox
            text.draw(
                x: frame.origin.x + (frame.size.width - box.width) / 2, y: top + (rowHeight - box.height) / 2,
                color: isActive ? Color(hex: 0x1A73E8) : Color(hex: 0x3C4043))
        }
        let x = frame.origin.x + frame.size.width - 8
        if first > 0 {
            canvas.move(x: x - 3, y: frame.origin.y + 6)
            canvas.line(x: x, y: frame.origin.y + 3)
            canvas.line(x: x + 3, y: frame.origin.y + 6)
            canvas.stroke(Color(hex: 0x5F6368), width: 1.2)
        }
        if first + shown.count < floors.count {
            let bottom = frame.origin.y + Double(shown.count) * rowHeight
            canvas.move(x: x - 3, y: bottom - 6)
            canvas.line(x: x, y: bottom - 3)
            canvas.line(x: x + 3, y: bottom - 6)
            canvas.stroke(Color(hex: 0x5F6368), width: 1.2)
        }
    }

    /// A white round button with a blue target.
    private func drawMyLocationButton(in frame: Rect) {
        let x = frame.origin.x + frame.size.width / 2
        let y = frame.origin.y + frame.size.height / 2
        button(circleAt: x, y, radius: min(frame.size.width, frame.size.height) / 2)
        canvas.circle(x: x, y: y, radius: 7)
        canvas.stroke(Painter.myLocationBlue, width: 2)
        canvas.circle(x: x, y: y, radius: 3)
        canvas.fill(Painter.myLocationBlue)
    }

    private func button(circleAt x: Double, _ y: Double, radius: Double) {
        canvas.circle(x: x, y: y, radius: radius)
        canvas.fill(.white, keepPath: true)
        canvas.stroke(Color(hex: 0xDADCE0), width: 1)
    }
}
