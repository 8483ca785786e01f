import Foundation
import HTTPServer
import OSMReader
import TestSupport
import Testing

@testable import MapData

/// `update --replication`'s engine against a replication feed on a loopback HTTP server: central
/// Monaco edited four times, published as sequences 101–104 (104 before 103 on purpose); the
/// store follows it from the extract header's sequence, consecutive sequences in one update,
/// refuses to skip, resumes after a stop between two updates, and ends equal to a fresh import
/// of the last edit, on both engines.
@Suite struct ReplicationTests {
    @Test(arguments: [StoreEngine.sqlite, .postgis])
    func aStoreFollowsAFeedWithoutSkippingOrRepeatingASequence(_ engine: StoreEngine) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-feed-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let host = try HTTPServer(port: 0, threads: 1) { request in
            guard !request.path.contains(".."),
                let data = FileManager.default.contents(atPath: folder + request.path)
            else { return HTTPResponse(status: 404) }
            return HTTPResponse(status: 200, body: [UInt8](data))
        }
        defer { host.stop() }
        let url = "http://127.0.0.1:\(host.port)/replication/minute"
        try FileManager.default.createDirectory(
            atPath: folder + "/replication/minute", withIntermediateDirectories: true)
        let feedFolder = folder + "/replication/minute"

        let start: Int64 = 1_764_800_000
        var base = try OSMExtract(path: UpdateTests.monaco)
        base.replication = (url, 100, start)
        var editions = [base]
        var changes: [[OSMChange]] = []
        for seed in 1...4 {
            let (edited, list) = OSMEdits.edit(editions.last!, share: 0.01, seed: UInt64(seed))
            editions.append(edited)
            changes.append(list)
        }
        let store = try StoreEngineTests.newStore(engine)
        _ = try OSMImporter.importFile(PBFWriter.temporaryFile(base.pbf()), into: store, region: "Monaco")
        let feed = try OSMReplication.Feed(url)
        #expect(try OSMReplication.position(storePath: store, region: nil).sequence == 100)

        // Two sequences published: both applied, in order, in one update with the second's state.
        for index in 0..<2 {
            try ReplicationFeedWriter.publish(
                changes[index], sequence: 101 + Int64(index), timestamp: start + 60 * Int64(index + 1), in: feedFolder)
        }
        var steps: [OSMReplication.Step] = []
        var builds = 0
        let first = try OSMReplication.catchUp(
            feed, storePath: store, routing: { _, _ in builds += 1 }, applied: { step, _ in steps.append(step) })
        #expect(first.from == 100 && first.newest.sequence == 102 && builds == 1)
        #expect(steps == [.init(feed: url, first: 101, state: .init(sequence: 102, timestamp: start + 120))])
        let position = try OSMReplication.position(storePath: store, region: nil)
        #expect(position.sequence == 102 && position.timestamp == start + 120 && position.url == url)

        // 104 published before 103: refused, nothing applied.
        try ReplicationFeedWriter.publish(changes[3], sequence: 104, timestamp: start + 240, in: feedFolder)
        let atTwo = try UpdateTests.content(store)
        #expect {
            try OSMReplication.catchUp(feed, storePath: store)
        } throws: { "\($0)".contains("no change file for sequence 103") }
        #expect(try UpdateTests.content(store) == atTwo)
        // Nor can 104's file be applied by hand as the sequence after 102.
        let skipped = PBFWriter.temporaryFile(OSMChangeWriter.document(changes[3]))
        #expect {
            try OSMUpdater.apply(
                [skipped], to: store,
                replication: .init(feed: url, first: 104, state: .init(sequence: 104, timestamp: start + 240)))
        } throws: { "\($0)".contains("would skip 103") }
        #expect(try UpdateTests.content(store) == atTwo)

        // 103 arrives; applied a sequence at a time (a batch of one byte), a stop right after
        // 103's commit leaves the store at 103, and the next run goes on with 104 alone.
        try ReplicationFeedWriter.publish(changes[2], sequence: 103, timestamp: start + 180, in: feedFolder)
        try ReplicationFeedWriter.publish(changes[3], sequence: 104, timestamp: start + 240, in: feedFolder)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try OSMReplication.catchUp(feed, storePath: store, batchBytes: 1, applied: { _, _ in throw Stop() })
        }
        #expect(try OSMReplication.position(storePath: store, region: nil).sequence == 103)
        steps = []
        let last = try OSMReplication.catchUp(
            feed, storePath: store, batchBytes: 1, applied: { step, _ in steps.append(step) })
        #expect(last.from == 103 && steps.map(\.first) == [104] && steps.map(\.state.sequence) == [104])
        // Up to date: nothing more.
        let again = try OSMReplication.catchUp(
            feed, storePath: store, applied: { _, _ in Issue.record("applied again") })
        #expect(again.from == 104 && again.newest.sequence == 104)

        let fresh = try StoreEngineTests.newStore(engine)
        _ = try OSMImporter.importFile(PBFWriter.temporaryFile(editions[4].pbf()), into: fresh, region: "Monaco")
        let expected = try UpdateTests.content(fresh)
        let updated = try UpdateTests.content(store)
        for table in expected.keys.sorted() where table != "road_graph" {
            #expect(updated[table] == expected[table], "\(table) differs from a fresh import of the last edit")
        }
        // A sequence touching nothing the region holds (an edit elsewhere) is applied, not refused.
        let elsewhere = OSMNode(
            id: 9_000_000_001, latitudeNano: 60_170_000_000, longitudeNano: 24_940_000_000, tags: [],
            metadata: OSMMetadata(version: 3))
        try ReplicationFeedWriter.publish(
            [.init(action: .modify, element: .node(elsewhere))], sequence: 105, timestamp: start + 300, in: feedFolder)
        var added: [Int] = []
        try OSMReplication.catchUp(feed, storePath: store, applied: { _, report in added.append(report.added) })
        let at = try OSMReplication.position(storePath: store, region: nil).sequence
        #expect(added == [1] && at == 105)
    }

    @Test func statesAndPathsAreReadAsTheFeedsWriteThem() throws {
        #expect(OSMReplication.path(of: 4_231_005) == "004/231/005")
        #expect(OSMReplication.path(of: 7) == "000/000/007")
        let state = try OSMReplication.state(
            parsing: "#Fri Dec 04 12:00:02 UTC 2026\nsequenceNumber=6512345\ntimestamp=2026-12-04T12\\:00\\:00Z\n",
            from: "state.txt")
        #expect(state.sequence == 6_512_345 && state.timestamp == 1_796_385_600)
        #expect(throws: DataError.self) {
            try OSMReplication.state(parsing: "timestamp=2026-12-04T12\\:00\\:00Z", from: "s")
        }
        #expect(throws: DataError.self) {
            try OSMReplication.state(parsing: "sequenceNumber=3\ntimestamp=soon", from: "s")
        }
    }

    @Test func aSequenceIsFoundFromTheDataTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-feed-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for sequence in Int64(0)...40 {
            try ReplicationFeedWriter.publish(
                [], sequence: sequence, timestamp: 1_000_000 + 3600 * sequence, in: folder)
        }
        let feed = try OSMReplication.Feed(folder)
        let newest = try #require(try feed.state())
        #expect(newest.sequence == 40)
        #expect(try feed.sequence(at: 1_000_000 + 3600 * 17 + 5, newest: newest) == 17)
        #expect(try feed.sequence(at: 1_000_000 + 3600 * 17, newest: newest) == 17)
        #expect(try feed.sequence(at: 999_000, newest: newest) == nil)
        #expect(try feed.sequence(at: 2_000_000_000, newest: newest) == 40)
    }
}
