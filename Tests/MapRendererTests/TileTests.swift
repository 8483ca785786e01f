import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import TestSupport
import Testing

@testable import MapRenderer

struct MetatileTests {
    @Test func polarBlocksAreDrawnGrownTowardTheEquatorSoTheCameraNeedNotClamp() {
        // Zoom 10, row 0 spans 85.05° to 85.02° N: its centre is beyond the camera's 85°.
        let north = Metatile(zoom: 10, columns: 10...10, rows: 0...0)
        #expect(TileRenderer.centre(of: north).latitude > CameraPosition.maxTargetLatitude)
        let drawn = TileRenderer.drawnBlock(for: north)
        #expect(drawn.rows.lowerBound == 0 && drawn.rows.count > 1 && drawn.columns == 10...10)
        #expect(TileRenderer.centre(of: drawn).latitude <= CameraPosition.maxTargetLatitude)
        // No more rows than needed: one fewer would still be beyond 85°.
        var fewer = drawn
        fewer.rows = 0...drawn.rows.upperBound - 1
        #expect(TileRenderer.centre(of: fewer).latitude > CameraPosition.maxTargetLatitude)
        let south = TileRenderer.drawnBlock(for: Metatile(zoom: 10, columns: 3...4, rows: 1023...1023))
        #expect(south.rows.upperBound == 1023 && south.rows.count > 1)
        #expect(TileRenderer.centre(of: south).latitude >= -CameraPosition.maxTargetLatitude)
        // Blocks within ±85° are drawn as they are.
        let helsinki = Metatile(zoom: 14, columns: 9325...9327, rows: 4739...4741)
        #expect(TileRenderer.drawnBlock(for: helsinki) == helsinki)
    }

    @Test func blocksAreAlignedSquaresTrimmedToTheTilesAskedFor() {
        let tiles = (5...12).flatMap { x in (3...4).map { TileID(x: x, y: $0, z: 10) } } + [TileID(x: 1, y: 1, z: 2)]
        let blocks = Metatile.blocks(covering: tiles, size: 8)
        #expect(
            blocks == [
                Metatile(zoom: 2, columns: 1...1, rows: 1...1), Metatile(zoom: 10, columns: 5...7, rows: 3...4),
                Metatile(zoom: 10, columns: 8...12, rows: 3...4),
            ])
        #expect(Set(blocks.flatMap(\.tiles)) == Set(tiles))
    }
}

/// Tiles of the installed default store.
@Suite
struct TileRenderingTests {
    let renderer = TileRenderer(renderer: MapRenderer(store: try! MapStore(path: try! FixtureStore.path())))

    @Test func aTileIsTheSameWhetherAloneOrCutFromAMetatile() throws {
        // Helsinki's centre at zoom 14.
        let alone = try renderer.render(Metatile(zoom: 14, columns: 9326...9326, rows: 4740...4740))
        let block = try renderer.render(Metatile(zoom: 14, columns: 9325...9327, rows: 4739...4741))
        let cut = try #require(block.first { $0.tile == TileID(x: 9326, y: 4740, z: 14) })
        #expect(block.count == 9 && alone.count == 1)
        let first = try Canvas(png: alone[0].png)
        let second = try Canvas(png: cut.png)
        #expect(first.width == 256 && first.height == 256)
        var differing = 0
        for y in stride(from: 0, to: 256, by: 2) {
            for x in stride(from: 0, to: 256, by: 2) {
                let a = try #require(first.pixel(x: x, y: y))
                let b = try #require(second.pixel(x: x, y: y))
                if a.distance(to: b) > 8 { differing += 1 }
            }
        }
        // Labels may be placed differently near the edges of the smaller picture; the map is the same.
        #expect(differing < 256 * 256 / 4 / 20)
    }

    @Test func tilesHaveNoControlsAndShowTheirCornerOfTheWorld() throws {
        // Zoom 2, tile 2/2/1: 0° to 90° E, the equator to 66.5° N.
        let tiles = try renderer.render(Metatile(zoom: 2, columns: 2...2, rows: 1...1))
        let canvas = try Canvas(png: tiles[0].png)
        let land = MapPalette.light.land
        let water = MapPalette.light.water
        func isColor(_ pixel: Pixel?, _ color: Color) -> Bool {
            guard let pixel else { return false }
            return pixel.distance(
                to: Pixel(color)) <= 3
        }
        // The Arabian Sea (15° N, 65° E) is water; the middle of Arabia (23° N, 45° E) is land.
        let world = 1024.0
        func pixel(_ coordinate: Coordinate) -> Pixel? {
            let point = WebMercator.project(coordinate, worldSize: world)
            return canvas.pixel(x: Int(point.x) - 512, y: Int(point.y) - 256)
        }
        #expect(isColor(pixel(Coordinate(latitude: 15, longitude: 65)), water))
        #expect(isColor(pixel(Coordinate(latitude: 23, longitude: 45)), land))
        // The bottom-left corner, where a map view puts its logo, is plain sea (Gulf of Guinea).
        #expect(isColor(canvas.pixel(x: 10, y: 246), water))
    }

    @Test func zoomsOutsideTheCameraRangeAreErrors() {
        #expect(throws: RenderError.self) { try renderer.render(Metatile(zoom: 1, columns: 0...1, rows: 0...1)) }
    }

    @Test func aJobOnTwoThreadsDeliversEveryTileOnce() throws {
        let tiles = (12...14).flatMap { zoom in
            TileID.covering(
                CoordinateBounds(
                    southWest: Coordinate(latitude: 60.164, longitude: 24.935),
                    northEast: Coordinate(latitude: 60.179, longitude: 24.953)), zoom: zoom)
        }
        var delivered: [TileID] = []
        try TileJob(storePath: try FixtureStore.path(), workers: 2).run(Metatile.blocks(covering: tiles, size: 2)) {
            _, rendered in delivered += rendered.map(\.tile)
        }
        #expect(
            delivered.sorted { $0.description < $1.description } == tiles.sorted { $0.description < $1.description })
    }
}

struct LineMergerTests {
    @Test func piecesMeetingEndToEndBecomeOneLineWhicheverWayTheyRun() {
        let a = [Point(x: 0, y: 0), Point(x: 10, y: 0)]
        let b = [Point(x: 20, y: 5), Point(x: 10, y: 0)]  // runs backwards
        let c = [Point(x: 20, y: 5), Point(x: 30, y: 5)]
        let apart = [Point(x: 100, y: 100), Point(x: 110, y: 100)]
        let merged = LineMerger.merge([a, apart, b, c]).sorted { $0.count > $1.count }
        #expect(merged.count == 2)
        let line = merged[0]
        #expect(line.count == 4)
        let ends = Set([line.first!, line.last!].map { "\($0.x),\($0.y)" })
        #expect(ends == ["0.0,0.0", "30.0,5.0"])
        #expect(merged[1] == apart)
    }
}
