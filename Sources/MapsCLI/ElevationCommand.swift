import Foundation
import GeoCore
import MapsApp

/// `openmaps elevation LAT,LNG…`: heights from the store's imported elevation models, one
/// line a point, or Google's Elevation API document with `--format json`.
enum ElevationCommand {
    static let command = Command(
        name: "elevation",
        summary: "Heights above sea level at points, or along a path, from the imported elevation models.",
        usage:
            "elevation <LAT,LNG>… | elevation --path 'LAT,LNG|LAT,LNG…' --samples N [--format text|json] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--path", value: "POINTS",
                    help: "A path, 'lat,lng|lat,lng…' or 'enc:' and an encoded polyline, sampled evenly."),
                .init(name: "--samples", value: "N", help: "How many points along --path, ends included (2 to 512)."),
                .init(
                    name: "--format", value: "FORMAT",
                    help: "text (one line a point, the default) or json (Google's Elevation API document)."),
                DataCommand.storeOption,
            ], positionals: 0...ElevationQuery.maxPoints)
    ) { (arguments, console) throws(CLIError) in
        let format = arguments.value("--format") ?? "text"
        guard ["text", "json"].contains(format) else {
            throw .usage("'--format' must be text or json, not '\(format)'")
        }
        let locations = arguments.positionals.isEmpty ? nil : arguments.positionals.joined(separator: "|")
        let query = try ViewCommand.reading([
            ("LAT,LNG", "locations"), ("--path", "path"), ("--samples", "samples"),
        ]) { () throws(AppError) in
            try ElevationQuery(
                locations: locations, path: arguments.value("--path"), samples: arguments.value("--samples"))
        }
        let app = try ViewCommand.app(arguments)
        let answer: ElevationAnswer
        do throws(AppError) { answer = try app.elevation(query) } catch { throw CLIError(error) }
        if format == "json" {
            console.print(answer.googleDocument)
            return
        }
        for (point, sample) in answer.results {
            let place = "\(DecimalText.format(point.latitude)),\(DecimalText.format(point.longitude))"
            if let sample {
                console.print(
                    "\(place): \(String(format: "%.1f", sample.metres)) m (model pixels of \(String(format: "%.1f", sample.resolution)) m)"
                )
            } else {
                console.print("\(place): no height (no imported elevation model covers it)")
            }
        }
        if answer.status != "OK" && answer.results.allSatisfy({ $0.sample == nil }) {
            throw .failure("no imported elevation model covers these points (import one: 'openmaps import MODEL.tif')")
        }
    }
}
