import Foundation
import GeoCore
import TestSupport
import Testing

@testable import MapData
@testable import VectorTiles

/// Vector tiles cut from a store: the schema's layers and fields hold the store's features,
/// their geometry within a pixel of the store's, at the zooms ``ZoomRules`` says.
@Suite struct VectorTileSchemaTests {
    /// The tile of `coordinate` at `zoom`.
    static func tile(_ coordinate: Coordinate, zoom: Int) -> TileID {
        let world = WebMercator.project(coordinate, worldSize: exp2(Double(zoom)))
        return TileID(x: Int(world.x), y: Int(world.y), z: zoom)
    }

    /// The fixture's tile over Mannerheimintie and the Esplanade, cut and read back.
    static func fixtureTile(zoom: Int = 14, at coordinate: Coordinate = Coordinate(latitude: 60.168, longitude: 24.944))
        throws -> (tile: VectorTile, id: TileID, store: MapStore)
    {
        let store = try MapStore(path: try FixtureStore.path())
        let id = tile(coordinate, zoom: zoom)
        let cut = try VectorTileBuilder(store: store).tile(id)
        return (try VectorTile(decoding: cut.encoded()), id, store)
    }

    static func features(
        _ tile: VectorTile, _ layer: String, where test: ([String: VectorTile.Value]) -> Bool = { _ in true }
    )
        -> [VectorTile.Feature]
    {
        (tile.layer(layer)?.features ?? []).filter { test($0.properties) }
    }

    @Test func summitsAreMountainPeaksWithTheirHeights() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).sqlite").path
        let summits = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).osm").path
        defer { for path in [store, summits] { try? FileManager.default.removeItem(atPath: path) } }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="tests">
          <node id="1" lat="43.7712" lon="7.4207" version="1"><tag k="natural" v="peak"/><tag k="name" v="Mont Agel"/><tag k="ele" v="1148"/></node>
          <node id="2" lat="43.7650" lon="7.4300" version="1"><tag k="natural" v="volcano"/><tag k="ele" v="3000 ft"/></node>
        </osm>
        """.write(toFile: summits, atomically: true, encoding: .utf8)
        _ = try OSMImporter.importFile(summits, into: store, region: "summits")
        let id = Self.tile(Coordinate(latitude: 43.768, longitude: 7.425), zoom: 10)
        let tile = try VectorTile(decoding: try VectorTileBuilder(store: try MapStore(path: store)).tile(id).encoded())
        let peaks = Self.features(tile, "mountain_peak")
        #expect(peaks.count == 2)
        let agel = try #require(peaks.first { $0.properties["name"] == .string("Mont Agel") })
        #expect(agel.properties["class"] == .string("peak") && agel.properties["ele"] == .int(1148))
        #expect(agel.properties["ele_ft"] == .int(3766) && agel.properties["rank"] == .int(1))
        let volcano = try #require(peaks.first { $0.properties["class"] == .string("volcano") })
        #expect(volcano.properties["ele"] == .int(914) && volcano.properties["rank"] == .int(2))
        // Not a point of interest as well, and not below tile zoom 9.
        #expect(Self.features(tile, "poi").isEmpty)
        let coarse = Self.tile(Coordinate(latitude: 43.768, longitude: 7.425), zoom: 8)
        let far = try VectorTile(
            decoding: try VectorTileBuilder(store: try MapStore(path: store)).tile(coarse).encoded())
        #expect(Self.features(far, "mountain_peak").isEmpty)
    }

    @Test func roadsAreTransportationWithTheirClassesAndNames() throws {
        let (tile, _, _) = try Self.fixtureTile()
        let primary = Self.features(tile, "transportation") { $0["class"] == .string("primary") }
        #expect(!primary.isEmpty)
        let minor = Self.features(tile, "transportation") { $0["class"] == .string("minor") }
        #expect(minor.count > 10)
        let names = Self.features(tile, "transportation_name") { $0["name"] == .string("Mannerheimintie") }
        #expect(!names.isEmpty)
        #expect(names.allSatisfy { $0.properties["class"] == .string("primary") })
        #expect(names.allSatisfy { $0.properties["name:latin"] == .string("Mannerheimintie") })
        let brunnels = Set(Self.features(tile, "transportation").compactMap { $0.properties["brunnel"] })
        #expect(brunnels == [.string("bridge"), .string("tunnel")])
        // Trams are transit rail, from zoom 14.
        #expect(!Self.features(tile, "transportation") { $0["subclass"] == .string("tram") }.isEmpty)
    }

    @Test func buildingsCarryTheirHeightsForThreeD() throws {
        let (tile, _, _) = try Self.fixtureTile()
        let buildings = Self.features(tile, "building")
        #expect(buildings.count > 20)
        let heights = Set(
            buildings.compactMap { feature -> Int64? in
                if case .int(let height) = feature.properties["render_height"] { return height }
                return nil
            })
        // Tagged heights 10, 16, 22, 28, 34; one storey (3.66 m, 4 whole metres) for the others.
        #expect(heights.isSuperset(of: [4, 10, 16]))
        #expect(buildings.allSatisfy { $0.properties["render_min_height"] == .int(0) })
    }

    @Test func namesComeInTheLanguagesTheDataHas() throws {
        let (tile, _, _) = try Self.fixtureTile()
        let park = try #require(Self.features(tile, "park") { $0["name"] == .string("Esplanadinpuisto") }.first)
        #expect(park.properties["class"] == .string("public_park"))
        #expect(park.properties["name:en"] == .string("Esplanade Park"))
        #expect(park.properties["name:es"] == .string("Parque de la Explanada"))
        #expect(park.properties["name:it"] == .string("Parco dell'Esplanade"))
        #expect(park.properties["name:hi"] == .string("एस्प्लेनेड पार्क"))
        #expect(park.properties["name_en"] == .string("Esplanade Park"))
        // A name in another script is name:nonlatin, and its Latin form name:latin.
        let hindi = MapStore.Feature(
            id: 1, osmType: nil, osmID: nil, featureClass: .place, kind: "city", name: "दिल्ली",
            geometry: .point(Coordinate(latitude: 28.6, longitude: 77.2)), levels: nil, height: nil, level: nil,
            population: 16_000_000, detail: nil)
        let names = SchemaMapping.names(hindi, ["name:en": "Delhi"])
        #expect(names["name:nonlatin"] == .string("दिल्ली"))
        #expect(names["name:latin"] == .string("Delhi"))
        #expect(SchemaMapping.isLatin("Ravintola Savoy – Ålänningar"))
        #expect(!SchemaMapping.isLatin("東京"))
    }

    @Test func pointsOfInterestStopsAndPlacesAreLabelPoints() throws {
        let (tile, _, _) = try Self.fixtureTile()
        let cafe = try #require(Self.features(tile, "poi") { $0["name"] == .string("Fazer 8th Floor") }.first)
        #expect(cafe.properties["class"] == .string("cafe"))
        #expect(cafe.properties["level"] == .int(7))
        #expect(cafe.properties["indoor"] == .int(1))
        let hotel = try #require(Self.features(tile, "poi") { $0["name"] == .string("Hotel Kämp") }.first)
        #expect(hotel.properties["class"] == .string("lodging"))
        #expect(hotel.properties["subclass"] == .string("hotel"))
        let stop = try #require(Self.features(tile, "transit") { $0["name"] == .string("Ylioppilastalo") }.first)
        #expect(stop.properties["class"] == .string("tram_stop"))
        guard case .points(let points) = stop.geometry else {
            Issue.record("a stop is a point")
            return
        }
        #expect(points.count == 1)
        let trams = Self.features(tile, "transit") { $0["class"] == .string("tram") }
        #expect(Set(trams.compactMap { $0.properties["ref"] }).count == 12, "the twelve tram lines, each with its ref")
        #expect(!Self.features(tile, "housenumber") { $0["housenumber"] == .string("29") }.isEmpty)
        #expect(!Self.features(tile, "place") { $0["name"] == .string("Kluuvi") }.isEmpty)
        #expect(!Self.features(tile, "cycling") { $0["class"] == .string("track") }.isEmpty)
    }

    /// Every vertex of a named road as decoded lies within a pixel (16 units of 4096) of the
    /// road's line in the store, projected into the tile (the names' layer carries the store's
    /// ids).
    @Test func geometryIsWithinAPixelOfTheStores() throws {
        let (tile, id, store) = try Self.fixtureTile()
        let builder = TileGeometryBuilder(tile: id)
        let roads = Dictionary(
            uniqueKeysWithValues: try store.features(in: builder.bufferedBounds, classes: [.road]).map { ($0.id, $0) })
        var checked = 0
        for feature in Self.features(tile, "transportation_name") {
            guard let stored = feature.id.flatMap({ roads[Int64($0)] }), case .line(let line) = stored.geometry,
                case .lines(let parts) = feature.geometry
            else { continue }
            let projected = line.map(builder.project)
            for point in parts.joined() {
                let distance =
                    zip(projected, projected.dropFirst()).map { a, b in
                        Self.distance(from: (Double(point.x), Double(point.y)), toSegment: a, b)
                    }.min() ?? .infinity
                #expect(distance <= 16, "\(stored.name ?? "?") is \(distance) units off")
                checked += 1
            }
        }
        #expect(checked > 100)
        #expect(Self.features(tile, "building").allSatisfy { $0.id == nil }, "areas go without ids")
    }

    static func distance(from p: (Double, Double), toSegment a: (x: Double, y: Double), _ b: (x: Double, y: Double))
        -> Double
    {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        let t = length == 0 ? 0 : min(max(((p.0 - a.x) * dx + (p.1 - a.y) * dy) / length, 0), 1)
        return hypot(p.0 - (a.x + t * dx), p.1 - (a.y + t * dy))
    }

    /// What shows from which zoom is the raster's rule, a tile zoom drawn at the map zoom one
    /// above (512-pixel tiles): buildings from map zoom 14 (tile 13), streets from 13 (tile 12),
    /// street data from 11 (tile 10); the world's land and the sea at every zoom.
    @Test func zoomsFollowTheRastersRules() throws {
        #expect(VectorTileSchema.mapZoom(ofTile: 13) == ZoomRules.buildings)
        let (z11, _, _) = try Self.fixtureTile(zoom: 11)
        #expect(z11.layer("building") == nil)
        #expect(Self.features(z11, "transportation") { $0["class"] == .string("minor") }.isEmpty)
        #expect(!Self.features(z11, "transportation") { $0["class"] == .string("primary") }.isEmpty)
        let (z12, _, _) = try Self.fixtureTile(zoom: 12)
        #expect(z12.layer("building") == nil)
        #expect(!Self.features(z12, "transportation") { $0["class"] == .string("minor") }.isEmpty)
        let (z13, _, _) = try Self.fixtureTile(zoom: 13)
        #expect(!Self.features(z13, "building").isEmpty)
        #expect(z13.layer("poi") == nil, "points of interest show from 16, so only the top zoom carries them")
        let (z5, _, _) = try Self.fixtureTile(zoom: 5)
        #expect(z5.layer("transportation") == nil)
        #expect(!Self.features(z5, "water") { $0["class"] == .string("ocean") }.isEmpty)
        #expect(!Self.features(z5, "boundary") { $0["admin_level"] == .int(2) }.isEmpty)
        #expect(!Self.features(z5, "place") { $0["name"] == .string("Helsinki") }.isEmpty)
    }

    /// The sea is the tile less the land: an ocean polygon whose holes are the land, valid
    /// (no hole touches the tile's square).
    @Test func theSeaIsTheTileLessTheLand() throws {
        let (tile, id, _) = try Self.fixtureTile(zoom: 6)
        let ocean = try #require(Self.features(tile, "water") { $0["class"] == .string("ocean") }.first)
        guard case .polygons(let polygons) = ocean.geometry else {
            Issue.record("the sea is a polygon")
            return
        }
        let square = TileGeometryBuilder(tile: id).bufferSquare
        #expect(polygons.count == 1)
        #expect(Set(polygons[0][0]) == Set(square))
        #expect(polygons[0].count >= 2, "the land is a hole in the sea")
        for hole in polygons[0].dropFirst() {
            #expect(TileGeometry.area(hole) < 0)
            #expect(hole.allSatisfy { abs($0.x) < 4096 + 64 && abs($0.y) < 4096 + 64 && $0.x > -64 && $0.y > -64 })
        }
    }

    /// Inside an imported region whose coastline was assembled, the tiles' sea is the region's
    /// own (the world's shoreline is a staircase at street zoom): central Monaco's harbour at
    /// zoom 15, the tile's ocean where the extract's sea is, away from the coast by a pixel; a
    /// tile the region covers only in part keeps the world's ocean (none in this store).
    @Test func insideARegionTheSeaIsTheRegionsOwn() throws {
        let store = try MapStore(path: try TestExtracts.monacoStore())
        let builder = try VectorTileBuilder(store: store)
        let id = Self.tile(Coordinate(latitude: 43.7345, longitude: 7.4235), zoom: 15)
        let tile = try VectorTile(decoding: try builder.tile(id).encoded())
        let oceans = Self.features(tile, "water") { $0["class"] == .string("ocean") }
        #expect(oceans.count == 1)
        guard case .polygons(let polygons) = oceans.first?.geometry else {
            Issue.record("the tile has no sea")
            return
        }
        let geometry = TileGeometryBuilder(tile: id)
        let sea = try #require(
            try store.features(in: geometry.bufferedBounds, classes: [.water], details: []).first {
                $0.kind == FeatureKind.extractSea.kind
            })
        guard case .polygon(let seaRings) = sea.geometry else { return }
        let projected = seaRings.map { $0.map(geometry.project) }
        func inside(_ rings: [[(x: Double, y: Double)]], _ x: Double, _ y: Double) -> Bool {
            var inside = false
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) where (a.y > y) != (b.y > y) {
                    if x < a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
                }
            }
            return inside
        }
        func nearCoast(_ x: Double, _ y: Double) -> Bool {
            projected.dropFirst().contains { ring in
                zip(ring, ring.dropFirst()).contains { a, b in
                    let dx = b.x - a.x
                    let dy = b.y - a.y
                    let t = max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / max(dx * dx + dy * dy, 1e-9)))
                    return hypot(a.x + t * dx - x, a.y + t * dy - y) <= 16
                }
            }
        }
        let tileRings = polygons.flatMap { $0 }.map { $0.map { (x: Double($0.x), y: Double($0.y)) } }
        var seaSamples = 0
        var landSamples = 0
        var wrong = 0
        for y in stride(from: 50.0, to: 4096, by: 100) {
            for x in stride(from: 50.0, to: 4096, by: 100) where !nearCoast(x, y) {
                let expected = inside(projected, x, y)
                if expected { seaSamples += 1 } else { landSamples += 1 }
                if inside(tileRings, x, y) != expected { wrong += 1 }
            }
        }
        #expect(seaSamples > 100 && landSamples > 100, "\(seaSamples) sea, \(landSamples) land")
        #expect(wrong == 0, "\(wrong) samples on the wrong side of the coast")
        // Zoom 12: the tile is larger than the region, whose sea is not the tile's.
        let whole = try VectorTile(
            decoding: try builder.tile(Self.tile(Coordinate(latitude: 43.7345, longitude: 7.4235), zoom: 12)).encoded())
        #expect(Self.features(whole, "water") { $0["class"] == .string("ocean") }.isEmpty)
    }

    /// A real extract: central Monaco's tiles stay far under 500 KB, and every polygon reads
    /// back valid (exterior rings clockwise, holes counter-clockwise: the decoder checks).
    @Test func realTilesStaySmallAndValid() throws {
        let store = try MapStore(path: try TestExtracts.monacoStore())
        let builder = try VectorTileBuilder(store: store)
        var largest = 0
        var layers: Set<String> = []
        for tile in TileID.covering(
            CoordinateBounds(
                southWest: Coordinate(latitude: 43.728, longitude: 7.41),
                northEast: Coordinate(latitude: 43.745, longitude: 7.43)), zoom: 14)
        {
            let bytes = try builder.tile(tile).encoded()
            largest = max(largest, bytes.count)
            let decoded = try VectorTile(decoding: bytes)
            layers.formUnion(decoded.layers.map(\.name))
        }
        #expect(largest < 500_000)
        #expect(layers.isSuperset(of: ["transportation", "transportation_name", "building", "poi", "housenumber"]))
    }

    /// Every layer TileJSON declares is documented with its fields, and the fields the stock
    /// OpenMapTiles styles read are declared.
    @Test func theSchemaDeclaresTheOpenMapTilesFields() {
        let layers = Dictionary(uniqueKeysWithValues: VectorTileSchema.layers.map { ($0.id, $0.fields) })
        for (layer, fields) in [
            ("transportation", ["class", "subclass", "oneway", "brunnel", "layer", "ramp", "surface", "service"]),
            ("transportation_name", ["name", "ref", "network", "ref_length", "name:latin", "name:nonlatin"]),
            ("building", ["render_height", "render_min_height", "colour"]),
            ("poi", ["class", "subclass", "rank", "level", "name"]),
            ("place", ["class", "rank", "capital", "iso_a2", "name:latin"]),
            ("boundary", ["admin_level", "disputed", "maritime", "claimed_by"]),
            ("water", ["class", "brunnel", "intermittent"]),
            ("indoor", ["level", "repeat_on"]),
        ] {
            for field in fields { #expect(layers[layer]?[field] != nil, "\(layer).\(field)") }
        }
        for layer in [
            "water", "waterway", "landcover", "landuse", "park", "aeroway", "housenumber", "transit", "cycling",
        ] {
            #expect(layers[layer] != nil, "\(layer)")
        }
    }
}
