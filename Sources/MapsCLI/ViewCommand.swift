import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import MapsURL

/// `openmaps view URL --size WxH`: the map view's full state for a link, as JSON.
enum ViewCommand {
    static let command = Command(
        name: "view",
        summary: "Print the map view a link opens (camera, visible region, what is drawn, controls) as JSON.",
        usage: "view <url> [--size WxH] [--style light|dark] [--layer NAMES] [--my-location LAT,LNG] [--store STORE]",
        parser: ArgumentParser(options: viewOptions + [DataCommand.storeOption], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let answer = try answer(arguments, on: try app(arguments, needsStore: false), &console)
        console.print(try URLCommands.json(MapViewState(answer.mapView)))
    }

    /// The options `view` and `open` share for turning a link into a map view.
    static let viewOptions: [ArgumentParser.Option] = [
        .init(name: "--size", value: "WxH", help: "View size in points (default 800x600)."),
        .init(name: "--style", value: "STYLE", help: "light or dark (default: follow the system, light)."),
        .init(name: "--my-location", value: "LAT,LNG", help: "Turn My Location on at this position."),
        .init(name: "--accuracy", value: "M", help: "My Location's accuracy radius in metres."),
        .init(name: "--heading", value: "DEG", help: "My Location's heading, degrees clockwise from north."),
        .init(name: "--bearing", value: "DEG", help: "Turn the camera to this bearing (default: the link's, 0)."),
        .init(name: "--tilt", value: "DEG", help: "Tilt the camera, 0 up to 30-65 by zoom (default 0)."),
        .init(
            name: "--layer", value: "NAMES",
            help: "Turn layers on besides the link's: traffic, transit, bicycling, comma-separated."),
        .init(
            name: "--lang", value: "LANG",
            help:
                "The answer's language: notes, steps, the map's words and place names where the data has them: en, es, "
                + "it or hi (default: the link's hl, else English with local names)."),
    ]

    /// The language `--lang` names (`en`, `es`, `it`, `hi`), nil without the option.
    static func language(_ arguments: ArgumentParser.Result) throws(CLIError) -> Language? {
        guard let text = arguments.value("--lang") else { return nil }
        guard let language = Language(rawValue: text) else {
            throw .usage("'--lang' must be en, es, it or hi, not '\(text)'")
        }
        return language
    }

    /// The maps app on the store `--store` names (the default store otherwise), with the
    /// traffic feed `--traffic` names, if the command has that option.
    ///
    /// - Parameter needsStore: false for commands that can answer without map data (`view`):
    ///   a missing default store then leaves the app without engines, and the answer says what
    ///   it could not look up. True (drawing, tiles): a missing store is an error that says how
    ///   to build one.
    static func app(_ arguments: ArgumentParser.Result, needsStore: Bool = true) throws(CLIError) -> MapsApp {
        let path = try DataCommand.store(arguments)
        let traffic: TrafficFeed?
        do { traffic = try DataCommand.trafficFeed(arguments) } catch { throw .failure("\(error)") }
        if !needsStore && arguments.value("--store") == nil && StoreEngine(location: path) == .sqlite
            && !FileManager.default.fileExists(atPath: path)
        {
            return MapsApp()
        }
        do { return try MapsApp.onStore(path: path, traffic: traffic) } catch { throw CLIError(error) }
    }

    /// The app's answer to the link in `arguments`, with the view options applied; the link's
    /// diagnostics and the answer's notes go to standard error.
    static func answer(
        _ arguments: ArgumentParser.Result, on app: MapsApp, _ console: inout Console, navigationStep: Int? = nil
    ) throws(CLIError) -> Answer {
        var options = AnswerOptions()
        options.navigationStep = navigationStep
        options.size = try parseSize(arguments.value("--size") ?? "800x600")
        options.style = try arguments.value("--style").map(parseStyle)
        options.mapType = try arguments.value("--map-type").map(parseMapType)
        options.layers = try layers(arguments.value("--layer"))
        options.accuracy = try number(arguments, "--accuracy", in: 0...1_000_000)
        options.heading = try number(arguments, "--heading", in: -360...360)
        options.bearing = try number(arguments, "--bearing", in: -360...360)
        options.tilt = try number(arguments, "--tilt", in: 0...90)
        options.level = arguments.value("--level")
        options.language = try language(arguments)
        if let location = arguments.value("--my-location") {
            guard let coordinate = Coordinate(parsing: location) else {
                throw .usage("'--my-location' must be LAT,LNG in decimal degrees, not '\(location)'")
            }
            options.myLocation = coordinate
        }
        let link = arguments.positionals[0]
        let reading = MapsURLParser.read(link)
        do {
            let answer = try app.answer(reading, options: options)
            URLCommands.noteText(reading, &console)
            for diagnostic in answer.diagnostics { console.error(diagnostic.rendered(under: reading.link)) }
            for note in answer.notes { console.error("note: \(note)") }
            return answer
        } catch {
            if case .unreadableLink(let diagnostics) = error {
                for diagnostic in diagnostics { console.error(diagnostic.rendered(under: link)) }
            }
            throw CLIError(error)
        }
    }

    /// The layers `--layer` names (`traffic,bicycling`), none without the option.
    static func layers(_ text: String?) throws(CLIError) -> Set<MapLayer> {
        var layers: Set<MapLayer> = []
        for name in (text ?? "").split(separator: ",") {
            guard let layer = MapLayer(rawValue: String(name)) else {
                throw .usage("'--layer' may list traffic, transit and bicycling, not '\(name)'")
            }
            layers.insert(layer)
        }
        return layers
    }

    /// `--map-type TYPE`, whose default `defaultType` describes.
    static func mapTypeOption(default defaultType: String) -> ArgumentParser.Option {
        .init(
            name: "--map-type", value: "TYPE",
            help: "normal, hybrid, satellite, terrain or none (default: \(defaultType)).")
    }

    /// A `--map-type` value.
    static func parseMapType(_ text: String) throws(CLIError) -> MapType {
        guard let type = MapType(rawValue: text) else {
            throw .usage("'--map-type' must be normal, hybrid, satellite, terrain or none, not '\(text)'")
        }
        return type
    }

    /// A `--style` value: light or dark.
    static func parseStyle(_ text: String) throws(CLIError) -> UserInterfaceStyle {
        guard let style = UserInterfaceStyle(rawValue: text), style != .unspecified else {
            throw .usage("'--style' must be light or dark, not '\(text)'")
        }
        return style
    }

    /// An option's decimal value inside `range`, or nil when the option is absent.
    static func number(
        _ arguments: ArgumentParser.Result, _ option: String, in range: ClosedRange<Double>
    ) throws(CLIError) -> Double? {
        guard let text = arguments.value(option) else { return nil }
        guard let value = DecimalText.parse(Substring(text), maxIntegerDigits: 7), range.contains(value) else {
            throw .usage(
                "'\(option)' must be a number from \(DecimalText.format(range.lowerBound)) to \(DecimalText.format(range.upperBound)), not '\(text)'"
            )
        }
        return value
    }

    /// An option's whole-number value inside `range`, or nil when the option is absent.
    static func count(
        _ arguments: ArgumentParser.Result, _ option: String, in range: ClosedRange<Int>
    ) throws(CLIError) -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let count = Int(text), range.contains(count) else {
            throw .usage(
                "'\(option)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return count
    }

    static func parseSize(_ text: String) throws(CLIError) -> Size {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = DecimalText.parse(parts[0], maxIntegerDigits: 5),
            let height = DecimalText.parse(parts[1], maxIntegerDigits: 5), width > 0, height > 0
        else { throw .usage("'--size' must be WIDTHxHEIGHT in points, like 800x600, not '\(text)'") }
        return Size(width: width, height: height)
    }
}
