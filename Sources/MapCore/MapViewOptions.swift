import GeoCore

/// The named colours of UIKit the map view's API uses.
extension Color {
    /// UIKit's `lightGray`: white 2/3 (not CSS "lightgray").
    public static let lightGray = Color(white: 2.0 / 3.0)
    /// The default background of the dark scheme (Google publishes no value).
    public static let darkGray = Color(white: 0.2)
    /// UIKit's `yellow`.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
}

/// The options a map view is created with; copied at creation, so later changes to an
/// options value do not reach a map that already exists.
public struct MapViewOptions: Sendable, Equatable {
    /// The view's frame in points; `.zero` by default.
    public var frame: Rect = .zero
    /// The starting camera; nil gives target (0, 0) at the smallest zoom.
    public var camera: CameraPosition?
    /// A cloud style id; nil by default.
    public var mapID: String?
    /// Shown where no tiles are drawn; UIKit's `lightGray` by default (a dark grey in the
    /// dark scheme, unless set explicitly).
    public var backgroundColor: Color {
        get { explicitBackgroundColor ?? .lightGray }
        set { explicitBackgroundColor = newValue }
    }
    /// The background colour when it was set explicitly; an explicit colour beats the
    /// scheme's default.
    public private(set) var explicitBackgroundColor: Color?

    /// Options with nothing set: the view's defaults throughout.
    public init() {}
}
