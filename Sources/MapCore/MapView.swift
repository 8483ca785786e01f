import Foundation
import GeoCore

/// The kind of base map (the seed's `kGMSType…`).
public enum MapType: String, Sendable, Codable, CaseIterable {
    /// Roads, some man-made and natural features, labels; follows the colour scheme.
    case normal
    /// Satellite imagery with roads and labels over it.
    case hybrid
    /// Satellite imagery, no labels.
    case satellite
    /// Topography with some roads and labels; follows the colour scheme.
    case terrain
    /// No base map and no traffic; overlays and tile layers only.
    case none
}

/// Light or dark, or follow the system (`overrideUserInterfaceStyle`).
public enum UserInterfaceStyle: String, Sendable, Codable {
    case unspecified, light, dark
}

/// How safe-area insets combine with `padding`.
public enum PaddingAdjustmentBehavior: String, Sendable, Codable {
    /// padding + safe area (the default).
    case always
    /// The larger of padding and safe area, per edge.
    case automatic
    /// padding alone.
    case never
}

/// Gesture and control switches of a map view, with the SDK's defaults.
public struct UISettings: Sendable, Equatable {
    /// Whether dragging pans the map.
    public var scrollGestures = true
    /// Whether pinching and double-tapping zoom.
    public var zoomGestures = true
    /// Whether a two-finger vertical drag tilts.
    public var tiltGestures = true
    /// Whether a two-finger twist turns the bearing.
    public var rotateGestures = true
    /// Whether the map takes every gesture over it, rather than leaving some to the views around it.
    public var consumesGesturesInView = true
    /// Whether panning goes on while rotating or zooming.
    public var allowScrollGesturesDuringRotateOrZoom = true
    /// Zoom in/out buttons (Android's zoom controls; iOS has none, so off by default).
    public var zoomButtons = false
    /// The floor picker (shown only with indoor data in focus).
    public var indoorPicker = true
    /// The compass (shown only while the bearing is not 0); off by default.
    public var compassButton = false
    /// The My Location button; off by default.
    public var myLocationButton = false

    /// Every gesture on, the buttons as the SDK sets them.
    public init() {}

    /// Turns all four gestures on or off.
    public mutating func setAllGesturesEnabled(_ enabled: Bool) {
        scrollGestures = enabled
        zoomGestures = enabled
        tiltGestures = enabled
        rotateGestures = enabled
    }
}

/// How often the view redraws.
public enum FrameRate: String, Sendable, Codable {
    case powerSave, conservative, maximum
}

/// Features available only with some cloud map styles.
public struct MapCapabilities: OptionSet, Sendable, Hashable {
    /// The capabilities' bits.
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Markers with custom HTML-like content (`GMSAdvancedMarker`).
    public static let advancedMarkers = MapCapabilities(rawValue: 1 << 0)
    /// Styling of boundaries by data (feature layers).
    public static let dataDrivenStyling = MapCapabilities(rawValue: 1 << 1)
    /// Polylines drawn with repeated sprite stamps.
    public static let spritePolylines = MapCapabilities(rawValue: 1 << 2)
}

/// Misuse of a map view's API.
public enum MapViewError: Error, Equatable, CustomStringConvertible {
    /// `setMinZoom(_:maxZoom:)` was given a minimum above the maximum.
    case invalidZoomRange(min: Double, max: Double)

    public var description: String {
        switch self {
        case .invalidZoomRange(let min, let max): return "minimum zoom \(min) is above maximum zoom \(max)"
        }
    }
}

/// A headless map view, configured the way the Maps SDK for iOS configures one.
///
/// Confined to one thread, like the SDK's view. Every camera it reports is clamped to its
/// zoom limits and target bounds; ``projection`` is a snapshot of the current camera.
public final class MapView {
    /// The view's frame in points.
    public var frame: Rect
    /// The cloud style id the view was created with.
    public let mapID: String?
    /// The background colour from the options (its default when none was set).
    public var backgroundColor: Color { explicitBackgroundColor ?? .lightGray }
    /// Capabilities of the cloud style; none without a ``mapID``.
    public var mapCapabilities: MapCapabilities {
        guard mapID != nil else { return [] }
        return cloudStyleCapabilities
    }
    /// What the host's cloud style for ``mapID`` offers (from its style registry).
    public var cloudStyleCapabilities: MapCapabilities = []

    /// The background colour when the options set one.
    let explicitBackgroundColor: Color?
    /// The background colour of the cloud style registered for ``mapID``, when the host has one;
    /// it wins over every local colour.
    public var cloudStyleBackgroundColor: Color?
    /// The system's colour scheme, which ``UserInterfaceStyle/unspecified`` follows; light by default.
    public var systemUserInterfaceStyle: UserInterfaceStyle = .light
    /// The building with indoor data nearest the centre of the view, from the map data.
    public var indoorBuildingInFocus: IndoorBuilding? {
        didSet { updateActiveBuilding() }
    }
    /// The building whose floors are shown: the one in focus while indoor maps show; nil otherwise.
    public internal(set) var activeBuilding: IndoorBuilding?
    var storedActiveLevel: IndoorLevel?

    /// Insets of the region the camera and controls work in, points; see ``paddingAdjustmentBehavior``.
    public var padding: EdgeInsets = .zero
    /// How ``safeAreaInsets`` combine with ``padding``.
    public var paddingAdjustmentBehavior: PaddingAdjustmentBehavior = .always
    /// The host's safe-area insets (there is no UIKit here, so they are an input), points.
    public var safeAreaInsets: EdgeInsets = .zero

    /// What the map shows: normal, hybrid, satellite, terrain or none.
    public var mapType: MapType = .normal {
        didSet { updateActiveBuilding() }
    }
    /// The traffic layer: roads coloured by congestion; off by default.
    public var isTrafficEnabled = false
    /// The transit layer: lines in their colours and stations; off by default.
    public var isTransitEnabled = false
    /// The bicycling layer: cycle tracks, lanes, bicycle-friendly streets, trails and cycle
    /// routes, drawn where roads are (normal, hybrid and terrain types).
    public var isBicyclingEnabled = false
    /// Indoor floor plans; turning them off forgets the active building and level.
    public var isIndoorEnabled = true {
        didSet { updateActiveBuilding() }
    }
    /// 3D buildings when the camera is tilted; on by default.
    public var isBuildingsEnabled = true
    /// Accessibility elements for overlays are hidden by default (the opposite of UIKit's default).
    public var accessibilityElementsHidden = true
    /// Light, dark, or follow the system; affects normal and terrain only.
    public var overrideUserInterfaceStyle: UserInterfaceStyle = .unspecified
    /// Gestures and controls.
    public var settings = UISettings()
    /// How often the view redraws; ``FrameRate/maximum`` by default.
    public var preferredFrameRate: FrameRate = .maximum
    /// A JSON map style; applied only while ``mapType`` is normal, and a cloud style
    /// (``mapID``) wins over it.
    public var mapStyle: String?
    /// Markers, lines, areas and circles on the map, in the order they were added.
    public var overlays: [Overlay] = [] {
        didSet { if let selected = selectedMarker, !overlays.indices.contains(selected) { selectedMarker = nil } }
    }
    /// Raster tile layers drawn over the base map, under every overlay.
    public var tileLayers: [TileLayer] = []

    /// Shows the My Location dot; turning it off forgets the last location.
    public var isMyLocationEnabled = false {
        didSet {
            if !isMyLocationEnabled {
                myLocation = nil
                myLocationAccuracy = nil
                myLocationHeading = nil
            }
        }
    }
    /// The device location: nil while My Location is off or before the first fix.
    public private(set) var myLocation: Coordinate?
    /// The last fix's horizontal accuracy (radius of uncertainty), metres ≥ 0; nil when unknown.
    public private(set) var myLocationAccuracy: Double?
    /// The direction the device faces, degrees clockwise from true north in [0, 360); nil
    /// when unknown.
    public private(set) var myLocationHeading: Double?

    /// The smallest zoom the camera may have; changed only by ``setMinZoom(_:maxZoom:)``.
    public private(set) var minZoom = CameraPosition.minZoomLevel
    /// The largest zoom the camera may have; changed only by ``setMinZoom(_:maxZoom:)``.
    public private(set) var maxZoom = CameraPosition.maxZoomLevel
    /// When set, every camera change keeps the target inside these bounds.
    public var cameraTargetBounds: CoordinateBounds? {
        didSet { camera = storedCamera }
    }

    private var storedCamera: CameraPosition

    /// Creates a map view from a copy of `options`.
    public init(options: MapViewOptions = MapViewOptions()) {
        frame = options.frame
        mapID = options.mapID
        explicitBackgroundColor = options.explicitBackgroundColor
        storedCamera =
            options.camera
            ?? CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: CameraPosition.minZoomLevel)
    }

    /// The camera; setting it applies at once, clamped to the zoom limits and target bounds.
    public var camera: CameraPosition {
        get { storedCamera }
        set {
            onEvent?(.willMove(gesture: isGestureInProgress))
            storedCamera = constrained(newValue)
            updateActiveBuilding()
            onEvent?(.didChangeCameraPosition(storedCamera))
            onEvent?(.idleAt(storedCamera))
        }
    }

    /// Receives the view's events in order (camera moves, taps), like the SDK's delegate.
    public var onEvent: ((MapEvent) -> Void)?
    /// The index in ``overlays`` of the selected marker (its info window shown), nil when none
    /// is; an index that is not a marker's selects nothing.
    public var selectedMarker: Int? {
        didSet {
            if let selected = selectedMarker,
                !overlays.indices.contains(selected)
                    || { if case .marker = overlays[selected] { false } else { true } }()
            {
                selectedMarker = nil
            }
        }
    }
    /// Return true to handle a marker tap yourself (the marker is then not selected).
    public var shouldHandleMarkerTap: ((Int) -> Bool)?
    /// Return true to handle the My Location button yourself (the camera then stays).
    public var shouldHandleMyLocationButtonTap: (() -> Bool)?
    /// True while a user gesture moves the camera.
    var isGestureInProgress = false

    /// The padding in effect: ``padding`` combined with ``safeAreaInsets``, never negative.
    public var effectivePadding: EdgeInsets {
        let padding: EdgeInsets
        switch paddingAdjustmentBehavior {
        case .always: padding = self.padding + safeAreaInsets
        case .never: padding = self.padding
        case .automatic:
            padding = EdgeInsets(
                top: max(self.padding.top, safeAreaInsets.top), left: max(self.padding.left, safeAreaInsets.left),
                bottom: max(self.padding.bottom, safeAreaInsets.bottom),
                right: max(self.padding.right, safeAreaInsets.right))
        }
        return padding.clampedToZero
    }

    /// The smallest zoom in practice: ``minZoom``, raised so the world is never shorter than the view.
    public var effectiveMinZoom: Double {
        guard frame.size.height > 0 else { return minZoom }
        return min(max(minZoom, log2(frame.size.height / 256)), maxZoom)
    }

    /// A snapshot projection of the current camera, view size and padding.
    public var projection: Projection {
        Projection(camera: storedCamera, viewSize: frame.size, padding: effectivePadding)
    }

    /// Sets the zoom limits and clamps the camera into them at once.
    ///
    /// - Throws: ``MapViewError/invalidZoomRange(min:max:)`` when `min > max`; nothing changes.
    public func setMinZoom(_ min: Double, maxZoom max: Double) throws(MapViewError) {
        guard min <= max, min.isFinite, max.isFinite else { throw .invalidZoomRange(min: min, max: max) }
        minZoom = Swift.max(min, CameraPosition.minZoomLevel)
        maxZoom = Swift.min(max, CameraPosition.maxZoomLevel)
        camera = storedCamera
    }

    /// Removes every overlay; My Location and the map type stay as they are.
    public func clear() {
        overlays.removeAll()
        selectedMarker = nil
    }

    /// Reports a location fix (from the host's location source); ignored while My Location is off.
    ///
    /// - Parameters:
    ///   - accuracy: horizontal accuracy in metres; negative or non-finite values mean unknown
    ///     (as CoreLocation's negative `horizontalAccuracy`). Default unknown.
    ///   - heading: degrees clockwise from north, wrapped into [0, 360); non-finite means
    ///     unknown. Default unknown.
    public func updateMyLocation(_ location: Coordinate, accuracy: Double? = nil, heading: Double? = nil) {
        guard isMyLocationEnabled else { return }
        myLocation = location
        myLocationAccuracy = accuracy.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        myLocationHeading = heading.flatMap { $0.isFinite ? CameraPosition.wrap($0, 360) : nil }
    }

    /// Applies a camera update; one carrying NaN or infinity is ignored as a whole.
    public func moveCamera(_ update: CameraUpdate) {
        if let camera = self.camera(after: update) { self.camera = camera }
    }

    /// The camera an update leads to, before it is applied; nil when the update cannot apply
    /// (a fit with invalid bounds or a zero-size view).
    public func camera(after update: CameraUpdate) -> CameraPosition? {
        guard update.isFinite else { return nil }
        let current = storedCamera
        func with(target: Coordinate? = nil, zoom: Double? = nil) -> CameraPosition {
            CameraPosition(
                target: target ?? current.target, zoom: zoom ?? current.zoom, bearing: current.bearing,
                viewingAngle: current.viewingAngle, zoomLimits: zoomLimits)
        }
        switch update {
        case .zoomIn: return with(zoom: current.zoom + 1)
        case .zoomOut: return with(zoom: current.zoom - 1)
        case .zoomBy(let delta): return with(zoom: current.zoom + delta)
        case .zoomTo(let zoom): return with(zoom: zoom)
        case .setTarget(let target): return with(target: target)
        case .setTargetZoom(let target, let zoom): return with(target: target, zoom: zoom)
        case .setCamera(let camera): return camera
        case .scrollBy(let x, let y):
            let principal = projection.principalPoint
            return with(target: projection.coordinate(for: Point(x: principal.x + x, y: principal.y + y)))
        case .zoomByAt(let delta, let point):
            return zoom(by: delta, keeping: point)
        case .fitBounds(let bounds, let insets):
            return camera(for: bounds, insets: insets)
        }
    }

    /// The camera that fits `bounds` inside the padded region less `insets`, with bearing 0
    /// and tilt 0; nil for invalid bounds or a zero-size view. When the insets leave no room,
    /// the camera zooms out as far as allowed.
    public func camera(for bounds: CoordinateBounds, insets: EdgeInsets = .zero) -> CameraPosition? {
        guard let southWest = bounds.southWest, let northEast = bounds.northEast,
            frame.size.width > 0, frame.size.height > 0
        else { return nil }
        let map = effectivePadding
        let width = frame.size.width - map.left - map.right - insets.left - insets.right
        let height = frame.size.height - map.top - map.bottom - insets.top - insets.bottom
        let southWestWorld = WebMercator.project(southWest, worldSize: 1)
        let northEastWorld = WebMercator.project(northEast, worldSize: 1)
        let spanX = bounds.longitudeSpan / 360
        let spanY = southWestWorld.y - northEastWorld.y
        let zoom: Double
        if width <= 0 || height <= 0 {
            zoom = effectiveMinZoom
        } else {
            let fit = log2(min(width / (256 * spanX), height / (256 * spanY)))
            zoom = min(max(fit.isNaN ? maxZoom : fit, effectiveMinZoom), maxZoom)
        }
        let center = WorldPoint(x: southWestWorld.x + spanX / 2, y: (southWestWorld.y + northEastWorld.y) / 2)
        let size = WebMercator.worldSize(zoom: zoom)
        let fitCenter = Point(
            x: map.left + insets.left + max(width, 0) / 2, y: map.top + insets.top + max(height, 0) / 2)
        let principal = Projection(camera: storedCamera, viewSize: frame.size, padding: map).principalPoint
        let targetWorld = WorldPoint(
            x: center.x * size - (fitCenter.x - principal.x), y: center.y * size - (fitCenter.y - principal.y))
        let target = WebMercator.unproject(targetWorld, worldSize: size)
        return CameraPosition(target: target, zoom: zoom, zoomLimits: zoomLimits)
    }

    private var zoomLimits: ClosedRange<Double> { effectiveMinZoom...maxZoom }

    /// Zooms by `delta` keeping the coordinate under `point` fixed on screen: the new target
    /// is the focus minus the ground offset that `point` has at the new zoom.
    private func zoom(by delta: Double, keeping point: Point) -> CameraPosition {
        let current = storedCamera
        let focus = projection.coordinate(for: point)
        let zoomed = CameraPosition(
            target: current.target, zoom: current.zoom + delta, bearing: current.bearing,
            viewingAngle: current.viewingAngle, zoomLimits: zoomLimits)
        let offset = Projection(camera: zoomed, viewSize: frame.size, padding: effectivePadding).groundOffset(
            for: point)
        let size = WebMercator.worldSize(zoom: zoomed.zoom)
        let focusWorld = WebMercator.project(focus, worldSize: size)
        let target = WebMercator.unproject(
            WorldPoint(x: focusWorld.x - offset.dx, y: focusWorld.y - offset.dy), worldSize: size)
        return CameraPosition(
            target: target, zoom: zoomed.zoom, bearing: zoomed.bearing, viewingAngle: zoomed.viewingAngle,
            zoomLimits: zoomLimits)
    }

    /// `camera` clamped to the zoom limits and, when set, the target bounds.
    private func constrained(_ camera: CameraPosition) -> CameraPosition {
        var target = camera.target
        if let bounds = cameraTargetBounds, let southWest = bounds.southWest, let northEast = bounds.northEast,
            !bounds.contains(target)
        {
            let latitude = min(max(target.latitude, southWest.latitude), northEast.latitude)
            var longitude = target.longitude
            if !bounds.contains(Coordinate(latitude: latitude, longitude: longitude)) {
                let toWest = abs(CameraPosition.wrapLongitude(longitude - southWest.longitude))
                let toEast = abs(CameraPosition.wrapLongitude(longitude - northEast.longitude))
                longitude = toWest < toEast ? southWest.longitude : northEast.longitude
            }
            target = Coordinate(latitude: latitude, longitude: longitude)
        }
        return CameraPosition(
            target: target, zoom: camera.zoom, bearing: camera.bearing, viewingAngle: camera.viewingAngle,
            zoomLimits: zoomLimits)
    }
}
