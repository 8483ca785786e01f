import CairoKit
import Foundation
import GeoCore

@testable import MapData

/// A small store built from nothing but this file, so renderer, app and CLI tests run on a
/// clean clone without downloaded data: a synthetic street grid over central Helsinki (written
/// as PBF and imported by ``OSMImporter``), coarse world land, a lake, a border and a river at
/// every level of detail, gazetteer cities and countries with their populations, and two small
/// world rasters (imagery and relief) drawn from the same land.
///
/// The street data is made up, not OpenStreetMap's: streets every 0.001° of latitude and
/// 0.002° of longitude between 60.164–60.179 N and 24.935–24.953 E, nine buildings a block
/// (every third one tagged with a height), a primary road named Mannerheimintie across the
/// grid in 20 ways (ids 1000–1019), a park, a pond, a tram track with the stop
/// "Ylioppilastalo" and twelve route relations on it, a tunnel and a bridge, POIs (a hotel, a sight, a
/// pizza restaurant, a café on level 7 and a shop on level 0, three of them with addresses, all
/// with opening hours), and
/// for the bicycling layer cycle tracks along Pohjoisesplanadi (cycle route "2"), a lane on
/// Kaivokatu, Eteläesplanadi a cycle street, and a bicycle parking.
public enum FixtureStore {
    /// The street grid's bounds.
    public static let streetBounds = CoordinateBounds(
        southWest: Coordinate(latitude: 60.164, longitude: 24.935),
        northEast: Coordinate(latitude: 60.179, longitude: 24.953))

    /// The ways of Mannerheimintie (primary) in the fixture.
    public static let mannerheimintieWays = Array(Int64(1000)...1019)

    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: Result<String, any Error>?

    /// The fixture store's path, built on first use in a temporary directory (once a process).
    public static func path() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if built == nil { built = Result { try build() } }
        return try built!.get()
    }

    /// Where the store is built: a folder of this process's own, removed when it exits.
    private static let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "openmaps-fixture-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
    ).path

    private static func build() throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FixtureStore.directory) }
        let store = directory + "/fixture.sqlite"
        let pbf = directory + "/helsinki-fixture.osm.pbf"
        try Data(streetData()).write(to: URL(fileURLWithPath: pbf))
        _ = try OSMImporter.importFile(pbf, into: store, region: "Helsinki")
        try writeWorld(into: store, rasterDirectory: directory)
        return store
    }

    // MARK: Street data

    private static func streetData() -> [UInt8] {
        var nodes: [TestNode] = []
        var ways: [TestWay] = []
        var relations: [TestRelation] = []
        var nextNode: Int64 = 1
        var nextWay: Int64 = 100_000
        func node(_ latitude: Double, _ longitude: Double, _ tags: [(String, String)] = []) -> Int64 {
            defer { nextNode += 1 }
            nodes.append(
                TestNode(
                    id: nextNode, latitude: Int64((latitude * 1e7).rounded()),
                    longitude: Int64((longitude * 1e7).rounded()), tags: tags))
            return nextNode
        }
        func way(_ points: [(Double, Double)], _ tags: [(String, String)], id: Int64? = nil, close: Bool = false)
            -> Int64
        {
            var refs = points.map { node($0.0, $0.1) }
            if close { refs.append(refs[0]) }
            let wayID = id ?? nextWay
            if id == nil { nextWay += 1 }
            ways.append(TestWay(id: wayID, refs: refs, tags: tags))
            return wayID
        }
        func box(_ south: Double, _ west: Double, _ north: Double, _ east: Double) -> [(Double, Double)] {
            [(south, west), (south, east), (north, east), (north, west)]
        }
        let latitudes = stride(from: 60.164, through: 60.179 + 1e-9, by: 0.001).map { $0 }
        let longitudes = stride(from: 24.935, through: 24.953 + 1e-9, by: 0.002).map { $0 }
        let named = [60.1690: "Aleksanterinkatu", 60.1680: "Pohjoisesplanadi", 60.1670: "Eteläesplanadi"]
        // For the bicycling layer: cycle tracks on both sides of Pohjoisesplanadi (a national
        // cycle route, "2"), Eteläesplanadi a cycle street.
        let cycling = ["Pohjoisesplanadi": ("cycleway:both", "track"), "Eteläesplanadi": ("cyclestreet", "yes")]
        var cycleRoute: [Int64] = []
        // Streets east-west and north-south, a way a block (cities map streets in short ways).
        for latitude in latitudes {
            let name = named.first { abs($0.key - latitude) < 1e-6 }?.value ?? String(format: "Katu %.3f", latitude)
            for (west, east) in zip(longitudes, longitudes.dropFirst()) {
                let id = way(
                    [(latitude, west), (latitude, east)],
                    [("highway", "residential"), ("name", name)] + (cycling[name].map { [$0] } ?? []))
                if name == "Pohjoisesplanadi" { cycleRoute.append(id) }
            }
        }
        relations.append(
            TestRelation(
                id: 600, members: cycleRoute.map { (1, $0, "") },
                tags: [("type", "route"), ("route", "bicycle"), ("network", "ncn"), ("ref", "2")]))
        for longitude in longitudes {
            for (south, north) in zip(latitudes, latitudes.dropFirst()) {
                _ = way(
                    [(south, longitude), (north, longitude)],
                    [("highway", "tertiary"), ("name", String(format: "Tie %.3f", longitude))])
            }
        }
        _ = way(
            [(60.1705, 24.9385), (60.1707, 24.9445)],
            [("highway", "secondary"), ("name", "Kaivokatu"), ("cycleway", "lane")])
        // Nine buildings a block, every third with a height for the 3D layer.
        var count = 0
        for south in latitudes.dropLast() {
            for (west, east) in zip(longitudes, longitudes.dropFirst()) {
                // No buildings in the park's and the pond's blocks.
                if abs(south - 60.1670) < 1e-6 && west > 24.9445 && east < 24.9515 { continue }
                if abs(south - 60.1650) < 1e-6 && west > 24.9465 && east < 24.9535 { continue }
                for row in 0..<3 {
                    for column in 0..<3 {
                        let s = south + 0.0001 + Double(row) * 0.00027
                        let w = west + 0.0002 + Double(column) * 0.00055
                        count += 1
                        let tags = [("building", "yes")] + (count % 3 == 0 ? [("height", "\(10 + count % 5 * 6)")] : [])
                        _ = way(box(s, w, s + 0.0002, w + 0.00045), tags, close: true)
                    }
                }
            }
        }
        // Mannerheimintie: a primary road across the grid, north-west, in 20 ways.
        let start = (60.1665, 24.9424)
        let end = (60.1790, 24.9352)
        for index in 0..<20 {
            let a = Double(index) / 20
            let b = Double(index + 1) / 20
            _ = way(
                [
                    (start.0 + (end.0 - start.0) * a, start.1 + (end.1 - start.1) * a),
                    (start.0 + (end.0 - start.0) * b, start.1 + (end.1 - start.1) * b),
                ], [("highway", "primary"), ("name", "Mannerheimintie"), ("name:sv", "Mannerheimvägen")],
                id: 1000 + Int64(index))
        }
        _ = way(
            box(60.1671, 24.9451, 60.1679, 24.9509),
            [
                ("leisure", "park"), ("name", "Esplanadinpuisto"), ("name:en", "Esplanade Park"),
                ("name:es", "Parque de la Explanada"), ("name:it", "Parco dell'Esplanade"), ("name:hi", "एस्प्लेनेड पार्क"),
            ], close: true)
        _ = way(
            box(60.1652, 24.9471, 60.1658, 24.9529), [("natural", "water"), ("name", "Kauppatorin allas")], close: true)
        _ = way(
            [(60.1645, 24.9380), (60.1645, 24.9450)], [("highway", "service"), ("tunnel", "yes"), ("layer", "-1")])
        _ = way(
            [(60.1655, 24.9380), (60.1655, 24.9450)], [("highway", "secondary"), ("bridge", "yes"), ("layer", "1")])
        // A tram line along Aleksanterinkatu with a stop and its route.
        let tram = (0..<12).map { index in
            way(
                [(60.1691, 24.9360 + Double(index) * 0.0015), (60.1691, 24.9375 + Double(index) * 0.0015)],
                [("railway", "tram")])
        }
        let stop = node(60.1692, 24.9440, [("railway", "tram_stop"), ("name", "Ylioppilastalo")])
        // Twelve tram lines share the track, as lines do in a city centre.
        for line in 1...12 {
            relations.append(
                TestRelation(
                    id: 500 + Int64(line), members: tram.map { (1, $0, "") } + [(0, stop, "stop")],
                    tags: [("type", "route"), ("route", "tram"), ("ref", "\(line)"), ("name", "Tram \(line)")]))
        }
        // Points of interest.
        let address = { (street: String, number: String) -> [(String, String)] in
            [
                ("addr:street", street), ("addr:housenumber", number), ("addr:postcode", "00100"),
                ("addr:city", "Helsinki"),
            ]
        }
        _ = node(
            60.1681, 24.9470,
            [("tourism", "hotel"), ("name", "Hotel Kämp"), ("opening_hours", "24/7")]
                + address("Pohjoisesplanadi", "29"))
        _ = node(60.1677, 24.9523, [("tourism", "artwork"), ("name", "Havis Amanda")])
        _ = node(
            60.16845, 24.9497,
            [
                ("amenity", "restaurant"), ("cuisine", "pizza"), ("name", "Ravintola Savoy"),
                ("name:sv", "Restaurang Savoy"), ("opening_hours", "Mo-Fr 11:30-23:00; Sa 17:00-01:00; Su,PH off"),
            ]
                + address("Eteläesplanadi", "14"))
        _ = node(
            60.1688, 24.9405,
            [
                ("amenity", "cafe"), ("name", "Fazer 8th Floor"), ("level", "7"),
                ("opening_hours", "Mo-Fr 08:00-20:00; Sa 10:00-18:00"),
            ])
        _ = node(
            60.1687, 24.9410,
            [
                ("shop", "department_store"), ("name", "Stockmann"), ("level", "0;1"), ("wikidata", "Q644390"),
                ("opening_hours", "Mo-Fr 10:00-20:00; Sa 10:00-19:00; Su 12:00-18:00"),
            ]
                + address("Aleksanterinkatu", "52"))
        _ = node(60.1700, 24.9410, [("place", "quarter"), ("name", "Kluuvi")])
        _ = node(60.16835, 24.9460, [("amenity", "bicycle_parking"), ("capacity", "20")])
        return PBFWriter.file(
            dense: nodes, ways: ways, relations: relations,
            bounds: (
                streetBounds.southWest!.longitude, streetBounds.southWest!.latitude, streetBounds.northEast!.longitude,
                streetBounds.northEast!.latitude
            ))
    }

    // MARK: World layers, gazetteer, rasters

    /// Coarse land outlines (latitude, longitude), each a ring: Eurasia with Africa (the Baltic,
    /// the Gulfs of Bothnia and Finland, the Arabian Sea and the Mediterranean as inlets; Chukotka
    /// across the antimeridian) and Alaska.
    static let land: [[(Double, Double)]] = [
        [
            (54.5, 10.0), (54.4, 19.5), (55.0, 21.0), (57.5, 21.5), (58.0, 22.0), (59.2, 23.4), (59.5, 24.5),
            (59.5, 28.0), (59.9, 30.2), (60.6, 28.8), (60.5, 27.5), (60.1, 25.0), (59.9, 23.0), (60.3, 22.3),
            (61.0, 21.4), (62.5, 21.3), (64.0, 21.5), (65.8, 22.0), (62.5, 17.6), (60.6, 17.5), (59.0, 18.5),
            (56.5, 16.3), (55.4, 13.0), (56.0, 12.5), (58.0, 11.3), (58.0, 6.5), (62.0, 5.0), (66.0, 12.5),
            (70.0, 19.0), (71.0, 26.0), (69.5, 33.0), (68.0, 44.0), (70.0, 60.0), (73.0, 100.0), (70.0, 140.0),
            (69.5, 179.0), (68.5, -175.0), (66.0, -169.7), (64.5, -173.0), (65.0, 178.0), (62.0, 175.0),
            (60.0, 163.0), (51.0, 156.5), (40.0, 130.0), (35.0, 120.0), (22.0, 108.0), (10.0, 105.0), (8.0, 77.0),
            (20.0, 72.5), (25.0, 66.0), (25.5, 57.0), (22.5, 59.8), (17.0, 55.0), (12.8, 45.0), (12.0, 43.5),
            (-35.0, 20.0), (-5.0, 12.0), (4.0, 8.0), (5.0, -10.0), (15.0, -17.0), (35.8, -6.0), (37.0, 10.0),
            (31.0, 32.0), (36.5, 36.0),
            (40.5, 26.0), (38.0, 23.5), (40.0, 19.5), (45.5, 13.5), (40.0, 18.5), (38.0, 15.5), (44.0, 8.5),
            (43.0, 3.5), (36.0, -5.5), (37.0, -9.0), (43.5, -9.0), (43.5, -1.5), (48.5, -4.8), (51.0, 2.0),
            (53.5, 8.0),
        ],
        [
            (60.0, -165.0), (65.5, -168.0), (71.3, -156.5), (69.5, -141.0), (60.0, -139.0), (58.5, -152.0),
            (55.0, -162.0),
        ],
    ]

    /// Lake Ladoga, roughly.
    static let lakes: [[(Double, Double)]] = [[(60.2, 30.5), (60.6, 33.0), (61.7, 32.0), (61.5, 30.0)]]

    /// Cities: name, latitude, longitude, population.
    static let cities: [(String, Double, Double, Int64, String)] = [
        ("Helsinki", 60.16952, 24.93545, 558_457, "FI"), ("Espoo", 60.2052, 24.6522, 256_760, "FI"),
        ("Tampere", 61.49911, 23.78712, 202_687, "FI"), ("Turku", 60.45148, 22.26869, 175_945, "FI"),
        ("Tallinn", 59.43696, 24.75353, 394_024, "EE"), ("Stockholm", 59.33258, 18.0649, 1_515_017, "SE"),
        ("Saint Petersburg", 59.93863, 30.31413, 5_351_935, "RU"), ("Paris", 48.85341, 2.3488, 2_138_551, "FR"),
        ("Paris", 33.66094, -95.55551, 24_782, "US"), ("Santa Cruz", 36.97412, -122.0308, 64_220, "US"),
        ("Santa Cruz de la Sierra", -17.78629, -63.18117, 1_364_389, "BO"),
        ("San Francisco", 37.77493, -122.41942, 864_816, "US"), ("Cupertino", 37.323, -122.03218, 58_302, "US"),
        ("Mountain View", 37.38605, -122.08385, 74_066, "US"), ("New York City", 40.71427, -74.00597, 8_175_133, "US"),
        ("Jamaica", 40.69149, -73.80569, 216_866, "US"), ("Springfield", 42.10148, -72.58981, 153_606, "US"),
        ("Springfield", 39.80172, -89.64371, 116_565, "US"), ("Tokyo", 35.6895, 139.69171, 8_336_599, "JP"),
        ("Kingston", 17.99702, -76.79358, 937_700, "JM"),
    ]

    /// Countries, placed at their capitals: name, ISO code, latitude, longitude, population.
    static let countries: [(String, String, Double, Double, Int64)] = [
        ("Finland", "FI", 60.16952, 24.93545, 5_518_000), ("Estonia", "EE", 59.43696, 24.75353, 1_319_000),
        ("Jamaica", "JM", 17.99702, -76.79358, 2_934_000),
    ]

    private static func coordinates(_ ring: [(Double, Double)]) -> [Coordinate] {
        (ring + [ring[0]]).map { Coordinate(latitude: $0.0, longitude: $0.1) }
    }

    private static func writeWorld(into store: String, rasterDirectory: String) throws {
        let rasters = [
            ("bmng", try drawRaster(sea: (0.04, 0.12, 0.32), land: (0.22, 0.36, 0.18), snow: true)),
            ("shadedrelief", try drawRaster(sea: (0.66, 0.78, 0.86), land: (0.80, 0.76, 0.64), snow: false)),
        ]
        try StoreUpdate.apply(to: store) { database in
            let world = try StoreUpdate.replaceSource(
                named: "world", kind: .basemap, attribution: "fixture world outlines", licence: "CC0",
                path: nil, bounds: .world, in: database)
            var writer = try FeatureWriter(database: database, source: world)
            for detail in WorldImporter.details {
                for ring in land {
                    try writer.write(
                        type: nil, id: nil, kind: FeatureKind(featureClass: .land, kind: "land", isArea: true),
                        tags: [], geometry: .polygon([coordinates(ring)]), names: [], detail: detail)
                }
                for ring in lakes {
                    try writer.write(
                        type: nil, id: nil, kind: FeatureKind(featureClass: .water, kind: "lake", isArea: true),
                        tags: [], geometry: .polygon([coordinates(ring)]), names: [], detail: detail)
                }
                try writer.write(
                    type: nil, id: nil, kind: FeatureKind(featureClass: .border, kind: "country", isArea: false),
                    tags: [],
                    geometry: .line(
                        [(60.5, 27.7), (61.5, 29.5), (65.0, 29.8), (69.0, 28.8)].map {
                            Coordinate(latitude: $0.0, longitude: $0.1)
                        }), names: [], detail: detail)
                try writer.write(
                    type: nil, id: nil, kind: FeatureKind(featureClass: .waterway, kind: "river", isArea: false),
                    tags: [],
                    geometry: .line(
                        [(61.5, 23.8), (61.2, 22.5), (61.6, 21.5)].map {
                            Coordinate(latitude: $0.0, longitude: $0.1)
                        }), names: [], detail: detail)
            }
            for (name, canvas) in rasters {
                let path = rasterDirectory + "/" + name + ".png"
                try canvas.write(to: path)
                try database.run(
                    "INSERT INTO raster (name, source, path, width, height, min_lat, min_lon, max_lat, max_lon) "
                        + "VALUES (?,?,?,?,?,-90,-180,90,180)",
                    [
                        .text(name), .integer(world), .text(path), .integer(Int64(canvas.width)),
                        .integer(Int64(canvas.height)),
                    ])
            }
            let gazetteer = try StoreUpdate.replaceSource(
                named: "gazetteer", kind: .gazetteer, attribution: "fixture places after GeoNames",
                licence: "CC BY 4.0",
                path: nil, bounds: .world, in: database)
            var places = try FeatureWriter(database: database, source: gazetteer)
            for (index, city) in cities.enumerated() {
                try places.write(
                    type: nil, id: Int64(index + 1),
                    kind: FeatureKind(featureClass: .place, kind: "city", isArea: false),
                    tags: [("name", city.0), ("country_code", city.4)],
                    geometry: .point(Coordinate(latitude: city.1, longitude: city.2)), names: [city.0],
                    population: city.3)
            }
            for (index, country) in countries.enumerated() {
                try places.write(
                    type: nil, id: Int64(1000 + index),
                    kind: FeatureKind(featureClass: .place, kind: "country", isArea: false),
                    tags: [("name", country.0), ("country_code", country.1)],
                    geometry: .point(Coordinate(latitude: country.2, longitude: country.3)),
                    names: [country.0, country.1], population: country.4)
            }
        }
    }

    /// A 720 × 360 plate carrée picture of ``land`` over the sea, with snow on the Scandinavian
    /// mountains when `snow`.
    private static func drawRaster(
        sea: (Double, Double, Double), land landColor: (Double, Double, Double), snow: Bool
    ) throws -> Canvas {
        let canvas = try Canvas(width: 720, height: 360)
        canvas.fill(all: Color(red: sea.0, green: sea.1, blue: sea.2))
        for ring in land {
            // Unwrapped across the antimeridian, then drawn at both copies.
            var previous = ring[0].1
            let points = ring.map { point -> (Double, Double) in
                var longitude = point.1
                while longitude - previous > 180 { longitude -= 360 }
                while longitude - previous < -180 { longitude += 360 }
                previous = longitude
                return ((longitude + 180) * 2, (90 - point.0) * 2)
            }
            for shift in [-720.0, 0, 720] {
                canvas.move(x: points[0].0 + shift, y: points[0].1)
                for point in points.dropFirst() { canvas.line(x: point.0 + shift, y: point.1) }
                canvas.closePath()
            }
            canvas.fill(Color(red: landColor.0, green: landColor.1, blue: landColor.2), evenOdd: false)
        }
        if snow {
            canvas.rectangle(x: (6.0 + 180) * 2, y: (90 - 63.0) * 2, width: 6 * 2, height: 3 * 2)
            canvas.fill(Color(red: 0.92, green: 0.93, blue: 0.95))
        }
        return canvas
    }
}
