import GeoCore
import MapCore
import MapData

/// The features one picture draws, read in one walk of the spatial index (and one of the
/// pieces' index, ``AreaPieces``) and grouped by class: the world layers at the picture's
/// level of detail, and the street data and places.
struct Scene {
    /// The world's level of detail drawn: see ``ZoomRules/worldDetail(zoom:)``; full from
    /// zoom 8 where `data install --hires` put it in the store.
    let detail: DetailLevel
    private let world: [FeatureClass: [MapStore.Feature]]
    private let local: [FeatureClass: [MapStore.Feature]]

    /// Reads what a picture of `bounds` at `zoom` needs: world land, lakes, rivers and borders
    /// (at full detail from zoom 8 when `fullDetail` and the store has it), and the
    /// street-data classes in `classes`, named in `names` where the data has it (nil: local
    /// names).
    init(
        store: MapStore, bounds: CoordinateBounds, zoom: Double, classes: Set<FeatureClass>, fullDetail: Bool,
        names: Language? = nil
    ) throws {
        let level = ZoomRules.worldDetail(zoom: zoom)
        // Rivers only between zooms 4 and 11 (streets bring their own from 11).
        let worldClasses: [FeatureClass] =
            zoom >= ZoomRules.worldRivers && zoom < ZoomRules.streetData
            ? [.land, .water, .waterway, .border] : [.land, .water, .border]
        let worldDetails = fullDetail && zoom >= ZoomRules.worldFullDetail ? [level, .full] : [level]
        var selections = [MapStore.FeatureSelection(classes: worldClasses, details: worldDetails)]
        // Roads only of the kinds drawn at the zoom.
        let others = classes.subtracting([.road]).sorted()
        if !others.isEmpty { selections.append(MapStore.FeatureSelection(classes: others, details: [])) }
        if classes.contains(.road) {
            selections.append(
                MapStore.FeatureSelection(classes: [.road], details: [], kinds: ZoomRules.roadKinds(atZoom: zoom)))
        }
        // One walk of the spatial index for both.
        let read = try store.features(in: bounds, selecting: selections, names: names, pieces: true)
        let worldFeatures = read.filter { $0.detail != nil }
        let drawn =
            fullDetail && zoom >= ZoomRules.worldFullDetail
                && worldFeatures.contains { $0.detail == .full && $0.featureClass == .land }
            ? .full : level
        detail = drawn
        world = Dictionary(grouping: worldFeatures.filter { $0.detail == drawn }, by: \.featureClass)
        local = Dictionary(grouping: read.filter { $0.detail == nil }, by: \.featureClass)
    }

    /// World features of a class (land, water, waterway, border), by id.
    func world(_ featureClass: FeatureClass) -> [MapStore.Feature] { world[featureClass] ?? [] }

    /// Street-data features and places of a class, by id; empty unless the class was read.
    func local(_ featureClass: FeatureClass) -> [MapStore.Feature] { local[featureClass] ?? [] }

    /// Street data of several classes, by id.
    func local(_ classes: [FeatureClass]) -> [MapStore.Feature] {
        classes.flatMap { local($0) }.sorted { $0.id < $1.id }
    }
}
