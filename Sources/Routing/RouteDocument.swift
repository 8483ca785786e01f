import Foundation
import GeoCore

/// A route as OSRM's v5 HTTP API writes it, so OSRM clients read it: `code`, `routes[]` with
/// `distance` (m), `duration` (s), `weight`, `geometry` (polyline5, polyline6 or GeoJSON),
/// `legs[]` with `summary` and, as asked, per-segment `annotation` (``Annotation``), and
/// `waypoints[]` with their snapped `location` `[lon, lat]`, `name` and `distance` from the
/// point given. Failures are `{"code": "NoRoute" | "NoSegment", "message"}`.
public enum RouteDocument {
    /// How a route's line is written: Google's encoded polyline at 5 or 6 decimals, or a GeoJSON LineString.
    public enum Geometry: String, Sendable, CaseIterable {
        case polyline, polyline6, geojson
    }

    /// Which of a route's whole line is written, as OSRM's `overview` says: simplified as OSRM
    /// simplifies it (``Route/simplifiedGeometry``, OSRM's default), every position, or none.
    public enum Overview: String, Sendable, CaseIterable {
        case simplified, full
        case none = "false"
    }

    /// What a leg's `annotation` carries, as OSRM's `annotations` option names it: per segment
    /// of the leg's line its metres (`distance`), seconds (`duration`), `weight` (seconds, as
    /// the routes are weighed), metres a second (`speed`) and data source (`datasources`,
    /// every one the profile's, index 0 of `metadata.datasource_names`); the OSM node at each
    /// position (`nodes`, ``Route/Leg/nodes``); and, OpenMaps' own, the OSM way of each
    /// segment (`ways`).
    public enum Annotation: String, Sendable, CaseIterable {
        case nodes, distance, duration, datasources, weight, speed, ways
    }

    /// The OSRM response for `route`.
    public static func osrm(_ route: Route, geometry: Geometry = .polyline) -> String {
        osrm([route], geometry: geometry)
    }

    /// The OSRM response for `routes`: the best first, then its alternatives (same waypoints);
    /// with each route's steps per leg when given (`steps[route][leg]`), their sentences in the
    /// language of `instructions` as `instruction` (and Google's manoeuvre name as
    /// `maneuver.google`); each route's `geometry` as `overview` says (simplified by default,
    /// as OSRM's; none for `overview=false`).
    ///
    /// Each leg carries the `annotations` asked for (none by default, as OSRM's); without
    /// `waypoints` the snapped points are left out (OSRM's `skip_waypoints`), without `hints`
    /// their hints (OSRM's `generate_hints=false`).
    public static func osrm(
        _ routes: [Route], geometry: Geometry = .polyline, overview: Overview = .simplified, steps: [[[Step]]] = [],
        instructions: Instructions? = nil, annotations: Set<Annotation> = [], waypoints: Bool = true,
        hints: Bool = true
    ) -> String {
        var document: [String: Any] = [
            "code": "Ok",
            "routes": routes.enumerated().map { number, route -> [String: Any] in
                osrmRoute(
                    route, geometry: geometry, overview: overview, steps: number < steps.count ? steps[number] : [],
                    instructions: instructions, annotations: annotations)
            },
        ]
        if waypoints { document["waypoints"] = (routes.first?.snapped ?? []).map { osrmWaypoint($0, hint: hints) } }
        return json(document)
    }

    /// One route as OSRM writes it: distance, duration, weight, legs (with `steps[leg]` when
    /// given), its line as `overview` says.
    static func osrmRoute(
        _ route: Route, geometry: Geometry, overview: Overview, steps: [[Step]], instructions: Instructions?,
        annotations: Set<Annotation>
    ) -> [String: Any] {
        var written: [String: Any] = [
            "distance": rounded(route.distance), "duration": rounded(route.duration),
            "weight": rounded(route.duration), "weight_name": "duration",
            "legs": route.legs.enumerated().map { index, leg in
                var written = osrmLeg(leg, annotations: annotations)
                if let climb = route.elevation?.legs[index] {
                    written["ascent"] = climb.ascent
                    written["descent"] = climb.descent
                }
                if index < steps.count {
                    let legSteps = steps[index]
                    written["steps"] = legSteps.enumerated().map { position, step in
                        osrmStep(
                            step, approach: position > 0 ? legSteps[position - 1].distance : 0, geometry: geometry,
                            instructions: instructions)
                    }
                }
                return written
            },
        ]
        switch overview {
        case .simplified: written["geometry"] = encoded(route.simplifiedGeometry, as: geometry)
        case .full: written["geometry"] = encoded(route.geometry, as: geometry)
        case .none: break
        }
        if let elevation = route.elevation {
            written["ascent"] = elevation.ascent
            written["descent"] = elevation.descent
        }
        return written
    }

    /// A snapped point as OSRM's `waypoints` write it: location, road name, distance moved,
    /// and its hint when `hint`.
    static func osrmWaypoint(
        _ snap: (point: Coordinate, distance: Double, road: String?, hint: RoadGraph.Hint?), hint: Bool
    ) -> [String: Any] {
        osrmWaypoint(location: snap.point, distance: snap.distance, name: snap.road, hint: hint ? snap.hint : nil)
    }

    /// A point on the roads as OSRM's waypoints write it (routes', tables', nearest's, a
    /// match's tracepoints): `location` as `[lon, lat]` (``osrmPosition(_:)``), the road's
    /// `name` (empty without one), the `distance` it moved to the road, metres to a tenth, and
    /// its `hint` when given (``RoadGraph/hint(of:)``; OSRM leaves it out for
    /// `generate_hints=false`).
    public static func osrmWaypoint(location: Coordinate, distance: Double, name: String?, hint: RoadGraph.Hint?)
        -> [String: Any]
    {
        var written: [String: Any] = [
            "location": osrmPosition(location), "name": name ?? "", "distance": rounded(distance),
        ]
        if let hint { written["hint"] = hint.text }
        return written
    }

    /// OSRM's `trip` document: the trip as its one route (with `steps` per leg when given)
    /// and each point asked for, in the order asked, with its place in the trip
    /// (`waypoint_index`) and the trip's number (`trips_index`, 0), with its hint when `hints`.
    public static func osrmTrip(
        _ route: Route, order: [Int], geometry: Geometry = .polyline, overview: Overview = .simplified,
        steps: [[Step]] = [],
        instructions: Instructions? = nil, annotations: Set<Annotation> = [], waypoints written: Bool = true,
        hints: Bool = true
    ) -> String {
        var waypoints = [[String: Any]](repeating: [:], count: order.count)
        for (position, point) in order.enumerated() where position < route.snapped.count {
            var written = osrmWaypoint(route.snapped[position], hint: hints)
            written["waypoint_index"] = position
            written["trips_index"] = 0
            waypoints[point] = written
        }
        var document: [String: Any] = [
            "code": "Ok",
            "trips": [
                osrmRoute(
                    route, geometry: geometry, overview: overview, steps: steps, instructions: instructions,
                    annotations: annotations)
            ],
        ]
        if written { document["waypoints"] = waypoints }
        return json(document)
    }

    /// OSRM's `match` document: each matching as a route (with `steps[matching][leg]` when
    /// given) and its `confidence`; each trace point's placement as a waypoint with its
    /// `matchings_index`, `waypoint_index` and `alternatives_count` (and its hint when
    /// `hints`), `null` where none.
    public static func osrmMatch(
        _ match: TraceMatch, geometry: Geometry = .polyline, overview: Overview = .simplified,
        steps: [[[Step]]] = [],
        instructions: Instructions? = nil, annotations: Set<Annotation> = [], waypoints: Bool = true,
        hints: Bool = true
    ) -> String {
        let matchings = match.matchings.enumerated().map { number, matching -> [String: Any] in
            var written = osrmRoute(
                matching.route, geometry: geometry, overview: overview,
                steps: number < steps.count ? steps[number] : [], instructions: instructions, annotations: annotations)
            written["confidence"] = (matching.confidence * 1_000).rounded() / 1_000
            return written
        }
        let tracepoints = match.placements.map { placement -> Any in
            guard let placement else { return NSNull() }
            return osrmWaypoint(
                location: placement.location, distance: placement.distance, name: placement.name,
                hint: hints ? placement.hint : nil
            ).merging([
                "matchings_index": placement.matching,
                "waypoint_index": placement.waypoint.map { $0 as Any } ?? NSNull(),
                "alternatives_count": placement.alternatives,
            ]) { a, _ in a }
        }
        var document: [String: Any] = ["code": "Ok", "matchings": matchings]
        if waypoints { document["tracepoints"] = tracepoints }
        return json(document)
    }

    /// A step as OSRM writes it, with its sentence (`instruction`), its banner text and its
    /// voice announcements (`voice`: each `distance` before the manoeuvre, metres, and `text`)
    /// when `instructions` are given; `approach` is the length of the step before, metres.
    static func osrmStep(_ step: Step, approach: Double, geometry: Geometry, instructions: Instructions?) -> [String:
        Any]
    {
        var maneuver: [String: Any] = [
            "type": step.maneuver.osrmType,
            "location": osrmPosition(step.maneuver.location),
            "bearing_before": Int(step.maneuver.bearingBefore.rounded()),
            "bearing_after": Int(step.maneuver.bearingAfter.rounded()), "google": step.maneuver.googleName,
        ]
        if let modifier = step.maneuver.modifier, step.maneuver.kind != .depart {
            maneuver["modifier"] = modifier.rawValue
        }
        if let exit = step.maneuver.exit { maneuver["exit"] = exit }
        var written: [String: Any] = [
            "maneuver": maneuver, "name": step.name,
            "distance": rounded(step.distance), "duration": rounded(step.duration), "weight": rounded(step.duration),
            "mode": step.mode, "driving_side": "right", "geometry": encoded(step.geometry, as: geometry),
            "intersections": step.intersections.enumerated().map { number, intersection in
                osrmIntersection(intersection, lanes: number == 0 ? step.lanes : [])
            },
        ]
        // As OSRM, a step's ref, destinations, exits and ring's name only where it has them.
        if !step.ref.isEmpty { written["ref"] = step.ref }
        if !step.destinations.isEmpty { written["destinations"] = step.destinations }
        if !step.exits.isEmpty { written["exits"] = step.exits }
        if !step.rotaryName.isEmpty { written["rotary_name"] = step.rotaryName }
        if let instructions {
            written["instruction"] = instructions.text(for: step)
            written["banner"] = instructions.banner(for: step)
            written["voice"] = instructions.voice(for: step, approach: approach).map {
                ["distance": $0.distance, "text": $0.text] as [String: Any]
            }
        }
        return written
    }

    /// An intersection as OSRM writes it (`in` left out at the departure, `out` at the
    /// arrival, `classes` and `lanes` when there are any).
    static func osrmIntersection(_ intersection: Step.Intersection, lanes: [Step.Lane]) -> [String: Any] {
        var written: [String: Any] = [
            "location": osrmPosition(intersection.location),
            "bearings": intersection.bearings, "entry": intersection.entry,
        ]
        if let arrival = intersection.arrival { written["in"] = arrival }
        if let departure = intersection.departure { written["out"] = departure }
        if !intersection.classes.isEmpty { written["classes"] = intersection.classes }
        if !lanes.isEmpty {
            written["lanes"] = lanes.map { ["indications": $0.indications, "valid": $0.valid] as [String: Any] }
        }
        return written
    }

    /// A leg as OSRM writes it, with an `annotation` carrying `annotations` when any are asked
    /// for (`nodes` only where the leg knows them).
    static func osrmLeg(_ leg: Route.Leg, annotations: Set<Annotation>) -> [String: Any] {
        var written: [String: Any] = [
            "distance": rounded(leg.distance), "duration": rounded(leg.duration), "weight": rounded(leg.duration),
            "summary": leg.roads.prefix(2).joined(separator: ", "), "steps": [] as [Any],
        ]
        guard !annotations.isEmpty else { return written }
        var annotation: [String: Any] = [:]
        for kind in annotations {
            switch kind {
            case .nodes: if !leg.nodes.isEmpty { annotation["nodes"] = leg.nodes }
            case .distance: annotation["distance"] = leg.segmentDistances.map(rounded)
            case .duration: annotation["duration"] = leg.segmentDurations.map(rounded)
            case .weight: annotation["weight"] = leg.segmentDurations.map(rounded)
            case .speed:
                annotation["speed"] = zip(leg.segmentDistances, leg.segmentDurations).map {
                    $1 > 0 ? rounded($0 / $1) : 0
                }
            case .datasources:
                annotation["datasources"] = [Int](repeating: 0, count: leg.segmentDistances.count)
                annotation["metadata"] = ["datasource_names": ["profile"]]
            case .ways: annotation["ways"] = leg.segmentWays
            }
        }
        written["annotation"] = annotation
        return written
    }

    /// One route as a GeoJSON Feature, several (a route and its alternatives) as a
    /// FeatureCollection, the best first.
    public static func geoJSON(_ routes: [Route]) -> String {
        guard routes.count > 1 else {
            return routes.first.map(geoJSON) ?? json(["type": "FeatureCollection", "features": [] as [Any]])
        }
        return json(["type": "FeatureCollection", "features": routes.map(feature)])
    }

    /// The route as a GeoJSON Feature with its distance and duration.
    public static func geoJSON(_ route: Route) -> String { json(feature(route)) }

    /// With an elevation model under the route, its positions carry their heights (GeoJSON's
    /// third coordinate, metres) and its properties the metres climbed and descended: the
    /// route's elevation profile.
    static func feature(_ route: Route) -> [String: Any] {
        var properties: [String: Any] = [
            "mode": route.mode.rawValue, "distance": rounded(route.distance), "duration": rounded(route.duration),
            "roads": route.legs.flatMap(\.roads),
        ]
        let coordinates: [[Double]]
        if let elevation = route.elevation {
            coordinates = zip(route.geometry, elevation.heights).map { [$0.longitude, $0.latitude, rounded($1)] }
            properties["ascent"] = elevation.ascent
            properties["descent"] = elevation.descent
        } else {
            coordinates = route.geometry.map { [$0.longitude, $0.latitude] }
        }
        return [
            "type": "Feature", "geometry": ["type": "LineString", "coordinates": coordinates],
            "properties": properties,
        ]
    }

    /// The route as GPX 1.1, for replay in other apps: a `<rte>` whose points are the steps'
    /// manoeuvres, each named by its sentence in the language of `instructions`, and a `<trk>`
    /// of the whole geometry (with each point's `<ele>` where the route has an elevation).
    public static func gpx(_ route: Route, steps: [[Step]], instructions: Instructions) -> String {
        func escaped(_ text: String) -> String { text.markupEscaped }
        func point(_ tag: String, _ coordinate: Coordinate) -> String {
            "<\(tag) lat=\"\(coordinate.latitude)\" lon=\"\(coordinate.longitude)\">"
        }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<gpx version="1.1" creator="OpenMaps" xmlns="http://www.topografix.com/GPX/1/1">"#,
            "  <rte>",
            "    <name>\(escaped(route.mode.rawValue)), \(escaped(instructions.distance(route.distance))), \(escaped(instructions.duration(route.duration)))</name>",
        ]
        for step in steps.joined() {
            lines.append(
                "    " + point("rtept", step.maneuver.location)
                    + "<name>\(escaped(instructions.text(for: step)))</name>"
                    + "<type>\(escaped(step.maneuver.googleName.isEmpty ? step.maneuver.kind.rawValue : step.maneuver.googleName))</type></rtept>"
            )
        }
        lines += ["  </rte>", "  <trk>", "    <trkseg>"]
        for (index, coordinate) in route.geometry.enumerated() {
            // Each track point's height where an elevation model is under the route.
            let height = route.elevation.map { "<ele>\(rounded($0.heights[index]))</ele>" } ?? ""
            lines.append("      " + point("trkpt", coordinate) + height + "</trkpt>")
        }
        lines += ["    </trkseg>", "  </trk>", "</gpx>"]
        return lines.joined(separator: "\n")
    }

    /// OSRM's code for `error`: `NoSegment` (a point far from every road), `NoRoute` (points
    /// not connected) or `InvalidQuery` (too few or too many points).
    public static func failureCode(_ error: RoutingError) -> String {
        switch error {
        case .noRoad: "NoSegment"
        case .noRoute: "NoRoute"
        case .waypointCount: "InvalidQuery"
        }
    }

    static func encoded(_ points: [Coordinate], as geometry: Geometry) -> Any {
        switch geometry {
        case .polyline: EncodedPolyline.encode(points, precision: 5)
        case .polyline6: EncodedPolyline.encode(points, precision: 6)
        case .geojson:
            ["type": "LineString", "coordinates": points.map(osrmPosition)] as [String: Any]
        }
    }

    /// A position as OSRM writes one: `[lon, lat]`, as OSRM holds it (``osrmHeld(_:)``).
    static func osrmPosition(_ position: Coordinate) -> [Double] {
        let held = osrmHeld(position)
        return [held.longitude, held.latitude]
    }

    /// A position as OSRM holds every one: to a millionth of a degree.
    static func osrmHeld(_ position: Coordinate) -> Coordinate {
        Coordinate(
            latitude: (position.latitude * 1e6).rounded() / 1e6, longitude: (position.longitude * 1e6).rounded() / 1e6)
    }

    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    static func json(_ object: Any) -> String { JSONText.pretty(object) }
}
