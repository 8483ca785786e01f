/// A point in a view, in points; the origin is the top-left corner, y grows down.
public struct Point: Sendable, Hashable, Codable {
    /// Points from the left edge.
    public var x: Double
    /// Points from the top edge, growing down.
    public var y: Double
    /// The point (`x`, `y`), points.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    /// The top-left corner.
    public static let zero = Point(x: 0, y: 0)
}

/// A size in points.
public struct Size: Sendable, Hashable, Codable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double
    /// A size of `width` by `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// No size.
    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle in points (the map's `frame`); the default is `.zero`, like `CGRectZero`.
public struct Rect: Sendable, Hashable, Codable {
    /// The top-left corner.
    public var origin: Point
    /// Width and height.
    public var size: Size
    /// A rectangle at (`x`, `y`) of `width` by `height` points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }
    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
}

/// Insets from each edge of a view, in points, in UIKit's order: top, left, bottom, right.
public struct EdgeInsets: Sendable, Hashable, Codable {
    /// Points in from the top edge.
    public var top: Double
    /// Points in from the left edge.
    public var left: Double
    /// Points in from the bottom edge.
    public var bottom: Double
    /// Points in from the right edge.
    public var right: Double

    /// Insets of these points from each edge.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No insets.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    /// Edge-by-edge sum.
    public static func + (lhs: EdgeInsets, rhs: EdgeInsets) -> EdgeInsets {
        EdgeInsets(
            top: lhs.top + rhs.top, left: lhs.left + rhs.left, bottom: lhs.bottom + rhs.bottom,
            right: lhs.right + rhs.right)
    }

    /// Each edge at least zero (negative padding never pushes content out of the view).
    public var clampedToZero: EdgeInsets {
        EdgeInsets(top: max(0, top), left: max(0, left), bottom: max(0, bottom), right: max(0, right))
    }
}
