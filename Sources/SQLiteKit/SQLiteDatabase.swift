internal import CSQLite

/// A connection to one SQLite database file; the only code that calls SQLite's C API.
///
/// Not `Sendable`: one owner uses a connection at a time (SQLite's own rule for a connection
/// opened without its serialized mode). The handle is closed when the value is released.
public final class SQLiteDatabase {
    /// How to open a file.
    public enum Mode: Sendable {
        case readOnly, readWrite, readWriteCreate
    }

    let handle: OpaquePointer
    public let path: String

    /// Opens (or with `.readWriteCreate`, creates) the database at `path`; ":memory:" is a
    /// private in-memory database.
    public init(path: String, mode: Mode = .readWriteCreate) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        let status = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteError(code: status, extendedCode: status, message: "\(message) (\(path))")
        }
        sqlite3_extended_result_codes(handle, 1)
        self.handle = handle
        self.path = path
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(
                code: status & 0xFF, extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Compiles one statement.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, sql: sql) }
        return SQLiteStatement(database: self, statement: statement, sql: sql)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the last inserted row.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The SQLite library version ("3.40.1").
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// True when the library was built with `option` (for example "ENABLE_FTS5", "ENABLE_RTREE").
    public static func isCompiled(with option: String) -> Bool { sqlite3_compileoption_used(option) != 0 }

    /// The error for `status`, with the connection's message and the SQL.
    func error(_ status: Int32, sql: String?) -> SQLiteError {
        SQLiteError(
            code: status & 0xFF, extendedCode: sqlite3_extended_errcode(handle),
            message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// A compiled statement; finalised when released.
public final class SQLiteStatement {
    let database: SQLiteDatabase
    let statement: OpaquePointer
    public let sql: String

    init(database: SQLiteDatabase, statement: OpaquePointer, sql: String) {
        self.database = database
        self.statement = statement
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Binds `values` to the parameters 1…n, after clearing earlier bindings and resetting.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, openmaps_sqlite_transient())
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), openmaps_sqlite_transient())
                }
            }
            guard status == SQLITE_OK else { throw database.error(status, sql: sql) }
        }
    }

    /// Advances to the next row; false when there are no more.
    public func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(status, sql: sql)
        }
    }

    /// Binds `values` and runs the statement to completion (for statements without rows).
    public func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// Binds `values` and returns every row.
    public func rows(_ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try bind(values)
        var rows: [[SQLiteValue]] = []
        while try step() { rows.append((0..<columnCount).map(value(at:))) }
        return rows
    }

    public var columnCount: Int { Int(sqlite3_column_count(statement)) }

    /// The value of column `index` of the current row.
    public func value(at index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, column)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }
}
