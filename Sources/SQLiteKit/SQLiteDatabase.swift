internal import CSQLite

/// A connection to one SQLite database file; the only code that calls SQLite's C API.
///
/// Not `Sendable`: one owner uses a connection at a time (SQLite's own rule for a connection
/// opened without its serialized mode); a thread that needs the store opens its own. The
/// handle is closed when the value is released.
public final class SQLiteDatabase {
    /// How to open a file.
    public enum Mode: Sendable {
        case readOnly, readWrite, readWriteCreate
    }

    let handle: OpaquePointer
    /// The database file's path (`:memory:` for one in memory).
    public let path: String
    /// Statements compiled once and reused, by their SQL (see ``cached(_:)``).
    private var statements: [String: SQLiteStatement] = [:]

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
            let error = SQLiteError(status: status, connection: handle, sql: nil, context: path)
            if let handle { sqlite3_close_v2(handle) }
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        self.handle = handle
        self.path = path
    }

    deinit {
        // Statements first: a connection with live statements closes only when they are gone.
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        let text = message.map { String(cString: $0) }
        sqlite3_free(message)
        guard status == SQLITE_OK else {
            throw SQLiteError(status: status, connection: handle, sql: sql, message: text)
        }
    }

    /// Compiles one statement; the caller owns it.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, sql: sql) }
        return SQLiteStatement(connection: handle, statement: statement, sql: sql)
    }

    /// The statement for `sql`, compiled on first use and kept for the connection's life (the
    /// queries a store runs per picture or per tile are compiled once, not every time).
    /// Binding resets it, so a cached statement is ready for reuse once its rows are read.
    public func cached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
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

    /// True when the library was built with `option` (for example "ENABLE_FTS5", "ENABLE_RTREE").
    public static func isCompiled(with option: String) -> Bool { sqlite3_compileoption_used(option) != 0 }

    /// The error for `status`, with the connection's message and the SQL.
    func error(_ status: Int32, sql: String?) -> SQLiteError {
        SQLiteError(status: status, connection: handle, sql: sql)
    }
}

@available(*, unavailable, message: "a connection belongs to one thread; open one per thread")
extension SQLiteDatabase: Sendable {}

/// A compiled statement; finalised when released. Not `Sendable`, like its connection.
///
/// It keeps its connection's handle, not the connection object, so the statements a
/// connection caches do not keep it alive: the connection is closed with `sqlite3_close_v2`,
/// which waits for the statements still alive before it really closes.
public final class SQLiteStatement {
    let connection: OpaquePointer
    let statement: OpaquePointer
    /// The statement's SQL as prepared.
    public let sql: String

    init(connection: OpaquePointer, statement: OpaquePointer, sql: String) {
        self.connection = connection
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
            guard status == SQLITE_OK else { throw SQLiteError(status: status, connection: connection, sql: sql) }
        }
    }

    /// Advances to the next row; false when there are no more.
    public func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(status: status, connection: connection, sql: sql)
        }
    }

    /// Binds `values` and runs the statement to completion (for statements without rows).
    public func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(statement)
    }

    /// Binds `values` and calls `body` with each row, read in place: nothing is copied but
    /// what `body` takes out of the row. The statement is reset afterwards, even when `body`
    /// throws, so a cached statement is ready again.
    public func forEachRow(_ values: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(statement) }
        let row = SQLiteRow(statement: statement)
        while try step() { try body(row) }
    }

    /// Binds `values` and returns what `transform` makes of each row (read in place).
    public func map<T>(_ values: [SQLiteValue] = [], _ transform: (SQLiteRow) throws -> T) throws -> [T] {
        var results: [T] = []
        try forEachRow(values) { results.append(try transform($0)) }
        return results
    }

    /// Binds `values` and returns every row as values: for small results (metadata, tests).
    public func rows(_ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        do {
            return try map(values) { row in (0..<row.columnCount).map(row.value) }
        } catch let error as SQLiteError {
            throw error
        } catch {
            preconditionFailure("reading values does not throw: \(error)")
        }
    }
}

@available(*, unavailable, message: "a statement belongs to its connection's thread")
extension SQLiteStatement: Sendable {}

/// The current row of a statement, read in place; valid only inside the closure that
/// received it. SQL NULL reads as nil from every accessor, never as "" or 0.
public struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    /// How many columns each result row has.
    public var columnCount: Int { Int(sqlite3_column_count(statement)) }

    /// True when column `index` is NULL.
    public func isNull(_ index: Int) -> Bool { sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL }

    /// An integer column; nil when NULL or not an integer.
    public func integer(_ index: Int) -> Int64? {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_INTEGER
            ? sqlite3_column_int64(statement, Int32(index)) : nil
    }

    /// A number column (integers convert); nil when NULL or not a number.
    public func real(_ index: Int) -> Double? {
        switch sqlite3_column_type(statement, Int32(index)) {
        case SQLITE_FLOAT, SQLITE_INTEGER: sqlite3_column_double(statement, Int32(index))
        default: nil
        }
    }

    /// A text column; nil when NULL or not text.
    public func text(_ index: Int) -> String? {
        guard sqlite3_column_type(statement, Int32(index)) == SQLITE_TEXT,
            let pointer = sqlite3_column_text(statement, Int32(index))
        else { return nil }
        return String(cString: pointer)
    }

    /// Calls `body` with a blob column's bytes in place (valid only during the call); nil
    /// when the column is NULL or not a blob.
    public func withBlob<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        guard sqlite3_column_type(statement, Int32(index)) == SQLITE_BLOB else { return nil }
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        return try body(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, Int32(index)), count: count))
    }

    /// Column `index` as a value.
    public func value(_ index: Int) -> SQLiteValue {
        switch sqlite3_column_type(statement, Int32(index)) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, Int32(index)))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, Int32(index)))
        case SQLITE_TEXT: text(index).map { .text($0) } ?? .null
        case SQLITE_BLOB: withBlob(index) { .blob(Array($0)) } ?? .null
        default: .null
        }
    }
}
