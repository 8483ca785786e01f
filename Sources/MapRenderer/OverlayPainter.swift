import CairoKit
import Foundation
import GeoCore
import MapCore

extension Painter {
    /// Draws a map view's overlays in MapCore's draw order: shapes, then markers (default pins
    /// with their titles beside them). A ground overlay's `icon` is the path of a PNG or JPEG
    /// file; one that cannot be read is left out and named in the report. Polyline style spans
    /// draw in the line's own colour.
    mutating func drawOverlays(of view: MapView, label: Color, halo: Color) {
        let selected = view.selectedMarker.flatMap { index -> Marker? in
            if case .marker(let marker) = view.overlays[index] { return marker }
            return nil
        }
        for overlay in view.overlaysInDrawOrder {
            switch overlay {
            case .polyline(let line):
                addPath(line.path, close: false)
                canvas.stroke(line.strokeColor, width: line.strokeWidth, dash: line.pattern)
            case .polygon(let polygon):
                for ring in [polygon.path] + polygon.holes { addPath(ring, close: true) }
                paint(fill: polygon.fillColor, stroke: polygon.strokeColor, width: polygon.strokeWidth)
            case .circle(let circle):
                let ring = stride(from: 0.0, through: 360, by: 5).map {
                    circle.center.destination(meters: circle.radius, bearing: $0)
                }
                addPath(ring, close: true)
                paint(fill: circle.fillColor, stroke: circle.strokeColor, width: circle.strokeWidth)
            case .marker(let marker):
                // A numbered pin's title shows in its info window only (the numbers follow the list).
                drawPin(marker, label: label, halo: halo, titled: marker != selected && marker.glyph == nil)
            case .groundOverlay(let overlay):
                guard drawGroundOverlay(overlay) else { continue }
            }
            report.overlays += 1
        }
        if let selected { drawInfoWindow(of: selected) }
    }

    /// The selected marker's info window above its pin, as the SDK shows it: the title in
    /// bold over the snippet, in a white box with a pointer down to the pin.
    private func drawInfoWindow(of marker: Marker) {
        let tip = projection.point(for: marker.position)
        // Only for a pin in the picture: a window pointing outside it would point at nothing.
        guard tip.x >= 0, tip.x <= canvas.width, tip.y >= 0, tip.y <= canvas.height, let title = marker.title,
            !title.isEmpty
        else { return }
        let maxWidth = min(260, canvas.width - 16)
        let heading = TextLayout(title, font: "Noto Sans Bold", size: 12, maxWidth: maxWidth, on: canvas)
        let snippet = marker.snippet.flatMap {
            $0.isEmpty ? nil : TextLayout($0, size: 11, maxWidth: maxWidth, on: canvas)
        }
        let padding = 8.0
        let width = max(heading.logicalBox.width, snippet?.logicalBox.width ?? 0) + 2 * padding
        let height = heading.logicalBox.height + (snippet.map { $0.logicalBox.height + 2 } ?? 0) + 2 * padding
        let pinTop = tip.y - marker.groundAnchor.y * marker.iconSize.height
        let bottom = pinTop - 8
        let left = min(max(tip.x - width / 2, 4), canvas.width - width - 4)
        let top = bottom - height
        canvas.rectangle(x: left, y: top, width: width, height: height)
        canvas.move(x: tip.x - 7, y: bottom)
        canvas.line(x: tip.x, y: bottom + 7)
        canvas.line(x: tip.x + 7, y: bottom)
        canvas.closePath()
        canvas.fill(.white, keepPath: true)
        canvas.stroke(Color(white: 0.6), width: 0.75)
        let ink = Color(white: 0.13)
        heading.draw(x: left + padding, y: top + padding, color: ink)
        snippet?.draw(x: left + padding, y: top + padding + heading.logicalBox.height + 2, color: Color(white: 0.35))
    }

    /// The My Location dot when the view has a location: blue in a white ring, over the
    /// accuracy circle (its radius in metres on the ground, so it follows zoom and tilt) and,
    /// when the heading is known, a beam fanning out the way the device faces.
    func drawMyLocation(of view: MapView) {
        guard view.isMyLocationEnabled, let location = view.myLocation else { return }
        let point = projection.point(for: location)
        guard point.x.isFinite, point.y.isFinite else { return }
        if let accuracy = view.myLocationAccuracy, accuracy > 0 {
            let ring = stride(from: 0.0, to: 360, by: 5).map { location.destination(meters: accuracy, bearing: $0) }
            addPath(ring, close: true)
            canvas.fill(Self.myLocationBlue.withAlpha(0.15), keepPath: true)
            canvas.stroke(Self.myLocationBlue.withAlpha(0.5), width: 1)
        }
        if let heading = view.myLocationHeading {
            // A 60° fan of 28 points, turned by the heading less the map's bearing.
            let angle = (heading - view.camera.bearing) * .pi / 180
            let spread = 30.0 * .pi / 180
            canvas.move(x: point.x, y: point.y)
            for step in 0...12 {
                let a = angle - spread + 2 * spread * Double(step) / 12
                canvas.line(x: point.x + 28 * sin(a), y: point.y - 28 * cos(a))
            }
            canvas.closePath()
            canvas.fill(Self.myLocationBlue.withAlpha(0.35))
        } else {
            canvas.circle(x: point.x, y: point.y, radius: 18)
            canvas.fill(Self.myLocationBlue.withAlpha(0.18))
        }
        canvas.circle(x: point.x, y: point.y, radius: 8)
        canvas.fill(.white)
        canvas.circle(x: point.x, y: point.y, radius: 6)
        canvas.fill(Self.myLocationBlue)
    }

    /// A ground overlay's image laid on the ground over its bounds (linear in Web Mercator, as
    /// the SDK lays it), turned by its bearing about its anchor, at its opacity; drawn pixel by
    /// pixel, so tilt and map bearing work. False when there is nothing to draw.
    mutating func drawGroundOverlay(_ overlay: GroundOverlay) -> Bool {
        guard let path = overlay.icon, let southWest = overlay.bounds.southWest,
            let northEast = overlay.bounds.northEast
        else { return false }
        let image: RasterImage
        do { image = try rasters.image(at: path) } catch {
            report.missingImages.append(path)
            return false
        }
        // The bounds in zoom-0 world points, the east edge unwrapped past the antimeridian.
        let northWest = WebMercator.project(
            Coordinate(latitude: northEast.latitude, longitude: southWest.longitude), worldSize: 256)
        let southEast = WebMercator.project(
            Coordinate(latitude: southWest.latitude, longitude: northEast.longitude), worldSize: 256)
        let east = southEast.x < northWest.x ? southEast.x + 256 : southEast.x
        let width = east - northWest.x
        let height = southEast.y - northWest.y
        guard width > 0, height > 0 else { return false }
        let anchor = WorldPoint(
            x: northWest.x + overlay.anchor.x * width, y: northWest.y + overlay.anchor.y * height)
        let angle = overlay.bearing * .pi / 180
        let (cosine, sine) = (cos(angle), sin(angle))
        let opacity = min(max(overlay.opacity, 0), 1)
        let projection = self.projection
        do {
            try canvas.paintPixels { x, y in
                let coordinate = projection.coordinate(for: Point(x: x, y: y))
                var world = WebMercator.project(coordinate, worldSize: 256)
                // The world copy nearest the anchor.
                world.x -= 256 * ((world.x - anchor.x) / 256).rounded()
                // Undo the overlay's clockwise turn about its anchor.
                let dx = world.x - anchor.x
                let dy = world.y - anchor.y
                let u = (anchor.x + dx * cosine + dy * sine - northWest.x) / width
                let v = (anchor.y - dx * sine + dy * cosine - northWest.y) / height
                guard u >= 0, u <= 1, v >= 0, v <= 1 else { return nil }
                var pixel = image.sample(u: u, v: v)
                pixel.alpha = UInt8((Double(pixel.alpha) * opacity).rounded())
                return pixel
            }
        } catch {
            return false
        }
        return true
    }

    /// The My Location dot's blue.
    static let myLocationBlue = Color(hex: 0x4285F4)

    private func paint(fill: Color?, stroke: Color?, width: Double) {
        if let fill { canvas.fill(fill, keepPath: stroke != nil) }
        if let stroke { canvas.stroke(stroke, width: width) } else if fill == nil { canvas.clearPath() }
    }

    /// The default pin: a red drop of `iconSize` points whose tip (by default, the ground
    /// anchor at the bottom centre) sits on the marker's position, with a dark centre or its
    /// glyph; its title beside it unless its info window shows it (`titled` false).
    /// A flat marker, as the SDK lays one on the map: a dot `iconSize.width` across in its
    /// colour with a white ring, and a pointer out of it towards its `rotation` (degrees
    /// clockwise from north, turned with the camera) where that is not 0 (360 points north).
    private func drawFlat(_ marker: Marker, at centre: Point) {
        let radius = marker.iconSize.width / 2
        let fill = (marker.color ?? Color(hex: 0x1A73E8)).withAlpha(marker.opacity)
        if marker.rotation != 0 {
            let angle = (marker.rotation - projection.camera.bearing) * .pi / 180
            let (sine, cosine) = (sin(angle), cos(angle))
            func at(_ along: Double, _ across: Double) -> (Double, Double) {
                (centre.x + along * sine + across * cosine, centre.y - along * cosine + across * sine)
            }
            let (tipX, tipY) = at(radius * 1.9, 0)
            let (leftX, leftY) = at(radius * 0.5, -radius * 0.8)
            let (rightX, rightY) = at(radius * 0.5, radius * 0.8)
            canvas.move(x: tipX, y: tipY)
            canvas.line(x: leftX, y: leftY)
            canvas.line(x: rightX, y: rightY)
            canvas.closePath()
            canvas.fill(Self.shade(fill, 0.7, alpha: marker.opacity))
        }
        canvas.circle(x: centre.x, y: centre.y, radius: radius)
        canvas.fill(fill, keepPath: true)
        canvas.stroke(Color.white.withAlpha(marker.opacity), width: max(1.5, radius / 3))
    }

    private func drawPin(_ marker: Marker, label: Color, halo: Color, titled: Bool) {
        let tip = projection.point(for: marker.position)
        guard tip.x.isFinite, tip.y.isFinite else { return }
        if marker.isFlat { return drawFlat(marker, at: tip) }
        let width = marker.iconSize.width
        let height = marker.iconSize.height
        let left = tip.x - marker.groundAnchor.x * width
        let top = tip.y - marker.groundAnchor.y * height
        let radius = width / 2
        let centre = (x: left + radius, y: top + radius)
        let tipX = left + width / 2
        let tipY = top + height
        canvas.move(x: tipX, y: tipY)
        canvas.curve(
            x1: tipX - radius * 0.2, y1: tipY - height * 0.3, x2: left, y2: centre.y + radius * 0.9, x: left,
            y: centre.y)
        canvas.curve(
            x1: left, y1: centre.y - radius * 1.33, x2: left + width, y2: centre.y - radius * 1.33, x: left + width,
            y: centre.y)
        canvas.curve(
            x1: left + width, y1: centre.y + radius * 0.9, x2: tipX + radius * 0.2, y2: tipY - height * 0.3, x: tipX,
            y: tipY)
        canvas.closePath()
        let opacity = marker.opacity
        let fill = marker.color ?? Color(hex: 0xEA4335)
        canvas.fill(Color(red: fill.red, green: fill.green, blue: fill.blue, alpha: opacity), keepPath: true)
        canvas.stroke(
            marker.color.map { Self.shade($0, 0.7, alpha: opacity) } ?? Color(hex: 0xB31412, alpha: opacity),
            width: 1)
        if let glyph = marker.glyph, !glyph.isEmpty {
            let layout = TextLayout(glyph, font: "Noto Sans Bold", size: 11, on: canvas)
            let box = layout.logicalBox
            layout.draw(
                x: centre.x - box.width / 2, y: centre.y - box.height / 2, color: Color(white: 1, alpha: opacity))
        } else {
            canvas.circle(x: centre.x, y: centre.y, radius: radius * 0.35)
            canvas.fill(
                marker.color.map { Self.shade($0, 0.45, alpha: opacity) } ?? Color(hex: 0x7A0C0C, alpha: opacity))
        }
        if titled, let title = marker.title, !title.isEmpty {
            let layout = TextLayout(title, font: "Noto Sans Bold", size: 12, on: canvas)
            // Right of the pin, or left of it when the right would run off the picture.
            let textWidth = layout.logicalBox.width
            let x = left + width + 3 + textWidth <= canvas.width ? left + width + 3 : left - 3 - textWidth
            layout.draw(x: x, y: centre.y - layout.logicalBox.height / 2, color: label, halo: halo, haloWidth: 1.5)
        }
    }

    /// `color` darkened to `factor` (0...1) of its brightness, at `alpha`.
    private static func shade(_ color: Color, _ factor: Double, alpha: Double) -> Color {
        Color(red: color.red * factor, green: color.green * factor, blue: color.blue * factor, alpha: alpha)
    }
}
