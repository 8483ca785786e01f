import Foundation
import GeoCore
import SQLiteKit
import TestSupport
import Testing

@testable import MapData

/// GTFS feeds imported as stations, stops and route lines; bad feeds refused by file, line and field.
@Suite struct GTFSImportTests {
    static var files: [String: String] { FixtureFeed.files }

    static func feed(_ files: [String: String] = FixtureFeed.files, in folder: String = "") -> [UInt8] {
        FixtureFeed.zip(files, in: folder)
    }

    /// A fresh folder with the feed written as `feed.zip`; returns (folder, feed path, store path).
    static func folder(_ bytes: [UInt8]) throws -> (String, String, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-gtfs-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let feed = folder + "/example-metro.zip"
        try Data(bytes).write(to: URL(fileURLWithPath: feed))
        return (folder, feed, folder + "/store.sqlite")
    }

    func features(_ store: String) throws -> [MapStore.Feature] {
        try MapStore(path: store).features(in: .world, classes: [.transit, .route])
    }

    @Test func stationsStopsAndLines() throws {
        let (folder, feed, store) = try Self.folder(Self.feed(in: "feed/"))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try GTFSImporter.importFeed(feed, into: store)
        #expect(report.name == "example-metro" && report.agencies == ["Example Metro"])
        #expect(report.stations == 3 && report.stops == 2 && report.entrances == 1)
        #expect(report.routes == 2 && report.routesWithoutShapes == 1, "the gondola's type is not drawn")
        let all = try features(store)
        let stops = all.filter { $0.featureClass == .transit }
        #expect(
            Set(stops.map { "\($0.kind):\($0.name ?? "")" }) == [
                "station:Roppongi", "station:Azabu-Juban", "station:Akabanebashi", "subway_entrance:Roppongi Exit 3",
                "bus_stop:Corner of \"Main\", 1st", "bus_stop:Hill Stop",
            ], "platforms are drawn by their station; a stop no trip serves is left out")
        let oedo = try #require(all.first { $0.featureClass == .route && $0.kind == "subway" })
        #expect(oedo.name == "E" && oedo.colour == Color(hex: 0xCF3366))
        guard case .lines(let lines) = oedo.geometry else {
            Issue.record("a route is lines")
            return
        }
        #expect(lines.count == 1, "the line run backwards and the short turn are the same line")
        #expect(lines.first?.count == 3 && lines.first?.first == Coordinate(latitude: 35.6628, longitude: 139.7313))
        let bus = try #require(all.first { $0.featureClass == .route && $0.kind == "bus" })
        #expect(bus.name == "Hill Bus" && bus.colour == nil)
        #expect(
            bus.geometry
                == .lines([
                    [
                        Coordinate(latitude: 35.66, longitude: 139.74),
                        Coordinate(latitude: 35.6605, longitude: 139.7425),
                        Coordinate(latitude: 35.661, longitude: 139.745),
                    ]
                ]), "the shape in its sequence order")
        let source = try #require(try MapStore(path: store).sources().first)
        #expect(source.kind == .gtfs && source.attribution == "Transit data: Example Metro")
        #expect(source.fingerprint == (try FileFingerprint.of(feed)))
        #expect(source.bounds.southWest == Coordinate(latitude: 35.6545, longitude: 139.7310))
        let found = try MapStore(path: store).features(named: "六本木")
        #expect(found.map(\.name) == ["Roppongi"], "a translated name finds the station")
        #expect(try MapStore(path: store).features(named: "大江戸線").map(\.name) == ["E"])
    }

    @Test func creditAndLicenceCanBeGiven() throws {
        let (folder, feed, store) = try Self.folder(Self.feed())
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try GTFSImporter.importFeed(
            feed, into: store, name: "metro", attribution: "Transit data © Example Metro, CC-BY 4.0",
            licence: "CC BY 4.0")
        let source = try #require(try MapStore(path: store).sources().first)
        #expect(source.name == "metro" && source.licence == "CC BY 4.0")
        #expect(source.attribution == "Transit data © Example Metro, CC-BY 4.0")
    }

    /// A broken feed: what to change, and what the error must say.
    struct Broken: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var text: String?
        var says: String
        var testDescription: String { name }
    }

    static let broken: [Broken] = [
        Broken(
            name: "no stops", file: "stops.txt", text: nil,
            says:
                "the feed has no stops.txt (a GTFS feed's network needs stops.txt, routes.txt, trips.txt, stop_times.txt)"
        ),
        Broken(
            name: "no latitude column", file: "stops.txt", text: "stop_id,stop_name,stop_lon\nS1,A,139.7\n",
            says: "stops.txt has no 'stop_lat' column"),
        Broken(
            name: "bad latitude", file: "stops.txt",
            text: "stop_id,stop_name,stop_lat,stop_lon\nS1,A,35.6,139.7\nS2,B,north,139.7\n",
            says: "stops.txt line 3: stop 'S2' is at 'north','139.7', not a latitude and longitude"),
        Broken(
            name: "duplicate stop", file: "stops.txt",
            text: "stop_id,stop_name,stop_lat,stop_lon\nS1,A,35,139\nS1,B,35,139\n",
            says: "stops.txt line 3: stop_id 'S1' appears twice"),
        Broken(
            name: "unknown parent", file: "stops.txt",
            text: "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,A,35,139,P9\n",
            says: "stop 'S1' has parent_station 'P9', which is not a stop"),
        Broken(
            name: "unknown stop in a trip", file: "stop_times.txt",
            text: "trip_id,stop_id,stop_sequence\ne1,S1N,1\ne1,NOPE,2\n",
            says: "stop_times.txt line 3: stop_id 'NOPE' is not in stops.txt"),
        Broken(
            name: "unknown trip", file: "stop_times.txt", text: "trip_id,stop_id,stop_sequence\nz9,S1N,1\n",
            says: "stop_times.txt line 2: trip_id 'z9' is not in trips.txt"),
        Broken(
            name: "bad sequence", file: "stop_times.txt", text: "trip_id,stop_id,stop_sequence\ne1,S1N,first\n",
            says: "stop_times.txt line 2: stop_sequence 'first' is not a whole number"),
        Broken(
            name: "unknown route", file: "trips.txt", text: "route_id,service_id,trip_id\nQ,weekday,e1\n",
            says: "trips.txt line 2: route_id 'Q' is not in routes.txt"),
        Broken(
            name: "route type not a number", file: "routes.txt", text: "route_id,route_type\nE,subway\n",
            says: "routes.txt line 2: route_type 'subway' of route 'E' is not a number"),
        Broken(name: "empty routes", file: "routes.txt", text: "", says: "routes.txt is empty (it needs a header row)"),
        Broken(
            name: "a stop twice", file: "stops.txt",
            text: "stop_id,stop_name,stop_lat,stop_lon\nS1N,A,35,139\nS1N,B,35.1,139.1\n",
            says: "stops.txt line 3: stop_id 'S1N' appears twice"),
        Broken(
            name: "a route twice", file: "routes.txt", text: "route_id,route_type\nE,1\nE,3\n",
            says: "routes.txt line 3: route_id 'E' appears twice"),
    ]

    /// The timetable reads `stops.txt` and `routes.txt` through the same reader as the map's
    /// features: the same feeds are refused, in the same words.
    @Test(arguments: broken.filter { ["stops.txt", "routes.txt"].contains($0.file) && $0.text?.isEmpty == false })
    func theTimetableRefusesWhatTheMapRefuses(_ broken: Broken) throws {
        var files = Self.files
        files[broken.file] = broken.text
        let (folder, feed, _) = try Self.folder(Self.feed(files))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = #expect(throws: DataError.self) { try Timetable(feed: feed) }
        #expect(error?.message.contains(broken.says) == true, "\(error?.message ?? "no error")")
    }

    @Test(arguments: broken)
    func brokenFeedsAreRefusedAndTheStoreIsKept(_ broken: Broken) throws {
        var files = Self.files
        files[broken.file] = broken.text
        let (folder, feed, store) = try Self.folder(Self.feed(files))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (_, goodFeed, _) = try Self.folder(Self.feed())
        _ = try GTFSImporter.importFeed(goodFeed, into: store, name: "example-metro")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let error = #expect(throws: DataError.self) { try GTFSImporter.importFeed(feed, into: store) }
        #expect(error?.kind == .invalidData)
        #expect(error?.message.contains(broken.says) == true, "\(error?.message ?? "no error")")
        #expect(error?.path == feed)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: store)) == before, "a refused feed leaves the store as it was")
    }

    @Test func theImportIsToldByContent() throws {
        let (folder, feed, store) = try Self.folder(Self.feed())
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let renamed = folder + "/network.osm"
        try FileManager.default.moveItem(atPath: feed, toPath: renamed)
        #expect(try DataImport.kind(of: renamed) == .gtfs)
        guard case .gtfs(let report) = try DataImport.importFile(renamed, into: store, name: "metro") else {
            Issue.record("a zip is a GTFS feed")
            return
        }
        #expect(report.routes == 2)
    }

    @Test(arguments: [
        (0, "tram"), (1, "subway"), (2, "train"), (3, "bus"), (4, "ferry"), (5, "tram"), (7, "train"),
        (11, "trolleybus"), (12, "monorail"), (109, "train"), (401, "subway"), (405, "monorail"), (700, "bus"),
        (900, "tram"), (1000, "ferry"), (1200, "ferry"), (1400, "train"),
    ])
    func routeTypes(type: Int, mode: String) {
        #expect(GTFSImporter.Network.mode(routeType: type) == mode)
    }

    @Test func oneReadingOfRouteTypesForTheMapAndTheItinerary() {
        #expect(TransitVehicle(routeType: 405) == .monorail && TransitVehicle(routeType: 12) == .monorail)
        #expect(TransitVehicle(routeType: 7) == .funicular && TransitVehicle(routeType: 1200) == .ferry)
        #expect(TransitVehicle(routeType: 6) == .aerialLift && TransitVehicle(routeType: 6)?.routeValue == nil)
        #expect(TransitVehicle(routeType: 1500) == nil && TransitVehicle(routeType: 99) == nil)
        for language in Language.allCases {
            let words = Phrasebook(language)
            for vehicle in TransitVehicle.allCases { #expect(words.word(vehicle.wordKey) != vehicle.wordKey) }
        }
    }

    @Test func distinctPatterns() {
        let patterns = GTFSImporter.Network.distinct([[1, 2, 3], [3, 2, 1], [2, 3], [4, 5], [1, 2, 3, 4], [5, 4]])
        #expect(patterns == [[1, 2, 3, 4], [4, 5]])
    }
}

/// Comma-separated tables as GTFS writes them.
@Suite struct CSVTableTests {
    func rows(_ text: String) throws -> (CSVTable, [[String]], [Int]) {
        let table = try CSVTable(name: "t.txt", bytes: Array(text.utf8), feed: "feed.zip")
        var rows: [[String]] = []
        var lines: [Int] = []
        table.forEachRow { row in
            rows.append((0..<row.count).map { row.string($0) })
            lines.append(row.line)
        }
        return (table, rows, lines)
    }

    @Test func quotesLineEndsAndSpaces() throws {
        let (table, rows, lines) = try rows(
            "\u{FEFF}a, b ,c\r\n1, two ,\"three, \"\"3\"\"\"\r\n\r\n\"multi\nline\",x,\n4,5")
        #expect(table.columns == ["a", "b", "c"])
        #expect(rows == [["1", "two", "three, \"3\""], ["multi\nline", "x", ""], ["4", "5"]])
        #expect(lines == [2, 4, 6], "line numbers count the blank line and the line break inside quotes")
        #expect(table.column("b") == 1 && table.column("d") == nil)
    }

    @Test func aMissingColumnIsNamed() throws {
        let (table, _, _) = try rows("a,b\n1,2\n")
        let error = #expect(throws: DataError.self) { try table.requiredColumn("stop_id", feed: "feed.zip") }
        #expect(error?.description == "feed.zip: t.txt has no 'stop_id' column")
    }
}
