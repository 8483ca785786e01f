import GeoCore

/// An RGBA colour, each component 0...1.
public struct Color: Sendable, Hashable, Codable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A grey of brightness `white` (0...1).
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

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

    public init() {}
}
