import Foundation
import OSMReader
import TestSupport
import Testing

@testable import MapData

/// The seed places' data committed in `data/seed-places`: every listed file is there and
/// readable as what it is, and the Manhattan traffic feed is keyed by the extract's real roads.
@Suite struct SeedPlacesTests {
    static let folder = (SeedPlaces.path(of: "sources.tsv") as NSString).deletingLastPathComponent

    @Test func everyListedFileIsThereAndReadable() throws {
        let extracts = try DataInstaller.extracts(in: Self.folder)
        #expect(extracts.count == 9)
        #expect(Set(extracts.map(\.name)).count == extracts.count, "one name each")
        for extract in extracts {
            switch try DataImport.kind(of: extract.file) {
            case .gtfs:
                let archive = try ZipArchive(path: extract.file)
                let names = Set(archive.members.map { ($0.name as NSString).lastPathComponent })
                #expect(names.isSuperset(of: GTFSImporter.requiredFiles), "\(extract.file)")
                #expect(extract.attribution.hasPrefix("Transit data"))
            case .osm:
                let file = try OSMFile(path: extract.file)
                #expect(file.header.requiredFeatures.contains("OsmSchema-V0.6"), "\(extract.file)")
                #expect(extract.attribution == "© OpenStreetMap contributors" && extract.licence == "ODbL 1.0")
            case .elevation, .imagery:
                Issue.record("\(extract.file) is read as a raster: the seed places hold none")
            }
        }
        let toei = try #require(extracts.first { $0.name == "toei-train" })
        #expect(toei.attribution.contains("東京都交通局") && toei.licence == "CC BY 4.0", "Toei's required credit")
    }

    @Test func theManhattanTrafficFeedIsKeyedByTheExtractsRoads() throws {
        let examples = URL(fileURLWithPath: Self.folder).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/manhattan-traffic.csv").path
        let feed = try TrafficFeed(contentsOf: examples)
        var roads: Set<Int64> = []
        try OSMFile(path: Self.folder + "/manhattan-midtown-roads-2025.osm.bz2").forEachBlock { block in
            for way in block.ways where way.tags.contains(where: { $0.key == "highway" }) { roads.insert(way.id) }
        }
        #expect(feed.levels.count > 1000)
        #expect(feed.levels.keys.allSatisfy(roads.contains), "every way of the feed is a road of the extract")
    }
}
