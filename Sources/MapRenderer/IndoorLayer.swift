import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

extension MapRenderer {
    /// The classes whose features carry OSM `level`s.
    static let leveledClasses: [FeatureClass] = [.indoor, .poi, .transit]

    /// The floors of what is in view, as the floor picker lists them (top floor first), with
    /// ground level (0), or else the lowest floor above ground, as the default; nil when no
    /// feature in view has a level. OSM `level` values may list several floors ("0;1").
    public func indoorBuilding(in view: MapView) throws -> IndoorBuilding? {
        let bounds = Self.bounds(
            of: view.projection.visibleRegion, viewWidth: view.frame.size.width, zoom: view.camera.zoom)
        return Self.floors(of: try store.features(in: bounds, classes: Self.leveledClasses))
    }

    /// The floors `features` are on, as ``indoorBuilding(in:)`` lists them.
    static func floors(of features: [MapStore.Feature]) -> IndoorBuilding? {
        let names = Set(features.flatMap { $0.levelNames })
        let levels = names.compactMap { name in Double(name).map { (name, $0) } }.sorted { $0.1 > $1.1 }
        guard !levels.isEmpty else { return nil }
        let ground = levels.firstIndex { $0.1 == 0 } ?? levels.lastIndex { $0.1 > 0 } ?? 0
        return IndoorBuilding(
            id: "levels in view", levels: levels.map { IndoorLevel(name: $0.0, shortName: $0.0) },
            defaultLevelIndex: ground, isUnderground: levels.allSatisfy { $0.1 < 0 })
    }

    /// The indoor layer: rooms, areas and corridors of `level` filled, walls drawn.
    func drawIndoor(_ painter: inout Painter, scene: Scene, level: String, palette: MapPalette) {
        let features = scene.local(.indoor).filter { $0.levelNames.contains(level) }
        for feature in features where feature.geometry.isArea && feature.kind != "wall" {
            painter.fill(feature, palette.indoorRoom, outline: palette.indoorWall)
        }
        for feature in features where !feature.geometry.isArea || feature.kind == "wall" {
            painter.stroke(feature, palette.indoorWall, width: 1.5)
        }
    }
}

extension MapStore.Feature {
    /// The floors the feature is on: its `level` split at semicolons; empty without one.
    var levelNames: [String] {
        (level ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
