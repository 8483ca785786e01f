import Foundation
import GeoCore
import HTTPServer
import MapsApp
import Routing

/// Isochrones as OpenMaps, Valhalla and GraphHopper ask for them, all by ``MapsApp/isochrone(_:)``.
extension MapsServer {
    /// An isochrone's answer as a door writes it: the document, open to pages anywhere, or the
    /// refusal `refuse` writes of its code and message.
    static func isochroneResponse(
        _ answer: (code: String, document: String), refuse: (_ code: String, _ message: String) -> HTTPResponse
    ) -> HTTPResponse {
        guard answer.code == "Ok" else { return refuse(answer.code, MapsApp.refusalMessage(answer)) }
        var response = HTTPResponse.json(200, Data(answer.document.utf8))
        response.headers.append(("Access-Control-Allow-Origin", "*"))
        return response
    }

    /// `/isochrone/v1/{profile}/{lon,lat}?contours_minutes=5,10,15` (or `contours_meters=`; and
    /// `polygons`, `denoise`, `generalize` as Valhalla's): the area reached within each, as
    /// Valhalla writes isochrones (GeoJSON), by ``MapsApp/isochrone(_:)``. Refusals in OSRM's
    /// codes, with 400.
    func isochrone(_ request: HTTPRequest) -> HTTPResponse {
        let (mode, point): (TravelProfile.Mode, Coordinate)
        switch Self.osrmPath(request, service: "isochrone", single: true) {
        case .failure(let refusal): return refusal.response
        case .success(let asked): (mode, point) = (asked.mode, asked.points[0])
        }
        do throws(AppError) {
            return Self.isochroneResponse(
                try app.isochrone(IsochroneQuery(origin: point, mode: mode, parameters: request.queryItems)),
                refuse: Self.osrmError)
        } catch {
            return Self.osrmRefusal(error)
        }
    }

    /// Valhalla's own `/isochrone`: its JSON request in the `json` parameter of a `GET` or as a
    /// `POST`'s body (``IsochroneQuery/init(valhalla:)``, Valhalla's defaults), answered as
    /// Valhalla answers it, so that Valhalla's clients work unchanged; refusals as Valhalla
    /// writes them (`error_code`, `error`, `status_code`, `status`), with 400. A `GET` with
    /// `point=` is GraphHopper's request of the same path (``graphHopperIsochrone(_:)``).
    func valhallaIsochrone(_ request: HTTPRequest) -> HTTPResponse {
        if request.method != "POST" && request.query["point"] != nil { return graphHopperIsochrone(request) }
        let body = request.method == "POST" ? request.body : Array((request.query["json"] ?? "").utf8)
        func refusal(_ code: Int, _ message: String) -> HTTPResponse {
            .json(
                400,
                Data(
                    JSONText.pretty([
                        "error_code": code, "error": message, "status_code": 400, "status": "Bad Request",
                    ]).utf8))
        }
        guard !body.isEmpty else { return refusal(100, "Failed to parse json request: give the request as json") }
        do throws(AppError) {
            return Self.isochroneResponse(try app.isochrone(IsochroneQuery(valhalla: body))) { code, message in
                refusal(code == "NoSegment" ? 171 : 112, message)
            }
        } catch {
            guard case .invalidOption(let option, let message) = error else { return Self.osrmRefusal(error) }
            // Valhalla's codes: 100 a request that is no JSON, 110 its locations, 112 its
            // contours, 125 its costing.
            let codes = ["json": 100, "locations": 110, "contours": 112, "costing": 125]
            return refusal(codes[option] ?? 112, "'\(option)' \(message)")
        }
    }

    /// GraphHopper's `/isochrone?point=LAT,LON&profile=car&time_limit=600&buckets=2`
    /// (``IsochroneQuery/init(graphHopper:)``), answered as GraphHopper answers it; refusals as
    /// GraphHopper writes them (`message` and `hints`), with 400.
    func graphHopperIsochrone(_ request: HTTPRequest) -> HTTPResponse {
        func refusal(_ message: String) -> HTTPResponse {
            .json(400, Data(JSONText.pretty(["message": message, "hints": [["message": message]]]).utf8))
        }
        do throws(AppError) {
            return Self.isochroneResponse(try app.isochrone(IsochroneQuery(graphHopper: request.queryItems))) {
                refusal($1)
            }
        } catch {
            guard case .invalidOption(let option, let message) = error else { return Self.osrmRefusal(error) }
            return refusal("'\(option)' \(message)")
        }
    }
}
