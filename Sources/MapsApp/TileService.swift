import Foundation
import GeoCore
import MapCore
import MapRenderer
import VectorTiles
import ZlibKit

/// A rendered tile with the other tiles of its block, drawn together so that labels run across
/// their edges: a server caches them all.
public struct RenderedBlock: Sendable {
    /// The tile asked for.
    public var tile: TileID
    /// Every tile of the block, with its PNG bytes (the one asked for among them).
    public var tiles: [RenderedTile]

    /// The PNG bytes of the tile asked for.
    public var png: [UInt8] { tiles.first { $0.tile == tile }?.png ?? [] }
}

extension MapsApp {
    /// Tiles a side of the block drawn for one tile asked for: 4 (16 tiles, 1,024 pixels).
    public static let tileBlockSize = 4

    /// Checks a tile's address: zoom within ``TilePlan/zooms``, column and row within the
    /// zoom's 2^z, scale within ``TileStyle/scales``.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the part at fault.
    public static func check(_ tile: TileID, style: TileStyle) throws(AppError) {
        guard TilePlan.zooms.contains(tile.z) else {
            throw .invalidOption(
                "z", message: "must lie within \(TilePlan.zooms.lowerBound)-\(TilePlan.zooms.upperBound), not \(tile.z)"
            )
        }
        let count = 1 << tile.z
        guard (0..<count).contains(tile.x), (0..<count).contains(tile.y) else {
            throw .invalidOption("x/y", message: "must lie within 0-\(count - 1) at zoom \(tile.z)")
        }
        guard TileStyle.scales.contains(style.scale) else {
            throw .invalidOption("scale", message: "must be 1 or 2, not \(style.scale)")
        }
    }

    /// The tile at `tile` in `style`, with the rest of its block of ``tileBlockSize`` ×
    /// ``tileBlockSize`` tiles (fewer at zooms with fewer tiles). Safe to call from several
    /// threads at once: each render uses its own store connection.
    ///
    /// - Throws: the errors of ``check(_:style:)``, ``AppError/engineMissing(_:)`` without a
    ///   tile renderer, ``AppError/engineFailed(_:underlying:)`` when rendering fails.
    public func tile(_ tile: TileID, style: TileStyle) throws(AppError) -> RenderedBlock {
        try Self.check(tile, style: style)
        guard let tiles else { throw .engineMissing("tile renderer") }
        do {
            let rendered = try tiles.render(Metatile.block(containing: tile, size: Self.tileBlockSize), style: style)
            return RenderedBlock(tile: tile, tiles: rendered)
        } catch {
            throw .engineFailed("rendering tile \(tile)", underlying: error)
        }
    }
}

extension MapsApp {
    /// The zooms vector tiles are cut at: 0 ... ``VectorTileSchema/maxZoom`` (14); clients zoom
    /// past the top one into its tiles.
    public static let vectorZooms = 0...VectorTileSchema.maxZoom

    /// Checks a vector tile's address: zoom within ``vectorZooms``, column and row within the
    /// zoom's 2^z.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the part at fault.
    public static func checkVector(_ tile: TileID) throws(AppError) {
        guard vectorZooms.contains(tile.z) else {
            throw .invalidOption(
                "z",
                message:
                    "must lie within \(vectorZooms.lowerBound)-\(vectorZooms.upperBound) for vector tiles (clients zoom past \(vectorZooms.upperBound) into its tiles), not \(tile.z)"
            )
        }
        let count = 1 << tile.z
        guard (0..<count).contains(tile.x), (0..<count).contains(tile.y) else {
            throw .invalidOption("x/y", message: "must lie within 0-\(count - 1) at zoom \(tile.z)")
        }
    }

    /// The vector tile at `tile`, gzip-compressed Mapbox Vector Tile bytes of the schema in
    /// docs/tiles.md (``VectorTileSchema``), from ``vectorArchive`` when there is one, else cut
    /// from the store; nil for a tile with nothing in it. Safe to call from several threads at
    /// once.
    ///
    /// - Throws: the errors of ``checkVector(_:)``, ``AppError/engineMissing(_:)`` without a tile
    ///   engine or archive, ``AppError/engineFailed(_:underlying:)`` when the store or the
    ///   archive cannot be read.
    public func vectorTile(_ tile: TileID) throws(AppError) -> [UInt8]? {
        try Self.checkVector(tile)
        if let vectorArchive {
            do {
                guard let stored = try vectorArchive.tile(tile) else { return nil }
                return vectorArchive.gzipTiles ? stored : try Zlib.gzip(stored)
            } catch {
                throw .engineFailed("reading vector tile \(tile) from \(vectorArchive.path)", underlying: error)
            }
        }
        guard let tiles else { throw .engineMissing("tile renderer") }
        do {
            let bytes = try tiles.vectorTile(tile)
            return bytes.isEmpty ? nil : bytes
        } catch {
            throw .engineFailed("cutting vector tile \(tile)", underlying: error)
        }
    }

    /// The gzip-compressed traffic tile `tile` (zoom 0...14, ``TrafficTiles``); nil when the
    /// feed lists no road in it, or the server has no feed.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` for a tile outside the grid,
    ///   ``AppError/engineFailed(_:underlying:)`` when the store cannot be read.
    public func trafficTile(_ tile: TileID) throws(AppError) -> [UInt8]? {
        try Self.checkVector(tile)
        guard let tiles else { return nil }
        do {
            let bytes = try tiles.trafficTile(tile)
            return bytes.isEmpty ? nil : bytes
        } catch {
            throw .engineFailed("cutting traffic tile \(tile)", underlying: error)
        }
    }

    /// The TileJSON 3.0.0 of the traffic tiles at `url` (a `{z}/{x}/{y}` template): the one
    /// layer of ``TrafficTiles``, from the zoom the street data shows.
    public static func trafficTileJSON(url: String) -> String {
        let layer = TrafficTiles.layer
        let document: [String: Any] = [
            "tilejson": "3.0.0", "name": "OpenMaps traffic", "scheme": "xyz", "format": "pbf",
            "description": "Congestion on the roads the server's traffic feed lists (docs/tiles.md)",
            "tiles": [url], "minzoom": layer.minZoom, "maxzoom": vectorZooms.upperBound,
            "vector_layers": [
                [
                    "id": layer.id, "description": layer.description, "minzoom": layer.minZoom,
                    "maxzoom": vectorZooms.upperBound, "fields": layer.fields,
                ] as [String: Any]
            ],
        ]
        return JSONText.pretty(document)
    }

    /// The TileJSON 3.0.0 of the vector tiles at `url` (a `{z}/{x}/{y}` template): zooms,
    /// bounds, attribution and every layer of ``VectorTileSchema/layers`` with its fields.
    public static func vectorTileJSON(
        url: String, bounds: CoordinateBounds?, attribution: String, zooms: ClosedRange<Int> = vectorZooms
    ) -> String {
        let box: [Double] =
            bounds.flatMap { box in
                box.southWest.flatMap { southWest in
                    box.northEast.map { [southWest.longitude, southWest.latitude, $0.longitude, $0.latitude] }
                }
            } ?? [-180, -85.0511, 180, 85.0511]
        let document: [String: Any] = [
            "tilejson": "3.0.0", "name": "OpenMaps", "scheme": "xyz", "format": "pbf",
            "description": "OpenStreetMap and the world's layers in the OpenMapTiles schema (docs/tiles.md)",
            "tiles": [url], "minzoom": zooms.lowerBound, "maxzoom": zooms.upperBound, "bounds": box,
            "attribution": attribution, "vector_layers": vectorLayers,
        ]
        return JSONText.pretty(document)
    }

    /// ``VectorTileSchema/layers`` as TileJSON's and the archives' `vector_layers`: each
    /// layer's id, description, zooms and fields with their types.
    static var vectorLayers: [[String: Any]] {
        VectorTileSchema.layers.map { layer in
            [
                "id": layer.id, "description": layer.description, "minzoom": layer.minZoom,
                "maxzoom": vectorZooms.upperBound, "fields": layer.fields,
            ]
        }
    }
}

extension MapsApp {
    /// The MapLibre style of the vector tiles for `style`'s map type, scheme, layers and
    /// language, its sources, glyphs and sprite under `base` (``MapStyle``); the terrain map
    /// shaded from the elevation models up to `terrainZoom` (``terrainZoom()``) where given,
    /// its raster tiles crediting `rasterCredits` (``rasterCredits(for:)``).
    public static func vectorStyle(
        _ style: TileStyle, base: String, terrainZoom: Int? = nil, rasterCredits: [String] = []
    ) -> String {
        MapStyle(style: style, base: base, terrainZoom: terrainZoom, rasterCredits: rasterCredits).json
    }

    /// The credit lines of the imported aerial images (satellite, hybrid) or elevation models
    /// (terrain) a map type's tiles draw; none without a store or for other types.
    public func rasterCredits(for mapType: MapType) -> [String] {
        (try? tiles?.rasterCredits(for: mapType)) ?? []
    }

    /// The finest zoom of the store's elevation models, nil without any (or without a store).
    public func terrainZoom() -> Int? {
        guard let heights, let models = try? heights.models(), !models.isEmpty else { return nil }
        return min(models.map(\.maxZoom).max() ?? 0, Self.maxTerrainZoom)
    }

    /// The glyph range from `start` of the font stack `stack` names (MapLibre's
    /// `/fonts/{fontstack}/{range}.pbf`); nil for a stack not served.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` for a range that is not one,
    ///   ``AppError/engineFailed(_:underlying:)`` when the fonts cannot be read.
    public static func glyphs(stack: String, start: Int) throws(AppError) -> [UInt8]? {
        guard start >= 0, start % 256 == 0, start <= 65_280 else {
            throw .invalidOption("range", message: "must be START-END, 256 code points from a multiple of 256")
        }
        do {
            return try GlyphStacks.range(stack, start: start)
        } catch {
            throw .engineFailed("making the glyphs of '\(stack)'", underlying: error)
        }
    }

    /// The vector styles' sprite at `pixelRatio` (1 or 2): its PNG and JSON index.
    ///
    /// - Throws: ``AppError/engineFailed(_:underlying:)`` when it cannot be drawn.
    public static func sprite(pixelRatio: Int) throws(AppError) -> (png: [UInt8], json: String) {
        do {
            return try SpriteSheet.sheet(pixelRatio: pixelRatio)
        } catch {
            throw .engineFailed("drawing the sprite", underlying: error)
        }
    }

    /// The picture of a label the vector styles leave to the server (``MapStyle/labelImagePrefix``):
    /// `text` in the look of the label kind named `kind` (``LabelKind/name``), in the light or
    /// dark scheme, over imagery when `overImagery`, at `scale` device pixels a point; shaped
    /// as the PNG maps shape their labels.
    ///
    /// - Returns: the PNG, and its size in points.
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming `kind`, `text` or `scale` when
    ///   one is not what a label takes; ``AppError/engineFailed(_:underlying:)`` when it cannot
    ///   be drawn.
    public static func labelPicture(
        _ text: String, kind: String, scheme: UserInterfaceStyle?, overImagery: Bool, scale: Double
    ) throws(AppError) -> (png: [UInt8], width: Double, height: Double) {
        guard let labelKind = LabelKind(name: kind) else {
            throw .invalidOption(
                "kind",
                message:
                    "must be one of \(LabelKind.allCases.map(\.name).joined(separator: ", ")), not '\(kind.prefix(40))'"
            )
        }
        guard !text.isEmpty, text.count <= MapRenderer.labelPictureLimit else {
            throw .invalidOption(
                "text", message: "must be 1 to \(MapRenderer.labelPictureLimit) characters, not \(text.count)")
        }
        guard (1...4).contains(scale) else { throw .invalidOption("scale", message: "must be 1 to 4, not \(scale)") }
        let palette = MapPalette.forScheme(scheme)
        let look = LabelLook(labelKind, palette: overImagery ? palette.overImagery : palette)
        do {
            return try MapRenderer.labelPicture(text, look: look, scale: scale)
        } catch {
            throw .engineFailed("drawing the label '\(text.prefix(40))'", underlying: error)
        }
    }
}
