/// A rendering failure: what kind, what was being drawn, and the error underneath (Cairo's,
/// the store's), kept whole.
public struct RenderError: Error, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Sendable, Equatable {
        /// A request outside what can be drawn (a tile zoom outside the camera's range).
        case unsupported
        /// The store could not give what the picture needs.
        case data
        /// Cairo, Pango or an image decoder failed.
        case drawing
    }

    /// What kind of failure.
    public var kind: Kind
    /// What was wrong, or what was being drawn.
    public var message: String
    /// The error underneath, when this one wraps another.
    public var underlying: (any Error)?

    /// An error of `kind` that says `message`, wrapping `underlying` when there is one.
    public init(_ kind: Kind, message: String, underlying: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    public var description: String { message + (underlying.map { ": \($0)" } ?? "") }
}
