import GeoCore
import MapCore

/// A map view's state as JSON: size, camera, padding, map type, visible region, what is
/// drawn, the control frames, the markers (with their screen points and glyphs, and which is
/// selected), the lines drawn (a route, as an encoded polyline at 6 decimals) and My Location.
public struct MapViewState: Encodable, Sendable {
    public var size: Size
    public var camera: CameraPosition
    public var padding: EdgeInsets
    public var mapType: MapType
    public var visibleRegion: VisibleRegion
    public var content: MapContent
    public var controls: ControlLayout
    public var markers: [MarkerState]
    /// The index in ``markers`` of the selected one, showing its info window.
    public var selectedMarker: Int?
    public var lines: [LineState]
    public var myLocation: Coordinate?
    /// How often a live view of it redraws (a picture is drawn once).
    public var preferredFrameRate: FrameRate

    /// A line drawn over the map (a route): its title, colour, width and dash pattern, its
    /// points as a polyline at 6 decimals.
    public struct LineState: Encodable, Sendable {
        public var title: String?
        public var color: Color
        public var width: Double
        public var pattern: [Double]
        public var polyline6: String
    }

    /// A marker, where it is on the ground and on the screen (points from the top left).
    public struct MarkerState: Encodable, Sendable {
        public var title: String?
        public var snippet: String?
        public var glyph: String?
        public var position: Coordinate
        public var point: Point
    }

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
                point: projection.point(for: marker.position))
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
        myLocation = mapView.myLocation
        preferredFrameRate = mapView.preferredFrameRate
    }
}
