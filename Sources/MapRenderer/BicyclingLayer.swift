import CairoKit
import GeoCore
import MapCore
import MapData

/// The bicycling layer's legend: one colour and line a kind of way, in the light and the dark
/// scheme. Dedicated tracks dark green and solid, lanes lighter green, friendly streets and
/// shared or designated ways dashed green, trails dashed brown, cycle routes a wide translucent
/// band under them, ways closed to bicycles faded.
public struct BicyclingPalette: Sendable, Equatable {
    /// Dedicated cycle tracks (solid).
    public var track: Color
    /// Cycle lanes on the road (solid, lighter).
    public var lane: Color
    /// Cycle streets, designated paths, shared lanes.
    public var friendly: Color
    /// Mountain-bike and unpaved trails.
    public var trail: Color
    /// Cycle route relations, as a band under the ways.
    public var route: Color
    /// Laid over ways closed to bicycles.
    public var fade: Color
    /// Bicycle parking and shops, from zoom 16.
    public var parking: Color

    /// The palette of `scheme` (`.dark`, else light).
    public static func forScheme(_ scheme: UserInterfaceStyle?) -> BicyclingPalette {
        scheme == .dark
            ? BicyclingPalette(
                track: Color(hex: 0x66BB6A), lane: Color(hex: 0xA5D6A7), friendly: Color(hex: 0x81C784),
                trail: Color(hex: 0xBCAAA4), route: Color(hex: 0x43A047, alpha: 0.35),
                fade: Color(hex: 0x202124, alpha: 0.6), parking: Color(hex: 0x66BB6A))
            : BicyclingPalette(
                track: Color(hex: 0x1B5E20), lane: Color(hex: 0x43A047), friendly: Color(hex: 0x2E7D32),
                trail: Color(hex: 0x795548), route: Color(hex: 0x2E7D32, alpha: 0.3),
                fade: Color(hex: 0xFFFFFF, alpha: 0.6), parking: Color(hex: 0x2E7D32))
    }
}

extension MapRenderer {
    /// How the bicycling layer draws a ``FeatureClass/cycling`` kind in `palette`: colour, width
    /// in points at zoom 15 and dash pattern; nil for kinds it does not draw.
    public static func cyclingLook(_ kind: String, palette: BicyclingPalette) -> (
        color: Color, width: Double, dash: [Double]
    )? {
        CyclingStyle(kind: kind)?.stroke(palette)
    }
}

/// How the bicycling layer draws one kind of ``FeatureClass/cycling`` feature.
enum CyclingStyle {
    case route(network: String), closed(highway: String), trail, shared, designated, street, lane, track

    init?(kind: String) {
        switch kind {
        case "track": self = .track
        case "lane": self = .lane
        case "street": self = .street
        case "designated": self = .designated
        case "shared": self = .shared
        case "trail": self = .trail
        case let closed where closed.hasPrefix("no:"): self = .closed(highway: String(closed.dropFirst(3)))
        case let route where route.hasPrefix("route-"): self = .route(network: String(route.dropFirst(6)))
        default: return nil
        }
    }

    /// Drawing order, bottom first: routes, faded ways, then the ways by how much they are for
    /// bicycles.
    var rank: Int {
        switch self {
        case .route: 0
        case .closed: 1
        case .trail: 2
        case .shared: 3
        case .designated: 4
        case .street: 5
        case .lane: 6
        case .track: 7
        }
    }

    /// Colour, width at zoom 15 and dash pattern in `palette`.
    func stroke(_ palette: BicyclingPalette) -> (color: Color, width: Double, dash: [Double]) {
        switch self {
        case .route: (palette.route, 9, [])
        // Over the road as wide as the road map draws it.
        case .closed(let highway): (palette.fade, RoadStyle(kind: highway)?.width ?? 2, [])
        case .trail: (palette.trail, 2.2, [5, 3])
        case .shared: (palette.friendly, 2, [2, 3])
        case .designated: (palette.friendly, 2.2, [6, 3])
        case .street: (palette.friendly, 3, [1, 3])
        case .lane: (palette.lane, 2.5, [])
        case .track: (palette.track, 3, [])
        }
    }
}

extension MapRenderer {
    /// The bicycling layer's lines over the roads: cycle routes, faded closed ways, trails,
    /// friendly ways, lanes and tracks (see ``BicyclingPalette``).
    func drawBicycling(_ painter: inout Painter, scene: Scene, zoom: Double, scheme: UserInterfaceStyle?) {
        let palette = BicyclingPalette.forScheme(scheme)
        let ways = scene.local(.cycling).compactMap { feature in
            CyclingStyle(kind: feature.kind).map { (feature, $0) }
        }.filter { zoom >= ZoomRules.cycling($0.0.kind) }.sorted { ($0.1.rank, $0.0.id) < ($1.1.rank, $1.0.id) }
        for (feature, style) in ways {
            let stroke = style.stroke(palette)
            painter.stroke(feature, stroke.color, width: Self.width(stroke.width, zoom: zoom), dash: stroke.dash)
        }
    }

    /// The bicycling layer's labels: cycle routes' refs from zoom 12, bicycle parking, rental and
    /// shops from zoom 16, in the layer's green.
    func placeBicycling(
        _ placer: inout LabelPlacer, scene: Scene, zoom: Double, projection: Projection, scheme: UserInterfaceStyle?
    ) {
        let palette = BicyclingPalette.forScheme(scheme)
        if zoom >= 12 {
            for feature in scene.local(.cycling) where feature.kind.hasPrefix("route-") {
                guard let ref = feature.name else { continue }
                // The first free place, from the middle of the route in view outwards.
                for point in Self.labelPoints(of: feature.geometry, in: projection).prefix(12)
                where placer.placeIcon(
                    ref, at: projection.point(for: point), look: LabelLook(icon: palette.track, palette: placer.palette)
                ) {
                    break
                }
            }
        }
        guard zoom >= ZoomRules.pointsOfInterest else { return }
        let kinds: [String: String] = [
            "amenity=bicycle_parking": "P", "amenity=bicycle_rental": "R", "shop=bicycle": "S",
        ]
        for feature in scene.local(.poi) {
            guard let mark = kinds[feature.kind], let anchor = feature.geometry.anchor else { continue }
            placer.placeIcon(
                feature.name ?? mark, at: projection.point(for: anchor),
                look: LabelLook(icon: palette.parking, palette: placer.palette))
        }
    }

    /// Where a route's label may go: its points and segment midpoints in view, the middle one
    /// first and then outwards (a long route's first point is usually far away).
    static func labelPoints(of geometry: Geometry, in projection: Projection) -> [Coordinate] {
        let lines: [[Coordinate]]
        switch geometry {
        case .line(let points): lines = [points]
        case .lines(let all): lines = all
        case .point, .polygon: return geometry.anchor.map { [$0] } ?? []
        }
        var candidates: [Coordinate] = []
        for points in lines {
            for (index, point) in points.enumerated() {
                candidates.append(point)
                guard index + 1 < points.count else { continue }
                let next = points[index + 1]
                candidates.append(
                    Coordinate(
                        latitude: (point.latitude + next.latitude) / 2,
                        longitude: (point.longitude + next.longitude) / 2))
            }
        }
        candidates = candidates.filter { projection.contains($0) }
        let middle = candidates.count / 2
        return candidates.indices.sorted { abs($0 - middle) < abs($1 - middle) }.map { candidates[$0] }
    }
}
