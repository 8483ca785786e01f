import GeoCore
import Testing

/// The flat frame around a point that snapping and reverse geocoding measure in.
@Suite struct LocalPlaneTests {
    /// Helsinki's Senate Square, at 60° north, where a degree of longitude is about half one
    /// of latitude.
    let origin = Coordinate(latitude: 60.1695, longitude: 24.9525)

    @Test func positionsAreMetresEastAndNorthAgreeingWithTheGreatCircle() {
        let plane = LocalPlane(around: origin)
        let north = origin.destination(meters: 500, bearing: 0)
        let east = origin.destination(meters: 500, bearing: 90)
        #expect(abs(plane.point(north).y - 500) < 2 && abs(plane.point(north).x) < 0.01)
        #expect(abs(plane.point(east).x - 500) < 2 && abs(plane.point(east).y) < 0.1)
    }

    @Test func theNearestPointOfASegmentIsItsFootOrItsNearerEnd() {
        let plane = LocalPlane(around: origin)
        // A street 100 m north, running 200 m west to east across the origin's meridian.
        let west = origin.destination(meters: 100, bearing: 0).destination(meters: 100, bearing: 270)
        let east = origin.destination(meters: 100, bearing: 0).destination(meters: 100, bearing: 90)
        let foot = plane.nearest(onSegment: west, east)
        #expect(abs(foot.fraction - 0.5) < 0.01)
        #expect(abs(foot.metres - 100) < 1)
        #expect(abs(foot.point.longitude - origin.longitude) < 1e-5)
        // Wholly east of the origin: its west end is the nearest point.
        let farEast = east.destination(meters: 300, bearing: 90)
        let end = plane.nearest(onSegment: east, farEast)
        #expect(end.fraction == 0 && end.point == east)
        #expect(abs(end.metres - origin.distance(to: east)) < 1)
        // A segment of one point is that point.
        #expect(plane.nearest(onSegment: east, east).point == east)
    }
}
