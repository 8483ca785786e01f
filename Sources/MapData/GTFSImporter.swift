import Foundation
import GeoCore

/// Imports a GTFS feed's network into a store as one data set, atomically: its stations and
/// stops as `transit` features and its routes as `route` lines, so the transit layer draws the
/// feed's lines in their own colours and the search finds its stations.
///
/// Stations are `location_type` 1, and stops that have no parent station; platforms are drawn
/// by their station. A stop's kind follows the routes that serve it (`station` for rail and
/// subway, `tram_stop`, `bus_stop`, `ferry_terminal`), an entrance's its station's
/// (`subway_entrance`). A route's lines are its trips' shapes where `shapes.txt` has them,
/// else the distinct station sequences of its trips (a platform counts as its station; a
/// sequence run backwards, or contained in a longer one, is the same line). Names in other languages from `translations.txt` are
/// searchable. The feed's timetable (``Timetable``) is stored with it, for journey planning.
public enum GTFSImporter {
    /// What an import did.
    public struct Report: Sendable, Equatable {
        /// The feed's name, as its source is named.
        public var name: String
        /// Stations written (`location_type` 1).
        public var stations = 0
        /// Stops and platforms written.
        public var stops = 0
        /// Entrances written (`location_type` 2).
        public var entrances = 0
        /// Routes drawn as lines.
        public var routes = 0
        /// Routes drawn from their trips' stop sequences because the feed has no shapes for them.
        public var routesWithoutShapes = 0
        /// The agencies' names, in the feed's order.
        public var agencies: [String] = []
        /// Trips in the timetable (those of `frequencies.txt` one by one); 0 without a calendar.
        public var trips = 0
    }

    /// Whether the feed has `calendar.txt` or `calendar_dates.txt`, so it has a timetable.
    static func hasCalendar(_ files: GTFSFiles) -> Bool { files.has("calendar.txt") || files.has("calendar_dates.txt") }

    /// The files a feed must have for its network.
    static let requiredFiles = ["stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]

    /// Imports the feed at `path` (a zip) into the store at `storePath` as `name` (default:
    /// the file's name without `.zip`).
    ///
    /// - Parameters:
    ///   - attribution: the credit shown with the data (default: "Transit data: " and the agencies).
    ///   - licence: the feed's licence or terms (default: the publisher's terms, not stated in the feed).
    /// - Throws: ``DataError`` naming the file, line and field of bad data; the store is left as it was.
    public static func importFeed(
        _ path: String, into storePath: String, name: String? = nil, attribution: String? = nil,
        licence: String? = nil
    ) throws -> Report {
        let name = name ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        // Each file unzipped and read once, for the network and the timetable alike.
        let files = try GTFSFiles(path: path)
        let network = try Network(files: files)
        // A feed without calendars still draws its network; it has no timetable to plan with.
        let timetable = Self.hasCalendar(files) ? try Timetable(files: files) : nil
        var report = Report(name: name, agencies: network.agencies)
        report.trips = timetable?.trips.count ?? 0
        let credit = attribution ?? "Transit data: " + network.agencies.joined(separator: ", ")
        try StoreUpdate.apply(to: storePath) { database in
            let source = try StoreUpdate.replaceSource(
                named: name, kind: .gtfs, attribution: credit,
                licence: licence ?? "the publisher's terms (not stated in the feed)", path: path,
                bounds: OSMImporter.extent(of: network.stops.map(\.coordinate)),
                fingerprint: try FileFingerprint.of(path), in: database)
            var writer = try FeatureWriter(database: database, source: source)
            try network.writeStops(into: &writer, report: &report)
            try network.writeRoutes(into: &writer, report: &report)
            try timetable?.write(source: name, into: database)
        }
        return report
    }

    /// Reads the feed at `path` as ``importFeed(_:into:name:attribution:licence:)`` does (its
    /// network, and its timetable where it has calendars), writing nothing: to check a feed
    /// before it goes into a store, and for the readers' fuzzer.
    ///
    /// - Returns: the feed's routes, stops and timetabled trips.
    /// - Throws: ``DataError`` naming the file, line and field of bad data.
    @discardableResult
    public static func read(_ path: String) throws -> (routes: Int, stops: Int, trips: Int) {
        let files = try GTFSFiles(path: path)
        let network = try Network(files: files)
        let timetable = Self.hasCalendar(files) ? try Timetable(files: files) : nil
        return (network.routes.count, network.stops.count, timetable?.trips.count ?? 0)
    }

    /// A stop as read from `stops.txt`.
    struct Stop {
        var id: String
        var name: String
        var code: String?
        var coordinate: Coordinate
        var locationType: Int
        var parent: Int?
        /// The route types that stop here (a station's: its platforms').
        var routeTypes: Set<Int> = []
    }

    /// A route as read from `routes.txt`.
    struct Route {
        var id: String
        var shortName: String?
        var longName: String?
        var type: Int
        var colour: String?
        /// Shape ids of its trips, in first-seen order.
        var shapes: [String] = []
        /// Distinct stop sequences of its trips (stop indexes), in first-seen order.
        var patterns: [[Int]] = []
    }

    /// The feed's network: stops, routes, and which trips run where.
    struct Network {
        let feed: String
        var agencies: [String] = []
        var stops: [Stop] = []
        var routes: [Route] = []
        var shapes: [String: [Coordinate]] = [:]
        /// Translations of names: original text → every translation.
        var translations: [String: [String]] = [:]

        init(files: GTFSFiles) throws {
            let feed = files.feed
            self.feed = feed
            func table(_ file: String, required: Bool) throws -> CSVTable? {
                guard let table = try files.table(file) else {
                    if required {
                        throw DataError(
                            .invalidData,
                            message:
                                "the feed has no \(file) (a GTFS feed's network needs \(GTFSImporter.requiredFiles.joined(separator: ", ")))",
                            path: feed)
                    }
                    return nil
                }
                return table
            }
            if let agency = try table("agency.txt", required: false) {
                let column = try agency.requiredColumn("agency_name", feed: feed)
                agency.forEachRow { row in if let name = row.value(column) { agencies.append(name) } }
            }
            if agencies.isEmpty { agencies = [URL(fileURLWithPath: feed).deletingPathExtension().lastPathComponent] }
            try readStops(try table("stops.txt", required: true)!)
            try readRoutes(try table("routes.txt", required: true)!)
            let tripRoutes = try readTrips(try table("trips.txt", required: true)!)
            try readStopTimes(try table("stop_times.txt", required: true)!, tripRoutes: tripRoutes)
            if let shapes = try table("shapes.txt", required: false) { try readShapes(shapes) }
            if let translations = try table("translations.txt", required: false) { readTranslations(translations) }
        }

        private func invalid(_ table: CSVTable, _ row: CSVTable.Row, _ message: String) -> DataError {
            GTFSRows.invalid(table, row, message, feed: feed)
        }

        /// The stops with a position (``GTFSRows/stops(_:feed:)``; a generic node or boarding
        /// area without one, nor its station's, is not drawn).
        private mutating func readStops(_ table: CSVTable) throws {
            var index: [String: Int] = [:]
            var parents: [(stop: Int, parent: Int)] = []
            let rows = try GTFSRows.stops(table, feed: feed)
            for row in rows {
                guard let coordinate = row.coordinate else { continue }
                index[row.id] = stops.count
                if let parent = row.parent { parents.append((stops.count, parent)) }
                stops.append(
                    Stop(
                        id: row.id, name: row.name, code: row.code, coordinate: coordinate,
                        locationType: row.locationType))
            }
            for (stop, parent) in parents { stops[stop].parent = index[rows[parent].id] }
            stopIndex = index
        }

        private var stopIndex: [String: Int] = [:]
        private var routeIndex: [String: Int] = [:]

        private mutating func readRoutes(_ table: CSVTable) throws {
            for route in try GTFSRows.routes(table, feed: feed) {
                routeIndex[route.id] = routes.count
                routes.append(
                    Route(
                        id: route.id, shortName: route.shortName, longName: route.longName, type: route.type,
                        colour: route.colour))
            }
        }

        /// Each trip's route index, by trip id; records the routes' shapes.
        private mutating func readTrips(_ table: CSVTable) throws -> [String: Int] {
            let route = try table.requiredColumn("route_id", feed: feed)
            let trip = try table.requiredColumn("trip_id", feed: feed)
            let shape = table.column("shape_id")
            var trips: [String: Int] = [:]
            var seenShapes: Set<String> = []
            try table.forEachRow { row in
                let routeID = row.string(route)
                guard let index = routeIndex[routeID] else {
                    throw invalid(table, row, "route_id '\(routeID)' is not in routes.txt")
                }
                guard let tripID = row.value(trip) else { throw invalid(table, row, "trip_id is empty") }
                trips[tripID] = index
                if let shapeID = row.value(shape), seenShapes.insert(shapeID).inserted {
                    routes[index].shapes.append(shapeID)
                }
            }
            return trips
        }

        /// Every trip's stops in order: the stops' route types and the routes' stop patterns.
        private mutating func readStopTimes(_ table: CSVTable, tripRoutes: [String: Int]) throws {
            let trip = try table.requiredColumn("trip_id", feed: feed)
            let stop = try table.requiredColumn("stop_id", feed: feed)
            let sequence = try table.requiredColumn("stop_sequence", feed: feed)
            var calls: [String: [(sequence: Int, stop: Int)]] = [:]
            var order: [String] = []
            try table.forEachRow { row in
                let tripID = row.string(trip)
                guard tripRoutes[tripID] != nil else {
                    throw invalid(table, row, "trip_id '\(tripID)' is not in trips.txt")
                }
                let stopID = row.string(stop)
                guard let stopIndex = stopIndex[stopID] else {
                    throw invalid(table, row, "stop_id '\(stopID)' is not in stops.txt")
                }
                guard let number = Int(row.string(sequence)), number >= 0 else {
                    throw invalid(table, row, "stop_sequence '\(row.string(sequence))' is not a whole number")
                }
                if calls[tripID] == nil { order.append(tripID) }
                calls[tripID, default: []].append((number, stopIndex))
            }
            var patterns: [Set<[Int]>] = Array(repeating: [], count: routes.count)
            for tripID in order {
                guard let route = tripRoutes[tripID], let tripCalls = calls[tripID] else { continue }
                let calls = tripCalls.sorted { $0.sequence < $1.sequence }.map(\.stop)
                for stop in calls {
                    stops[stop].routeTypes.insert(routes[route].type)
                    if let parent = stops[stop].parent { stops[parent].routeTypes.insert(routes[route].type) }
                }
                // A line runs through stations: each direction's platform is its station.
                let pattern = calls.map { stops[$0].parent ?? $0 }
                if patterns[route].insert(pattern).inserted { routes[route].patterns.append(pattern) }
            }
            for index in routes.indices { routes[index].patterns = Self.distinct(routes[index].patterns) }
        }

        /// Patterns without those that run backwards along another or lie inside a longer one.
        static func distinct(_ patterns: [[Int]]) -> [[Int]] {
            let longestFirst = patterns.enumerated().sorted {
                ($1.element.count, $0.offset) < ($0.element.count, $1.offset)
            }
            var kept: [[Int]] = []
            for (_, pattern) in longestFirst {
                let reversed = Array(pattern.reversed())
                let covered = kept.contains { longer in
                    contains(longer, pattern) || contains(longer, reversed)
                }
                if !covered { kept.append(pattern) }
            }
            return kept
        }

        /// Whether `part` runs contiguously inside `whole`.
        private static func contains(_ whole: [Int], _ part: [Int]) -> Bool {
            guard part.count <= whole.count, let first = part.first else { return part.isEmpty }
            for start in whole.indices where whole[start] == first && start + part.count <= whole.count {
                if Array(whole[start..<(start + part.count)]) == part { return true }
            }
            return false
        }

        private mutating func readShapes(_ table: CSVTable) throws {
            shapes = try GTFSShapes.read(table, feed: feed)
        }

        private mutating func readTranslations(_ table: CSVTable) {
            guard let value = table.column("field_value"), let translation = table.column("translation") else { return }
            table.forEachRow { row in
                guard let original = row.value(value), let translated = row.value(translation), original != translated
                else { return }
                translations[original, default: []].append(translated)
            }
        }

        /// The transit layer's kind of line a GTFS route type is drawn as
        /// (``TransitVehicle/routeValue``); nil for none.
        static func mode(routeType: Int) -> String? { TransitVehicle(routeType: routeType)?.routeValue }

        /// What kind of stop serves these route types.
        static func stopKind(routeTypes: Set<Int>) -> String {
            let modes = Set(routeTypes.compactMap(mode(routeType:)))
            if !modes.isDisjoint(with: ["subway", "train", "monorail"]) { return "station" }
            if modes.contains("tram") { return "tram_stop" }
            if modes.contains("ferry") { return "ferry_terminal" }
            return "bus_stop"
        }

        func writeStops(into writer: inout FeatureWriter, report: inout Report) throws {
            for stop in stops {
                let kind: String
                switch stop.locationType {
                case 1:
                    kind = Self.stopKind(routeTypes: stop.routeTypes)
                    report.stations += 1
                case 0 where stop.parent == nil:
                    guard !stop.routeTypes.isEmpty else { continue }
                    kind = Self.stopKind(routeTypes: stop.routeTypes)
                    if kind == "station" { report.stations += 1 } else { report.stops += 1 }
                case 2:
                    let served = stop.parent.map { stops[$0].routeTypes } ?? []
                    kind = Self.stopKind(routeTypes: served) == "station" ? "subway_entrance" : "entrance"
                    report.entrances += 1
                default: continue
                }
                var tags: [(key: String, value: String)] = [("name", stop.name)]
                if let code = stop.code { tags.append(("ref", code)) }
                try writer.write(
                    type: nil, id: nil, kind: FeatureKind(featureClass: .transit, kind: kind, isArea: false),
                    tags: tags,
                    geometry: .point(stop.coordinate), names: [stop.name] + (translations[stop.name] ?? []))
            }
        }

        func writeRoutes(into writer: inout FeatureWriter, report: inout Report) throws {
            for route in routes {
                guard let mode = Self.mode(routeType: route.type) else { continue }
                var lines = route.shapes.compactMap { shapes[$0] }.filter { $0.count >= 2 }
                if lines.isEmpty {
                    lines = route.patterns.map { $0.map { stops[$0].coordinate } }.filter { $0.count >= 2 }
                    if !lines.isEmpty { report.routesWithoutShapes += 1 }
                }
                guard !lines.isEmpty else { continue }
                let name = route.shortName ?? route.longName ?? route.id
                var tags: [(key: String, value: String)] = [("name", name)]
                if let shortName = route.shortName { tags.append(("ref", shortName)) }
                if let colour = route.colour { tags.append(("colour", colour)) }
                let names = [route.shortName, route.longName].compactMap { $0 }
                try writer.write(
                    type: nil, id: nil, kind: FeatureKind(featureClass: .route, kind: mode, isArea: false), tags: tags,
                    geometry: .lines(lines), names: names + names.flatMap { translations[$0] ?? [] })
                report.routes += 1
            }
        }
    }
}

/// `shapes.txt`, read once for the network and the timetable alike.
enum GTFSShapes {
    /// Every shape's points in their sequence order, by shape id.
    ///
    /// - Throws: ``DataError`` naming the line of a point that is not a position and a number.
    static func read(_ table: CSVTable, feed: String) throws -> [String: [Coordinate]] {
        let id = try table.requiredColumn("shape_id", feed: feed)
        let latitude = try table.requiredColumn("shape_pt_lat", feed: feed)
        let longitude = try table.requiredColumn("shape_pt_lon", feed: feed)
        let sequence = try table.requiredColumn("shape_pt_sequence", feed: feed)
        var points: [String: [(Int, Coordinate)]] = [:]
        try table.forEachRow { row in
            guard let lat = Double(row.string(latitude)), let lon = Double(row.string(longitude)), abs(lat) <= 90,
                abs(lon) <= 180, let number = Int(row.string(sequence))
            else {
                throw DataError(
                    .invalidData,
                    message:
                        "\(table.name) line \(row.line): shape point '\(row.string(latitude))','\(row.string(longitude))' #\(row.string(sequence)) is not a position and sequence number",
                    path: feed)
            }
            points[row.string(id), default: []].append((number, Coordinate(latitude: lat, longitude: lon)))
        }
        return points.mapValues { $0.sorted { $0.0 < $1.0 }.map(\.1) }
    }
}
