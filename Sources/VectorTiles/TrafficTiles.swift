import GeoCore
import MapData

/// The traffic layer as vector tiles of their own, apart from the map's (congestion changes
/// by the minute; the map's tiles and archives do not): the roads a ``TrafficFeed`` lists, in
/// one layer `traffic` with the road's `class` and `ramp` as the `transportation` layer gives
/// them and its `congestion` (`free`, `moderate`, `heavy`, `stopped`). Paths and road areas
/// are never in it, as the PNG maps never colour them.
public enum TrafficTiles {
    /// The layer's description and fields, as TileJSON's `vector_layers` declares it.
    public static let layer = VectorTileSchema.Layer(
        id: "traffic", description: "Congestion on the roads the traffic feed lists, by road.",
        minZoom: VectorTileSchema.tileZoom(ZoomRules.streetData),
        fields: ["class": "String", "ramp": "Number", "congestion": "String"])

    /// The traffic tile `id` of `feed` on the roads of `store`; no layer when the feed lists no
    /// road in it, or below the layer's zoom.
    /// - Throws: ``DataError`` when the store cannot be read.
    public static func tile(_ id: TileID, store: MapStore, feed: TrafficFeed) throws(DataError) -> VectorTile {
        guard id.z >= layer.minZoom, !feed.levels.isEmpty else { return VectorTile(layers: []) }
        let geometry = TileGeometryBuilder(tile: id)
        var features: [VectorTile.Feature] = []
        for tagged in try store.taggedFeatures(in: geometry.bufferedBounds, classes: [.road], details: []) {
            let feature = tagged.feature
            guard feature.osmType == .way, let way = feature.osmID, let congestion = feed[way: way],
                !feature.geometry.isArea,
                let road = SchemaMapping.transportation(feature, tagged.tags, zoom: id.z),
                let roadClass = road["class"], roadClass != .string("path"),
                let lines = VectorTileBuilder.cut(feature.geometry, as: .asIs, geometry, simplify: true)
            else { continue }
            var properties = ["class": roadClass, "congestion": .string(congestion.rawValue)]
            properties["ramp"] = road["ramp"]
            features.append(VectorTile.Feature(geometry: lines, properties: properties))
        }
        return VectorTile(layers: features.isEmpty ? [] : [VectorTile.Layer(name: layer.id, features: features)])
    }
}
