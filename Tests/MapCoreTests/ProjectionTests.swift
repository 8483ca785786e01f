import GeoCore
import MapCore
import Testing

/// Sections 0, C and L of the map view specification: Web Mercator, padding, projection,
/// visible region, fitBounds, with the golden vectors.
@Suite struct ProjectionTests {
    let view = Size(width: 1000, height: 1000)
    let sanFrancisco = Coordinate(latitude: 37.7833, longitude: -122.4167)

    func projection(_ latitude: Double, _ longitude: Double, zoom: Double, padding: EdgeInsets = .zero) -> Projection {
        Projection(
            camera: CameraPosition(target: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom),
            viewSize: view, padding: padding)
    }

    @Test func metersPerPointAndZoomForMeters() {  // items 0.4, 110
        #expect(abs(WebMercator.metersPerPoint(latitude: 0, zoom: 0) - 156_543.0339) < 1e-4)
        #expect(abs(WebMercator.metersPerPoint(latitude: 0, zoom: 10) - 152.8741) < 1e-4)
        #expect(abs(WebMercator.metersPerPoint(latitude: 0, zoom: 21) - 0.0746455) < 1e-7)
        #expect(abs(WebMercator.zoom(latitude: 0, meters: 1, points: 1) - 17.256200) < 1e-6)
    }

    @Test func goldenSanFranciscoAtZoom2() {  // item 103
        let point = projection(0, 0, zoom: 2).point(for: sanFrancisco)
        #expect(abs(point.x - 151.7925) < 1e-4 && abs(point.y - 383.7672) < 1e-4)
    }

    @Test func pathsStayContinuousAcrossTheAntimeridianAndAroundTheWorld() {
        let crossing = [
            Coordinate(latitude: 10, longitude: 170), Coordinate(latitude: 10, longitude: -170),
            Coordinate(latitude: 20, longitude: -160),
        ]
        let projected = projection(10, 175, zoom: 4).points(forPath: crossing)
        // 20° of longitude at zoom 4 is 256·16·20/360 ≈ 227.6 points, in one step to the right.
        #expect(abs(projected[1].x - projected[0].x - 4096 * 20 / 360) < 1e-6)
        #expect(projected[0] == projection(10, 175, zoom: 4).point(for: crossing[0]))
        // A ring wider than half the world at zoom 2 (a 1024-point world) is not torn apart:
        // every step is short, though point(for:) alone would jump a whole world.
        let band = stride(from: -180.0, through: 180, by: 30).map { Coordinate(latitude: 0, longitude: $0) }
        let points = projection(0, 0, zoom: 2).points(forPath: band)
        #expect(zip(points, points.dropFirst()).allSatisfy { abs($1.x - $0.x - 1024.0 / 12) < 1e-6 })
        #expect(projection(10, 175, zoom: 4).points(forPath: []).isEmpty)
    }

    @Test func aRingStartingAtTheAntimeridianIsDrawnOnTheCopyOverTheView() {
        // Eurasia's shoreline as the world layers give it: from Chukotka on the antimeridian
        // west to Spain and back. Seen from Gibraltar, Spain is on screen, not a world away.
        let ring = [
            (69.0, 180.0), (65.0, 180.0), (40.0, 120.0), (36.0, -5.6), (43.0, -9.5), (70.0, 60.0), (69.0, 180.0),
        ].map { Coordinate(latitude: $0.0, longitude: $0.1) }
        let gibraltar = projection(36.0, -5.5, zoom: 8)
        let points = gibraltar.points(forPath: ring)
        #expect(abs(points[3].x - gibraltar.point(for: ring[3]).x) < 1e-6)
        #expect(abs(points[3].x - 500) < 100 && abs(points[3].y - 500) < 100)
        // Continuous still: the first point is 185.5° east of the view, not 174.5° west.
        #expect(points[0].x - points[3].x > 0)
    }

    @Test func goldenNearestWorldCopy() {  // item 104
        #expect(abs(projection(0, 179, zoom: 2).point(for: sanFrancisco).x - 666.6369) < 1e-4)
        #expect(abs(projection(0, -181, zoom: 2).point(for: sanFrancisco).x - 666.6369) < 1e-4)
    }

    @Test func goldenAcrossTheAntimeridian() {  // item 105
        let point = projection(-16.9310, 180.0213, zoom: 11).point(
            for: Coordinate(latitude: -16.9310, longitude: 179.9787))
        #expect(abs(point.x - 437.9593) < 1e-3 && abs(point.y - 500) < 1e-3)
    }

    @Test func goldenPaddingMovesTheTarget() {  // items 33, 106
        let plain = projection(10, -100, zoom: 11)
        let padded = projection(10, -100, zoom: 11, padding: EdgeInsets(top: 500, left: 0, bottom: 0, right: 0))
        let target = Coordinate(latitude: 10, longitude: -100)
        #expect(abs(padded.point(for: target).y - 750) < 1e-9 && abs(padded.point(for: target).x - 500) < 1e-9)
        let upper = plain.coordinate(for: Point(x: 500, y: 250))
        let moved = padded.point(for: upper)
        #expect(abs(moved.x - 500) < 1e-6 && abs(moved.y - 500) < 1e-6)
    }

    @Test func goldenPrincipalPoint() {  // items 32, 107
        let projection = Projection(
            camera: CameraPosition.camera(withLatitude: 0, longitude: 0, zoom: 5),
            viewSize: Size(width: 390, height: 844), padding: EdgeInsets(top: 50, left: 10, bottom: 10, right: 30))
        #expect(projection.principalPoint == Point(x: 390 / 2 - 10, y: 844 / 2 + 20))
    }

    @Test func bearingNinetyPutsEastAbove() {  // item 35
        let projection = Projection(
            camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 10, bearing: 90),
            viewSize: view)
        let east = projection.point(for: Coordinate(latitude: 0, longitude: 0.01))
        #expect(abs(east.x - 500) < 1e-9 && east.y < 500)
    }

    @Test func visibleRegionCoversThePaddedRegionOnly() {  // items 38, 40
        let padded = projection(0, 0, zoom: 10, padding: EdgeInsets(top: 0, left: 0, bottom: 0, right: 500))
        let region = padded.visibleRegion
        #expect(padded.point(for: region.nearRight).x.distance(to: 500) < 1e-6)
        #expect(padded.contains(padded.coordinate(for: Point(x: 250, y: 500))))
        #expect(!padded.contains(padded.coordinate(for: Point(x: 750, y: 500))))
    }

    @Test func tiltMakesATrapezoidWithTheNearEdgeShort() {  // item 39
        let projection = Projection(
            camera: CameraPosition(target: Coordinate(latitude: 60, longitude: 25), zoom: 15, viewingAngle: 45),
            viewSize: Size(width: 800, height: 600))
        let region = projection.visibleRegion
        let near = region.nearLeft.distance(to: region.nearRight)
        let far = region.farLeft.distance(to: region.farRight)
        #expect(far > near * 1.5)
    }

    @Test func worldPointsProjectLikeCoordinates() {
        let projection = Projection(
            camera: CameraPosition(
                target: Coordinate(latitude: 60, longitude: 25), zoom: 16, bearing: 30, viewingAngle: 50),
            viewSize: Size(width: 800, height: 600), padding: EdgeInsets(top: 10, left: 20, bottom: 30, right: 40))
        let coordinate = Coordinate(latitude: 60.001, longitude: 25.002)
        let viaWorld = projection.point(forWorld: WebMercator.project(coordinate, zoom: 0))
        let direct = projection.point(for: coordinate)
        #expect(abs(viaWorld.x - direct.x) < 1e-9 && abs(viaWorld.y - direct.y) < 1e-9)
    }

    @Test func pointsForMeters() {  // item 42
        let projection = projection(0, 0, zoom: 10)
        #expect(abs(projection.points(forMeters: 152.8741, at: Coordinate(latitude: 0, longitude: 0)) - 1) < 1e-5)
    }

    /// Property: point → coordinate → point within 1e-6 points for seeded random cameras
    /// (zoom 2–21, any bearing, tilt up to the ceiling, random padding, views up to 2000 points
    /// but never wider than the ground they show can be without wrapping around the world).
    @Test func seededRandomCamerasRoundTrip() {
        var state: UInt64 = 0x5EED
        func random(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        var worst = 0.0
        var tested = 0
        for _ in 0..<3000 {
            let zoom = random(2...21)
            let camera = CameraPosition(
                target: Coordinate(latitude: random(-80...80), longitude: random(-180...180)), zoom: zoom,
                bearing: random(0...360), viewingAngle: random(0...CameraPosition.maxViewingAngle(atZoom: zoom)))
            // Views up to 1/16 of the world: a tilted view sees up to about 12 view heights of
            // ground, and the ground it shows must not wrap around the world.
            let largest = min(2000, WebMercator.worldSize(zoom: zoom) / 16)
            let size = Size(width: random(50...largest), height: random(50...largest))
            let padding = EdgeInsets(
                top: random(0...size.height / 4), left: random(0...size.width / 4),
                bottom: random(0...size.height / 4), right: random(0...size.width / 4))
            let projection = Projection(camera: camera, viewSize: size, padding: padding)
            let point = Point(
                x: random(padding.left...(size.width - padding.right)),
                y: random(padding.top...(size.height - padding.bottom)))
            let coordinate = projection.coordinate(for: point)
            // At low zoom a large view shows space beyond the square world, which has no coordinate.
            guard abs(coordinate.latitude) < WebMercator.maxLatitude - 1e-9 else { continue }
            let back = projection.point(for: coordinate)
            worst = max(worst, abs(back.x - point.x), abs(back.y - point.y))
            tested += 1
        }
        #expect(tested > 2500)
        #expect(worst < 1e-6, "worst round-trip error \(worst) points")
    }
}

/// Items 45-50 and 100: fitting bounds, and the bounds type.
@Suite struct FitBoundsTests {
    let china = CoordinateBounds(
        southWest: Coordinate(latitude: 15.68169, longitude: 73.499857),
        northEast: Coordinate(latitude: 53.560711, longitude: 134.77281))

    func mapView(width: Double = 256, height: Double = 256) -> MapView {
        let mapView = MapView(options: MapViewOptions())
        mapView.frame = Rect(x: 0, y: 0, width: width, height: height)
        return mapView
    }

    @Test func goldenFit() throws {  // items 46, 108
        let camera = try #require(mapView().camera(for: china))
        #expect(abs(camera.zoom - 2.554675) < 1e-5)
        #expect(abs(camera.target.latitude - 36.917708) < 1e-5)
        #expect(abs(camera.target.longitude - 104.136333) < 1e-5)
        #expect(camera.bearing == 0 && camera.viewingAngle == 0)
    }

    @Test func mapPaddingAndInsetsAddUp() throws {  // item 46
        let padded = mapView(width: 1000, height: 800)
        padded.padding = EdgeInsets(top: 100, left: 0, bottom: 0, right: 0)
        let camera = try #require(
            padded.camera(for: china, insets: EdgeInsets(top: 50, left: 50, bottom: 50, right: 50)))
        padded.camera = camera
        let projection = padded.projection
        let southWest = projection.point(for: china.southWest!)
        let northEast = projection.point(for: china.northEast!)
        // The tighter dimension touches the inset edges exactly; the bounds stay inside both paddings.
        #expect(southWest.x >= 50 - 1e-6 && northEast.x <= 950 + 1e-6)
        #expect(northEast.y >= 150 - 1e-6 && southWest.y <= 750 + 1e-6)
        #expect(abs(southWest.y - 750) < 1e-6 || abs(southWest.x - 50) < 1e-6)
    }

    @Test func tooMuchPaddingZoomsAllTheWayOut() throws {  // item 47
        let view = mapView()
        let camera = try #require(view.camera(for: china, insets: EdgeInsets(top: 200, left: 0, bottom: 200, right: 0)))
        #expect(camera.zoom == view.effectiveMinZoom)
    }

    @Test func invalidBoundsOrZeroFrameGiveNoCamera() {  // items 48, 50
        #expect(mapView().camera(for: CoordinateBounds()) == nil)
        #expect(MapView(options: MapViewOptions()).camera(for: china) == nil)
    }

    @Test func fitUpdateDefaultsTo64PointInsets() throws {  // item 45
        let view = mapView(width: 1000, height: 1000)
        view.moveCamera(.fit(china))
        #expect(view.camera == view.camera(for: china, insets: EdgeInsets(top: 64, left: 64, bottom: 64, right: 64)))
    }

    @Test func boundsAcrossTheAntimeridian() {  // items 49, 100
        let pacific = CoordinateBounds(
            Coordinate(latitude: -20, longitude: 170), Coordinate(latitude: -10, longitude: -170))
        #expect(pacific.crossesAntimeridian)
        #expect(pacific.longitudeSpan == 20)
        #expect(pacific.contains(Coordinate(latitude: -15, longitude: 179)))
        #expect(!pacific.contains(Coordinate(latitude: -15, longitude: 0)))
        #expect(pacific.contains(Coordinate(latitude: -10, longitude: -170)))  // edges are inside
    }

    @Test func emptyBoundsGrowToExactlyWhatIsIncluded() {  // item 100
        let empty = CoordinateBounds()
        #expect(!empty.isValid)
        let point = Coordinate(latitude: 1, longitude: 2)
        let grown = empty.including(point)
        #expect(grown.southWest == point && grown.northEast == point)
        #expect(empty.including(china) == china)
        #expect(
            china.intersects(
                CoordinateBounds(Coordinate(latitude: 50, longitude: 130), Coordinate(latitude: 60, longitude: 140))))
        #expect(
            !china.intersects(
                CoordinateBounds(Coordinate(latitude: -50, longitude: 0), Coordinate(latitude: -40, longitude: 10))))
    }
}

@Suite struct AltitudeTests {
    let ring = [
        Coordinate(latitude: 60.1700, longitude: 24.9400), Coordinate(latitude: 60.1700, longitude: 24.9410),
        Coordinate(latitude: 60.1695, longitude: 24.9410),
    ]

    @Test func groundLevelIsTheGroundProjection() {
        let projection = Projection(
            camera: CameraPosition(target: ring[0], zoom: 17, bearing: 20, viewingAngle: 45),
            viewSize: Size(width: 800, height: 600))
        for (a, b) in zip(projection.points(forPath: ring, altitude: 0), projection.points(forPath: ring)) {
            #expect(a == b)
        }
    }

    @Test func roofsRiseUpTheScreenUnderTiltAndGrowLookingDown() {
        let tilted = Projection(
            camera: CameraPosition(target: ring[0], zoom: 17, viewingAngle: 45), viewSize: Size(width: 800, height: 600)
        )
        let ground = tilted.points(forPath: ring)
        let roof = tilted.points(forPath: ring, altitude: 30)
        for (base, top) in zip(ground, roof) { #expect(top.y < base.y - 10) }
        // Straight down, a roof is the footprint scaled about the principal point by D / (D − h).
        let flat = Projection(
            camera: CameraPosition(target: ring[0], zoom: 17), viewSize: Size(width: 800, height: 600))
        let height = 30 / WebMercator.metersPerPoint(latitude: ring[0].latitude, zoom: 17)
        let scale = 900 / (900 - height)
        for (base, top) in zip(flat.points(forPath: ring), flat.points(forPath: ring, altitude: 30)) {
            #expect(abs((top.x - 400) - (base.x - 400) * scale) < 1e-6)
            #expect(abs((top.y - 300) - (base.y - 300) * scale) < 1e-6)
        }
    }
}

/// Paths cut on the ground to what lies in front of a tilted camera.
@Suite struct GroundClippingTests {
    let camera = CameraPosition(
        target: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 17, bearing: 40, viewingAngle: 60)
    let size = Size(width: 320, height: 200)

    @Test func aContinentWhoseFarSideIsBehindTheCameraStaysOneFiniteRing() {
        let projection = Projection(camera: camera, viewSize: size)
        // A ring around the target reaching thousands of kilometres in every direction.
        let ring = [(50.0, 10.0), (50.0, 40.0), (70.0, 40.0), (70.0, 10.0), (50.0, 10.0)].map {
            Coordinate(latitude: $0.0, longitude: $0.1)
        }
        #expect(projection.points(forPath: ring).contains { !$0.x.isFinite })
        let pieces = projection.clippedPoints(forPath: ring, closed: true)
        #expect(pieces.count == 1)
        #expect(pieces[0].allSatisfy { $0.x.isFinite && $0.y.isFinite })
        // The view's centre lies inside what is left (ray casting, even-odd).
        let centre = projection.principalPoint
        var inside = false
        for (a, b) in zip(pieces[0], pieces[0].dropFirst() + [pieces[0][0]])
        where (a.y > centre.y) != (b.y > centre.y) && centre.x < a.x + (b.x - a.x) * (centre.y - a.y) / (b.y - a.y) {
            inside.toggle()
        }
        #expect(inside)
    }

    @Test func aLineThroughTheCameraFallsIntoPiecesAndFlatViewsKeepPathsWhole() {
        let projection = Projection(camera: camera, viewSize: size)
        let line = [(60.17, 24.94), (20.0, -20.0), (60.18, 24.95)].map { Coordinate(latitude: $0.0, longitude: $0.1) }
        let pieces = projection.clippedPoints(forPath: line, closed: false)
        #expect(pieces.count == 2 && pieces.allSatisfy { $0.allSatisfy { $0.x.isFinite && $0.y.isFinite } })
        let flat = Projection(
            camera: CameraPosition(target: camera.target, zoom: 17, bearing: 40), viewSize: size)
        #expect(flat.clippedPoints(forPath: line, closed: false) == [flat.points(forPath: line)])
    }
}
