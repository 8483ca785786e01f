import Foundation
import GeoCore
import MapsApp
import MapsURL

/// `openmaps route FROM TO`: the fastest route on the store's road network, as OSRM writes it.
enum RouteCommand {
    static let command = Command(
        name: "route",
        summary:
            "Route between two points (LAT,LNG or a place to search for), through --via stops, for a way of travel; OSRM's v5 JSON or GeoJSON.",
        usage:
            "route <from> <to> [--via POINT]… [--mode driving|walking|bicycling|two-wheeler|transit] [--depart|--arrive YYYY-MM-DDTHH:MM] [--avoid tolls,highways,ferries] [--alternatives] [--steps] [--lang en|es|it|hi] [--units metric|imperial] [--format osrm|geojson|text|gpx] [--geometries polyline|polyline6|geojson] [--overview simplified|full|false] [--annotations KINDS] [--bearings LIST] [--approaches LIST] [--radiuses LIST] [--hints LIST] [--snapping default|any] [--continue-straight true|false] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--via", value: "POINT", help: "A stop between, in order (repeatable).",
                    repeatable: true),
                .init(
                    name: "--mode", value: "MODE",
                    help: "driving (default), walking, bicycling, two-wheeler or transit (on imported timetables)."),
                .init(
                    name: "--depart", value: "TIME",
                    help: "With transit: when to leave, YYYY-MM-DDTHH:MM in the feed's local time (default: now)."),
                .init(
                    name: "--arrive", value: "TIME",
                    help: "With transit: when to be there at the latest, YYYY-MM-DDTHH:MM (the latest departure found)."
                ),
                .init(
                    name: "--avoid", value: "KINDS",
                    help:
                        "Keep off tolls, highways and/or ferries (comma-separated) where another way is not far longer."
                ),
                .init(
                    name: "--alternatives", value: nil,
                    help: "Also up to 2 other routes (between two points), each at most 1.4 times as long."),
                .init(
                    name: "--steps", value: nil,
                    help: "Add the turn-by-turn steps (OSRM's steps, each with its instruction)."),
                .init(
                    name: "--lang", value: "LANG",
                    help: "The language of the instructions and notes: en (default), es, it or hi."),
                .init(name: "--units", value: "UNITS", help: "metric (default) or imperial distances in instructions."),
                .init(
                    name: "--format", value: "FORMAT",
                    help:
                        "osrm (default), geojson, text (the itinerary written out, step by step) or gpx (its steps and track)."
                ),
                .init(
                    name: "--geometries", value: "KIND",
                    help: "The OSRM geometry: polyline (default), polyline6, geojson."),
                .init(
                    name: "--overview", value: "KIND",
                    help:
                        "The OSRM document's whole line: simplified (default: as OSRM simplifies it, for the zoom the route fits a screen at), full, or false (none)."
                ),
                .init(
                    name: "--annotations", value: "KINDS",
                    help:
                        "Annotate each leg's segments in OSRM's document: true (all), or some of nodes, distance, duration, datasources, weight, speed, ways (comma-separated)."
                ),
            ] + pointOptions + [
                .init(
                    name: "--continue-straight", value: "BOOL",
                    help:
                        "true: never turn back at a stop; false: may; default: by car never, on foot or by bicycle may."
                ),
                DataCommand.storeOption,
            ], positionals: 2...2)
    ) { (arguments, console) throws(CLIError) in
        let query = try directionsQuery(arguments)
        let isTransit = query.mode == .transit
        let formatText = arguments.value("--format") ?? "osrm"
        let formats = isTransit ? ["osrm", "text"] : ["osrm", "geojson", "text", "gpx"]
        guard formats.contains(formatText) else {
            throw .usage(
                "'--format'\(isTransit ? " with transit" : "") must be "
                    + "\(formats.dropLast().joined(separator: ", ")) or \(formats.last ?? ""), not '\(formatText)'")
        }
        let geometryText = arguments.value("--geometries") ?? "polyline"
        guard let geometry = RouteGeometry(rawValue: geometryText) else {
            throw .usage("'--geometries' must be polyline, polyline6 or geojson, not '\(geometryText)'")
        }
        var output = RouteOutput()
        do throws(AppError) {
            _ = try output.read("annotations", arguments.value("--annotations") ?? "false")
            if let overview = arguments.value("--overview") { _ = try output.read("overview", overview) }
        } catch {
            throw CLIError(error)
        }
        let app = try ViewCommand.app(arguments)
        var asked = query
        // The steps written: every route's in OSRM's document (with --steps), the best one's in
        // an itinerary or GPX, none in GeoJSON.
        asked.steps =
            formatText == "text" || formatText == "gpx"
            ? .best : formatText == "osrm" && arguments.flags.contains("--steps") ? .every : .none
        let answer: DirectionsAnswer
        do throws(AppError) { answer = try app.directions(asked) } catch { throw CLIError(error) }
        for end in answer.ends {
            guard case .query(let text) = end.waypoint, let place = end.place else { continue }
            let address = place.address.map { ", \($0)" } ?? ""
            console.error("note: '\(text)' is \(place.name)\(address) at \(place.position)")
        }
        for note in answer.notes { console.error("note: \(note.message)") }
        if let failure = answer.failureNote {
            if isTransit && formatText == "osrm" { console.print(answer.osrm()) }
            throw .failure(failure.message)
        }
        switch formatText {
        case "geojson": console.print(answer.geoJSON)
        case "text": console.print(answer.itinerary)
        case "gpx": console.print(answer.gpx ?? "")
        default:
            console.print(answer.osrm(geometry: geometry, overview: output.overview, annotations: output.annotations))
        }
        if let summary = answer.summary { console.error(summary) }
    }

    /// The question `route` asks: its ends (`LAT,LNG` or a place to search for) and the options
    /// of the way of travel, the time and the words, each refused by name when it is wrong.
    static func directionsQuery(_ arguments: ArgumentParser.Result) throws(CLIError) -> DirectionsQuery {
        let modeText = arguments.value("--mode") ?? "driving"
        guard let mode = TravelMode(rawValue: modeText) else {
            throw .usage("'--mode' must be driving, walking, bicycling, two-wheeler or transit, not '\(modeText)'")
        }
        var avoid: Set<RouteAvoidance> = []
        for word in (arguments.value("--avoid") ?? "").split(separator: ",") {
            let name = word.trimmingCharacters(in: .whitespaces)
            guard let feature = RouteAvoidance(rawValue: name) else {
                throw .usage("'--avoid' takes tolls, highways and ferries, comma-separated, not '\(name)'")
            }
            avoid.insert(feature)
        }
        let unitsText = arguments.value("--units") ?? "metric"
        guard let units = DistanceUnits(rawValue: unitsText) else {
            throw .usage("'--units' must be metric or imperial, not '\(unitsText)'")
        }
        let texts = [arguments.positionals[0]] + arguments.all("--via") + [arguments.positionals[1]]
        var query: DirectionsQuery
        do throws(AppError) {
            query = DirectionsQuery(
                ends: try texts.map { text throws(AppError) in try DirectionsQuery.end(text) }, mode: mode)
        } catch {
            throw SearchCommand.usage(error)
        }
        do throws(AppError) {
            if let time = try DirectionsQuery.Time.asked(
                depart: arguments.value("--depart"), arrive: arguments.value("--arrive"))
            {
                query.time = time
            }
            for (option, name) in pointFlags + [("--continue-straight", "continue_straight")] {
                if let value = arguments.value(option) { _ = try query.readOSRM(name, value) }
            }
        } catch {
            throw CLIError(error)
        }
        query.avoid = avoid
        query.alternatives = arguments.flags.contains("--alternatives") ? 2 : 0
        query.language = try ViewCommand.language(arguments) ?? .en
        query.units = units
        return query
    }

    /// The options saying how each point is met, a route's and a table's: OSRM's `bearings`,
    /// `approaches`, `radiuses` and `hints`, one entry a point in order (a route's start,
    /// stops, end), and `snapping`, for every point.
    static let pointOptions: [ArgumentParser.Option] = [
        .init(
            name: "--bearings", value: "LIST",
            help:
                "The direction of travel at each point, in order: DEGREES,TOLERANCE or nothing, separated by ';' (OSRM's bearings)."
        ),
        .init(
            name: "--approaches", value: "LIST",
            help:
                "The side each point is met from: curb, opposite, unrestricted or nothing, separated by ';' (OSRM's approaches)."
        ),
        .init(
            name: "--radiuses", value: "LIST",
            help:
                "How far from each point its road may be: metres, unlimited or nothing, separated by ';' (OSRM's radiuses)."
        ),
        .init(
            name: "--hints", value: "LIST",
            help:
                "Where each point met the roads in an earlier answer: its waypoint's hint or nothing, separated by ';' (OSRM's hints)."
        ),
        .init(
            name: "--snapping", value: "default|any",
            help:
                "any: the points may meet a ferry or a private service road too, where routes do not start by default (OSRM's snapping)."
        ),
    ]

    /// ``pointOptions``' flags, with the names OSRM gives them.
    static let pointFlags = [
        ("--bearings", "bearings"), ("--approaches", "approaches"), ("--radiuses", "radiuses"), ("--hints", "hints"),
        ("--snapping", "snapping"),
    ]
}
