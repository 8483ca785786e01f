/// A latitude/longitude rectangle, which may cross the antimeridian (its south-west
/// longitude is then greater than its north-east longitude).
///
/// The empty value (`CoordinateBounds()`) is invalid and grows to exactly what is included
/// into it. Points on an edge count as inside.
public struct CoordinateBounds: Sendable, Hashable {
    /// South-west corner; nil for the empty (invalid) bounds.
    public private(set) var southWest: Coordinate?
    /// North-east corner; nil for the empty (invalid) bounds.
    public private(set) var northEast: Coordinate?

    /// The empty, invalid bounds.
    public init() {}

    /// The smaller of the two rectangles that have these two corners (longitudes may wrap).
    public init(_ first: Coordinate, _ second: Coordinate) {
        let south = min(first.latitude, second.latitude)
        let north = max(first.latitude, second.latitude)
        var west = min(first.longitude, second.longitude)
        var east = max(first.longitude, second.longitude)
        if east - west > 180 { swap(&west, &east) }
        southWest = Coordinate(latitude: south, longitude: west)
        northEast = Coordinate(latitude: north, longitude: east)
    }

    /// Bounds with these exact corners (south-west longitude > north-east longitude crosses
    /// the antimeridian).
    public init(southWest: Coordinate, northEast: Coordinate) {
        self.southWest = southWest
        self.northEast = northEast
    }

    /// The whole world: latitudes -90...90, longitudes -180...180.
    public static let world = CoordinateBounds(
        southWest: Coordinate(latitude: -90, longitude: -180), northEast: Coordinate(latitude: 90, longitude: 180))

    /// False for the empty bounds.
    public var isValid: Bool { southWest != nil }

    /// True when the bounds cross the antimeridian.
    public var crossesAntimeridian: Bool {
        guard let southWest, let northEast else { return false }
        return southWest.longitude > northEast.longitude
    }

    /// East-west extent in degrees, 0...360.
    public var longitudeSpan: Double {
        guard let southWest, let northEast else { return 0 }
        let span = northEast.longitude - southWest.longitude
        return span < 0 ? span + 360 : span
    }

    /// The bounds as boxes that do not cross the antimeridian: itself, or its parts west and
    /// east of it; none for the empty bounds.
    public var antimeridianHalves: [CoordinateBounds] {
        guard let southWest, let northEast else { return [] }
        guard crossesAntimeridian else { return [self] }
        return [
            CoordinateBounds(southWest: southWest, northEast: Coordinate(latitude: northEast.latitude, longitude: 180)),
            CoordinateBounds(
                southWest: Coordinate(latitude: southWest.latitude, longitude: -180), northEast: northEast),
        ]
    }

    /// The middle: half-way in latitude, half-way east of the west edge in longitude (across
    /// the antimeridian too); nil for the empty bounds.
    public var center: Coordinate? {
        guard let southWest, let northEast else { return nil }
        var longitude = southWest.longitude + longitudeSpan / 2
        if longitude >= 180 { longitude -= 360 }
        return Coordinate(latitude: (southWest.latitude + northEast.latitude) / 2, longitude: longitude)
    }

    /// True when `coordinate` is inside or on the edge.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard let southWest, let northEast else { return false }
        guard coordinate.latitude >= southWest.latitude && coordinate.latitude <= northEast.latitude else {
            return false
        }
        if crossesAntimeridian {
            return coordinate.longitude >= southWest.longitude || coordinate.longitude <= northEast.longitude
        }
        return coordinate.longitude >= southWest.longitude && coordinate.longitude <= northEast.longitude
    }

    /// The smallest bounds holding these bounds and `coordinate`.
    public func including(_ coordinate: Coordinate) -> CoordinateBounds {
        guard let southWest, let northEast else {
            return CoordinateBounds(southWest: coordinate, northEast: coordinate)
        }
        var result = self
        result.southWest!.latitude = min(southWest.latitude, coordinate.latitude)
        result.northEast!.latitude = max(northEast.latitude, coordinate.latitude)
        if !contains(Coordinate(latitude: southWest.latitude, longitude: coordinate.longitude)) {
            // Grow towards whichever side adds less longitude.
            let growWest = (southWest.longitude - coordinate.longitude + 360).truncatingRemainder(dividingBy: 360)
            let growEast = (coordinate.longitude - northEast.longitude + 360).truncatingRemainder(dividingBy: 360)
            if growWest < growEast {
                result.southWest!.longitude = coordinate.longitude
            } else {
                result.northEast!.longitude = coordinate.longitude
            }
        }
        return result
    }

    /// The smallest bounds holding both.
    public func including(_ other: CoordinateBounds) -> CoordinateBounds {
        guard let otherSouthWest = other.southWest, let otherNorthEast = other.northEast else { return self }
        guard isValid else { return other }
        return including(otherSouthWest).including(otherNorthEast)
    }

    /// True when the two bounds share at least one point.
    public func intersects(_ other: CoordinateBounds) -> Bool {
        guard let southWest, let northEast, let otherSouthWest = other.southWest,
            let otherNorthEast = other.northEast
        else { return false }
        guard southWest.latitude <= otherNorthEast.latitude && otherSouthWest.latitude <= northEast.latitude else {
            return false
        }
        return contains(Coordinate(latitude: southWest.latitude, longitude: otherSouthWest.longitude))
            || contains(Coordinate(latitude: southWest.latitude, longitude: otherNorthEast.longitude))
            || other.contains(Coordinate(latitude: otherSouthWest.latitude, longitude: southWest.longitude))
    }
}
