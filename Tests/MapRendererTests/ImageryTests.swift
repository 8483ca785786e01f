import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import TestSupport
import Testing

@testable import MapRenderer

/// The satellite and hybrid maps drawn from an imported aerial image: the test image's
/// quadrants of known colours (``FixtureImagery``) over Monaco's harbour.
@Suite struct ImageryTests {
    /// A copy of `store` with the test image imported as "harbour".
    static func withImage(_ store: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-imagery-\(UUID().uuidString).sqlite"
        ).path
        try FileManager.default.copyItem(atPath: store, toPath: path)
        let image = try FixtureImagery.write(epsg: 32632, tiled: true, overviews: [2, 4])
        defer { try? FileManager.default.removeItem(atPath: image) }
        _ = try Imagery.importImage(image, into: path, name: "harbour", attribution: "Imagery: Harbour survey")
        return path
    }

    /// The fixture world (its Blue Marble) with the image.
    static let world = Result<String, any Error> { try withImage(try FixtureStore.path()) }
    /// Monaco's streets with the image.
    static let monaco = Result<String, any Error> { try withImage(try TestExtracts.monacoStore()) }

    static func render(
        _ store: String, _ type: MapType, center: Coordinate = FixtureImagery.centre, zoom: Double,
        size: String = "400x300"
    ) throws -> (MapView, Canvas, MapRenderer.Report) {
        let view = try MapsApp().answer(
            "comgooglemaps://?center=\(center.latitude),\(center.longitude)&zoom=\(zoom)"
        ).mapView
        let dimensions = size.split(separator: "x").compactMap { Double($0) }
        view.frame = Rect(x: 0, y: 0, width: dimensions[0], height: dimensions[1])
        view.mapType = type
        let (canvas, report) = try MapRenderer(store: try MapStore(path: store)).render(view, controls: false)
        return (view, canvas, report)
    }

    /// A point `north` and `east` metres from the image's centre.
    static func offset(north: Double, east: Double) -> Coordinate {
        let centre = FixtureImagery.centre
        return Coordinate(
            latitude: centre.latitude + north / 111_320,
            longitude: centre.longitude + east / (111_320 * cos(centre.latitude * .pi / 180)))
    }

    static func near(_ pixel: Pixel?, _ colour: (UInt8, UInt8, UInt8), tolerance: Int = 12) -> Bool {
        guard let pixel else { return false }
        return abs(Int(pixel.red) - Int(colour.0)) <= tolerance && abs(Int(pixel.green) - Int(colour.1)) <= tolerance
            && abs(Int(pixel.blue) - Int(colour.2)) <= tolerance
    }

    @Test(arguments: [12.0, 13, 14, 15, 16, 17, 18])
    func theImagesColoursAppearAtTheirPlaces(zoom: Double) throws {
        let store = try Self.world.get()
        // A view on each quadrant, 600 m from the image's centre each way; its colour where the
        // view is centred and 30 points around (each well inside the quadrant at every zoom).
        let around = min(30, 250 / WebMercator.metersPerPoint(latitude: FixtureImagery.centre.latitude, zoom: zoom))
        for (north, east) in [(1.0, -1.0), (1, 1), (-1, -1), (-1, 1)] {
            let place = Self.offset(north: north * 600, east: east * 600)
            let (view, canvas, _) = try Self.render(store, .satellite, center: place, zoom: zoom)
            let expected = try #require(FixtureImagery.colour(at: place))
            let centre = view.projection.point(for: place)
            for (dx, dy) in [(0.0, 0.0), (around, 0), (-around, 0), (0, around), (0, -around)] {
                let pixel = canvas.pixel(x: Int(centre.x + dx), y: Int(centre.y + dy))
                #expect(
                    Self.near(pixel, expected),
                    "zoom \(zoom) near \(place) (\(dx), \(dy)): \(String(describing: pixel))")
            }
        }
    }

    @Test func theBlueMarbleShowsOutsideAndTheImageFadesInAtItsEdge() throws {
        let store = try Self.world.get()
        // The image's north edge (1.5 km north of its centre) across the middle of the view.
        let edge = Self.offset(north: 1_500, east: -800)
        let (view, canvas, report) = try Self.render(store, .satellite, center: edge, zoom: 14)
        // The same view without the image: the two views' projections are the same.
        let plainCanvas = try Self.render(try FixtureStore.path(), .satellite, center: edge, zoom: 14).1
        let north = view.projection.point(for: Self.offset(north: 1_500 + 600, east: -800))
        #expect(
            canvas.pixel(x: Int(north.x), y: Int(north.y)) == plainCanvas.pixel(x: Int(north.x), y: Int(north.y)),
            "the world's imagery beyond the image")
        // Well inside: the image's own colour; across the edge, a blend of the two.
        let inside = view.projection.point(for: Self.offset(north: 1_500 - 300, east: -800))
        let red = FixtureImagery.colours[0]
        #expect(Self.near(canvas.pixel(x: Int(inside.x), y: Int(inside.y)), red))
        let onEdge = view.projection.point(for: edge)
        let outside = plainCanvas.pixel(x: Int(onEdge.x), y: Int(onEdge.y) - 3)!
        var ramp: [Int] = []
        for dy in stride(from: -2, through: Int(ImageryPainter.feather) + 2, by: 2) {
            ramp.append(Int(canvas.pixel(x: Int(onEdge.x), y: Int(onEdge.y) + dy)!.red))
        }
        #expect(ramp.first! <= Int(outside.red) + 8 && ramp.last! >= Int(red.0) - 12, "\(ramp)")
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $0 <= $1 + 2 }, "the red fades in steadily: \(ramp)")
        #expect(ramp.contains { $0 > Int(outside.red) + 30 && $0 < Int(red.0) - 30 }, "a blend between: \(ramp)")
        #expect(report.credits.contains("Imagery: Harbour survey"))
        // The image is credited only where it is in view.
        let far = try Self.render(store, .satellite, center: Self.offset(north: 30_000, east: 0), zoom: 14).2
        #expect(!far.credits.contains("Imagery: Harbour survey"))
    }

    @Test func theFadeIsTheSameWhereverTheViewCutsTheImage() throws {
        // Two views 150 points apart, as two neighbouring tiles are: the same pixels where they meet.
        let store = try Self.world.get()
        let edge = Self.offset(north: 1_500, east: -1_900)
        let (view, canvas, _) = try Self.render(store, .satellite, center: edge, zoom: 15)
        let shiftedCentre = view.projection.coordinate(for: Point(x: 200 + 150, y: 150))
        let (shifted, shiftedCanvas, _) = try Self.render(store, .satellite, center: shiftedCentre, zoom: 15)
        var worst = 0
        for y in stride(from: 100, to: 200, by: 3) {
            for x in stride(from: 160, to: 240, by: 3) {
                let place = view.projection.coordinate(for: Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
                let there = shifted.projection.point(for: place)
                guard let a = canvas.pixel(x: x, y: y),
                    let b = shiftedCanvas.pixel(x: Int(there.x.rounded(.down)), y: Int(there.y.rounded(.down)))
                else { continue }
                worst = max(worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)))
            }
        }
        #expect(worst <= 3, "pixels differ by up to \(worst)")
    }

    @Test func hybridDrawsTheRoadsAndLabelsOverTheImage() throws {
        let store = try Self.monaco.get()
        let (_, hybrid, report) = try Self.render(store, .hybrid, zoom: 16, size: "600x450")
        let (_, satellite, _) = try Self.render(store, .satellite, zoom: 16, size: "600x450")
        var differing = 0
        var total = 0
        for y in stride(from: 0, to: 450, by: 2) {
            for x in stride(from: 0, to: 600, by: 2) {
                total += 1
                if hybrid.pixel(x: x, y: y) != satellite.pixel(x: x, y: y) { differing += 1 }
            }
        }
        #expect(Double(differing) / Double(total) > 0.03, "roads over the image: \(differing) of \(total)")
        #expect(Double(differing) / Double(total) < 0.6, "the image under them: \(differing) of \(total)")
        #expect(!report.labels.isEmpty, "street names over the image")
        // The image still shows between the roads: a good part of the picture keeps its colours.
        var kept = 0
        for y in stride(from: 0, to: 450, by: 3) {
            for x in stride(from: 0, to: 600, by: 3) {
                let pixel = hybrid.pixel(x: x, y: y)
                if FixtureImagery.colours.contains(where: { Self.near(pixel, $0) }) { kept += 1 }
            }
        }
        #expect(kept > 150 * 200 / 4, "\(kept) of \(150 * 200) points keep the image's colours")
        #expect(
            report.credits.contains("Imagery: Harbour survey")
                && report.credits.contains("© OpenStreetMap contributors"))
    }
}
