import Foundation
import GeoCore
import MapCore

/// Projection throughput on one core for a tilted, rotated, padded camera over Helsinki:
/// coordinates (Mercator trigonometry per point) and zoom-0 world points (the renderer's
/// inner loop, geometry kept pre-projected).
enum ProjectionBench {
    static func run(seconds: Double) {
        let camera = CameraPosition(
            target: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: 15, bearing: 37, viewingAngle: 50)
        let projection = Projection(
            camera: camera, viewSize: Size(width: 1024, height: 768),
            padding: EdgeInsets(top: 40, left: 0, bottom: 120, right: 300))
        var random = SplitMix(state: 7)
        let coordinates = (0..<65_536).map { _ in
            Coordinate(
                latitude: 60.15 + Double(random.below(40_000)) / 1_000_000,
                longitude: 24.90 + Double(random.below(80_000)) / 1_000_000)
        }
        let worldPoints = coordinates.map { WebMercator.project($0, zoom: 0) }
        let coordinateRate = bestRate(seconds: seconds) {
            var sum = 0.0
            for coordinate in coordinates {
                let point = projection.point(for: coordinate)
                sum += point.x + point.y
            }
            return Int(truncatingIfNeeded: sum.bitPattern)
        }.passesPerSecond
        let worldRate = bestRate(seconds: seconds) {
            var sum = 0.0
            for world in worldPoints {
                let point = projection.point(forWorld: world)
                sum += point.x + point.y
            }
            return Int(truncatingIfNeeded: sum.bitPattern)
        }.passesPerSecond
        print("projection, one core, 65,536 points, zoom 15, bearing 37, tilt 50, padded (best of 3)")
        print(String(format: "  coordinates → screen   %12.0f points/s", coordinateRate * Double(coordinates.count)))
        print(String(format: "  world points → screen  %12.0f points/s", worldRate * Double(worldPoints.count)))
    }
}
