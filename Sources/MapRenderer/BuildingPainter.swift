import CairoKit
import GeoCore
import MapCore
import MapData

extension Painter {
    /// Default building height when OSM gives neither `height` nor `building:levels`, metres.
    static let defaultBuildingHeight = 10.0
    /// Height of one storey, metres.
    static let storeyHeight = 3.2

    /// Buildings extruded to their heights under a tilted camera: farthest first, each with
    /// its walls far to near (shaded by the way they face) and its roof on top, so nearer
    /// buildings hide what is behind them.
    mutating func drawExtruded(_ buildings: [MapStore.Feature], palette: MapPalette) {
        var solids: [(depth: Double, walls: [[Point]], roof: [[Point]])] = []
        for building in buildings {
            guard case .polygon(let rings) = building.geometry, let outer = rings.first, outer.count >= 3 else {
                continue
            }
            let height = building.height ?? building.levels.map { $0 * Self.storeyHeight } ?? Self.defaultBuildingHeight
            let base = projection.points(forPath: outer)
            let top = projection.points(forPath: outer, altitude: height)
            guard base.allSatisfy({ $0.y.isFinite }), top.allSatisfy({ $0.y.isFinite }) else { continue }
            // Screen y grows toward the camera, so the larger the y, the nearer.
            let walls = (0..<outer.count).map { index -> [Point] in
                let next = (index + 1) % outer.count
                return [base[index], base[next], top[next], top[index]]
            }.sorted { ($0[0].y + $0[1].y) < ($1[0].y + $1[1].y) }
            let roof = rings.map { projection.points(forPath: $0, altitude: height) }
            let depth = base.map(\.y).reduce(0, +) / Double(base.count)
            solids.append((depth, walls, roof))
        }
        let box = ClipBox(width: canvas.width, height: canvas.height, margin: 64)
        for solid in solids.sorted(by: { $0.depth < $1.depth }) {
            // Skip buildings wholly off the picture.
            guard solid.roof.first.map({ !box.clip(ring: $0).isEmpty }) ?? false else { continue }
            for wall in solid.walls {
                // Light from the upper left: walls whose outward edge runs left-to-right on
                // screen face the viewer and take the darker shade.
                let shade = wall[1].x >= wall[0].x ? 0.22 : 0.12
                addPath(points: wall, close: true)
                canvas.fill(palette.building.darkened(by: shade), evenOdd: false, keepPath: true)
                canvas.stroke(palette.buildingOutline, width: 0.4)
            }
            for ring in solid.roof { addPath(points: ring, close: true) }
            canvas.fill(palette.building, keepPath: true)
            canvas.stroke(palette.buildingOutline, width: 0.5)
            report.features[.building, default: 0] += 1
        }
    }
}
