import GeoCore
import MapCore

/// A map view's state as JSON: size, camera, padding, map type, visible region, what is
/// drawn, the control frames, the markers (with their screen points and glyphs, and which is
/// selected), the lines drawn (a route, as an encoded polyline at 6 decimals) and My Location.
public struct MapViewState: Encodable, Sendable {
    /// The view's size, points.
    public var size: Size
    /// The camera, clamped as the view clamps it.
    public var camera: CameraPosition
    /// The padding in effect (with the safe area), points.
    public var padding: EdgeInsets
    /// What the map shows.
    public var mapType: MapType
    /// The ground inside the padding.
    public var visibleRegion: VisibleRegion
    /// What is drawn: base, roads, labels and layers.
    public var content: MapContent
    /// Where each control is, points.
    public var controls: ControlLayout
    /// The markers, in drawing order.
    public var markers: [MarkerState]
    /// The index in ``markers`` of the selected one, showing its info window.
    public var selectedMarker: Int?
    /// The lines drawn over the map.
    public var lines: [LineState]
    /// The areas drawn over the map (isochrones), in drawing order.
    public var areas: [AreaState]
    /// The My Location dot's position, when it shows.
    public var myLocation: Coordinate?
    /// How often a live view of it redraws (a picture is drawn once).
    public var preferredFrameRate: FrameRate
    /// The floor picker's floors, top first: the levels of the building in focus while indoor
    /// maps show; nil when there is none.
    public var floors: [IndoorLevel]?
    /// The floor shown, one of ``floors``; nil without floors (or underground with none).
    public var floor: IndoorLevel?

    /// A line drawn over the map (a route): its title, colour, width and dash pattern, its
    /// points as a polyline at 6 decimals.
    public struct LineState: Encodable, Sendable {
        /// The line's title (its accessibility label).
        public var title: String?
        /// Its stroke colour.
        public var color: Color
        /// Its width, points.
        public var width: Double
        /// Dash and gap lengths, points; empty for solid.
        public var pattern: [Double]
        /// Its points, Google's encoded polyline at 6 decimals.
        public var polyline6: String
    }

    /// An area drawn over the map: its title, fill and outline, its outer ring then its holes,
    /// each Google's encoded polyline at 6 decimals.
    public struct AreaState: Encodable, Sendable {
        /// The area's title (an isochrone's "15 min").
        public var title: String?
        /// Its fill colour, when it has one.
        public var fill: Color?
        /// Its outline colour, when it has one.
        public var stroke: Color?
        /// The outer ring, then the holes.
        public var rings: [String]
    }

    /// A marker, where it is on the ground and on the screen (points from the top left).
    public struct MarkerState: Encodable, Sendable {
        /// The info window's title.
        public var title: String?
        /// The info window's second line.
        public var snippet: String?
        /// The text in the pin's head, when it has one (a search result's number).
        public var glyph: String?
        /// Where the pin is, on the ground.
        public var position: Coordinate
        /// Where the pin is on the screen, points from the top left.
        public var point: Point
        /// True for a flat marker laid on the map (a realtime vehicle's dot), not a pin.
        public var isFlat = false
    }

    /// The state of `mapView` as it is now.
    public init(_ mapView: MapView) {
        size = mapView.frame.size
        camera = mapView.camera
        padding = mapView.effectivePadding
        mapType = mapView.mapType
        let projection = mapView.projection
        visibleRegion = projection.visibleRegion
        content = mapView.content
        controls = mapView.controlLayout
        markers = mapView.overlays.compactMap { overlay in
            guard case .marker(let marker) = overlay else { return nil }
            return MarkerState(
                title: marker.title, snippet: marker.snippet, glyph: marker.glyph, position: marker.position,
                point: projection.point(for: marker.position), isFlat: marker.isFlat)
        }
        selectedMarker = mapView.selectedMarker.map { selected in
            mapView.overlays[..<selected].filter { if case .marker = $0 { true } else { false } }.count
        }
        lines = mapView.overlays.compactMap { overlay in
            guard case .polyline(let line) = overlay, line.title != nil else { return nil }
            return LineState(
                title: line.title, color: line.strokeColor, width: line.strokeWidth, pattern: line.pattern,
                polyline6: EncodedPolyline.encode(line.path, precision: 6))
        }
        areas = mapView.overlays.compactMap { overlay in
            guard case .polygon(let area) = overlay else { return nil }
            return AreaState(
                title: area.title, fill: area.fillColor, stroke: area.strokeColor,
                rings: ([area.path] + area.holes).map { EncodedPolyline.encode($0, precision: 6) })
        }
        myLocation = mapView.myLocation
        preferredFrameRate = mapView.preferredFrameRate
        floors = mapView.activeBuilding?.levels
        floor = mapView.activeLevel
    }
}
