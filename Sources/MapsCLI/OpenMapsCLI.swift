import Foundation
import MapsURL

/// What a command printed and how it ended.
public struct CommandResult: Sendable, Equatable {
    /// 0 on success, 1 on failure, 64 on a usage error.
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String
}

/// The `openmaps` commands as a library; the executable only forwards its arguments here.
public enum OpenMapsCLI {
    public static let version = "0.1.0"

    /// Runs one command line (without the program name) and returns what it printed.
    public static func run(_ arguments: [String]) -> CommandResult {
        var console = Console()
        let exitCode: Int32
        do throws(CLIError) {
            try dispatch(arguments, &console)
            exitCode = 0
        } catch {
            switch error {
            case .usage(let message):
                console.error("error: \(message)\nRun 'openmaps \(commandPath(arguments)) --help' for usage.")
                exitCode = 64
            case .failure(let message):
                if !message.isEmpty { console.error("error: \(message)") }
                exitCode = 1
            }
        }
        return CommandResult(exitCode: exitCode, standardOutput: console.output, standardError: console.errors)
    }

    /// The command's name as typed: one word, or two for the groups (`url parse`, `data info`).
    private static func commandPath(_ arguments: [String]) -> String {
        let words = arguments.prefix { !$0.hasPrefix("-") }
        return ["url", "data", "osm"].contains(words.first ?? "")
            ? words.prefix(2).joined(separator: " ") : words.prefix(1).joined(separator: " ")
    }

    private static func dispatch(_ arguments: [String], _ console: inout Console) throws(CLIError) {
        guard let group = arguments.first else {
            console.print(overview)
            throw .usage("no command given")
        }
        switch group {
        case "-h", "--help", "help":
            console.print(overview)
        case "--version":
            console.print("openmaps \(version)")
        case "view", "open", "tiles", "import":
            let command = [ViewCommand.command, OpenCommand.command, TilesCommand.command, DataCommand.importFile]
                .first { $0.name == group }!
            let parsed = try command.parser.parse(Array(arguments.dropFirst()))
            if parsed.wantsHelp {
                console.print(command.help.replacingOccurrences(of: "openmaps url ", with: "openmaps "))
                return
            }
            try command.run(parsed, &console)
        case "data":
            let rest = Array(arguments.dropFirst())
            let commands = [DataCommand.install, DataCommand.info]
            guard let name = rest.first, let command = commands.first(where: { $0.name == name }) else {
                if rest.first == "--help" || rest.first == "-h" {
                    console.print(
                        commands.map { $0.help.replacingOccurrences(of: "openmaps url", with: "openmaps data") }.joined(
                            separator: "\n\n"))
                    return
                }
                throw .usage("'openmaps data' takes install or info")
            }
            let parsed = try command.parser.parse(Array(rest.dropFirst()))
            if parsed.wantsHelp {
                console.print(command.help.replacingOccurrences(of: "openmaps url", with: "openmaps data"))
                return
            }
            try command.run(parsed, &console)
        case "osm":
            let rest = Array(arguments.dropFirst())
            guard rest.first == "info" else {
                if rest.first == "--help" || rest.first == "-h" {
                    console.print(OSMCommand.info.help.replacingOccurrences(of: "openmaps url", with: "openmaps osm"))
                    return
                }
                throw .usage("'openmaps osm' has one command: info")
            }
            let parsed = try OSMCommand.info.parser.parse(Array(rest.dropFirst()))
            if parsed.wantsHelp {
                console.print(OSMCommand.info.help.replacingOccurrences(of: "openmaps url", with: "openmaps osm"))
                return
            }
            try OSMCommand.info.run(parsed, &console)
        case "url":
            let rest = Array(arguments.dropFirst())
            guard let name = rest.first, !name.hasPrefix("-") else {
                if rest.first == "-h" || rest.first == "--help" {
                    console.print(URLCommands.groupHelp)
                    return
                }
                console.print(URLCommands.groupHelp)
                throw .usage("'openmaps url' needs a subcommand")
            }
            guard let command = URLCommands.all.first(where: { $0.name == name }) else {
                throw .usage("unknown command 'url \(name)'")
            }
            let parsed = try command.parser.parse(Array(rest.dropFirst()))
            if parsed.wantsHelp {
                console.print(command.help)
                return
            }
            try command.run(parsed, &console)
        default:
            throw .usage("unknown command '\(group)'")
        }
    }

    static let overview = """
        OVERVIEW: OpenMaps, an open maps engine that answers Google Maps links.

        USAGE: openmaps <command> [<options>]

        COMMANDS:
        \(URLCommands.all.map { "  url " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))
          view          \(ViewCommand.command.summary)
          open          \(OpenCommand.command.summary)
          tiles         \(TilesCommand.command.summary)
          osm info      \(OSMCommand.info.summary)
          data install  \(DataCommand.install.summary)
          data info     \(DataCommand.info.summary)
          import        \(DataCommand.importFile.summary)

        Run 'openmaps url <command> --help' for a command's options.
        """
}

/// Collects what a command prints.
struct Console {
    private(set) var output = ""
    private(set) var errors = ""

    mutating func print(_ line: String) {
        output += line
        output += "\n"
    }

    mutating func error(_ line: String) {
        errors += line
        errors += "\n"
    }
}

/// One `openmaps url …` command.
struct Command: Sendable {
    var name: String
    var summary: String
    var usage: String
    var parser: ArgumentParser
    var run: @Sendable (ArgumentParser.Result, inout Console) throws(CLIError) -> Void

    var help: String {
        """
        OVERVIEW: \(summary)

        USAGE: openmaps url \(usage)

        OPTIONS:
        \(parser.optionsHelp)
        """
    }
}
