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
            "table <LAT,LNG> <LAT,LNG>… [--sources 0,1] [--destinations 2,3] [--mode driving|walking|bicycling|two-wheeler] [--annotations duration,distance] [--fallback-speed M/S] [--scale-factor X] [--bearings LIST] [--approaches LIST] [--radiuses LIST] [--hints LIST] [--snapping default|any] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--sources", value: "INDICES",
                    help: "The points the rows start from, by index from 0, comma-separated (default: every point)."),
                .init(
                    name: "--destinations", value: "INDICES",
                    help: "The points the columns end at, by index, comma-separated (default: every point)."),
                TableCommand.roadModeOption,
                .init(
                    name: "--annotations", value: "KINDS",
                    help: "duration (default) and/or distance, comma-separated."),
                .init(
                    name: "--fallback-speed", value: "M/S",
                    help: "Fill a cell no route joins with the straight distance at this speed (metres a second)."),
                .init(name: "--scale-factor", value: "X", help: "Multiply every duration by X (default 1)."),
            ] + RouteCommand.pointOptions + [
                DataCommand.storeOption
            ], positionals: 1...10_000)
    ) { (arguments, console) throws(CLIError) in
        var points: [Coordinate] = []
        for text in arguments.positionals {
            guard let point = Coordinate(parsing: text), point.isValid else {
                throw .usage("'\(text.prefix(60))' is not LAT,LNG in decimal degrees")
            }
            points.append(point)
        }
        let mode = try roadMode(arguments)
        let query = try ViewCommand.reading(flags) { () throws(AppError) in
            try TableQuery(
                points: points, mode: mode,
                parameters: flags.compactMap { flag, name in arguments.value(flag).map { (name, $0) } })
        }
        let app = try ViewCommand.app(arguments)
        let answer: TableAnswer
        do throws(AppError) { answer = try app.table(query, maxCells: Int.max) } catch { throw CLIError(error) }
        if let failure = answer.failure { throw .failure("\(failure.code): \(failure.message)") }
        console.print(answer.osrm)
    }

    /// The flags that give a table's options, by the names ``MapsApp/TableQuery`` reads them by.
    static let flags: [(flag: String, name: String)] =
        [
            ("--sources", "sources"), ("--destinations", "destinations"), ("--annotations", "annotations"),
            ("--fallback-speed", "fallback_speed"), ("--scale-factor", "scale_factor"),
        ] + RouteCommand.pointFlags

    /// An OSRM service's refusal (its code and document) as the road commands say it: the code
    /// and the refusal's message.
    static func refusal(_ answer: (code: String, document: String)) -> CLIError {
        .failure("\(answer.code): \(MapsApp.refusalMessage(answer))")
    }

    /// `--mode MODE`: a way of travel by road, ``roadMode(_:)`` reads it.
    static let roadModeOption = ArgumentParser.Option(
        name: "--mode", value: "MODE", help: "driving (default), walking, bicycling or two-wheeler.")

    /// The way of travel by road `--mode` names; driving without it.
    static func roadMode(_ arguments: ArgumentParser.Result) throws(CLIError) -> TravelProfile.Mode {
        try ViewCommand.reading([("--mode", "mode")]) { () throws(AppError) in
            try Parameter.roadMode(arguments.value("--mode") ?? "driving", name: "mode")
        }
    }
}
