import GeoCore

/// Google Maps web URLs: desktop paths (`/@…`, `/place/…`, `/search/…`, `/dir/…`, `data=`
/// blobs, in ``LinkReader+GooglePaths.swift``), the legacy parameters (`q`, `ll`, `sll`,
/// `spn`, `sspn`, `z`, `t`, `f`, `saddr`, `daddr`, `dirflg`, `nav`, `layer`, in
/// ``LinkReader+GoogleLegacy.swift``) and Maps URLs with `api=1` (``LinkReader+MapsURLs.swift``).
extension LinkReader {
    /// Reads a Google Maps URL whose path no longer has the leading `/maps`.
    mutating func readGoogleMaps(path: Range<Int>, parameters: [Parameter]) {
        let isAPI = parameters.contains { $0.name == "api" && $0.value.map(text) == "1" }
        let segments = pathSegments(path)
        if isAPI {
            readMapsURLsAPI(segments: segments, parameters: parameters)
        } else {
            readDesktopPath(segments)
            readLegacyParameters(parameters)
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
