import Foundation
import GeoCore

extension MapView {
    /// The overlays in draw order: non-markers first, then markers; higher zIndex later
    /// (on top); equal zIndex keeps insertion order.
    public var overlaysInDrawOrder: [Overlay] {
        overlays.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element.drawOrder, rhs.element.drawOrder)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Where an overlay is drawn on screen, points.
    public func frame(of overlay: Overlay) -> Rect {
        let projection = projection
        switch overlay {
        case .marker(let marker):
            let anchor = projection.point(for: marker.position)
            return Rect(
                x: anchor.x - marker.groundAnchor.x * marker.iconSize.width,
                y: anchor.y - marker.groundAnchor.y * marker.iconSize.height, width: marker.iconSize.width,
                height: marker.iconSize.height)
        case .polyline(let polyline):
            return boundingRect(polyline.path.map(projection.point(for:)))
        case .polygon(let polygon):
            return boundingRect(polygon.path.map(projection.point(for:)))
        case .groundOverlay(let ground):
            guard let southWest = ground.bounds.southWest, let northEast = ground.bounds.northEast else { return .zero }
            return boundingRect([
                projection.point(for: southWest), projection.point(for: northEast),
                projection.point(for: Coordinate(latitude: southWest.latitude, longitude: northEast.longitude)),
                projection.point(for: Coordinate(latitude: northEast.latitude, longitude: southWest.longitude)),
            ])
        case .circle(let circle):
            let center = projection.point(for: circle.center)
            let radius = projection.points(forMeters: circle.radius, at: circle.center)
            return Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
        }
    }

    /// One element per titled overlay whose frame meets the padded region, top to bottom
    /// then left to right; none while ``accessibilityElementsHidden`` (the default).
    public var accessibilityElements: [AccessibilityElement] {
        guard !accessibilityElementsHidden else { return [] }
        let inset = effectivePadding
        let region = Rect(
            x: inset.left, y: inset.top, width: frame.size.width - inset.left - inset.right,
            height: frame.size.height - inset.top - inset.bottom)
        let elements: [AccessibilityElement] = overlays.compactMap { overlay in
            guard let title = overlay.title else { return nil }
            let frame = frame(of: overlay)
            guard intersects(frame, region) else { return nil }
            var value: String?
            if case .marker(let marker) = overlay { value = marker.snippet }
            return AccessibilityElement(label: title, value: value, frame: frame)
        }
        return elements.sorted {
            ($0.frame.origin.y, $0.frame.origin.x) < ($1.frame.origin.y, $1.frame.origin.x)
        }
    }

    /// The tiles a tile layer needs for the current view: the XYZ zoom that shows them near
    /// their natural size, over the visible region's bounding box.
    public func visibleTiles(tileSize: Int = 256) -> [TileID] {
        let region = projection.visibleRegion
        let corners = [region.nearLeft, region.nearRight, region.farLeft, region.farRight]
        let bounds = corners.dropFirst().reduce(CoordinateBounds(corners[0], corners[0])) { $0.including($1) }
        let zoom = Int((camera.zoom + log2(256 / Double(tileSize))).rounded(.down))
        return TileID.covering(bounds, zoom: max(0, zoom))
    }

    private func boundingRect(_ points: [Point]) -> Rect {
        guard let first = points.first else { return .zero }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points.dropFirst() {
            minX = min(minX, point.x)
            minY = min(minY, point.y)
            maxX = max(maxX, point.x)
            maxY = max(maxY, point.y)
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    private func intersects(_ a: Rect, _ b: Rect) -> Bool {
        a.origin.x <= b.origin.x + b.size.width && b.origin.x <= a.origin.x + a.size.width
            && a.origin.y <= b.origin.y + b.size.height && b.origin.y <= a.origin.y + a.size.height
    }
}
