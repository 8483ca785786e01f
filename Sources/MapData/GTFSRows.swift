import GeoCore

/// The rows of a feed's `stops.txt` and `routes.txt` as the map's features and the timetable
/// both read them: one reader, one set of checks, each refusal naming the file, the line and
/// what is wrong.
enum GTFSRows {
    /// A stop, station, entrance, generic node or boarding area.
    struct Stop: Equatable {
        var id: String
        /// Its name; its id when it has none.
        var name: String
        var code: String?
        /// Where it is; a generic node or a boarding area that leaves its position out takes its
        /// station's, and nil when that has none either.
        var coordinate: Coordinate?
        /// GTFS `location_type`, 0...4.
        var locationType: Int
        /// Its station, by index in the list.
        var parent: Int?
    }

    /// A route.
    struct Route: Equatable {
        var id: String
        var shortName: String?
        var longName: String?
        /// GTFS `route_type` (``TransitVehicle/init(routeType:)`` reads it).
        var type: Int
        /// `#rrggbb`, when the feed gives a colour.
        var colour: String?
        var textColour: String?
        /// `agency_id`, when given.
        var agency: String?
    }

    /// The refusal of `row` of `table` in `feed`.
    static func invalid(_ table: CSVTable, _ row: CSVTable.Row, _ message: String, feed: String) -> DataError {
        DataError(.invalidData, message: "\(table.name) line \(row.line): \(message)", path: feed)
    }

    /// `stops.txt`: each id once, `location_type` 0 to 4, a latitude and a longitude in range
    /// (which only generic nodes and boarding areas may leave out), and parents that are stops.
    ///
    /// - Throws: ``DataError`` of kind `.invalidData` naming the line and what is wrong.
    static func stops(_ table: CSVTable, feed: String) throws -> [Stop] {
        let id = try table.requiredColumn("stop_id", feed: feed)
        let name = table.column("stop_name")
        let code = table.column("stop_code")
        let latitude = try table.requiredColumn("stop_lat", feed: feed)
        let longitude = try table.requiredColumn("stop_lon", feed: feed)
        let type = table.column("location_type")
        let parent = table.column("parent_station")
        var stops: [Stop] = []
        var parents: [(stop: Int, parent: String)] = []
        var index: [String: Int] = [:]
        try table.forEachRow { row in
            guard let stopID = row.value(id) else { throw invalid(table, row, "stop_id is empty", feed: feed) }
            guard index[stopID] == nil else {
                throw invalid(table, row, "stop_id '\(stopID)' appears twice", feed: feed)
            }
            let locationType = Int(row.value(type) ?? "0") ?? -1
            guard (0...4).contains(locationType) else {
                throw invalid(table, row, "location_type '\(row.string(type!))' is not 0 to 4", feed: feed)
            }
            let latitudeText = row.string(latitude)
            let longitudeText = row.string(longitude)
            var coordinate: Coordinate?
            if let lat = Double(latitudeText), let lon = Double(longitudeText), abs(lat) <= 90, abs(lon) <= 180 {
                coordinate = Coordinate(latitude: lat, longitude: lon)
            } else if !(locationType >= 3 && latitudeText.isEmpty && longitudeText.isEmpty) {
                // Only generic nodes and boarding areas may leave their position out.
                throw invalid(
                    table, row,
                    "stop '\(stopID)' is at '\(latitudeText)','\(longitudeText)', not a latitude and longitude",
                    feed: feed)
            }
            index[stopID] = stops.count
            if let parentID = row.value(parent) { parents.append((stops.count, parentID)) }
            stops.append(
                Stop(
                    id: stopID, name: row.value(name) ?? stopID, code: row.value(code), coordinate: coordinate,
                    locationType: locationType))
        }
        for (stop, parentID) in parents {
            guard let parentIndex = index[parentID] else {
                throw DataError(
                    .invalidData,
                    message:
                        "stops.txt: stop '\(stops[stop].id)' has parent_station '\(parentID)', which is not a stop",
                    path: feed)
            }
            stops[stop].parent = parentIndex
        }
        for stop in stops.indices where stops[stop].coordinate == nil {
            stops[stop].coordinate = stops[stop].parent.flatMap { stops[$0].coordinate }
        }
        return stops
    }

    /// `routes.txt`: each id once, `route_type` a number.
    ///
    /// - Throws: ``DataError`` of kind `.invalidData` naming the line and what is wrong.
    static func routes(_ table: CSVTable, feed: String) throws -> [Route] {
        let id = try table.requiredColumn("route_id", feed: feed)
        let type = try table.requiredColumn("route_type", feed: feed)
        let short = table.column("route_short_name")
        let long = table.column("route_long_name")
        let colour = table.column("route_color")
        let text = table.column("route_text_color")
        let agency = table.column("agency_id")
        var routes: [Route] = []
        var seen: Set<String> = []
        try table.forEachRow { row in
            guard let routeID = row.value(id) else { throw invalid(table, row, "route_id is empty", feed: feed) }
            guard seen.insert(routeID).inserted else {
                throw invalid(table, row, "route_id '\(routeID)' appears twice", feed: feed)
            }
            guard let routeType = Int(row.string(type)) else {
                throw invalid(
                    table, row, "route_type '\(row.string(type))' of route '\(routeID)' is not a number", feed: feed)
            }
            routes.append(
                Route(
                    id: routeID, shortName: row.value(short), longName: row.value(long), type: routeType,
                    colour: row.value(colour).flatMap(FeatureColour.normalized),
                    textColour: row.value(text).flatMap(FeatureColour.normalized), agency: row.value(agency)))
        }
        return routes
    }
}
