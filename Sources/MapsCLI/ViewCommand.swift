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
        usage:
            "view <url> [--size WxH] [--padding T,L,B,R] [--style light|dark] [--layer NAMES] [--my-location LAT,LNG] [--store STORE]",
        parser: ArgumentParser(options: viewOptions + [DataCommand.storeOption], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let answer = try answer(arguments, on: try app(arguments, needsStore: false), &console)
        console.print(try URLCommands.json(MapViewState(answer.mapView)))
    }

    /// The options `view` and `open` share for turning a link into a map view.
    static let viewOptions: [ArgumentParser.Option] = [
        .init(name: "--size", value: "WxH", help: "View size in points (default 800x600)."),
        .init(
            name: "--isochrone", value: "MINUTES",
            help:
                "Draw the areas reached within these minutes (up to 4, comma-separated) from the link's centre or pin."),
        .init(
            name: "--isochrone-mode", value: "MODE",
            help: "The isochrones' way of travel: walking (default), driving, bicycling."),
        .init(
            name: "--padding", value: "T,L,B,R",
            help: "Points the view's edges keep clear (controls, panels): the camera fits inside the rest."),
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
        try reading([("--lang", "hl")]) { () throws(AppError) in try arguments.value("--lang").map(Language.hl) }
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
        var options = try answerOptions(arguments)
        if let navigationStep { options.navigationStep = navigationStep }
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

    /// The flags of the answer's options and the names ``AnswerOptions/init(parameters:)``
    /// reads them by.
    static let answerFlags: [(flag: String, name: String)] = [
        ("--size", "size"), ("--padding", "padding"), ("--style", "scheme"), ("--map-type", "maptype"),
        ("--layer", "layers"),
        ("--my-location", "mylocation"), ("--accuracy", "accuracy"), ("--heading", "heading"),
        ("--bearing", "bearing"), ("--tilt", "tilt"), ("--level", "level"), ("--lang", "hl"),
        ("--isochrone", "isochrone"), ("--isochrone-mode", "isochronemode"),
    ]

    /// The answer's options the flags in `arguments` set, read as the server reads its query.
    static func answerOptions(_ arguments: ArgumentParser.Result) throws(CLIError) -> AnswerOptions {
        try reading(answerFlags) { () throws(AppError) in
            try AnswerOptions(
                parameters: answerFlags.compactMap { flag, name in arguments.value(flag).map { (name, $0) } })
        }
    }

    /// `read`'s value, its refusal of an option by name said as a usage error of the flag
    /// `flags` maps that name to.
    static func reading<T>(_ flags: [(flag: String, name: String)], _ read: () throws(AppError) -> T) throws(CLIError)
        -> T
    {
        do {
            return try read()
        } catch {
            if case .invalidOption(let name, let message) = error, let flag = flags.first(where: { $0.name == name }) {
                throw .usage("'\(flag.flag)' \(message)")
            }
            throw CLIError(error)
        }
    }

    /// `--map-type TYPE`, whose default `defaultType` describes.
    static func mapTypeOption(default defaultType: String) -> ArgumentParser.Option {
        .init(
            name: "--map-type", value: "TYPE",
            help: "normal, hybrid, satellite, terrain or none (default: \(defaultType)).")
    }

    /// An option's decimal value inside `range`, or nil when the option is absent.
    static func number(
        _ arguments: ArgumentParser.Result, _ option: String, in range: ClosedRange<Double>
    ) throws(CLIError) -> Double? {
        try reading([(option, option)]) { () throws(AppError) in
            try arguments.value(option).map { text throws(AppError) in
                try Parameter.number(text, name: option, in: range)
            }
        }
    }

    /// An option's whole-number value inside `range`, or nil when the option is absent.
    static func count(
        _ arguments: ArgumentParser.Result, _ option: String, in range: ClosedRange<Int>
    ) throws(CLIError) -> Int? {
        try reading([(option, option)]) { () throws(AppError) in
            try arguments.value(option).map { text throws(AppError) in
                try Parameter.count(text, name: option, in: range)
            }
        }
    }
}
