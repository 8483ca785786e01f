import Foundation
import GeoCore
import MapData
import MapsApp
import TestSupport
import Testing
import VectorTiles

@testable import MapsServer

/// The vector map's services: vector tiles with their caching, the styles, glyphs and sprite
/// a MapLibre client asks for, and ranges of an archive.
@Suite struct VectorServingTests: ServerExchanges {
    @Test func vectorTilesAreCutCachedAndRevalidated() throws {
        let server = try MapsServer(app: try MapsApp.onStore(path: try FixtureStore.path()), options: .loopback())
        defer { server.stop() }
        let tile = TileID(containing: Coordinate(latitude: 60.168, longitude: 24.944), zoom: 14)
        let path = "/tiles/vector/14/\(tile.x)/\(tile.y).pbf"
        let first = try #require(get(server, path, headers: "Accept-Encoding: gzip\r\n"))
        #expect(first.status == 200 && first.headers["content-encoding"] == "gzip")
        #expect(first.headers["content-type"] == "application/vnd.mapbox-vector-tile")
        let etag = try #require(first.headers["etag"])
        #expect(get(server, path, headers: "If-None-Match: \(etag)\r\n")?.status == 304)
        // Without gzip accepted, the same tile inflated: it decodes.
        let plain = try #require(get(server, path))
        #expect(plain.headers["content-encoding"] == nil)
        let decoded = try VectorTile(decoding: plain.bytes)
        #expect(decoded.layer("transportation") != nil && decoded.layer("building") != nil)
        // Far out at sea there is nothing but the sea; beyond the grid and the zooms, refusals.
        let sea = try VectorTile(decoding: try #require(get(server, "/tiles/vector/14/0/0.pbf")).bytes)
        #expect(sea.layers.map(\.name) == ["water"])
        #expect(sea.layer("water")?.features.map { $0.properties["class"] } == [.string("ocean")])
        #expect(get(server, "/tiles/vector/15/0/0.pbf")?.status == 404)
        #expect(get(server, "/tiles/vector/3/9/0.pbf")?.status == 400)
        #expect(get(server, "/tiles/vector/3/0/0.png")?.status == 404)
        let document = json(try #require(get(server, "/tiles/vector.json")).body)
        #expect((document["tiles"] as? [String])?.first == "http://x/tiles/vector/{z}/{x}/{y}.pbf")
        let layers = (document["vector_layers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(layers.contains("transportation") && layers.contains("indoor"))
    }

    /// The traffic tiles hold the roads the feed lists, with their congestion, and nothing
    /// else; the style of the traffic layer reads them from their own source.
    @Test func trafficTilesColourTheFeedsRoads() throws {
        let store = try MapStore(path: try FixtureStore.path())
        let ways = try store.features(named: "Mannerheimintie").filter { $0.kind == "primary" }.compactMap(\.osmID)
        let feed = TrafficFeed(levels: Dictionary(uniqueKeysWithValues: ways.map { ($0, .heavy) }))
        let server = try MapsServer(
            app: try MapsApp.onStore(path: try FixtureStore.path(), traffic: feed), options: .loopback())
        defer { server.stop() }
        let tile = TileID(containing: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: 14)
        let response = try #require(get(server, "/tiles/traffic/14/\(tile.x)/\(tile.y).pbf"))
        #expect(response.status == 200 && response.headers["cache-control"] == "public, max-age=60")
        let traffic = try #require(try VectorTile(decoding: response.bytes).layer("traffic"))
        #expect(!traffic.features.isEmpty)
        #expect(
            traffic.features.allSatisfy {
                $0.properties == ["class": .string("primary"), "congestion": .string("heavy")]
            })
        #expect(get(server, "/tiles/traffic/14/0/0.pbf")?.status == 204)
        #expect(get(server, "/tiles/traffic/15/0/0.pbf")?.status == 404)
        let document = json(try #require(get(server, "/tiles/traffic.json")).body)
        #expect((document["vector_layers"] as? [[String: Any]])?.first?["id"] as? String == "traffic")
        let style = json(try #require(get(server, "/styles/normal.json?layers=traffic")).body)
        #expect((style["sources"] as? [String: Any])?["traffic"] != nil)
        #expect((style["layers"] as? [[String: Any]])?.contains { $0["source"] as? String == "traffic" } == true)
        // Without a feed, no road is coloured.
        let plain = try MapsServer(app: try MapsApp.onStore(path: try FixtureStore.path()), options: .loopback())
        defer { plain.stop() }
        #expect(get(plain, "/tiles/traffic/14/\(tile.x)/\(tile.y).pbf")?.status == 204)
    }

    /// Every layer of every style reads a source layer the tiles declare, and the fields its
    /// expressions name are declared too.
    @Test func stylesReadOnlyWhatTheTilesHold() throws {
        let server = try MapsServer(app: try MapsApp.onStore(path: try FixtureStore.path()), options: .loopback())
        defer { server.stop() }
        let declared = Dictionary(
            uniqueKeysWithValues: (VectorTileSchema.layers + [TrafficTiles.layer]).map { ($0.id, Set($0.fields.keys)) })
        for name in ["normal", "hybrid", "satellite", "terrain", "none"] {
            let response = try #require(
                get(server, "/styles/\(name).json?scheme=dark&layers=traffic,transit,bicycling&hl=es"))
            #expect(response.status == 200, "\(name)")
            let style = json(response.body)
            #expect(style["version"] as? Int == 8)
            #expect(style["glyphs"] as? String == "http://x/fonts/{fontstack}/{range}.pbf")
            for layer in style["layers"] as? [[String: Any]] ?? [] {
                guard let source = layer["source-layer"] as? String else { continue }
                let fields = try #require(declared[source], "\(name): \(layer["id"] ?? "?") reads '\(source)'")
                for field in Self.fields(layer) where !field.hasPrefix("name") {
                    #expect(fields.contains(field), "\(name): \(layer["id"] ?? "?") reads \(source).\(field)")
                }
            }
        }
        #expect(get(server, "/styles/roadmap.json")?.status == 404)
        #expect(get(server, "/styles/normal.json?scheme=sepia")?.status == 400)
    }

    /// The fields a style layer's filter and properties get.
    static func fields(_ value: Any) -> Set<String> {
        if let array = value as? [Any] {
            var found: Set<String> = []
            if array.count >= 2, let op = array[0] as? String, ["get", "has"].contains(op),
                let field = array[1] as? String
            {
                found.insert(field)
            }
            for item in array { found.formUnion(fields(item)) }
            return found
        }
        if let object = value as? [String: Any] {
            return object.filter { ["filter", "paint", "layout"].contains($0.key) || $0.key.contains("-") }.values
                .reduce(into: Set<String>()) { $0.formUnion(fields($1)) }
        }
        return []
    }

    @Test func glyphsAndTheSpriteAreServed() throws {
        let server = try MapsServer(app: MapsApp(), options: .loopback())
        defer { server.stop() }
        let range = try #require(get(server, "/fonts/Noto%20Sans%20Regular,Arial%20Unicode%20MS/0-255.pbf"))
        #expect(range.status == 200 && range.headers["content-type"] == "application/x-protobuf")
        #expect(range.bytes.count > 10_000)
        #expect(get(server, "/fonts/Comic%20Sans/0-255.pbf")?.status == 404)
        #expect(get(server, "/fonts/Noto%20Sans%20Regular/7-262.pbf")?.status == 400)
        #expect(get(server, "/fonts/Noto%20Sans%20Regular/-256-0.pbf")?.status == 400)
        #expect(get(server, "/fonts/Noto%20Sans%20Regular/0-511.pbf")?.status == 400)
        let index = json(try #require(get(server, "/sprites/openmaps@2x.json")).body)
        let station = try #require(index["station"] as? [String: Any])
        #expect(station["pixelRatio"] as? Int == 2 && station["width"] as? Int == 28)
        let png = try #require(get(server, "/sprites/openmaps.png"))
        #expect(png.status == 200 && png.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The pictures of the labels the styles leave to the server.
        let label = try #require(get(server, "/labels/place.png?text=%E0%A4%AE%E0%A5%8A%E0%A4%A8%E0%A4%BE&scale=2"))
        #expect(label.status == 200 && label.headers["content-type"] == "image/png")
        #expect(label.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let unknown = try #require(get(server, "/labels/city.png?text=x"))
        #expect(unknown.status == 400 && String(decoding: unknown.bytes, as: UTF8.self).contains("place-large"))
        #expect(get(server, "/labels/place.png")?.status == 400)
        #expect(get(server, "/labels/place.png?text=x&scale=9")?.status == 400)
        #expect(get(server, "/labels/place.png?text=x&scheme=blue")?.status == 400)
        #expect(get(server, "/labels/a/b.png?text=x")?.status == 404)
    }

    @Test func byteRangesAreReadAsStaticHostsReadThem() {
        #expect(MapsServer.byteRange("bytes=0-126", size: 1000) == 0...126)
        #expect(MapsServer.byteRange("bytes=900-", size: 1000) == 900...999)
        #expect(MapsServer.byteRange("bytes=-100", size: 1000) == 900...999)
        #expect(MapsServer.byteRange("bytes=990-2000", size: 1000) == 990...999)
        #expect(MapsServer.byteRange("bytes=1000-", size: 1000) == nil)
        #expect(MapsServer.byteRange("bytes=5-2", size: 1000) == nil)
        #expect(MapsServer.byteRange("bytes=0-1,5-6", size: 1000) == nil)
        #expect(MapsServer.byteRange("items=0-1", size: 1000) == nil)
    }
}
