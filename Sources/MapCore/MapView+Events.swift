import GeoCore

/// What a map view reports, in the order the SDK's delegate hears it.
public enum MapEvent: Sendable, Equatable {
    /// A camera change starts; `gesture` is true only for user gestures.
    case willMove(gesture: Bool)
    /// The camera changed (once for an explicit set, and always for the final position).
    case didChangeCameraPosition(CameraPosition)
    /// The camera came to rest.
    case idleAt(CameraPosition)
    /// A tap that hit no marker, at this coordinate.
    case didTapAt(Coordinate)
    /// A tap on the marker at this index of ``MapView/overlays``.
    case didTapMarker(Int)
    /// The building whose floors are shown changed (nil: none).
    case didChangeActiveBuilding(IndoorBuilding?)
    /// The level shown changed.
    case didChangeActiveLevel(IndoorLevel?)
}

extension MapView {
    /// A tap at `point`: the topmost tappable marker under it is tapped (and selected unless
    /// ``shouldHandleMarkerTap`` returns true); a tap on nothing reports the coordinate and
    /// deselects.
    public func tap(at point: Point) {
        let hit = overlays.indices.reversed().first { index in
            guard case .marker(let marker) = overlays[index], marker.isTappable else { return false }
            let frame = frame(of: overlays[index])
            return point.x >= frame.origin.x && point.x <= frame.origin.x + frame.size.width
                && point.y >= frame.origin.y && point.y <= frame.origin.y + frame.size.height
        }
        guard let hit else {
            onEvent?(.didTapAt(projection.coordinate(for: point)))
            selectedMarker = nil
            return
        }
        onEvent?(.didTapMarker(hit))
        if shouldHandleMarkerTap?(hit) != true { selectedMarker = hit }
    }

    /// A tap on the My Location button: centres on the device location unless
    /// ``shouldHandleMyLocationButtonTap`` returns true; nothing moves without a location.
    public func tapMyLocationButton() {
        guard controlLayout.myLocationButton != nil, shouldHandleMyLocationButtonTap?() != true,
            let location = myLocation
        else { return }
        moveCamera(.setTarget(location))
    }

    /// A tap on the compass: the bearing returns to 0 (and the compass then hides).
    public func tapCompass() {
        guard controlLayout.compass != nil else { return }
        let current = camera
        camera = CameraPosition(
            target: current.target, zoom: current.zoom, bearing: 0, viewingAngle: current.viewingAngle)
    }
}
