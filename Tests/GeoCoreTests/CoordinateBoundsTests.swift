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
}
