import Foundation
import GeoCore
import Routing

/// How an OSRM answer with routes in it (a trip's, a match's) is written, as OSRM's options
/// say: with each leg's turn-by-turn steps or not, its lines encoded how, with or without each
/// route's whole line, the steps in which language.
public struct RouteOutput: Sendable, Equatable {
    /// Whether each leg carries its turn-by-turn steps; not by default.
    public var steps = false
    /// How the lines are encoded; polyline by default.
    public var geometry = RouteGeometry.polyline
    /// Which of each route's whole line is written; simplified as OSRM simplifies it by default.
    public var overview = RouteOverview.simplified
    /// The steps' language; English by default.
    public var language = Language.en
    /// What each leg's `annotation` carries; nothing (no `annotation`) by default.
    public var annotations: Set<RouteAnnotation> = []
    /// Whether the snapped points are written (OSRM's `waypoints`, a match's `tracepoints`);
    /// true by default, false for OSRM's `skip_waypoints=true`.
    public var waypoints = true
    /// Whether each snapped point carries its `hint` (``Routing/RoadGraph/hint(of:)``); true
    /// by default, false for OSRM's `generate_hints=false`.
    public var hints = true

    /// The defaults.
    public init() {}

    /// The options' names: `steps` (`true`, `false`), `geometries` (`polyline`, `polyline6`,
    /// `geojson`), `overview` (`simplified`, `full`, `false`), `hl` (en, es, it or hi),
    /// `annotations` (`true` for all, `false`, or a comma-separated list of
    /// ``RouteAnnotation``'s names), `skip_waypoints` and `generate_hints` (`true`, `false`).
    /// (A route's and a trip's `hints` are point options, read with the others.)
    public static let parameterNames = [
        "steps", "geometries", "overview", "hl", "annotations", "skip_waypoints", "generate_hints",
    ]

    /// Reads option `name`'s `value` when it is one of ``parameterNames``; false for another
    /// name (left to the caller).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the option for a value it does
    ///   not take.
    public mutating func read(_ name: String, _ value: String) throws(AppError) -> Bool {
        switch name {
        case "steps": steps = try Parameter.choice(value, name: name, among: ["true", "false"]) == "true"
        case "geometries":
            geometry = RouteGeometry(
                rawValue: try Parameter.choice(value, name: name, among: ["polyline", "polyline6", "geojson"]))!
        case "overview":
            overview = RouteOverview(
                rawValue: try Parameter.choice(value, name: name, among: RouteOverview.allCases.map(\.rawValue)))!
        case "hl": language = try Language.hl(value)
        case "annotations": annotations = try Self.annotations(value)
        case "skip_waypoints":
            waypoints = try Parameter.choice(value, name: name, among: ["true", "false"]) == "false"
        case "generate_hints": hints = try Parameter.choice(value, name: name, among: ["true", "false"]) == "true"
        default: return false
        }
        return true
    }
}

extension RouteOutput {
    /// OSRM's `annotations` value: `true` (every kind), `false` (none), or kinds by name,
    /// comma-separated.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming an unknown kind.
    static func annotations(_ value: String) throws(AppError) -> Set<RouteAnnotation> {
        switch value {
        case "true": return Set(RouteAnnotation.allCases)
        case "false": return []
        default:
            var kinds: Set<RouteAnnotation> = []
            for name in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let kind = RouteAnnotation(rawValue: String(name)) else {
                    let names = RouteAnnotation.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .invalidOption(
                        "annotations", message: "must be true, false or some of \(names), not '\(name.prefix(40))'")
                }
                kinds.insert(kind)
            }
            return kinds
        }
    }
}

/// A question of OSRM's `match` service: a GPS trace to place on the roads of a way of travel.
public struct MatchQuery: Sendable, Equatable {
    /// The trace's fixes, in the order recorded.
    public var points: [Coordinate]
    /// Each fix's time, seconds (UNIX time as OSRM takes it, or any epoch); nil when not known.
    public var timestamps: [Double]?
    /// Each fix's accuracy, metres (its standard deviation); nil entries (and nil) for the
    /// default, ``Routing/Router/defaultTraceAccuracy``.
    public var radiuses: [Double?]?
    /// The way of travel by road.
    public var mode: TravelProfile.Mode
    /// OSRM's `gaps=split` (the default): a break in time longer than a minute and than ten
    /// times the trace's median interval splits the trace; `ignore` keeps it whole.
    public var splitsAtGaps = true
    /// OSRM's `tidy`: drop fixes too close to the one before first.
    public var tidy = false
    /// OSRM's `waypoints`: the fixes the matched route stops at, by index, ascending, the first
    /// and the last among them (the others passed through within a leg); nil for every fix.
    public var waypoints: [Int]?
    /// How the matchings are written.
    public var output = RouteOutput()

    /// A trace of `points` for `mode`, with the defaults.
    public init(points: [Coordinate], mode: TravelProfile.Mode) {
        self.points = points
        self.mode = mode
    }

    /// The names of a match's options, as `/match/v1` takes them (OSRM's) and `openmaps
    /// match`'s flags map to: `timestamps` (whole or decimal seconds separated by `;`),
    /// `radiuses` (metres separated by `;`, an empty one for the default), `gaps` (`split`,
    /// `ignore`), `tidy` (`true`, `false`), `waypoints` (the fixes the route stops at, by index,
    /// separated by `;`), and ``RouteOutput/parameterNames``; `hints` is taken and passed over
    /// (a match weighs every road near each fix afresh, as OSRM's does).
    public static let parameterNames =
        ["timestamps", "radiuses", "gaps", "tidy", "waypoints", "hints"] + RouteOutput.parameterNames

    /// A trace of `points` for `mode` with the options `parameters` give by name
    /// (``parameterNames``; others are left to the caller), the defaults for the rest. Whether
    /// the lists fit the points is ``MapsApp/match(_:)``'s to say.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the parameter at fault.
    public init(points: [Coordinate], mode: TravelProfile.Mode, parameters: [(name: String, value: String)])
        throws(AppError)
    {
        self.init(points: points, mode: mode)
        for (name, value) in parameters where try !output.read(name, value) {
            switch name {
            case "timestamps":
                timestamps = try Self.list(value, name: name).map { entry throws(AppError) in
                    guard let seconds = entry else {
                        throw .invalidOption(name, message: "has an empty entry: every fix needs its time")
                    }
                    return seconds
                }
            case "radiuses": radiuses = try Self.list(value, name: name)
            case "gaps": splitsAtGaps = try Parameter.choice(value, name: name, among: ["split", "ignore"]) == "split"
            case "tidy": tidy = try Parameter.choice(value, name: name, among: ["true", "false"]) == "true"
            case "waypoints":
                waypoints = try Parameter.waypoints(value, name: name, below: Router.maxTracePoints)
            default: continue
            }
        }
    }

    /// Decimal numbers separated by `;` (an empty entry nil).
    static func list(_ text: String, name: String) throws(AppError) -> [Double?] {
        var values: [Double?] = []
        for entry in text.split(separator: ";", omittingEmptySubsequences: false) {
            if entry.isEmpty {
                values.append(nil)
                continue
            }
            guard let value = DecimalText.parse(entry, maxIntegerDigits: 12), value.isFinite else {
                throw .invalidOption(
                    name, message: "must be decimal numbers separated by ';', not '\(entry.prefix(40))'")
            }
            values.append(value)
        }
        return values
    }
}

extension MapsApp {
    /// OSRM's `match` service: `query`'s trace placed on the roads by a hidden Markov model
    /// (``Routing/Router/match(_:splitsAtGaps:tidy:)``), written as OSRM writes it:
    /// `matchings` (each a route through its fixes, with its `confidence`) and `tracepoints`
    /// (each fix's placement, `null` for one not placed); with `waypoints`, one matching whose
    /// legs join only those fixes (``Routing/TraceMatch/stopping(at:)``). Refusals as OSRM's:
    /// `InvalidOptions` for timestamps or radiuses that do not fit the points, `InvalidValue`
    /// for times that go back, accuracies not above 0 or waypoints without the first and last
    /// fix, `TooBig` for more than ``Routing/Router/maxTracePoints`` fixes, `NoMatch` when no
    /// two fixes could be matched, or the trace splits or leaves a waypoint unplaced.
    ///
    /// - Throws: ``AppError/engineMissing(_:)`` without a routing engine,
    ///   ``AppError/engineFailed(_:underlying:)`` when it fails.
    public func match(_ query: MatchQuery) throws(AppError) -> (code: String, document: String) {
        let count = query.points.count
        guard count >= 2 else {
            return Self.osrmRefusal("InvalidValue", "a trace needs at least 2 points, not \(count)")
        }
        guard count <= Router.maxTracePoints else {
            return Self.osrmRefusal("TooBig", "a trace takes at most \(Router.maxTracePoints) points, not \(count)")
        }
        for (name, length) in [("timestamps", query.timestamps?.count), ("radiuses", query.radiuses?.count)] {
            if let length, length != count {
                return Self.osrmRefusal("InvalidOptions", "\(length) \(name) for \(count) points: give one for each")
            }
        }
        if let times = query.timestamps, let back = times.indices.dropLast().first(where: { times[$0 + 1] < times[$0] })
        {
            return Self.osrmRefusal(
                "InvalidValue", "timestamps go back at point \(back + 1): \(times[back + 1]) after \(times[back])")
        }
        if let stops = query.waypoints, !Parameter.areLegEnds(stops, of: count) {
            return Self.osrmRefusal(
                "InvalidValue", "First and last coordinates must be specified as waypoints, the others in order.")
        }
        if let radiuses = query.radiuses, let wrong = radiuses.firstIndex(where: { ($0 ?? 1) <= 0 }) {
            return Self.osrmRefusal(
                "InvalidValue",
                "radius \(DecimalText.format(radiuses[wrong] ?? 0)) of point \(wrong) must be above 0 metres")
        }
        guard let routing else { throw .engineMissing("routing graph") }
        let stops = Set(query.waypoints ?? [])
        let trace = query.points.indices.map { index in
            TracePoint(
                query.points[index], time: query.timestamps?[index], accuracy: query.radiuses?[index] ?? nil,
                isWaypoint: stops.contains(index))
        }
        var matched: TraceMatch
        var steps: [[[Step]]] = []
        do {
            matched = try routing.match(trace, splitsAtGaps: query.splitsAtGaps, tidy: query.tidy, mode: query.mode)
        } catch {
            throw .engineFailed("matching the trace", underlying: error)
        }
        guard !matched.matchings.isEmpty else {
            return Self.osrmRefusal("NoMatch", "no two points of the trace could be matched to the roads")
        }
        if let waypoints = query.waypoints {
            // One matching stopping only at the waypoints, as OSRM's: refused where the trace
            // split or a waypoint was not placed.
            guard let stopping = matched.stopping(at: waypoints) else {
                return Self.osrmRefusal("NoMatch", "Could not match the trace with the given waypoints.")
            }
            matched = stopping
        }
        do {
            if query.output.steps { steps = try matched.matchings.map { try routing.steps(of: $0.route) } }
        } catch {
            throw .engineFailed("matching the trace", underlying: error)
        }
        return (
            "Ok",
            RouteDocument.osrmMatch(
                matched, geometry: query.output.geometry, overview: query.output.overview, steps: steps,
                instructions: query.output.steps ? Instructions(query.output.language) : nil,
                annotations: query.output.annotations, waypoints: query.output.waypoints, hints: query.output.hints)
        )
    }
}
