import Foundation
import GeoCore
import HTTPServer
import MapCore
import MapRenderer
import MapsApp
import VectorTiles
import ZlibKit

extension MapsServer {
    /// How long a client may reuse a tile or a static map before asking again (with its ETag):
    /// one hour.
    static let pictureMaxAge = 3_600

    /// The map types served as tile sets, by the name in their path.
    static let tileTypes: [String: MapType] = [
        "normal": .normal, "satellite": .satellite, "hybrid": .hybrid, "terrain": .terrain,
    ]

    /// The style of a tile of `mapType` at `scale` (from its path) that the query's `scheme`,
    /// `layers` and `hl` ask for (``TileStyle/init(parameters:)``).
    static func tileStyle(_ request: HTTPRequest, mapType: MapType, scale: Int = 1) throws(AppError) -> TileStyle {
        try TileStyle(
            parameters: [("maptype", mapType.rawValue), ("scale", "\(scale)")]
                + request.queryItems.filter { TileStyle.queryParameterNames.contains($0.name) })
    }

    /// `/tiles/{type}/{z}/{x}/{y}.png`, `…/{y}@2x.png` (512 pixels), and `/tiles/{type}.json`
    /// (TileJSON 3.0.0); with `cachedOnly`, nil for a tile that must be rendered and for the
    /// TileJSON (which reads the store).
    func tiles(_ request: HTTPRequest, cachedOnly: Bool = false) -> HTTPResponse? {
        let parts = request.path.dropFirst("/tiles/".count).split(separator: "/", omittingEmptySubsequences: false)
        if parts.first == "vector" || parts.first == "vector.json" {
            return vectorTiles(request, parts: parts.dropFirst(), cachedOnly: cachedOnly)
        }
        if parts.first == "traffic" || parts.first == "traffic.json" {
            return trafficTiles(request, parts: parts.dropFirst(), cachedOnly: cachedOnly)
        }
        if let encoding = Self.terrainEncodings[String(parts.first ?? "")] {
            return cachedOnly ? nil : terrainTiles(request, parts: parts.dropFirst(), encoding: encoding)
        }
        if parts.count == 1, parts[0] == "vector.pmtiles" { return archiveFile(request) }
        if parts.count == 1, parts[0].hasSuffix(".json") {
            return cachedOnly ? nil : tileJSON(request, type: String(parts[0].dropLast(5)))
        }
        guard parts.count == 4, let mapType = Self.tileTypes[String(parts[0])] else {
            return Self.error(
                404, "tiles are at /tiles/{normal|satellite|hybrid|terrain}/{z}/{x}/{y}.png (or {y}@2x.png)")
        }
        var last = Substring(parts[3])
        guard last.hasSuffix(".png") else { return Self.error(404, "a tile's name ends in .png or @2x.png") }
        last = last.dropLast(4)
        var scale = 1
        if last.hasSuffix("@2x") {
            scale = 2
            last = last.dropLast(3)
        }
        guard let z = Self.tileNumber(parts[1]), let x = Self.tileNumber(parts[2]), let y = Self.tileNumber(last) else {
            return Self.error(400, "z, x and y must be whole numbers, not '\(parts[1])/\(parts[2])/\(last)'")
        }
        do throws(AppError) {
            let style = try Self.tileStyle(request, mapType: mapType, scale: scale)
            let tile = TileID(x: x, y: y, z: z)
            try MapsApp.check(tile, style: style)
            let key = { (tile: TileID) in "\(self.dataVersion)/\(style.key)/\(tile.z)/\(tile.x)/\(tile.y)" }
            let block = Metatile.block(containing: tile, size: MapsApp.tileBlockSize)
            let group = "\(dataVersion)/\(style.key)/\(block)"
            if cachedOnly { return cache.cached(key(tile)).map { Self.picture($0, request) } }
            let entry = try cachedPicture(key(tile), group: group) { () throws(AppError) in
                try app.tile(tile, style: style).tiles.map { (key($0.tile), $0.png) }
            }
            return Self.picture(entry, request)
        } catch {
            return Self.refusal(error)
        }
    }

    /// `/tiles/vector/{z}/{x}/{y}.pbf`: a Mapbox Vector Tile of the schema in docs/tiles.md,
    /// gzip-compressed (inflated for a client that does not accept gzip), cached like the PNG
    /// tiles; `/tiles/vector.json`: its TileJSON with `vector_layers`. With `cachedOnly`, nil
    /// for a tile that must be cut and for the TileJSON.
    func vectorTiles(_ request: HTTPRequest, parts: ArraySlice<Substring>, cachedOnly: Bool) -> HTTPResponse? {
        if parts.isEmpty {
            if cachedOnly { return nil }
            let zooms = app.vectorArchive?.zooms ?? MapsApp.vectorZooms
            // The whole world: the tiles hold the world's layers everywhere, the street data
            // where it is imported (a client must not skip the sea or a timetable's stations
            // for lying outside the streets' box).
            let text = MapsApp.vectorTileJSON(
                url: Self.base(of: request) + "/tiles/vector/{z}/{x}/{y}.pbf", bounds: nil, attribution: attribution,
                zooms: zooms)
            var response = HTTPResponse.json(200, Data(text.utf8))
            response.headers.append(("Access-Control-Allow-Origin", "*"))
            return response
        }
        let tile: TileID
        switch Self.vectorTileID(parts, kind: "vector") {
        case .failure(let refusal): return refusal.response
        case .success(let id): tile = id
        }
        let (z, x, y) = (tile.z, tile.x, tile.y)
        do throws(AppError) {
            // A file is read as it is, on any thread: no cache stands before it. An archive on a
            // web host is kept in the cache, by its version, as tiles cut from the store are.
            if let archive = app.vectorArchive, !archive.isRemote {
                guard let bytes = try app.vectorTile(tile) else { return Self.emptyTile() }
                let etag = "\"\(archive.etag)-\(z)-\(x)-\(y)\""
                return Self.vectorTile(TileCache.Entry(bytes: bytes, etag: etag), request)
            }
            let version =
                app.vectorArchive.map { "archive-\($0.etag)" } ?? "\(dataVersion)/vector\(VectorTileSchema.version)"
            let key = "\(version)/\(z)/\(x)/\(y)"
            if cachedOnly { return cache.cached(key).map { Self.vectorTile($0, request) } }
            let entry = try cachedPicture(key, group: key) { () throws(AppError) in
                [(key, try app.vectorTile(tile) ?? [])]
            }
            return entry.bytes.isEmpty ? Self.emptyTile() : Self.vectorTile(entry, request)
        } catch {
            return Self.refusal(error)
        }
    }

    /// The tile `{z}/{x}/{y}.EXTENSION` names under `/tiles/KIND/`: a 404 for another path
    /// (`where` says where the tiles are), a 400 for numbers that are not whole.
    static func tileID(_ parts: ArraySlice<Substring>, extension suffix: String, where place: String) -> Result<
        TileID, Refusal
    > {
        guard parts.count == 3, parts.last?.hasSuffix("." + suffix) == true else {
            return .failure(Refusal(response: error(404, place)))
        }
        let last = parts[parts.startIndex + 2].dropLast(suffix.count + 1)
        guard let z = tileNumber(parts[parts.startIndex]), let x = tileNumber(parts[parts.startIndex + 1]),
            let y = tileNumber(last)
        else {
            return .failure(
                Refusal(response: error(400, "z, x and y must be whole numbers, not '\(parts.joined(separator: "/"))'"))
            )
        }
        return .success(TileID(x: x, y: y, z: z))
    }

    /// The tile `{z}/{x}/{y}.pbf` names under `/tiles/KIND/`, on the vector grid; a 404 for
    /// another path or a zoom past the grid's, a 400 for numbers that are not a tile's.
    static func vectorTileID(_ parts: ArraySlice<Substring>, kind: String) -> Result<TileID, Refusal> {
        let tile: TileID
        switch tileID(
            parts, extension: "pbf",
            where: "\(kind) tiles are at /tiles/\(kind)/{z}/{x}/{y}.pbf, their TileJSON at /tiles/\(kind).json")
        {
        case .failure(let refusal): return .failure(refusal)
        case .success(let named): tile = named
        }
        do throws(AppError) {
            try MapsApp.checkVector(tile)
        } catch {
            return .failure(
                Refusal(response: Self.error(tile.z > MapsApp.vectorZooms.upperBound ? 404 : 400, error.description)))
        }
        return .success(tile)
    }

    /// `/tiles/traffic/{z}/{x}/{y}.pbf`: the congestion of the roads the server's traffic feed
    /// lists (``TrafficTiles``), gzip-compressed, never cached (the feed is live data);
    /// `/tiles/traffic.json`: its TileJSON. With `cachedOnly`, nil: a tile is always cut.
    func trafficTiles(_ request: HTTPRequest, parts: ArraySlice<Substring>, cachedOnly: Bool) -> HTTPResponse? {
        if cachedOnly { return nil }
        if parts.isEmpty {
            let text = MapsApp.trafficTileJSON(url: Self.base(of: request) + "/tiles/traffic/{z}/{x}/{y}.pbf")
            var response = HTTPResponse.json(200, Data(text.utf8))
            response.headers.append(("Access-Control-Allow-Origin", "*"))
            return response
        }
        switch Self.vectorTileID(parts, kind: "traffic") {
        case .failure(let refusal): return refusal.response
        case .success(let tile):
            do throws(AppError) {
                guard let bytes = try app.trafficTile(tile) else { return Self.emptyTile(maxAge: Self.trafficMaxAge) }
                let entry = TileCache.Entry(bytes: bytes, etag: TileCache.etag(of: bytes))
                return Self.vectorTile(entry, request, maxAge: Self.trafficMaxAge)
            } catch {
                return Self.refusal(error)
            }
        }
    }

    /// The terrain tiles' paths and how each writes heights.
    static let terrainEncodings: [String: TerrainEncoding] = ["terrain-rgb": .mapbox, "terrarium": .terrarium]

    /// `/tiles/terrain-rgb/{z}/{x}/{y}.png` (Mapbox Terrain-RGB) and `/tiles/terrarium/…`
    /// (Terrarium): the imported elevation models' heights as colours, for MapLibre's
    /// `raster-dem` sources (hillshade, 3D terrain); 404 where no model covers the tile.
    func terrainTiles(_ request: HTTPRequest, parts: ArraySlice<Substring>, encoding: TerrainEncoding) -> HTTPResponse {
        let kind = encoding == .mapbox ? "terrain-rgb" : "terrarium"
        let tile: TileID
        switch Self.tileID(parts, extension: "png", where: "terrain tiles are at /tiles/\(kind)/{z}/{x}/{y}.png") {
        case .failure(let refusal): return refusal.response
        case .success(let named): tile = named
        }
        do throws(AppError) {
            guard let png = try app.terrainTile(tile, encoding: encoding) else {
                return Self.error(404, "no imported elevation model covers tile \(tile)")
            }
            return Self.picture(TileCache.Entry(bytes: png, etag: TileCache.etag(of: png)), request)
        } catch {
            if case .invalidOption = error { return Self.error(404, error.description) }
            return Self.refusal(error)
        }
    }

    /// Seconds a client may keep a traffic tile: 60.
    static let trafficMaxAge = 60

    /// `http://HOST` of the request's `Host` header when it is a plain host name (and port), for
    /// the absolute URLs of TileJSON and styles; empty otherwise (the URLs stay relative).
    static func base(of request: HTTPRequest) -> String {
        request.headers["host"].flatMap { host in
            host.allSatisfy { $0.isLetter || $0.isNumber || ".-:[]".contains($0) } ? "http://" + host : nil
        } ?? ""
    }

    /// `/styles/{normal|satellite|hybrid|terrain|none}.json[?scheme=dark&layers=transit,bicycling&hl=hi]`:
    /// the MapLibre style of the vector tiles, from the raster map's own palette and rules.
    func mapStyle(_ request: HTTPRequest) -> HTTPResponse {
        let name = request.path.dropFirst("/styles/".count)
        let types: [String: MapType] = Self.tileTypes.merging(["none": .none]) { a, _ in a }
        guard name.hasSuffix(".json"), let mapType = types[String(name.dropLast(5))] else {
            return Self.error(404, "styles are at /styles/{normal|satellite|hybrid|terrain|none}.json")
        }
        do throws(AppError) {
            let style = try Self.tileStyle(request, mapType: mapType)
            let document = MapsApp.vectorStyle(
                style, base: Self.base(of: request), terrainZoom: mapType == .terrain ? app.terrainZoom() : nil,
                rasterCredits: app.rasterCredits(for: mapType))
            var response = HTTPResponse.json(200, Data(document.utf8))
            response.headers += [("Access-Control-Allow-Origin", "*"), ("Cache-Control", "public, max-age=300")]
            return response
        } catch {
            return Self.refusal(error)
        }
    }

    /// `/fonts/{stack}/{start}-{end}.pbf`: a range of 256 SDF glyphs of a font stack the styles
    /// name (`Noto Sans Regular`, `Noto Sans Bold`).
    func glyphs(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.path.dropFirst("/fonts/".count).split(separator: "/")
        guard parts.count == 2, parts[1].hasSuffix(".pbf") else {
            return Self.error(404, "glyphs are at /fonts/{stack}/{start}-{end}.pbf")
        }
        // START-END: two whole numbers, 256 code points (MapLibre asks for 0-255, 256-511, …).
        let bounds = parts[1].dropLast(4).split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard bounds.count == 2, let start = bounds[0], let end = bounds[1], end == start + 255 else {
            return Self.error(400, "a glyph range is START-END.pbf, 256 code points (0-255, 256-511, …)")
        }
        do throws(AppError) {
            guard let bytes = try MapsApp.glyphs(stack: String(parts[0]), start: start) else {
                return Self.error(
                    404, "no font stack '\(parts[0].prefix(80))': \(MapStyle.font) or \(MapStyle.boldFont)")
            }
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "application/x-protobuf"), ("Cache-Control", "public, max-age=86400"),
                    ("Access-Control-Allow-Origin", "*"),
                ], body: bytes)
        } catch {
            return Self.refusal(error)
        }
    }

    /// `/sprites/openmaps.json`, `.png`, `@2x.json`, `@2x.png`: the styles' icons.
    func sprite(_ request: HTTPRequest) -> HTTPResponse {
        let name = String(request.path.dropFirst("/sprites/".count))
        let files = [
            "openmaps.json": (1, true), "openmaps.png": (1, false), "openmaps@2x.json": (2, true),
            "openmaps@2x.png": (2, false),
        ]
        guard let (ratio, json) = files[name] else {
            return Self.error(404, "the sprite is at /sprites/openmaps[@2x].{json,png}")
        }
        do throws(AppError) {
            let sheet = try MapsApp.sprite(pixelRatio: ratio)
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", json ? "application/json" : "image/png"),
                    ("Cache-Control", "public, max-age=86400"), ("Access-Control-Allow-Origin", "*"),
                ], body: json ? Array(sheet.json.utf8) : sheet.png)
        } catch {
            return Self.refusal(error)
        }
    }

    /// `/labels/{kind}.png?text=…[&scheme=light|dark][&imagery=1][&scale=1…4]`: a label the
    /// vector styles leave to the server, shaped as the PNG maps shape theirs, for MapLibre to
    /// show as an image (``MapStyle/labelImagePrefix``).
    func labelPicture(_ request: HTTPRequest) -> HTTPResponse {
        let name = request.path.dropFirst("/labels/".count)
        guard name.hasSuffix(".png"), !name.contains("/") else {
            return Self.error(404, "labels are at /labels/{kind}.png?text=…")
        }
        do throws(AppError) {
            let scheme = try request.query["scheme"].map { text throws(AppError) in
                try Parameter.scheme(text, name: "scheme")
            }
            let scale = try request.query["scale"].map { text throws(AppError) in
                try Parameter.number(text, name: "scale", in: 1...4)
            }
            let picture = try MapsApp.labelPicture(
                request.query["text"] ?? "", kind: String(name.dropLast(4)), scheme: scheme,
                overImagery: request.query["imagery"] == "1", scale: scale ?? 1)
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "image/png"), ("Cache-Control", "public, max-age=86400"),
                    ("Access-Control-Allow-Origin", "*"),
                ], body: picture.png)
        } catch {
            return Self.refusal(error)
        }
    }

    /// A tile with nothing in it: 204 No Content, which MapLibre draws as empty; a client may
    /// keep it `maxAge` seconds.
    static func emptyTile(maxAge: Int = pictureMaxAge) -> HTTPResponse {
        HTTPResponse(
            status: 204,
            headers: [("Cache-Control", "public, max-age=\(maxAge)"), ("Access-Control-Allow-Origin", "*")])
    }

    /// `/tiles/vector.pmtiles`: the archive `serve --tiles` was given, as a static host serves
    /// it to a PMTiles client: `Range: bytes=…` answered 206 with `Content-Range`, a range past
    /// the end 416, no range the whole file; with its `ETag` (304 when it matches) and
    /// `Accept-Ranges`; 412 to an `If-Match` of another version. An archive on a web host is
    /// a redirect to it (302). 404 without an archive.
    func archiveFile(_ request: HTTPRequest) -> HTTPResponse {
        guard let archive = app.vectorArchive else {
            return Self.error(404, "no PMTiles archive is served: start the server with --tiles FILE.pmtiles")
        }
        if archive.isRemote {
            return HTTPResponse(
                status: 302, headers: [("Location", archive.path), ("Access-Control-Allow-Origin", "*")])
        }
        let size = archive.size
        let etag = "\"\(archive.etag)\""
        var headers: [(name: String, value: String)] = [
            ("Accept-Ranges", "bytes"), ("ETag", etag), ("Content-Type", "application/vnd.pmtiles"),
            ("Cache-Control", "public, max-age=\(Self.pictureMaxAge)"), ("Access-Control-Allow-Origin", "*"),
            ("Access-Control-Expose-Headers", "ETag, Content-Range, Accept-Ranges"),
        ]
        if request.headers["if-none-match"] == etag { return HTTPResponse(status: 304, headers: headers) }
        if let asked = request.headers["if-match"], asked != "*", asked != etag {
            return HTTPResponse(status: 412, headers: headers, body: Array("the archive is not version \(asked)".utf8))
        }
        guard let header = request.headers["range"] else {
            var response = HTTPResponse(status: 200, headers: headers)
            response.file = HTTPResponse.FileRange(path: archive.path, offset: 0, length: size)
            return response
        }
        guard let range = Self.byteRange(header, size: size) else {
            headers.append(("Content-Range", "bytes */\(size)"))
            return HTTPResponse(
                status: 416, headers: headers, body: Array("the range is outside the archive's \(size) bytes".utf8))
        }
        headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"))
        var response = HTTPResponse(status: 206, headers: headers)
        response.file = HTTPResponse.FileRange(
            path: archive.path, offset: range.lowerBound, length: range.upperBound - range.lowerBound + 1)
        return response
    }

    /// The bytes one `Range` header asks of a file of `size` bytes (`bytes=a-b`, `bytes=a-`,
    /// `bytes=-n`; the end clamped to the file), nil when it asks for none of them or for
    /// several ranges at once.
    static func byteRange(_ header: String, size: UInt64) -> ClosedRange<UInt64>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            guard let count = UInt64(last), count > 0 else { return nil }
            return (size - min(count, size))...(size - 1)
        }
        guard let start = UInt64(first), start < size else { return nil }
        if last.isEmpty { return start...(size - 1) }
        guard let end = UInt64(last), end >= start else { return nil }
        return start...min(end, size - 1)
    }

    /// A vector tile response: gzip-encoded when the client accepts it, with its ETag; 304 as
    /// ``picture(_:_:)`` says.
    static func vectorTile(_ entry: TileCache.Entry, _ request: HTTPRequest, maxAge: Int = pictureMaxAge)
        -> HTTPResponse
    {
        var response = picture(entry, request, type: "application/vnd.mapbox-vector-tile", maxAge: maxAge)
        guard response.status == 200 else { return response }
        let accepts = request.headers["accept-encoding"]?.lowercased().contains("gzip") ?? false
        if accepts {
            response.headers.append(("Content-Encoding", "gzip"))
        } else if let plain = try? Zlib.gunzip(entry.bytes) {
            response.body = plain
        }
        response.headers.append(("Vary", "Accept-Encoding"))
        return response
    }

    /// A picture from the cache, rendered by `render` when missing.
    func cachedPicture(
        _ key: String, group: String, render: () throws(AppError) -> [(key: String, bytes: [UInt8])]
    ) throws(AppError) -> TileCache.Entry {
        do {
            return try cache.entry(key, group: group) { try render() }
        } catch let error as AppError {
            throw error
        } catch {
            throw .engineFailed("caching \(key)", underlying: error)
        }
    }

    /// A response of `type` (PNG by default) with its ETag and Cache-Control; 304 without a body
    /// when the client's `If-None-Match` holds the ETag.
    static func picture(
        _ entry: TileCache.Entry, _ request: HTTPRequest, type: String = "image/png", maxAge: Int = pictureMaxAge
    ) -> HTTPResponse {
        let headers: [(name: String, value: String)] = [
            ("ETag", entry.etag), ("Cache-Control", "public, max-age=\(maxAge)"),
            ("Access-Control-Allow-Origin", "*"),
        ]
        if let asked = request.headers["if-none-match"],
            asked == "*"
                || asked.split(separator: ",").contains(where: {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == entry.etag
                })
        {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", type)] + headers, body: entry.bytes)
    }

    /// A tile coordinate: 1 to 7 digits (larger ones are refused by the zoom's range anyway).
    private static func tileNumber(_ text: Substring) -> Int? {
        guard (1...7).contains(text.count), text.allSatisfy(\.isASCII) else { return nil }
        return Int(text)
    }

    /// `/tiles/{type}.json`: the tile set as TileJSON 3.0.0, its tile URL keeping the request's
    /// `scheme`, `layers` and `hl`.
    private func tileJSON(_ request: HTTPRequest, type: String) -> HTTPResponse {
        guard let mapType = Self.tileTypes[type] else {
            return Self.error(404, "no tile set '\(type)': normal, satellite, hybrid or terrain")
        }
        do throws(AppError) {
            _ = try Self.tileStyle(request, mapType: mapType)
        } catch {
            return Self.refusal(error)
        }
        let kept = request.queryItems.filter { TileStyle.queryParameterNames.contains($0.name) }
        var components = URLComponents()
        components.queryItems = kept.map { URLQueryItem(name: $0.name, value: $0.value) }
        let query = kept.isEmpty ? "" : "?" + (components.percentEncodedQuery ?? "")
        let base = Self.base(of: request)
        // The whole world, as the vector tiles': every tile is drawn, the world map where no
        // street data is.
        let bounds = [-180.0, -85.0511, 180.0, 85.0511]
        let document: [String: Any] = [
            "tilejson": "3.0.0", "name": "OpenMaps \(type)", "scheme": "xyz",
            "tiles": ["\(base)/tiles/\(type)/{z}/{x}/{y}.png\(query)"],
            "minzoom": TilePlan.zooms.lowerBound, "maxzoom": TilePlan.zooms.upperBound, "bounds": bounds,
            "attribution": ([attribution] + app.rasterCredits(for: mapType)).joined(separator: " · "), "tileSize": 256,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
        var response = HTTPResponse.json(200, data)
        response.headers.append(("Access-Control-Allow-Origin", "*"))
        return response
    }

    /// `/staticmap?center=…&zoom=…&size=WxH&scale=…&maptype=…&markers=…&path=…&visible=…`: a PNG
    /// as Google's Static Maps API draws one, cached like tiles; with `cachedOnly`, nil for one
    /// that must be drawn.
    func staticMap(_ request: HTTPRequest, cachedOnly: Bool = false) -> HTTPResponse? {
        do throws(AppError) {
            let parsed = try StaticMapRequest(parameters: request.queryItems)
            let key =
                "\(dataVersion)/static/"
                + request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            if cachedOnly { return cache.cached(key).map { Self.picture($0, request) } }
            let entry = try cachedPicture(key, group: key) { () throws(AppError) in
                let drawn = try app.staticMap(parsed)
                do {
                    return [(key, try drawn.canvas.encoded())]
                } catch {
                    throw .engineFailed("encoding the static map", underlying: error)
                }
            }
            return Self.picture(entry, request)
        } catch {
            return Self.refusal(error)
        }
    }
}
