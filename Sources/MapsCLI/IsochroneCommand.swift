import Foundation
import GeoCore
import MapsApp

/// `openmaps isochrone LAT,LNG --minutes 5,10,15`: the area reached from a point within each
/// time (or distance), as Valhalla writes isochrones: GeoJSON polygons.
enum IsochroneCommand {
    static let command = Command(
        name: "isochrone",
        summary: "The area reached from a point within each time (or distance) by road, as GeoJSON polygons.",
        usage:
            "isochrone <LAT,LNG> (--minutes 5,10,15 | --metres 500,1000) [--mode driving|walking|bicycling|two-wheeler] [--polygons true|false] [--denoise 0-1] [--generalize METRES] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(name: "--minutes", value: "LIST", help: "Up to 4 times, minutes, comma-separated (1 to 120)."),
                .init(
                    name: "--metres", value: "LIST",
                    help: "Up to 4 distances along the roads, comma-separated (1 to 100000)."),
                TableCommand.roadModeOption,
                .init(
                    name: "--polygons", value: "BOOL",
                    help:
                        "true (default): the areas, with their holes; false: their rings as lines (Valhalla's polygons)."
                ),
                .init(
                    name: "--denoise", value: "SHARE",
                    help:
                        "0 (default) to 1: leave out a contour's polygons smaller than this share of its largest (1: the largest alone; Valhalla's denoise)."
                ),
                .init(
                    name: "--generalize", value: "METRES",
                    help: "Simplify each ring within this many metres more (Valhalla's generalize)."),
                DataCommand.storeOption,
            ], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        guard let point = Coordinate(parsing: arguments.positionals[0]), point.isValid else {
            throw .usage("'\(arguments.positionals[0].prefix(60))' is not LAT,LNG in decimal degrees")
        }
        guard (arguments.value("--minutes") == nil) != (arguments.value("--metres") == nil) else {
            throw .usage("give one of '--minutes' and '--metres'")
        }
        // The flags are the server's options by other names: read as it reads them.
        let flags = [
            ("--minutes", "contours_minutes"), ("--metres", "contours_meters"), ("--polygons", "polygons"),
            ("--denoise", "denoise"), ("--generalize", "generalize"),
        ]
        let parameters = flags.compactMap { flag, name in arguments.value(flag).map { (name: name, value: $0) } }
        let mode = try TableCommand.roadMode(arguments)
        let query = try ViewCommand.reading(flags) { () throws(AppError) in
            try IsochroneQuery(origin: point, mode: mode, parameters: parameters)
        }
        let app = try ViewCommand.app(arguments)
        let answer: (code: String, document: String)
        do throws(AppError) {
            answer = try app.isochrone(query)
        } catch {
            throw CLIError(error)
        }
        guard answer.code == "Ok" else { throw TableCommand.refusal(answer) }
        console.print(answer.document)
    }
}
