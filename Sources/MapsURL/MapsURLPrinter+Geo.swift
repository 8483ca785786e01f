import GeoCore

/// RFC 5870 `geo:` URIs.
extension MapsURLPrinter {
    static func geoLink(_ r: inout Reduction) throws(PrintError) -> String {
        r.drop(\.language, "language", "geo URIs have no language parameter")
        r.dropAll(
            except: [\.center, \.zoom, \.query, \.marker],
            reason: "geo: URIs carry a position, a zoom and a search only")
        r.clampZoom(GeoVocabulary.zoomLimits)
        r.dropQueryReadingAsCoordinate()
        if r.request.marker == nil, let query = r.request.query,
            LinkReader.labelOnly(query) != nil || LinkReader.withoutAltitude(query) != query
        {
            r.drop(\.query, "query", "in a geo: URI the text would read back as a pin's label or position")
        }
        let searches = r.request.query != nil || r.request.marker != nil
        if searches, r.request.center == Coordinate(latitude: 0, longitude: 0) {
            r.drop(\.center, "center", "geo:0,0 with a search means 'no position'")
        }
        let request = r.request
        guard request.center != nil || searches else {
            throw PrintError(target: .geo, message: "a geo: URI needs a position or a search")
        }
        var writer = QueryWriter()
        writer.add("z", request.zoom.map(DecimalText.format))
        if let marker = request.marker {
            writer.add("q", request.query.map { "\(marker)(\($0))" } ?? marker.description)
        } else {
            writer.add("q", request.query)
        }
        let position = request.center?.description ?? "0,0"
        return writer.pairs.isEmpty ? "geo:" + position : "geo:" + position + "?" + writer.query
    }
}
