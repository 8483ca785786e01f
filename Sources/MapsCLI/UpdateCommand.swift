import Foundation
import MapData
import OSMReader
import Routing

/// `openmaps update`: OpenStreetMap change files applied to an imported region.
enum UpdateCommand {
    static let command = Command(
        name: "update",
        summary: "Apply OpenStreetMap change files (.osc, .osc.gz, .osc.bz2) to an imported region.",
        usage: "update CHANGES.osc… [--region NAME] [--store STORE] [--no-routing]",
        parser: ArgumentParser(
            options: [
                DataCommand.storeOption,
                .init(
                    name: "--region", value: "NAME",
                    help:
                        "The region to update (default: the store's only OpenStreetMap region, or the one holding the elements the file changes)."
                ),
                .init(
                    name: "--no-routing", value: nil,
                    help:
                        "Leave the routing graphs as they are (build them later with 'import --routing'; routes use the plain search until then)."
                ),
            ], positionals: 1...Int.max)
    ) { (arguments, console) throws(CLIError) in
        let path = try DataCommand.store(arguments)
        for file in arguments.positionals {
            try apply(file, storePath: path, arguments: arguments, console: &console)
        }
    }

    /// Applies one change file, with the routing graphs it changes, in one atomic update, and
    /// says what it did.
    static func apply(
        _ file: String, storePath: String, arguments: ArgumentParser.Result, console: inout Console
    ) throws(CLIError) {
        let start = Date()
        var built: [RoutingGraphs.Built] = []
        let routing = !arguments.flags.contains("--no-routing")
        let report: OSMUpdater.Report
        do {
            report = try OSMUpdater.apply(file, to: storePath, region: arguments.value("--region")) { store, writer in
                guard routing else { return }
                built = try RoutingGraphs.refresh(store: store, writer: writer)
            }
        } catch let error as OSMReaderError {
            throw .failure("\(file): \(error)")
        } catch {
            throw .failure("\(error)")
        }
        let seconds = Date().timeIntervalSince(start)
        console.print(
            String(
                format: "%@: %@ from %@ into %@ in %.2f s", report.region,
                DataCommand.counted(report.changes, "change"), file, MapStore.displayName(of: storePath), seconds))
        console.print(
            "  \(report.created) created, \(report.modified) modified, \(report.deleted) deleted; built again: "
                + "\(DataCommand.counted(report.rebuiltNodes, "node")), \(DataCommand.counted(report.rebuiltWays, "way")), "
                + "\(DataCommand.counted(report.rebuiltRelations, "relation")) "
                + "(\(report.featuresRemoved) features removed, \(report.featuresWritten) written)")
        if report.outdated > 0 {
            console.error(
                "note: \(report.outdated) changes are of versions the region already holds (or older) and were left out"
            )
        }
        if report.added > 0 {
            console.error(
                "note: \(report.added) changes modify elements the region did not hold: they were added")
        }
        if report.absent > 0 {
            console.error(
                "note: \(report.absent) changes delete elements the region does not hold (deleted already, or never in it): nothing to do"
            )
        }
        guard routing else { return }
        console.print(
            built.isEmpty
                ? "routing graphs: unchanged"
                : "routing graphs built again: "
                    + built.map { String(format: "%@ %.2f s (%d arcs)", $0.mode.rawValue, $0.seconds, $0.arcs) }
                    .joined(separator: ", "))
    }
}
