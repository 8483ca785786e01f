import CairoKit
import Foundation
import MapCore
import MapsApp

/// `openmaps open URL -o map.png`: the maps app's answer to a link, as a picture.
enum OpenCommand {
    static let command = Command(
        name: "open",
        summary: "Render the map a link opens to a PNG, SVG or PDF picture.",
        usage:
            "open <url> -o <map.png|map.svg|map.pdf> [--size WxH] [--padding T,L,B,R] [--scale N] [--map-type TYPE] [--layer NAMES] [--style light|dark] [--bearing DEG] [--tilt DEG] [--my-location LAT,LNG [--accuracy M] [--heading DEG]] [--level NAME] [--traffic FILE] [--store STORE] [--answer FILE.json]",
        parser: ArgumentParser(options: pictureOptions, positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        try draw(arguments, &console)
    }

    /// The options of the commands that draw a link's answer (`open`, `navigate`).
    static let pictureOptions: [ArgumentParser.Option] =
        ViewCommand.viewOptions + [
            .init(name: "-o", value: "FILE", help: "The picture to write; its extension picks the format."),
            .init(name: "--scale", value: "N", help: "Pixels per point for PNG, 1 to 8 (default 1)."),
            ViewCommand.mapTypeOption(default: "the link's"),
            .init(name: "--level", value: "NAME", help: "The indoor floor to show (default: the ground floor)."),
            DataCommand.trafficOption,
            DataCommand.storeOption,
            .init(
                name: "--answer", value: "FILE",
                help: "Also write the answer as JSON: what the link asks for, places, ends, notes, credits."),
        ]

    /// `openmaps navigate LINK -o map.png [--at-step N] [--gpx FILE]`: a directions link as a
    /// navigation app shows it at a step, and its route as GPX.
    static let navigate = Command(
        name: "navigate",
        summary:
            "Render a directions link as navigation shows it at a step (banner, panel, driver's view); its route as GPX.",
        usage:
            "navigate <url> -o <map.png|map.svg|map.pdf> [--at-step N] [--gpx FILE] [--lang en|es|it|hi] [--size WxH] [--scale N] [--style light|dark] [--store STORE] [--answer FILE.json]",
        parser: ArgumentParser(
            options: pictureOptions + [
                .init(name: "--at-step", value: "N", help: "The step being travelled, 0 the departure (default 0)."),
                .init(name: "--gpx", value: "FILE", help: "Also write the route and its steps as GPX, for replay."),
            ], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let step = try ViewCommand.number(arguments, "--at-step", in: 0...10_000) ?? 0
        let answer = try draw(arguments, &console, navigationStep: Int(step))
        guard answer.navigation != nil, let gpx = answer.directions?.gpx else {
            throw .failure(
                "the link has no route to navigate (a directions link between places in the imported regions)")
        }
        if let file = arguments.value("--gpx") {
            do { try Data((gpx + "\n").utf8).write(to: URL(fileURLWithPath: file), options: .atomic) } catch {
                throw .failure("cannot write \(file): \(error.localizedDescription)")
            }
        }
    }

    /// Refuses, before any work, a file to write in a folder that does not exist.
    static func requireFolder(of path: String, for option: String) throws(CLIError) {
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard
            folder.isEmpty
                || (FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue)
        else { throw .usage("'\(option)' names a file in a folder that does not exist: \(folder)") }
    }

    /// Draws the answer to the link in `arguments` into `-o` and says what it holds.
    @discardableResult
    static func draw(_ arguments: ArgumentParser.Result, _ console: inout Console, navigationStep: Int? = nil)
        throws(CLIError) -> Answer
    {
        guard let output = arguments.value("-o") else { throw .usage("'-o FILE' is required") }
        guard let format = PictureFormat(path: output) else {
            throw .usage("'-o' must end in .png, .svg or .pdf, not '\(output)'")
        }
        try requireFolder(of: output, for: "-o")
        if let gpx = arguments.value("--gpx") { try requireFolder(of: gpx, for: "--gpx") }
        let scale = try ViewCommand.number(arguments, "--scale", in: 1...8) ?? 1
        let start = Date()
        let app = try ViewCommand.app(arguments)
        let answer = try ViewCommand.answer(arguments, on: app, &console, navigationStep: navigationStep)
        do {
            let map = try app.picture(of: answer, format: format, scale: scale)
            try map.canvas.write(to: output)
            let size = answer.mapView.frame.size
            console.print(
                String(
                    format: "%@: %.0f×%.0f points, zoom %.2f, %d features, %d labels (%.2f s)", output, size.width,
                    size.height, answer.mapView.camera.zoom, map.features, map.labels, Date().timeIntervalSince(start)))
            if let file = arguments.value("--answer") {
                try AnswerDocument(answer).json().write(to: URL(fileURLWithPath: file), options: .atomic)
            }
        } catch let error as AppError {
            throw CLIError(error)
        } catch {
            throw .failure("\(error)")
        }
        for place in answer.places.prefix(3) { console.print("found: \(place.name) (\(place.why))") }
        for end in answer.routeEnds {
            console.print("\(end.role.rawValue): \(end.place.map { "\($0.name) at \($0.position)" } ?? "not placed")")
        }
        if let route = answer.route {
            console.print(
                String(
                    format: "route: %@, %.1f km, %.0f min, by %@", route.mode.rawValue, route.distance / 1000,
                    route.duration / 60, route.legs.flatMap(\.roads).prefix(4).joined(separator: ", ")))
            if !answer.steps.isEmpty {
                console.print(
                    answer.instructions.itinerary(answer.steps, distance: route.distance, duration: route.duration))
            }
        }
        if let state = answer.navigation {
            let line = answer.instructions.navigationLine(
                next: state.next, distance: state.distanceToNext, remainingTime: state.remainingTime,
                remainingDistance: state.remainingDistance, arrival: state.arrivalText)
            console.print("navigation: \(line) [\(state.next.maneuver.googleName)]")
        }
        if let callback = answer.callback {
            // Offered as a button, never followed by itself (the URL passed CallbackPolicy).
            console.print("back button: \"\(callback.source)\" opens \(callback.success) when tapped")
        }
        return answer
    }
}
