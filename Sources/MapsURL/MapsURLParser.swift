import GeoCore

/// Reads untrusted link text into a ``MapsRequest`` with diagnostics.
///
/// Forms: `comgooglemaps://`, `comgooglemaps-x-callback://`, `comgooglemapsurl://`, Google Maps
/// web URLs (desktop paths, legacy parameters, Maps URLs with `api=1`, Universal Links with or
/// without a scheme), `goo.gl/maps` and `maps.app.goo.gl` short links (recognised, never
/// resolved), RFC 5870 `geo:` URIs and Apple Maps links. One bad parameter never discards the
/// rest of the request; see ``PercentDecoding`` for the decoding policy, ``HostPolicy`` and
/// ``CallbackPolicy`` for the security rules.
public enum MapsURLParser {
    /// Longest accepted input, in UTF-8 bytes after trimming surrounding whitespace.
    public static let maxInputLength = 8192
    /// Most query parameters read from one link; the rest are ignored with a warning.
    public static let maxParameters = 256
    /// Longest accepted decoded text value (a query or an address), in bytes. Maps URLs are
    /// limited to 2,048 characters, so no real value comes close.
    public static let maxTextLength = 2048

    /// Parses one link.
    ///
    /// - Parameter text: the link; surrounding whitespace is ignored.
    /// - Returns: the request (nil when the link as a whole was rejected), its form and the
    ///   diagnostics, whose offsets count characters of `text`.
    public static func parse(_ text: String) -> ParsedMapsURL { parse(text, depth: 0) }

    /// Parses a link nested `depth` links deep (a dynamic link's `link=` is 1).
    static func parse(_ text: String, depth: Int) -> ParsedMapsURL {
        var input = text
        return input.withUTF8 { bytes in
            var reader = LinkReader(bytes: bytes, depth: depth)
            return reader.read()
        }
    }
}

/// A query parameter located in the input; `value` is nil for a bare name (`&spam&`).
struct Parameter {
    var name: String
    var nameRange: Range<Int>
    var value: Range<Int>?
    /// True when an earlier parameter of the same query has the same name (first one wins).
    var isRepeat = false
    var whole: Range<Int> { nameRange.lowerBound..<(value?.upperBound ?? nameRange.upperBound) }
    /// Where a diagnostic about the parameter points: its value, or its name when it has none.
    var location: Range<Int> { value ?? nameRange }
}
