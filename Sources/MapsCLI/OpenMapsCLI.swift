import Foundation
import MapsURL

/// What a command printed and how it ended.
public struct CommandResult: Sendable, Equatable {
    /// 0 on success, 1 on failure, 64 on a usage error.
    public var exitCode: Int32
    /// What the command wrote for standard output.
    public var standardOutput: String
    /// What the command wrote for standard error: errors and progress.
    public var standardError: String
}

/// The `openmaps` commands as a library; the executable only forwards its arguments here.
public enum OpenMapsCLI {
    /// The version `openmaps --version` prints.
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
        return groups[words.first ?? ""] != nil
            ? words.prefix(2).joined(separator: " ") : words.prefix(1).joined(separator: " ")
    }

    /// Commands typed alone: `openmaps view …`.
    private static let commands = [
        ViewCommand.command, OpenCommand.command, OpenCommand.navigate, SearchCommand.search, SearchCommand.reverse,
        RouteCommand.command,
        TableCommand.command,
        IsochroneCommand.command,
        MatchCommand.command,
        ElevationCommand.command,
        TilesCommand.command, DataCommand.importFile, UpdateCommand.command, ServeCommand.command,
    ]

    /// Command groups, `openmaps GROUP COMMAND …`, in the order the overview lists them: their
    /// subcommands, an overview printed also when the subcommand is missing (else `-h` lists
    /// every subcommand's help), and what a missing or unknown subcommand says.
    private static let groupTable: [(name: String, commands: [Command], overview: String?, missing: String)] = [
        ("url", URLCommands.all, URLCommands.groupHelp, "'openmaps url' needs a subcommand"),
        ("osm", [OSMCommand.info], nil, "'openmaps osm' has one command: info"),
        ("data", [DataCommand.install, DataCommand.info], nil, "'openmaps data' takes install or info"),
    ]

    private static let groups = Dictionary(
        uniqueKeysWithValues: groupTable.map {
            ($0.name, (commands: $0.commands, overview: $0.overview, missing: $0.missing))
        })

    private static func dispatch(_ arguments: [String], _ console: inout Console) throws(CLIError) {
        guard let name = arguments.first else {
            console.print(overview)
            throw .usage("no command given")
        }
        let rest = Array(arguments.dropFirst())
        if name == "-h" || name == "--help" || name == "help" {
            console.print(overview)
        } else if name == "--version" {
            console.print("openmaps \(version)")
        } else if let command = commands.first(where: { $0.name == name }) {
            try run(command, in: nil, rest, &console)
        } else if let group = groups[name] {
            guard let subcommand = rest.first, !subcommand.hasPrefix("-") else {
                if rest.first == "-h" || rest.first == "--help" {
                    console.print(
                        group.overview ?? group.commands.map { $0.help(in: name) }.joined(separator: "\n\n"))
                    return
                }
                if let overview = group.overview { console.print(overview) }
                throw .usage(group.missing)
            }
            guard let command = group.commands.first(where: { $0.name == subcommand }) else {
                throw .usage(name == "url" ? "unknown command 'url \(subcommand)'" : group.missing)
            }
            try run(command, in: name, Array(rest.dropFirst()), &console)
        } else {
            throw .usage("unknown command '\(name)'")
        }
    }

    /// Parses a command's arguments, then prints its help (`-h`) or runs it.
    private static func run(
        _ command: Command, in group: String?, _ arguments: [String], _ console: inout Console
    ) throws(CLIError) {
        let parsed = try command.parser.parse(arguments)
        if parsed.wantsHelp {
            console.print(command.help(in: group))
            return
        }
        try command.run(parsed, &console)
    }

    /// `openmaps --help`: every command of the two tables, its name and summary.
    static let overview: String = {
        func listed(_ groups: ArraySlice<(name: String, commands: [Command], overview: String?, missing: String)>)
            -> [(String, String)]
        {
            groups.flatMap { group in group.commands.map { ("\(group.name) \($0.name)", $0.summary) } }
        }
        let alone: [(String, String)] = commands.map { ($0.name, $0.summary) }
        let named = listed(groupTable.prefix(1)) + alone + listed(groupTable.dropFirst())
        let width = named.map(\.0.count).max() ?? 0
        let lines = named.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
        return """
            OVERVIEW: OpenMaps, an open maps engine that answers Google Maps links.

            USAGE: openmaps <command> [<options>]

            COMMANDS:
            \(lines.joined(separator: "\n"))

            Run 'openmaps <command> --help' for a command's options.
            """
    }()
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

    /// Writes what was printed so far to standard output and standard error at once, for a
    /// command that runs until stopped (`update --follow`): else nothing would show.
    mutating func flush() {
        FileHandle.standardOutput.write(Data(output.utf8))
        FileHandle.standardError.write(Data(errors.utf8))
        output = ""
        errors = ""
    }
}

/// One `openmaps` command.
struct Command: Sendable {
    var name: String
    var summary: String
    var usage: String
    var parser: ArgumentParser
    var run: @Sendable (ArgumentParser.Result, inout Console) throws(CLIError) -> Void

    /// The command's help, its usage under `openmaps GROUP` (or `openmaps` alone).
    func help(in group: String?) -> String {
        """
        OVERVIEW: \(summary)

        USAGE: openmaps \(group.map { $0 + " " } ?? "")\(usage)

        OPTIONS:
        \(parser.optionsHelp)
        """
    }
}
