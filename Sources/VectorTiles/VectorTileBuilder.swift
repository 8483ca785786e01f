import GeoCore
import MapData

/// Cuts one vector tile out of the store: the features ``VectorTileSchema`` puts in the tile's
/// zoom, read in two queries (the world layers at the zoom's level of detail, then the street
/// data with their tags), mapped to the schema's layers and fields, clipped and simplified by a
/// ``TileGeometryBuilder``. The sea is the tile less the world's land: one `water` polygon of
/// class `ocean` whose holes are the land.
///
/// The world's largest areas (a continent's coast at full detail: a million points) are read
/// once and kept prepared (``PreparedRing``) between tiles, up to ``cachedPoints`` points; only
/// their runs near a tile are cut. One builder belongs to one thread at a time.
public final class VectorTileBuilder {
    /// The store the features are read from.
    public let store: MapStore
    /// World features of more than this many points are kept between tiles: 20,000.
    public static let largeFeature = 20_000
    /// The points kept between tiles at most: 4 million (about 64 MB).
    public static let cachedPoints = 4_000_000
    /// Large world features read, with their rings prepared, and when each was last used.
    private var cache: [Int64: (tagged: MapStore.TaggedFeature, rings: [PreparedRing], points: Int, used: Int)] = [:]
    private var cachedTotal = 0
    private var clock = 0
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
        let zoom = VectorTileSchema.mapZoom(ofTile: id.z)
        var layers: [String: [VectorTile.Feature]] = [:]
        let mapping = SchemaMapping(zoom: id.z)

        // The street data, places and what the layers show, with their tags.
        let classes = VectorTileSchema.classes(zoom: id.z)
        var tagged = try store.taggedFeatures(in: bounds, classes: classes, details: [])
        // Summits show before the other points of interest: read alone at the zooms between.
        if !classes.contains(.poi) && VectorTileSchema.shows(from: ZoomRules.peaks, at: id.z) {
            tagged += try store.taggedFeatures(
                in: bounds, classes: [.poi], kinds: FeatureClassifier.peaks.map { "natural=\($0)" }.sorted(),
                details: [])
        }
        // Inside an imported region whose coastline was assembled, the region's own sea stands
        // for the world's ocean (whose shoreline is a staircase at street zoom); a tile the
        // region covers only in part keeps the world's.
        let ownSea = tagged.first { Self.isSea($0.feature, covering: bounds) }
        tagged.removeAll { $0.feature.featureClass == .water && $0.feature.kind == FeatureKind.extractSea.kind }

        // The world layers, at the zoom's detail (full where the store has it, from zoom 8).
        let level = ZoomRules.worldDetail(zoom: zoom)
        let full = zoom >= ZoomRules.worldFullDetail && worldDetails.contains(.full)
        let detail = full ? DetailLevel.full : level
        let worldClasses: [FeatureClass] =
            zoom >= ZoomRules.worldRivers && zoom < ZoomRules.streetData
            ? [.land, .water, .waterway, .border] : [.land, .water, .border]
        let world = try worldFeatures(in: bounds, classes: worldClasses, detail: detail)
        for (tagged, rings) in world where tagged.feature.featureClass != .land {
            add(mapping.items(tagged), of: tagged.feature, to: &layers, geometry: geometry, prepared: rings)
        }
        if let ownSea {
            var sea: [String: [VectorTile.Feature]] = [:]
            add(mapping.items(ownSea), of: ownSea.feature, to: &sea, geometry: geometry)
            layers["water", default: []].insert(contentsOf: sea["water"] ?? [], at: 0)
        } else if worldDetails.contains(detail) {
            // Islands in lakes lie inside the land already.
            let land = world.filter {
                $0.tagged.feature.featureClass == .land && $0.tagged.feature.kind != FeatureKind.worldIslandInLake.kind
            }
            if let ocean = Self.ocean(land: land, geometry: geometry) {
                layers["water", default: []].insert(
                    VectorTile.Feature(geometry: .polygons([ocean]), properties: ["class": .string("ocean")]), at: 0)
            }
        }

        for tagged in tagged {
            add(mapping.items(tagged), of: tagged.feature, to: &layers, geometry: geometry)
        }
        return VectorTile(
            layers: VectorTileSchema.layers.compactMap { layer in
                layers[layer.id].map { VectorTile.Layer(name: layer.id, features: $0) }
            })
    }

    /// The world features of `classes` at `detail` meeting `bounds`, by id, each with its rings
    /// prepared when it is a large one (read from the store once, then kept).
    private func worldFeatures(in bounds: CoordinateBounds, classes: [FeatureClass], detail: DetailLevel)
        throws(DataError) -> [(tagged: MapStore.TaggedFeature, rings: [PreparedRing]?)]
    {
        let sizes = try store.featureSizes(in: bounds, classes: classes, details: [detail])
        let large = Set(sizes.filter { $0.bytes > Self.largeFeature * 8 }.map(\.id))
        let missing = sizes.map(\.id).filter { !large.contains($0) || cache[$0] == nil }
        var read: [Int64: MapStore.TaggedFeature] = [:]
        for tagged in try store.taggedFeatures(ids: missing) { read[tagged.feature.id] = tagged }
        clock += 1
        var features: [(tagged: MapStore.TaggedFeature, rings: [PreparedRing]?)] = []
        for (id, _) in sizes {
            if large.contains(id) {
                if let kept = cache[id] {
                    cache[id]?.used = clock
                    features.append((kept.tagged, kept.rings))
                } else if var tagged = read[id] {
                    let rings = Self.prepared(tagged.feature.geometry)
                    // Kept prepared only: the rings stand for the geometry from here on.
                    tagged.feature.geometry = .polygon([])
                    keep(id, tagged, rings)
                    features.append((tagged, rings))
                }
            } else if let tagged = read[id] {
                features.append((tagged, nil))
            }
        }
        return features
    }

    /// The rings of an area prepared for cutting; none for other geometry.
    private static func prepared(_ geometry: Geometry) -> [PreparedRing] {
        guard case .polygon(let rings) = geometry else { return [] }
        return rings.map { PreparedRing(degrees: $0) }
    }

    /// Keeps a large feature, dropping the least recently used past ``cachedPoints``.
    private func keep(_ id: Int64, _ tagged: MapStore.TaggedFeature, _ rings: [PreparedRing]) {
        let points = rings.reduce(0) { $0 + $1.count }
        while cachedTotal + points > Self.cachedPoints, let oldest = cache.min(by: { $0.value.used < $1.value.used }) {
            cachedTotal -= oldest.value.points
            cache[oldest.key] = nil
        }
        guard points <= Self.cachedPoints else { return }
        cache[id] = (tagged, rings, points, clock)
        cachedTotal += points
    }

    /// Appends `items`, each with `feature`'s geometry cut for the tile, to their layers;
    /// `prepared`, the feature's rings when they are kept prepared.
    private func add(
        _ items: [SchemaItem], of feature: MapStore.Feature, to layers: inout [String: [VectorTile.Feature]],
        geometry builder: TileGeometryBuilder, prepared: [PreparedRing]? = nil
    ) {
        var buildings = builder
        if builder.tile.z < VectorTileSchema.maxZoom { buildings.minimumArea = TileGeometryBuilder.smallestBuilding }
        for item in items {
            let builder = item.layer == "building" ? buildings : builder
            let simplify = feature.detail == nil || feature.detail == .full
            let cut: TileGeometry?
            if let prepared, !prepared.isEmpty, item.shape == .asIs {
                let polygons = builder.polygons(prepared.map { .prepared($0) }, simplify: simplify)
                cut = polygons.isEmpty ? nil : .polygons(polygons)
            } else {
                cut = Self.cut(feature.geometry, as: item.shape, builder, simplify: simplify)
            }
            guard let geometry = cut else { continue }
            layers[item.layer, default: []].append(
                VectorTile.Feature(
                    id: VectorTileSchema.identifiedLayers.contains(item.layer) ? UInt64(feature.id) : nil,
                    geometry: geometry, properties: item.properties))
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

    /// True for an imported region's own sea (``FeatureKind/extractSea``: the region's box less
    /// its land) whose box holds all of `bounds`.
    static func isSea(_ feature: MapStore.Feature, covering bounds: CoordinateBounds) -> Bool {
        guard feature.featureClass == .water, feature.kind == FeatureKind.extractSea.kind,
            case .polygon(let rings) = feature.geometry, let frame = rings.first,
            let southWest = bounds.southWest, let northEast = bounds.northEast
        else { return false }
        let box = frame.reduce(CoordinateBounds()) { $0.including($1) }
        return box.contains(southWest) && box.contains(northEast)
    }

    /// The sea of the tile: its buffered square with every piece of land in it as a hole (the
    /// land clipped a unit inside the square, so that no hole touches the edge); nil when land
    /// covers the whole tile.
    static func ocean(land: [(tagged: MapStore.TaggedFeature, rings: [PreparedRing]?)], geometry: TileGeometryBuilder)
        -> [[TilePoint]]?
    {
        let square = geometry.bufferSquare
        let squareArea = TileGeometry.area(square)
        var holes: [[TilePoint]] = []
        for (tagged, prepared) in land {
            let feature = tagged.feature
            let source: TileGeometryBuilder.RingSource
            if let first = prepared?.first {
                source = .prepared(first)
            } else if case .polygon(let parts) = feature.geometry, let outer = parts.first {
                source =
                    outer.count > TileGeometryBuilder.longRing
                    ? .prepared(PreparedRing(degrees: outer)) : .coordinates(outer)
            } else {
                continue
            }
            for piece in geometry.polygons([source], inset: 1, simplify: feature.detail == .full) {
                if TileGeometry.area(piece[0]) >= squareArea * 0.99 { return nil }
                holes.append(piece[0].reversed())
            }
        }
        return [square] + TileGeometryBuilder.apart(holes)
    }
}
