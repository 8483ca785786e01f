internal import CSQLite

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

    /// An error with SQLite's primary and extended result codes, its message and the SQL it ran, if any.
    public init(code: Int32, extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The one mapping from a C result code to an error: the primary and extended codes and
    /// the connection's message (or `message`, when SQLite handed one over), with the SQL and,
    /// for failures without a connection, `context` (the path being opened).
    init(status: Int32, connection: OpaquePointer?, sql: String?, message: String? = nil, context: String? = nil) {
        let text =
            message ?? connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        self.init(
            code: status & 0xFF, extendedCode: connection.map { sqlite3_extended_errcode($0) } ?? status,
            message: context.map { "\(text) (\($0))" } ?? text, sql: sql)
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
