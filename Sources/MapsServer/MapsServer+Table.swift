import Foundation
import GeoCore
import HTTPServer
import MapsApp
import MapsURL
import Routing

extension MapsServer {
    /// An app's refusal in OSRM's words: an option it does not take is OSRM's `InvalidOptions`
    /// (naming the option), anything else the server's refusal of it.
    static func osrmRefusal(_ error: AppError) -> HTTPResponse {
        if case .invalidOption(let option, let message) = error {
            return osrmError("InvalidOptions", "'\(option)' \(message)")
        }
        return refusal(error)
    }

    /// The road profile and points of an OSRM service's path, `/{service}/v1/{profile}/{coordinates}`
    /// (``osrmPoints(_:)``; `.json` allowed at the end), `single` when it takes one point:
    /// refused as OSRM refuses them (`InvalidUrl`, `InvalidValue`). `transit` is a profile only
    /// where `transit` is true (the route service's).
    static func osrmPath(_ request: HTTPRequest, service: String, single: Bool = false) -> Result<
        (mode: TravelProfile.Mode, points: [Coordinate]), Refusal
    > {
        osrmPath(request, service: service, single: single, transit: false).map { asked in
            (DirectionsQuery.profile(for: asked.mode)!, asked.points)
        }
    }

    /// The way of travel and points of an OSRM service's path, as
    /// ``osrmPath(_:service:single:)`` reads them, `transit` among the profiles when asked.
    static func osrmPath(_ request: HTTPRequest, service: String, single: Bool, transit: Bool) -> Result<
        (mode: TravelMode, points: [Coordinate]), Refusal
    > {
        let prefix = "/\(service)/v1/"
        let parts = request.path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return .failure(
                Refusal(
                    response: osrmError(
                        "InvalidUrl", "expected \(prefix){profile}/{\(single ? "lon,lat" : "coordinates")}")))
        }
        do throws(AppError) {
            try Parameter.refuseRouteOnly(request.queryItems.map(\.name), service: service)
        } catch {
            return .failure(Refusal(response: osrmRefusal(error)))
        }
        let taken = profiles.filter { transit || DirectionsQuery.profile(for: $0.value) != nil }
        guard let travel = taken[String(parts[0])] else {
            return .failure(
                Refusal(
                    response: osrmError(
                        "InvalidValue",
                        "profile '\(parts[0].prefix(40))' is not one of \(taken.keys.sorted().joined(separator: ", "))")
                ))
        }
        let points: [Coordinate]
        switch osrmPoints(parts[1].hasSuffix(".json") ? parts[1].dropLast(5) : parts[1]) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let read): points = read
        }
        if single && points.count != 1 {
            return .failure(
                Refusal(
                    response: osrmError("InvalidValue", "\(service) takes one longitude,latitude, not \(points.count)"))
            )
        }
        return .success((travel, points))
    }

    /// The points of an OSRM path's `{coordinates}`: `lon,lat;lon,lat…` in decimal degrees, or
    /// an encoded polyline, `polyline(…)` at 5 decimals or `polyline6(…)` at 6, as OSRM takes
    /// them (a long list fits in fewer bytes); refused with OSRM's `InvalidValue`.
    static func osrmPoints(_ text: Substring) -> Result<[Coordinate], Refusal> {
        for (prefix, precision) in [("polyline(", 5), ("polyline6(", 6)] where text.hasPrefix(prefix) {
            let encoded = String(text.dropFirst(prefix.count).dropLast())
            guard text.hasSuffix(")"), let points = EncodedPolyline.decode(encoded, precision: precision),
                !points.isEmpty, points.allSatisfy(\.isValid)
            else {
                return .failure(
                    Refusal(
                        response: osrmError(
                            "InvalidValue", "'\(text.prefix(60))' is not an encoded polyline of valid positions")))
            }
            return .success(points)
        }
        var points: [Coordinate] = []
        for pair in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard let point = osrmCoordinate(pair) else {
                return .failure(
                    Refusal(
                        response: osrmError(
                            "InvalidValue", "'\(pair.prefix(60))' is not longitude,latitude in decimal degrees")))
            }
            points.append(point)
        }
        return .success(points)
    }

    /// OSRM's `/table/v1/{profile}/{lon,lat;lon,lat…}[?sources=0;1|all][&destinations=…]
    /// [&annotations=duration,distance][&fallback_speed=M/S][&fallback_coordinate=input|snapped]
    /// [&scale_factor=X]`: the durations (and distances) from the sources to the destinations,
    /// as ``MapsApp/table(_:maxCells:)`` answers it; at most the server's `maxTableCells` cells.
    /// Refusals as OSRM writes them (`InvalidUrl`, `InvalidValue`, `InvalidOptions`, `TooBig`,
    /// `NoSegment`), with 400.
    func table(_ request: HTTPRequest) -> HTTPResponse {
        let (mode, points): (TravelProfile.Mode, [Coordinate])
        switch Self.osrmPath(request, service: "table") {
        case .failure(let refusal): return refusal.response
        case .success(let asked): (mode, points) = asked
        }
        let query: TableQuery
        do throws(AppError) {
            query = try TableQuery(
                points: points, mode: mode,
                parameters: request.queryItems.filter { TableQuery.parameterNames.contains($0.name) })
        } catch {
            return Self.osrmRefusal(error)
        }
        do throws(AppError) {
            let answer = try app.table(query, maxCells: maxTableCells)
            if let failure = answer.failure { return Self.osrmError(failure.code, failure.message) }
            return .json(200, Data(answer.osrm.utf8))
        } catch {
            return Self.refusal(error)
        }
    }

    /// OSRM's `/nearest/v1/{profile}/{lon,lat}[?number=N][&bearings=D,T][&approaches=A][&radiuses=M]`:
    /// the N (1 by default) nearest road segments the profile travels, as
    /// ``MapsApp/nearest(_:mode:parameters:)`` answers it. Refusals as OSRM writes them, with 400.
    func nearest(_ request: HTTPRequest) -> HTTPResponse {
        let (mode, point): (TravelProfile.Mode, Coordinate)
        switch Self.osrmPath(request, service: "nearest", single: true) {
        case .failure(let refusal): return refusal.response
        case .success(let asked): (mode, point) = (asked.mode, asked.points[0])
        }
        do throws(AppError) {
            let answer = try app.nearest(point, mode: mode, parameters: request.queryItems)
            return .json(answer.code == "Ok" ? 200 : 400, Data(answer.document.utf8))
        } catch {
            return Self.refusal(error)
        }
    }

    /// OSRM's `/trip/v1/{profile}/{lon,lat;lon,lat…}[?roundtrip=true|false][&source=any|first]
    /// [&destination=any|last][&steps=true][&geometries=polyline|polyline6|geojson]
    /// [&overview=simplified|full|false][&hl=xx]`: the quickest order to visit the points in
    /// and the route, as ``MapsApp/trip(_:)`` answers it. Refusals as OSRM writes them, with 400.
    func trip(_ request: HTTPRequest) -> HTTPResponse {
        let (mode, points): (TravelProfile.Mode, [Coordinate])
        switch Self.osrmPath(request, service: "trip") {
        case .failure(let refusal): return refusal.response
        case .success(let asked): (mode, points) = asked
        }
        do throws(AppError) {
            let query = try TripQuery(
                points: points, mode: mode,
                parameters: request.queryItems.filter { TripQuery.parameterNames.contains($0.name) })
            let answer = try app.trip(query)
            return .json(answer.code == "Ok" ? 200 : 400, Data(answer.document.utf8))
        } catch {
            return Self.osrmRefusal(error)
        }
    }

    /// OSRM's `/match/v1/{profile}/{lon,lat;lon,lat…}[?timestamps=T;T…][&radiuses=M;M…]
    /// [&gaps=split|ignore][&tidy=true][&steps=true][&geometries=…][&overview=…][&hl=xx]`: the
    /// trace placed on the roads, as ``MapsApp/match(_:)`` answers it. Refusals as OSRM writes
    /// them, with 400. (A trace travels in the URL, as OSRM's does: about 1,000 points fit in
    /// the server's 32 KB a request.)
    func match(_ request: HTTPRequest) -> HTTPResponse {
        let (mode, points): (TravelProfile.Mode, [Coordinate])
        switch Self.osrmPath(request, service: "match") {
        case .failure(let refusal): return refusal.response
        case .success(let asked): (mode, points) = asked
        }
        do throws(AppError) {
            let query = try MatchQuery(
                points: points, mode: mode,
                parameters: request.queryItems.filter { MatchQuery.parameterNames.contains($0.name) })
            let answer = try app.match(query)
            return .json(answer.code == "Ok" ? 200 : 400, Data(answer.document.utf8))
        } catch {
            return Self.osrmRefusal(error)
        }
    }
}
