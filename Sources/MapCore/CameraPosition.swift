import Foundation
import GeoCore

/// Where the map looks from: target, zoom, bearing and tilt, always normalised.
///
/// Every initialiser clamps: latitude to [-85, 85], longitude wrapped into [-180, 180),
/// zoom to [``minZoomLevel``, ``maxZoomLevel``], bearing wrapped into [0, 360), viewing angle
/// to [0, ``maxViewingAngle(atZoom:)``]. Values must be finite (NaN or infinity is a
/// programming error and traps).
public struct CameraPosition: Sendable, Hashable, Codable {
    /// The smallest zoom any camera has (Google's `kGMSMinZoomLevel`, measured as 2).
    public static let minZoomLevel = 2.0
    /// The largest zoom any camera has (`kGMSMaxZoomLevel`).
    public static let maxZoomLevel = 21.0
    /// The latitude limit of a camera target, degrees.
    public static let maxTargetLatitude = 85.0

    /// The point the camera looks at, drawn at the centre of the padded region.
    public let target: Coordinate
    /// Zoom level, ``minZoomLevel``...``maxZoomLevel``.
    public let zoom: Double
    /// Direction the top of the view faces, degrees clockwise from north, [0, 360).
    public let bearing: Double
    /// Tilt from the nadir in degrees: 0 looks straight down; at most ``maxViewingAngle(atZoom:)``.
    public let viewingAngle: Double

    /// Creates a camera, clamping and normalising every value.
    ///
    /// - Parameter zoomLimits: the zoom range to clamp into (a map's min/max zoom).
    public init(
        target: Coordinate, zoom: Double, bearing: Double = 0, viewingAngle: Double = 0,
        zoomLimits: ClosedRange<Double> = minZoomLevel...maxZoomLevel
    ) {
        precondition(
            target.latitude.isFinite && target.longitude.isFinite && zoom.isFinite && bearing.isFinite
                && viewingAngle.isFinite, "camera values must be finite")
        let latitude = min(max(target.latitude, -Self.maxTargetLatitude), Self.maxTargetLatitude)
        self.target = Coordinate(latitude: latitude, longitude: Self.wrapLongitude(target.longitude))
        self.zoom = min(max(zoom, zoomLimits.lowerBound), zoomLimits.upperBound)
        self.bearing = Self.wrap(bearing, 360)
        self.viewingAngle = min(max(viewingAngle, 0), Self.maxViewingAngle(atZoom: self.zoom))
    }

    private enum CodingKeys: String, CodingKey { case target, zoom, bearing, viewingAngle }

    /// Decodes through the clamps of ``init(target:zoom:bearing:viewingAngle:zoomLimits:)``,
    /// so a decoded camera keeps every invariant; a non-finite value is a data corruption
    /// error (never a trap: the JSON may come from anywhere).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let target = try container.decode(Coordinate.self, forKey: .target)
        let zoom = try container.decode(Double.self, forKey: .zoom)
        let bearing = try container.decodeIfPresent(Double.self, forKey: .bearing) ?? 0
        let viewingAngle = try container.decodeIfPresent(Double.self, forKey: .viewingAngle) ?? 0
        guard [target.latitude, target.longitude, zoom, bearing, viewingAngle].allSatisfy(\.isFinite) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "camera values must be finite numbers"))
        }
        self.init(target: target, zoom: zoom, bearing: bearing, viewingAngle: viewingAngle)
    }

    /// The seed's convenience constructor: bearing 0, viewing angle 0.
    public static func camera(withLatitude latitude: Double, longitude: Double, zoom: Double) -> CameraPosition {
        CameraPosition(target: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom)
    }

    /// The seed's convenience constructor with every value.
    public static func camera(
        withLatitude latitude: Double, longitude: Double, zoom: Double, bearing: Double, viewingAngle: Double
    ) -> CameraPosition {
        CameraPosition(
            target: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom, bearing: bearing,
            viewingAngle: viewingAngle)
    }

    /// The largest tilt at `zoom`, degrees: 30 up to zoom 10, then linear to 45 at 14 and to
    /// 65 at 16, 65 beyond. Continuous, and exact at iOS's documented end points.
    public static func maxViewingAngle(atZoom zoom: Double) -> Double {
        switch zoom {
        case ..<10: return 30
        case ..<14: return 30 + (zoom - 10) / 4 * 15
        case ..<16: return 45 + (zoom - 14) / 2 * 20
        default: return 65
        }
    }

    /// `x` wrapped into [0, period).
    static func wrap(_ x: Double, _ period: Double) -> Double {
        let wrapped = x.truncatingRemainder(dividingBy: period)
        let positive = wrapped < 0 ? wrapped + period : wrapped
        return positive == period ? 0 : positive
    }

    /// Longitude wrapped into [-180, 180).
    static func wrapLongitude(_ longitude: Double) -> Double { wrap(longitude + 180, 360) - 180 }

    /// The camera a fraction of the way to `other` (0 is this camera, 1 is `other`), turning
    /// the bearing and crossing the antimeridian the short way: 350° → 10° turns +20°.
    public func interpolated(to other: CameraPosition, fraction: Double) -> CameraPosition {
        let t = min(max(fraction, 0), 1)
        let longitudeDelta = Self.wrapLongitude(other.target.longitude - target.longitude)
        let bearingDelta = Self.wrap(other.bearing - bearing + 180, 360) - 180
        return CameraPosition(
            target: Coordinate(
                latitude: target.latitude + (other.target.latitude - target.latitude) * t,
                longitude: target.longitude + longitudeDelta * t),
            zoom: zoom + (other.zoom - zoom) * t, bearing: bearing + bearingDelta * t,
            viewingAngle: viewingAngle + (other.viewingAngle - viewingAngle) * t)
    }

    /// True when two cameras draw the same picture: 1e-6° target, 1e-4 zoom, 1e-3° angles.
    public static func areEqualForRendering(_ first: CameraPosition, _ second: CameraPosition) -> Bool {
        let longitudeDelta = abs(wrapLongitude(first.target.longitude - second.target.longitude))
        let bearingDelta = abs(wrap(first.bearing - second.bearing + 180, 360) - 180)
        return abs(first.target.latitude - second.target.latitude) <= 1e-6 && longitudeDelta <= 1e-6
            && abs(first.zoom - second.zoom) <= 1e-4 && bearingDelta <= 1e-3
            && abs(first.viewingAngle - second.viewingAngle) <= 1e-3
    }
}
