internal import CPostgres
import Foundation

/// A failure reported by PostgreSQL or libpq, with what was running.
public struct PostgresError: Error, Equatable, CustomStringConvertible {
    /// The five-character SQLSTATE (`42P01` undefined table, `3D000` unknown database, …); empty
    /// when libpq failed before the server answered (connection refused, bad address).
    public var state: String
    /// The server's or libpq's message, one line.
    public var message: String
    /// The SQL that failed, when a statement was involved.
    public var sql: String?

    /// An error with the server's SQLSTATE (empty when the client failed), its message and the SQL it ran, if any.
    public init(state: String = "", message: String, sql: String? = nil) {
        self.state = state
        self.message = message
        self.sql = sql
    }

    /// True when the table, view or function named does not exist (`42P01`, `42883`).
    public var isUndefinedObject: Bool { state == "42P01" || state == "42883" }

    public var description: String {
        "PostgreSQL error\(state.isEmpty ? "" : " \(state)"): \(message)" + (sql.map { " in: \($0)" } ?? "")
    }
}

/// A parameter of a statement: sent as text, except bytes (binary).
public enum PostgresValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes([UInt8])
}

/// One connection to a PostgreSQL server, through libpq: statements with parameters (each
/// prepared once per connection), `COPY … FROM STDIN` for bulk writes, transactions.
///
/// Results come in binary, read by column type (`int2/4/8`, `float4/8`, `bool`, `text`,
/// `varchar`, `bytea`, `jsonb`); a connection is used by one thread at a time.
public final class PostgresConnection {
    private let handle: OpaquePointer
    /// Prepared statements by SQL: the server-side name of each.
    private var prepared: [String: String] = [:]
    /// The address connected to, with any password left out (for messages).
    public let address: String

    /// Connects with a libpq connection string: `postgresql://user@host:port/db` or
    /// `host=… port=… dbname=…`.
    ///
    /// - Throws: ``PostgresError`` with libpq's reason when the server cannot be reached or
    ///   refuses the connection.
    public init(_ conninfo: String) throws(PostgresError) {
        address = Self.redacted(conninfo)
        try LibPQ.setUp()
        guard let connection = pq.PQconnectdb(conninfo) else {
            throw PostgresError(message: "libpq could not allocate a connection")
        }
        guard pq.PQstatus(connection) == CONNECTION_OK else {
            let reason = Self.oneLine(pq.PQerrorMessage(connection).map { String(cString: $0) } ?? "")
            pq.PQfinish(connection)
            throw PostgresError(message: "cannot connect: \(reason)")
        }
        handle = connection
        // Notices (`… does not exist, skipping`) are for people at a prompt, not a program.
        _ = pq.PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try execute("SET client_encoding = 'UTF8'; SET client_min_messages = warning")
    }

    deinit { pq.PQfinish(handle) }

    /// `conninfo` with its password (in a URL or as `password=`) replaced by `***`.
    public static func redacted(_ conninfo: String) -> String {
        if var components = URLComponents(string: conninfo), components.scheme?.hasPrefix("postgres") == true {
            if components.password != nil { components.password = "***" }
            return components.string ?? conninfo
        }
        return conninfo.replacingOccurrences(
            of: #"password\s*=\s*('[^']*'|\S+)"#, with: "password=***", options: .regularExpression)
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// The error of a result (or of the connection, when there is no result).
    private func error(_ result: OpaquePointer?, sql: String?) -> PostgresError {
        let state = result.flatMap { pq.PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        let message = result.flatMap { pq.PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
        let text = message.isEmpty ? pq.PQerrorMessage(handle).map { String(cString: $0) } ?? "" : message
        return PostgresError(state: state ?? "", message: Self.oneLine(text), sql: sql)
    }

    /// Runs one or more statements without parameters or results (schema, `BEGIN`, `SET`).
    public func execute(_ sql: String) throws(PostgresError) {
        let result = pq.PQexec(handle, sql)
        defer { pq.PQclear(result) }
        let status = pq.PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(result, sql: sql) }
    }

    /// Runs a statement with parameters `$1…$n` and returns its rows. The statement is
    /// prepared on first use and kept for the connection's life.
    @discardableResult
    public func query(_ sql: String, _ values: [PostgresValue] = []) throws(PostgresError) -> PostgresResult {
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "s\(prepared.count)"
            let result = pq.PQprepare(handle, name, sql, 0, nil)
            defer { pq.PQclear(result) }
            guard pq.PQresultStatus(result) == PGRES_COMMAND_OK else { throw error(result, sql: sql) }
            prepared[sql] = name
        }
        var texts: [[CChar]?] = []
        var bytes: [[UInt8]?] = []
        for value in values {
            switch value {
            case .null: texts.append(nil)
            case .integer(let number): texts.append(Array(String(number).utf8CString))
            case .real(let number): texts.append(Array("\(number)".utf8CString))
            case .text(let text): texts.append(Array(text.utf8CString))
            case .bytes: texts.append(nil)
            }
            if case .bytes(let data) = value { bytes.append(data) } else { bytes.append(nil) }
        }
        let lengths = bytes.map { Int32($0?.count ?? 0) }
        let formats = bytes.map { $0 == nil ? Int32(0) : 1 }
        let result = Self.withPointers(texts, bytes) { pointers in
            pq.PQexecPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 1)
        }
        let status = pq.PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            defer { pq.PQclear(result) }
            throw error(result, sql: sql)
        }
        return PostgresResult(result)
    }

    /// Pointers to each parameter's bytes (text NUL-terminated, bytes as they are), valid in `body`.
    private static func withPointers<T>(
        _ texts: [[CChar]?], _ bytes: [[UInt8]?], _ body: ([UnsafePointer<CChar>?]) -> T
    ) -> T {
        var storage: [UnsafeMutableRawPointer?] = []
        defer { storage.forEach { $0?.deallocate() } }
        for (text, data) in zip(texts, bytes) {
            if let text {
                let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: text.count)
                pointer.initialize(from: text, count: text.count)
                storage.append(UnsafeMutableRawPointer(pointer))
            } else if let data {
                let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(1, data.count), alignment: 1)
                data.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: data.count) }
                storage.append(pointer)
            } else {
                storage.append(nil)
            }
        }
        return body(storage.map { $0.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } })
    }

    /// Streams `data` into `COPY … FROM STDIN`: rows in the format the statement names (a
    /// ``CopyRows`` batch for `WITH (FORMAT binary)`).
    public func copy(_ sql: String, data: [UInt8]) throws(PostgresError) {
        let start = pq.PQexec(handle, sql)
        let status = pq.PQresultStatus(start)
        guard status == PGRES_COPY_IN else {
            defer { pq.PQclear(start) }
            throw error(start, sql: sql)
        }
        pq.PQclear(start)
        let sent = data.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                pq.PQputCopyData(handle, $0, Int32(buffer.count))
            }
        }
        let ended = pq.PQputCopyEnd(handle, sent == 1 ? nil : "sending the rows failed")
        var failure: PostgresError?
        while let result = pq.PQgetResult(handle) {
            if pq.PQresultStatus(result) != PGRES_COMMAND_OK, failure == nil { failure = error(result, sql: sql) }
            pq.PQclear(result)
        }
        if let failure { throw failure }
        guard sent == 1, ended == 1 else { throw error(nil, sql: sql) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// The rows of a statement, in binary.
public final class PostgresResult {
    fileprivate let result: OpaquePointer?

    init(_ result: OpaquePointer?) { self.result = result }
    deinit { pq.PQclear(result) }

    /// The number of rows.
    public var count: Int { Int(pq.PQntuples(result)) }
    /// Rows changed by an `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { pq.PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0 }

    /// The row at `index`, 0 ..< ``count``.
    public func row(_ index: Int) -> PostgresRow { PostgresRow(owner: self, row: Int32(index)) }

    /// Every row, transformed.
    public func map<T>(_ transform: (PostgresRow) throws -> T) rethrows -> [T] {
        try (0..<count).map { try transform(row($0)) }
    }

    /// Every row, in order.
    public func forEachRow(_ body: (PostgresRow) throws -> Void) rethrows {
        for index in 0..<count { try body(row(index)) }
    }
}

/// One row of a ``PostgresResult``, which it keeps alive.
public struct PostgresRow {
    /// The rows it belongs to, kept alive as long as it is.
    fileprivate let owner: PostgresResult
    fileprivate let row: Int32
    private var result: OpaquePointer? { owner.result }

    /// Whether the row's value in `column` (0-based) is NULL.
    public func isNull(_ column: Int) -> Bool { pq.PQgetisnull(result, row, Int32(column)) == 1 }

    private func bytes(_ column: Int) -> UnsafeRawBufferPointer? {
        guard !isNull(column), let value = pq.PQgetvalue(result, row, Int32(column)) else { return nil }
        return UnsafeRawBufferPointer(start: value, count: Int(pq.PQgetlength(result, row, Int32(column))))
    }

    private func type(_ column: Int) -> PostgresType? {
        PostgresType(rawValue: UInt32(pq.PQftype(result, Int32(column))))
    }

    private func bigEndian<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as: T.Type) -> T? {
        guard bytes.count == MemoryLayout<T>.size else { return nil }
        return T(bigEndian: bytes.loadUnaligned(as: T.self))
    }

    /// The column as an integer (`int2/4/8`, `bool`), nil when NULL or of another type.
    public func integer(_ column: Int) -> Int64? {
        guard let bytes = bytes(column) else { return nil }
        switch type(column) {
        case .int8: return bigEndian(bytes, as: Int64.self)
        case .int4: return bigEndian(bytes, as: Int32.self).map(Int64.init)
        case .int2: return bigEndian(bytes, as: Int16.self).map(Int64.init)
        case .bool: return bytes.first.map { Int64($0) }
        case .float8: return real(column).map { Int64($0) }
        default: return nil
        }
    }

    /// The column as a number (`float4/8`, or an integer column), nil when NULL.
    public func real(_ column: Int) -> Double? {
        guard let bytes = bytes(column) else { return nil }
        switch type(column) {
        case .float8: return bigEndian(bytes, as: UInt64.self).map(Double.init(bitPattern:))
        case .float4: return bigEndian(bytes, as: UInt32.self).map { Double(Float(bitPattern: $0)) }
        default: return integer(column).map(Double.init)
        }
    }

    /// The column as text (`text`, `varchar`, `jsonb`; an integer column printed), nil when NULL.
    public func text(_ column: Int) -> String? {
        guard let bytes = bytes(column) else { return nil }
        switch type(column) {
        case .text, .varchar: return String(decoding: bytes, as: UTF8.self)
        case .jsonb: return String(decoding: bytes.dropFirst(), as: UTF8.self)  // version byte first
        case .int2, .int4, .int8: return integer(column).map(String.init)
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Calls `body` with the column's bytes (a `bytea`'s content), nil when NULL.
    public func withBlob<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        guard let bytes = bytes(column) else { return nil }
        return try body(bytes)
    }
}

/// libpq's functions (``LibPQ/setUp()`` loads them): what code that runs after it calls.
var pq: openmaps_pq { LibPQ.functions }

/// libpq, loaded at the first connection rather than linked, so that the commands that use no
/// PostgreSQL store do not pay for its libraries.
enum LibPQ {
    /// libpq's functions, or why they could not be loaded.
    private static let library: Result<openmaps_pq, PostgresError> = {
        var failure: UnsafePointer<CChar>?
        guard let loaded = openmaps_pq_load(&failure)?.pointee else {
            return .failure(PostgresError(message: failure.map { String(cString: $0) } ?? "libpq could not be loaded"))
        }
        return .success(loaded)
    }()

    /// Loads libpq once a process, before the first use of ``pq``.
    ///
    /// - Throws: ``PostgresError`` saying why libpq cannot be loaded.
    static func setUp() throws(PostgresError) {
        if case .failure(let error) = library { throw error }
    }

    /// libpq's functions, after ``setUp()`` succeeded (a programming error otherwise).
    static var functions: openmaps_pq {
        guard case .success(let functions) = library else { preconditionFailure("libpq used before LibPQ.setUp") }
        return functions
    }
}
