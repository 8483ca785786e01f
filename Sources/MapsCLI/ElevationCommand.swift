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
            "elevation <LAT,LNG>… | elevation --path 'LAT,LNG|LAT,LNG…' --samples N [--format text|json] [--lang en|es|it|hi] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--path", value: "POINTS",
                    help: "A path, 'lat,lng|lat,lng…' or 'enc:' and an encoded polyline, sampled evenly."),
                .init(name: "--samples", value: "N", help: "How many points along --path, ends included (2 to 512)."),
                .init(
                    name: "--format", value: "FORMAT",
                    help: "text (one line a point, the default) or json (Google's Elevation API document)."),
                .init(name: "--lang", value: "LANG", help: "The text's language: en (default), es, it or hi."),
                DataCommand.storeOption,
            ], positionals: 0...ElevationQuery.maxPoints)
    ) { (arguments, console) throws(CLIError) in
        let format = arguments.value("--format") ?? "text"
        guard ["text", "json"].contains(format) else {
            throw .usage("'--format' must be text or json, not '\(format)'")
        }
        let words = Phrasebook(try ViewCommand.language(arguments) ?? .en)
        // The flags' own words for what Google's parameters would say of a missing or doubled one.
        switch (arguments.positionals.isEmpty, arguments.value("--path"), arguments.value("--samples")) {
        case (true, nil, _): throw .usage("elevation needs points (LAT,LNG …) or '--path' with '--samples'")
        case (false, .some, _): throw .usage("give points or '--path', not both")
        case (true, .some, nil): throw .usage("'--path' needs '--samples N' (2 to \(ElevationQuery.maxPoints))")
        default: break
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
        for line in answer.lines(words) { console.print(line) }
        if answer.results.allSatisfy({ $0.sample == nil }) { throw .failure(ElevationAnswer.nothingCovered(words)) }
    }
}
