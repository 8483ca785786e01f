import Foundation
import GeoCore

/// A line's own colour as the data writes it: OSM `colour` (`#RRGGBB`, `#RGB` or a CSS colour
/// name) and GTFS `route_color` (`RRGGBB` without `#`), stored as `#rrggbb`.
public enum FeatureColour {
    /// The CSS basic colour names OSM mappers use for lines, with their values.
    static let names: [String: UInt32] = [
        "black": 0x000000, "white": 0xFFFFFF, "red": 0xFF0000, "green": 0x008000, "blue": 0x0000FF,
        "yellow": 0xFFFF00, "orange": 0xFFA500, "purple": 0x800080, "brown": 0xA52A2A, "grey": 0x808080,
        "gray": 0x808080, "pink": 0xFFC0CB, "lime": 0x00FF00, "navy": 0x000080, "maroon": 0x800000,
        "olive": 0x808000, "teal": 0x008080, "aqua": 0x00FFFF, "cyan": 0x00FFFF, "magenta": 0xFF00FF,
        "fuchsia": 0xFF00FF, "silver": 0xC0C0C0, "gold": 0xFFD700, "darkgreen": 0x006400, "darkblue": 0x00008B,
        "lightblue": 0xADD8E6, "skyblue": 0x87CEEB, "violet": 0xEE82EE,
    ]

    /// `#rrggbb` for a written colour, or nil when it is not one.
    public static func normalized(_ written: String) -> String? {
        let text = written.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = names[text] { return hex(named) }
        var digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        return hex(value)
    }

    /// The colour of a stored `#rrggbb`.
    public static func color(stored: String) -> Color? {
        guard stored.count == 7, stored.hasPrefix("#"), let value = UInt32(stored.dropFirst(), radix: 16) else {
            return nil
        }
        return Color(hex: value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
