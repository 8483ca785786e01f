import Foundation
import GeoCore
import MapsApp
import OSMReader

/// `openmaps match TRACE.gpx`: a GPS trace placed on the store's roads, as OSRM's `match`
/// service writes it.
enum MatchCommand {
    static let command = Command(
        name: "match",
        summary:
            "A GPS trace (GPX) placed on the roads by a hidden Markov model: the roads taken, each point's place, OSRM's match JSON.",
        usage:
            "match <TRACE.gpx> [--mode driving|walking|bicycling|two-wheeler] [--accuracy M] [--gaps split|ignore] [--tidy] [--steps] [--geometries polyline|polyline6|geojson] [--overview simplified|full|false] [--waypoints 0;5;9] [--hl en|es|it|hi] [--store STORE]",
        parser: ArgumentParser(
            options: [
                TableCommand.roadModeOption,
                .init(
                    name: "--accuracy", value: "M",
                    help: "The fixes' accuracy, metres (their standard deviation; default 5)."),
                .init(
                    name: "--gaps", value: "WHAT",
                    help:
                        "split (default): a break of more than a minute and ten times the usual interval splits the trace; ignore: one piece."
                ),
                .init(name: "--tidy", value: nil, help: "Drop fixes within 10 m of the one before first."),
                .init(name: "--steps", value: nil, help: "Give each leg's turn-by-turn steps."),
                .init(
                    name: "--geometries", value: "FORMAT", help: "polyline (default), polyline6 or geojson."),
                .init(
                    name: "--overview", value: "KIND",
                    help: "Each matching's whole line: simplified (default, as OSRM simplifies it), full, or false."),
                .init(
                    name: "--waypoints", value: "LIST",
                    help:
                        "The fixes the matched route stops at, by index, separated by ';': the first and the last among them, the others passed through (default: every fix)."
                ),
                .init(name: "--hl", value: "LANG", help: "The steps' language: en (default), es, it or hi."),
                DataCommand.storeOption,
            ], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let path = arguments.positionals[0]
        let points: [GPXPoint]
        do throws(OSMReaderError) { points = try GPXReader.points(path: path) } catch {
            throw .failure("\(path): \(error.description)")
        }
        guard !points.isEmpty else { throw .failure("\(path): no track points, route points or waypoints") }
        let mode = try TableCommand.roadMode(arguments)
        let timed = points.allSatisfy { $0.time != nil }
        var parameters: [(name: String, value: String)] = flags.compactMap { flag, name in
            arguments.value(flag).map { (name, $0) }
        }
        for (flag, name) in [("--tidy", "tidy"), ("--steps", "steps")] where arguments.flags.contains(flag) {
            parameters.append((name, "true"))
        }
        if timed {
            parameters.append(("timestamps", points.map { DecimalText.format($0.time!) }.joined(separator: ";")))
        }
        let query = try ViewCommand.reading(Self.flags + [("--accuracy", "accuracy")]) {
            () throws(AppError) in
            var query = try MatchQuery(
                points: points.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }, mode: mode,
                parameters: parameters)
            if let accuracy = arguments.value("--accuracy") {
                let metres = try Parameter.number(accuracy, name: "accuracy", in: 0.1...1_000)
                query.radiuses = Array(repeating: metres, count: points.count)
            }
            return query
        }
        let app = try ViewCommand.app(arguments)
        let answer: (code: String, document: String)
        do throws(AppError) { answer = try app.match(query) } catch { throw CLIError(error) }
        guard answer.code == "Ok" else { throw TableCommand.refusal(answer) }
        console.print(answer.document)
    }

    /// The flags that give a match's options, by the names ``MapsApp/MatchQuery`` reads them by.
    static let flags: [(flag: String, name: String)] = [
        ("--gaps", "gaps"), ("--geometries", "geometries"), ("--overview", "overview"), ("--waypoints", "waypoints"),
        ("--hl", "hl"),
    ]
}
