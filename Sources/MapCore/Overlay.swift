import GeoCore

/// A pin at a coordinate, drawn above every other overlay.
public struct Marker: Sendable, Equatable {
    /// Where the pin's ``groundAnchor`` sits.
    public var position: Coordinate
    /// The accessibility label and the info window title.
    public var title: String?
    /// The info window's second line; the accessibility value.
    public var snippet: String?
    /// Text drawn in the pin's head instead of its dot, as the SDK's pin glyph (a search
    /// result's number); nil for the dot.
    public var glyph: String?
    /// The pin's fill colour (its outline and dot a darker shade of it); nil for the default
    /// red, as the SDK's `markerImage(with:)` tints the pin.
    public var color: Color?
    /// Which point of the icon sits on the position, 0...1 in icon units; centre-bottom by default.
    public var groundAnchor = Point(x: 0.5, y: 1)
    /// Icon size in points (the default pin's).
    public var iconSize = Size(width: 27, height: 43)
    /// Drawing order among markers: higher is drawn above; 0 by default.
    public var zIndex = 0
    /// Opacity, 0 (invisible) to 1 (opaque, the default).
    public var opacity = 1.0
    /// Whether the icon lies flat on the ground (turning and tilting with the map) rather than facing the viewer; false by default.
    public var isFlat = false
    /// Degrees clockwise the icon is turned about its ground anchor; 0 by default.
    public var rotation = 0.0
    /// Whether a tap on the marker selects it; true by default.
    public var isTappable = true

    /// A default red pin at `position`, with a title and snippet for its info window and accessibility.
    public init(position: Coordinate, title: String? = nil, snippet: String? = nil) {
        self.position = position
        self.title = title
        self.snippet = snippet
    }
}

/// A line through coordinates; stroke width in points, not scaled by zoom.
public struct Polyline: Sendable, Equatable {
    /// The line's vertices, in order (two or more draw a line).
    public var path: [Coordinate]
    /// The accessibility label.
    public var title: String?
    /// Stroke width in points; 1 by default.
    public var strokeWidth = 1.0
    /// Stroke colour; opaque blue by default.
    public var strokeColor = Color(red: 0, green: 0, blue: 1)
    /// Per-segment colours; empty uses ``strokeColor``.
    public var spans: [StyleSpan] = []
    /// Dash and gap lengths in points, alternating (a walking route's dots); empty draws solid.
    public var pattern: [Double] = []
    /// Drawing order among lines and areas: higher is drawn above; 0 by default.
    public var zIndex = 0

    /// A 1-point blue line through `path`.
    public init(path: [Coordinate], title: String? = nil) {
        self.path = path
        self.title = title
    }
}

/// A filled area.
public struct Polygon: Sendable, Equatable {
    /// The outer ring's vertices, in order (closed implicitly).
    public var path: [Coordinate]
    /// Rings cut out of the area, each closed implicitly.
    public var holes: [[Coordinate]] = []
    /// The accessibility label.
    public var title: String?
    /// Outline width in points; 1 by default.
    public var strokeWidth = 1.0
    /// Outline colour; nil (the default) draws none.
    public var strokeColor: Color?
    /// Fill colour; opaque blue by default, nil for none.
    public var fillColor: Color? = Color(red: 0, green: 0, blue: 1)
    /// Drawing order among lines and areas: higher is drawn above; 0 by default.
    public var zIndex = 0

    /// A blue area inside `path`, without outline.
    public init(path: [Coordinate], title: String? = nil) {
        self.path = path
        self.title = title
    }
}

/// A circle of `radius` metres around `center`; no fill and a 1-point black stroke by default.
public struct Circle: Sendable, Equatable {
    /// The circle's centre.
    public var center: Coordinate
    /// Metres; must be positive.
    public var radius: Double
    /// The accessibility label.
    public var title: String?
    /// Outline width in points; 1 by default.
    public var strokeWidth = 1.0
    /// Outline colour; black by default, nil for none.
    public var strokeColor: Color? = Color(white: 0)
    /// Fill colour; nil (the default) for none.
    public var fillColor: Color?
    /// Drawing order among lines and areas: higher is drawn above; 0 by default.
    public var zIndex = 0

    /// A circle of `radius` metres (above 0) around `center`.
    public init(center: Coordinate, radius: Double, title: String? = nil) {
        precondition(radius > 0 && radius.isFinite, "a circle's radius must be positive")
        self.center = center
        self.radius = radius
        self.title = title
    }
}

/// An overlay on a map view.
public enum Overlay: Sendable, Equatable {
    case marker(Marker)
    case polyline(Polyline)
    case polygon(Polygon)
    case circle(Circle)
    case groundOverlay(GroundOverlay)

    /// Markers are always above every other overlay; then higher zIndex on top.
    var drawOrder: (Int, Int) {
        switch self {
        case .marker(let marker): return (1, marker.zIndex)
        case .polyline(let polyline): return (0, polyline.zIndex)
        case .polygon(let polygon): return (0, polygon.zIndex)
        case .circle(let circle): return (0, circle.zIndex)
        case .groundOverlay(let ground): return (0, ground.zIndex)
        }
    }

    var title: String? {
        switch self {
        case .marker(let marker): return marker.title
        case .polyline(let polyline): return polyline.title
        case .polygon(let polygon): return polygon.title
        case .circle(let circle): return circle.title
        case .groundOverlay: return nil
        }
    }
}

/// An accessibility element the map exposes for an overlay.
public struct AccessibilityElement: Sendable, Equatable {
    /// The overlay's title.
    public var label: String
    /// A marker's snippet.
    public var value: String?
    /// Where the overlay is drawn, points.
    public var frame: Rect
}

/// An image laid on the ground over `bounds`; nothing shows without an icon.
public struct GroundOverlay: Sendable, Equatable {
    /// The ground the image covers.
    public var bounds: CoordinateBounds
    /// The image's name in the host's image store; nil draws nothing.
    public var icon: String?
    /// Which point of the image is ``position``, 0...1; the centre by default.
    public var anchor = Point(x: 0.5, y: 0.5)
    /// Opacity, 0 (invisible) to 1 (opaque, the default).
    public var opacity = 1.0
    /// Clockwise degrees.
    public var bearing = 0.0
    /// Drawing order among ground overlays: higher is drawn above; 0 by default.
    public var zIndex = 0

    /// The image named `icon` stretched over `bounds`.
    public init(bounds: CoordinateBounds, icon: String?) {
        self.bounds = bounds
        self.icon = icon
    }

    /// The point of the bounds at ``anchor``; follows changes of bounds and anchor.
    public var position: Coordinate {
        guard let southWest = bounds.southWest, let northEast = bounds.northEast else {
            return Coordinate(latitude: 0, longitude: 0)
        }
        return Coordinate(
            latitude: northEast.latitude - anchor.y * (northEast.latitude - southWest.latitude),
            longitude: CameraPosition.wrapLongitude(southWest.longitude + anchor.x * bounds.longitudeSpan))
    }
}

/// Colours for a run of polyline segments.
public struct StyleSpan: Sendable, Equatable {
    /// The colour of the span's segments.
    public var color: Color
    /// How many segments the span covers.
    public var segments: Int

    /// A span of `color` over `segments` segments (1 or more).
    public init(color: Color, segments: Int = 1) {
        self.color = color
        self.segments = segments
    }
}

extension Polyline {
    /// The colour of segment `index`: the span covering it, the last span past the end of
    /// the spans, the stroke colour without spans.
    public func color(ofSegment index: Int) -> Color {
        var covered = 0
        for span in spans {
            covered += span.segments
            if index < covered { return span.color }
        }
        return spans.last?.color ?? strokeColor
    }
}

/// Raster tiles from a source, drawn over the base map and under every overlay.
public struct TileLayer: Sendable, Equatable {
    /// The tile source's name (a URL template or a layer id of the host).
    public var source: String
    /// Tile side in pixels; 256 by default.
    public var tileSize = 256
    /// Whether new tiles fade in; true by default.
    public var fadeIn = true
    /// Opacity, 0 (invisible) to 1 (opaque, the default).
    public var opacity = 1.0
    /// Drawing order among tile layers: higher is drawn above; 0 by default.
    public var zIndex = 0

    /// A layer of 256-pixel tiles from `source`.
    public init(source: String) { self.source = source }
}
