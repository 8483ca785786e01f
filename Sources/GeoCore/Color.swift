/// A colour with straight (not premultiplied) alpha; every component 0...1. The map view's
/// background and overlay colours and the renderer's palette are all of this one type.
public struct Color: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Red, 0...1.
    public var red: Double
    /// Green, 0...1.
    public var green: Double
    /// Blue, 0...1.
    public var blue: Double
    /// Opacity, 0 (transparent) to 1 (opaque); default 1.
    public var alpha: Double

    /// A colour of these components, each 0...1; opaque unless `alpha` says otherwise.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A grey of brightness `white` (0...1).
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// A colour from `0xRRGGBB` and an opacity 0...1.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
            blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Fully transparent (black with alpha 0).
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// The same colour at another opacity, 0...1.
    public func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var description: String {
        func byte(_ value: Double) -> String {
            let text = String(Int((min(max(value, 0), 1) * 255).rounded()), radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }
}
