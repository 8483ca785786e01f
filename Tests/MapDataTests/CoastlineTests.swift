import GeoCore
import Testing

@testable import MapData

/// The extract's own coastline made into land within its box, as osmcoastline closes a cut one.
@Suite struct CoastlineTests {
    let box = CoordinateBounds(Coordinate(latitude: 60, longitude: 24), Coordinate(latitude: 61, longitude: 25))

    func point(_ longitude: Double, _ latitude: Double) -> Coordinate {
        Coordinate(latitude: latitude, longitude: longitude)
    }

    func way(_ ids: [Int64], _ points: [(Double, Double)]) -> CoastlineAssembler.Way {
        CoastlineAssembler.Way(nodeIDs: ids, coordinates: points.map { point($0.0, $0.1) })
    }

    /// Area of a ring in square degrees (positive anticlockwise).
    func area(_ ring: [Coordinate]) -> Double { CoastlineAssembler.signedArea(ring) / 2 }

    @Test func aCoastAcrossTheBoxHasItsLandOnTheLeft() throws {
        // West to east: the land is north of it.
        let eastward = try #require(CoastlineAssembler.assemble([way([1, 2], [(24, 60.5), (25, 60.5)])], in: box))
        #expect(eastward.land.count == 1 && eastward.broken.isEmpty)
        #expect(abs(area(eastward.land[0]) - 0.5) < 1e-9)
        #expect(eastward.land[0].contains(point(25, 61)) && eastward.land[0].contains(point(24, 61)))
        // East to west: south of it.
        let westward = try #require(CoastlineAssembler.assemble([way([2, 1], [(25, 60.5), (24, 60.5)])], in: box))
        #expect(abs(area(westward.land[0]) - 0.5) < 1e-9)
        #expect(westward.land[0].contains(point(24, 60)) && westward.land[0].contains(point(25, 60)))
    }

    @Test func waysRunningOutOfTheBoxAreCutAtItsEdgeAndJoinedByTheirNodes() throws {
        // Two ways, joined at node 2, running beyond the box on both sides (an extract keeping
        // whole ways), with a bay dipping south in the middle.
        let result = try #require(
            CoastlineAssembler.assemble(
                [
                    way([1, 2], [(23.5, 60.5), (24.5, 60.5)]),
                    way([2, 3, 4], [(24.5, 60.5), (24.6, 60.2), (25.5, 60.5)]),
                ], in: box))
        #expect(result.land.count == 1 && result.broken.isEmpty)
        // Half the box, plus the bay's triangle under the line at 60.5 that the land holds
        // (0.5 wide at the line's cuts... here computed: the triangle (24.5,60.5)-(24.6,60.2)-(25,60.333)).
        let land = result.land[0]
        #expect(land.first == land.last && area(land) > 0.5 && area(land) < 0.75)
    }

    @Test func anIslandIsItsOwnRingAndASeaWithinLandIsAHole() throws {
        let island = way([1, 2, 3, 4, 1], [(24.4, 60.4), (24.6, 60.4), (24.6, 60.6), (24.4, 60.6), (24.4, 60.4)])
        let islands = try #require(CoastlineAssembler.assemble([island], in: box))
        #expect(islands.land.count == 1 && abs(area(islands.land[0]) - 0.04) < 1e-9)
        // Clockwise: water inside, land all round it (the whole box).
        let lagoon = way([1, 4, 3, 2, 1], [(24.4, 60.4), (24.4, 60.6), (24.6, 60.6), (24.6, 60.4), (24.4, 60.4)])
        let lagoons = try #require(CoastlineAssembler.assemble([lagoon], in: box))
        #expect(lagoons.enclosedSeas.count == 1 && lagoons.land.count == 1 && abs(area(lagoons.land[0]) - 1) < 1e-9)
    }

    @Test func aCoastThatEndsInsideTheBoxIsReportedNotGuessed() throws {
        let result = try #require(CoastlineAssembler.assemble([way([1, 2], [(24, 60.5), (24.5, 60.5)])], in: box))
        #expect(result.land.isEmpty && result.broken == [point(24.5, 60.5)])
        // One that ends a node short of the edge (an extract cut by its nodes) is closed on it.
        let short = try #require(CoastlineAssembler.assemble([way([1, 2], [(24.01, 60.5), (24.99, 60.5)])], in: box))
        #expect(short.land.count == 1 && short.broken.isEmpty && abs(area(short.land[0]) - 0.5) < 1e-9)
    }

    @Test func twoCoastsCloseIntoTheirOwnLands() throws {
        // A strait running north-south between two shores, the land on each one's left: the
        // west shore runs north (land west), the east shore south (land east).
        let result = try #require(
            CoastlineAssembler.assemble(
                [way([1, 2], [(24.4, 60), (24.4, 61)]), way([3, 4], [(24.6, 61), (24.6, 60)])], in: box))
        #expect(result.land.count == 2)
        #expect(result.land.map { area($0) }.allSatisfy { abs($0 - 0.4) < 1e-9 })
        // The other way round, the land is the strip between them.
        let strip = try #require(
            CoastlineAssembler.assemble(
                [way([1, 2], [(24.4, 61), (24.4, 60)]), way([3, 4], [(24.6, 60), (24.6, 61)])], in: box))
        #expect(strip.land.count == 1 && abs(area(strip.land[0]) - 0.2) < 1e-9)
    }
}
