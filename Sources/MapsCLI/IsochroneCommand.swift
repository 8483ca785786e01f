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
            "isochrone <LAT,LNG> (--minutes 5,10,15 | --metres 500,1000) [--mode driving|walking|bicycling|two-wheeler] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(name: "--minutes", value: "LIST", help: "Up to 4 times, minutes, comma-separated (1 to 120)."),
                .init(
                    name: "--metres", value: "LIST",
                    help: "Up to 4 distances along the roads, comma-separated (1 to 100000)."),
                TableCommand.roadModeOption,
                DataCommand.storeOption,
            ], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        guard let point = Coordinate(parsing: arguments.positionals[0]), point.isValid else {
            throw .usage("'\(arguments.positionals[0].prefix(60))' is not LAT,LNG in decimal degrees")
        }
        let minutes = arguments.value("--minutes")
        let metres = arguments.value("--metres")
        guard (minutes == nil) != (metres == nil), let list = minutes ?? metres else {
            throw .usage("give one of '--minutes' and '--metres'")
        }
        let flag = minutes == nil ? "--metres" : "--minutes"
        let values = try ViewCommand.reading([(flag, "contours")]) { () throws(AppError) in
            try Parameter.numbers(list, name: "contours")
        }
        let mode = try TableCommand.roadMode(arguments)
        let app = try ViewCommand.app(arguments)
        let answer: (code: String, document: String)
        do throws(AppError) {
            answer = try app.isochrone(
                IsochroneQuery(origin: point, mode: mode, contours: values, byDistance: metres != nil))
        } catch {
            throw CLIError(error)
        }
        guard answer.code == "Ok" else { throw TableCommand.refusal(answer) }
        console.print(answer.document)
    }
}
