import Foundation
import HTTPServer
import MapsApp

extension MapsServer {
    /// Google's Elevation API: `locations=lat,lng|…` (or `enc:` and a polyline), or `path=`
    /// with `samples=N`, answered by ``MapsApp/elevation(_:)`` as Google writes it (`results`
    /// with `elevation`, `location`, `resolution`; `status` `OK`, or `DATA_NOT_AVAILABLE` where
    /// no imported model covers a point); `INVALID_REQUEST` with the reason for a request that
    /// cannot be read.
    func elevation(_ request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        do throws(AppError) {
            let query = try ElevationQuery(
                locations: request.query["locations"], path: request.query["path"], samples: request.query["samples"])
            response = .json(200, Data(try app.elevation(query).googleDocument.utf8))
        } catch {
            let refusal = ElevationAnswer.googleRefusal(error)
            response = .json(refusal.status == "INVALID_REQUEST" ? 400 : 500, Data(refusal.document.utf8))
        }
        response.headers.append(("Access-Control-Allow-Origin", "*"))
        return response
    }
}
