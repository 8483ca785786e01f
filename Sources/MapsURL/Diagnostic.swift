/// A problem found while reading a link: what was wrong, how bad, and where.
public struct Diagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    /// How a diagnostic affects the request.
    public enum Severity: String, Sendable, Codable, Comparable {
        /// Informational: a part was recognised but has no effect (an unknown parameter).
        case note
        /// A part was adjusted or dropped, the rest stands (a clamped zoom, a duplicate key).
        case warning
        /// A part was rejected; when no request could be made at all, the link is invalid.
        case error

        private var rank: Int { self == .note ? 0 : self == .warning ? 1 : 2 }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A stable machine-readable code (`bad-coordinate`, `host-not-google`, …).
    public var code: DiagnosticCode
    /// How much it matters: a note, a warning or an error.
    public var severity: Severity
    /// One sentence for a person: what was wrong and what was done about it.
    public var message: String
    /// Offset in the input, in characters (extended grapheme clusters), of the first
    /// character of the offending part.
    public var offset: Int
    /// Number of characters the offending part spans (at least 1 for the caret).
    public var length: Int

    /// A diagnostic at `offset` characters into the input, `length` characters long.
    public init(code: DiagnosticCode, severity: Severity, message: String, offset: Int, length: Int = 1) {
        self.code = code
        self.severity = severity
        self.message = message
        self.offset = offset
        self.length = max(1, length)
    }

    public var description: String { "\(severity.rawValue)[\(code.rawValue)] at \(offset): \(message)" }

    /// The input on one line with a caret line under the offending part, then the message.
    ///
    /// Control characters of the input are shown as `?` so the caret stays aligned.
    public func rendered(under input: String) -> String {
        let shown = String(input.map { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) ? "?" : $0 })
        let clampedOffset = min(offset, shown.count)
        let marks = String(repeating: "^", count: max(1, min(length, shown.count - clampedOffset)))
        return "\(shown)\n\(String(repeating: " ", count: clampedOffset))\(marks)\n\(description)"
    }
}

/// Every link form the parser knows.
public enum LinkForm: String, Sendable, Codable, CaseIterable {
    /// `comgooglemaps://?…`
    case comgooglemaps
    /// `comgooglemaps-x-callback://?…`
    case comgooglemapsXCallback = "comgooglemaps-x-callback"
    /// `comgooglemapsurl://` + a desktop URL without its scheme.
    case comgooglemapsurl
    /// An http(s) Google Maps URL (desktop, legacy or Universal Link), including `api=1`.
    case googleMapsWeb = "google-maps-web"
    /// A Google short link (`maps.app.goo.gl`, `goo.gl/maps`, `app.goo.gl/maps`, `g.co/kgs`):
    /// needs resolution.
    case googleShortLink = "google-short-link"
    /// An Apple Maps short link (`maps.apple/p/…`): needs resolution.
    case appleShortLink = "apple-short-link"
    /// RFC 5870 `geo:` URI.
    case geo
    /// Apple Maps (`maps.apple.com`, `maps://`).
    case appleMaps = "apple-maps"
    /// Android's navigation intent, `google.navigation:q=…` (a navigate-to request).
    case googleNavigation = "google-navigation"
}

/// The outcome of reading one link.
public struct ParsedMapsURL: Sendable, Equatable, Codable {
    /// The request, nil when the link was rejected as a whole (see ``diagnostics``).
    public var request: MapsRequest?
    /// The form the link was recognised as, nil when none matched.
    public var form: LinkForm?
    /// Everything rejected, adjusted or ignored, in input order.
    public var diagnostics: [Diagnostic]

    /// What a parse gave: the request (nil when the link could not be read), its form and the diagnostics.
    public init(request: MapsRequest?, form: LinkForm?, diagnostics: [Diagnostic]) {
        self.request = request
        self.form = form
        self.diagnostics = diagnostics
    }

    /// True when a request was made and no part of the link was rejected.
    public var isValid: Bool { request != nil && !diagnostics.contains { $0.severity == .error } }
}
