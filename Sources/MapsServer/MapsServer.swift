import Foundation
import GeoCore
import HTTPServer
import MapsApp
import MapsURL
import PlaceSearch
import Routing

/// The maps app over HTTP: every route asks ``MapsApp`` and serves its answer; none decides
/// what a link means on its own. Routes so far: `/health`; `/api/answer?url=LINK` (the
/// answer as JSON, the answer document `openmaps open --answer` writes; `hl=` picks the
/// language when the link has none); Nominatim's `/search?q=` and `/reverse?lat=&lon=`
/// (`format=jsonv2|json|geojson`, `limit`, `accept-language`); OSRM's
/// `/route/v1/{profile}/{lon,lat;lon,lat…}` (`steps`, `geometries`, `alternatives`).
public final class MapsServer: @unchecked Sendable {
    /// The app; its engines hold one store connection, so requests use it one at a time.
    private let app: MapsApp
    private let lock = NSLock()
    private var server: HTTPServer?
    private let log: @Sendable (String) -> Void

    /// The longest link `/api/answer` takes: 8,192 bytes (longer ones answer 414).
    public static let maxLinkLength = 8_192

    /// Serves `app` on `host`:`port` (0: any free port) with `threads` threads, calling `log`
    /// with one line per request (method, path, status, milliseconds).
    public init(
        app: MapsApp, host: String = "127.0.0.1", port: Int = 8080, threads: Int = 4,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(HTTPServerError) {
        self.app = app
        self.log = log
        server = nil
        server = try HTTPServer(host: host, port: port, threads: threads) { [unowned self] request in
            let start = Date()
            let response = self.respond(to: request)
            self.log(
                String(
                    format: "%@ %@ %d %.1f ms", request.method, request.path, response.status,
                    Date().timeIntervalSince(start) * 1000))
            return response
        }
    }

    /// The port served.
    public var port: Int { server?.port ?? 0 }

    /// Stops serving, once the requests being answered are.
    public func stop() { server?.stop() }

    /// The response to `request`.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return Self.error(405, "\(request.method) is not served: only GET and HEAD")
        }
        switch request.path {
        case "/health": return .json(200, Data(#"{"status":"ok"}"#.utf8))
        case "/api/answer": return answer(request)
        case "/search": return search(request)
        case "/reverse": return reverse(request)
        case let path where path.hasPrefix("/route/v1/"): return route(request)
        default: return Self.error(404, "no such path: \(request.path)")
        }
    }

    /// `/api/answer?url=LINK[&hl=xx]`.
    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard let link = request.query["url"], !link.isEmpty else {
            return Self.error(400, "'url' is required: the link to answer, percent-encoded")
        }
        guard link.utf8.count <= Self.maxLinkLength else {
            return Self.error(414, "'url' is longer than \(Self.maxLinkLength) bytes")
        }
        var options = AnswerOptions()
        if let hl = request.query["hl"] {
            guard let language = Language(tag: hl) else {
                return Self.error(400, "'hl' must be en, es, it or hi, not '\(hl)'")
            }
            options.language = language
        }
        lock.lock()
        defer { lock.unlock() }
        do {
            let answer = try app.answer(link, options: options)
            return .json(200, try AnswerDocument(answer).json())
        } catch let error as AppError {
            if case .unreadableLink(let diagnostics) = error {
                return Self.error(
                    400, "the link could not be read", details: diagnostics.map { $0.description })
            }
            return Self.error(500, "\(error)")
        } catch {
            return Self.error(500, "\(error)")
        }
    }

    /// Nominatim's `/search?q=TEXT[&format=jsonv2|json|geojson][&limit=N][&accept-language=xx]`.
    private func search(_ request: HTTPRequest) -> HTTPResponse {
        guard let text = request.query["q"], !text.isEmpty else { return Self.error(400, "'q' is required") }
        guard let format = Self.format(request) else { return Self.badFormat(request) }
        var query = SearchQuery(text, limit: 10, language: Self.language(request))
        if let limit = request.query["limit"] {
            guard let value = Int(limit) else {
                return Self.error(400, "'limit' must be a whole number, not '\(limit)'")
            }
            query.limit = value
        }
        lock.lock()
        defer { lock.unlock() }
        do throws(AppError) {
            return .json(200, Data(format.document(try app.search(query)).utf8))
        } catch {
            return Self.refusal(error)
        }
    }

    /// Nominatim's `/reverse?lat=LAT&lon=LON[&format=…][&accept-language=xx]`.
    private func reverse(_ request: HTTPRequest) -> HTTPResponse {
        guard let lat = request.query["lat"].flatMap({ DecimalText.parse($0, maxIntegerDigits: 3) }),
            let lon = request.query["lon"].flatMap({ DecimalText.parse($0, maxIntegerDigits: 3) })
        else { return Self.error(400, "'lat' and 'lon' are required, in decimal degrees") }
        guard let format = Self.format(request) else { return Self.badFormat(request) }
        lock.lock()
        defer { lock.unlock() }
        do throws(AppError) {
            let found = try app.reverse(
                Coordinate(latitude: lat, longitude: lon), language: Self.language(request))
            return .json(200, Data(format.document(found.map { [$0] } ?? [], reverse: true).utf8))
        } catch {
            return Self.refusal(error)
        }
    }

    /// The travel modes by the names OSRM's clients use and ours.
    static let profiles: [String: TravelProfile.Mode] = [
        "driving": .driving, "car": .driving, "walking": .walking, "foot": .walking, "cycling": .bicycling,
        "bicycle": .bicycling, "two-wheeler": .twoWheeler,
    ]

    /// OSRM's `/route/v1/{profile}/{lon,lat;lon,lat…}[?steps=true][&geometries=polyline|polyline6|geojson]
    /// [&alternatives=true][&hl=xx]`: 2 to ``Router/maxPoints`` points; failures as OSRM writes
    /// them (`NoSegment`, `NoRoute`, `InvalidQuery`, `InvalidUrl`), with 400.
    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.path.dropFirst("/route/v1/".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return Self.osrmError("InvalidUrl", "expected /route/v1/{profile}/{coordinates}")
        }
        let coordinates = String(parts[1]).hasSuffix(".json") ? String(parts[1].dropLast(5)) : String(parts[1])
        guard let mode = Self.profiles[String(parts[0])] else {
            return Self.osrmError(
                "InvalidValue",
                "profile '\(parts[0])' is not one of \(Self.profiles.keys.sorted().joined(separator: ", "))")
        }
        let pairs = coordinates.split(separator: ";", omittingEmptySubsequences: false)
        guard (2...Router.maxPoints).contains(pairs.count) else {
            return Self.osrmError("InvalidQuery", "a route takes 2 to \(Router.maxPoints) points, not \(pairs.count)")
        }
        var points: [Coordinate] = []
        for pair in pairs {
            let numbers = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard numbers.count == 2, let lon = DecimalText.parse(String(numbers[0]), maxIntegerDigits: 3),
                let lat = DecimalText.parse(String(numbers[1]), maxIntegerDigits: 3),
                case let point = Coordinate(latitude: lat, longitude: lon), point.isValid
            else { return Self.osrmError("InvalidValue", "'\(pair)' is not longitude,latitude in decimal degrees") }
            points.append(point)
        }
        guard let geometry = RouteDocument.Geometry(rawValue: request.query["geometries"] ?? "polyline") else {
            return Self.osrmError("InvalidOptions", "'geometries' must be polyline, polyline6 or geojson")
        }
        let steps = request.query["steps"] == "true"
        let alternatives = request.query["alternatives"].map { $0 == "true" ? 2 : min(Int($0) ?? 0, 2) } ?? 0
        let language = request.query["hl"].flatMap(Language.init(tag:)) ?? .en
        lock.lock()
        defer { lock.unlock() }
        do throws(AppError) {
            let routes =
                alternatives > 0 && points.count == 2
                ? try app.routes(from: points[0], to: points[1], mode: mode, alternatives: alternatives)
                : [try app.route(points, mode: mode)]
            let written = steps ? try routes.map { route throws(AppError) in try app.steps(of: route) } : []
            return .json(
                200,
                Data(
                    RouteDocument.osrm(
                        routes, geometry: geometry, steps: written, instructions: steps ? Instructions(language) : nil
                    ).utf8))
        } catch {
            if case .noRoute(let reason) = error { return .json(400, Data(RouteDocument.failure(reason).utf8)) }
            return Self.error(500, "\(error)")
        }
    }

    /// An OSRM error document: `{"code": code, "message": message}`.
    static func osrmError(_ code: String, _ message: String) -> HTTPResponse {
        let data =
            (try? JSONSerialization.data(withJSONObject: ["code": code, "message": message], options: [.sortedKeys]))
            ?? Data()
        return .json(400, data)
    }

    /// The `format` asked for, jsonv2 by default (as Nominatim's); nil for another.
    private static func format(_ request: HTTPRequest) -> ResultFormat? {
        ResultFormat(rawValue: request.query["format"] ?? "jsonv2")
    }

    /// The refusal of a `format` OpenMaps does not write.
    private static func badFormat(_ request: HTTPRequest) -> HTTPResponse {
        error(400, "'format' must be jsonv2, json or geojson, not '\(request.query["format"] ?? "")'")
    }

    /// The names' language: the first tag of `accept-language` (the parameter, else `hl`, else
    /// the header), when OpenMaps speaks it; nil (local names) otherwise.
    private static func language(_ request: HTTPRequest) -> String? {
        let asked = request.query["accept-language"] ?? request.query["hl"] ?? request.headers["accept-language"]
        let first = asked?.split(separator: ",").first?.split(separator: ";").first
        return first.flatMap { Language(tag: String($0)) }?.rawValue
    }

    /// An app's refusal: 400 for a bad option, else 500.
    private static func refusal(_ error: AppError) -> HTTPResponse {
        if case .invalidOption = error { return Self.error(400, "\(error)") }
        return Self.error(500, "\(error)")
    }

    /// A JSON error: `{"error": message, "details": [...]}`.
    static func error(_ status: Int, _ message: String, details: [String] = []) -> HTTPResponse {
        var document: [String: Any] = ["error": message]
        if !details.isEmpty { document["details"] = details }
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
        return .json(status, data)
    }
}
