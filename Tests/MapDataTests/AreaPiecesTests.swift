import Foundation
import GeoCore
import TestSupport
import Testing

@testable import MapData

/// Large areas cut into pieces (``AreaPieces``): each piece small, the pieces together the
/// area exactly (every point of the area in exactly one piece, no point outside it in any),
/// kept with the area in the store and read instead of it for a picture.
@Suite struct AreaPiecesTests {
    /// A comb: a bar along the bottom with `teeth` long thin teeth up, each side of a tooth
    /// `steps` points, the outline wavy so that no two edges are parallel to a cut.
    static func comb(teeth: Int, steps: Int) -> [Coordinate] {
        var ring: [Coordinate] = []
        let width = 1.0 / Double(teeth)
        for tooth in 0..<teeth {
            let west = Double(tooth) * width
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                ring.append(Coordinate(latitude: 0.1 + 0.9 * t, longitude: west + 0.01 * sin(t * 40) * width))
            }
            for step in 0...steps {
                let t = 1 - Double(step) / Double(steps)
                ring.append(
                    Coordinate(latitude: 0.1 + 0.9 * t, longitude: west + 0.6 * width + 0.01 * cos(t * 37) * width))
            }
        }
        ring.append(Coordinate(latitude: 0, longitude: 1))
        ring.append(Coordinate(latitude: 0, longitude: 0))
        return ring + [ring[0]]
    }

    /// Whether `point` is inside `rings` by the even-odd rule.
    static func contains(_ rings: [[Coordinate]], _ point: Coordinate) -> Bool {
        var inside = false
        for ring in rings where !ring.isEmpty {
            // Every edge, the closing one (last point to first) included.
            var a = ring[ring.count - 1]
            for b in ring {
                defer { a = b }
                guard (a.latitude > point.latitude) != (b.latitude > point.latitude) else { continue }
                let crossing =
                    a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude)
                    * (b.longitude - a.longitude)
                if point.longitude < crossing { inside.toggle() }
            }
        }
        return inside
    }

    /// Checks the pieces of `rings` against the area at `samples` points of its box: inside
    /// the area, in exactly one piece; outside, in none.
    static func expectPiecesCover(_ rings: [[Coordinate]], samples: Int) {
        let pieces = AreaPieces.pieces(of: rings)
        #expect(pieces.count > 1)
        for piece in pieces {
            #expect(piece.reduce(0) { $0 + $1.count - 1 } <= AreaPieces.maximumPoints)
            for ring in piece { #expect(ring.first == ring.last && ring.count >= 4) }
        }
        let all = rings.flatMap { $0 }
        let south = all.map(\.latitude).min()!
        let north = all.map(\.latitude).max()!
        let west = all.map(\.longitude).min()!
        let east = all.map(\.longitude).max()!
        let boxes = pieces.map { piece in
            piece.joined().reduce(CoordinateBounds()) { $0.including($1) }
        }
        var generator = SeededGenerator(seed: 7)
        var inside = 0
        var wrong = 0
        for _ in 0..<samples {
            let point = Coordinate(
                latitude: Double.random(in: south...north, using: &generator),
                longitude: Double.random(in: west...east, using: &generator))
            let expected = contains(rings, point)
            let holders = pieces.indices.filter { boxes[$0].contains(point) && contains(pieces[$0], point) }.count
            if expected { inside += 1 }
            if holders != (expected ? 1 : 0) { wrong += 1 }
        }
        #expect(inside > samples / 10)
        #expect(wrong == 0, "\(wrong) of \(samples) points are in the wrong number of pieces")
    }

    @Test func areasUpToTheThresholdAreNotCut() {
        let ring = Self.comb(teeth: 10, steps: 50)
        #expect(ring.count <= AreaPieces.threshold)
        #expect(AreaPieces.pieces(of: [ring]).isEmpty)
    }

    @Test func aConcaveAreaIsCutIntoSmallPiecesThatCoverItExactly() {
        let ring = Self.comb(teeth: 60, steps: 100)
        #expect(ring.count > 10_000)
        Self.expectPiecesCover([ring], samples: 1_500)
        // Reversed (clockwise), the same.
        Self.expectPiecesCover([ring.reversed()], samples: 500)
    }

    @Test func holesStayHolesInTheirPieces() {
        // A sea: a box with islands of 400 points each cut out of it.
        let box = [(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0)].map {
            Coordinate(latitude: $0.0, longitude: $0.1)
        }
        var islands: [[Coordinate]] = []
        for row in 0..<5 {
            for column in 0..<5 {
                let centre = (0.1 + 0.2 * Double(row), 0.1 + 0.2 * Double(column))
                let island = (0..<400).map { step -> Coordinate in
                    let angle = Double(step) / 400 * 2 * .pi
                    let radius = 0.06 + 0.02 * sin(angle * 7)
                    return Coordinate(
                        latitude: centre.0 + radius * sin(angle), longitude: centre.1 + radius * cos(angle))
                }
                islands.append(island + [island[0]])
            }
        }
        Self.expectPiecesCover([box] + islands, samples: 1_500)
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: DataInstaller().storePath),
            "needs the installed open data: run 'make data' (or 'openmaps data install')"))
    func theWorldsLargestAreasAreCutAndCoveredExactly() throws {
        let store = try MapStore(path: DataInstaller().storePath)
        let world = try #require(try store.sources(counting: false).first { $0.name == "world" })
        #expect(try store.hasPieces(ofSource: world.id))
        // Eurasia and Africa at intermediate detail, read whole (34,332 and 6,675 points).
        let gibraltar = CoordinateBounds(
            Coordinate(latitude: 35.8, longitude: -5.8), Coordinate(latitude: 36.2, longitude: -5.2))
        let continents = try store.features(in: gibraltar, classes: [.land], details: [.intermediate])
        #expect(continents.count == 2)
        for continent in continents {
            guard case .polygon(let rings) = continent.geometry else { continue }
            Self.expectPiecesCover(rings, samples: 600)
        }
    }

    @Test(arguments: [StoreEngine.sqlite, .postgis])
    func theStoreReadsPiecesForAPictureAndTheWholeAreaElsewhere(engine: StoreEngine) throws {
        let path = try StoreEngineTests.newStore(engine)
        let ring = Self.comb(teeth: 60, steps: 100)
        func write() throws {
            try StoreUpdate.apply(to: path) { database in
                let source = try StoreUpdate.replaceSource(
                    named: "combs", kind: .osm, attribution: "test", licence: "CC0", path: nil, bounds: .world,
                    in: database)
                var writer = try FeatureWriter(database: database, source: source)
                for featureClass in [FeatureClass.park, .building] {
                    try writer.write(
                        type: nil, id: nil, kind: FeatureKind(featureClass: featureClass, kind: "test", isArea: true),
                        tags: [], geometry: .polygon([ring]), names: [])
                }
            }
        }
        try write()
        let store = try MapStore(path: path)
        let corner = CoordinateBounds(
            Coordinate(latitude: 0.95, longitude: 0.0), Coordinate(latitude: 0.99, longitude: 0.05))
        // As the store keeps it: to 1e-7 degrees.
        let stored = try #require(Geometry(typeCode: 3, blob: Geometry.polygon([ring]).encoded))
        let whole = try store.features(in: corner)
        #expect(whole.count == 2)
        #expect(whole.allSatisfy { $0.geometry == stored })
        // Parks are cut; buildings (drawn with an outline) are not.
        let read = try store.features(in: corner, pieces: true)
        let park = read.filter { $0.featureClass == .park }
        #expect(!park.isEmpty && park.count < AreaPieces.pieces(of: [ring]).count)
        #expect(Set(park.map(\.id)) == [whole.first { $0.featureClass == .park }!.id])
        for piece in park {
            guard case .polygon(let rings) = piece.geometry else { Issue.record("a piece is not an area"); continue }
            #expect(rings.reduce(0) { $0 + $1.count } <= AreaPieces.maximumPoints + rings.count)
        }
        let buildings = read.filter { $0.featureClass == .building }
        #expect(buildings.count == 1 && buildings.allSatisfy { $0.geometry == stored })
        // Imported again, the source's old pieces go with its old features.
        try write()
        let reopened = try MapStore(path: path)
        let pieces = try reopened.database.map("SELECT count(*) FROM feature_piece") { $0.integer(0) }
        let boxes = try reopened.database.map("SELECT count(*) FROM feature_piece_box") { $0.integer(0) }
        #expect(pieces == [Int64(AreaPieces.pieces(of: [ring]).count)])
        #expect(boxes == pieces)
    }
}
