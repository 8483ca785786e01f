import Foundation
import GeoCore
import MapData
import Transit

extension MapsApp {
    /// The vehicles of the realtime feeds followed within `bounds` (everywhere when nil).
    ///
    /// - Throws: ``AppError/engineFailed(_:underlying:)`` when the timetables cannot be read.
    public func vehicles(in bounds: CoordinateBounds?) throws(AppError) -> [LiveVehicle] {
        guard let transit else { return [] }
        do {
            return try transit.vehicles().filter { bounds?.contains($0.coordinate) ?? true }
        } catch {
            throw .engineFailed("reading the realtime feeds", underlying: error)
        }
    }

    /// The realtime feeds' alerts about stops within `bounds` (everywhere when nil) active at
    /// `date`.
    ///
    /// - Throws: ``AppError/engineFailed(_:underlying:)`` when the timetables cannot be read.
    public func stopAlerts(in bounds: CoordinateBounds?, at date: Date = Date()) throws(AppError) -> [StopAlert] {
        guard let transit else { return [] }
        do {
            return try transit.stopAlerts(at: Int(date.timeIntervalSince1970)).filter {
                bounds?.contains($0.coordinate) ?? true
            }
        } catch {
            throw .engineFailed("reading the realtime feeds", underlying: error)
        }
    }

    /// `minLon,minLat,maxLon,maxLat` (GeoJSON's and OSM's order) as bounds.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming `bbox` when it is not four numbers in order.
    public static func bounds(bbox text: String) throws(AppError) -> CoordinateBounds {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
            DecimalText.parse($0, maxIntegerDigits: 3)
        }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2],
            let north = numbers[3], (-180...180).contains(west), (-180...180).contains(east),
            (-90...90).contains(south),
            (-90...90).contains(north), west <= east, south <= north
        else {
            throw .invalidOption("bbox", message: "must be minLon,minLat,maxLon,maxLat in degrees, not '\(text)'")
        }
        return CoordinateBounds(
            southWest: Coordinate(latitude: south, longitude: west),
            northEast: Coordinate(latitude: north, longitude: east))
    }
}

extension LiveVehicle {
    /// The vehicles as a GeoJSON FeatureCollection: a point each, with `id`, `label`, `trip`,
    /// `route` (its short name), `route_id`, `route_type`, `color` (`#rrggbb`, the route's or
    /// the transit layer's for its kind), `bearing` (degrees), `speed` (m/s), `timestamp` (POSIX
    /// seconds) and `feed`.
    public static func geoJSON(_ vehicles: [LiveVehicle]) -> String {
        let features = vehicles.map { vehicle -> [String: Any] in
            var properties: [String: Any] = ["id": vehicle.id, "feed": vehicle.feed]
            if let label = vehicle.label { properties["label"] = label }
            if let trip = vehicle.tripID { properties["trip"] = trip }
            if let route = vehicle.route {
                properties["route"] = JourneyDocument.name(of: route)
                properties["route_id"] = route.id
                properties["route_type"] = route.type
            }
            properties["color"] = vehicle.route?.colour ?? "#1a73e8"
            if let bearing = vehicle.bearing { properties["bearing"] = bearing }
            if let speed = vehicle.speed { properties["speed"] = speed }
            if let timestamp = vehicle.timestamp { properties["timestamp"] = timestamp }
            return pointFeature(vehicle.coordinate, properties)
        }
        return JSONText.pretty(["type": "FeatureCollection", "features": features])
    }
}

extension StopAlert {
    /// The alerts as a GeoJSON FeatureCollection: a point at each stop named, with `stop`,
    /// `header`, `description` and `url` in `language` where the feed has it (else its own),
    /// `effect` (the specification's name, lowercased), `id` and `feed`.
    public static func geoJSON(_ alerts: [StopAlert], language: String) -> String {
        let features = alerts.map { entry -> [String: Any] in
            var properties: [String: Any] = [
                "stop": entry.stop, "id": entry.alert.entity, "effect": entry.alert.effectName, "feed": entry.feed,
            ]
            if let header = entry.alert.header?.text(in: language) { properties["header"] = header }
            if let description = entry.alert.description?.text(in: language) { properties["description"] = description }
            if let url = entry.alert.url?.text(in: language) { properties["url"] = url }
            return pointFeature(entry.coordinate, properties)
        }
        return JSONText.pretty(["type": "FeatureCollection", "features": features])
    }
}

/// A GeoJSON point feature at `coordinate` (degrees at 6 decimals, 11 cm: a feed's 32-bit floats
/// without their noise) with `properties`.
private func pointFeature(_ coordinate: Coordinate, _ properties: [String: Any]) -> [String: Any] {
    [
        "type": "Feature",
        "geometry": [
            "type": "Point",
            "coordinates": [coordinate.longitude, coordinate.latitude].map { ($0 * 1e6).rounded() / 1e6 },
        ],
        "properties": properties,
    ]
}
