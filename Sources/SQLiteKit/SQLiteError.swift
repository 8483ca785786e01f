/// A failure reported by SQLite, with what was running.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CONSTRAINT` is 19, …).
    public var code: Int32
    /// The extended result code, which names the exact cause.
    public var extendedCode: Int32
    /// SQLite's message.
    public var message: String
    /// The SQL that failed, when a statement was involved.
    public var sql: String?

    public init(code: Int32, extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        "SQLite error \(code) (\(extendedCode)): \(message)" + (sql.map { " in: \($0)" } ?? "")
    }
}

/// A value as SQLite stores it.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}
