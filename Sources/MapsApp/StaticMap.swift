import CairoKit
import GeoCore
import MapCore
import PlaceSearch

/// A picture asked for with the Google Static Maps API's parameters: `center` (LAT,LNG or a
/// place's text), `zoom`, `size` (WIDTHxHEIGHT points, at most 640 × 640), `scale` (1 or 2),
/// `maptype` (roadmap, satellite, hybrid, terrain), `markers`, `path`, `visible`, `language`.
/// Without `center` or `zoom` the camera fits the markers, paths and visible places.
public struct StaticMapRequest: Sendable, Equatable {
    /// Where a marker, a path's point or the centre lies: a coordinate or a place's text,
    /// found like a search (its best result).
    public enum Location: Sendable, Equatable {
        case coordinate(Coordinate)
        case text(String)
    }

    /// A group of markers sharing one style.
    public struct MarkerGroup: Sendable, Equatable {
        /// The pins' colour; nil for the default red.
        public var color: Color?
        /// One upper-case letter or digit drawn in the pins; nil for the dot.
        public var label: String?
        /// `tiny`, `small` or `mid` (the default, the full pin).
        public var size = "mid"
        /// Where the pins go, in order.
        public var locations: [Location] = []
    }

    /// A line (or, with a fill colour, an area) through locations.
    public struct Path: Sendable, Equatable {
        /// Points wide; 5 by default.
        public var weight = 5.0
        /// Blue at half opacity by default (Google's `0x0000FF80`).
        public var color = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        /// The area's fill; nil for a line.
        public var fillColor: Color?
        /// The line's points, in order (an area's outline).
        public var locations: [Location] = []
    }

    /// The picture's centre; nil fits what is drawn.
    public var center: Location?
    /// 0...21; nil fits what is drawn.
    public var zoom: Int?
    /// The picture's size in points.
    public var size: Size
    /// Pixels per point, 1 or 2.
    public var scale = 1
    /// Normal (the default), satellite, hybrid or terrain.
    public var mapType: MapType = .normal
    /// The pins, by group of one style.
    public var markers: [MarkerGroup] = []
    /// The lines and areas drawn.
    public var paths: [Path] = []
    /// Places that must be in view.
    public var visible: [Location] = []
    /// The language of the map's words and place names; nil for English and local names.
    public var language: Language?

    /// The widest and tallest picture: 640 points.
    public static let maxSize = 640
    /// The most markers in one picture, over every group: 100.
    public static let maxMarkers = 100
    /// The most points over every path (an encoded polyline counts each of its points): 2,000.
    public static let maxPathPoints = 2_000
    /// The most paths: 20.
    public static let maxPaths = 20
    /// The most locations given as text (each one a search): 10.
    public static let maxPlaceLookups = 10

    /// A map of `size` points, everything else as the defaults say.
    public init(size: Size) { self.size = size }

    /// Reads the parameters, as a query's items in order (`markers` and `path` may repeat).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the parameter at fault and the
    ///   limit it passes.
    public init(parameters: [(name: String, value: String)]) throws(AppError) {
        var size: Size?
        var request = StaticMapRequest(size: Size(width: 0, height: 0))
        for (name, value) in parameters {
            switch name {
            case "center": request.center = try Self.location(value, parameter: name)
            case "zoom":
                guard let zoom = Int(value), (0...21).contains(zoom) else {
                    throw .invalidOption(name, message: "must be a whole number 0 to 21, not '\(value)'")
                }
                request.zoom = zoom
            case "size": size = try Self.size(value)
            case "scale":
                guard let scale = Int(value), (1...2).contains(scale) else {
                    throw .invalidOption(name, message: "must be 1 or 2, not '\(value)'")
                }
                request.scale = scale
            case "maptype":
                guard let type = Self.mapTypes[value] else {
                    throw .invalidOption(
                        name, message: "must be roadmap, satellite, hybrid or terrain, not '\(value)'")
                }
                request.mapType = type
            case "format":
                guard ["png", "png8", "png32"].contains(value) else {
                    throw .invalidOption(name, message: "must be png, png8 or png32 (OpenMaps draws PNG)")
                }
            case "language": request.language = Language(tag: value)
            case "markers": request.markers.append(try Self.markerGroup(value))
            case "path": request.paths.append(try Self.path(value))
            case "visible":
                request.visible += try value.split(separator: "|").map { part throws(AppError) in
                    try Self.location(String(part), parameter: name)
                }
            default: continue  // key, signature, map_id, style: nothing to draw differently.
            }
        }
        guard let size else { throw .invalidOption("size", message: "is required: WIDTHxHEIGHT, e.g. 600x400") }
        request.size = size
        try request.checkLimits()
        self = request
    }

    /// The requests' counts against the limits.
    func checkLimits() throws(AppError) {
        let markerCount = markers.reduce(0) { $0 + $1.locations.count }
        guard markerCount <= Self.maxMarkers else {
            throw .invalidOption("markers", message: "give \(markerCount) places; at most \(Self.maxMarkers)")
        }
        guard paths.count <= Self.maxPaths else {
            throw .invalidOption("path", message: "is given \(paths.count) times; at most \(Self.maxPaths)")
        }
        let pointCount = paths.reduce(0) { $0 + $1.locations.count }
        guard pointCount <= Self.maxPathPoints else {
            throw .invalidOption("path", message: "has \(pointCount) points; at most \(Self.maxPathPoints)")
        }
        let all = markers.flatMap(\.locations) + paths.flatMap(\.locations) + visible + [center].compactMap { $0 }
        let lookups = all.filter { if case .text = $0 { true } else { false } }.count
        guard lookups <= Self.maxPlaceLookups else {
            throw .invalidOption(
                "markers",
                message: "and the other parameters name \(lookups) places by text; at most \(Self.maxPlaceLookups)")
        }
        guard center != nil || !all.isEmpty else {
            throw .invalidOption(
                "center", message: "is required (with zoom) when no markers, path or visible are given")
        }
    }

    static let mapTypes: [String: MapType] = [
        "roadmap": .normal, "satellite": .satellite, "hybrid": .hybrid, "terrain": .terrain,
    ]

    /// Google's named colours.
    static let namedColors: [String: UInt32] = [
        "black": 0x000000, "brown": 0xA52A2A, "green": 0x00FF00, "purple": 0x800080, "yellow": 0xFFFF00,
        "blue": 0x0000FF, "gray": 0x808080, "orange": 0xFFA500, "red": 0xFF0000, "white": 0xFFFFFF,
    ]

    /// `WIDTHxHEIGHT`, each 1...``maxSize``.
    static func size(_ value: String) throws(AppError) -> Size {
        let parts = value.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw .invalidOption("size", message: "must be WIDTHxHEIGHT in points, e.g. 600x400, not '\(value)'")
        }
        guard (1...maxSize).contains(width), (1...maxSize).contains(height) else {
            throw .invalidOption("size", message: "must be at most \(maxSize)x\(maxSize), not '\(value)'")
        }
        return Size(width: Double(width), height: Double(height))
    }

    /// A colour as Google writes it: a name, `0xRRGGBB` or `0xRRGGBBAA`.
    static func color(_ value: String, parameter: String) throws(AppError) -> Color {
        let text = value.lowercased()
        if let rgb = namedColors[text] { return Color(hex: rgb) }
        let digits = text.hasPrefix("0x") ? String(text.dropFirst(2)) : ""
        guard digits.count == 6 || digits.count == 8, let number = UInt32(digits, radix: 16) else {
            throw .invalidOption(
                parameter, message: "colour must be a name or 0xRRGGBB or 0xRRGGBBAA, not '\(value)'")
        }
        let rgb = digits.count == 8 ? number >> 8 : number
        let alpha = digits.count == 8 ? Double(number & 0xFF) / 255 : 1
        return Color(hex: rgb, alpha: alpha)
    }

    /// `LAT,LNG` (in range) or, when it is not a pair of numbers, a place's text.
    static func location(_ value: String, parameter: String) throws(AppError) -> Location {
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let lat = DecimalText.parse(parts[0].trimmingSpaces()),
            let lng = DecimalText.parse(parts[1].trimmingSpaces())
        {
            let point = Coordinate(latitude: lat, longitude: lng)
            guard point.isValid else {
                throw .invalidOption(parameter, message: "'\(value)' is not a latitude and longitude in range")
            }
            return .coordinate(point)
        }
        let text = value.trimmingSpaces()
        guard !text.isEmpty else { throw .invalidOption(parameter, message: "has an empty location") }
        return .text(text)
    }

    /// `markers=STYLE|…|LOCATION|…`.
    static func markerGroup(_ value: String) throws(AppError) -> MarkerGroup {
        var group = MarkerGroup()
        for part in value.split(separator: "|").map(String.init) {
            if let (key, style) = styleValue(part) {
                switch key {
                case "color": group.color = try color(style, parameter: "markers")
                case "label":
                    guard style.count == 1, let character = style.first, character.isLetter || character.isNumber
                    else {
                        throw .invalidOption("markers", message: "label must be one letter or digit, not '\(style)'")
                    }
                    group.label = style.uppercased()
                case "size":
                    guard ["tiny", "small", "mid"].contains(style) else {
                        throw .invalidOption("markers", message: "size must be tiny, small or mid, not '\(style)'")
                    }
                    group.size = style
                default: continue  // icon, anchor, scale: the standard pin is drawn.
                }
            } else {
                group.locations.append(try location(part, parameter: "markers"))
            }
        }
        return group
    }

    /// `path=STYLE|…|LOCATION|…` or `path=STYLE|enc:POLYLINE`.
    static func path(_ value: String) throws(AppError) -> Path {
        var path = Path()
        for part in value.split(separator: "|").map(String.init) {
            if part.hasPrefix("enc:") {
                guard let points = EncodedPolyline.decode(String(part.dropFirst(4))), !points.isEmpty else {
                    throw .invalidOption("path", message: "has an encoded polyline that cannot be decoded")
                }
                path.locations += points.map(Location.coordinate)
            } else if let (key, style) = styleValue(part) {
                switch key {
                case "weight":
                    guard let weight = Double(style), (0...50).contains(weight) else {
                        throw .invalidOption("path", message: "weight must be 0 to 50 points, not '\(style)'")
                    }
                    path.weight = weight
                case "color": path.color = try color(style, parameter: "path")
                case "fillcolor": path.fillColor = try color(style, parameter: "path")
                default: continue  // geodesic: drawn straight on the map.
                }
            } else {
                path.locations.append(try location(part, parameter: "path"))
            }
            guard path.locations.count <= maxPathPoints else {
                throw .invalidOption("path", message: "has more than \(maxPathPoints) points")
            }
        }
        return path
    }

    /// `key:value` of a style part, or nil for a location.
    private static func styleValue(_ part: String) -> (String, String)? {
        guard let colon = part.firstIndex(of: ":") else { return nil }
        let key = part[..<colon].lowercased()
        guard ["color", "label", "size", "icon", "anchor", "scale", "weight", "fillcolor", "geodesic"].contains(key)
        else { return nil }
        return (key, String(part[part.index(after: colon)...]))
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String { String(self).trimmingSpaces() }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension MapsApp {
    /// Draws a static map: the locations given as text are found like searches (their best
    /// result), markers and paths drawn over the map type asked for, the camera at `center`
    /// and `zoom` or fitting everything drawn and `visible`.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` for a place's text that finds nothing,
    ///   ``AppError/engineMissing(_:)`` without a renderer, ``AppError/engineFailed(_:underlying:)``.
    public func staticMap(_ request: StaticMapRequest) throws(AppError) -> DrawnMap {
        var options = MapViewOptions()
        options.frame = Rect(x: 0, y: 0, width: request.size.width, height: request.size.height)
        let mapView = MapView(options: options)
        mapView.mapType = request.mapType
        var overlays: [Overlay] = []
        var drawn: [Coordinate] = []
        for path in request.paths {
            let points = try path.locations.map { location throws(AppError) in
                try place(location, parameter: "path", language: request.language)
            }
            drawn += points
            if let fill = path.fillColor {
                var area = Polygon(path: points)
                area.fillColor = fill
                area.strokeColor = path.color
                area.strokeWidth = path.weight
                overlays.append(.polygon(area))
            } else {
                var line = Polyline(path: points)
                line.strokeColor = path.color
                line.strokeWidth = path.weight
                overlays.append(.polyline(line))
            }
        }
        for group in request.markers {
            for location in group.locations {
                let point = try place(location, parameter: "markers", language: request.language)
                drawn.append(point)
                var marker = Marker(position: point)
                marker.color = group.color
                marker.glyph = group.size == "mid" ? group.label : nil
                let factor: Double = ["tiny": 0.45, "small": 0.65][group.size] ?? 1
                marker.iconSize = Size(width: marker.iconSize.width * factor, height: marker.iconSize.height * factor)
                overlays.append(.marker(marker))
            }
        }
        mapView.overlays = overlays
        let visible = try request.visible.map { location throws(AppError) in
            try place(location, parameter: "visible", language: request.language)
        }
        let center = try request.center.map { location throws(AppError) in
            try place(location, parameter: "center", language: request.language)
        }
        let fitted = drawn + visible
        if let center, let zoom = request.zoom {
            mapView.camera = CameraPosition(target: center, zoom: Double(zoom))
        } else if let first = fitted.first ?? center {
            let bounds = (fitted + [center].compactMap { $0 }).reduce(CoordinateBounds(first, first)) {
                $0.including($1)
            }
            mapView.moveCamera(.fitBounds(bounds, insets: EdgeInsets(top: 48, left: 24, bottom: 24, right: 24)))
            if let zoom = request.zoom { mapView.moveCamera(.zoomTo(Double(zoom))) }
            if let center { mapView.moveCamera(.setTarget(center)) }
            if fitted.count <= 1 && request.zoom == nil { mapView.moveCamera(.zoomTo(Self.defaultZoom)) }
        }
        guard let drawing else { throw .engineMissing("map renderer") }
        do {
            return try drawing.draw(mapView, format: .png, scale: Double(request.scale), language: request.language)
        } catch {
            throw .engineFailed("drawing the static map", underlying: error)
        }
    }

    /// The coordinate of a location: itself, or the best place its text finds.
    private func place(_ location: StaticMapRequest.Location, parameter: String, language: Language?) throws(AppError)
        -> Coordinate
    {
        switch location {
        case .coordinate(let point): return point
        case .text(let text):
            guard let places else { throw .engineMissing("place search") }
            let found: [FoundPlace]
            do {
                found = try places.places(matching: text, near: nil, limit: 1, names: language)
            } catch let error as SearchError {
                throw .invalidOption(parameter, message: error.description)
            } catch {
                throw .engineFailed("searching for '\(text)'", underlying: error)
            }
            guard let best = found.first else {
                throw .invalidOption(parameter, message: "names '\(text)', which was not found")
            }
            return best.position
        }
    }
}
