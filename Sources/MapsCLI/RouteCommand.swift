import Foundation
import GeoCore
import MapsApp
import PlaceSearch
import Routing
import Transit

/// `openmaps route FROM TO`: the fastest route on the store's road network, as OSRM writes it.
enum RouteCommand {
    static let command = Command(
        name: "route",
        summary:
            "Route between two points (LAT,LNG or a place to search for), through --via stops, for a way of travel; OSRM's v5 JSON or GeoJSON.",
        usage:
            "route <from> <to> [--via POINT]… [--mode driving|walking|bicycling|two-wheeler|transit] [--depart|--arrive YYYY-MM-DDTHH:MM] [--avoid tolls,highways,ferries] [--alternatives] [--steps] [--lang en|es|it|hi] [--units metric|imperial] [--format osrm|geojson|text|gpx] [--geometries polyline|polyline6|geojson] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--via", value: "POINT", help: "A stop between, in order (repeatable, up to 9).",
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
                DataCommand.storeOption,
            ], positionals: 2...2)
    ) { (arguments, console) throws(CLIError) in
        let modeText = arguments.value("--mode") ?? "driving"
        if modeText == "transit" {
            try transit(arguments, &console)
            return
        }
        guard let mode = TravelProfile.Mode(rawValue: modeText) else {
            throw .usage("'--mode' must be driving, walking, bicycling, two-wheeler or transit, not '\(modeText)'")
        }
        for option in ["--depart", "--arrive"] where arguments.value(option) != nil {
            throw .usage("'\(option)' goes with '--mode transit'")
        }
        var avoid: Set<TravelProfile.RoadFeature> = []
        for word in (arguments.value("--avoid") ?? "").split(separator: ",") {
            let name = word.trimmingCharacters(in: .whitespaces)
            guard let feature = TravelProfile.RoadFeature(rawValue: name) else {
                throw .usage("'--avoid' takes tolls, highways and ferries, comma-separated, not '\(name)'")
            }
            avoid.insert(feature)
        }
        let formatText = arguments.value("--format") ?? "osrm"
        guard ["osrm", "geojson", "text", "gpx"].contains(formatText) else {
            throw .usage("'--format' must be osrm, geojson, text or gpx, not '\(formatText)'")
        }
        let language = try ViewCommand.language(arguments) ?? .en
        let unitsText = arguments.value("--units") ?? "metric"
        guard let units = DistanceUnits(rawValue: unitsText) else {
            throw .usage("'--units' must be metric or imperial, not '\(unitsText)'")
        }
        let instructions = Instructions(language, units: units)
        let geometryText = arguments.value("--geometries") ?? "polyline"
        guard let geometry = RouteDocument.Geometry(rawValue: geometryText) else {
            throw .usage("'--geometries' must be polyline, polyline6 or geojson, not '\(geometryText)'")
        }
        let texts = [arguments.positionals[0]] + arguments.all("--via") + [arguments.positionals[1]]
        guard texts.count <= Router.maxPoints else {
            throw .usage("a route takes at most 9 stops between its start and its destination, not \(texts.count - 2)")
        }
        let app = try ViewCommand.app(arguments)
        let points = try place(texts, app: app, &console)
        do throws(AppError) {
            let routes =
                arguments.flags.contains("--alternatives") && points.count == 2
                ? try app.routes(from: points[0], to: points[1], mode: mode, avoiding: avoid, alternatives: 2)
                : [try app.route(points, mode: mode, avoiding: avoid)]
            let route = routes[0]
            for note in route.notes { console.error("note: \(note.message(instructions.words))") }
            // The steps written: every route's in OSRM's document (with --steps), the best one's in
            // an itinerary or GPX, none in GeoJSON.
            let stepped =
                formatText == "text" || formatText == "gpx"
                ? [route] : formatText == "osrm" && arguments.flags.contains("--steps") ? routes : []
            let steps = try stepped.map { route throws(AppError) in try app.steps(of: route) }
            switch formatText {
            case "geojson": console.print(RouteDocument.geoJSON(routes))
            case "text":
                console.print(instructions.itinerary(steps[0], distance: route.distance, duration: route.duration))
            case "gpx": console.print(RouteDocument.gpx(route, steps: steps[0], instructions: instructions))
            default:
                console.print(
                    RouteDocument.osrm(routes, geometry: geometry, steps: steps, instructions: instructions))
            }
            let minutes = route.duration / 60
            let roads = route.legs.flatMap(\.roads)
            console.error(
                String(format: "%@: %.1f km, %.0f min", mode.rawValue, route.distance / 1000, minutes)
                    + (roads.isEmpty ? "" : ", by " + roads.prefix(4).joined(separator: ", ")))
        } catch {
            throw CLIError(error)
        }
    }

    /// Each text as a coordinate: `LAT,LNG` as given, else the best place the search finds (near
    /// the point before), said on standard error.
    static func place(_ texts: [String], app: MapsApp, _ console: inout Console) throws(CLIError) -> [Coordinate] {
        var points: [Coordinate] = []
        for text in texts {
            if let coordinate = Coordinate(parsing: text), coordinate.isValid {
                points.append(coordinate)
                continue
            }
            // Two numbers that are not a position are a mistake, not a place to search for.
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            if parts.count == 2, parts.allSatisfy({ Double($0.trimmingCharacters(in: .whitespaces)) != nil }) {
                throw .usage("'\(text)' is not a latitude within ±90 and a longitude within ±180")
            }
            var query = SearchQuery(text, near: points.last, limit: 1)
            query.autocomplete = false
            let found: PlaceResult?
            do throws(AppError) { found = try app.search(query).first } catch { throw SearchCommand.usage(error) }
            guard let place = found else { throw .failure("no place in the map data matches '\(text)'") }
            console.error("note: '\(text)' is \(place.displayName) at \(place.coordinate)")
            points.append(place.coordinate)
        }
        return points
    }

    /// `route FROM TO --mode transit [--depart TIME] [--format osrm|text] [--lang]`: the
    /// journeys on the imported timetables, earliest arrival first.
    static func transit(_ arguments: ArgumentParser.Result, _ console: inout Console) throws(CLIError) {
        let formatText = arguments.value("--format") ?? "osrm"
        guard ["osrm", "text"].contains(formatText) else {
            throw .usage("'--format' with transit must be osrm or text, not '\(formatText)'")
        }
        for option in ["--via", "--avoid"] where arguments.value(option) != nil {
            throw .usage("'\(option)' does not go with '--mode transit'")
        }
        func time(_ option: String) throws(CLIError) -> ServiceTime? {
            guard let text = arguments.value(option) else { return nil }
            guard let time = ServiceTime(local: text) else {
                throw .usage("'\(option)' must be YYYY-MM-DDTHH:MM (the feed's local time), not '\(text)'")
            }
            return time
        }
        let departure = try time("--depart")
        let arrival = try time("--arrive")
        guard departure == nil || arrival == nil else { throw .usage("give '--depart' or '--arrive', not both") }
        let words = Phrasebook(try ViewCommand.language(arguments) ?? .en)
        let app = try ViewCommand.app(arguments)
        let points = try place([arguments.positionals[0], arguments.positionals[1]], app: app, &console)
        var journeys: [Journey]
        do throws(AppError) {
            if let arrival {
                journeys = try app.journeys(from: points[0], to: points[1], arrivingBy: arrival)
            } else {
                journeys = try app.journeys(from: points[0], to: points[1], leaving: departure)
            }
        } catch {
            throw CLIError(error)
        }
        journeys = JourneyPlanner.ranked(journeys)
        let timezone = (try? app.transitTimezone()) ?? "UTC"
        guard let best = journeys.first else {
            if formatText == "osrm" { console.print(JourneyDocument.osrm([], timezone: timezone)) }
            throw .failure(words.note("transit no journey"))
        }
        switch formatText {
        case "text": console.print(JourneyDocument.itinerary(best, words: words))
        default:
            console.print(
                JourneyDocument.osrm(journeys, timezone: timezone, instructions: Instructions(words.language)))
        }
        if best.walksStraightLines { console.error("note: " + words.note("transit straight line")) }
        console.error(
            "transit: \(JourneyDocument.clock(best.departure)) → \(JourneyDocument.clock(best.arrival)), "
                + "\((best.arrival - best.departure + 30) / 60) min, \(best.rides) rides; \(journeys.count) journeys")
    }
}
