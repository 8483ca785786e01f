import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import SQLiteKit
import Testing

@testable import MapRenderer

/// Checks on the real data `make test` installs (central Helsinki from OpenStreetMap, the
/// GeoNames gazetteer): things only real data has (the metro's tunnels, an OSM way's id, a
/// department store's many entries). Every rule of the renderer is tested on the fixture
/// store in ``MapRendererTests``; this suite is skipped, and says so, where the data was not
/// installed (`make data`, or `openmaps data install`).
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: DataInstaller().storePath),
        "needs the installed open data: run 'make data' (or 'openmaps data install')"))
struct HelsinkiIntegrationTests {
    let renderer: MapRenderer

    init() throws {
        renderer = MapRenderer(store: try MapStore(path: DataInstaller().storePath))
    }

    @Test func searchLinksMarkWhatTheNameIndexFinds() throws {
        let store = try MapStore(path: DataInstaller().storePath)
        #expect(try store.features(named: "Kaivokatu").contains { $0.osmID == 14_472_962 })
        // FTS5 operators and quotes in the text are searched for, not interpreted.
        #expect(try store.features(named: "\"AND OR NEAR( * :").isEmpty)
        #expect(try store.features(named: "  ").isEmpty)
        let linkView = try MapsApp.onStore(path: DataInstaller().storePath).answer("comgooglemaps://?q=Stockmann")
        let pins = linkView.mapView.overlays.compactMap { overlay -> Marker? in
            if case .marker(let marker) = overlay { marker } else { nil }
        }
        #expect(pins.count >= 3 && pins.allSatisfy { $0.title?.contains("Stockmann") == true })
        #expect(pins.allSatisfy { linkView.mapView.projection.contains($0.position) })
        #expect(linkView.notes.isEmpty)
        let (_, report) = try renderer.render(linkView.mapView)
        #expect(report.overlays == pins.count)
    }

    @Test func tunnelsAndBridgesCarryTheirLevels() throws {
        let store = try MapStore(path: DataInstaller().storePath)
        let centre = CoordinateBounds(
            Coordinate(latitude: 60.16, longitude: 24.93), Coordinate(latitude: 60.18, longitude: 24.96))
        let roads = try store.features(in: centre, classes: [.road])
        // The metro and service tunnels under the centre, and the extract's few bridges.
        #expect(roads.filter(\.isTunnel).count > 50)
        #expect(roads.contains { $0.isBridge })
        #expect(roads.contains { $0.layer < 0 })
    }
}

/// The world's large areas drawn from their pieces (``AreaPieces``): the same picture as from
/// the whole areas (a store without the pieces, as stores made before them), without a seam
/// along the cuts, on the installed world's coasts.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: DataInstaller().storePath),
        "needs the installed open data: run 'make data' (or 'openmaps data install')"))
struct AreaPiecesPictureTests {
    /// Views over the cut areas at the zooms that read them: the Gulf of Finland, the
    /// Norwegian fjords, the Aegean, the Strait of Gibraltar, the Kamchatka coast.
    @Test(arguments: [
        "center=60.0,25.0&zoom=6", "center=61.0,6.0&zoom=7", "center=38.5,25.0&zoom=7",
        "center=36.0,-5.5&zoom=8", "center=56.0,161.0&zoom=6",
    ])
    func piecesDrawWhatTheWholeAreasDraw(camera: String) throws {
        let installed = DataInstaller().storePath
        let store = try MapStore(path: installed)
        let cut = try store.features(in: .world, classes: [.land, .water], details: [.intermediate], pieces: true)
        #expect(
            Dictionary(grouping: cut, by: \.id).values.contains { $0.count > 1 },
            "the installed world has no cut areas: install it again ('openmaps data install')")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-whole-\(UUID()).sqlite").path
        try FileManager.default.copyItem(atPath: installed, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try SQLiteDatabase(path: copy).execute("DROP TABLE feature_piece; DROP TABLE feature_piece_box")

        let link = "comgooglemaps://?\(camera)"
        var pictures: [Canvas] = []
        for path in [installed, copy] {
            let view = try MapsApp().answer(link).mapView
            view.frame = Rect(x: 0, y: 0, width: 400, height: 300)
            pictures.append(try MapRenderer(store: try MapStore(path: path)).render(view, controls: false).0)
        }
        var differing = 0
        var landPixels = 0
        for y in 0..<300 {
            for x in 0..<400 {
                let (a, b) = (pictures[0].pixel(x: x, y: y)!, pictures[1].pixel(x: x, y: y)!)
                if max(abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
                    > 4
                {
                    differing += 1
                }
                if a.red > 200 && a.green > 200 && a.blue < 240 { landPixels += 1 }
            }
        }
        #expect(landPixels > 1_000, "the view shows no land")
        #expect(differing == 0, "\(differing) pixels differ")
    }
}
