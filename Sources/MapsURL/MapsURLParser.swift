import GeoCore

/// Reads untrusted link text into a ``MapsRequest`` with diagnostics.
///
/// Forms: `comgooglemaps://`, `comgooglemaps-x-callback://`, `comgooglemapsurl://`; Google Maps
/// web URLs (desktop paths with their `data=` blobs, legacy parameters, Maps URLs with `api=1`,
/// embedded maps, My Maps views, Universal Links with or without a scheme); short links
/// (`maps.app.goo.gl`, `goo.gl/maps`, `app.goo.gl/maps`, `g.co/kgs`, `maps.apple/p`:
/// recognised, never resolved) and dynamic links carrying a maps link; RFC 5870 `geo:` URIs;
/// Android's `google.navigation:` and `intent:` links; Apple Maps links, classic and unified.
/// ``find(in:)`` finds the links in a text and ``read(_:)`` reads what a person pasted. One
/// bad parameter never discards the rest of the request; see ``PercentDecoding`` for the
/// decoding policy, ``HostPolicy`` and ``CallbackPolicy`` for the security rules.
///
/// Where this reader refuses on purpose what a lenient reader would take, it says why in the
/// diagnostic:
/// - a web link must be `http(s)://` or carry no scheme; other schemes in front of a Google
///   host (`ftp://maps.google.com/…`, `javascript:`) are refused, not rewritten;
/// - a raw control character (or an encoded one in a value) is never read into a request: the
///   link or that value is refused, because such text can hide what a link says;
/// - hosts are matched anchored and exactly: look-alikes (`maps.google.com.evil.example`,
///   userinfo, backslashes, escapes, `xn--` labels, ports) are refused where lenient readers
///   take the first Google-looking name;
/// - `google.com/search?…` is a web search, not a map, and is refused; only a Google host's
///   root (`/?q=`, `/?destination=`) and paths under `/maps` are maps links;
/// - short links are never fetched (that would send the user's request to the network
///   unasked); a dynamic link's or an intent's carried link is read one level deep, and an
///   intent may carry only `http(s)`, `geo:` or `google.navigation:`;
/// - place ids, feature ids and My Maps ids need Google's database: they are noted and the rest
///   of the link is used, never guessed at.
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
