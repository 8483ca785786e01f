import Foundation
import GeoCore
import MapsApp
import MapsURL
import Routing

/// `openmaps table POINT POINT…`: the durations (and distances) between points on the store's
/// road network, as OSRM's `table` service writes them.
enum TableCommand {
    static let command = Command(
        name: "table",
        summary:
            "Durations (and distances) from points to points on the road network, by one many-to-many search; OSRM's table JSON.",
        usage:
            "table <LAT,LNG> <LAT,LNG>… [--sources 0,1] [--destinations 2,3] [--mode driving|walking|bicycling|two-wheeler] [--annotations duration,distance] [--fallback-speed M/S] [--scale-factor X] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--sources", value: "INDICES",
                    help: "The points the rows start from, by index from 0, comma-separated (default: every point)."),
                .init(
                    name: "--destinations", value: "INDICES",
                    help: "The points the columns end at, by index, comma-separated (default: every point)."),
                .init(
                    name: "--mode", value: "MODE", help: "driving (default), walking, bicycling or two-wheeler."),
                .init(
                    name: "--annotations", value: "KINDS",
                    help: "duration (default) and/or distance, comma-separated."),
                .init(
                    name: "--fallback-speed", value: "M/S",
                    help: "Fill a cell no route joins with the straight distance at this speed (metres a second)."),
                .init(name: "--scale-factor", value: "X", help: "Multiply every duration by X (default 1)."),
                DataCommand.storeOption,
            ], positionals: 1...10_000)
    ) { (arguments, console) throws(CLIError) in
        var points: [Coordinate] = []
        for text in arguments.positionals {
            guard let point = Coordinate(parsing: text), point.isValid else {
                throw .usage("'\(text.prefix(60))' is not LAT,LNG in decimal degrees")
            }
            points.append(point)
        }
        var query = TableQuery(points: points, mode: try roadMode(arguments))
        query.sources = try indices(arguments, "--sources")
        query.destinations = try indices(arguments, "--destinations")
        if let kinds = arguments.value("--annotations") {
            let names = kinds.split(separator: ",").map { TableQuery.Annotation(rawValue: String($0)) }
            guard !names.isEmpty, names.allSatisfy({ $0 != nil }) else {
                throw .usage("'--annotations' takes duration and/or distance, comma-separated, not '\(kinds)'")
            }
            query.annotations = Set(names.compactMap { $0 })
        }
        query.fallbackSpeed = try number(arguments, "--fallback-speed")
        query.scaleFactor = try number(arguments, "--scale-factor") ?? 1
        let app = try ViewCommand.app(arguments)
        let answer: TableAnswer
        do throws(AppError) { answer = try app.table(query, maxCells: Int.max) } catch { throw CLIError(error) }
        if let failure = answer.failure { throw .failure("\(failure.code): \(failure.message)") }
        console.print(answer.osrm)
    }

    /// The way of travel by road `--mode` names; driving without it.
    static func roadMode(_ arguments: ArgumentParser.Result) throws(CLIError) -> TravelProfile.Mode {
        let text = arguments.value("--mode") ?? "driving"
        guard let travel = TravelMode(rawValue: text), let mode = DirectionsQuery.profile(for: travel) else {
            throw .usage("'--mode' must be driving, walking, bicycling or two-wheeler, not '\(text)'")
        }
        return mode
    }

    /// Indices `name` gives, comma-separated; nil without the option.
    static func indices(_ arguments: ArgumentParser.Result, _ name: String) throws(CLIError) -> [Int]? {
        guard let text = arguments.value(name) else { return nil }
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard values.allSatisfy({ ($0 ?? -1) >= 0 }) else {
            throw .usage("'\(name)' takes point indices from 0, comma-separated, not '\(text.prefix(60))'")
        }
        return values.compactMap { $0 }
    }

    /// A positive number `name` gives; nil without the option.
    static func number(_ arguments: ArgumentParser.Result, _ name: String) throws(CLIError) -> Double? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Double(text), value > 0, value.isFinite else {
            throw .usage("'\(name)' must be a number above 0, not '\(text.prefix(40))'")
        }
        return value
    }
}
