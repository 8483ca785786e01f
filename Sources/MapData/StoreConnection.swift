import Foundation
import PostgresKit
import SQLiteKit

/// A value written to or compared in the store.
public enum StoreValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// What kind of value this is, for messages (`integer 300`, `text`, `blob of 12 bytes`).
    var kindName: String {
        switch self {
        case .null: "null"
        case .integer(let number): "integer \(number)"
        case .real(let number): "real \(number)"
        case .text: "text"
        case .blob(let bytes): "blob of \(bytes.count) bytes"
        }
    }
}

/// The engine under a store, each with its SQL: SQLite (one file, the default) or PostgreSQL
/// with PostGIS (a server several processes and machines share).
public enum StoreEngine: String, Sendable {
    case sqlite
    case postgis

    /// The engine a store's location names: a `postgresql://` or `postgres://` URL is PostGIS,
    /// anything else a SQLite file's path.
    public init(location: String) {
        let lowered = location.lowercased()
        self = lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") ? .postgis : .sqlite
    }
}

/// One row of a store query, from either engine; valid inside the row callback only.
struct StoreRow {
    enum Cursor {
        case sqlite(SQLiteRow)
        case postgres(PostgresRow)
    }

    let cursor: Cursor

    func integer(_ index: Int) -> Int64? {
        switch cursor {
        case .sqlite(let row): row.integer(index)
        case .postgres(let row): row.integer(index)
        }
    }

    func real(_ index: Int) -> Double? {
        switch cursor {
        case .sqlite(let row): row.real(index)
        case .postgres(let row): row.real(index)
        }
    }

    func text(_ index: Int) -> String? {
        switch cursor {
        case .sqlite(let row): row.text(index)
        case .postgres(let row): row.text(index)
        }
    }

    func withBlob<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        switch cursor {
        case .sqlite(let row): try row.withBlob(index, body)
        case .postgres(let row): try row.withBlob(index, body)
        }
    }
}

/// Appends rows to one table during an update: a prepared `INSERT` on SQLite, batches of
/// `COPY … FROM STDIN` on PostgreSQL (flushed every few megabytes and before the commit).
protocol RowInserter: AnyObject {
    func insert(_ values: [StoreValue]) throws
}

/// What the store's queries need from a database connection: statements with `?` parameters,
/// run once or row by row, bulk inserts, transactions, and the SQL fragments where the two
/// engines differ (``engine``). ``MapStore`` reads through it and ``StoreUpdate`` writes.
protocol StoreConnection: AnyObject {
    var engine: StoreEngine { get }
    /// Runs statements without parameters or rows (schema changes).
    func execute(_ sql: String) throws
    /// Runs a statement (compiled once per connection) and hands each row to `body`.
    func forEachRow(_ sql: String, _ values: [StoreValue], _ body: (StoreRow) throws -> Void) throws
    /// How many statements ``forEachRow(_:_:_:)`` has run (a PostGIS statement is a round trip).
    var statementCount: Int { get }
    /// A bulk writer of `columns` into `table`.
    func inserter(table: String, columns: [String]) throws -> RowInserter
    /// Sends what inserters hold (PostgreSQL's pending `COPY` batches).
    func flush() throws
}

extension StoreConnection {
    /// Runs a statement for its effect.
    func run(_ sql: String, _ values: [StoreValue] = []) throws {
        try forEachRow(sql, values) { _ in }
    }

    /// Every row of a statement, transformed.
    func map<T>(_ sql: String, _ values: [StoreValue] = [], _ transform: (StoreRow) throws -> T) throws -> [T] {
        var rows: [T] = []
        try forEachRow(sql, values) { rows.append(try transform($0)) }
        return rows
    }
}

// MARK: SQLite

/// A store connection on a SQLite file.
final class SQLiteStoreConnection: StoreConnection {
    let database: SQLiteDatabase
    var engine: StoreEngine { .sqlite }

    private(set) var statementCount = 0

    init(_ database: SQLiteDatabase) { self.database = database }

    func execute(_ sql: String) throws { try database.execute(sql) }

    func forEachRow(_ sql: String, _ values: [StoreValue], _ body: (StoreRow) throws -> Void) throws {
        statementCount += 1
        try database.cached(sql).forEachRow(values.map(Self.value)) { try body(StoreRow(cursor: .sqlite($0))) }
    }

    static func value(_ value: StoreValue) -> SQLiteValue {
        switch value {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }

    private final class Inserter: RowInserter {
        let statement: SQLiteStatement
        init(_ statement: SQLiteStatement) { self.statement = statement }
        func insert(_ values: [StoreValue]) throws { try statement.run(values.map(SQLiteStoreConnection.value)) }
    }

    func inserter(table: String, columns: [String]) throws -> RowInserter {
        Inserter(
            try database.prepare(
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(MapStore.placeholders(columns.count)))"
            ))
    }

    func flush() throws {}
}

// MARK: PostgreSQL

/// A store connection on a PostgreSQL database with PostGIS.
///
/// The store's statements are written with `?` parameters, numbered here (`$1`, `$2`, …); no
/// statement of the store has a `?` inside a string literal. Bulk rows go out on a thread of
/// their own (``CopySender``), so the next batch is built while the server takes the last;
/// every other statement first waits for the rows sent before it.
final class PostGISStoreConnection: StoreConnection {
    let connection: PostgresConnection
    var engine: StoreEngine { .postgis }
    /// Statements with their parameters numbered, by the store's SQL.
    private var numbered: [String: String] = [:]
    private var inserters: [PostGISInserter] = []
    private let sender: CopySender
    /// Sends bulk rows with `COPY … FREEZE` (allowed into tables created in the same
    /// transaction: a new store's).
    var freezesRows = false
    /// True once rows were written in bulk (a source's features and network): the tables are
    /// analysed before the commit.
    var wroteRows: Bool { !inserters.isEmpty }

    init(_ connection: PostgresConnection) {
        self.connection = connection
        sender = CopySender(connection)
    }

    func execute(_ sql: String) throws {
        try sender.drain()
        try connection.execute(sql)
    }

    /// `sql` with each `?` replaced by `$1`, `$2`, … in order.
    static func numbering(_ sql: String) -> String {
        var result = ""
        var next = 0
        for character in sql {
            if character == "?" {
                next += 1
                result += "$\(next)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    static func value(_ value: StoreValue) -> PostgresValue {
        switch value {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .blob(let bytes): .bytes(bytes)
        }
    }

    private(set) var statementCount = 0

    func forEachRow(_ sql: String, _ values: [StoreValue], _ body: (StoreRow) throws -> Void) throws {
        try sender.drain()
        statementCount += 1
        let statement: String
        if let known = numbered[sql] {
            statement = known
        } else {
            statement = Self.numbering(sql)
            numbered[sql] = statement
        }
        try connection.query(statement, values.map(Self.value)).forEachRow { try body(StoreRow(cursor: .postgres($0))) }
    }

    func inserter(table: String, columns: [String]) throws -> RowInserter {
        var types: [String: UInt32] = [:]
        try forEachRow(
            "SELECT attname::text, atttypid::int8 FROM pg_attribute WHERE attrelid = ?::regclass AND attnum > 0 "
                + "AND NOT attisdropped", [.text(table)]
        ) { row in
            if let name = row.text(0), let type = row.integer(1) { types[name] = UInt32(truncatingIfNeeded: type) }
        }
        let columnTypes = try columns.map { column in
            guard let oid = types[column] else {
                throw DataError(.database, message: "the store's table \(table) has no column \(column)")
            }
            guard let type = PostgresType(rawValue: oid) else {
                throw DataError(
                    .database, message: "the column \(table).\(column) is of a type (OID \(oid)) not written in bulk")
            }
            return type
        }
        let inserter = PostGISInserter(
            sender: sender, table: table, columns: columns, types: columnTypes, freeze: freezesRows)
        inserters.append(inserter)
        return inserter
    }

    func flush() throws {
        for inserter in inserters { try inserter.flush() }
        try sender.drain()
    }

    /// Waits until no batch is being sent (their failures left to whoever asks next).
    func waitForSentRows() { _ = try? sender.drain() }
}

/// Sends `COPY` batches on a serial queue of its own, one at a time and in order; the first
/// failure is kept and thrown by the next ``send(_:data:)`` or ``drain()``. The connection is
/// used by the queue only between a send and the next drain, which its owner calls before any
/// other statement.
final class CopySender: @unchecked Sendable {
    private let connection: PostgresConnection
    private let queue = DispatchQueue(label: "openmaps.postgis.copy")
    /// Guarded by `queue`.
    private var failure: (any Error)?

    init(_ connection: PostgresConnection) { self.connection = connection }

    /// Queues a batch (at most one waits: a second send waits for the first to go).
    func send(_ sql: String, data: [UInt8]) throws {
        try drain()
        queue.async {
            guard self.failure == nil else { return }
            do { try self.connection.copy(sql, data: data) } catch { self.failure = error }
        }
    }

    /// Waits for every queued batch; throws the first failure.
    func drain() throws {
        let failure = queue.sync { self.failure }
        if let failure { throw failure }
    }
}

/// Rows gathered in `COPY`'s binary format and sent in batches of about 8 MB. Each value is
/// written in its column's type, read from the table when the inserter is made: integers
/// into `int2/4/8` (range checked), `bool` (non-zero is true) or `float4/8`, reals into
/// `float4/8` (non-finite ones as NULL, as SQLite stores them), text into `text`, `varchar`
/// or `jsonb`, blobs into `bytea`, and into a `tsvector` column as its binary form
/// (``TextSearchVector``).
final class PostGISInserter: RowInserter {
    let sender: CopySender
    let table: String
    let columns: [String]
    let types: [PostgresType]
    let sql: String
    private var rows = CopyRows()
    static let batchBytes = 8 << 20

    /// With `freeze`, rows go in frozen (`COPY … FREEZE`: the table must be the transaction's own).
    init(sender: CopySender, table: String, columns: [String], types: [PostgresType], freeze: Bool) {
        self.sender = sender
        self.table = table
        self.columns = columns
        self.types = types
        sql =
            "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN WITH (FORMAT binary\(freeze ? ", FREEZE" : ""))"
    }

    func insert(_ values: [StoreValue]) throws {
        guard values.count == types.count else {
            throw DataError(
                .database, message: "\(values.count) values for the \(types.count) columns written to \(table)")
        }
        try Self.append(values, types: types, to: &rows) { index in
            DataError(
                .database,
                message: "a value (\(values[index].kindName)) does not fit the column \(table).\(columns[index]) "
                    + "(\(types[index]))")
        }
        if rows.byteCount >= Self.batchBytes { try flush() }
    }

    /// Appends one row of `values` in their columns' `types`, or none: `misfit` makes the error
    /// for the value at an index that does not fit its column.
    private static func append(
        _ values: [StoreValue], types: [PostgresType], to rows: inout CopyRows, misfit: (Int) -> DataError
    ) throws {
        rows.beginRow(fields: values.count)
        for (index, value) in values.enumerated() {
            switch (value, types[index]) {
            case (.null, _): rows.null()
            case (.integer(let number), .int8): rows.int8(number)
            case (.integer(let number), .int4) where Int32(exactly: number) != nil: rows.int4(Int32(number))
            case (.integer(let number), .int2) where Int16(exactly: number) != nil: rows.int2(Int16(number))
            case (.integer(let number), .bool): rows.bool(number != 0)
            case (.integer(let number), .float8): rows.float8(Double(number))
            case (.integer(let number), .float4): rows.float4(Float(number))
            case (.real(let number), .float8): number.isFinite ? rows.float8(number) : rows.null()
            case (.real(let number), .float4): number.isFinite ? rows.float4(Float(number)) : rows.null()
            case (.text(let text), .text), (.text(let text), .varchar): rows.text(text)
            case (.text(let text), .jsonb): rows.jsonb(text)
            case (.blob(let bytes), .bytea), (.blob(let bytes), .tsvector): rows.bytes(bytes)
            default:
                rows.cancelRow()
                throw misfit(index)
            }
        }
    }

    func flush() throws {
        guard rows.rows > 0 else { return }
        try sender.send(sql, data: rows.batch())
    }
}
