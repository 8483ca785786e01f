import GeoCore
import MapData

/// Cuts one vector tile out of the store: the features ``VectorTileSchema`` puts in the tile's
/// zoom, read in two queries (the world layers at the zoom's level of detail, then the street
/// data with their tags), mapped to the schema's layers and fields, clipped and simplified by a
/// ``TileGeometryBuilder``. The sea is the tile less the world's land: one `water` polygon of
/// class `ocean` whose holes are the land.
public struct VectorTileBuilder {
    /// The store the features are read from.
    public let store: MapStore
    /// Whether the store holds the world layers at each level of detail (the sea is drawn only
    /// where the store knows the land), found once.
    private let worldDetails: Set<DetailLevel>

    /// A builder reading `store`.
    /// - Throws: ``DataError`` when the store cannot be read.
    public init(store: MapStore) throws(DataError) {
        self.store = store
        var details: Set<DetailLevel> = []
        for detail in DetailLevel.allCases where try store.hasWorldDetail(detail) { details.insert(detail) }
        worldDetails = details
    }

    /// The tile `id` (zoom 0 ... ``VectorTileSchema/maxZoom``).
    /// - Throws: ``DataError`` when the store cannot be read.
    public func tile(_ id: TileID) throws(DataError) -> VectorTile {
        let geometry = TileGeometryBuilder(tile: id)
        let bounds = geometry.bufferedBounds
        let zoom = Double(id.z)
        var layers: [String: [VectorTile.Feature]] = [:]
        let mapping = SchemaMapping(zoom: id.z)

        // The world layers, at the zoom's detail (full where the store has it, from zoom 8).
        let level = ZoomRules.worldDetail(zoom: zoom)
        let full = zoom >= ZoomRules.worldFullDetail && worldDetails.contains(.full)
        let detail = full ? DetailLevel.full : level
        let worldClasses: [FeatureClass] =
            zoom >= ZoomRules.worldRivers && zoom < ZoomRules.streetData
            ? [.land, .water, .waterway, .border] : [.land, .water, .border]
        let world = try store.taggedFeatures(in: bounds, classes: worldClasses, details: [detail])
        for tagged in world where tagged.feature.featureClass != .land {
            add(mapping.items(tagged), of: tagged.feature, to: &layers, geometry: geometry)
        }
        if worldDetails.contains(detail) {
            // Islands in lakes lie inside the land already.
            let land = world.filter { $0.feature.featureClass == .land && $0.feature.kind != "island_in_lake" }
                .map(\.feature)
            if let ocean = Self.ocean(land: land, geometry: geometry) {
                layers["water", default: []].insert(
                    VectorTile.Feature(geometry: .polygons([ocean]), properties: ["class": .string("ocean")]), at: 0)
            }
        }

        // The street data, places and what the layers show, with their tags.
        for tagged in try store.taggedFeatures(in: bounds, classes: VectorTileSchema.classes(zoom: id.z), details: []) {
            add(mapping.items(tagged), of: tagged.feature, to: &layers, geometry: geometry)
        }
        return VectorTile(
            layers: VectorTileSchema.layers.compactMap { layer in
                layers[layer.id].map { VectorTile.Layer(name: layer.id, features: $0) }
            })
    }

    /// Appends `items`, each with `feature`'s geometry cut for the tile, to their layers.
    private func add(
        _ items: [SchemaItem], of feature: MapStore.Feature, to layers: inout [String: [VectorTile.Feature]],
        geometry builder: TileGeometryBuilder
    ) {
        for item in items {
            let simplify = feature.detail == nil || feature.detail == .full
            guard let geometry = Self.cut(feature.geometry, as: item.shape, builder, simplify: simplify) else {
                continue
            }
            layers[item.layer, default: []].append(
                VectorTile.Feature(id: UInt64(feature.id), geometry: geometry, properties: item.properties))
        }
    }

    /// `geometry` in the tile's grid as `shape` asks, nil when nothing of it is left there.
    /// - Parameter simplify: false for the world's coarser layers, already at the zoom's detail.
    static func cut(_ geometry: Geometry, as shape: SchemaItem.Shape, _ builder: TileGeometryBuilder, simplify: Bool)
        -> TileGeometry?
    {
        if shape == .anchor {
            return geometry.anchor.flatMap(builder.point).map { .points([$0]) }
        }
        switch geometry {
        case .point(let coordinate):
            return builder.point(coordinate).map { .points([$0]) }
        case .line(let line):
            let lines = builder.lines(line)
            return lines.isEmpty ? nil : .lines(lines)
        case .lines(let parts):
            let lines = parts.flatMap(builder.lines)
            return lines.isEmpty ? nil : .lines(lines)
        case .polygon(let rings):
            if shape == .outline {
                let lines = rings.flatMap(builder.lines)
                return lines.isEmpty ? nil : .lines(lines)
            }
            let polygons = builder.polygons(rings, simplify: simplify)
            return polygons.isEmpty ? nil : .polygons(polygons)
        }
    }

    /// The sea of the tile: its buffered square with every piece of land in it as a hole (the
    /// land clipped a unit inside the square, so that no hole touches the edge); nil when land
    /// covers the whole tile.
    static func ocean(land: [MapStore.Feature], geometry: TileGeometryBuilder) -> [[TilePoint]]? {
        let square = geometry.bufferSquare
        let squareArea = TileGeometry.area(square)
        var rings = [square]
        for feature in land {
            guard case .polygon(let parts) = feature.geometry, let outer = parts.first else { continue }
            for piece in geometry.polygons([outer], inset: 1, simplify: feature.detail == .full) {
                if TileGeometry.area(piece[0]) >= squareArea * 0.99 { return nil }
                rings.append(piece[0].reversed())
            }
        }
        return rings
    }
}
