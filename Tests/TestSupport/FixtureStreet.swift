import Foundation
import OSMReader

/// One residential street of two nodes in central Helsinki ("Vanha katu", way 10 through nodes
/// 1 and 2, version 1), as OSM XML, and the change that renames it "Uusi katu": the smallest
/// region an update can change.
public enum FixtureStreet {
    /// The street's old and new names.
    public static let oldName = "Vanha katu"
    public static let newName = "Uusi katu"

    /// Writes the extract as `corner.osm` in `folder` and returns its path.
    public static func write(in folder: String) throws -> String {
        let path = folder + "/corner.osm"
        try Data(
            OSMXMLWriter.file(
                nodes: [
                    TestNode(id: 1, latitude: 601_700_000, longitude: 249_400_000),
                    TestNode(id: 2, latitude: 601_710_000, longitude: 249_410_000),
                ], ways: [TestWay(id: 10, refs: [1, 2], tags: [("highway", "residential"), ("name", oldName)])])
        ).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The way renamed (a modification of version 2).
    public static let renamed = OSMChange(
        action: .modify,
        element: .way(
            OSMWay(
                id: 10, nodeIDs: [1, 2], tags: [("highway", "residential"), ("name", newName)],
                metadata: OSMMetadata(version: 2))))
}
