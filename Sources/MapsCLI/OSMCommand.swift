import Foundation
import GeoCore
import OSMReader

/// `openmaps osm info FILE`: what an OSM extract (PBF or XML, plain, gzip or bzip2) holds.
enum OSMCommand {
    static let info = Command(
        name: "info",
        summary: "Read an OSM extract (PBF or XML, plain, gzip or bzip2) and print its header and element counts.",
        usage: "info <file.osm.pbf|.osm|.osm.gz|.osm.bz2>", parser: ArgumentParser(options: [], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let path = arguments.positionals[0]
        let start = Date()
        do {
            let reader = try OSMFile(path: path)
            let summary = try reader.summary()
            let seconds = Date().timeIntervalSince(start)
            console.print("file: \(path)")
            let compressed = reader.compression == "none" ? "" : ", \(reader.compression)"
            console.print("format: \(reader.format == .pbf ? "PBF" : "OSM XML")\(compressed)")
            if let bounds = reader.header.bounds, let southWest = bounds.southWest, let northEast = bounds.northEast {
                console.print("bounds: \(southWest) – \(northEast)")
            }
            console.print("required features: \(reader.header.requiredFeatures.joined(separator: ", "))")
            if let program = reader.header.writingProgram { console.print("written by: \(program)") }
            console.print("blocks: \(summary.blocks)")
            console.print("nodes: \(summary.nodes)")
            console.print("ways: \(summary.ways)")
            console.print("relations: \(summary.relations)")
            console.print(String(format: "read in %.3f s", seconds))
        } catch let error as OSMReaderError {
            throw .failure("\(path): \(error)")
        } catch {
            throw .failure("\(path): \(error)")
        }
    }
}
