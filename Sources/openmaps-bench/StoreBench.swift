import Foundation
import GeoCore
import MapData
import MapRenderer
import MapsApp
import PlaceSearch

/// `openmaps-bench stores --sqlite FILE --postgis URL [--runs N]`: the same reads from two
/// stores holding the same data, one run, side by side: tiles (each a new 4 × 4 block at zoom
/// 15 to 18 over the first OpenStreetMap region, drawn by `MapsApp.tile`) and place searches
/// (the region's street and place names), median and 95th percentile in milliseconds, and
/// PostGIS's median over SQLite's.
enum StoreBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        guard let sqlite = flags["--sqlite"], let postgis = flags["--postgis"] else {
            throw BenchError("usage: openmaps-bench stores --sqlite FILE --postgis URL [--runs N]")
        }
        let runs = flags.int("--runs", or: 60)
        let region = try MapStore(path: sqlite).sources(counting: false).first { $0.kind == .osm }
            .orThrow("the SQLite store has no OpenStreetMap region")
        let words = try names(in: region, store: try MapStore(path: sqlite), count: runs)
        let tiles = tileList(region.bounds, count: runs)
        print("reads from the same data (\(region.name)): \(tiles.count) tiles, \(words.count) searches a store")
        print("store        tile p50     tile p95   search p50   search p95")
        var medians: [String: (tile: Double, search: Double)] = [:]
        for (name, location) in [("sqlite", sqlite), ("postgis", postgis)] {
            let app = try MapsApp.onStore(path: location)
            // Outside the timing: the first tile decodes the world rasters, the first search
            // reads the place table.
            _ = try app.tile(TileID(x: 0, y: 0, z: 3), style: TileStyle())
            _ = try app.search(SearchQuery("a", near: region.bounds.center))
            var tileTimes: [Double] = []
            for tile in tiles {
                let start = ContinuousClock.now
                _ = try app.tile(tile, style: TileStyle())
                tileTimes.append(Statistics.seconds(since: start) * 1000)
            }
            var searchTimes: [Double] = []
            for text in words {
                let start = ContinuousClock.now
                _ = try app.search(SearchQuery(text, near: region.bounds.center))
                searchTimes.append(Statistics.seconds(since: start) * 1000)
            }
            tileTimes.sort()
            searchTimes.sort()
            medians[name] = (Statistics.percentile(tileTimes, 50), Statistics.percentile(searchTimes, 50))
            print(
                String(
                    format: "%-8@ %9.2f ms %10.2f ms %10.2f ms %10.2f ms", name, Statistics.percentile(tileTimes, 50),
                    Statistics.percentile(tileTimes, 95), Statistics.percentile(searchTimes, 50),
                    Statistics.percentile(searchTimes, 95)))
        }
        if let base = medians["sqlite"], let other = medians["postgis"] {
            print(
                String(
                    format: "PostGIS / SQLite (median): tiles %.2fx, searches %.2fx (target: within 2x)",
                    other.tile / base.tile, other.search / base.search))
        }
    }

    /// `count` tiles of distinct 4 × 4 blocks at zooms 15 to 18 inside `bounds`, spread
    /// evenly (so no tile reuses another's block).
    static func tileList(_ bounds: CoordinateBounds, count: Int) -> [TileID] {
        var tiles: [TileID] = []
        var seen: Set<String> = []
        for zoom in [15, 16, 17, 18] {
            let all = TileID.covering(bounds, zoom: zoom)
            let step = max(1, all.count / max(1, count / 4))
            for tile in stride(from: 0, to: all.count, by: step).map({ all[$0] })
            where seen.insert("\(zoom)/\(tile.x / 4)/\(tile.y / 4)").inserted {
                tiles.append(tile)
            }
        }
        return Array(tiles.prefix(count))
    }

    /// Names of roads and places in the region, to search for.
    static func names(in region: MapStore.Source, store: MapStore, count: Int) throws -> [String] {
        let named = try store.features(in: region.bounds, classes: [.road, .poi, .place]).compactMap(\.name)
        let distinct = Array(Set(named)).sorted()
        let step = max(1, distinct.count / max(1, count))
        return Array(stride(from: 0, to: distinct.count, by: step).map { distinct[$0] }.prefix(count))
    }
}

extension Optional {
    fileprivate func orThrow(_ message: String) throws -> Wrapped {
        guard let value = self else { throw BenchError(message) }
        return value
    }
}
