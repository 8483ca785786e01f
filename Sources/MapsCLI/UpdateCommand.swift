import Foundation
import MapData
import Routing

/// `openmaps update`: OpenStreetMap change files applied to an imported region.
enum UpdateCommand {
    static let command = Command(
        name: "update",
        summary:
            "Apply OpenStreetMap change files (.osc, .osc.gz, .osc.bz2) to an imported region, several in one update, or follow its replication feed.",
        usage:
            "update CHANGES.osc… [--region NAME] [--store STORE] [--no-routing] | update --replication URL [--sequence N] [--follow] [--interval SECONDS] [--max-diff-size MB] [--region NAME] [--store STORE] [--no-routing]",
        parser: ArgumentParser(
            options: [
                DataCommand.storeOption,
                .init(
                    name: "--region", value: "NAME",
                    help:
                        "The region to update (default: the store's only OpenStreetMap region, or the one holding the elements the file changes)."
                ),
                .init(
                    name: "--replication", value: "URL",
                    help:
                        "A replication feed (its folder of state.txt and AAA/BBB/CCC.osc.gz: minutely, hourly or daily; http(s), file:// or a path): every sequence after the region's applied in order, consecutive ones gathered into one transaction up to --max-diff-size."
                ),
                .init(
                    name: "--sequence", value: "N",
                    help:
                        "The feed's last sequence already in the region's data, where the extract's header does not say (default: found from the data's time)."
                ),
                .init(
                    name: "--follow", value: nil,
                    help: "Keep polling the feed and applying what it publishes (until stopped)."),
                .init(
                    name: "--interval", value: "SECONDS",
                    help:
                        "Seconds between two polls with --follow (default 60; after a failure, twice as long each time, up to an hour)."
                ),
                .init(
                    name: "--max-diff-size", value: "MB",
                    help:
                        "With --replication: megabytes of change files (compressed, as the feed publishes them) gathered into one update (default 50; one sequence at least). The routing graphs are built again once an update, so a region far behind catches up in a few."
                ),
                .init(
                    name: "--no-routing", value: nil,
                    help:
                        "Leave the routing graphs as they are (build them later with 'import --routing'; routes use the plain search until then)."
                ),
            ], positionals: 0...Int.max)
    ) { (arguments, console) throws(CLIError) in
        let path = try DataCommand.store(arguments)
        if let feed = arguments.value("--replication") {
            guard arguments.positionals.isEmpty else {
                throw .usage("--replication reads its change files from the feed, not from files given")
            }
            try follow(feed, storePath: path, arguments: arguments, console: &console)
            return
        }
        for option in ["--sequence", "--interval", "--max-diff-size"] where arguments.value(option) != nil {
            throw .usage("\(option) goes with --replication")
        }
        if arguments.flags.contains("--follow") { throw .usage("--follow goes with --replication") }
        guard !arguments.positionals.isEmpty else {
            throw .usage("update needs change files to apply (or --replication URL)")
        }
        try apply(arguments.positionals, storePath: path, arguments: arguments, console: &console)
    }

    /// `--replication URL`: catches up with the feed once, or keeps following it.
    static func follow(
        _ location: String, storePath: String, arguments: ArgumentParser.Result, console: inout Console
    ) throws(CLIError) {
        let start = try arguments.value("--sequence").map { text throws(CLIError) in
            guard let number = Int64(text), number >= 0 else {
                throw .usage("'--sequence' must be a whole number from 0, not '\(text)'")
            }
            return number
        }
        let interval = try arguments.value("--interval").map { text throws(CLIError) in
            guard let number = Int(text), (1...86_400).contains(number) else {
                throw .usage("'--interval' must be a whole number of seconds from 1 to 86400 (a day), not '\(text)'")
            }
            return number
        }
        let batchBytes = try arguments.value("--max-diff-size").map { text throws(CLIError) in
            guard let megabytes = Double(text), megabytes.isFinite, megabytes > 0, megabytes <= 1_000_000 else {
                throw .usage("'--max-diff-size' must be a number of megabytes above 0, not '\(text)'")
            }
            return max(1, Int(megabytes * 1_048_576))
        }
        let feed: OSMReplication.Feed
        do { feed = try OSMReplication.Feed(location) } catch { throw .failure("\(error)") }
        guard arguments.flags.contains("--follow") else {
            try catchUp(
                feed, storePath: storePath, start: start, batchBytes: batchBytes, arguments: arguments,
                console: &console)
            return
        }
        let every = interval ?? 60
        var wait = every
        while true {
            do {
                try catchUp(
                    feed, storePath: storePath, start: start, batchBytes: batchBytes, arguments: arguments,
                    console: &console)
                wait = every
            } catch {
                guard case .failure(let message) = error else { throw error }
                // A failure (the feed unreachable, a sequence not yet published whole) is tried
                // again, twice as late each time.
                wait = min(wait * 2, max(every, 3600))
                console.error("error: \(message) (again in \(wait) s)")
            }
            console.flush()
            sleep(UInt32(wait))
        }
    }

    /// Applies every sequence of `feed` after the region's, in order, in batches of up to
    /// `batchBytes` (default ``OSMReplication/defaultBatchBytes``), each with its last state in
    /// the same transaction, and says what each batch did.
    static func catchUp(
        _ feed: OSMReplication.Feed, storePath: String, start: Int64?, batchBytes: Int?,
        arguments: ArgumentParser.Result, console: inout Console
    ) throws(CLIError) {
        let routing = !arguments.flags.contains("--no-routing")
        var built: [RoutingGraphs.Built] = []
        var lines: [(String, Bool)] = []
        var started = Date()
        let caughtUp: (region: String, from: Int64, newest: OSMReplication.State)
        do {
            // What each batch applied said, printed whether the catch-up ends or fails,
            // before the summary.
            defer { for (line, isError) in lines { isError ? console.error(line) : console.print(line) } }
            do {
                caughtUp = try OSMReplication.catchUp(
                    feed, storePath: storePath, region: arguments.value("--region"), start: start,
                    batchBytes: batchBytes ?? OSMReplication.defaultBatchBytes,
                    routing: { store, writer in
                        guard routing else { return }
                        built = try RoutingGraphs.refresh(store: store, writer: writer)
                    },
                    applied: { step, report in
                        lines += described(
                            report, shown: "\(step.sequences) (\(time(step.state.timestamp)))",
                            storePath: storePath, seconds: Date().timeIntervalSince(started),
                            built: routing ? built : nil)
                        built = []
                        started = Date()
                    })
            } catch {
                throw .failure("\(error)")
            }
        }
        let newest = caughtUp.newest
        console.print(
            caughtUp.from >= newest.sequence
                ? "\(caughtUp.region): up to date with \(feed.name) at sequence \(caughtUp.from) (\(time(newest.timestamp)))"
                : "\(caughtUp.region): sequences \(caughtUp.from + 1) to \(newest.sequence) of \(feed.name) applied; now at \(time(newest.timestamp))"
        )
    }

    /// `seconds` since 1970 as an ISO 8601 time.
    private static func time(_ seconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    /// Applies the change files `files` together, with the routing graphs they change, in one
    /// atomic update, and says what it did.
    static func apply(
        _ files: [String], storePath: String, arguments: ArgumentParser.Result, console: inout Console
    ) throws(CLIError) {
        let start = Date()
        var built: [RoutingGraphs.Built] = []
        let routing = !arguments.flags.contains("--no-routing")
        let report: OSMUpdater.Report
        do {
            report = try OSMUpdater.apply(files, to: storePath, region: arguments.value("--region")) { store, writer in
                guard routing else { return }
                built = try RoutingGraphs.refresh(store: store, writer: writer)
            }
        } catch {
            throw .failure("\(error)")
        }
        let lines = described(
            report, shown: OSMUpdater.named(files), storePath: storePath, seconds: Date().timeIntervalSince(start),
            built: routing ? built : nil)
        for (line, isError) in lines { isError ? console.error(line) : console.print(line) }
    }

    /// What `update` says of one change file applied (`shown` naming it), each line with
    /// whether it goes to standard error; `built` nil when the routing graphs were left alone.
    static func described(
        _ report: OSMUpdater.Report, shown: String, storePath: String, seconds: Double,
        built: [RoutingGraphs.Built]?
    ) -> [(String, Bool)] {
        var lines = [
            (
                String(
                    format: "%@: %@ from %@ into %@ in %.2f s", report.region,
                    DataCommand.counted(report.changes, "change"), shown, MapStore.displayName(of: storePath), seconds),
                false
            ),
            (
                "  \(report.created) created, \(report.modified) modified, \(report.deleted) deleted; built again: "
                    + "\(DataCommand.counted(report.rebuiltNodes, "node")), \(DataCommand.counted(report.rebuiltWays, "way")), "
                    + "\(DataCommand.counted(report.rebuiltRelations, "relation")) "
                    + "(\(report.featuresRemoved) features removed, \(report.featuresWritten) written)", false
            ),
        ]
        if let built {
            lines.append(
                (
                    built.isEmpty
                        ? "routing graphs: unchanged" : "routing graphs built again: " + DataCommand.described(built),
                    false
                ))
        }
        if report.outdated > 0 {
            lines.append(
                (
                    "note: \(report.outdated) changes are of versions the region already holds (or older) and were left out",
                    true
                ))
        }
        if report.added > 0 {
            lines.append(
                ("note: \(report.added) changes modify elements the region did not hold: they were added", true))
        }
        if report.absent > 0 {
            lines.append(
                (
                    "note: \(report.absent) changes delete elements the region does not hold (deleted already, or never in it): nothing to do",
                    true
                ))
        }
        return lines
    }
}
