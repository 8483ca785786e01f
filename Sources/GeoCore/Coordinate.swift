import Foundation

/// A point on the WGS 84 ellipsoid, in degrees.
///
/// Latitude is in [-90, 90] (positive north), longitude in [-180, 180] (positive east).
/// The initializer does not check ranges; use ``isValid`` or ``init(validatingLatitude:longitude:)``.
public struct Coordinate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Degrees north of the equator, -90...90.
    public var latitude: Double
    /// Degrees east of the prime meridian, -180...180.
    public var longitude: Double

    /// Creates a coordinate without checking ranges.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate when both values are finite and in range, otherwise nil.
    public init?(validatingLatitude latitude: Double, longitude: Double) {
        let candidate = Coordinate(latitude: latitude, longitude: longitude)
        guard candidate.isValid else { return nil }
        self = candidate
    }

    /// Parses `latitude,longitude` in ``DecimalText``'s strict grammar (spaces allowed around
    /// the comma) and checks the ranges.
    ///
    /// - Returns: nil for anything else: `nan`, exponents, hex, labels, out-of-range values.
    public init?(parsing text: some StringProtocol) {
        guard let pair = Coordinate.parsePair(Substring(text)), pair.isValid else { return nil }
        self = pair
    }

    /// Parses `a,b` as two strict decimals (spaces allowed around the comma) without a range check.
    public static func parsePair(_ text: Substring) -> Coordinate? {
        var text = String(text)
        return text.withUTF8 { parsePair(bytes: $0) }
    }

    /// Parses the UTF-8 bytes `a,b` as two strict decimals (spaces allowed around the comma)
    /// without a range check.
    public static func parsePair(bytes: UnsafeBufferPointer<UInt8>) -> Coordinate? {
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        guard let latitude = DecimalText.parse(trimSpaces(bytes, 0..<comma)),
            let longitude = DecimalText.parse(trimSpaces(bytes, (comma + 1)..<bytes.count))
        else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private static func trimSpaces(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UnsafeBufferPointer<
        UInt8
    > {
        var start = range.lowerBound
        var end = range.upperBound
        while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// True when latitude is in [-90, 90] and longitude in [-180, 180] (NaN is never valid).
    public var isValid: Bool {
        (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
    }

    /// `latitude,longitude` in plain decimal notation, the form every Maps link uses.
    public var description: String {
        "\(DecimalText.format(latitude)),\(DecimalText.format(longitude))"
    }

    /// Great-circle distance on a sphere of the WGS 84 mean radius (6,371,008.8 m).
    ///
    /// - Returns: metres, accurate to about 0.5 % against the ellipsoid.
    public func distance(to other: Coordinate) -> Double {
        let radius = 6_371_008.8
        let phi1 = latitude * .pi / 180
        let phi2 = other.latitude * .pi / 180
        let deltaPhi = phi2 - phi1
        let deltaLambda = (other.longitude - longitude) * .pi / 180
        let a =
            sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
        return 2 * radius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The point `meters` away along the great circle leaving at `bearing` (degrees clockwise
    /// from north), on the same sphere as ``distance(to:)``; longitude wrapped to -180...180.
    public func destination(meters: Double, bearing: Double) -> Coordinate {
        let angular = meters / 6_371_008.8
        let theta = bearing * .pi / 180
        let phi1 = latitude * .pi / 180
        let lambda1 = longitude * .pi / 180
        let phi2 = asin(sin(phi1) * cos(angular) + cos(phi1) * sin(angular) * cos(theta))
        let lambda2 = lambda1 + atan2(sin(theta) * sin(angular) * cos(phi1), cos(angular) - sin(phi1) * sin(phi2))
        var longitude = lambda2 * 180 / .pi
        longitude = (longitude + 540).truncatingRemainder(dividingBy: 360) - 180
        return Coordinate(latitude: phi2 * 180 / .pi, longitude: longitude)
    }
}

/// The extent of a region around a center, in degrees (a Maps link's `spn` / `sspn`).
public struct CoordinateSpan: Sendable, Hashable, Codable, CustomStringConvertible {
    /// North-south extent in degrees, 0...180.
    public var latitudeDelta: Double
    /// East-west extent in degrees, 0...360.
    public var longitudeDelta: Double

    /// A span of `latitudeDelta` by `longitudeDelta` degrees.
    public init(latitudeDelta: Double, longitudeDelta: Double) {
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }

    /// The ground a camera `metres` from `center` shows (Apple's `distance`, an embedded
    /// Google map's `!1d`): about as many metres tall as the distance, the longitude delta
    /// widened by the latitude's cosine; both capped at a whole world.
    public init(seenFrom metres: Double, at center: Coordinate) {
        let metresPerDegree = 2 * .pi * WebMercator.earthRadius / 360
        let latitudeDelta = metres / metresPerDegree
        let shrink = max(cos(center.latitude * .pi / 180), 0.01)
        self.init(latitudeDelta: min(latitudeDelta, 180), longitudeDelta: min(latitudeDelta / shrink, 360))
    }

    /// True when both deltas are finite, non-negative and within a whole world.
    public var isValid: Bool {
        (0.0...180.0).contains(latitudeDelta) && (0.0...360.0).contains(longitudeDelta)
    }

    /// `latitudeDelta,longitudeDelta` in plain decimal notation.
    public var description: String {
        "\(DecimalText.format(latitudeDelta)),\(DecimalText.format(longitudeDelta))"
    }
}
