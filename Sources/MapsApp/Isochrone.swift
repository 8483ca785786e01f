import Foundation
import GeoCore
import Routing

/// A question of the isochrone service: the area reached from a point within each of a few
/// times or distances, and how the answer is written. Asked at `/isochrone/v1/{profile}/{lon,lat}`
/// (``init(origin:mode:parameters:)``), at Valhalla's own `/isochrone` (``init(valhalla:)``,
/// with Valhalla's defaults), and by `openmaps isochrone`.
public struct IsochroneQuery: Sendable, Equatable {
    /// Where the area is reached from.
    public var origin: Coordinate
    /// The way of travel by road.
    public var mode: TravelProfile.Mode
    /// Each contour: minutes (1 to 120), or metres with ``byDistance`` (1 to 100,000).
    public var contours: [Double]
    /// Whether ``contours`` are metres rather than minutes.
    public var byDistance = false
    /// Each contour's value as the answer writes it (`contour`): as asked, ``contours`` unless a
    /// Valhalla request gave kilometres.
    public var labels: [Double]
    /// How the contours are written; every polygon with its holes, unstyled, by default.
    public var output = Isochrone.Output()
    /// The document's shape: Valhalla's FeatureCollection by default, or GraphHopper's.
    public var format = Format.valhalla

    /// The shapes an isochrone's answer takes.
    public enum Format: Sendable, Equatable {
        /// Valhalla's: a GeoJSON FeatureCollection, a feature a contour, the largest first.
        case valhalla
        /// GraphHopper's: `{"polygons": […], "info": …}` (or, `asGeoJSON`, a FeatureCollection),
        /// a feature a bucket, the smallest first, each with its `bucket` number.
        case graphHopper(asGeoJSON: Bool)
    }

    /// Contours `contours` (minutes, or metres with `byDistance`) from `origin` for `mode`.
    public init(origin: Coordinate, mode: TravelProfile.Mode, contours: [Double], byDistance: Bool = false) {
        self.origin = origin
        self.mode = mode
        self.contours = contours
        self.byDistance = byDistance
        labels = contours
    }

    /// The options `/isochrone/v1` takes: `contours_minutes` or `contours_meters` (one of them,
    /// comma-separated), `polygons` (`true`, `false`: the outlines), `denoise` (0 to 1) and
    /// `generalize` (metres), as Valhalla's of those names.
    public static let parameterNames = ["contours_minutes", "contours_meters", "polygons", "denoise", "generalize"]

    /// The question `/isochrone/v1/{profile}/{lon,lat}` asks, with the options `parameters`
    /// give by name (``parameterNames``; others are left alone).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the option at fault.
    public init(origin: Coordinate, mode: TravelProfile.Mode, parameters: [(name: String, value: String)])
        throws(AppError)
    {
        func value(_ name: String) -> String? { parameters.last { $0.name == name }?.value }
        let minutes = value("contours_minutes")
        let metres = value("contours_meters")
        guard (minutes == nil) != (metres == nil), let list = minutes ?? metres else {
            throw .invalidOption("contours_minutes", message: "or 'contours_meters': give one of them")
        }
        self.init(
            origin: origin, mode: mode,
            contours: try Parameter.numbers(list, name: minutes == nil ? "contours_meters" : "contours_minutes"),
            byDistance: metres != nil)
        if let text = value("polygons") {
            output.polygons = try Parameter.choice(text, name: "polygons", among: ["true", "false"]) == "true"
        }
        if let text = value("denoise") { output.denoise = try Parameter.number(text, name: "denoise", in: 0...1) }
        if let text = value("generalize") {
            output.generalize = try Parameter.number(text, name: "generalize", in: 0...100_000)
        }
    }

    /// GraphHopper's profiles by name, and the ways of travel they stand for.
    static let graphHopperProfiles: [String: TravelProfile.Mode] = [
        "car": .driving, "foot": .walking, "hike": .walking, "bike": .bicycling, "mtb": .bicycling,
        "racingbike": .bicycling, "motorcycle": .twoWheeler, "scooter": .twoWheeler,
    ]

    /// The question of a GraphHopper isochrone request (`point=LAT,LON`, `profile`,
    /// `time_limit` seconds (600 by default) or `distance_limit` metres, `buckets` (1 by
    /// default: the limit split into that many equal contours), `type` (`json`, `geojson`)),
    /// answered as GraphHopper answers it: each bucket's largest polygon.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the parameter at fault; for
    ///   `reverse_flow=true` too (the area from which the point is reached is not drawn).
    public init(graphHopper parameters: [(name: String, value: String)]) throws(AppError) {
        func value(_ name: String) -> String? { parameters.last { $0.name == name }?.value }
        let origin = try Parameter.coordinate(value("point") ?? "", name: "point")
        let profile = value("profile") ?? value("vehicle") ?? "car"
        guard let mode = Self.graphHopperProfiles[profile] else {
            throw .invalidOption(
                "profile",
                message:
                    "must be \(Self.graphHopperProfiles.keys.sorted().joined(separator: ", ")), not '\(profile.prefix(40))'"
            )
        }
        if let flow = value("reverse_flow"),
            try Parameter.choice(flow, name: "reverse_flow", among: ["true", "false"]) == "true"
        {
            throw .invalidOption("reverse_flow", message: "true is not answered: the area is drawn from the point")
        }
        let buckets =
            try value("buckets").map { text throws(AppError) in
                try Parameter.count(text, name: "buckets", in: 1...MapsApp.maxContours)
            } ?? 1
        let byDistance = value("distance_limit") != nil
        let limit = try Parameter.number(
            value("distance_limit") ?? value("time_limit") ?? "600", name: byDistance ? "distance_limit" : "time_limit",
            in: 1...(byDistance ? Router.maxIsochroneMetres : Router.maxIsochroneSeconds))
        let steps = (1...buckets).map { limit * Double($0) / Double(buckets) }
        guard byDistance || steps[0] >= 60 else {
            throw .invalidOption("time_limit", message: "gives buckets of under a minute: at least 60 s each")
        }
        self.init(
            origin: origin, mode: mode, contours: byDistance ? steps : steps.map { $0 / 60 }, byDistance: byDistance)
        labels = steps
        output.polygons = true
        output.denoise = 1
        let type = try Parameter.choice(value("type") ?? "json", name: "type", among: ["json", "geojson"])
        format = .graphHopper(asGeoJSON: type == "geojson")
    }

    /// Valhalla's costing models by name, and the ways of travel they stand for.
    static let costings: [String: TravelProfile.Mode] = [
        "auto": .driving, "pedestrian": .walking, "bicycle": .bicycling, "motorcycle": .twoWheeler,
        "motor_scooter": .twoWheeler,
    ]

    /// The question of a Valhalla isochrone request (`{"locations": [{"lat": …, "lon": …}],
    /// "costing": "auto", "contours": [{"time": 15, "color": "ff0000"}]}`, or `distance` in
    /// kilometres), with Valhalla's options and defaults: `polygons` (false: the outlines),
    /// `denoise` (1: the largest polygon of each contour alone), `generalize` (metres), and
    /// `show_locations`.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming what is missing or wrong.
    public init(valhalla bytes: [UInt8]) throws(AppError) {
        guard let request = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .invalidOption("json", message: "is not a JSON object")
        }
        guard let locations = request["locations"] as? [[String: Any]], let location = locations.first,
            let latitude = (location["lat"] as? NSNumber)?.doubleValue,
            let longitude = (location["lon"] as? NSNumber)?.doubleValue
        else { throw .invalidOption("locations", message: "must hold a location with lat and lon") }
        let origin = Coordinate(latitude: latitude, longitude: longitude)
        guard origin.isValid, locations.count == 1 else {
            throw .invalidOption("locations", message: "must be one location within ±90 and ±180 degrees")
        }
        let costing = request["costing"] as? String ?? ""
        guard let mode = Self.costings[costing] else {
            throw .invalidOption(
                "costing",
                message: "must be \(Self.costings.keys.sorted().joined(separator: ", ")), not '\(costing.prefix(40))'")
        }
        guard let contours = request["contours"] as? [[String: Any]], !contours.isEmpty else {
            throw .invalidOption("contours", message: "must list the contours, each a time or a distance")
        }
        let times = contours.compactMap { ($0["time"] as? NSNumber)?.doubleValue }
        let distances = contours.compactMap { ($0["distance"] as? NSNumber)?.doubleValue }
        guard times.count == contours.count || distances.count == contours.count, times.isEmpty || distances.isEmpty
        else { throw .invalidOption("contours", message: "must all be times (minutes) or all distances (kilometres)") }
        self.init(
            origin: origin, mode: mode, contours: times.isEmpty ? distances.map { $0 * 1_000 } : times,
            byDistance: times.isEmpty)
        labels = times.isEmpty ? distances : times
        output.colours = contours.map { entry in
            (entry["color"] as? String).flatMap { text in
                let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
                return hex.count == 6 && hex.allSatisfy(\.isHexDigit) ? hex.lowercased() : nil
            }
        }
        output.polygons = request["polygons"] as? Bool ?? false
        output.denoise = min(1, max(0, (request["denoise"] as? NSNumber)?.doubleValue ?? 1))
        output.generalize = (request["generalize"] as? NSNumber).map(\.doubleValue).flatMap { $0 > 0 ? $0 : nil }
        output.showLocations = request["show_locations"] as? Bool ?? false
    }
}

extension MapsApp {
    /// Most contours an isochrone takes: 4, as Valhalla's.
    public static let maxContours = 4

    /// The area reached from `query`'s origin for its mode within each of its contours
    /// (minutes, 1 to 120; or metres, 1 to 100,000), as Valhalla's isochrones are written:
    /// GeoJSON features, the largest contour first, each a MultiPolygon (outer rings
    /// counter-clockwise, holes where nothing is reached) with its `contour` (minutes or
    /// metres) and `metric` (`time` or `distance`), or as the query's output says
    /// (``Routing/Isochrone/Output``). Refusals as OSRM's codes: `InvalidOptions` for contours
    /// out of range, `NoSegment` for no road near the origin.
    ///
    /// - Throws: ``AppError/engineMissing(_:)`` without a routing engine,
    ///   ``AppError/engineFailed(_:underlying:)`` when it fails.
    public func isochrone(_ query: IsochroneQuery) throws(AppError) -> (code: String, document: String) {
        let (contours, byDistance) = (query.contours, query.byDistance)
        let range = byDistance ? 1...Router.maxIsochroneMetres : 1...(Router.maxIsochroneSeconds / 60)
        let unit = byDistance ? "contours_meters" : "contours_minutes"
        guard (1...Self.maxContours).contains(contours.count), contours.allSatisfy(range.contains) else {
            return Self.osrmRefusal(
                "InvalidOptions",
                "'\(unit)' takes 1 to \(Self.maxContours) values from \(Int(range.lowerBound)) to \(Int(range.upperBound))"
            )
        }
        guard let routing else { throw .engineMissing("routing graph") }
        let isochrone: Isochrone
        do {
            isochrone = try routing.isochrone(
                from: query.origin, limits: byDistance ? contours : contours.map { $0 * 60 }, byDistance: byDistance,
                mode: query.mode)
        } catch RoutingError.noRoad {
            return Self.osrmRefusal("NoSegment", "Could not find a matching segment for coordinate 0")
        } catch {
            throw .engineFailed("drawing the isochrone", underlying: error)
        }
        let collection = isochrone.geoJSON(
            labels: query.labels, metric: byDistance ? "distance" : "time", output: query.output, asked: query.origin)
        guard case .graphHopper(let asGeoJSON) = query.format else { return ("Ok", JSONText.pretty(collection)) }
        // GraphHopper's: the buckets smallest first, each numbered.
        let buckets = (collection["features"] as? [[String: Any]] ?? []).reversed().enumerated().map {
            number, feature -> [String: Any] in
            var numbered = feature
            numbered["properties"] = ["bucket": number]
            return numbered
        }
        let document: [String: Any] =
            asGeoJSON
            ? ["type": "FeatureCollection", "features": buckets]
            : ["polygons": buckets, "info": ["copyrights": ["OpenMaps", "OpenStreetMap contributors"]]]
        return ("Ok", JSONText.pretty(document))
    }
}
