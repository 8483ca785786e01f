import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
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
