import CairoKit
import Foundation
import GeoCore
import MapsApp
import MapsURL
import TestSupport
import Testing

@testable import MapsServer

/// The web app's pages and the picture services: which link a path opens, escaping and the
/// page's policy, tiles and static maps with their caching headers and limits, share links.
@Suite struct WebAppTests: ServerExchanges {
    /// The `content` of the page's `openmaps-link` meta element, as written (escaped).
    func pageLink(_ html: String) -> String? {
        guard let start = html.range(of: #"<meta name="openmaps-link" content=""#),
            let end = html[start.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return String(html[start.upperBound..<end])
    }

    @Test func everyGoogleWebPathOpensThePageOnTheLinkItStandsFor() throws {
        let server = try MapsServer(app: MapsApp(), options: .loopback())
        defer { server.stop() }
        let cases: [(String, String)] = [
            ("/maps/@60.1699,24.9384,15z", "https://www.google.com/maps/@60.1699,24.9384,15z"),
            (
                "/maps/place/Esplanadinpuisto/@60.1675,24.948,17z",
                "https://www.google.com/maps/place/Esplanadinpuisto/@60.1675,24.948,17z"
            ),
            ("/maps/search/caf%C3%A9+near+Kamppi", "https://www.google.com/maps/search/caf%C3%A9+near+Kamppi"),
            ("/maps/dir/Kamppi/Kallio", "https://www.google.com/maps/dir/Kamppi/Kallio"),
            ("/maps?q=Helsinki+Cathedral", "https://www.google.com/maps?q=Helsinki%20Cathedral"),
            (
                "/maps/search/?api=1&query=pizza%20%26%20beer",
                "https://www.google.com/maps/search/?api=1&amp;query=pizza%20%26%20beer"
            ),
            (
                "/maps/dir/?api=1&origin=Kamppi&destination=Kallio&travelmode=walking",
                "https://www.google.com/maps/dir/?api=1&amp;origin=Kamppi&amp;destination=Kallio&amp;travelmode=walking"
            ),
            ("/?q=Kauppatori", "https://www.google.com/?q=Kauppatori"),
        ]
        for (path, link) in cases {
            let page = try #require(get(server, path))
            #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8", "\(path)")
            #expect(pageLink(page.body) == link, "\(path)")
        }
        // The world map without a link.
        #expect(pageLink(try #require(get(server, "/")).body) == "")
        // Every link the page would ask about is one the app reads.
        for (_, link) in cases {
            let unescaped = link.replacingOccurrences(of: "&amp;", with: "&")
            #expect(MapsURLParserCheck.reads(unescaped), "\(unescaped)")
        }
    }

    @Test func openTakesAnyLinkAndThePageEscapesWhatItEchoes() throws {
        let server = try MapsServer(app: MapsApp(), options: .loopback())
        defer { server.stop() }
        let link =
            "comgooglemaps-x-callback://?q=cafe&x-success=sourceapp://?resume=true&x-source=\"><script>alert(1)</script>"
        let encoded = link.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let page = try #require(get(server, "/open?url=\(encoded)&hl=hi"))
        #expect(page.status == 200)
        #expect(!page.body.contains("<script>alert"), "script in a link is never echoed as markup")
        #expect(pageLink(page.body)?.contains("&quot;&gt;&lt;script&gt;") == true)
        #expect(page.body.contains(#"<html lang="hi">"#) && page.body.contains("जगहें खोजें"))
        let policy = try #require(page.headers["content-security-policy"])
        #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"))
        #expect(page.headers["x-content-type-options"] == "nosniff")
        // The words the script reads cannot close their element.
        let words = try #require(page.body.range(of: #"id="openmaps-words">"#))
        #expect(!page.body[words.upperBound...].prefix(while: { $0 != "\n" }).dropLast(9).contains("<"))
        #expect(get(server, "/open")?.status == 400)
        #expect(get(server, "/open?url=" + String(repeating: "a", count: MapsServer.maxLinkLength + 1))?.status == 414)
    }

    @Test func thePagesLanguageIsHlElseTheBrowsersElseEnglish() throws {
        let server = try MapsServer(app: MapsApp(), options: .loopback())
        defer { server.stop() }
        #expect(get(server, "/maps?q=x&hl=it")?.body.contains("Cerca luoghi") == true)
        let spanish = get(server, "/", headers: "Accept-Language: fr-FR,es-MX;q=0.8,en;q=0.5\r\n")
        #expect(spanish?.body.contains(#"<html lang="es">"#) == true && spanish?.body.contains("Cómo llegar") == true)
        #expect(get(server, "/", headers: "Accept-Language: de\r\n")?.body.contains(#"<html lang="en">"#) == true)
    }

    @Test func theAppsFilesComeFromATableNeverFromThePath() throws {
        let server = try MapsServer(app: MapsApp(), options: .loopback())
        defer { server.stop() }
        let script = try #require(get(server, "/app/app.js"))
        #expect(script.status == 200 && script.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(script.body.contains("/api/answer"))
        #expect(get(server, "/app/app.css")?.status == 200)
        for hostile in ["/app/../Package.swift", "/app/%2e%2e/%2e%2e/etc/passwd", "/app/leaflet/../../../etc/passwd"] {
            #expect(get(server, hostile)?.status == 404, "\(hostile)")
        }
        if server.hasLeaflet {
            #expect(get(server, "/app/leaflet/leaflet.js")?.body.contains("Leaflet") == true)
        }
    }

    @Test func tilesAreRenderedCachedAndRevalidated() throws {
        let app = try MapsApp.onStore(path: try FixtureStore.path())
        let server = try MapsServer(app: app, options: .loopback())
        defer { server.stop() }
        // Esplanadinpuisto's tile at zoom 16.
        let tile = TileID(containing: Coordinate(latitude: 60.1675, longitude: 24.948), zoom: 16)
        let path = "/tiles/normal/16/\(tile.x)/\(tile.y).png"
        let first = try #require(get(server, path))
        #expect(first.status == 200 && first.headers["content-type"] == "image/png")
        let picture = try Canvas(png: first.bytes)
        #expect(picture.width == 256 && picture.height == 256)
        let etag = try #require(first.headers["etag"])
        #expect(first.headers["cache-control"] == "public, max-age=3600")
        // The same bytes again from the cache, and 304 for a client that has them.
        #expect(get(server, path)?.bytes == first.bytes)
        let revalidated = get(server, path, headers: "If-None-Match: \(etag)\r\n")
        #expect(revalidated?.status == 304 && revalidated?.bytes.isEmpty == true)
        // Its neighbour was drawn with it, in the same block.
        #expect(server.cache.usage.memory > first.bytes.count * 4)
        // @2x: 512 pixels.
        let retina = try #require(get(server, "/tiles/normal/16/\(tile.x)/\(tile.y)@2x.png"))
        #expect(try Canvas(png: retina.bytes).width == 512)
        // The dark scheme is another picture, and so is the bicycling layer (a cycle track there).
        #expect(get(server, path + "?scheme=dark")?.bytes != first.bytes)
        let cycling = try #require(get(server, path + "?layers=bicycling,transit"))
        #expect(cycling.status == 200 && cycling.bytes != first.bytes)
        let document = json(try #require(get(server, "/tiles/normal.json?scheme=dark")).body)
        #expect(document["tilejson"] as? String == "3.0.0" && document["minzoom"] as? Int == 2)
        #expect((document["tiles"] as? [String])?.first == "http://x/tiles/normal/{z}/{x}/{y}.png?scheme=dark")
        // Refusals name the part at fault.
        #expect(get(server, "/tiles/normal/22/0/0.png")?.status == 400)
        #expect(
            json(get(server, "/tiles/normal/3/8/0.png")?.body ?? "")["error"] as? String
                == "'x/y' must lie within 0-7 at zoom 3")
        #expect(get(server, "/tiles/normal/99999999999999/0/0.png")?.status == 400)
        #expect(get(server, "/tiles/roadmap/3/0/0.png")?.status == 404)
        #expect(get(server, "/tiles/normal/3/0/0.png?scheme=sepia")?.status == 400)
        #expect(get(server, "/tiles/normal/3/0/0.jpg")?.status == 404)
    }

    @Test func staticMapsDrawGooglesParametersWithinTheirLimits() throws {
        let app = try MapsApp.onStore(path: try FixtureStore.path())
        let server = try MapsServer(app: app, options: .loopback())
        defer { server.stop() }
        // A blue pin at Esplanadinpuisto, a red path, a place found by its name.
        let drawn = try #require(
            get(
                server,
                "/staticmap?size=300x200&scale=2&markers=color:blue%7Clabel:E%7C60.1675,24.948"
                    + "&path=color:0xff0000ff%7Cweight:6%7C60.1660,24.9420%7C60.1690,24.9540&markers=size:small%7CEsplanadinpuisto"
            ))
        #expect(drawn.status == 200 && drawn.headers["etag"] != nil)
        let picture = try Canvas(png: drawn.bytes)
        #expect(picture.width == 600 && picture.height == 400)
        var blue = 0
        var red = 0
        for y in stride(from: 0, to: 400, by: 2) {
            for x in stride(from: 0, to: 600, by: 2) {
                guard let pixel = picture.pixel(x: x, y: y) else { continue }
                if pixel.blue > 200 && pixel.red < 40 && pixel.green < 40 { blue += 1 }
                if pixel.red > 220 && pixel.green < 30 && pixel.blue < 30 { red += 1 }
            }
        }
        #expect(blue > 30 && red > 30, "blue \(blue), red \(red)")
        // Limits, each named.
        let refusals: [(String, String)] = [
            ("/staticmap?center=60,24&zoom=10", "'size' is required: WIDTHxHEIGHT, e.g. 600x400"),
            ("/staticmap?center=60,24&zoom=10&size=641x100", "'size' must be at most 640x640, not '641x100'"),
            ("/staticmap?center=60,24&zoom=22&size=100x100", "'zoom' must be a whole number 0 to 21, not '22'"),
            ("/staticmap?center=60,24&zoom=3&size=100x100&scale=4", "'scale' must be 1 or 2, not '4'"),
            ("/staticmap?size=100x100", "'center' is required (with zoom) when no markers, path or visible are given"),
            (
                "/staticmap?center=95,24&zoom=3&size=100x100",
                "'center' '95,24' is not a latitude and longitude in range"
            ),
            (
                "/staticmap?center=60,24&zoom=3&size=100x100&maptype=moon",
                "'maptype' must be roadmap, satellite, hybrid or terrain, not 'moon'"
            ),
            (
                "/staticmap?size=100x100&markers=Nowhere%20at%20all%20xyzzy",
                "'markers' names 'Nowhere at all xyzzy', which was not found"
            ),
        ]
        for (target, message) in refusals {
            let refused = get(server, target)
            #expect(refused?.status == 400 && json(refused?.body ?? "")["error"] as? String == message, "\(target)")
        }
        let many = Array(repeating: "60.1,24.9", count: StaticMapRequest.maxMarkers + 1).joined(separator: "%7C")
        #expect(get(server, "/staticmap?size=100x100&markers=\(many)")?.status == 400)
    }

    @Test func shareGivesTheViewInEveryForm() throws {
        let server = try MapsServer(app: MapsApp(), options: .loopback())
        defer { server.stop() }
        let shared = json(try #require(get(server, "/api/share?center=60.17,24.94&zoom=15&views=satellite")).body)
        let links = try #require(shared["links"] as? [[String: Any]])
        let urls = Dictionary(
            uniqueKeysWithValues: links.map { ($0["form"] as? String ?? "", $0["url"] as? String ?? "") })
        #expect(urls["comgooglemaps"] == "comgooglemaps://?center=60.17,24.94&zoom=15&views=satellite")
        #expect(urls["geo"]?.hasPrefix("geo:60.17,24.94") == true)
        #expect(urls["apple"]?.hasPrefix("https://maps.apple.com/") == true)
        #expect(urls["universal"]?.hasPrefix("https://www.google.com/maps/@?api=1") == true)
        #expect(Set(urls.keys) == ["comgooglemaps", "universal", "desktop", "comgooglemapsurl", "geo", "apple"])
        // Each link opens the same view again.
        for url in urls.values { #expect(MapsURLParserCheck.reads(url), "\(url)") }
        #expect(get(server, "/api/share?center=91,0&zoom=3")?.status == 400)
    }

    @Test func theCacheStaysWithinItsBudgetsAndKeepsItsFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try TileCache(memoryBytes: 10_000, directory: folder, diskBytes: 20_000)
        for index in 0..<50 {
            let entry = try cache.entry("key \(index)", group: "group \(index)") {
                [("key \(index)", [UInt8](repeating: UInt8(index), count: 1_000))]
            }
            #expect(entry.bytes.count == 1_000 && entry.etag.hasPrefix("\""))
        }
        #expect(cache.usage.memory <= 10_000 && cache.usage.disk <= 20_000)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect((15...20).contains(files.count) && files.allSatisfy { $0.hasSuffix(".png") && $0.count == 20 })
        // A new cache on the folder counts what is there; the most recent survive.
        let again = try TileCache(memoryBytes: 10_000, directory: folder, diskBytes: 20_000)
        #expect(again.usage.disk == cache.usage.disk)
        let kept = try again.entry("key 49", group: "g") {
            Issue.record("key 49 should be on disk")
            return []
        }
        #expect(kept.bytes == [UInt8](repeating: 49, count: 1_000))
        // A failed render caches nothing and is reported.
        struct Failed: Error {}
        #expect(throws: Failed.self) { try again.entry("other", group: "other") { throw Failed() } }
    }
}

/// A picture cache renders a picture once: again from the cache, and once for a block asked
/// for by many threads at once.
@Suite struct TileCacheRenderTests {
    @Test func aCachedPictureIsServedWithoutASecondRender() throws {
        let cache = try TileCache(memoryBytes: 10_000, directory: nil, diskBytes: 0)
        let renders = Counter()
        for _ in 0..<3 {
            let entry = try cache.entry("a", group: "block") {
                renders.add()
                return [("a", [1, 2, 3]), ("b", [4, 5])]
            }
            #expect(entry.bytes == [1, 2, 3])
        }
        // The other tile of the block came with the first render.
        #expect(try cache.entry("b", group: "block") { [] }.bytes == [4, 5])
        #expect(cache.cached("b")?.bytes == [4, 5] && cache.cached("c") == nil)
        #expect(renders.value == 1)
    }

    @Test func concurrentRequestsForOneBlockRenderItOnce() throws {
        let cache = try TileCache(memoryBytes: 1_000_000, directory: nil, diskBytes: 0)
        let renders = Counter()
        let tiles = (0..<16).map { "tile \($0)" }
        let answered = Counter()
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let key = tiles[index % tiles.count]
            let entry = try? cache.entry(key, group: "block 0") {
                renders.add()
                Thread.sleep(forTimeInterval: 0.05)
                return tiles.map { ($0, Array($0.utf8)) }
            }
            if entry?.bytes == Array(key.utf8) { answered.add() }
        }
        #expect(renders.value == 1 && answered.value == 64)
    }
}

/// Whether the link parser reads a request from a link.
enum MapsURLParserCheck {
    static func reads(_ link: String) -> Bool { MapsURLParser.read(link).parsed.request != nil }
}
