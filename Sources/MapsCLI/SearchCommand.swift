import Foundation
import GeoCore
import MapData
import MapsApp
import PlaceSearch

/// `openmaps search QUERY` and `openmaps reverse LAT,LNG`: the app's geocoder from the command line.
enum SearchCommand {
    static let formatOption = ArgumentParser.Option(
        name: "--format", value: "FORMAT",
        help: "geojson (a FeatureCollection, the default), jsonv2 or json (Nominatim's field names).")
    static let languageOption = ArgumentParser.Option(
        name: "--lang", value: "LANG", help: "Names in en, es, it or hi where the data has them (default: local names)."
    )

    static let search = Command(
        name: "search",
        summary:
            "Find places by name in any language, address, category (in en, es, it, hi and the local language) or 'category near place'; typos and unfinished words are read.",
        usage:
            "search <query> [--near LAT,LNG] [--limit N] [--lang en|es|it|hi] [--format geojson|jsonv2] [--store STORE]",
        parser: ArgumentParser(
            options: [
                .init(name: "--near", value: "LAT,LNG", help: "Search around this point (nearer places first)."),
                .init(name: "--limit", value: "N", help: "Results wanted, 1 to 50 (default 10)."),
                languageOption, formatOption, DataCommand.storeOption,
            ], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let format = try SearchCommand.format(arguments)
        var query = SearchQuery(arguments.positionals[0])
        query.language = try ViewCommand.language(arguments)
        if let near = arguments.value("--near") {
            guard let coordinate = Coordinate(parsing: near), coordinate.isValid else {
                throw .usage("'--near' must be LAT,LNG in decimal degrees, not '\(near)'")
            }
            query.near = coordinate
        }
        if let limit = arguments.value("--limit") {
            guard let value = Int(limit) else { throw .usage("'--limit' must be a whole number, not '\(limit)'") }
            query.limit = value
        }
        let app = try ViewCommand.app(arguments)
        do throws(AppError) {
            let results = try app.search(query)
            console.print(format.document(results, language: query.language))
            if results.isEmpty { console.error("note: no place in the map data matches '\(query.text)'") }
        } catch {
            throw SearchCommand.usage(error)
        }
    }

    static let reverse = Command(
        name: "reverse",
        summary:
            "Name what lies at a point: the nearest address, else street, else place, with its district, city and country.",
        usage: "reverse <lat,lng> [--lang en|es|it|hi] [--format geojson|jsonv2] [--store STORE]",
        parser: ArgumentParser(options: [languageOption, formatOption, DataCommand.storeOption], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let format = try SearchCommand.format(arguments)
        let text = arguments.positionals[0]
        guard let coordinate = Coordinate(parsing: text), coordinate.isValid else {
            throw .usage("the point must be LAT,LNG in decimal degrees within ±90 and ±180, not '\(text)'")
        }
        let language = try ViewCommand.language(arguments)
        let app = try ViewCommand.app(arguments)
        do throws(AppError) {
            let result = try app.reverse(coordinate, language: language)
            console.print(format.document(result.map { [$0] } ?? [], reverse: true, language: language))
            if result == nil {
                let code = (try? PlusCode(coordinate)).map { " (plus code \($0))" } ?? ""
                console.error("note: the map data has nothing within 30 km of \(coordinate)\(code)")
            }
        } catch {
            throw SearchCommand.usage(error)
        }
    }

    static func format(_ arguments: ArgumentParser.Result) throws(CLIError) -> ResultFormat {
        let text = arguments.value("--format") ?? "geojson"
        guard let format = ResultFormat(rawValue: text) else {
            throw .usage("'--format' must be geojson, jsonv2 or json, not '\(text)'")
        }
        return format
    }

    /// A query the app cannot search is a usage error saying why.
    static func usage(_ error: AppError) -> CLIError {
        if case .invalidOption(_, let message) = error { return .usage(message) }
        return CLIError(error)
    }
}
