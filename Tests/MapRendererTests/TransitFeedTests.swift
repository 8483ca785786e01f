import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import TestSupport
import Testing

@testable import MapRenderer

/// A GTFS feed on the map: its lines in their own colour, its credit where it is drawn, and the
/// notice of a place without street data saying what is shown instead.
@Suite struct TransitFeedTests {
    let renderer: MapRenderer
    let folder: String

    /// The fixture store with the fixture feed (Roppongi, Tokyo) imported as `metro`.
    init() throws {
        folder =
            FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-feed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/store.sqlite"
        try FileManager.default.copyItem(atPath: try FixtureStore.path(), toPath: store)
        try Data(FixtureFeed.zip()).write(to: URL(fileURLWithPath: folder + "/metro.zip"))
        _ = try GTFSImporter.importFeed(folder + "/metro.zip", into: store, name: "metro")
        renderer = MapRenderer(store: try MapStore(path: store))
    }

    func view(_ link: String) throws -> MapView { try MapsApp().answer(link).mapView }

    @Test func aPlaceWithoutStreetsSaysWhatItShows() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (_, report) = try renderer.render(try view("comgooglemaps://?center=35.6600,139.7360&zoom=15"))
        let notice = try #require(report.notice)
        #expect(
            notice
                == "No street data here (the nearest imported region, Helsinki, is 7,823 km away); shown: the world map, place names and the stations of metro; nearest transit stop: Corner of \"Main\", 1st (metro), 360 m away. Add streets with 'openmaps import'."
        )
        var italian = renderer
        italian.language = .it
        #expect(
            try italian.coverage(of: view("comgooglemaps://?center=35.6600,139.7360&zoom=15")).notice
                == "Nessun dato stradale qui (la regione importata più vicina, Helsinki, è a 7.823 km); è mostrato: la "
                + "mappa del mondo, i nomi dei luoghi e le stazioni di metro; fermata dei mezzi pubblici più vicina: "
                + "Corner of \"Main\", 1st (metro), a 360 m. Aggiungi le strade con «openmaps import».")
        #expect(report.credits.last == "Transit data: Example Metro")
        #expect(report.labels.contains("Roppongi") && report.labels.contains("Azabu-Juban"))
    }

    @Test func feedsAreCreditedWhereTheyAreDrawn() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let city = "comgooglemaps://?center=35.6600,139.7360&zoom=12"
        #expect(try renderer.coverage(of: view(city)).credits.contains("Transit data: Example Metro") == false)
        #expect(try renderer.coverage(of: view(city + "&views=transit")).credits.last == "Transit data: Example Metro")
        let helsinki = "comgooglemaps://?center=60.1699,24.9384&zoom=15&views=transit"
        #expect(try renderer.coverage(of: view(helsinki)).credits.contains("Transit data: Example Metro") == false)
    }

    @Test func aLineIsDrawnInItsOwnColour() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Halfway between Azabu-Juban and Akabanebashi on the Oedo line (#CF3366).
        let between = Coordinate(latitude: 35.65475, longitude: 139.74035)
        let link = "comgooglemaps://?center=35.6560,139.7400&zoom=16"
        let plain = try view(link)
        let transit = try view(link + "&views=transit")
        let (withLayer, _) = try renderer.render(transit)
        let (withoutLayer, _) = try renderer.render(plain)
        let point = transit.projection.point(for: between)
        let oedo = Pixel(Color(hex: 0xCF3366))
        let drawn = try #require(withLayer.pixel(x: Int(point.x), y: Int(point.y)))
        #expect(drawn.distance(to: oedo) <= 3, "\(drawn)")
        let bare = try #require(withoutLayer.pixel(x: Int(point.x), y: Int(point.y)))
        #expect(bare.distance(to: oedo) > 40, "no line without the transit layer")
    }
}
