import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import TestSupport
import Testing

@testable import MapRenderer

/// The terrain map drawn from an imported elevation model: a round hill the tests make.
@Suite struct ReliefTests {
    /// A hill 800 m high at (43.5, 7.5), round on the ground (σ 0.03° of latitude, ~3.3 km).
    static func hill(latitude: Double, longitude: Double) -> Double {
        let dy = latitude - 43.5
        let dx = (longitude - 7.5) * cos(43.5 * .pi / 180)
        return 800 * exp(-(dx * dx + dy * dy) / (2 * 0.03 * 0.03))
    }

    static let store = Result<String, any Error> {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-hill-\(UUID().uuidString).sqlite"
        ).path
        let cell = try FixtureElevation.writeHGT { row, column in
            Int(hill(latitude: 44 - Double(row) / 1200, longitude: 7 + Double(column) / 1200).rounded())
        }
        _ = try ElevationImporter.importModel(cell, into: path)
        // Its summit, named and with its height, and two more: one in feet, one unnamed.
        let summits = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-summits-\(UUID().uuidString).osm"
        ).path
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="tests">
          <node id="1" lat="43.5" lon="7.5" version="1"><tag k="natural" v="peak"/><tag k="name" v="Mont Test"/><tag k="ele" v="800"/></node>
          <node id="2" lat="43.53" lon="7.56" version="1"><tag k="natural" v="peak"/><tag k="name" v="Cima Piede"/><tag k="ele" v="1312 ft"/></node>
          <node id="3" lat="43.47" lon="7.45" version="1"><tag k="natural" v="peak"/><tag k="ele" v="212.4"/></node>
        </osm>
        """.write(toFile: summits, atomically: true, encoding: .utf8)
        _ = try OSMImporter.importFile(summits, into: path, region: "summits")
        return path
    }

    static func terrain(_ center: Coordinate, zoom: Double) throws -> (MapView, Canvas) {
        let (view, canvas, _) = try terrainWithReport(center, zoom: zoom)
        return (view, canvas)
    }

    static func terrainWithReport(_ center: Coordinate, zoom: Double) throws -> (MapView, Canvas, MapRenderer.Report) {
        let view = try MapsApp().answer("comgooglemaps://?center=\(center.latitude),\(center.longitude)&zoom=\(zoom)")
            .mapView
        view.mapType = .terrain
        let (canvas, report) = try MapRenderer(store: try MapStore(path: try store.get())).render(view, controls: false)
        return (view, canvas, report)
    }

    static func brightness(_ canvas: Canvas, _ point: Point) -> Double {
        guard let pixel = canvas.pixel(x: Int(point.x), y: Int(point.y)) else { return 0 }
        return (Double(pixel.red) + Double(pixel.green) + Double(pixel.blue)) / 3
    }

    @Test func slopesFacingTheNorthWestAreLit() throws {
        let centre = Coordinate(latitude: 43.5, longitude: 7.5)
        let (view, canvas) = try Self.terrain(centre, zoom: 12)
        // Points on the hill's flanks at the same height, one each way.
        let offset = 0.03
        let longitudeOffset = offset / cos(43.5 * .pi / 180)
        let northWest = view.projection.point(
            for: Coordinate(latitude: 43.5 + offset / 2.squareRoot(), longitude: 7.5 - longitudeOffset / 2.squareRoot())
        )
        let southEast = view.projection.point(
            for: Coordinate(latitude: 43.5 - offset / 2.squareRoot(), longitude: 7.5 + longitudeOffset / 2.squareRoot())
        )
        let lit = Self.brightness(canvas, northWest)
        let shaded = Self.brightness(canvas, southEast)
        #expect(lit > shaded * 1.15, "north-west flank \(lit), south-east flank \(shaded)")
    }

    @Test func contoursLieWhereTheHeightsSay() throws {
        let (view, canvas) = try Self.terrain(Coordinate(latitude: 43.5, longitude: 7.5), zoom: 12)
        // At zoom 12 the lines are 100 m apart, every 500 m heavier. Northward from the top the
        // hill falls to 500 m at σ × √(2 ln 1.6) of latitude.
        let radius = 0.03 * (2 * log(1.6)).squareRoot()
        let expected = view.projection.point(for: Coordinate(latitude: 43.5 + radius, longitude: 7.5))
        var darkest = (y: expected.y, value: Double.infinity)
        for dy in -8...8 {
            let point = Point(x: expected.x, y: expected.y + Double(dy))
            let value = Self.brightness(canvas, point)
            if value < darkest.value { darkest = (point.y, value) }
        }
        #expect(abs(darkest.y - expected.y) <= 1.5, "the 500 m line at y \(darkest.y), its height's at \(expected.y)")
        #expect(Self.brightness(canvas, Point(x: expected.x, y: expected.y + 6)) > darkest.value + 10)
    }

    @Test func majorContoursAreLabelledWithTheirHeights() throws {
        let (_, _, report) = try Self.terrainWithReport(Coordinate(latitude: 43.5, longitude: 7.5), zoom: 12)
        // At zoom 12 the heavier lines are every 500 m: the hill of 800 m has one.
        #expect(report.labels.contains("500 m"), "\(report.labels)")
        #expect(!report.labels.contains("400 m"))
        // Joined into lines: the 500 m ring is one closed line, not hundreds of pieces.
        let ring = (0..<64).map { step -> (metres: Double, from: Point, to: Point) in
            let a = Double(step) / 64 * 2 * .pi
            let b = Double(step + 1) / 64 * 2 * .pi
            return (
                500, Point(x: 100 + 50 * cos(a), y: 100 + 50 * sin(a)),
                Point(x: 100 + 50 * cos(b), y: 100 + 50 * sin(b))
            )
        }
        let chains = ReliefPainter.chains(ring.shuffled())
        #expect(chains.count == 1 && chains[0].line.count == 65)
        // The coast's line at 0 m, whose cells below the sea give it as −0: still one line.
        let coast = ring.enumerated().map { index, segment in
            (metres: index % 2 == 0 ? -0.0 : 0.0, from: segment.from, to: segment.to)
        }
        let joined = ReliefPainter.chains(coast.shuffled())
        #expect(joined.count == 1 && joined[0].line.count == 65)
    }

    @Test func summitsAreWrittenWithTheirHeights() throws {
        let (_, _, report) = try Self.terrainWithReport(Coordinate(latitude: 43.5, longitude: 7.5), zoom: 12)
        #expect(report.labels.contains("Mont Test 800 m"), "\(report.labels)")
        #expect(report.labels.contains("Cima Piede 400 m"), "feet in metres: \(report.labels)")
        #expect(report.labels.contains("212 m"), "an unnamed summit by its height: \(report.labels)")
        #expect(
            FeatureClassifier.metres(ofElevation: "1 148") == nil
                && FeatureClassifier.metres(ofElevation: " 95 m ") == 95)
        // Not below zoom 10, and not on the road map.
        let (_, _, far) = try Self.terrainWithReport(Coordinate(latitude: 43.5, longitude: 7.5), zoom: 9)
        #expect(!far.labels.contains("Mont Test 800 m"))
        let view = try MapsApp().answer("comgooglemaps://?center=43.5,7.5&zoom=12").mapView
        let (_, normal) = try MapRenderer(store: try MapStore(path: try Self.store.get())).render(view, controls: false)
        #expect(!normal.labels.contains("Mont Test 800 m"))
    }

    @Test func withoutAModelOrAWorldReliefTheTerrainMapStillDraws() throws {
        // Far from the hill's cell, in a store of the model alone: the map's background.
        let (_, canvas) = try Self.terrain(Coordinate(latitude: 10, longitude: 10), zoom: 12)
        #expect(canvas.pixel(x: 400, y: 300) != nil)
    }

    @Test func theReliefsContourIntervalsFollowTheZoom() {
        #expect(ReliefPainter.intervals(zoom: 10) == (200, 1000))
        #expect(ReliefPainter.intervals(zoom: 12.5) == (100, 500))
        #expect(ReliefPainter.intervals(zoom: 16) == (10, 50))
        // Heights keep their order in the tint: higher ground is never greener.
        let low = ReliefPainter.tint(100, dark: false)
        let high = ReliefPainter.tint(1500, dark: false)
        #expect(low.1 - low.0 > high.1 - high.0)
    }
}
