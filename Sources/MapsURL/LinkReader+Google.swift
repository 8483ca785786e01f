import GeoCore

/// Google Maps web URLs: desktop paths (`/@…`, `/place/…`, `/search/…`, `/dir/…`, `data=`
/// blobs, in ``LinkReader+GooglePaths.swift``), the legacy parameters (`q`, `ll`, `sll`,
/// `spn`, `sspn`, `z`, `t`, `f`, `saddr`, `daddr`, `dirflg`, `nav`, `layer`, in
/// ``LinkReader+GoogleLegacy.swift``), Maps URLs with `api=1` (``LinkReader+MapsURLs.swift``)
/// and embedded maps (`/maps/embed…`, ``LinkReader+Embed.swift``).
extension LinkReader {
    /// Reads a Google Maps URL whose path no longer has the leading `/maps`.
    mutating func readGoogleMaps(path: Range<Int>, parameters: [Parameter]) {
        let isAPI = parameters.contains { $0.name == "api" && $0.value.map(text) == "1" }
        let segments = pathSegments(path)
        if let first = segments.first, isWord(first, "embed") {
            readEmbed(segments: segments, parameters: parameters)
        } else if let first = segments.first, isWord(first, "d") || isWord(first, "ms") {
            // My Maps (`/maps/d/viewer?mid=…&ll=…&z=…`, `/maps/d/u/0/edit?…`, the older
            // `/maps/ms?msid=…`): the map's own layers live in a Google account; its view is read.
            readLegacyParameters(parameters)
        } else if isAPI {
            readMapsURLsAPI(segments: segments, parameters: parameters)
        } else {
            // Old exports glue parameters into the path (`/maps/ll=…,z=…`); they come first.
            let glued = readDesktopPath(segments)
            readLegacyParameters(glued.isEmpty ? parameters : glued + parameters)
        }
    }

    /// The parameters glued into a path segment: a query string in the path
    /// (`q=loc:34.9,-106.6&z=11`, `q=loc:34.9,-106.6 (Label)`), where `ll=LAT,LNG,z=Z` carries
    /// the zoom after a comma.
    mutating func gluedParameters(_ segment: Range<Int>) -> [Parameter] {
        parameters(in: segment).flatMap { parameter -> [Parameter] in
            guard parameter.name == "ll", let value = parameter.value else { return [parameter] }
            // `LAT,LNG,z=Z`: the third comma-separated piece is a parameter of its own.
            var commas = 0
            for index in value where bytes[index] == UInt8(ascii: ",") {
                commas += 1
                guard commas == 2 else { continue }
                let rest = (index + 1)..<value.upperBound
                let equals = firstIndex(in: rest, of: UInt8(ascii: "="))
                guard equals < rest.upperBound else { break }
                var coordinate = parameter
                coordinate.value = value.lowerBound..<index
                let zoom = Parameter(
                    name: text(rest.lowerBound..<equals), nameRange: rest.lowerBound..<equals,
                    value: (equals + 1)..<rest.upperBound)
                return [coordinate, zoom]
            }
            return [parameter]
        }
    }

    /// The `/`-separated segments of `path`, without the leading empty one and without one
    /// trailing empty segment (a trailing slash).
    private func pathSegments(_ path: Range<Int>) -> [Range<Int>] {
        var segments: [Range<Int>] = []
        segments.reserveCapacity(8)
        var index = path.lowerBound
        if index < path.upperBound, bytes[index] == UInt8(ascii: "/") { index += 1 }
        guard index < path.upperBound else { return [] }
        while index <= path.upperBound {
            let end = firstIndex(in: index..<path.upperBound, of: UInt8(ascii: "/"))
            segments.append(index..<end)
            index = end + 1
        }
        if segments.count > 0, segments.last!.isEmpty { segments.removeLast() }
        return segments
    }
}
