import GeoCore
import Testing

/// Latitude/longitude rectangles.
@Suite struct CoordinateBoundsTests {
    @Test func theWorldHoldsEveryCoordinateAndDoesNotCrossTheAntimeridian() {
        let world = CoordinateBounds.world
        #expect(world.isValid && !world.crossesAntimeridian)
        for (latitude, longitude) in [(-90.0, -180.0), (90, 180), (0, 0), (60.17, 24.94), (-33.9, 151.2)] {
            #expect(world.contains(Coordinate(latitude: latitude, longitude: longitude)))
        }
        #expect(
            world.intersects(
                CoordinateBounds(
                    southWest: .init(latitude: 10, longitude: 170), northEast: .init(latitude: 20, longitude: -170))))
    }

    @Test func destinationsLieAtTheirDistanceAndBearing() {
        let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)
        for bearing in stride(from: 0.0, to: 360, by: 45) {
            let point = helsinki.destination(meters: 1_000, bearing: bearing)
            #expect(abs(helsinki.distance(to: point) - 1_000) < 1e-6)
        }
        let north = helsinki.destination(meters: 10_000, bearing: 0)
        #expect(abs(north.longitude - helsinki.longitude) < 1e-9 && north.latitude > helsinki.latitude)
        // Across the antimeridian, the longitude wraps.
        #expect(Coordinate(latitude: 0, longitude: 179.99).destination(meters: 5_000, bearing: 90).longitude < -179)
    }

    @Test func boundsAcrossTheAntimeridianSplitIntoTwoHalves() {
        let pacific = CoordinateBounds(
            southWest: Coordinate(latitude: -10, longitude: 170), northEast: Coordinate(latitude: 10, longitude: -170))
        #expect(
            pacific.antimeridianHalves == [
                CoordinateBounds(
                    southWest: Coordinate(latitude: -10, longitude: 170),
                    northEast: Coordinate(latitude: 10, longitude: 180)),
                CoordinateBounds(
                    southWest: Coordinate(latitude: -10, longitude: -180),
                    northEast: Coordinate(latitude: 10, longitude: -170)),
            ])
        #expect(CoordinateBounds.world.antimeridianHalves == [.world])
        #expect(CoordinateBounds().antimeridianHalves.isEmpty)
    }
}
