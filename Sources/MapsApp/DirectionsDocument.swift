import Foundation
import Routing
import Transit

/// The documents a ``DirectionsAnswer`` is written as: OSRM's v5 JSON (routes, or journeys in
/// its shape), GeoJSON, a written itinerary and GPX. `openmaps route` and `/route/v1` print
/// them; neither formats a route of its own.
extension DirectionsAnswer {
    /// OSRM's v5 document: the routes, best first, with the steps the query asked for and their
    /// sentences; for transit, the journeys (``JourneyDocument/osrm(_:timezone:instructions:)``).
    ///
    /// - Parameters:
    ///   - geometry: how the lines are encoded; polyline by default.
    ///   - overview: which of the routes' lines is written: simplified as OSRM simplifies it
    ///     (its default), every position, or none (OSRM's `overview`).
    ///   - annotations: what each leg's `annotation` carries; none (no `annotation`) by default.
    ///   - waypoints: false leaves the snapped points out (OSRM's `skip_waypoints`).
    ///   - hints: false leaves their hints out (OSRM's `generate_hints=false`).
    public func osrm(
        geometry: RouteGeometry = .polyline, overview: RouteOverview = .simplified,
        annotations: Set<RouteAnnotation> = [],
        waypoints: Bool = true, hints: Bool = true
    ) -> String {
        if query.mode == .transit {
            return JourneyDocument.osrm(journeys, timezone: timezone ?? "UTC", instructions: instructions)
        }
        return RouteDocument.osrm(
            routes, geometry: geometry, overview: overview, steps: steps,
            instructions: query.steps == .none ? nil : instructions, annotations: annotations, waypoints: waypoints,
            hints: hints)
    }

    /// OSRM's failure code and message for why there is no route (`NoSegment` for an end far
    /// from every road, `NoRoute`, `InvalidQuery`), the message in the question's language; nil
    /// when there is one or when the failure is the server's (no routing engine).
    public var osrmFailure: (code: String, message: String)? {
        switch failure {
        case nil, .noRouting: nil
        case .noRoute(let reason): (RouteDocument.failureCode(reason), reason.message(instructions.words))
        case .noTimetable, .noJourney, .avoidanceUnmet: ("NoRoute", failureNote?.message ?? "")
        case .endsNotPlaced: ("NoSegment", failureNote?.message ?? "")
        }
    }

    /// The routes as GeoJSON features, best first (no steps).
    public var geoJSON: String { RouteDocument.geoJSON(routes) }

    /// The best route's or journey's steps written out, one a line, and its total; empty when
    /// there is none.
    public var itinerary: String {
        if let journey = journeys.first { return JourneyDocument.itinerary(journey, words: instructions.words) }
        guard let route = routes.first, let legs = steps.first else { return "" }
        return instructions.itinerary(legs, distance: route.distance, duration: route.duration)
    }

    /// The best route as GPX 1.1: its steps as route points, its line as a track; nil without one.
    public var gpx: String? {
        guard let route = routes.first else { return nil }
        return RouteDocument.gpx(route, steps: steps.first ?? [], instructions: instructions)
    }

    /// One line for a person: the mode, distance, time and main roads of the best route, or the
    /// times, length and rides of the best journey and how many were found; nil without either.
    public var summary: String? {
        if let best = journeys.first {
            return "transit: \(JourneyDocument.clock(best.departure)) → \(JourneyDocument.clock(best.arrival)), "
                + "\((best.arrival - best.departure + 30) / 60) min, \(best.rides) rides; \(journeys.count) journeys"
        }
        guard let route = routes.first else { return nil }
        let roads = route.legs.flatMap(\.roads)
        return String(
            format: "%@: %.1f km, %.0f min", query.mode.rawValue, route.distance / 1000, route.duration / 60)
            + (roads.isEmpty ? "" : ", by " + roads.prefix(4).joined(separator: ", "))
    }
}
