import Foundation
import GeoCore
import MapData
import Testing

@testable import Routing

/// Steps on the real data `make test` installs (central Helsinki from OpenStreetMap): the
/// streets' names, a fork with its lanes, the stored routing graph. Skipped, and said so,
/// where the data was not installed (`make data`, or `openmaps data install`).
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: DataInstaller().storePath),
        "needs the installed open data: run 'make data' (or 'openmaps data install')"))
struct HelsinkiGuidanceTests {
    @Test func fromKaivokatuToTheMarketSquareByCar() throws {
        let store = try MapStore(path: DataInstaller().storePath)
        let (router, note) = try RoutingGraphs.router(store: store, mode: .driving)
        #expect(note == nil && router.hierarchy != nil, "make data builds the routing graphs")
        let route = try router.route([
            Coordinate(latitude: 60.1699, longitude: 24.9384), Coordinate(latitude: 60.1675, longitude: 24.9525),
        ])
        let steps = router.steps(of: route)[0]
        let english = Instructions(.en)
        let sentences = steps.map(english.text(for:))
        #expect(sentences.first == "Head southwest on Kaivokatu")
        #expect(sentences.contains("Turn right onto Mannerheimintie"))
        #expect(sentences.last?.hasPrefix("You have arrived at your destination") == true)
        // Off Mannerheimintie, which goes on straight, onto its link to the left (a slight turn,
        // not a fork, as OSRM tells a link leaving its road): the left lanes lead there.
        let link = try #require(steps.first { $0.maneuver.modifier == .slightLeft && !$0.lanes.isEmpty })
        #expect(link.maneuver.kind == .turn && link.lanes.contains { $0.valid })
        #expect(link.lanes.filter(\.valid).allSatisfy { $0.indications.contains("left") })
        // The steps add up to the route, and the Hindi itinerary reads in Devanagari.
        #expect(abs(steps.map(\.distance).reduce(0, +) - route.distance) < 1)
        let hindi = Instructions(.hi).itinerary([steps], distance: route.distance, duration: route.duration)
        #expect(hindi.contains("Mannerheimintie पर दाएँ मुड़ें") && hindi.hasSuffix("मिनट"))
    }
}
