/// A failure of the store, an import or an installation: what kind of failure, what was
/// wrong, the file involved and the error underneath (SQLite's, the file system's), kept
/// whole rather than flattened into the message.
public struct DataError: Error, CustomStringConvertible {
    /// What kind of failure, for programs.
    public enum Kind: String, Sendable, Equatable {
        /// No store at the path.
        case noStore
        /// A store of another schema version.
        case schema
        /// SQLite failed (the underlying error is an `SQLiteError`).
        case database
        /// A file could not be read, written, moved or locked.
        case file
        /// Input data is malformed or damaged (a wheel, a boundary file, a traffic feed, a row).
        case invalidData
        /// Something the store or an archive should hold is not there (a raster, a member).
        case missingData
        /// A download or an external tool failed.
        case download
        /// The work was stopped on purpose (tests stop imports halfway).
        case interrupted
    }

    /// What kind of failure.
    public var kind: Kind
    /// What was wrong, or what was being done when the underlying error happened.
    public var message: String
    /// The file involved, when there is one.
    public var path: String?
    /// The error underneath, when this one wraps another.
    public var underlying: (any Error)?

    /// An error of `kind` that says `message`, with the file and the error underneath where there are any.
    public init(_ kind: Kind, message: String, path: String? = nil, underlying: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
        self.underlying = underlying
    }

    public var description: String {
        (path.map { "\($0): " } ?? "") + message + (underlying.map { ": \($0)" } ?? "")
    }
}
