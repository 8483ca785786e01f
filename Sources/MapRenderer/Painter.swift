import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData

struct Painter {
    let canvas: Canvas
    let projection: Projection
    var report: MapRenderer.Report
    /// Where ground-overlay images are decoded and kept.
    let rasters: RasterCache

    /// Fills areas with `color`, each in one path: the pieces of an area (consecutive features
    /// of one id, ``MapStore/features(in:classes:details:limit:names:pieces:)``) together, so
    /// that they meet without a seam; areas apart, so that two which overlap both fill.
    mutating func fill(_ features: [MapStore.Feature], _ color: Color) {
        var index = features.startIndex
        while index < features.endIndex {
            let id = features[index].id
            var added = false
            while index < features.endIndex && features[index].id == id {
                if case .polygon(let rings) = features[index].geometry {
                    for ring in rings { addPath(ring, close: true) }
                    added = true
                }
                index += 1
            }
            guard added else { continue }
            canvas.fill(color)
            report.features[features[index - 1].featureClass, default: 0] += 1
        }
    }

    mutating func fill(_ feature: MapStore.Feature, _ color: Color, outline: Color? = nil) {
        guard case .polygon(let rings) = feature.geometry else { return }
        for ring in rings { addPath(ring, close: true) }
        canvas.fill(color, keepPath: outline != nil)
        // Mitred: half a point wide, a round corner does not show, and costs Cairo an arc at
        // every one.
        if let outline { canvas.stroke(outline, width: 0.5, join: .miter) }
        report.features[feature.featureClass, default: 0] += 1
    }

    /// Strokes a feature's lines or outline: round caps and joins, or, dashed, square-cut
    /// dashes (a round cap would grow each dash by the line's width and close the gaps of a
    /// thin path's dashes), bevelled.
    mutating func stroke(_ feature: MapStore.Feature, _ color: Color, width: Double, dash: [Double] = []) {
        guard addOutline(of: feature) else { return }
        if dash.isEmpty {
            canvas.stroke(color, width: width)
        } else {
            canvas.stroke(color, width: width, cap: .butt, join: .bevel, dash: dash)
        }
        report.features[feature.featureClass, default: 0] += 1
    }

    /// Adds a feature's lines, or its rings' outlines, to the current path; false for a point.
    func addOutline(of feature: MapStore.Feature) -> Bool {
        switch feature.geometry {
        case .line(let points): addPath(points, close: false)
        case .lines(let lines): for line in lines { addPath(line, close: false) }
        case .polygon(let rings): for ring in rings { addPath(ring, close: true) }
        case .point: return false
        }
        return true
    }

    /// Adds a line or ring, projected continuously and clipped (on the ground to what lies in
    /// front of the camera, then to the picture), to the canvas's current path.
    func addPath(_ coordinates: [Coordinate], close: Bool) {
        for piece in projection.clippedPoints(forPath: coordinates, closed: close) {
            addPath(points: piece, close: close)
        }
    }

    /// Adds projected points as a line or ring, clipped, to the canvas's current path; points
    /// without a screen position (behind the camera) are left out.
    func addPath(points projected: [Point], close: Bool) {
        let points =
            projected.allSatisfy { $0.x.isFinite && $0.y.isFinite }
            ? projected : projected.filter { $0.x.isFinite && $0.y.isFinite }
        // Far enough out that clipped edges and wide strokes never show.
        let box = ClipBox(width: canvas.width, height: canvas.height, margin: 256)
        for piece in close ? [box.clip(ring: points)] : box.clip(line: points) {
            guard let first = piece.first else { continue }
            canvas.move(x: first.x, y: first.y)
            for point in piece.dropFirst() { canvas.line(x: point.x, y: point.y) }
            if close { canvas.closePath() }
        }
    }
}

extension MapStore.Feature {
    /// The level a road is drawn on: its layer, at most -1 in a tunnel and at least 1 on a bridge.
    var drawingLevel: Int { isTunnel ? min(layer, -1) : isBridge ? max(layer, 1) : layer }
}
