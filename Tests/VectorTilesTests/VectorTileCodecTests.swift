import Foundation
import GeoCore
import Testing

@testable import VectorTiles

/// The Mapbox Vector Tile encoding: what is written reads back the same, commands follow the
/// specification's worked examples, and damaged tiles are refused with where they break.
@Suite struct VectorTileCodecTests {
    static func point(_ x: Int32, _ y: Int32) -> TilePoint { TilePoint(x: x, y: y) }

    @Test func aTileReadsBackAsItWasWritten() throws {
        let square = [Self.point(0, 0), Self.point(100, 0), Self.point(100, 100), Self.point(0, 100)]
        let hole = [Self.point(20, 20), Self.point(20, 80), Self.point(80, 80), Self.point(80, 20)]
        let tile = VectorTile(layers: [
            VectorTile.Layer(
                name: "poi",
                features: [
                    VectorTile.Feature(
                        id: 7, geometry: .points([Self.point(25, 17)]),
                        properties: [
                            "name": .string("Café Ekberg"), "rank": .int(-3), "height": .double(12.5),
                            "indoor": .bool(true),
                        ]),
                    VectorTile.Feature(
                        id: 8, geometry: .points([Self.point(5, 7), Self.point(3, 2)]),
                        properties: ["name": .string("दिल्ली")]),
                ]),
            VectorTile.Layer(
                name: "transportation",
                features: [
                    VectorTile.Feature(
                        geometry: .lines([
                            [Self.point(2, 2), Self.point(2, 10), Self.point(10, 10)],
                            [Self.point(1, 1), Self.point(3, 5)],
                        ]), properties: ["class": .string("primary")])
                ]),
            VectorTile.Layer(
                name: "water",
                features: [
                    VectorTile.Feature(
                        geometry: .polygons([
                            [square, hole], [[Self.point(200, 200), Self.point(300, 200), Self.point(300, 300)]],
                        ]))
                ]),
        ])
        let decoded = try VectorTile(decoding: tile.encoded())
        #expect(decoded == tile)
        #expect(decoded.layer("poi")?.extent == 4096)
    }

    /// The specification's example: a line from (2,2) to (2,10) to (10,10) is the commands
    /// `9 4 4 18 0 16 16 0`; a point at (25,17) is `9 50 34`.
    @Test func commandsFollowTheSpecificationsExamples() {
        #expect(
            VectorTile.Layer.commands(.lines([[Self.point(2, 2), Self.point(2, 10), Self.point(10, 10)]]))
                == [9, 4, 4, 18, 0, 16, 16, 0])
        #expect(VectorTile.Layer.commands(.points([Self.point(25, 17)])) == [9, 50, 34])
        // A polygon: MoveTo, LineTo of the other points, ClosePath (15 = 7 | 1 << 3).
        let triangle = VectorTile.Layer.commands(
            .polygons([[[Self.point(3, 6), Self.point(8, 12), Self.point(20, 34)]]]))
        #expect(triangle == [9, 6, 12, 18, 10, 12, 24, 44, 15])
    }

    @Test func degenerateGeometryIsLeftOut() throws {
        let tile = VectorTile(layers: [
            VectorTile.Layer(
                name: "transportation",
                features: [
                    VectorTile.Feature(geometry: .lines([[Self.point(5, 5), Self.point(5, 5)]])),
                    VectorTile.Feature(geometry: .polygons([[[Self.point(0, 0), Self.point(1, 1)]]])),
                ])
        ])
        #expect(try VectorTile(decoding: tile.encoded()).layers.isEmpty)
    }

    @Test func damagedTilesAreRefusedWithWhereTheyBreak() throws {
        let tile = VectorTile(layers: [
            VectorTile.Layer(
                name: "poi",
                features: [
                    VectorTile.Feature(geometry: .points([Self.point(1, 2)]), properties: ["name": .string("A")])
                ])
        ])
        let bytes = tile.encoded()
        #expect(throws: VectorTileError.self) { try VectorTile(decoding: Array(bytes.dropLast(3))) }
        // A feature whose tags name a key past the layer's keys.
        var writer = ProtobufWriter()
        writer.message(3) { layer in
            layer.uint(15, 2)
            layer.string(1, "poi")
            layer.message(2) { feature in
                feature.packed(2, [UInt32(5), 0])
                feature.uint(3, 1)
                feature.packed(4, [UInt32(9), 2, 4])
            }
            layer.string(3, "name")
        }
        do {
            _ = try VectorTile(decoding: writer.bytes)
            Issue.record("a tag past the layer's keys was read")
        } catch {
            #expect(error.message.contains("past the layer's tables"))
        }
        // An unknown command (id 4).
        var unknown = ProtobufWriter()
        unknown.message(3) { layer in
            layer.string(1, "water")
            layer.message(2) { feature in
                feature.uint(3, 3)
                feature.packed(4, [UInt32(4 | 1 << 3), 0, 0])
            }
        }
        #expect(throws: VectorTileError.self) { try VectorTile(decoding: unknown.bytes) }
        // A polygon that starts with a hole.
        let hole = VectorTile(layers: [
            VectorTile.Layer(
                name: "water",
                features: [
                    VectorTile.Feature(
                        geometry: .polygons([[[Self.point(0, 0), Self.point(0, 10), Self.point(10, 10)]]]))
                ])
        ])
        #expect(throws: VectorTileError.self) { try VectorTile(decoding: hole.encoded()) }
    }
}

/// Projection, clipping, simplification and winding into one tile's grid.
@Suite struct TileGeometryBuilderTests {
    /// Tile 14/9327/4742 over central Helsinki.
    let builder = TileGeometryBuilder(tile: TileID(x: 9327, y: 4742, z: 14))

    func coordinate(x: Double, y: Double) -> Coordinate {
        let size = 4096 * exp2(14.0)
        return WebMercator.unproject(WorldPoint(x: 9327 * 4096 + x, y: 4742 * 4096 + y), worldSize: size)
    }

    @Test func coordinatesLandOnTheTilesGrid() {
        let corner = builder.project(coordinate(x: 0, y: 0))
        #expect(abs(corner.x) < 1e-6 && abs(corner.y) < 1e-6)
        let inside = builder.project(coordinate(x: 1000.25, y: 3000.75))
        #expect(abs(inside.x - 1000.25) < 1e-6 && abs(inside.y - 3000.75) < 1e-6)
        #expect(builder.point(coordinate(x: 4100, y: 10)) == nil)
        #expect(builder.point(coordinate(x: 4095.2, y: 10)) == TilePoint(x: 4095, y: 10))
    }

    @Test func linesAreCutAtTheBufferIntoPieces() {
        // In, out past the right edge and its buffer, and back in.
        let line = [(100.0, 100.0), (5000.0, 100.0), (5000.0, 300.0), (100.0, 300.0)].map {
            coordinate(x: $0.0, y: $0.1)
        }
        let pieces = builder.lines(line)
        #expect(pieces.count == 2)
        #expect(pieces[0].first == TilePoint(x: 100, y: 100))
        #expect(pieces[0].last == TilePoint(x: 4096 + 64, y: 100))
        #expect(pieces[1].first == TilePoint(x: 4096 + 64, y: 300))
        #expect(pieces[1].last == TilePoint(x: 100, y: 300))
        #expect(builder.lines([coordinate(x: 5000, y: 0), coordinate(x: 6000, y: 10)]).isEmpty)
    }

    @Test func polygonsAreClippedAndWoundForMVT() throws {
        // A square larger than the tile, wound counter-clockwise on screen, with a hole inside.
        let outer = [(-1000.0, -1000.0), (-1000.0, 5000.0), (5000.0, 5000.0), (5000.0, -1000.0), (-1000.0, -1000.0)]
            .map { coordinate(x: $0.0, y: $0.1) }
        let hole = [(1000.0, 1000.0), (2000.0, 1000.0), (2000.0, 2000.0), (1000.0, 2000.0)].map {
            coordinate(x: $0.0, y: $0.1)
        }
        let polygons = builder.polygons([outer, hole])
        #expect(polygons.count == 1)
        let polygon = try #require(polygons.first)
        #expect(polygon.count == 2)
        #expect(TileGeometry.area(polygon[0]) > 0)
        #expect(TileGeometry.area(polygon[1]) < 0)
        #expect(Set(polygon[0]) == Set(builder.bufferSquare))
        #expect(abs(TileGeometry.area(polygon[1]) + 1_000_000) < 100)
    }

    /// An arch whose top lies beyond the tile's top edge leaves its two legs: two polygons,
    /// not one ring doubling back along the edge.
    @Test func aConcaveAreaCutByTheEdgeLeavesSeparatePolygons() throws {
        let arch = [
            (100.0, 2000.0), (100.0, -1000.0), (3200.0, -1000.0), (3200.0, 2000.0), (3000.0, 2000.0),
            (3000.0, -800.0), (300.0, -800.0), (300.0, 2000.0),
        ].map { coordinate(x: $0.0, y: $0.1) }
        let polygons = builder.polygons([arch])
        #expect(polygons.count == 2)
        for polygon in polygons {
            #expect(polygon.count == 1)
            #expect(!TileGeometryBuilder.selfIntersects(polygon[0]))
            #expect(abs(TileGeometry.area(polygon[0]) - 200 * 2064) < 400)
            #expect(polygon[0].allSatisfy { $0.y >= -64 })
        }
        // A ring that holds the whole tile gives the buffered square.
        let around = [(-9000.0, -9000.0), (9000.0, -9000.0), (9000.0, 9000.0), (-9000.0, 9000.0)].map {
            coordinate(x: $0.0, y: $0.1)
        }
        #expect(builder.polygons([around]).map { Set($0[0]) } == [Set(builder.bufferSquare)])
    }

    /// A ring crossing itself (a figure eight) parts into its two lobes, each clockwise; a ring
    /// touching the tile's edge where the clip runs along it parts there.
    @Test func ringsThatCrossOrTouchArePartedIntoSimpleOnes() {
        let eight = [
            TilePoint(x: 0, y: 0), TilePoint(x: 100, y: 100), TilePoint(x: 100, y: 0), TilePoint(x: 0, y: 100),
        ]
        #expect(TileGeometryBuilder.selfIntersects(eight))
        let lobes = TileGeometryBuilder.uncrossed(eight)
        #expect(lobes.count == 2)
        #expect(lobes.allSatisfy { TileGeometry.area($0) > 0 && !TileGeometryBuilder.selfIntersects($0) })
        #expect(lobes.map { TileGeometry.area($0) }.reduce(0, +) == 5_000)
        // A vertex rounded onto the top edge, where the clip's run along the edge passes.
        let touching = [
            TilePoint(x: 2619, y: -64), TilePoint(x: 2580, y: -31), TilePoint(x: 2498, y: -64),
            TilePoint(x: 2484, y: -34), TilePoint(x: 2291, y: -64),
        ]
        let parts = TileGeometryBuilder.splitAtRepeats(
            TileGeometryBuilder.insertingTouches(touching, edge: (low: -64, high: 4160)))
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { TileGeometry.area($0) > 0 })
    }

    /// Holes that meet a larger hole (sharing an edge, crossing it) or lie inside it are left
    /// out, the larger kept; holes apart all stay: a polygon's holes never overlap.
    @Test func holesThatMeetOrNestAreLeftOut() {
        func square(_ x: Int32, _ y: Int32, _ side: Int32) -> [TilePoint] {
            // Holes wind counter-clockwise on screen.
            [
                TilePoint(x: x, y: y), TilePoint(x: x, y: y + side), TilePoint(x: x + side, y: y + side),
                TilePoint(x: x + side, y: y),
            ]
        }
        let large = square(0, 0, 100)
        let sharingAnEdge = square(100, 20, 50)
        let crossing = square(80, 80, 40)
        let inside = square(10, 10, 20)
        let apart = square(300, 300, 10)
        let kept = TileGeometryBuilder.apart([sharingAnEdge, inside, large, crossing, apart])
        #expect(kept == [large, apart])
        #expect(TileGeometryBuilder.apart([apart, square(320, 300, 10)]).count == 2)
    }

    @Test func whatIsTooSmallOrStraightIsSimplifiedAway() throws {
        // Below the top zoom a 10 × 10-unit square (100 units², under 2 pixels²) is dropped.
        let low = TileGeometryBuilder(tile: TileID(x: 1165, y: 592, z: 11))
        let size = 4096 * exp2(11.0)
        func at(_ x: Double, _ y: Double) -> Coordinate {
            WebMercator.unproject(WorldPoint(x: 1165 * 4096 + x, y: 592 * 4096 + y), worldSize: size)
        }
        #expect(low.polygons([[at(10, 10), at(20, 10), at(20, 20), at(10, 20)]]).isEmpty)
        // Points on a straight line within the tolerance go; the ends stay.
        let line = (0...40).map { at(Double($0) * 100, 500 + ($0 % 2 == 0 ? 0 : 2)) }
        let simplified = try #require(low.lines(line).first)
        #expect(simplified.count == 2)
        #expect(simplified.first == TilePoint(x: 0, y: 500))
    }
}
