import GeoCore
import MapCore

/// A map view's state as JSON: size, camera, padding, map type, visible region, what is
/// drawn, the control frames, the markers (with their screen points) and My Location.
public struct MapViewState: Encodable {
    public var size: Size
    public var camera: CameraPosition
    public var padding: EdgeInsets
    public var mapType: MapType
    public var visibleRegion: VisibleRegion
    public var content: MapContent
    public var controls: ControlLayout
    public var markers: [MarkerState]
    public var myLocation: Coordinate?

    /// A marker, where it is on the ground and on the screen (points from the top left).
    public struct MarkerState: Encodable {
        public var title: String?
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
                title: marker.title, position: marker.position, point: projection.point(for: marker.position))
        }
        myLocation = mapView.myLocation
    }
}
