import Foundation
import MapData
import SQLiteKit
import TestSupport
import Testing

/// What the bicycling layer is made of: the kinds OSM's cycling tags give, and the features an
/// import writes for them.
@Suite struct CyclingTests {
    @Test(
        arguments: [
            ([("highway", "cycleway")], "track"),
            ([("highway", "residential"), ("cycleway:right", "track")], "track"),
            ([("highway", "secondary"), ("cycleway", "opposite_track")], "track"),
            ([("highway", "secondary"), ("cycleway", "lane")], "lane"),
            ([("highway", "tertiary"), ("cycleway:both", "lane")], "lane"),
            ([("highway", "primary"), ("cycleway:left", "share_busway")], "shared"),
            ([("highway", "residential"), ("cycleway", "shared_lane")], "shared"),
            ([("highway", "footway"), ("bicycle", "designated")], "designated"),
            ([("highway", "residential"), ("cyclestreet", "yes")], "street"),
            ([("highway", "residential"), ("bicycle_road", "yes")], "street"),
            ([("highway", "track"), ("tracktype", "grade3")], "trail"),
            ([("highway", "path"), ("surface", "gravel")], "trail"),
            ([("highway", "path"), ("mtb:scale", "2")], "trail"),
            ([("highway", "footway"), ("bicycle", "no")], "no:footway"),
            ([("highway", "trunk"), ("bicycle", "use_sidepath")], "no:trunk"),
            ([("highway", "motorway")], "no:motorway"),
            ([("highway", "motorway"), ("bicycle", "yes")], nil),
            ([("highway", "residential")], nil),
            ([("highway", "path"), ("surface", "asphalt")], nil),
            ([("building", "yes"), ("bicycle", "designated")], nil),
        ] as [([(String, String)], String?)])
    func cyclingTagsGiveTheLayersKind(tags: [(String, String)], kind: String?) {
        #expect(FeatureClassifier.cyclingKind(tags.map { (key: $0.0, value: $0.1) }) == kind)
    }

    @Test func cycleRoutesAreKindedByNetwork() {
        func kind(_ tags: [(String, String)]) -> String? {
            FeatureClassifier.cyclingRouteKind(tags.map { (key: $0.0, value: $0.1) })
        }
        #expect(kind([("route", "bicycle"), ("network", "icn")]) == "route-icn")
        #expect(kind([("route", "bicycle"), ("network", "ncn")]) == "route-ncn")
        #expect(kind([("route", "bicycle")]) == "route-lcn")
        #expect(kind([("route", "bicycle"), ("network", "something")]) == "route-lcn")
        #expect(kind([("route", "mtb")]) == "route-mtb")
        #expect(kind([("route", "bus")]) == nil)
    }

    @Test func anImportWritesTheLayersFeaturesWithoutIndexingTheirNamesAgain() throws {
        let store = try SQLiteDatabase(path: try FixtureStore.path())
        var kinds: [String: Int] = [:]
        try store.prepare("SELECT kind, count(*) FROM feature WHERE class = 'cycling' GROUP BY kind").forEachRow {
            kinds[$0.text(0) ?? ""] = Int($0.integer(1) ?? 0)
        }
        // Pohjoisesplanadi's nine blocks with tracks, Eteläesplanadi's a cycle street, Kaivokatu's lane,
        // the national route over Pohjoisesplanadi.
        #expect(kinds == ["track": 9, "street": 9, "lane": 1, "route-ncn": 1])
        var named: [String] = []
        try store.prepare("SELECT name FROM feature WHERE class = 'cycling' AND name IS NOT NULL").forEachRow {
            named.append($0.text(0) ?? "")
        }
        #expect(named == ["2"])
        // No layer feature is in the search index (search finds each road once, as a road).
        var indexed = -1
        try store.prepare(
            "SELECT count(*) FROM search_index JOIN feature ON feature.id = search_index.rowid WHERE feature.class = 'cycling'"
        ).forEachRow { indexed = Int($0.integer(0) ?? -1) }
        #expect(indexed == 0)
    }
}
