import Foundation
import OSMWriter

/// `openmaps-bench edits --in EXTRACT --share F --seed N --copy COPY.osm.pbf --changes CHANGES.osc
/// [--publish FEED --sequence N --timestamp T]`:
/// an edited copy of a real extract and the change file that makes the one into the other
/// (``OSMEdits``), for the update benchmark: the changes applied to a store of the original
/// by `openmaps update` and by `osm2pgsql --append`, and the copy imported afresh; with
/// `--publish`, also published as sequence N of a replication feed in the folder FEED.
enum EditsBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        guard let input = flags["--in"], let copy = flags["--copy"], let output = flags["--changes"] else {
            throw BenchError(
                "usage: openmaps-bench edits --in EXTRACT --share F --seed N --copy COPY.osm.pbf --changes CHANGES.osc")
        }
        let extract = try OSMExtract(path: input)
        let (edited, changes) = OSMEdits.edit(
            extract, share: flags.double("--share", or: 0.01), seed: UInt64(flags.int("--seed", or: 1)))
        try Data(edited.pbf()).write(to: URL(fileURLWithPath: copy))
        try Data(OSMChangeWriter.document(changes)).write(to: URL(fileURLWithPath: output))
        if let feed = flags["--publish"] {
            // Also sequence N of a replication feed in FEED (its state.txt naming it the newest).
            try ReplicationFeedWriter.publish(
                changes, sequence: Int64(flags.int("--sequence", or: 1)),
                timestamp: Int64(flags.int("--timestamp", or: Int(Date().timeIntervalSince1970))), in: feed)
        }
        let elements = extract.nodes.count + extract.ways.count + extract.relations.count
        print(
            "edits: \(changes.count) changes to \(elements) elements (\(String(format: "%.2f", 100 * Double(changes.count) / Double(max(1, elements)))) %): \(copy), \(output)"
        )
    }
}
