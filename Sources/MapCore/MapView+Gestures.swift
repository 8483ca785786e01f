import Foundation

/// Headless user gestures. Each is ignored when its setting is off (programmatic camera
/// changes are not); every result is clamped like any camera change.
extension MapView {
    /// A one-finger drag by (dx, dy) points: the ground follows the finger.
    ///
    /// - Returns: false when scroll gestures are off.
    @discardableResult
    public func pan(byX dx: Double, y dy: Double) -> Bool {
        guard settings.scrollGestures else { return false }
        asGesture { moveCamera(.scrollBy(x: -dx, y: -dy)) }
        return true
    }

    /// A pinch of `scale` (2 doubles the map) around `point`; zoom changes by log2(scale).
    /// Anchored on the principal point when scrolling during zoom is not allowed.
    @discardableResult
    public func pinch(scale: Double, at point: Point) -> Bool {
        guard settings.zoomGestures, scale > 0, scale.isFinite else { return false }
        let anchor = settings.allowScrollGesturesDuringRotateOrZoom ? point : projection.principalPoint
        asGesture { moveCamera(.zoomByAt(log2(scale), anchor)) }
        return true
    }

    /// A double tap: zoom +1 at the tapped point.
    @discardableResult
    public func doubleTap(at point: Point) -> Bool { pinch(scale: 2, at: point) }

    /// A two-finger tap: zoom −1 around the principal point.
    @discardableResult
    public func twoFingerTap() -> Bool { pinch(scale: 0.5, at: projection.principalPoint) }

    /// A two-finger rotation by `degrees` (clockwise turns the map clockwise, so the bearing falls).
    @discardableResult
    public func rotate(by degrees: Double) -> Bool {
        guard settings.rotateGestures, degrees.isFinite else { return false }
        let current = camera
        asGesture {
            camera = CameraPosition(
                target: current.target, zoom: current.zoom, bearing: current.bearing - degrees,
                viewingAngle: current.viewingAngle)
        }
        return true
    }

    /// A two-finger vertical drag of `translation` points (up is negative): tilt changes by
    /// −translation / 2 degrees, clamped to the zoom's ceiling.
    @discardableResult
    public func tilt(byVerticalTranslation translation: Double) -> Bool {
        guard settings.tiltGestures, translation.isFinite else { return false }
        let current = camera
        asGesture {
            camera = CameraPosition(
                target: current.target, zoom: current.zoom, bearing: current.bearing,
                viewingAngle: current.viewingAngle - translation / 2)
        }
        return true
    }

    private func asGesture(_ move: () -> Void) {
        isGestureInProgress = true
        defer { isGestureInProgress = false }
        move()
    }
}
