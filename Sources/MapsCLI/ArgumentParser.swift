import MapsApp

/// A small command-line argument reader: `--name value`, `--name=value`, flags, repeated
/// options, `--` to end options, and positionals. Unknown options are usage errors.
struct ArgumentParser: Sendable {
    /// One option a command accepts.
    struct Option: Sendable {
        /// Long name with dashes, for example `--zoom`.
        var name: String
        /// Placeholder of the value (`LAT,LNG`), or nil for a flag.
        var value: String?
        var help: String
        /// True when the option may be given more than once.
        var repeatable = false
    }

    /// What was read from the command line.
    struct Result {
        var positionals: [String] = []
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var wantsHelp = false

        func value(_ name: String) -> String? { values[name]?.first }
        func all(_ name: String) -> [String] { values[name] ?? [] }
    }

    var options: [Option]
    /// How many positionals the command takes.
    var positionals: ClosedRange<Int>

    /// Reads `arguments` (the words after the command's name).
    ///
    /// - Throws: ``CLIError/usage(_:)`` naming the offending word.
    func parse(_ arguments: [String]) throws(CLIError) -> Result {
        var result = Result()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                result.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "-h" || word == "--help" {
                result.wantsHelp = true
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw .usage("unknown option '\(name)'")
            }
            guard option.value != nil else {
                if inlineValue != nil { throw .usage("'\(name)' takes no value") }
                result.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw .usage("'\(name)' needs a value (\(option.value!))") }
                value = arguments[index]
                index += 1
            }
            if result.values[name] != nil && !option.repeatable {
                throw .usage("'\(name)' is given more than once")
            }
            result.values[name, default: []].append(value)
        }
        if !result.wantsHelp && !positionals.contains(result.positionals.count) {
            if result.positionals.count < positionals.lowerBound {
                throw .usage("missing argument")
            }
            throw .usage("unexpected argument '\(result.positionals[positionals.upperBound])'")
        }
        return result
    }

    /// The options section of a command's help.
    var optionsHelp: String {
        let rows =
            options.map { option in
                (option.name + (option.value.map { " " + $0 } ?? ""), option.help)
            } + [("-h, --help", "Show this help.")]
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
            .joined(separator: "\n")
    }
}

/// How a command failed; decides the exit code.
enum CLIError: Error, Equatable {
    /// The command line was wrong (exit 64).
    case usage(String)
    /// The command ran and failed (exit 1); the message was already printed when empty.
    case failure(String)
}

extension CLIError {
    /// The CLI's face of an app error: an option that cannot apply is a usage error naming
    /// the option; everything else a failure.
    init(_ error: AppError) {
        switch error {
        // The option as its flag: OSRM's `continue_straight` is `--continue-straight`.
        case .invalidOption(let option, let message):
            self = .usage("'--\(option.replacingOccurrences(of: "_", with: "-"))' \(message)")
        default: self = .failure(error.description)
        }
    }
}
