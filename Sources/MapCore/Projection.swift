import Foundation
import GeoCore

/// The four corners of what a map shows inside its padding; a trapezoid under tilt, with
/// the short "near" edge at the bottom.
public struct VisibleRegion: Sendable, Hashable, Codable {
    /// The bottom-left corner of the padded region, on the ground.
    public var nearLeft: Coordinate
    /// The bottom-right corner of the padded region, on the ground.
    public var nearRight: Coordinate
    /// The top-left corner of the padded region, on the ground (farther away under tilt).
    public var farLeft: Coordinate
    /// The top-right corner of the padded region, on the ground (farther away under tilt).
    public var farRight: Coordinate
}

/// Screen point ↔ coordinate for one camera, view size and padding: a snapshot that keeps
/// mapping with the camera it was made for.
///
/// Model: Web Mercator world of 256·2^zoom points; the camera target is drawn at the
/// principal point, the centre of the padded region; bearing rotates the ground; tilt looks
/// at the ground in perspective from 1.5 × the view height away (a vertical field of view of
/// 2·atan(1/3) ≈ 36.87°, as MapLibre). Points are relative to the whole view, padding
/// included.
public struct Projection: Sendable {
    /// The camera the projection was made for.
    public let camera: CameraPosition
    /// The whole view's size, points.
    public let viewSize: Size
    /// The padding in effect (negative edges count as zero).
    public let padding: EdgeInsets

    /// Where the camera target is drawn: the centre of the padded region.
    public let principalPoint: Point
    private let worldSize: Double
    private let targetWorld: WorldPoint
    private let cosBearing: Double
    private let sinBearing: Double
    private let sinTilt: Double
    private let cosTilt: Double
    /// Camera-to-target distance in points (1.5 × view height).
    private let distance: Double

    /// The projection of `camera` in a view of `viewSize` points, the target at the centre of what `padding` leaves.
    public init(camera: CameraPosition, viewSize: Size, padding: EdgeInsets = .zero) {
        self.camera = camera
        self.viewSize = viewSize
        let padding = padding.clampedToZero
        self.padding = padding
        principalPoint = Point(
            x: viewSize.width / 2 + (padding.left - padding.right) / 2,
            y: viewSize.height / 2 + (padding.top - padding.bottom) / 2)
        worldSize = WebMercator.worldSize(zoom: camera.zoom)
        targetWorld = WebMercator.project(camera.target, worldSize: worldSize)
        let bearing = camera.bearing * .pi / 180
        cosBearing = cos(bearing)
        sinBearing = sin(bearing)
        let tilt = camera.viewingAngle * .pi / 180
        sinTilt = sin(tilt)
        cosTilt = cos(tilt)
        distance = 1.5 * viewSize.height
    }

    /// The screen point of `coordinate`, using the world copy nearest the camera target.
    ///
    /// Under tilt, a coordinate behind the horizon has no screen point; the result then has
    /// non-finite components.
    @inline(__always)
    public func point(for coordinate: Coordinate) -> Point {
        point(forWorld: WebMercator.project(coordinate, worldSize: 256))
    }

    /// The screen point of a world point given at zoom 0 (a 256-point world), the form a
    /// renderer keeps its geometry in: no trigonometry per point, only the camera transform.
    @inline(__always)
    public func point(forWorld world: WorldPoint) -> Point {
        let scale = worldSize / 256
        var dx = world.x * scale - targetWorld.x
        if abs(dx) > worldSize / 2 { dx -= worldSize * (dx / worldSize).rounded() }
        return screenPoint(dx: dx, dy: world.y * scale - targetWorld.y)
    }

    /// The screen points of a line or ring, kept continuous: the first point on the world copy
    /// nearest the camera target, each next one on the copy nearest its predecessor, so a
    /// shape crossing the antimeridian or wider than half the world is never torn apart.
    public func points(forPath coordinates: [Coordinate]) -> [Point] {
        groundPath(coordinates).map { screenPoint(dx: $0.x, dy: $0.y) }
    }

    /// The screen points of a line or ring, cut to the ground in front of the camera: under
    /// tilt, the parts of a path nearer than 1 % of the camera's distance (or behind it) have
    /// no screen point, so they are cut away on the ground before the perspective, and the
    /// rest keeps its shape (a continent whose far side lies behind the camera still fills
    /// the land in view). A ring stays one ring; a line may fall into several pieces.
    /// Without tilt the path comes back whole, as ``points(forPath:)`` gives it.
    public func clippedPoints(forPath coordinates: [Coordinate], closed: Bool) -> [[Point]] {
        let ground = groundPath(coordinates)
        guard sinTilt != 0 else { return [ground.map { screenPoint(dx: $0.x, dy: $0.y) }] }
        // In the view's frame: u across, v down the screen; depth = distance − v·sin(tilt).
        let limit = distance * 0.99 / sinTilt
        let rotated = ground.map {
            Point(x: $0.x * cosBearing + $0.y * sinBearing, y: -$0.x * sinBearing + $0.y * cosBearing)
        }
        func crossing(_ a: Point, _ b: Point) -> Point {
            let t = (limit - a.y) / (b.y - a.y)
            return Point(x: a.x + (b.x - a.x) * t, y: limit)
        }
        var pieces: [[Point]] = []
        if closed {
            guard var previous = rotated.last else { return [] }
            var ring: [Point] = []
            for point in rotated {
                if (point.y <= limit) != (previous.y <= limit) { ring.append(crossing(previous, point)) }
                if point.y <= limit { ring.append(point) }
                previous = point
            }
            pieces = [ring]
        } else {
            var piece: [Point] = []
            for (index, point) in rotated.enumerated() {
                if index > 0, (point.y <= limit) != (rotated[index - 1].y <= limit) {
                    piece.append(crossing(rotated[index - 1], point))
                    if point.y > limit {
                        pieces.append(piece)
                        piece = []
                    }
                }
                if point.y <= limit { piece.append(point) }
            }
            pieces.append(piece)
        }
        return pieces.filter { $0.count > 1 }.map { piece in
            piece.map { screenPoint(u: $0.x, v: $0.y) }
        }
    }

    /// A path's offsets from the camera target in world points at this zoom (x east, y
    /// south), kept continuous (each point on the world copy nearest its predecessor), the
    /// whole path on the copy whose span in longitude is nearest the target: a continent's
    /// ring that starts at the antimeridian is not drawn a world away from the view.
    private func groundPath(_ coordinates: [Coordinate]) -> [Point] {
        guard let first = coordinates.first else { return [] }
        let scale = worldSize / 256
        // Continuous x in zoom-0 points, then the copy (a multiple of 256) nearest the target.
        var previous = WebMercator.project(first, worldSize: 256).x
        var shift = 0.0
        var west = Double.infinity
        var east = -Double.infinity
        let projected = coordinates.map { coordinate in
            var world = WebMercator.project(coordinate, worldSize: 256)
            if world.x - previous > 128 { shift -= 256 } else if previous - world.x > 128 { shift += 256 }
            previous = world.x
            world.x += shift
            west = min(west, world.x)
            east = max(east, world.x)
            return world
        }
        let target = targetWorld.x / scale
        func distance(_ copy: Double) -> Double { max(west + copy - target, target - east - copy, 0) }
        let middle = ((target - (west + east) / 2) / 256).rounded() * 256
        let copy = [middle, middle - 256, middle + 256].min { distance($0) < distance($1) } ?? middle
        return projected.map { world in
            Point(x: (world.x + copy) * scale - targetWorld.x, y: world.y * scale - targetWorld.y)
        }
    }

    /// The screen points of a line or ring `meters` above the ground (a roof's outline), on
    /// the same world copies as ``points(forPath:)``. Looking straight down, height changes
    /// nothing but the scale; under tilt, higher points rise up the screen. Points at or
    /// beyond the camera's plane have non-finite components.
    public func points(forPath coordinates: [Coordinate], altitude meters: Double) -> [Point] {
        guard meters != 0, let first = coordinates.first else { return points(forPath: coordinates) }
        let height = meters / WebMercator.metersPerPoint(latitude: first.latitude, zoom: camera.zoom)
        let ground = points(forPath: coordinates)
        return ground.map { point in
            // Undo the ground projection to the offset along the view, then raise it.
            let (dx, dy) = groundOffset(for: point)
            return screenPoint(dx: dx, dy: dy, height: height)
        }
    }

    /// The screen point at an offset from the target in world points at the camera's zoom,
    /// `height` world points above the ground (toward the camera when looking straight down).
    @inline(__always)
    private func screenPoint(dx: Double, dy: Double, height: Double = 0) -> Point {
        screenPoint(u: dx * cosBearing + dy * sinBearing, v: -dx * sinBearing + dy * cosBearing, height: height)
    }

    /// The screen point of a ground offset already turned into the view's frame (`u` across,
    /// `v` down the screen, world points at this zoom), `height` world points above the ground.
    @inline(__always)
    private func screenPoint(u: Double, v: Double, height: Double = 0) -> Point {
        guard sinTilt != 0 || height != 0 else { return Point(x: principalPoint.x + u, y: principalPoint.y + v) }
        // The ground's down-screen axis turns by the tilt: (cos t, −sin t) in (screen y, depth);
        // the up axis is perpendicular to it: (−sin t, −cos t).
        let depth = distance - v * sinTilt - height * cosTilt
        guard depth > 0 else { return Point(x: .nan, y: .nan) }
        let perspective = distance / depth
        return Point(
            x: principalPoint.x + u * perspective, y: principalPoint.y + (v * cosTilt - height * sinTilt) * perspective)
    }

    /// The coordinate drawn at `point`; the exact inverse of ``point(for:)``. Points above
    /// the horizon map to the far edge of the world (latitude ±85.0511°).
    public func coordinate(for point: Point) -> Coordinate {
        let (dx, dy) = groundOffset(for: point)
        let world = WorldPoint(x: targetWorld.x + dx, y: min(max(targetWorld.y + dy, 0), worldSize))
        let raw = WebMercator.unproject(world, worldSize: worldSize)
        return Coordinate(latitude: raw.latitude, longitude: CameraPosition.wrapLongitude(raw.longitude))
    }

    /// The world-space offset (points at this zoom, x east, y south) from the camera target to
    /// the ground drawn at `point`. It depends on zoom, bearing, tilt and padding, not on the
    /// target, which is what keeps a focus point fixed while zooming.
    func groundOffset(for point: Point) -> (dx: Double, dy: Double) {
        let sx = point.x - principalPoint.x
        let sy = point.y - principalPoint.y
        var u = sx
        var v = sy
        if sinTilt != 0 {
            let denominator = max(distance * cosTilt + sy * sinTilt, distance * 1e-9)
            v = sy * distance / denominator
            u = sx * (distance - v * sinTilt) / distance
        }
        return (u * cosBearing - v * sinBearing, u * sinBearing + v * cosBearing)
    }

    /// The corners of the padded region as coordinates.
    public var visibleRegion: VisibleRegion {
        let left = padding.left
        let right = viewSize.width - padding.right
        let top = padding.top
        let bottom = viewSize.height - padding.bottom
        return VisibleRegion(
            nearLeft: coordinate(for: Point(x: left, y: bottom)),
            nearRight: coordinate(for: Point(x: right, y: bottom)),
            farLeft: coordinate(for: Point(x: left, y: top)),
            farRight: coordinate(for: Point(x: right, y: top)))
    }

    /// True when `coordinate` is drawn inside the padded region (never under the padding).
    public func contains(_ coordinate: Coordinate) -> Bool {
        let point = point(for: coordinate)
        return point.x >= padding.left && point.x <= viewSize.width - padding.right && point.y >= padding.top
            && point.y <= viewSize.height - padding.bottom
    }

    /// How many points `meters` of ground span at `coordinate` at this camera's zoom.
    public func points(forMeters meters: Double, at coordinate: Coordinate) -> Double {
        meters / WebMercator.metersPerPoint(latitude: coordinate.latitude, zoom: camera.zoom)
    }
}
