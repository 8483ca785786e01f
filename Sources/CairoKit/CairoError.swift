internal import CCairo

/// What went wrong drawing, decoding or writing a picture: what kind of failure, what was
/// wrong, the file involved, Cairo's status when Cairo reported it, and the error underneath
/// (the file system's, zlib's), kept whole.
public struct CairoError: Error, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Sendable, Equatable {
        /// A size, scale, rectangle or format outside what a canvas allows.
        case invalidArgument
        /// Cairo or Pango failed while drawing.
        case drawing
        /// An image could not be decoded.
        case decoding
        /// A picture could not be encoded.
        case encoding
        /// A file could not be read or written.
        case file
    }

    /// What kind of failure.
    public var kind: Kind
    /// What was wrong, or what was being done.
    public var message: String
    /// The file involved, if any.
    public var path: String?
    /// Cairo's status code (`cairo_status_t`), when Cairo reported the failure.
    public var cairoStatus: Int?
    /// The error underneath, when this one wraps another.
    public var underlying: (any Error)?

    /// An error of `kind` that says `message`, with the file, Cairo's status and the error underneath where there are any.
    public init(
        _ kind: Kind, message: String, path: String? = nil, cairoStatus: Int? = nil, underlying: (any Error)? = nil
    ) {
        self.kind = kind
        self.message = message
        self.path = path
        self.cairoStatus = cairoStatus
        self.underlying = underlying
    }

    /// The one mapping from a Cairo status to an error.
    init(status: cairo_status_t, doing action: String, path: String? = nil) {
        let kind: Kind =
            switch status {
            case CAIRO_STATUS_READ_ERROR, CAIRO_STATUS_PNG_ERROR, CAIRO_STATUS_INVALID_FORMAT: .decoding
            case CAIRO_STATUS_WRITE_ERROR, CAIRO_STATUS_FILE_NOT_FOUND: .file
            case CAIRO_STATUS_INVALID_SIZE, CAIRO_STATUS_INVALID_STRIDE: .invalidArgument
            default: .drawing
            }
        self.init(
            kind, message: "\(action): \(String(cString: cairo_status_to_string(status)))", path: path,
            cairoStatus: Int(status.rawValue))
    }

    /// The same error naming `path`.
    func at(_ path: String) -> CairoError {
        var located = self
        located.path = path
        return located
    }

    public var description: String {
        (path.map { "\($0): " } ?? "") + message + (underlying.map { ": \($0)" } ?? "")
    }
}
