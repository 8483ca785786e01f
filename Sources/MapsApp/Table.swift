import Foundation
import GeoCore
import Routing

/// A question of OSRM's `table` service: the durations (and distances) from some points to
/// others, for a way of travel by road.
public struct TableQuery: Sendable, Equatable {
    /// What a table's cells hold: `duration` (seconds) and `distance` (metres).
    public enum Annotation: String, Sendable, CaseIterable {
        case duration, distance
    }

    /// Where a fallback cell is measured from: the points as given, or where they met the roads.
    public enum FallbackCoordinate: String, Sendable, CaseIterable {
        case input, snapped
    }

    /// The points, in order.
    public var points: [Coordinate]
    /// The points the rows start from, by index into ``points``; nil for all of them.
    public var sources: [Int]?
    /// The points the columns end at, by index into ``points``; nil for all of them.
    public var destinations: [Int]?
    /// The way of travel by road.
    public var mode: TravelProfile.Mode
    /// What the cells hold; durations by default.
    public var annotations: Set<Annotation> = [.duration]
    /// Metres a second: a cell no route fills is the straight distance at this speed (and
    /// the distance itself), and named in ``TableAnswer/fallbackCells``; nil leaves it empty.
    public var fallbackSpeed: Double?
    /// Where a fallback cell's straight distance is measured from; the points as given by default.
    public var fallbackCoordinate = FallbackCoordinate.input
    /// What every duration is multiplied by (above 0); 1 by default.
    public var scaleFactor = 1.0
    /// Whether the snapped `sources` and `destinations` are written; true by default, false
    /// for OSRM's `skip_waypoints=true`.
    public var waypoints = true
    /// Whether each of them carries its `hint`; true by default, false for OSRM's
    /// `generate_hints=false`.
    public var hints = true
    /// How each point is met (OSRM's `bearings`, `approaches`, `radiuses` and `hints`, one a
    /// point); nil for any way.
    public var approaches: [Approach]?
    /// Whether a point may meet any road of the mode's, a ferry or a private service road too
    /// (OSRM's `snapping=any`); false by default.
    public var snapsToAnyRoad = false

    /// Cells a table may have by default: 10,000 (100 × 100).
    public static let defaultMaxCells = 10_000

    /// A table between `points` (every one to every one) for `mode`.
    public init(points: [Coordinate], mode: TravelProfile.Mode) {
        self.points = points
        self.mode = mode
    }

    /// The names of a table's options, as the server's `/table/v1` takes them (OSRM's) and
    /// `openmaps table`'s flags map to: `sources` and `destinations` (`all`, or point indices
    /// separated by `;` or `,`), `annotations` (`duration` and/or `distance`, comma-separated),
    /// `fallback_speed` (metres a second), `fallback_coordinate` (`input`, `snapped`),
    /// `scale_factor`, `skip_waypoints` and `generate_hints` (`true`, `false`), `bearings`,
    /// `approaches`, `radiuses`, `hints` and `snapping` (as a route's:
    /// ``DirectionsQuery/osrmParameterNames``).
    public static let parameterNames = [
        "sources", "destinations", "annotations", "fallback_speed", "fallback_coordinate", "scale_factor",
        "skip_waypoints", "bearings", "approaches", "radiuses", "snapping", "hints", "generate_hints",
    ]

    /// A table between `points` for `mode` with the options `parameters` give by name
    /// (``parameterNames``; others are left to the caller), the defaults for the rest. Values
    /// are read here; whether they fit the points (an index, a speed above 0) is
    /// ``MapsApp/table(_:maxCells:)``'s to say.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the parameter at fault.
    public init(points: [Coordinate], mode: TravelProfile.Mode, parameters: [(name: String, value: String)])
        throws(AppError)
    {
        self.init(points: points, mode: mode)
        for (name, value) in parameters {
            switch name {
            case "sources": sources = try Self.indices(value, name: name)
            case "destinations": destinations = try Self.indices(value, name: name)
            case "annotations":
                let names = value.split(separator: ",").map { Annotation(rawValue: String($0)) }
                guard !names.isEmpty, names.allSatisfy({ $0 != nil }) else {
                    throw .invalidOption(name, message: "may be duration and/or distance, not '\(value.prefix(60))'")
                }
                annotations = Set(names.compactMap { $0 })
            case "fallback_speed": fallbackSpeed = try Self.decimal(value, name: name)
            case "fallback_coordinate":
                guard let coordinate = FallbackCoordinate(rawValue: value) else {
                    throw .invalidOption(name, message: "must be input or snapped, not '\(value.prefix(40))'")
                }
                fallbackCoordinate = coordinate
            case "scale_factor": scaleFactor = try Self.decimal(value, name: name)
            case "skip_waypoints":
                waypoints = try Parameter.choice(value, name: name, among: ["true", "false"]) == "false"
            case "generate_hints": hints = try Parameter.choice(value, name: name, among: ["true", "false"]) == "true"
            case "snapping": snapsToAnyRoad = try Parameter.snapping(value, name: name)
            default: _ = try Parameter.readApproaches(name, value, into: &approaches)
            }
        }
    }

    /// `all` (nil: every point), else point indices separated by `;` (OSRM's) or `,`.
    static func indices(_ text: String, name: String) throws(AppError) -> [Int]? {
        guard text != "all" else { return nil }
        let values = text.split(omittingEmptySubsequences: false) { $0 == ";" || $0 == "," }.map { Int($0) }
        guard values.allSatisfy({ ($0 ?? -1) >= 0 }) else {
            throw .invalidOption(
                name, message: "must be all or point indices separated by ';', not '\(text.prefix(60))'")
        }
        return values.compactMap { $0 }
    }

    /// One decimal number.
    static func decimal(_ text: String, name: String) throws(AppError) -> Double {
        guard let value = DecimalText.parse(Substring(text), maxIntegerDigits: 7) else {
            throw .invalidOption(name, message: "must be a decimal number, not '\(text.prefix(60))'")
        }
        return value
    }
}

/// The answer to a ``TableQuery``: its cells, where each point met the roads, or the reason
/// there is none, in OSRM's terms.
public struct TableAnswer: Sendable {
    /// Seconds from each source to each destination, scaled; nil where nothing joins them.
    public var durations: [[Double?]] = []
    /// Metres along the same routes; nil where nothing joins them.
    public var distances: [[Double?]] = []
    /// Where each source met the roads.
    public var sources: [RouteTable.Waypoint] = []
    /// Where each destination met the roads.
    public var destinations: [RouteTable.Waypoint] = []
    /// The cells filled by the fallback speed, as (row, column).
    public var fallbackCells: [[Int]] = []
    /// What the cells hold.
    public var annotations: Set<TableQuery.Annotation> = [.duration]
    /// Whether ``sources`` and ``destinations`` are written.
    public var waypoints = true
    /// Whether their hints are written.
    public var hints = true
    /// Why there is no table, as OSRM says it: its code (`InvalidOptions`, `InvalidValue`,
    /// `TooBig`, `NoSegment`) and a message; nil for a table.
    public var failure: (code: String, message: String)?

    /// The table as OSRM writes it: `code`, `durations` and/or `distances` (rows of sources,
    /// `null` where nothing joins them; durations to a tenth of a second, distances to a
    /// tenth of a metre), `sources` and `destinations` (each `location` as `[lon, lat]`, its
    /// `distance` and `name`), `fallback_speed_cells` when a cell was filled; or the failure's
    /// `code` and `message`.
    public var osrm: String {
        if let failure { return JSONText.pretty(["code": failure.code, "message": failure.message]) }
        func cells(_ rows: [[Double?]]) -> [[Any]] {
            rows.map { row in row.map { value -> Any in value.map { ($0 * 10).rounded() / 10 } ?? NSNull() } }
        }
        func waypoints(_ list: [RouteTable.Waypoint]) -> [[String: Any]] {
            list.map {
                RouteDocument.osrmWaypoint(
                    location: $0.location, distance: $0.distance, name: $0.name, hint: hints ? $0.hint : nil)
            }
        }
        var document: [String: Any] = ["code": "Ok"]
        if self.waypoints {
            document["sources"] = waypoints(sources)
            document["destinations"] = waypoints(destinations)
        }
        if annotations.contains(.duration) { document["durations"] = cells(durations) }
        if annotations.contains(.distance) { document["distances"] = cells(distances) }
        if !fallbackCells.isEmpty { document["fallback_speed_cells"] = fallbackCells }
        return JSONText.pretty(document)
    }
}

extension MapsApp {
    /// The table `query` asks for, on the routing engine: one many-to-many search (as
    /// ``Routing/Router/table(from:to:)`` does it), each cell the route's duration and
    /// distance. A question OSRM refuses is refused the same way, as the answer's
    /// ``TableAnswer/failure``: sources or destinations out of range, a bad scale or speed,
    /// more than `maxCells` cells (`TooBig`), a point with no road near it (`NoSegment`).
    ///
    /// - Throws: ``AppError/engineMissing(_:)`` without a routing engine,
    ///   ``AppError/engineFailed(_:underlying:)`` when it fails.
    public func table(_ query: TableQuery, maxCells: Int = TableQuery.defaultMaxCells) throws(AppError) -> TableAnswer {
        var answer = TableAnswer()
        answer.annotations = query.annotations
        answer.waypoints = query.waypoints
        answer.hints = query.hints
        func refuse(_ code: String, _ message: String) -> TableAnswer {
            answer.failure = (code, message)
            return answer
        }
        guard query.points.count >= 1 else { return refuse("InvalidQuery", "a table needs at least one point") }
        let sources = query.sources ?? Array(query.points.indices)
        let destinations = query.destinations ?? Array(query.points.indices)
        for (name, indices) in [("sources", sources), ("destinations", destinations)] {
            if let wrong = indices.first(where: { !query.points.indices.contains($0) }) {
                return refuse(
                    "InvalidOptions", "'\(name)' index \(wrong) is not one of the \(query.points.count) points")
            }
        }
        guard sources.count * destinations.count <= maxCells else {
            return refuse(
                "TooBig",
                "\(sources.count) sources × \(destinations.count) destinations is \(sources.count * destinations.count) cells, more than \(maxCells)"
            )
        }
        guard query.scaleFactor > 0, query.scaleFactor.isFinite else {
            return refuse("InvalidOptions", "'scale_factor' must be above 0, not \(query.scaleFactor)")
        }
        if let speed = query.fallbackSpeed, !(speed > 0 && speed.isFinite) {
            return refuse("InvalidOptions", "'fallback_speed' must be above 0, not \(speed)")
        }
        if let misfit = Parameter.approachesMisfit(query.approaches, points: query.points.count) {
            return refuse("InvalidOptions", "\(misfit)")
        }
        guard let routing else { throw .engineMissing("routing graph") }
        let table: RouteTable
        do {
            table = try routing.table(
                query.points, sources: sources, destinations: destinations, mode: query.mode,
                approaches: Approach.each(query.approaches, points: query.points.count, anyRoad: query.snapsToAnyRoad))
        } catch RoutingError.noRoad(let point, _, _, _) {
            return refuse("NoSegment", "Could not find a matching segment for coordinate \(point)")
        } catch {
            throw .engineFailed("computing the table", underlying: error)
        }
        answer.sources = table.sources
        answer.destinations = table.destinations
        answer.durations = table.durations.map { $0.map { $0.map { $0 * query.scaleFactor } } }
        answer.distances = table.distances
        if let speed = query.fallbackSpeed {
            for row in answer.durations.indices {
                for column in answer.durations[row].indices where answer.durations[row][column] == nil {
                    let (from, to) =
                        query.fallbackCoordinate == .input
                        ? (query.points[sources[row]], query.points[destinations[column]])
                        : (table.sources[row].location, table.destinations[column].location)
                    let metres = from.distance(to: to)
                    answer.durations[row][column] = metres / speed * query.scaleFactor
                    answer.distances[row][column] = metres
                    answer.fallbackCells.append([row, column])
                }
            }
        }
        return answer
    }
}

extension MapsApp {
    /// OSRM's refusal document, `{"code": code, "message": message}`, with its code.
    static func osrmRefusal(_ code: String, _ message: String) -> (code: String, document: String) {
        (code, JSONText.pretty(["code": code, "message": message]))
    }

    /// The message of a refusal ``osrmRefusal(_:_:)`` wrote; the document whole when it has none.
    public static func refusalMessage(_ answer: (code: String, document: String)) -> String {
        let refusal = (try? JSONSerialization.jsonObject(with: Data(answer.document.utf8))) as? [String: Any]
        return refusal?["message"] as? String ?? answer.document
    }

    /// Most roads a `nearest` question may ask for: 100.
    public static let maxNearest = 100

    /// OSRM's `nearest` service: the `number` (1 by default, to ``maxNearest``) nearest road
    /// segments `mode` travels to `point`, nearest first, written as OSRM writes them
    /// (`waypoints` with `location` as `[lon, lat]`, `distance`, `name`, `nodes` and `hint`,
    /// unless `generate_hints=false`); only those a route can meet the point on as `bearings`,
    /// `approaches`, `radiuses`, `hints` (the one nearest) and `snapping` ask
    /// (``Parameter/readApproaches(_:_:into:)``), the options read from `parameters` by name
    /// (others left alone, the last of a repeated one counting). `NoSegment` when no road is
    /// near, `InvalidOptions` for an option it cannot take.
    ///
    /// - Throws: ``AppError/engineMissing(_:)`` without a routing engine,
    ///   ``AppError/engineFailed(_:underlying:)`` when it fails.
    public func nearest(_ point: Coordinate, mode: TravelProfile.Mode, parameters: [(name: String, value: String)])
        throws(AppError) -> (code: String, document: String)
    {
        var count = 1
        var approaches: [Approach]?
        var anyRoad = false
        var hints = true
        do throws(AppError) {
            for (name, value) in parameters {
                switch name {
                case "number":
                    guard let number = Int(value) else { throw .invalidOption(name, message: "must be a whole number") }
                    count = number
                case "snapping": anyRoad = try Parameter.snapping(value, name: name)
                case "generate_hints":
                    hints = try Parameter.choice(value, name: name, among: ["true", "false"]) == "true"
                default: _ = try Parameter.readApproaches(name, value, into: &approaches)
                }
            }
        } catch {
            guard case .invalidOption(let option, let message) = error else { throw error }
            return Self.osrmRefusal("InvalidOptions", "'\(option)' \(message)")
        }
        if let misfit = Parameter.approachesMisfit(approaches, points: 1) {
            return Self.osrmRefusal("InvalidOptions", "\(misfit)")
        }
        let approach = Approach.each(approaches, points: 1, anyRoad: anyRoad).first ?? .any
        guard (1...Self.maxNearest).contains(count) else {
            return Self.osrmRefusal("InvalidOptions", "'number' must be 1 to \(Self.maxNearest), not \(count)")
        }
        guard let routing else { throw .engineMissing("routing graph") }
        let roads: [NearestRoad]
        do { roads = try routing.nearest(point, count: count, mode: mode, approach: approach) } catch {
            throw .engineFailed("finding the nearest roads", underlying: error)
        }
        guard !roads.isEmpty else {
            return Self.osrmRefusal("NoSegment", "Could not find a matching segment for coordinate 0")
        }
        let waypoints: [[String: Any]] = roads.map {
            RouteDocument.osrmWaypoint(
                location: $0.location, distance: $0.distance, name: $0.name, hint: hints ? $0.hint : nil
            ).merging(["nodes": $0.nodes]) { a, _ in a }
        }
        return ("Ok", JSONText.pretty(["code": "Ok", "waypoints": waypoints]))
    }
}

/// A question of OSRM's `trip` service: the quickest order to visit points in, by road.
public struct TripQuery: Sendable, Equatable {
    /// The points, in the order given (2 to ``Routing/Router/maxTripPoints``).
    public var points: [Coordinate]
    /// The way of travel by road.
    public var mode: TravelProfile.Mode
    /// Whether the trip returns to where it starts; true by default.
    public var roundTrip = true
    /// OSRM's `source`: `first` starts the trip at the first point, `any` where it is best.
    public var startsAtFirst = false
    /// OSRM's `destination`: `last` ends the trip at the last point, `any` where it is best.
    public var endsAtLast = false
    /// How the trip's route is written.
    public var output = RouteOutput()
    /// How each point is met (OSRM's `bearings`, `approaches`, `radiuses` and `hints`, one a
    /// point); nil for any way.
    public var approaches: [Approach]?
    /// Whether a point may meet any road of the mode's, a ferry or a private service road too
    /// (OSRM's `snapping=any`); false by default.
    public var snapsToAnyRoad = false
    /// Whether the route goes straight on past each point rather than turning back at it
    /// (OSRM's `continue_straight`); nil for the mode's way.
    public var continuesStraight: Bool?

    /// A round trip through `points` for `mode`.
    public init(points: [Coordinate], mode: TravelProfile.Mode) {
        self.points = points
        self.mode = mode
    }

    /// The names of a trip's options, as `/trip/v1` takes them (OSRM's): `roundtrip` (`true`,
    /// `false`), `source` (`any`, `first`), `destination` (`any`, `last`), `bearings`,
    /// `approaches`, `radiuses`, `hints`, `snapping` and `continue_straight` (as a route's),
    /// and ``RouteOutput/parameterNames``.
    public static let parameterNames =
        [
            "roundtrip", "source", "destination", "bearings", "approaches", "radiuses", "hints", "snapping",
            "continue_straight",
        ] + RouteOutput.parameterNames

    /// A trip through `points` for `mode` with the options `parameters` give by name
    /// (``parameterNames``; others are left to the caller), the defaults for the rest. Whether
    /// the ends fit together is ``MapsApp/trip(_:)``'s to say.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the parameter at fault.
    public init(points: [Coordinate], mode: TravelProfile.Mode, parameters: [(name: String, value: String)])
        throws(AppError)
    {
        self.init(points: points, mode: mode)
        for (name, value) in parameters where try !output.read(name, value) {
            switch name {
            case "roundtrip": roundTrip = try Parameter.choice(value, name: name, among: ["true", "false"]) == "true"
            case "source": startsAtFirst = try Parameter.choice(value, name: name, among: ["any", "first"]) == "first"
            case "destination": endsAtLast = try Parameter.choice(value, name: name, among: ["any", "last"]) == "last"
            case "continue_straight": continuesStraight = try Parameter.continueStraight(value, name: name)
            case "snapping": snapsToAnyRoad = try Parameter.snapping(value, name: name)
            default: _ = try Parameter.readApproaches(name, value, into: &approaches)
            }
        }
    }
}

extension MapsApp {
    /// OSRM's `trip` service: the quickest order to visit `query`'s points in (every order for
    /// a few, farthest insertion and 2-opt for more, over one table's durations) and the route
    /// through them, written as OSRM writes it (`trips`, one; `waypoints` in the order given,
    /// each with its `waypoint_index` in the trip). A round trip starts at the first point; a
    /// trip that is not round goes from the first point to the last (`source=first`,
    /// `destination=last`, as OSRM requires). Refusals as OSRM's: `NotImplemented` for the
    /// other ends of a trip that is not round, `InvalidValue` for too few or too many points,
    /// `NoSegment`, `NoTrips` when two points are not connected.
    ///
    /// - Throws: ``AppError/engineMissing(_:)`` without a routing engine,
    ///   ``AppError/engineFailed(_:underlying:)`` when it fails.
    public func trip(_ query: TripQuery) throws(AppError) -> (code: String, document: String) {
        guard (2...Router.maxTripPoints).contains(query.points.count) else {
            return Self.osrmRefusal(
                "InvalidValue", "a trip takes 2 to \(Router.maxTripPoints) points, not \(query.points.count)")
        }
        if !query.roundTrip && !(query.startsAtFirst && query.endsAtLast) {
            return Self.osrmRefusal(
                "NotImplemented", "a trip that is not round goes from source=first to destination=last")
        }
        if query.roundTrip && query.endsAtLast {
            return Self.osrmRefusal(
                "NotImplemented", "a round trip returns to its start: destination=last is for roundtrip=false")
        }
        if let misfit = Parameter.approachesMisfit(query.approaches, points: query.points.count) {
            return Self.osrmRefusal("InvalidOptions", "\(misfit)")
        }
        guard let routing else { throw .engineMissing("routing graph") }
        let trip: Trip
        var steps: [[Step]] = []
        do {
            trip = try routing.trip(
                query.points, roundTrip: query.roundTrip, mode: query.mode,
                passing: Router.Passage(
                    approaches: Approach.each(
                        query.approaches, points: query.points.count, anyRoad: query.snapsToAnyRoad),
                    continuesStraight: query.continuesStraight))
            if query.output.steps { steps = try routing.steps(of: trip.route) }
        } catch RoutingError.noRoad(let point, _, _, _) {
            return Self.osrmRefusal("NoSegment", "Could not find a matching segment for coordinate \(point)")
        } catch RoutingError.noRoute(let from, let to, _) {
            return Self.osrmRefusal("NoTrips", "no route joins point \(from) and point \(to): no trip visits both")
        } catch {
            throw .engineFailed("finding the trip", underlying: error)
        }
        let instructions = query.output.steps ? Instructions(query.output.language) : nil
        return (
            "Ok",
            RouteDocument.osrmTrip(
                trip.route, order: trip.order, geometry: query.output.geometry, overview: query.output.overview,
                steps: steps, instructions: instructions, annotations: query.output.annotations,
                waypoints: query.output.waypoints, hints: query.output.hints)
        )
    }
}
