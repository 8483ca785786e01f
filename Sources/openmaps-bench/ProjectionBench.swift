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
        let coordinateRate = rate(seconds: seconds) { () -> Double in
            var sum = 0.0
            for coordinate in coordinates {
                let point = projection.point(for: coordinate)
                sum += point.x + point.y
            }
            return sum
        }
        let worldRate = rate(seconds: seconds) { () -> Double in
            var sum = 0.0
            for world in worldPoints {
                let point = projection.point(forWorld: world)
                sum += point.x + point.y
            }
            return sum
        }
        print("projection, one core, 65,536 points, zoom 15, bearing 37, tilt 50, padded (best of 3)")
        print(String(format: "  coordinates → screen   %12.0f points/s", coordinateRate * Double(coordinates.count)))
        print(String(format: "  world points → screen  %12.0f points/s", worldRate * Double(worldPoints.count)))
    }

    /// Passes per second of `body`, best of three rounds.
    private static func rate(seconds: Double, _ body: () -> Double) -> Double {
        var best = 0.0
        var sink = 0.0
        for _ in 0..<3 {
            let clock = ContinuousClock()
            let start = clock.now
            var passes = 0
            while clock.now - start < .milliseconds(Int(seconds * 1000 / 3)) {
                sink += body()
                passes += 1
            }
            let elapsed = clock.now - start
            let spent = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = max(best, Double(passes) / spent)
        }
        if sink == .infinity { print(sink) }
        return best
    }
}
