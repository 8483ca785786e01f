import Foundation
import GeoCore
import MapData
import MapRenderer
import OSMReader

/// Tiles per second: every 256-pixel tile of zooms 12–16 over each extract's bounding box
/// (as the Mapnik peer renders them), PNG-encoded in memory, on one thread and on every core,
/// next to Mapnik's figures from the same run (`peer-mapnik.sh` writes
/// `RESULTS/<dataset>/mapnik-summary.json`).
///
/// Each extract is imported into a copy of the default store (world basemap, gazetteer), so
/// the tiles carry the same coast, borders and place names as `openmaps tiles` draws.
enum TileBench {
    static func run(files: [String], runs: Int, zooms: ClosedRange<Int>, peerResults: String?) {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("Tiles, zooms \(zooms.lowerBound)-\(zooms.upperBound), 256 px PNG, median of \(runs) passes [min..max]")
        print(
            "  dataset      tiles   openmaps 1 thread      openmaps \(cores) threads     Mapnik best (1 thread)   ratio 1 thread, \(cores) threads"
        )
        let defaultStore = DataInstaller().storePath
        for file in files {
            let dataset = URL(fileURLWithPath: file).lastPathComponent.components(separatedBy: ".")[0].lowercased()
            let work = FileManager.default.temporaryDirectory.appendingPathComponent(
                "openmaps-tiles-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: work) }
            do {
                try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
                let store = work.appendingPathComponent("store.sqlite").path
                try FileManager.default.copyItem(atPath: defaultStore, toPath: store)
                _ = try OSMImporter.importFile(file, into: store)
                guard let bounds = try PBFReader(path: file).header.bounds else {
                    print("  \(dataset): the file has no bounding box")
                    continue
                }
                let tiles = zooms.flatMap { TileID.covering(bounds, zoom: $0) }
                let blocks = Metatile.blocks(covering: tiles, size: 8)
                // One untimed pass decodes fonts and fills the caches, as the peer's warm-up does.
                _ = try pass(blocks, store: store, workers: 1)
                let single = try (0..<runs).map { _ in try pass(blocks, store: store, workers: 1) }
                let all = try (0..<runs).map { _ in try pass(blocks, store: store, workers: cores) }
                let ours = (rate(tiles.count, single), rate(tiles.count, all))
                var line = String(
                    format: "  %@ %6d   %@   %@", dataset.padded(to: 10), tiles.count, spread(tiles.count, single),
                    spread(tiles.count, all))
                if let peer = peerResults.flatMap({ mapnikBest(in: $0, dataset: dataset) }) {
                    line += String(
                        format: "   %7.1f (%@, %d tiles)   %5.2fx %5.2fx", peer.tilesPerSecond, peer.name, peer.tiles,
                        ours.0 / peer.tilesPerSecond, ours.1 / peer.tilesPerSecond)
                }
                print(line)
            } catch {
                print("  \(dataset): \(error)")
            }
        }
    }

    /// Seconds for one pass over `blocks`, tiles encoded and counted, not stored.
    private static func pass(_ blocks: [Metatile], store: String, workers: Int) throws -> Double {
        let start = ContinuousClock.now
        var bytes = 0
        try TileJob(storePath: store, workers: workers).run(blocks) { _, tiles in
            bytes += tiles.reduce(0) { $0 + $1.png.count }
        }
        precondition(bytes > 0, "a pass produced no tiles")
        return Statistics.seconds(since: start)
    }

    private static func rate(_ tiles: Int, _ seconds: [Double]) -> Double {
        Double(tiles) / seconds.sorted()[seconds.count / 2]
    }

    private static func spread(_ tiles: Int, _ seconds: [Double]) -> String {
        String(
            format: "%7.1f [%.1f..%.1f]", rate(tiles, seconds), Double(tiles) / seconds.max()!,
            Double(tiles) / seconds.min()!)
    }

    /// The fastest Mapnik configuration's median tiles per second for `dataset`, if measured.
    private static func mapnikBest(
        in directory: String, dataset: String
    ) -> (tilesPerSecond: Double, name: String, tiles: Int)? {
        let path = "\(directory)/\(dataset)/mapnik-summary.json"
        guard let data = FileManager.default.contents(atPath: path),
            let summary = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let renders = summary["render"] as? [[String: Any]]
        else { return nil }
        let best = renders.compactMap { render -> (Double, String, Int)? in
            guard let rate = render["tiles_per_s_median"] as? Double, let tiles = render["tiles"] as? Int else {
                return nil
            }
            let name = "\(render["version"] ?? "?") \(render["backend"] ?? "?")"
            return (rate, name, tiles)
        }.max { $0.0 < $1.0 }
        return best.map { (tilesPerSecond: $0.0, name: $0.1, tiles: $0.2) }
    }
}
