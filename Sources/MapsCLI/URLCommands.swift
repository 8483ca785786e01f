import Foundation
import GeoCore
import MapsURL

/// `openmaps url parse | convert | validate | build | choose`.
enum URLCommands {
    static let all: [Command] = [parse, find, convert, validate, build, choose]

    static let groupHelp = """
        OVERVIEW: Read, check, convert and build Google Maps links.

        USAGE: openmaps url <command> [<options>]

        COMMANDS:
        \(all.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))
        """

    static let targetNames = LinkTarget.allCases.map(\.rawValue).joined(separator: "|")

    // MARK: parse

    static let parse = Command(
        name: "parse", summary: "Print a link's request as JSON; diagnostics go to standard error.",
        usage: "parse <url>", parser: ArgumentParser(options: [], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let (parsed, request) = try read(arguments, &console)
        console.print(try json(ParseOutput(form: parsed.form, action: request.action, request: request)))
        if !parsed.isValid { throw .failure("") }
    }

    // MARK: find

    static let find = Command(
        name: "find", summary: "List every Maps link in a text (a share message, HTML), one a line.",
        usage: "find <text>", parser: ArgumentParser(options: [], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let text = arguments.positionals[0]
        let links = MapsURLParser.find(in: text)
        guard !links.isEmpty else {
            let scanned = text.unicodeScalars.count > MapsURLParser.maxTextScan
            throw .failure(
                scanned
                    ? "the text's first \(MapsURLParser.maxTextScan) characters hold no Maps link (longer texts are read that far)"
                    : "the text holds no Maps link")
        }
        for link in links {
            let offset = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: link.range.lowerBound)
            let action = link.parsed.request?.action.rawValue ?? "?"
            console.print("\(offset)\t\(link.parsed.form?.rawValue ?? "?")\t\(action)\t\(link.link)")
        }
    }

    // MARK: convert

    static let convert = Command(
        name: "convert", summary: "Rewrite a link as another form (or every form with --to all).",
        usage: "convert <url> --to <\(targetNames)|all>",
        parser: ArgumentParser(
            options: [.init(name: "--to", value: "TARGET", help: "The form to write: \(targetNames) or all.")],
            positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        guard let targetName = arguments.value("--to") else { throw .usage("'--to' is required") }
        let targets = try parseTargets(targetName)
        try printConversions(of: try read(arguments, &console).request, to: targets, &console)
    }

    // MARK: validate

    static let validate = Command(
        name: "validate", summary: "Check a link; exit 1 with diagnostics under the link when it is not valid.",
        usage: "validate <url>", parser: ArgumentParser(options: [], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let input = arguments.positionals[0]
        let parsed = MapsURLParser.parse(input)
        printDiagnostics(parsed, input: input, to: &console)
        guard parsed.isValid, let request = parsed.request else { throw .failure("the link is not valid") }
        console.print("valid \(parsed.form?.rawValue ?? "link"): \(request.action.rawValue)")
    }

    // MARK: build

    static let build = Command(
        name: "build", summary: "Build a link from its parts (a map, a search or directions).",
        usage:
            "build [--center LAT,LNG] [--zoom Z] [--views LIST] [--query TEXT] [--saddr PLACE --daddr PLACE] … [--to TARGET]",
        parser: ArgumentParser(
            options: [
                .init(name: "--center", value: "LAT,LNG", help: "Map center in decimal degrees."),
                .init(name: "--zoom", value: "Z", help: "Zoom level, 0...21 (fractions allowed)."),
                .init(name: "--mapmode", value: "MODE", help: "standard or streetview."),
                .init(
                    name: "--views", value: "LIST", help: "Comma list of satellite, traffic, transit; '' clears all."),
                .init(name: "--query", value: "TEXT", help: "Search text (the 'q' parameter)."),
                .init(name: "--saddr", value: "PLACE", help: "Directions start: address, LAT,LNG, or '' for here."),
                .init(name: "--daddr", value: "PLACE", help: "Directions end: address, LAT,LNG, or '' for here."),
                .init(
                    name: "--waypoint", value: "PLACE", help: "A stop between start and end (repeatable).",
                    repeatable: true),
                .init(
                    name: "--directionsmode", value: "MODE",
                    help: "driving, transit, bicycling, walking or two-wheeler."),
                .init(name: "--navigate", value: nil, help: "Start turn-by-turn navigation."),
                .init(name: "--x-source", value: "NAME", help: "Label of the 'back' button (needs --x-success)."),
                .init(name: "--x-success", value: "URL", help: "Your app's callback URL (custom scheme only)."),
                .init(name: "--x-error", value: "URL", help: "Callback URL on failure."),
                .init(name: "--x-cancel", value: "URL", help: "Callback URL on cancel."),
                .init(
                    name: "--to", value: "TARGET",
                    help: "Form to write (default comgooglemaps, or x-callback with a callback): \(targetNames) or all."
                ),
            ], positionals: 0...0)
    ) { (arguments, console) throws(CLIError) in
        let request = try buildRequest(arguments)
        let defaultTarget = request.callback != nil ? LinkTarget.xCallback : .comgooglemaps
        let targets = try arguments.value("--to").map(parseTargets) ?? [defaultTarget]
        try printConversions(of: request, to: targets, &console)
    }

    // MARK: choose

    static let choose = Command(
        name: "choose", summary: "Show the links an app would try for a request, best first (nothing is opened).",
        usage: "choose <url> [--installed SCHEMES]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--installed", value: "SCHEMES",
                    help: "Comma list of schemes canOpenURL answers yes for (default: none installed).")
            ], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let installed = Set((arguments.value("--installed") ?? "").split(separator: ",").map { String($0) + "://" })
        let request = try read(arguments, &console).request
        let launcher = MapsLauncher(canOpen: { installed.contains($0) }, open: { _ in true })
        for (rank, choice) in launcher.candidates(for: request).enumerated() {
            console.print("\(rank + 1). \(choice.target.rawValue)\t\(choice.link.url)")
            for part in choice.link.unexpressed { console.print("   loses \(part)") }
        }
        console.print("Info.plist LSApplicationQueriesSchemes: \(MapsLauncher.queriesSchemes.joined(separator: ", "))")
    }

    // MARK: Shared pieces

    struct ParseOutput: Encodable {
        var form: LinkForm?
        var action: MapsAction
        var request: MapsRequest
    }

    static func json(_ value: some Encodable) throws(CLIError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .failure("could not encode JSON: \(error)")
        }
    }

    /// The link given as the command's argument (or the one Maps link in a pasted text),
    /// read; its diagnostics go to standard error, with a note when it came out of a text.
    ///
    /// - Throws: a failure when no request could be read from it.
    static func read(_ arguments: ArgumentParser.Result, _ console: inout Console) throws(CLIError) -> (
        parsed: ParsedMapsURL, request: MapsRequest
    ) {
        let reading = MapsURLParser.read(arguments.positionals[0])
        noteText(reading, &console)
        printDiagnostics(reading.parsed, input: reading.link, to: &console)
        guard let request = reading.parsed.request else { throw .failure("no request could be read from the link") }
        return (reading.parsed, request)
    }

    /// Says when a link was read out of a text, and how many others the text holds.
    static func noteText(_ reading: MapsURLParser.Reading, _ console: inout Console) {
        guard reading.wasInText else { return }
        console.error("note: read the Maps link in the text: \(reading.link)")
        if reading.linksInText > 1 {
            console.error(
                "note: the text holds \(reading.linksInText) Maps links; the first is read ('openmaps url find' lists them all)"
            )
        }
    }

    static func printDiagnostics(_ parsed: ParsedMapsURL, input: String, to console: inout Console) {
        for diagnostic in parsed.diagnostics {
            console.error(diagnostic.rendered(under: input))
        }
    }

    static func parseTargets(_ name: String) throws(CLIError) -> [LinkTarget] {
        if name == "all" { return LinkTarget.allCases }
        guard let target = LinkTarget(rawValue: name) else {
            throw .usage("'--to' must be one of \(targetNames) or all, not '\(name)'")
        }
        return [target]
    }

    /// Prints the request as each target; with several targets each line is `target<TAB>url`.
    static func printConversions(of request: MapsRequest, to targets: [LinkTarget], _ console: inout Console)
        throws(CLIError)
    {
        var failures = 0
        for target in targets {
            do {
                let printed = try MapsURLPrinter.print(request, as: target)
                console.print(targets.count == 1 ? printed.url : "\(target.rawValue)\t\(printed.url)")
                for part in printed.unexpressed {
                    console.error("warning: \(target.rawValue) cannot express \(part)")
                }
            } catch {
                console.error("\(targets.count == 1 ? "error" : "skipped"): \(error)")
                failures += 1
            }
        }
        if failures == targets.count { throw .failure("") }
    }

    /// The request `build`'s options describe, by ``RequestBuilder``'s rules; a part it refuses
    /// is a usage error naming the option.
    static func buildRequest(_ arguments: ArgumentParser.Result) throws(CLIError) -> MapsRequest {
        var builder = RequestBuilder()
        builder.center = arguments.value("--center")
        builder.zoom = arguments.value("--zoom")
        builder.mapMode = arguments.value("--mapmode")
        builder.views = arguments.value("--views")
        builder.query = arguments.value("--query")
        builder.saddr = arguments.value("--saddr")
        builder.daddr = arguments.value("--daddr")
        builder.waypoints = arguments.all("--waypoint")
        builder.directionsMode = arguments.value("--directionsmode")
        builder.navigate = arguments.flags.contains("--navigate")
        builder.xSource = arguments.value("--x-source")
        builder.xSuccess = arguments.value("--x-success")
        builder.xError = arguments.value("--x-error")
        builder.xCancel = arguments.value("--x-cancel")
        do {
            return try builder.build()
        } catch {
            let option = error.parameter == "waypoints" ? "--waypoint" : "--" + error.parameter
            throw .usage("'\(option)' \(error.message)")
        }
    }
}
