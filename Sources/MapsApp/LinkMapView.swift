import Foundation
import GeoCore
import MapCore
import MapsURL

/// The map view the maps app shows when it answers a link: camera, map type, layers and the
/// markers of a search or a route's ends.
///
/// Rules: `center` and `zoom` set the camera (zoom 15 when only a center is given, the
/// Maps URLs default); a span fits that box around the center; without a center the camera
/// fits the link's points (the marker, the route's coordinate ends). `satellite` shows
/// hybrid (imagery with labels, as the Maps app does), `terrain` the terrain type, `traffic`
/// and `transit` their layers; cleared views show the plain road map.
public struct LinkMapView {
    /// Zoom used when a link gives a center but no zoom.
    public static let defaultZoom = 15.0
    /// At most this many search results are marked: 10.
    public static let searchResultLimit = 10

    /// The configured map view.
    public let mapView: MapView
    /// What the link asks for that this view cannot show, for the user.
    public let notes: [String]

    /// Places whose names match a search text, best first: a coordinate and a title each.
    public typealias PlaceSearch = (String) -> [(position: Coordinate, title: String)]

    /// The view a link opens.
    ///
    /// - Parameters:
    ///   - size: the view's size in points.
    ///   - search: finds the places a search link (`q` without a pinned position) asks for;
    ///     up to ``searchResultLimit`` of them are marked, and the camera fits them when the
    ///     link gives no center. Nil leaves the viewport with a note.
    public init(request: MapsRequest, size: Size, search: PlaceSearch? = nil) {
        var options = MapViewOptions()
        options.frame = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let mapView = MapView(options: options)
        var notes: [String] = []

        if let views = request.views {
            mapView.mapType = views.contains(.satellite) ? .hybrid : views.contains(.terrain) ? .terrain : .normal
            mapView.isTrafficEnabled = views.contains(.traffic)
            mapView.isTransitEnabled = views.contains(.transit)
            if views.contains(.bicycling) {
                notes.append("the bicycling layer is not available; the road map is shown")
            }
        }
        if request.mapMode == .streetView {
            notes.append("Street View imagery is not available; the map at that place is shown")
        }

        var points: [(Coordinate, String)] = []
        if let marker = request.marker { points.append((marker, request.query ?? marker.description)) }
        if let directions = request.directions {
            if case .coordinate(let start)? = directions.origin { points.append((start, "Start")) }
            for case .coordinate(let stop) in directions.waypoints { points.append((stop, "Stop")) }
            if case .coordinate(let end)? = directions.destination { points.append((end, "Destination")) }
        }
        var searched = false
        if let query = request.query, request.marker == nil, let search {
            searched = true
            let found = search(query).prefix(Self.searchResultLimit)
            points += found.map { ($0.position, $0.title) }
            if found.isEmpty { notes.append("no place in the map data matches '\(query)'") }
        }
        mapView.overlays = points.map { .marker(Marker(position: $0.0, title: $0.1)) }

        if let center = request.center {
            if let span = request.span, request.zoom == nil {
                let bounds = CoordinateBounds(
                    Coordinate(
                        latitude: center.latitude - span.latitudeDelta / 2,
                        longitude: center.longitude - span.longitudeDelta / 2),
                    Coordinate(
                        latitude: center.latitude + span.latitudeDelta / 2,
                        longitude: center.longitude + span.longitudeDelta / 2))
                mapView.moveCamera(.fitBounds(bounds, insets: .zero))
            } else {
                mapView.camera = CameraPosition(target: center, zoom: request.zoom ?? Self.defaultZoom)
            }
        } else if let first = points.first {
            if points.count == 1 {
                mapView.camera = CameraPosition(target: first.0, zoom: request.zoom ?? Self.defaultZoom)
            } else {
                let bounds = points.dropFirst().reduce(CoordinateBounds(first.0, first.0)) { $0.including($1.0) }
                mapView.moveCamera(.fit(bounds))
            }
        } else if request.zoom != nil {
            mapView.moveCamera(.zoomTo(request.zoom!))
        }
        if request.query != nil && request.marker == nil && !searched {
            notes.append("'\(request.query!)' needs a search of the map data; the viewport is shown")
        }
        self.mapView = mapView
        self.notes = notes
    }
}
