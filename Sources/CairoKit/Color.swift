import GeoCore

/// One pixel of an image canvas, 8 bits a channel, straight alpha.
public struct Pixel: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) to 255 (opaque), not premultiplied.
    public var alpha: UInt8

    /// A pixel of these channels; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The largest difference of any channel from `other`, 0...255.
    public func distance(to other: Pixel) -> Int {
        [
            abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)), abs(Int(blue) - Int(other.blue)),
            abs(Int(alpha) - Int(other.alpha)),
        ].max()!
    }

    public var description: String { "rgba(\(red),\(green),\(blue),\(alpha))" }
}

extension Pixel {
    /// The 8-bit pixel nearest `color` (each channel rounded), straight alpha.
    public init(_ color: Color) {
        func byte(_ value: Double) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }
        self.init(red: byte(color.red), green: byte(color.green), blue: byte(color.blue), alpha: byte(color.alpha))
    }
}
