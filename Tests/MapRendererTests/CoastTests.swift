import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapRenderer
import MapsApp
import TestSupport
import Testing

/// An imported region's own coast at street zoom: central Monaco's coastline made into land and
/// sea, drawn where the picture's water is, within 2 pixels.
@Suite struct CoastTests {
    @Test(arguments: [14.0, 15, 16, 17])
    func theWaterIsTheExtractsSeaWithinTwoPixels(zoom: Double) throws {
        let store = try MapStore(path: try TestExtracts.monacoStore())
        let view = try MapsApp().answer("comgooglemaps://?center=43.7345,7.4235&zoom=\(zoom)").mapView
        view.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        let (canvas, _) = try MapRenderer(store: store).render(view, controls: false)
        let region = view.projection.visibleRegion
        let bounds = CoordinateBounds(region.nearLeft, region.farRight)
        let seaFeature = try #require(
            try store.features(in: bounds, classes: [.water], details: []).first {
                $0.kind == FeatureKind.extractSea.kind
            })
        guard case .polygon(let rings) = seaFeature.geometry else { Issue.record("the sea is not an area"); return }
        let projected = rings.map { $0.map { view.projection.point(for: $0) } }
        let segments = projected.flatMap { ring in zip(ring, ring.dropFirst()).map { ($0, $1) } }
        // Where the rings cross each sampled row, left to right: a point is in the sea when an
        // odd number of crossings lie to its right.
        var crossings: [Double: [Double]] = [:]
        for y in stride(from: 2.0, to: 298, by: 4) {
            crossings[y] = segments.compactMap { a, b in
                (a.y > y) != (b.y > y) ? a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x) : nil
            }
        }
        func inSea(_ x: Double, _ y: Double) -> Bool {
            crossings[y]!.reduce(0) { $0 + ($1 > x ? 1 : 0) } % 2 == 1
        }
        // Only the coast within 2 px of the picture can be near a sample.
        let visible = segments.filter { a, b in
            max(a.x, b.x) >= -2 && min(a.x, b.x) <= 402 && max(a.y, b.y) >= -2 && min(a.y, b.y) <= 302
        }
        func nearCoast(_ x: Double, _ y: Double) -> Bool {
            visible.contains { a, b in
                let dx = b.x - a.x
                let dy = b.y - a.y
                let t = max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / max(dx * dx + dy * dy, 1e-9)))
                return hypot(a.x + t * dx - x, a.y + t * dy - y) <= 2
            }
        }
        let water = MapPalette.light.water
        func isWater(_ pixel: Pixel?) -> Bool {
            guard let pixel else { return false }
            return abs(Int(pixel.red) - Int(water.red * 255)) <= 6
                && abs(Int(pixel.green) - Int(water.green * 255)) <= 6
                && abs(Int(pixel.blue) - Int(water.blue * 255)) <= 6
        }
        var sea = 0
        var seaWrong = 0
        var land = 0
        var landWrong = 0
        for y in stride(from: 2.0, to: 298, by: 4) {
            for x in stride(from: 2.0, to: 398, by: 4) where !nearCoast(x, y) {
                let drawnWater = isWater(canvas.pixel(x: Int(x * canvas.scale), y: Int(y * canvas.scale)))
                if inSea(x, y) {
                    sea += 1
                    if !drawnWater { seaWrong += 1 }
                } else {
                    land += 1
                    if drawnWater { landWrong += 1 }
                }
            }
        }
        // The sea and the land both in view; what is drawn over them (piers and boats on the
        // sea, fountains and pools on land) a few hundredths at most.
        #expect(sea > 300 && land > 300, "sea \(sea), land \(land) samples at zoom \(zoom)")
        #expect(Double(seaWrong) / Double(sea) < 0.06, "\(seaWrong) of \(sea) sea samples not water at zoom \(zoom)")
        #expect(Double(landWrong) / Double(land) < 0.03, "\(landWrong) of \(land) land samples water at zoom \(zoom)")
    }
}
