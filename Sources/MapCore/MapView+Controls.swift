/// Where a map view's controls sit, in points; nil for a control that is not shown.
public struct ControlLayout: Sendable, Equatable, Codable {
    /// Top-right; only when enabled and the bearing is not 0.
    public var compass: Rect?
    /// Bottom-right, above the attribution; only when the button and My Location are both on.
    public var myLocationButton: Rect?
    /// Above the My Location button; only when enabled.
    public var zoomButtons: Rect?
    /// Above the zoom buttons; only when enabled and a building with indoor data is in focus.
    public var floorPicker: Rect?
    /// Bottom-left, always laid out (it may not be hidden).
    public var logo: Rect
    /// Bottom-right, always laid out.
    public var attribution: Rect
}

extension MapView {
    /// Accessibility identifier of the compass (`kGMSAccessibilityCompass`).
    public static let accessibilityCompass = "GMSAccessibilityCompass"
    /// Accessibility identifier of the My Location button (`kGMSAccessibilityMyLocation`).
    public static let accessibilityMyLocation = "GMSAccessibilityMyLocation"

    /// Distance from the control frame to each control, points.
    public static let controlMargin = 8.0
    /// Control sizes in points (Google publishes none; chosen to match the SDK's look).
    public static let compassSize = Size(width: 40, height: 40)
    /// The My Location button.
    public static let myLocationButtonSize = Size(width: 44, height: 44)
    /// The zoom in/out buttons, one above the other.
    public static let zoomButtonsSize = Size(width: 44, height: 88)
    /// The floor picker.
    public static let floorPickerSize = Size(width: 44, height: 132)
    /// The data credit's logo.
    public static let logoSize = Size(width: 66, height: 26)
    /// The attribution line.
    public static let attributionSize = Size(width: 160, height: 16)

    /// The controls laid out inside the control frame: the view inset by the effective padding
    /// (never negative), each 8 points from its edges.
    public var controlLayout: ControlLayout {
        let inset = effectivePadding
        let margin = Self.controlMargin
        let left = inset.left + margin
        let right = frame.size.width - inset.right - margin
        let top = inset.top + margin
        var bottom = frame.size.height - inset.bottom - margin

        func stacked(_ size: Size) -> Rect {
            let rect = Rect(x: right - size.width, y: bottom - size.height, width: size.width, height: size.height)
            bottom = rect.origin.y - margin
            return rect
        }

        let attribution = stacked(Self.attributionSize)
        let logoSize = Self.logoSize
        let logo = Rect(
            x: left, y: frame.size.height - inset.bottom - margin - logoSize.height, width: logoSize.width,
            height: logoSize.height)
        let compass: Rect? =
            settings.compassButton && camera.bearing != 0
            ? Rect(
                x: right - Self.compassSize.width, y: top, width: Self.compassSize.width,
                height: Self.compassSize.height) : nil
        let myLocation = settings.myLocationButton && isMyLocationEnabled ? stacked(Self.myLocationButtonSize) : nil
        let zoom = settings.zoomButtons ? stacked(Self.zoomButtonsSize) : nil
        let floors =
            settings.indoorPicker && activeBuilding != nil
            ? stacked(Self.floorPickerSize) : nil
        return ControlLayout(
            compass: compass, myLocationButton: myLocation, zoomButtons: zoom, floorPicker: floors, logo: logo,
            attribution: attribution)
    }
}
