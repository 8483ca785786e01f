import Foundation
import GeoCore
import HTTPServer
import MapCore
import MapRenderer
import MapsApp
import MapsURL
import PlaceSearch
import Synchronization

/// How a ``MapsServer`` runs: where it listens, its threads and its picture cache.
public struct ServerOptions: Sendable {
    /// An IPv4 address; 127.0.0.1 (this machine only) by default.
    public var host = "127.0.0.1"
    /// 0 for any free port; 8080 by default.
    public var port = 8080
    /// Threads answering requests, 1...64; 4 by default.
    public var threads = 4
    /// Connections held at once (in all and from one address) and how long the server waits
    /// for them (``HTTPServer/Limits``).
    public var limits = HTTPServer.Limits()
    /// The folder rendered tiles and static maps are kept in; nil keeps them in memory only.
    public var cacheFolder: String?
    /// Bytes of pictures kept in memory: 64 MiB by default.
    public var cacheMemoryBytes = 64 << 20
    /// Bytes of pictures kept in the folder: 1 GiB by default.
    public var cacheDiskBytes = 1 << 30
    /// Names the data the pictures are drawn from (the store file's size and modification
    /// time), so that pictures cached from older data are never served; empty by default.
    public var dataVersion = ""
    /// Cells a `/table/v1` request may ask for (sources × destinations); more are refused with
    /// OSRM's `TooBig`. ``TableQuery/defaultMaxCells`` (10,000) by default.
    public var maxTableCells = TableQuery.defaultMaxCells

    /// A server with nothing to answer from yet (no store): pages, links and health only.
    public init() {}
}

/// The maps app over HTTP: every route asks ``MapsApp`` and serves its answer; none decides
/// what a link means on its own.
///
/// - The web app: `/` and every Google Maps web path (`/maps/@…`, `/maps/place/…`,
///   `/maps/search/…`, `/maps/dir/…`, `/maps?q=…`, `api=1` forms, `/?q=…`) open the page in
///   the state the link asks for; `/open?url=LINK` does the same for any link
///   (`comgooglemaps://`, x-callback, `comgooglemapsurl://`, `geo:`, Apple). Its files are
///   under `/app/`.
/// - `/api/answer?url=LINK` (the answer document; `hl=` picks the language when the link has
///   none, `mylocation=LAT,LNG` places a blank directions end, `size=WxH` is the map's size);
///   `/api/share?center=…` (a view as a link in every form); `/health`.
/// - Tiles `/tiles/{type}/{z}/{x}/{y}.png` (and `@2x`), TileJSON `/tiles/{type}.json`, Google's
///   `/staticmap`: with ETag, Cache-Control and 304, cached within bounds.
/// - Nominatim's `/search` and `/reverse`; OSRM's `/route/v1/{profile}/{lon,lat;…}`,
///   `/table/v1/{profile}/{lon,lat;…}`, `/nearest/v1/{profile}/{lon,lat}`,
///   `/match/v1/{profile}/{lon,lat;…}` and `/trip/v1/{profile}/{lon,lat;…}`; isochrones `/isochrone/v1/{profile}/{lon,lat}`;
///   Google's Elevation API, `/elevation?locations=…` (also at its own path, `/maps/api/elevation/json`).
public final class MapsServer: @unchecked Sendable {
    /// The app, answering on every worker thread at once: its engines take store connections
    /// of their own from a pool (``MapsApp/onStore(path:traffic:)``), so no request waits for
    /// another's. Replaced whole by ``reload(app:dataVersion:)`` when the store changes.
    var app: MapsApp { live.withLock { $0.app } }
    /// What identifies the data served, in the tile caches' keys (``ServerOptions/dataVersion``).
    var dataVersion: String { live.withLock { $0.dataVersion } }
    private let live: Mutex<(app: MapsApp, dataVersion: String)>
    private var server: HTTPServer?
    private let log: @Sendable (String) -> Void
    let cache: TileCache
    /// Cells a `/table/v1` request may ask for.
    let maxTableCells: Int
    let webApp = WebApp()
    /// The credits every picture carries.
    let attribution = MapRenderer.credits(streets: true, placeNames: true, feeds: []).joined(separator: " · ")

    /// The longest link `/api/answer` takes: 8,192 bytes (longer ones answer 414).
    public static let maxLinkLength = 8_192

    /// Serves `app` as `options` say, calling `log` with one line per request (method, path,
    /// status, milliseconds).
    ///
    /// - Throws: ``HTTPServerError`` when the address cannot be listened on or the cache folder
    ///   cannot be made.
    public init(
        app: MapsApp, options: ServerOptions = ServerOptions(), log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(HTTPServerError) {
        live = Mutex((app, options.dataVersion))
        self.log = log
        maxTableCells = options.maxTableCells
        do {
            cache = try TileCache(
                memoryBytes: options.cacheMemoryBytes,
                directory: options.cacheFolder.map { URL(fileURLWithPath: $0, isDirectory: true) },
                diskBytes: options.cacheDiskBytes)
        } catch {
            throw HTTPServerError(description: "cannot use the cache folder \(options.cacheFolder ?? ""): \(error)")
        }
        server = nil
        server = try HTTPServer(
            host: options.host, port: options.port, threads: options.threads, limits: options.limits,
            quick: { [unowned self] request in
                let start = Date()
                guard let response = self.respond(to: request, atOnce: true) else { return nil }
                self.logLine(request, start, response)
                return response
            }
        ) { [unowned self] request in
            let start = Date()
            let response = self.respond(to: request)
            self.logLine(request, start, response)
            return response
        }
    }

    /// Serves `app` from now on, its data known by `dataVersion` (a store updated under the
    /// server: ``StoreWatcher``): requests already running finish on the app they began with;
    /// the tiles cached under the previous version are no longer served.
    public func reload(app: MapsApp, dataVersion: String) {
        live.withLock { $0 = (app, dataVersion) }
    }

    /// Logs one line for a request answered: method, path, status, milliseconds since `start`.
    private func logLine(_ request: HTTPRequest, _ start: Date, _ response: HTTPResponse) {
        log(
            String(
                format: "%@ %@ %d %.1f ms", request.method, request.path, response.status,
                Date().timeIntervalSince(start) * 1000))
    }

    /// The port served.
    public var port: Int { server?.port ?? 0 }

    /// False when Debian's Leaflet was not found: the web app's page then cannot show a map.
    public var hasLeaflet: Bool { webApp.hasLeaflet }

    /// True when the web app found MapLibre GL JS (installed by `openmaps data install`).
    public var hasMapLibre: Bool { webApp.hasMapLibre }

    /// Stops serving, once the requests being answered are.
    public func stop() { server?.stop() }

    /// The response to `request`.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        respond(to: request, atOnce: false) ?? Self.error(500, "no answer to \(request.path)")
    }

    /// The response to `request`; with `atOnce`, only what needs none of the app's engines (a
    /// page, a file, a picture in the cache, a refusal), else nil: the server answers those on
    /// the thread that read them, and hands the rest to a worker.
    func respond(to request: HTTPRequest, atOnce: Bool) -> HTTPResponse? {
        // Valhalla's isochrone requests come as a POST's body too, from pages after a preflight.
        if request.method == "OPTIONS" && request.path == "/isochrone" {
            var allowed = HTTPResponse(status: 204, body: [])
            allowed.headers += [
                ("Access-Control-Allow-Origin", "*"), ("Access-Control-Allow-Methods", "GET, POST"),
                ("Access-Control-Allow-Headers", "Content-Type"),
            ]
            return allowed
        }
        guard
            request.method == "GET" || request.method == "HEAD"
                || (request.method == "POST" && request.path == "/isochrone")
        else {
            return Self.error(405, "\(request.method) is not served: only GET and HEAD (and POST to /isochrone)")
        }
        switch request.path {
        case "/health": return .json(200, Data(#"{"status":"ok"}"#.utf8))
        case "/api/answer": return atOnce ? nil : answer(request)
        case "/api/share": return share(request)
        case "/search": return atOnce ? nil : search(request)
        case "/api/search": return atOnce ? nil : searchBox(request)
        case "/reverse": return atOnce ? nil : reverse(request)
        case "/staticmap": return staticMap(request, cachedOnly: atOnce)
        case "/open": return open(request)
        case "/elevation", "/maps/api/elevation/json": return atOnce ? nil : elevation(request)
        case "/isochrone": return atOnce ? nil : valhallaIsochrone(request)
        case "/api/vehicles": return atOnce ? nil : vehicles(request)
        case "/api/alerts": return atOnce ? nil : stopAlerts(request)
        case let path where path == "/" || path == "/maps" || path.hasPrefix("/maps/"):
            return webApp.page(link: WebApp.googleLink(for: request), language: WebApp.language(of: request))
        case let path where path.hasPrefix("/app/"): return webApp.file(String(path.dropFirst("/app/".count)))
        case let path where path.hasPrefix("/tiles/"): return tiles(request, cachedOnly: atOnce)
        case "/vector": return webApp.vectorPage(language: WebApp.language(of: request))
        case let path where path.hasPrefix("/styles/"): return mapStyle(request)
        case let path where path.hasPrefix("/fonts/"): return atOnce ? nil : glyphs(request)
        case let path where path.hasPrefix("/sprites/"): return sprite(request)
        case let path where path.hasPrefix("/labels/"): return atOnce ? nil : labelPicture(request)
        case let path where path.hasPrefix("/route/v1/"): return atOnce ? nil : route(request)
        case let path where path.hasPrefix("/table/v1/"): return atOnce ? nil : table(request)
        case let path where path.hasPrefix("/nearest/v1/"): return atOnce ? nil : nearest(request)
        case let path where path.hasPrefix("/trip/v1/"): return atOnce ? nil : trip(request)
        case let path where path.hasPrefix("/match/v1/"): return atOnce ? nil : match(request)
        case let path where path.hasPrefix("/isochrone/v1/"): return atOnce ? nil : isochrone(request)
        default: return Self.error(404, "no such path: \(request.path)")
        }
    }

    /// `/open?url=LINK[&hl=xx]`: the web app opening any link, as a scheme handler would.
    private func open(_ request: HTTPRequest) -> HTTPResponse {
        switch Self.link(in: request) {
        case .failure(let refusal): return refusal.response
        case .success(let link): return webApp.page(link: link, language: WebApp.language(of: request))
        }
    }

    /// A refused request's response, as an error to return early with.
    struct Refusal: Error {
        var response: HTTPResponse
    }

    /// The `url` parameter: the link to open or answer, at most ``maxLinkLength`` bytes.
    private static func link(in request: HTTPRequest) -> Result<String, Refusal> {
        guard let link = request.query["url"], !link.isEmpty else {
            return .failure(Refusal(response: error(400, "'url' is required: the link, percent-encoded")))
        }
        guard link.utf8.count <= maxLinkLength else {
            return .failure(Refusal(response: error(414, "'url' is longer than \(maxLinkLength) bytes")))
        }
        return .success(link)
    }

    /// `/api/answer?url=LINK[&hl=xx][&size=WxH][&mylocation=LAT,LNG]…`: the answer document,
    /// with the options ``AnswerOptions/init(parameters:)`` reads.
    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let link: String
        switch Self.link(in: request) {
        case .failure(let refusal): return refusal.response
        case .success(let text): link = text
        }
        // The page's map size, so the camera fits what the link places into what the reader
        // sees; the language; the user's position; the view's other options.
        let options: AnswerOptions
        do throws(AppError) { options = try AnswerOptions(parameters: request.queryItems) } catch {
            return Self.refusal(error)
        }
        do throws(AppError) {
            let answer = try app.answer(link, options: options)
            do {
                return .json(200, try AnswerDocument(answer).json())
            } catch {
                return Self.error(500, "writing the answer failed: \(error)")
            }
        } catch {
            if case .unreadableLink(let diagnostics) = error {
                return Self.error(
                    400, "the link could not be read", details: diagnostics.map { $0.description })
            }
            return Self.refusal(error)
        }
    }

    /// `/api/search?q=TEXT[&near=LAT,LNG][&hl=xx][&limit=N][&typing=1]`: what the web app's
    /// search box finds, while typing and on Enter alike (``MapsApp/searchBox(_:near:limit:language:typing:)``):
    /// `{"places": [FoundPlace…], "notes": [Note…]}`.
    private func searchBox(_ request: HTTPRequest) -> HTTPResponse {
        guard let asked = request.query["q"], !asked.isEmpty else { return Self.error(400, "'q' is required") }
        do throws(AppError) {
            let text = try Parameter.searchText(asked, name: "q")
            let near = try request.query["near"].map { text throws(AppError) in
                try Parameter.coordinate(text, name: "near")
            }
            let limit = try request.query["limit"].map { text throws(AppError) in
                try Parameter.count(text, name: "limit", in: MapsApp.searchBoxLimits)
            }
            let language = try request.query["hl"].map(Language.hl)
            let found = try app.searchBox(
                text, near: near, limit: limit ?? MapsApp.searchResultLimit, language: language,
                typing: request.query["typing"] == "1")
            struct Document: Encodable {
                var places: [FoundPlace]
                var notes: [Note]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            do {
                return .json(200, try encoder.encode(Document(places: found.places, notes: found.notes)))
            } catch {
                return Self.error(500, "writing the places failed: \(error)")
            }
        } catch {
            return Self.refusal(error)
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
        if let viewbox = request.query["viewbox"] {
            // Nominatim's x1,y1,x2,y2: results near its centre rank first.
            let numbers = viewbox.split(separator: ",").compactMap { DecimalText.parse($0) }
            guard numbers.count == 4 else {
                return Self.error(400, "'viewbox' must be x1,y1,x2,y2 in decimal degrees, not '\(viewbox)'")
            }
            let centre = Coordinate(latitude: (numbers[1] + numbers[3]) / 2, longitude: (numbers[0] + numbers[2]) / 2)
            guard centre.isValid else { return Self.error(400, "'viewbox' is outside the world") }
            query.near = centre
        }
        do throws(AppError) {
            let results = try app.search(query)
            return .json(200, Data(format.document(results, language: query.language).utf8))
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
        do throws(AppError) {
            let language = Self.language(request)
            let found = try app.reverse(Coordinate(latitude: lat, longitude: lon), language: language)
            return .json(200, Data(format.document(found.map { [$0] } ?? [], reverse: true, language: language).utf8))
        } catch {
            return Self.refusal(error)
        }
    }

    /// The travel modes by the names OSRM's clients use and ours.
    static let profiles: [String: TravelMode] = [
        "driving": .driving, "car": .driving, "walking": .walking, "foot": .walking, "cycling": .bicycling,
        "bicycle": .bicycling, "two-wheeler": .twoWheeler, "transit": .transit,
    ]

    /// OSRM's `/route/v1/{profile}/{coordinates}` (``osrmPoints(_:)``: 2 to
    /// ``DirectionsQuery/maxEnds`` points) with OSRM's options, as
    /// ``DirectionsQuery/osrm(points:mode:parameters:)`` reads them; `transit` between 2 points, leaving at `depart`
    /// (`YYYY-MM-DDTHH:MM`, the timetables' local time; now without it) or arriving by
    /// `arrive`. Failures as OSRM writes them (`NoSegment`, `NoRoute`, `InvalidQuery`,
    /// `InvalidUrl`, `InvalidValue`, `InvalidOptions`), with 400.
    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let (mode, points): (TravelMode, [Coordinate])
        switch Self.osrmPath(request, service: "route", single: false, transit: true) {
        case .failure(let refusal): return refusal.response
        case .success(let asked): (mode, points) = asked
        }
        let most = mode == .transit ? 2 : DirectionsQuery.maxEnds
        guard (2...most).contains(points.count) else {
            return Self.osrmError("InvalidQuery", "a route takes 2 to \(most) points, not \(points.count)")
        }
        do throws(AppError) {
            let (query, output) = try DirectionsQuery.osrm(points: points, mode: mode, parameters: request.queryItems)
            let answer = try app.directions(query)
            if let failure = answer.osrmFailure { return Self.osrmError(failure.code, failure.message) }
            if answer.failure != nil { return Self.error(503, answer.failureNote?.message ?? "no routing") }
            return .json(
                200,
                Data(
                    answer.osrm(
                        geometry: output.geometry, overview: output.overview, annotations: output.annotations,
                        waypoints: output.waypoints, hints: output.hints
                    ).utf8))
        } catch {
            return Self.osrmRefusal(error)
        }
    }

    /// An OSRM `longitude,latitude` in decimal degrees; nil for anything else.
    static func osrmCoordinate(_ pair: Substring) -> Coordinate? {
        let numbers = pair.split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2, let lon = DecimalText.parse(String(numbers[0]), maxIntegerDigits: 3),
            let lat = DecimalText.parse(String(numbers[1]), maxIntegerDigits: 3),
            case let point = Coordinate(latitude: lat, longitude: lon), point.isValid
        else { return nil }
        return point
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

    /// The names' language: the first one OpenMaps speaks in `accept-language` (the
    /// parameter, else `hl`, else the header), Nominatim's preference list; nil (local names)
    /// when none is.
    private static func language(_ request: HTTPRequest) -> Language? {
        let asked = request.query["accept-language"] ?? request.query["hl"] ?? request.headers["accept-language"]
        return Language.firstSpoken(in: asked ?? "")
    }

    /// An app's refusal: 400 for a bad option, 503 for an engine the server was started
    /// without, else 500.
    static func refusal(_ error: AppError) -> HTTPResponse {
        switch error {
        case .invalidOption, .unreadableLink: Self.error(400, "\(error)")
        case .engineMissing: Self.error(503, "\(error)")
        default: Self.error(500, "\(error)")
        }
    }

    /// A JSON error: `{"error": message, "details": [...]}`.
    static func error(_ status: Int, _ message: String, details: [String] = []) -> HTTPResponse {
        var document: [String: Any] = ["error": message]
        if !details.isEmpty { document["details"] = details }
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
        return .json(status, data)
    }
}
