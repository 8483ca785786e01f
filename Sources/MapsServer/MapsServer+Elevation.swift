import Foundation
import GeoCore
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
            switch error {
            case .invalidOption(let name, let message):
                response = .json(400, Data(ElevationAnswer.googleRefusal("'\(name)': \(message)").utf8))
            default:
                response = .json(
                    500,
                    Data(
                        JSONText.pretty([
                            "error_message": "\(error)", "results": [Any](), "status": "UNKNOWN_ERROR",
                        ]).utf8))
            }
        }
        response.headers.append(("Access-Control-Allow-Origin", "*"))
        return response
    }
}
