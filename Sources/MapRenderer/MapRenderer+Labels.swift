import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

/// Where the labels go: place names, park and water names, transit stops, street names along
/// their streets and POIs with their icons, each clear of the others and of the controls.
extension MapRenderer {
    /// Place names, biggest first, each only where it overlaps no earlier one.
    func placeNames(_ placer: inout LabelPlacer, scene: Scene, zoom: Double, projection: Projection) {
        let minimumPopulation = ZoomRules.placePopulation(zoom: zoom)
        // Countries label the map up to zoom 6, then give way to cities; the extract's own
        // places (suburbs, quarters) join from zoom 11.
        let places = scene.local(.place).filter {
            $0.name != nil && ($0.population ?? 0) >= minimumPopulation
                && ($0.kind == "country"
                    ? zoom < ZoomRules.countryNamesBelow : zoom >= ZoomRules.streetData || $0.osmType == nil)
        }.sorted {
            // From zoom 5, cities come first and countries fill the gaps (a country's point is
            // its capital, which would otherwise lose its own name).
            let first = zoom >= 5 && $0.kind == "country" ? 0 : 1
            let second = zoom >= 5 && $1.kind == "country" ? 0 : 1
            return (first, $0.population ?? 0, $0.id) > (second, $1.population ?? 0, $1.id)
        }
        for place in places {
            // One label a name: the gazetteer's city and the extract's place are the same town.
            guard case .point(let coordinate) = place.geometry, let name = place.name, !placer.placed.contains(name)
            else { continue }
            let large = (place.population ?? 0) > LabelKind.largePlacePopulation
            placer.place(
                name, centredAt: projection.point(for: coordinate),
                look: LabelLook(.place(large: large), palette: placer.palette))
        }
    }

    /// Names of parks and waters, in italics of their own colour, from zoom 15, at their
    /// ``Geometry/anchor``: only areas at least as wide on the picture as their name (about
    /// 5.5 points a character), the widest first.
    func placeAreaNames(_ placer: inout LabelPlacer, scene: Scene, zoom: Double, projection: Projection) {
        guard zoom >= ZoomRules.areaNames else { return }
        let areas = (scene.local(.park) + scene.local(.water)).compactMap { feature -> (MapStore.Feature, Double)? in
            guard let name = feature.name, case .polygon(let rings) = feature.geometry, let outer = rings.first else {
                return nil
            }
            let xs = projection.points(forPath: outer).map(\.x).filter(\.isFinite)
            guard let left = xs.min(), let right = xs.max(), right - left >= Double(name.count) * 5.5 else {
                return nil
            }
            return (feature, right - left)
        }.sorted { ($0.1, $1.0.id) > ($1.1, $0.0.id) }
        for (feature, _) in areas {
            guard let anchor = feature.geometry.anchor, let name = feature.name else { continue }
            let kind: LabelKind = feature.featureClass == .park ? .park : .water
            placer.place(name, centredAt: projection.point(for: anchor), look: LabelLook(kind, palette: placer.palette))
        }
    }

    /// Street names along their streets: major roads from zoom 14, streets from 15, lanes,
    /// squares and named paths from 16; longer streets first within a class.
    func placeStreetNames(
        _ placer: inout LabelPlacer, roads: [(MapStore.Feature, RoadStyle)], zoom: Double, projection: Projection
    ) {
        let box = ClipBox(width: placer.canvas.width, height: placer.canvas.height, margin: 0)
        // A street is usually many short ways: pieces of one name and rank are joined end to end.
        var pieces: [String: (rank: Int, lines: [[Point]])] = [:]
        for (feature, style) in roads {
            guard let name = feature.name, !feature.geometry.isArea, !feature.isTunnel,
                zoom >= ZoomRules.roadName(feature.kind)
            else { continue }
            let lines: [[Point]]
            switch feature.geometry {
            case .line(let points): lines = box.clip(line: projection.points(forPath: points))
            case .lines(let parts): lines = parts.flatMap { box.clip(line: projection.points(forPath: $0)) }
            default: lines = []
            }
            pieces[name, default: (style.rank, [])].rank = max(pieces[name]?.rank ?? 0, style.rank)
            pieces[name, default: (style.rank, [])].lines += lines
        }
        let named = pieces.flatMap { name, entry in
            LineMerger.merge(entry.lines).map { line in
                (name: name, rank: entry.rank, line: line, length: MeasuredPath(line.map { (x: $0.x, y: $0.y) }).length)
            }
        }.sorted { ($0.rank, $0.length, $0.name) > ($1.rank, $1.length, $1.name) }
        for road in named {
            placer.place(
                road.name, along: road.line,
                look: LabelLook(.street(major: road.rank >= RoadStyle.majorNameRank), palette: placer.palette))
        }
    }

    /// The label kind of a street of OSM `highway` kind `kind`: major (in the larger size) for
    /// secondary roads and above and their links.
    public static func streetNameKind(_ kind: String) -> LabelKind {
        .street(major: (RoadStyle(kind: kind)?.rank ?? 0) >= RoadStyle.majorNameRank)
    }

    /// Named points of interest with a category icon, in ``POICategory`` order and from its
    /// zoom (sights and lodging from 16, food, shops and health from 17, the rest from 18).
    /// With indoor maps on (`floor` set), POIs on other floors are left out.
    func placePOIs(
        _ placer: inout LabelPlacer, scene: Scene, zoom: Double, projection: Projection, floor: String?
    ) {
        let pois = scene.local(.poi).compactMap {
            feature -> (MapStore.Feature, POICategory)? in
            guard feature.name != nil, let category = POICategory(kind: feature.kind),
                zoom >= category.minZoom
            else { return nil }
            if let floor, !feature.levelNames.isEmpty, !feature.levelNames.contains(floor) { return nil }
            return (feature, category)
        }.sorted { ($0.1.rawValue, $0.0.id) < ($1.1.rawValue, $1.0.id) }
        for (feature, category) in pois {
            guard let anchor = feature.geometry.anchor, let name = feature.name else { continue }
            placer.placeIcon(
                name, at: projection.point(for: anchor), look: LabelLook(.poi(category), palette: placer.palette))
        }
    }

    /// The summits in view (`natural=peak` and `volcano`) on the terrain map, highest first
    /// (those without a height last), each as "name height m" beside its icon: the height
    /// from its `ele` tag (metres), the name alone where it has none, the height alone where
    /// it has no name.
    func placePeaks(_ placer: inout LabelPlacer, bounds: CoordinateBounds, projection: Projection) throws {
        let kinds = FeatureClassifier.peaks.map { "natural=\($0)" }.sorted()
        let summits = try store.taggedFeatures(in: bounds, classes: [.poi], kinds: kinds).compactMap {
            summit -> (text: String, at: Coordinate, metres: Double)? in
            guard let anchor = summit.feature.geometry.anchor else { return nil }
            let metres = summit.tags["ele"].flatMap(FeatureClassifier.metres(ofElevation:))
            let height = metres.map { "\(Int($0.rounded())) m" }
            let name = summit.feature.name
            let text = [name, height].compactMap { $0 }.joined(separator: " ")
            guard !text.isEmpty else { return nil }
            return (text, anchor, metres ?? -.infinity)
        }
        for summit in summits.sorted(by: { ($0.metres, $1.text) > ($1.metres, $0.text) }).prefix(40) {
            placer.placeIcon(
                summit.text, at: projection.point(for: summit.at), look: LabelLook(.peak, palette: placer.palette))
        }
    }

    /// The frames of the controls drawn over the map, which labels keep clear of; the
    /// attribution's text may be wider than its frame, so the whole row from the logo to the
    /// attribution's right edge is kept.
    static func reservedBoxes(_ layout: ControlLayout) -> [TextLayout.Box] {
        let bottomRow = Rect(
            x: layout.logo.origin.x, y: layout.attribution.origin.y,
            width: layout.attribution.origin.x + layout.attribution.size.width - layout.logo.origin.x,
            height: layout.attribution.size.height)
        return [
            layout.compass, layout.myLocationButton, layout.zoomButtons, layout.floorPicker, layout.logo, bottomRow,
        ]
        .compactMap { $0 }.map {
            TextLayout.Box(x: $0.origin.x, y: $0.origin.y, width: $0.size.width, height: $0.size.height)
        }
    }

}
