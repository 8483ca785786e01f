import Foundation
import GeoCore
import MapData

extension PlaceSearch {
    /// How far an address may be from the point: 100 m.
    static let addressRadius = 100.0
    /// How far a named street may be: 150 m.
    static let streetRadius = 150.0
    /// How near a named street the point stands on it: 8 m (half a wide street).
    static let onStreetRadius = 8.0
    /// How far a district (suburb, quarter, neighbourhood) may be: 3 km; a city: 30 km.
    static let districtRadius = 3_000.0
    static let cityRadius = 30_000.0

    /// What lies at `coordinate`: the nearest address within 100 m (unless the point stands
    /// on another named street, within ``onStreetRadius`` and nearer it than half the way to
    /// the address, outside the addressed building: then that street), else the nearest named street within 150 m, else the nearest place;
    /// with its street, district, city and country. Nil where the store has nothing within
    /// 30 km.
    ///
    /// - Parameter language: names in this language where the data has them; nil for local names.
    /// - Throws: `DataError` when the store fails.
    public func reverse(_ coordinate: Coordinate, language: Language? = nil) throws -> PlaceResult? {
        var best: Match?
        // An address: a building, an entrance or a shop with a house number.
        let addresses = try store.nearby(
            .addresses, in: box(around: coordinate, metres: Self.addressRadius), limit: 2000)
        best = nearest(addresses, to: coordinate, within: Self.addressRadius, why: "the nearest address")
        // Standing on a street, outside the addressed building and nearer the street's line
        // than half the way to the address: that street, before an address on the side street
        // round the corner.
        if let address = best, let metres = address.distance, metres > 0 {
            let streets = try store.nearby(
                .streets, in: box(around: coordinate, metres: Self.onStreetRadius), limit: 200)
            if let street = nearest(
                streets, to: coordinate, within: Self.onStreetRadius, why: "the street the point is on"),
                street.name != address.feature.tags["addr:street"], 2 * (street.distance ?? 0) < metres
            {
                best = street
            }
        }
        if best == nil {
            let streets = try store.nearby(
                .streets, in: box(around: coordinate, metres: Self.streetRadius), limit: 2000)
            best = nearest(streets, to: coordinate, within: Self.streetRadius, why: "the nearest street")
        }
        let places = try self.places(near: coordinate, within: Self.cityRadius)
        let districts = places.filter { ["suburb", "quarter", "neighbourhood", "borough"].contains($0.feature.kind) }
        let cities = places.filter { ["city", "town", "village"].contains($0.feature.kind) }
        let district = nearest(districts, to: coordinate, within: Self.districtRadius, why: "")
        // The city: the nearest, unless one within 15 km is five times as populous (the
        // gazetteer also lists a city's districts: the Mission is in San Francisco).
        let nearestCity = nearest(cities, to: coordinate, within: Self.cityRadius, why: "")
        let populous = cities.filter {
            ($0.feature.geometry.anchor?.distance(to: coordinate) ?? .infinity) <= Self.cityRadius / 2
        }.max { ($0.feature.population ?? 0) < ($1.feature.population ?? 0) }
        var city = nearestCity
        if let populous, populous.feature.population ?? 0 >= 5 * (nearestCity?.feature.feature.population ?? 0) {
            city = nearest([populous], to: coordinate, within: Self.cityRadius, why: "")
        }
        let coded = places.filter { $0.tags["country_code"] != nil }
        let countryCode = nearest(coded, to: coordinate, within: Self.cityRadius, why: "").flatMap {
            $0.feature.tags["country_code"]
        }
        if best == nil, var place = district ?? nearestCity {
            place.why = "the nearest place"
            best = place
        }
        guard let best else { return nil }
        var result = try self.result(best, language: language)
        if result.address["road"] == nil, best.feature.feature.featureClass == .road {
            result.address["road"] = best.name
        }
        if result.address["suburb"] == nil, let district, district.feature.feature.id != best.feature.feature.id {
            result.address["suburb"] = language.flatMap { district.feature.tags["name:\($0)"] } ?? district.name
        }
        if result.address["city"] == nil, let city, city.feature.feature.id != best.feature.feature.id {
            result.address["city"] = language.flatMap { city.feature.tags["name:\($0)"] } ?? city.name
        }
        if result.address["country_code"] == nil, let code = countryCode {
            result.address["country_code"] = code
        }
        if result.address["country"] == nil, let code = result.address["country_code"] {
            result.address["country"] = try countries()[code.uppercased()]
        }
        result.distance = best.distance
        // How near it is, 1 at the point to 0 at the edge of what was looked through.
        result.score = ((1 - min(best.distance ?? 0, Self.cityRadius) / Self.cityRadius) * 1000).rounded() / 1000
        return result
    }

    /// The box `metres` around a point.
    func box(around point: Coordinate, metres: Double) -> CoordinateBounds {
        CoordinateBounds(
            point.destination(meters: metres * 1.42, bearing: 225),
            point.destination(meters: metres * 1.42, bearing: 45))
    }

    /// The candidate nearest `point` within `radius` metres (0 inside an area, else to its
    /// outline or line).
    func nearest(_ candidates: [MapStore.IndexedFeature], to point: Coordinate, within radius: Double, why: String)
        -> Match?
    {
        candidates.compactMap { candidate -> Match? in
            guard let anchor = candidate.feature.geometry.anchor else { return nil }
            let metres = Self.distance(from: point, to: candidate.feature.geometry)
            guard metres <= radius else { return nil }
            let name = candidate.feature.name ?? Self.streetAndNumber(candidate) ?? ""
            return Match(
                feature: candidate, coordinate: anchor, name: name, score: -metres, complete: true, distance: metres,
                why: why)
        }.max { $0.score < $1.score }
    }

    /// Metres from `point` to a geometry: 0 inside a polygon, else to its nearest segment or point.
    static func distance(from point: Coordinate, to geometry: Geometry) -> Double {
        let plane = LocalPlane(around: point)
        func toPath(_ path: [Coordinate]) -> Double {
            guard path.count > 1 else { return path.first.map { plane.nearest(onSegment: $0, $0).metres } ?? .infinity }
            return zip(path, path.dropFirst()).map { plane.nearest(onSegment: $0, $1).metres }.min() ?? .infinity
        }
        switch geometry {
        case .point(let coordinate): return toPath([coordinate])
        case .line(let path): return toPath(path)
        case .lines(let paths): return paths.map(toPath).min() ?? .infinity
        case .polygon(let rings):
            // Even-odd: inside when a ray east crosses the rings an odd number of times.
            var inside = false
            for ring in rings {
                let points = ring.map(plane.point)
                for (a, b) in zip(points, points.dropFirst()) where (a.y > 0) != (b.y > 0) {
                    let x = a.x + (0 - a.y) * (b.x - a.x) / (b.y - a.y)
                    if x > 0 { inside.toggle() }
                }
            }
            return inside ? 0 : rings.map(toPath).min() ?? .infinity
        }
    }
}
