import CairoKit
import Foundation
import GeoCore
import MapCore

extension MapRenderer {
    /// A setting of the view the picture could not follow, said in the report.
    public enum Unapplied: Sendable, Equatable, CustomStringConvertible {
        /// A tile layer whose source is not a folder of tiles on this machine (a `{z}/{x}/{y}`
        /// path or `file://` URL): OpenMaps fetches nothing over the network.
        case tileLayerSource(String)
        /// A JSON map style: the picture is drawn in OpenMaps' own style.
        case jsonMapStyle

        /// What a person reads of it.
        public var description: String {
            switch self {
            case .tileLayerSource(let source):
                "the tile layer '\(source)' is not drawn: only tiles in files on this machine are ({z}/{x}/{y} paths)"
            case .jsonMapStyle: "the JSON map style is not applied: the map is drawn in OpenMaps' own style"
            }
        }
    }
}

extension Painter {
    /// Draws the view's tile layers, lowest ``TileLayer/zIndex`` first, over the base map and
    /// under every overlay: each from its tiles at the zoom nearest the camera's (a tile missing
    /// from its folder is left transparent), at its opacity. A source that is not local is
    /// named in the report's ``MapRenderer/Report/unapplied``.
    mutating func drawTileLayers(of view: MapView) {
        for layer in view.tileLayers.sorted(by: { $0.zIndex < $1.zIndex }) {
            guard let template = Self.localTemplate(layer.source) else {
                report.unapplied.append(.tileLayerSource(layer.source))
                continue
            }
            drawTileLayer(template: template, opacity: layer.opacity, zoom: view.camera.zoom)
        }
    }

    /// The file path template of a local tile source (`/tiles/{z}/{x}/{y}.png` or
    /// `file:///tiles/{z}/{x}/{y}.png`), nil for another.
    static func localTemplate(_ source: String) -> String? {
        let path = source.hasPrefix("file://") ? String(source.dropFirst("file://".count)) : source
        guard path.hasPrefix("/"), ["{z}", "{x}", "{y}"].allSatisfy(path.contains) else { return nil }
        return path
    }

    /// One layer's tiles at the zoom nearest `zoom` (0...22), sampled for every pixel so that
    /// bearing and tilt work as for ground overlays.
    private mutating func drawTileLayer(template: String, opacity: Double, zoom: Double) {
        let z = min(max(Int(zoom.rounded()), 0), 22)
        let count = 1 << z
        let worldSize = Double(count) * 256
        let opacity = min(max(opacity, 0), 1)
        let projection = self.projection
        let rasters = self.rasters
        var images: [TileID: RasterImage?] = [:]
        do {
            try canvas.paintPixels { x, y in
                let world = WebMercator.project(projection.coordinate(for: Point(x: x, y: y)), worldSize: worldSize)
                let column = Int((world.x / 256).rounded(.down))
                let row = Int((world.y / 256).rounded(.down))
                guard row >= 0, row < count else { return nil }
                let tile = TileID(x: ((column % count) + count) % count, y: row, z: z)
                if images[tile] == nil {
                    let path = template.replacingOccurrences(of: "{z}", with: "\(z)")
                        .replacingOccurrences(of: "{x}", with: "\(tile.x)").replacingOccurrences(
                            of: "{y}", with: "\(row)")
                    images[tile] = .some(try? rasters.image(at: path))
                }
                guard let image = images[tile] ?? nil else { return nil }
                var pixel = image.sample(
                    u: world.x / 256 - Double(column), v: world.y / 256 - Double(row))
                pixel.alpha = UInt8((Double(pixel.alpha) * opacity).rounded())
                return pixel
            }
        } catch {
            return
        }
        report.overlays += 1
    }
}
