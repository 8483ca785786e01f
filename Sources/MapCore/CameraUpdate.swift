import Foundation
import GeoCore

/// A change to a map's camera, applied with ``MapView/moveCamera(_:)``. Every result passes
/// through the camera's clamping, the map's zoom limits and its target bounds.
public enum CameraUpdate: Sendable, Equatable {
    /// Zoom +1.
    case zoomIn
    /// Zoom −1.
    case zoomOut
    /// Zoom by `delta` levels.
    case zoomBy(Double)
    /// Zoom by `delta` levels keeping the coordinate under `point` where it is on screen.
    case zoomByAt(Double, Point)
    /// Zoom to `zoom`.
    case zoomTo(Double)
    /// Move the target, keeping zoom, bearing and tilt.
    case setTarget(Coordinate)
    /// Move the target and zoom.
    case setTargetZoom(Coordinate, Double)
    /// Replace the camera.
    case setCamera(CameraPosition)
    /// Shift the view by points: x grows to the right, y grows down.
    case scrollBy(x: Double, y: Double)
    /// Fit bounds inside the padded region less `insets` (64 points on every edge by default),
    /// with bearing 0 and tilt 0.
    case fitBounds(CoordinateBounds, insets: EdgeInsets)

    /// False when any number in the update is NaN or infinite.
    var isFinite: Bool {
        func finite(_ coordinate: Coordinate) -> Bool { coordinate.latitude.isFinite && coordinate.longitude.isFinite }
        switch self {
        case .zoomIn, .zoomOut, .setCamera: return true
        case .zoomBy(let delta), .zoomTo(let delta): return delta.isFinite
        case .zoomByAt(let delta, let point): return delta.isFinite && point.x.isFinite && point.y.isFinite
        case .setTarget(let target): return finite(target)
        case .setTargetZoom(let target, let zoom): return finite(target) && zoom.isFinite
        case .scrollBy(let x, let y): return x.isFinite && y.isFinite
        case .fitBounds(let bounds, let insets):
            return [bounds.southWest, bounds.northEast].allSatisfy { $0.map(finite) ?? true }
                && [insets.top, insets.left, insets.bottom, insets.right].allSatisfy(\.isFinite)
        }
    }

    /// `fitBounds` with the SDK's default 64-point insets.
    public static func fit(_ bounds: CoordinateBounds) -> CameraUpdate {
        .fitBounds(bounds, insets: EdgeInsets(top: 64, left: 64, bottom: 64, right: 64))
    }
}
