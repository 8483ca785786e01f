import Foundation
import GeoCore
import MapsURL
import Routing
import Transit

/// How a route's line is written in OSRM's documents: `polyline` (default), `polyline6` or
/// `geojson`.
public typealias RouteGeometry = RouteDocument.Geometry
/// What each leg of an OSRM answer annotates, per segment of its line.
public typealias RouteAnnotation = RouteDocument.Annotation
/// Which of a route's whole line an OSRM document carries: `simplified` (default, as OSRM
/// simplifies it), `full` or `false` (none).
public typealias RouteOverview = RouteDocument.Overview

/// A wall-clock time, `YYYY-MM-DDTHH:MM` (or with `:SS`), read in the imported timetables'
/// time zone.
public struct LocalTime: Sendable, Equatable, CustomStringConvertible {
    /// The time as the journey planner reads it.
    let time: ServiceTime
    /// The time as it was written.
    public let description: String

    /// The time `text` writes, or nil when it is not `YYYY-MM-DDTHH:MM[:SS]` of a real day.
    public init?(_ text: String) {
        guard let time = ServiceTime(local: text) else { return nil }
        self.time = time
        description = text
    }

    /// The time `text` of `option` writes.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming `option` when it is not one.
    public static func parse(_ text: String, option: String) throws(AppError) -> LocalTime {
        guard let time = LocalTime(text) else {
            throw .invalidOption(
                option, message: "must be YYYY-MM-DDTHH:MM (the timetables' local time), not '\(text)'")
        }
        return time
    }
}

/// A question of directions, the same whichever front end asks it: a link's `saddr`/`daddr`
/// (``MapsApp/answer(_:form:diagnostics:link:options:)``), `openmaps route` and OSRM's
/// `/route/v1`. ``MapsApp/directions(_:)`` answers it.
public struct DirectionsQuery: Sendable, Equatable {
    /// When to travel.
    public enum Time: Sendable, Equatable {
        /// Leaving at this moment.
        case leaving(Date)
        /// Leaving at a wall-clock time in the timetables' time zone (transit only).
        case leavingLocal(LocalTime)
        /// Arriving at the latest at a wall-clock time in the timetables' time zone: the journey
        /// leaving latest that is there in time (transit only).
        case arrivingLocal(LocalTime)

        /// The time a front end's `depart` or `arrive` (`YYYY-MM-DDTHH:MM`, the timetables'
        /// local time) asks for; nil when neither is given.
        ///
        /// - Throws: ``AppError/invalidOption(_:message:)`` naming `depart` or `arrive` for a
        ///   time that is not one, and `arrive` when both are given.
        public static func asked(depart: String?, arrive: String?) throws(AppError) -> Time? {
            let departure = try depart.map { text throws(AppError) in try LocalTime.parse(text, option: "depart") }
            let arrival = try arrive.map { text throws(AppError) in try LocalTime.parse(text, option: "arrive") }
            switch (departure, arrival) {
            case (nil, nil): return nil
            case (let departure?, nil): return .leavingLocal(departure)
            case (nil, let arrival?): return .arrivingLocal(arrival)
            case (.some, .some):
                throw .invalidOption("arrive", message: "is given with a departure time: give one of the two")
            }
        }
    }

    /// Which routes' turn-by-turn steps an answer carries.
    public enum Steps: Sendable, Equatable {
        /// None: the lines only.
        case none
        /// The best route's (an itinerary, a navigation, a link's answer).
        case best
        /// Every route's, the alternatives' too (OSRM's document with `steps=true`).
        case every
    }

    /// The start, the stops between in order and the destination: up to ``maxEnds``. A link
    /// without a destination has only its start (and stops): its directions are shown as their
    /// ends.
    public var ends: [Waypoint]
    /// How to travel; driving by default.
    public var mode: TravelMode
    /// Kinds of road to keep off where another way is not far longer; none by default. Transit
    /// journeys cannot avoid them (a note says so).
    public var avoid: Set<RouteAvoidance> = []
    /// How many other routes to offer besides the best, 0...2 (each at most 1.4 times as long);
    /// only between two ends, as the Maps app offers them. 0 by default.
    public var alternatives = 0
    /// When to travel: leaving now by default.
    public var time: Time = .leaving(Date())
    /// The point text ends are searched near (a link's center); nil searches each near the end
    /// placed before it (the first by match and importance alone).
    public var near: Coordinate?
    /// The user's position: where a blank end (``Waypoint/currentLocation``) is.
    public var myLocation: Coordinate?
    /// The language of the notes, steps and place names; nil for English with local names.
    public var language: Language?
    /// The distances of the steps' sentences: metric by default.
    public var units: DistanceUnits = .metric
    /// Which routes' turn-by-turn steps to find: every route's by default.
    public var steps = Steps.every
    /// Whether a route that cannot keep off ``avoid`` is no route (OSRM's `exclude`) rather than
    /// a route with a note naming the roads it takes (a link's `avoid`); false by default.
    public var avoidsStrictly = false
    /// The ends legs begin and end at (OSRM's `waypoints`: indices into ``ends``, ascending,
    /// the first and the last among them); the ends between are passed through within a leg.
    /// nil for every end.
    public var legEnds: [Int]?
    /// How the route meets each end: in which direction of travel, with the end on which side
    /// of the road, its road how far from it at most, where an earlier answer met it (OSRM's
    /// `bearings`, `approaches`, `radiuses` and `hints`, one an end: an end farther from every
    /// road it could meet is OSRM's `NoSegment`); nil for any way at every end.
    public var approaches: [Approach]?
    /// Whether an end may meet any road of the mode's, a ferry or a private service road too
    /// (OSRM's `snapping=any`); false by default.
    public var snapsToAnyRoad = false
    /// Whether the route goes straight on past each stop rather than turning back at it (OSRM's
    /// `continue_straight`); nil for the mode's way: by car straight on, on foot or by bicycle
    /// either (``Routing/TravelProfile/continuesStraightAtStops``).
    public var continuesStraight: Bool?

    /// Start, stops and destination: up to the router's ``Routing/Router/maxPoints`` (a link
    /// gives at most Google's 9 stops).
    public static let maxEnds = Router.maxPoints

    /// The question of directions through `ends` by `mode`, with the defaults for the rest.
    public init(ends: [Waypoint], mode: TravelMode = .driving) {
        self.ends = ends
        self.mode = mode
    }

    /// The question a link's directions ask: from `origin` (the user's location when blank or
    /// missing) through its stops to its destination, by its mode, avoiding what it avoids.
    public init(_ directions: Directions) {
        var ends = [directions.origin ?? .currentLocation] + directions.waypoints
        if let destination = directions.destination { ends.append(destination) }
        self.init(ends: ends, mode: directions.travelMode ?? .driving)
        avoid = directions.avoid
    }

    /// An end as a person types it: `LAT,LNG` as that point, any other text a place to search
    /// for.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` (option `end`) for two numbers that are
    ///   not a position: a mistake, not a place to search for.
    public static func end(_ text: String) throws(AppError) -> Waypoint {
        if let coordinate = Coordinate(parsing: text), coordinate.isValid { return .coordinate(coordinate) }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ Double($0.trimmingCharacters(in: .whitespaces)) != nil }) {
            throw .invalidOption("end", message: "'\(text)' is not a latitude within ±90 and a longitude within ±180")
        }
        return .query(text)
    }

    /// The options OSRM's route service takes, by name, besides ``RouteOutput/parameterNames``:
    /// `alternatives` (`true` for 2, `false`, or how many: at most 2 are found), `exclude`
    /// (`toll`, `motorway`, `ferry`, comma-separated: roads kept off strictly), `radiuses`
    /// (metres or `unlimited` an end, separated by `;`), `waypoints` (the ends legs stop at, by
    /// index, separated by `;`), `depart` and `arrive` (transit), `continue_straight` (`true`,
    /// `false` or `default`), `bearings` (`degrees,tolerance` or nothing an end, separated by
    /// `;`), `approaches` (`curb`, `opposite`, `unrestricted` or nothing an end), `hints` (a
    /// waypoint's `hint` or nothing an end: met where it says) and `snapping` (`default`,
    /// `any`: an end may meet a ferry or a private service road too).
    public static let osrmParameterNames = [
        "alternatives", "exclude", "radiuses", "waypoints", "depart", "arrive", "continue_straight", "bearings",
        "approaches", "hints", "snapping",
    ]

    /// The question OSRM's route service asks through `points` by `mode`, with the options
    /// `parameters` give by name (``osrmParameterNames``, ``RouteOutput/parameterNames``; others
    /// are left alone, as OSRM's clients add their own, the last of a repeated one counting),
    /// and how its answer is written.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the option at fault.
    public static func osrm(points: [Coordinate], mode: TravelMode, parameters: [(name: String, value: String)])
        throws(AppError) -> (query: DirectionsQuery, output: RouteOutput)
    {
        var query = DirectionsQuery(ends: points.map { .coordinate($0) }, mode: mode)
        var output = RouteOutput()
        for (name, value) in parameters where try !output.read(name, value) {
            _ = try query.readOSRM(name, value)
        }
        query.language = output.language
        query.steps = output.steps ? .every : .none
        func value(_ name: String) -> String? { parameters.last { $0.name == name }?.value }
        if let time = try Time.asked(depart: value("depart"), arrive: value("arrive")) { query.time = time }
        return (query, output)
    }

    /// Reads OSRM's route option `name`'s `value` into the query when it is one of
    /// ``osrmParameterNames``; false for another name (left to the caller). A `depart` or
    /// `arrive` is read with ``Time/asked(depart:arrive:)``, both at once (``osrm(points:mode:parameters:)``).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the option for a value it does
    ///   not take.
    public mutating func readOSRM(_ name: String, _ value: String) throws(AppError) -> Bool {
        switch name {
        case "alternatives":
            alternatives =
                switch value {
                case "true": 2
                case "false": 0
                default: min(try Parameter.count(value, name: name, in: 0...100), 2)
                }
        case "exclude":
            let classes: [String: RouteAvoidance] = ["toll": .tolls, "motorway": .highways, "ferry": .ferries]
            var kinds: Set<RouteAvoidance> = []
            for word in value.split(separator: ",") {
                guard let kind = classes[String(word)] else {
                    throw .invalidOption(name, message: "must name toll, motorway or ferry, not '\(word.prefix(40))'")
                }
                kinds.insert(kind)
            }
            avoid = kinds
            avoidsStrictly = true
        case "waypoints":
            legEnds = try Parameter.waypoints(value, name: name, below: DirectionsQuery.maxEnds)
        case "continue_straight": continuesStraight = try Parameter.continueStraight(value, name: name)
        case "bearings", "approaches", "radiuses", "hints":
            _ = try Parameter.readApproaches(name, value, into: &approaches)
        case "snapping": snapsToAnyRoad = try Parameter.snapping(value, name: name)
        case "depart", "arrive": break
        default: return false
        }
        return true
    }

    /// The kind of road the router keeps off for an avoidance a link asks for.
    public static func roadFeature(for avoidance: RouteAvoidance) -> TravelProfile.RoadFeature {
        switch avoidance {
        case .tolls: .tolls
        case .highways: .highways
        case .ferries: .ferries
        }
    }

    /// The way of travel on roads for a travel mode; nil for transit, which rides timetables.
    public static func profile(for mode: TravelMode) -> TravelProfile.Mode? {
        switch mode {
        case .driving: .driving
        case .walking: .walking
        case .bicycling: .bicycling
        case .twoWheeler: .twoWheeler
        case .transit: nil
        }
    }
}

/// The app's answer to a ``DirectionsQuery``: the ends placed, the routes or the journeys found,
/// their steps and notes, or why there is none.
public struct DirectionsAnswer: Sendable {
    /// Why no route or journey was found.
    public enum Failure: Sendable {
        /// The app has no road network to route on.
        case noRouting
        /// No timetable is imported.
        case noTimetable
        /// An end could not be placed (a text not in the map data, an unknown user location), or
        /// there are fewer than two.
        case endsNotPlaced
        /// The router's reason: a point without a road, points not connected.
        case noRoute(RoutingError)
        /// No public transport journey gets there at that time.
        case noJourney
        /// Every route takes a kind of road it was to keep off strictly
        /// (``DirectionsQuery/avoidsStrictly``).
        case avoidanceUnmet
    }

    /// The question answered.
    public var query: DirectionsQuery
    /// Each end, placed or not, in order.
    public var ends: [RouteEnd]
    /// The best route first, then the alternatives; empty for transit or when none was found.
    public var routes: [Route] = []
    /// Each route's steps, per leg (`steps[route][leg]`); empty when the query asks for none.
    public var steps: [[[Step]]] = []
    /// Transit journeys as a rider is offered them (the earliest arriving with a ride first).
    public var journeys: [Journey] = []
    /// The time zone the journeys' times are in (the timetables'), for transit.
    public var timezone: String?
    /// What the person should know about the answer, in its language: partial matches, routes
    /// found without a routing graph, avoidances unmet, another day's timetable.
    public var notes: [Note] = []
    /// Why there is no route or journey, nil when there is one.
    public var failure: Failure?
    /// The note that says why there is none, in the answer's language.
    public var failureNote: Note?
    /// The words of the steps and notes, in the query's language and units.
    public var instructions: Instructions

    /// Every note, the failure's last.
    public var allNotes: [Note] { notes + (failureNote.map { [$0] } ?? []) }
}

extension MapsApp {
    /// The answer to a question of directions: its ends placed (coordinates as they are, texts
    /// through the place search's first result, a blank end at the user's location), then the
    /// route by road with up to ``DirectionsQuery/alternatives`` others between two ends, or the
    /// public transport journeys on the imported timetables. Every front end asks here.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` for a question that cannot be asked (too
    ///   many stops, a clock time for a road route, more than 2 alternatives),
    ///   ``AppError/engineFailed(_:underlying:)`` when the place search, the router or the
    ///   journey planner fails. A route that does not exist is an answer: its ``DirectionsAnswer/failure``.
    public func directions(_ query: DirectionsQuery) throws(AppError) -> DirectionsAnswer {
        try Self.check(query)
        let instructions = Instructions(query.language ?? .en, units: query.units)
        var notes = Notes(words: instructions.words)
        let ends = try placeEnds(of: query, notes: &notes)
        var answer = DirectionsAnswer(query: query, ends: ends, instructions: instructions)
        let failure: (DirectionsAnswer.Failure, Note)?
        if let profile = DirectionsQuery.profile(for: query.mode) {
            failure = try findRoutes(for: query, profile: profile, ends: ends, into: &answer, notes: &notes)
        } else {
            failure = try findJourneys(for: query, ends: ends, into: &answer, notes: &notes)
        }
        answer.notes = notes.list
        answer.failure = failure?.0
        answer.failureNote = failure?.1
        return answer
    }

    /// Refuses what no answer can follow.
    private static func check(_ query: DirectionsQuery) throws(AppError) {
        guard query.ends.count <= DirectionsQuery.maxEnds else {
            throw .invalidOption(
                "via",
                message:
                    "takes at most \(DirectionsQuery.maxEnds - 2) stops between the start and the destination, not \(query.ends.count - 2)"
            )
        }
        guard (0...2).contains(query.alternatives) else {
            throw .invalidOption("alternatives", message: "must be 0 to 2, not \(query.alternatives)")
        }
        if let misfit = Parameter.approachesMisfit(query.approaches, points: query.ends.count) {
            throw misfit
        }
        if let legEnds = query.legEnds {
            guard Parameter.areLegEnds(legEnds, of: query.ends.count) else {
                throw .invalidOption(
                    "waypoints",
                    message:
                        "must name points in order by index, the first (0) and the last (\(query.ends.count - 1)) among them"
                )
            }
        }
        switch query.time {
        case .leaving: break
        case .leavingLocal, .arrivingLocal:
            guard query.mode == .transit else {
                let option = if case .arrivingLocal = query.time { "arrive" } else { "depart" }
                throw .invalidOption(option, message: "goes with transit directions only")
            }
        }
    }

    /// Each end, placed: coordinates as they are, texts through the place search (its first
    /// result, near the query's point, else near the end placed before), a blank end at the
    /// user's location when it is known.
    private func placeEnds(of query: DirectionsQuery, notes: inout Notes) throws(AppError) -> [RouteEnd] {
        var placed: [RouteEnd] = []
        for (index, waypoint) in query.ends.enumerated() {
            let role: RouteEnd.Role =
                index == 0 ? .start : index == query.ends.count - 1 && index > 0 ? .destination : .stop
            let end = Note.Kind.End(role, number: index)
            var place: FoundPlace?
            switch waypoint {
            case .coordinate(let position):
                place = FoundPlace(name: position.description, position: position, why: "the link's coordinate")
            case .place(let placeName, let position):
                place = FoundPlace(name: placeName, position: position, why: "the link's named position")
            case .currentLocation:
                if let myLocation = query.myLocation {
                    place = FoundPlace(name: "My Location", position: myLocation, why: "the user's location")
                } else {
                    notes.add(.endAtUnknownLocation(end))
                }
            case .query(let text):
                guard let places else {
                    notes.add(.endSearchUnavailable(end, text: text))
                    break
                }
                let near = query.near ?? placed.last(where: { $0.place != nil })?.place?.position
                do {
                    place = try places.places(matching: text, near: near, limit: 1, names: query.language).first
                } catch {
                    guard let note = Note.Kind(plusCodeError: error) else {
                        throw .engineFailed("searching for the \(role.rawValue) '\(text)'", underlying: error)
                    }
                    notes.add(note)
                    placed.append(RouteEnd(role: role, waypoint: waypoint, place: nil))
                    continue
                }
                if let match = place?.closestMatch {
                    notes.add(.endPartialMatch(end, text: text, match: match))
                } else if place == nil {
                    notes.add(.endNotFound(end, text: text))
                }
            }
            placed.append(RouteEnd(role: role, waypoint: waypoint, place: place))
        }
        return placed
    }

    /// The route through the placed ends (and, between two ends, the alternatives asked for)
    /// with their steps, or why there is none.
    private func findRoutes(
        for query: DirectionsQuery, profile: TravelProfile.Mode, ends: [RouteEnd], into answer: inout DirectionsAnswer,
        notes: inout Notes
    ) throws(AppError) -> (DirectionsAnswer.Failure, Note)? {
        guard let routing else { return (.noRouting, notes.make(.noRouting)) }
        let points = ends.compactMap { $0.place?.position }
        guard points.count == ends.count, points.count >= 2 else {
            return (.endsNotPlaced, notes.make(.endsNotPlaced))
        }
        let features = Set(query.avoid.map(DirectionsQuery.roadFeature(for:)))
        let passage = Router.Passage(
            approaches: Approach.each(query.approaches, points: points.count, anyRoad: query.snapsToAnyRoad),
            continuesStraight: query.continuesStraight)
        let routes: [Route]
        do {
            routes =
                points.count == 2 && query.alternatives > 0
                ? try routing.routes(
                    from: points[0], to: points[1], mode: profile, avoiding: features, passing: passage,
                    alternatives: query.alternatives)
                : [try routing.route(points, mode: profile, avoiding: features, passing: passage)]
        } catch let error as RoutingError {
            return (.noRoute(error), notes.make(.noRoute(error)))
        } catch {
            throw .engineFailed("routing", underlying: error)
        }
        let unmet = routes[0].notes.first { if case .avoidanceUnmet = $0 { true } else { false } }
        if query.avoidsStrictly, let unmet { return (.avoidanceUnmet, notes.make(.route(unmet))) }
        for note in routes[0].notes { notes.add(.route(note)) }
        let legged = query.legEnds.map { stops in routes.map { $0.stopping(at: stops) } } ?? routes
        answer.routes = try legged.map(climbing)
        let stepped = query.steps == .every ? legged[...] : query.steps == .best ? legged.prefix(1) : []
        do { answer.steps = try stepped.map { try routing.steps(of: $0) } } catch {
            throw .engineFailed("finding the steps", underlying: error)
        }
        return nil
    }

    /// `route` with its ``Route/elevation`` where the store's elevation models cover all of it.
    private func climbing(_ route: Route) throws(AppError) -> Route {
        guard let heights else { return route }
        var climbed = route
        do {
            climbed.elevation = try RouteElevation.measure(route) { points in
                try heights.heights(at: points).map { $0?.metres }
            }
        } catch {
            throw .engineFailed("reading the elevation models", underlying: error)
        }
        return climbed
    }

    /// The public transport journeys between the two placed ends on the imported timetables,
    /// ranked as a rider is offered them, or why there is none.
    private func findJourneys(
        for query: DirectionsQuery, ends: [RouteEnd], into answer: inout DirectionsAnswer, notes: inout Notes
    ) throws(AppError) -> (DirectionsAnswer.Failure, Note)? {
        let zone: String?
        do { zone = try transit?.timezone() } catch { throw .engineFailed("reading the timetables", underlying: error) }
        guard let transit, let zone, let timeZone = TimeZone(identifier: zone) else {
            return (.noTimetable, notes.make(.noTimetable))
        }
        answer.timezone = zone
        let points = ends.compactMap { $0.place?.position }
        guard points.count == ends.count, points.count >= 2 else {
            return (.endsNotPlaced, notes.make(.endsNotPlaced))
        }
        // A journey goes from one place to another: the stops between are left out, said so.
        if points.count > 2 { notes.add(.stopsLeftOut) }
        let (origin, destination) = (points[0], points[points.count - 1])
        if !query.avoid.isEmpty { notes.add(.transitCannotAvoid(query.avoid.sorted())) }
        let asked: ServiceTime
        let found: [Journey]
        do {
            switch query.time {
            case .leaving(let date):
                asked = ServiceTime(date, in: timeZone)
                found = try transit.journeys(from: origin, to: destination, leaving: asked)
            case .leavingLocal(let local):
                asked = local.time
                found = try transit.journeys(from: origin, to: destination, leaving: asked)
            case .arrivingLocal(let local):
                asked = local.time
                found = try transit.journeys(from: origin, to: destination, arrivingBy: asked)
            }
        } catch {
            throw .engineFailed("planning a journey", underlying: error)
        }
        answer.journeys = JourneyPlanner.ranked(found)
        guard let best = answer.journeys.first else {
            return (.noJourney, notes.make(.noJourney))
        }
        if best.serviceDate != asked.date {
            notes.add(.timetableDate(asked: asked.date, used: best.serviceDate))
        }
        if best.walksStraightLines { notes.add(.straightLineWalk) }
        // A server leaves out a realtime feed too old to trust, and says so.
        if let age = (try? transit.realtimeState())?.ignored.filter({ $0.problem == "stale" }).compactMap(\.age).max() {
            notes.add(.realtimeStale(minutes: age / 60))
        }
        return nil
    }
}
