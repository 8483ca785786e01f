/// Validation of the x-callback-url parameters, which come from untrusted senders.
///
/// - `x-success`, `x-error` and `x-cancel` must be absolute URLs of a custom app scheme
///   (`[a-z][a-z0-9+.-]*:`): never `http`/`https` (an open redirect), never a script or local
///   resource scheme, never a Maps scheme (a callback loop). No whitespace, controls or
///   non-ASCII characters, at most ``maxURLLength`` bytes. Callbacks are offered to the user as
///   a button and never followed automatically.
/// - `x-source` is a display label only: C0/C1 controls and bidirectional overrides are
///   removed, surrounding whitespace trimmed, and it is cut to ``maxSourceLength`` characters.
public enum CallbackPolicy {
    /// Longest accepted callback URL, in bytes.
    public static let maxURLLength = 2048
    /// Longest `x-source` label kept, in characters.
    public static let maxSourceLength = 64

    /// Schemes that are never a callback target, whatever an allow-list says.
    public static let deniedSchemes: Set<String> = [
        "http", "https", "javascript", "vbscript", "data", "blob", "filesystem", "view-source", "file", "about",
        "ftp", "ws", "wss", "comgooglemaps", "comgooglemaps-x-callback", "comgooglemapsurl", "googlechrome",
        "googlechromes", "googlechrome-x-callback", "maps", "geo",
    ]

    /// Why a callback URL was refused.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        /// What was refused, e.g. ``DiagnosticCode/callbackSchemeDenied``.
        public var code: DiagnosticCode
        /// Why, one sentence.
        public var message: String
        /// The parameter refused (`x-source`, `x-success`, `x-error`, `x-cancel`), when known.
        public var parameter: String?

        /// A refusal of `code` that says `message`, for `parameter` when known.
        public init(code: DiagnosticCode, message: String, parameter: String? = nil) {
            self.code = code
            self.message = message
            self.parameter = parameter
        }

        public var description: String { parameter.map { "\($0): \(message)" } ?? message }
    }

    /// Checks a decoded callback URL.
    ///
    /// - Returns: the URL unchanged when it is acceptable.
    public static func validateCallbackURL(_ url: String) -> Result<String, Refusal> {
        var text = url
        let problem: Refusal? = text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return Refusal(code: .emptyCallback, message: "the callback URL is empty") }
            guard bytes.count <= maxURLLength else {
                return Refusal(
                    code: .callbackTooLong, message: "the callback URL is longer than \(maxURLLength) bytes")
            }
            var colon: Int?
            for (index, byte) in bytes.enumerated() {
                if byte <= 0x20 || byte >= 0x7F {
                    return Refusal(
                        code: .callbackBadCharacter,
                        message: "the callback URL contains whitespace, a control or a non-ASCII character")
                }
                if colon == nil && byte == UInt8(ascii: ":") { colon = index }
            }
            guard let colon else {
                return Refusal(code: .callbackNotAbsolute, message: "the callback URL has no scheme")
            }
            return schemeProblem(UnsafeBufferPointer(rebasing: bytes[..<colon]))
        }
        if let problem { return .failure(problem) }
        return .success(url)
    }

    /// Why a callback scheme (the bytes before the colon) is refused, or nil when it is a
    /// well-formed scheme that is not denied.
    private static func schemeProblem(_ scheme: UnsafeBufferPointer<UInt8>) -> Refusal? {
        let isWellFormed =
            scheme.first.map { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") } == true
            && scheme.allSatisfy { byte in
                ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")) || (byte >= 48 && byte <= 57)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            }
        guard isWellFormed else {
            return Refusal(code: .callbackBadScheme, message: "the callback URL's scheme is malformed")
        }
        let isDenied = deniedSchemeBytes.contains { denied in
            denied.count == scheme.count && zip(denied, scheme).allSatisfy { $0 == $1 | 0x20 || $0 == $1 }
        }
        guard !isDenied else {
            let name = String(decoding: scheme, as: UTF8.self).lowercased()
            return Refusal(
                code: .callbackSchemeDenied,
                message: "callbacks must use the calling app's own URL scheme, not '\(name):'")
        }
        return nil
    }

    /// ``deniedSchemes`` as bytes, for comparing without making strings.
    private static let deniedSchemeBytes: [[UInt8]] = deniedSchemes.map { Array($0.utf8) }

    /// Cleans an `x-source` label for display.
    ///
    /// - Returns: the label and whether it had to be changed, or nil when nothing is left.
    public static func sanitizeSource(_ label: String) -> (label: String, changed: Bool)? {
        // Fast path: printable ASCII without surrounding spaces, short enough, needs no work.
        let utf8 = label.utf8
        if utf8.count <= maxSourceLength, utf8.first != UInt8(ascii: " "), utf8.last != UInt8(ascii: " "),
            utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), !utf8.isEmpty
        {
            return (label, false)
        }
        var scalars = String.UnicodeScalarView()
        var changed = false
        for scalar in label.unicodeScalars {
            if isHidden(scalar) {
                changed = true
            } else {
                scalars.append(scalar)
            }
        }
        var cleaned = String(scalars).trimmingWhitespace()
        if cleaned.count > maxSourceLength {
            // Trim again: the cut may end on a space, and a clean label must stay unchanged
            // when cleaned twice (it travels through printed links).
            cleaned = String(cleaned.prefix(maxSourceLength)).trimmingWhitespace()
            changed = true
        }
        if cleaned.unicodeScalars.count != label.unicodeScalars.count && !changed { changed = true }
        return cleaned.isEmpty ? nil : (cleaned, changed)
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
