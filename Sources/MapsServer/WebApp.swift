import Foundation
import GeoCore
import HTTPServer
import MapData
import MapsURL

/// The web app's page and files. The page is one HTML file whatever the link: the server
/// writes into it the link to answer (the page asks `/api/answer` what it means) and the
/// interface's words in the page's language, every value HTML-escaped. Scripts and styles come
/// from this server only (the Content-Security-Policy says so); Leaflet is Debian's
/// `libjs-leaflet`, read once from its folder by fixed names.
struct WebApp: Sendable {
    /// Where Debian's `libjs-leaflet` puts Leaflet.
    static let leafletFolder = "/usr/share/javascript/leaflet"

    /// The files served under `/app/`, by their path there: the app's own (built into the
    /// program) and Leaflet's (read at start; missing when the package is not installed).
    let files: [String: (type: String, body: [UInt8])]

    /// The page's policy: everything from this server; images also as data URLs (Leaflet's
    /// controls) and blobs, and workers from blobs (MapLibre decodes tiles in workers made from
    /// one); no framing, no plugins, no base or form targets elsewhere.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; "
        + "worker-src blob:; child-src blob:; object-src 'none'; base-uri 'none'; form-action 'self'; "
        + "frame-ancestors 'none'"

    /// Where `data install` puts MapLibre GL JS (from the pinned `maplibre` wheel).
    static var maplibreFolder: String { DataInstaller.defaultDirectory + "/web" }

    init(leafletFolder: String = Self.leafletFolder, maplibreFolder: String = Self.maplibreFolder) {
        var files: [String: (String, [UInt8])] = [
            "app.js": ("text/javascript; charset=utf-8", PackageResources.app_js),
            "app.css": ("text/css; charset=utf-8", PackageResources.app_css),
        ]
        let leaflet: [(String, String)] = [
            ("leaflet.js", "text/javascript; charset=utf-8"), ("leaflet.css", "text/css; charset=utf-8"),
            ("images/marker-icon.png", "image/png"), ("images/marker-icon-2x.png", "image/png"),
            ("images/marker-shadow.png", "image/png"), ("images/layers.png", "image/png"),
            ("images/layers-2x.png", "image/png"),
        ]
        for (name, type) in leaflet {
            if let data = FileManager.default.contents(atPath: leafletFolder + "/" + name) {
                files["leaflet/" + name] = (type, Array(data))
            }
        }
        for (name, type) in [
            ("maplibre-gl.js", "text/javascript; charset=utf-8"), ("maplibre-gl.css", "text/css; charset=utf-8"),
        ] {
            if let data = FileManager.default.contents(atPath: maplibreFolder + "/" + name) {
                files["maplibre/" + name] = (type, Array(data))
            }
        }
        files["vector.js"] = ("text/javascript; charset=utf-8", PackageResources.vector_js)
        files["surface.js"] = ("text/javascript; charset=utf-8", PackageResources.surface_js)
        files["labels.js"] = ("text/javascript; charset=utf-8", PackageResources.labels_js)
        self.files = files
    }

    /// True when MapLibre GL JS was found.
    var hasMapLibre: Bool { files["maplibre/maplibre-gl.js"] != nil }

    /// `/vector`: the vector map on MapLibre GL JS, its style and camera from the query and the
    /// hash (`#zoom/lat/lon/bearing/pitch`, MapLibre's zoom), for the styles and tiles as a
    /// client draws them.
    func vectorPage(language: Language) -> HTTPResponse {
        let label = (Phrasebook(language).templates.app["map label"] ?? "Map").markupEscaped
        let page = """
            <!doctype html>
            <html lang="\(language.rawValue)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>OpenMaps</title>
            <link rel="stylesheet" href="/app/maplibre/maplibre-gl.css">
            <style>html, body, #map { margin: 0; height: 100%; }</style>
            </head><body><div id="map" role="region" aria-label="\(label)"></div>
            <script src="/app/maplibre/maplibre-gl.js"></script><script src="/app/labels.js"></script><script src="/app/vector.js"></script>
            </body></html>
            """
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", Self.vectorPolicy),
                ("X-Content-Type-Options", "nosniff"),
            ], body: Array(page.utf8))
    }

    /// The vector page's policy: as the app's, and workers and images from blobs (MapLibre
    /// decodes tiles in workers made from a blob).
    static let vectorPolicy =
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
        + "worker-src blob:; child-src blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        + "frame-ancestors 'none'"

    /// True when Leaflet was found.
    var hasLeaflet: Bool { files["leaflet/leaflet.js"] != nil }

    /// `/app/NAME`: one of ``files``, else 404. The name only ever selects an entry of the
    /// table; it never reaches the file system.
    func file(_ name: String) -> HTTPResponse {
        guard let file = files[name] else { return MapsServer.error(404, "no such file: /app/\(name)") }
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", file.type), ("Cache-Control", "public, max-age=3600"),
                ("X-Content-Type-Options", "nosniff"),
            ], body: file.body)
    }

    /// The page, opening `link` (nil: the world map) with its words in `language`.
    func page(link: String?, language: Language) -> HTTPResponse {
        let words = Phrasebook(language).templates.app
        var html = String(decoding: PackageResources.index_html, as: UTF8.self)
        html = html.replacingOccurrences(of: "{{lang}}", with: language.rawValue)
        html = html.replacingOccurrences(of: "{{link}}", with: (link ?? "").markupEscaped)
        html = html.replacingOccurrences(of: "{{words}}", with: Self.scriptJSON(words))
        for (key, text) in words { html = html.replacingOccurrences(of: "{{t:\(key)}}", with: text.markupEscaped) }
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", Self.contentSecurityPolicy),
                ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
                ("Cache-Control", "no-cache"),
            ], body: Array(html.utf8))
    }

    /// A JSON object safe inside a `<script type="application/json">`: `<`, `>` and `&`
    /// written as `\u` escapes, so no text in it can close the element.
    static func scriptJSON(_ object: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "<", with: "\\u003c")
            .replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }

    /// The page's language: `hl` when OpenMaps speaks it, else the first language of the
    /// browser's `Accept-Language` it speaks, else English.
    static func language(of request: HTTPRequest) -> Language {
        Language.firstSpoken(
            in: [request.query["hl"], request.headers["accept-language"]].compactMap { $0 }.joined(separator: ","))
            ?? .en
    }

    /// The Google Maps web link a request to this server stands for: `https://www.google.com`
    /// with the request's path and query, percent-encoded again (the server hands them over
    /// decoded). Nil for `/` without a query (the world map).
    static func googleLink(for request: HTTPRequest) -> String? {
        if request.path == "/" && request.queryItems.allSatisfy({ $0.name == "hl" }) { return nil }
        let pathAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "%?#"))
        let path = request.path.addingPercentEncoding(withAllowedCharacters: pathAllowed) ?? "/"
        let valueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#%"))
        let query = request.queryItems.map { item in
            (item.name.addingPercentEncoding(withAllowedCharacters: valueAllowed) ?? "") + "="
                + (item.value.addingPercentEncoding(withAllowedCharacters: valueAllowed) ?? "")
        }.joined(separator: "&")
        return "https://www.google.com" + path + (query.isEmpty ? "" : "?" + query)
    }
}

extension MapsServer {
    /// The names the share panel gives each form, and the forms it lists.
    static let shareForms: [(target: LinkTarget, name: String)] = [
        (.comgooglemaps, "comgooglemaps://"), (.universal, "Universal Link (Maps URLs)"),
        (.desktop, "Google Maps (desktop)"), (.comgooglemapsurl, "comgooglemapsurl://"), (.geo, "geo:"),
        (.apple, "Apple Maps"),
    ]

    /// `/api/share?center=LAT,LNG&zoom=Z[&views=…][&q=…][&saddr=…&daddr=…&directionsmode=…]`:
    /// the view as a link in every form, built as `openmaps url build` builds them:
    /// `{"links": [{"form", "name", "url", "unexpressed": [...]}]}`.
    func share(_ request: HTTPRequest) -> HTTPResponse {
        var builder = RequestBuilder()
        let query = request.query
        builder.center = query["center"]
        builder.zoom = query["zoom"]
        builder.views = query["views"]
        builder.mapMode = query["mapmode"]
        builder.query = query["q"]
        builder.saddr = query["saddr"]
        builder.daddr = query["daddr"]
        builder.directionsMode = query["directionsmode"]
        let built: MapsRequest
        do {
            built = try builder.build()
        } catch {
            return Self.error(400, "'\(error.parameter)' \(error.message)")
        }
        var links: [[String: Any]] = []
        for (target, name) in Self.shareForms {
            guard let printed = try? MapsURLPrinter.print(built, as: target) else { continue }
            links.append([
                "form": target.rawValue, "name": name, "url": printed.url,
                "unexpressed": printed.unexpressed.map(\.description),
            ])
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["links": links], options: [.sortedKeys])) ?? Data()
        return .json(200, data)
    }
}
