import Foundation
import SQLiteKit
import Testing

/// The SQLite wrapper on a fresh temporary database per test.
@Suite struct SQLiteKitTests {
    func database() throws -> (SQLiteDatabase, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString).sqlite")
            .path
        return (try SQLiteDatabase(path: path), path)
    }

    @Test func insertAndQueryEveryValueType() throws {
        let (db, path) = try database()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try db.execute(
            "CREATE TABLE feature (id INTEGER PRIMARY KEY, name TEXT, height REAL, geometry BLOB, note TEXT)")
        let insert = try db.prepare("INSERT INTO feature (id, name, height, geometry, note) VALUES (?, ?, ?, ?, ?)")
        try insert.run([.integer(1), .text("Kiasma ünï 東京"), .real(26.5), .blob([0, 1, 255]), .null])
        try insert.run([.integer(2), .text("Ateneum"), .real(20), .blob([]), .text("museum")])
        #expect(db.lastInsertRowID == 2 && db.changes == 1)
        let rows = try db.prepare("SELECT id, name, height, geometry, note FROM feature ORDER BY id").rows()
        #expect(rows[0] == [.integer(1), .text("Kiasma ünï 東京"), .real(26.5), .blob([0, 1, 255]), .null])
        #expect(rows[1][4] == .text("museum"))
    }

    @Test func rowsAreReadInPlaceWithNullAsNil() throws {
        let (db, path) = try database()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try db.execute(
            "CREATE TABLE t (a INTEGER, b TEXT, c REAL, d BLOB); INSERT INTO t VALUES (NULL, NULL, NULL, NULL)")
        try db.execute("INSERT INTO t VALUES (0, '', 0.5, x'0102')")
        let rows = try db.cached("SELECT a, b, c, d FROM t ORDER BY rowid").map { row in
            (row.integer(0), row.text(1), row.real(2), row.withBlob(3) { Array($0) }, row.isNull(0))
        }
        #expect(rows[0].0 == nil && rows[0].1 == nil && rows[0].2 == nil && rows[0].3 == nil && rows[0].4)
        #expect(rows[1].0 == 0 && rows[1].1 == "" && rows[1].2 == 0.5 && rows[1].3 == [1, 2] && !rows[1].4)
        // An integer column reads as a number too; a text column is not a number.
        #expect(try db.cached("SELECT 3, 'x'").map { ($0.real(0), $0.real(1)) }.first.map { $0 == (3, nil) } == true)
    }

    @Test func cachedStatementsAreCompiledOnceAndDoNotKeepTheirConnectionAlive() throws {
        let (db, path) = try database()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try db.cached("SELECT 1")
        #expect(try db.cached("SELECT 1") === first)
        // Ended early by an error in the body, the statement is reset and runs again from the start.
        struct Stop: Error {}
        #expect(throws: Stop.self) { try first.forEachRow { _ in throw Stop() } }
        #expect(try first.map { $0.integer(0) } == [1])
        weak var released: SQLiteDatabase?
        do {
            let connection = try SQLiteDatabase(path: path)
            _ = try connection.cached("SELECT 2").map { $0.integer(0) }
            released = connection
        }
        #expect(released == nil)
    }

    @Test func errorsCarryTheCodeAndTheSQL() throws {
        let (db, path) = try database()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try db.prepare("SELEC nonsense")
            Issue.record("bad SQL compiled")
        } catch {
            #expect(error.code == 1 && error.sql == "SELEC nonsense" && error.message.contains("syntax"))
        }
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
        let insert = try db.prepare("INSERT INTO t (id) VALUES (?)")
        try insert.run([.integer(1)])
        do {
            try insert.run([.integer(1)])
            Issue.record("a duplicate key was inserted")
        } catch {
            #expect(error.code == 19)  // SQLITE_CONSTRAINT
            #expect(error.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
        }
    }

    @Test func transactionsCommitOrRollBack() throws {
        let (db, path) = try database()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
        try db.transaction { try db.prepare("INSERT INTO t VALUES (1)").run() }
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try db.transaction {
                try db.prepare("INSERT INTO t VALUES (2)").run()
                throw Abort()
            }
        }
        #expect(try db.prepare("SELECT count(*) FROM t").rows() == [[.integer(1)]])
    }

    @Test func readOnlyConnectionsCannotWriteAndMissingFilesCannotOpen() throws {
        let (db, path) = try database()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try db.execute("CREATE TABLE t (id INTEGER)")
        let reader = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        #expect(throws: SQLiteError.self) { try SQLiteDatabase(path: "/nonexistent/dir/x.sqlite", mode: .readWrite) }
    }

    /// The store needs both: R*Tree for the spatial index, FTS5 for names.
    @Test func rtreeAndFTS5Work() throws {
        let (db, path) = try database()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try db.execute("CREATE VIRTUAL TABLE box USING rtree(id, minX, maxX, minY, maxY)")
        try db.prepare("INSERT INTO box VALUES (?, ?, ?, ?, ?)").run([
            .integer(7), .real(24.9), .real(25.0), .real(60.1), .real(60.2),
        ])
        let hits = try db.prepare("SELECT id FROM box WHERE minX <= ? AND maxX >= ? AND minY <= ? AND maxY >= ?")
            .rows([.real(24.95), .real(24.95), .real(60.17), .real(60.17)])
        #expect(hits == [[.integer(7)]])
        try db.execute("CREATE VIRTUAL TABLE name USING fts5(text)")
        try db.prepare("INSERT INTO name (rowid, text) VALUES (?, ?)").run([
            .integer(3), .text("Helsingin päärautatieasema"),
        ])
        let found = try db.prepare("SELECT rowid FROM name WHERE name MATCH ?").rows([.text("päärautatieasema")])
        #expect(found == [[.integer(3)]])
        #expect(SQLiteDatabase.isCompiled(with: "ENABLE_FTS5"))
    }
}
