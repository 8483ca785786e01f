import PostgresKit
import TestSupport
import Testing

/// Rows written in `COPY`'s binary format read back as PostgreSQL prints them, on the private
/// cluster: every column type the store writes, NULLs, text with characters PostgreSQL's text
/// cannot hold, and `tsvector`s with their positions and weights.
@Suite struct CopyRowsTests {
    @Test func everyTypeReadsBackAsWritten() throws {
        let connection = try PostgresConnection(try PrivatePostgres.newDatabase())
        try connection.execute(
            """
            CREATE TABLE sample (flag bool, small int2, medium int4, large int8, single float4, double float8,
                label text, code varchar, data bytea, tags jsonb)
            """)
        var rows = CopyRows()
        rows.beginRow(fields: 10)
        rows.bool(true)
        rows.int2(-32768)
        rows.int4(2_147_483_647)
        rows.int8(1 << 40 + 7)
        rows.float4(1.5)
        rows.float8(-43.731_234_567_89)
        rows.text("Töölö\ttab\nline \\ back'quote\u{0}end")
        rows.text("फार्मेसी")
        rows.bytes([0, 1, 0xFE, 0xFF])
        rows.jsonb(#"{"name":"Caffè \"Roma\"","addr:street":"Via Roma"}"#)
        rows.beginRow(fields: 10)
        for _ in 0..<10 { rows.null() }
        #expect(rows.rows == 2)
        try connection.copy("COPY sample FROM STDIN WITH (FORMAT binary)", data: rows.batch())
        #expect(rows.rows == 0)
        let printed = try connection.query(
            "SELECT flag::text, small::text, medium::text, large::text, single::text, double::text, label, code, "
                + "encode(data, 'hex'), tags->>'name', tags->>'addr:street' FROM sample ORDER BY flag NULLS LAST"
        ).map { row in (0..<11).map { row.text($0) } }
        #expect(
            printed[0] == [
                "true", "-32768", "2147483647", "1099511627783", "1.5", "-43.73123456789",
                "Töölö\ttab\nline \\ back'quote" + "end", "फार्मेसी", "0001feff", "Caffè \"Roma\"", "Via Roma",
            ])
        #expect(printed[1] == Array(repeating: nil, count: 11))
    }

    @Test func batchesAreCompleteStreamsEach() throws {
        let connection = try PostgresConnection(try PrivatePostgres.newDatabase())
        try connection.execute("CREATE TABLE numbers (n int8)")
        // A small first buffer, so the rows outgrow it.
        var rows = CopyRows(capacity: 100)
        for batch in 0..<3 {
            for index in 0..<1000 {
                rows.beginRow(fields: 1)
                rows.int8(Int64(batch * 1000 + index))
                // A row taken back is not sent.
                rows.beginRow(fields: 1)
                rows.int8(-1)
                rows.cancelRow()
            }
            #expect(rows.rows == 1000)
            try connection.copy("COPY numbers FROM STDIN WITH (FORMAT binary)", data: rows.batch())
        }
        let sum = try connection.query("SELECT count(*), sum(n)::int8 FROM numbers").row(0)
        #expect(sum.integer(0) == 3000 && sum.integer(1) == 4_498_500)
    }

    /// The `tsvector` of `add`s, written in binary and printed by PostgreSQL.
    static func printed(_ build: (inout TextSearchVector) -> Void, on connection: PostgresConnection) throws -> String {
        var vector = TextSearchVector()
        build(&vector)
        try connection.execute("DROP TABLE IF EXISTS documents; CREATE TABLE documents (document tsvector)")
        var rows = CopyRows()
        rows.beginRow(fields: 1)
        rows.bytes(vector.binary)
        try connection.copy("COPY documents FROM STDIN WITH (FORMAT binary)", data: rows.batch())
        return try connection.query("SELECT document::text FROM documents").row(0).text(0) ?? ""
    }

    @Test func textSearchVectorsAreWhatPostgreSQLWouldParse() throws {
        let connection = try PostgresConnection(try PrivatePostgres.newDatabase())
        // Lexemes given out of order and twice come back sorted by their bytes, once each,
        // positions ascending with their weights.
        let printed = try Self.printed(
            { vector in
                for (position, word) in ["via", "roma", "caffè", "roma", "a"].enumerated() {
                    vector.add(word, position: position + 1, weight: position < 2 ? .a : .b)
                }
                vector.add("कैफ़े", position: 6, weight: .c)
                vector.add("o'brien", position: 7, weight: .d)
            }, on: connection)
        #expect(printed == "'a':5B 'caffè':3B 'o''brien':7 'roma':2A,4B 'via':1A 'कैफ़े':6C")
        // Positions past the largest share it; a lexeme keeps 256 positions; words too long for
        // a lexeme, empty ones and ones with NUL are left out.
        let clamped = try Self.printed(
            { vector in
                for position in 16380...16390 { vector.add("far", position: position, weight: .a) }
                for position in 1...300 { vector.add("many", position: position, weight: .c) }
                vector.add(String(repeating: "x", count: TextSearchVector.maxLexemeBytes + 1), position: 1, weight: .a)
                vector.add("", position: 2, weight: .a)
                vector.add("nul\u{0}word", position: 3, weight: .a)
            }, on: connection)
        let entries = clamped.split(separator: " ")
        #expect(entries.count == 2)
        #expect(entries[0] == "'far':16380A,16381A,16382A,16383A")
        #expect(entries[1].split(separator: ",").count == TextSearchVector.maxPositions)
        #expect(entries[1].hasPrefix("'many':1C,2C,") && entries[1].hasSuffix(",256C"))
        // An empty document is a valid one.
        #expect(try Self.printed({ _ in }, on: connection) == "")
        // The index finds what was written, by weight too.
        let found = try connection.query(
            "SELECT count(*) FROM documents WHERE document @@ 'many:C'::tsquery"
        ).row(0).integer(0)
        #expect(found == 0)
        _ = try Self.printed({ $0.add("many", position: 1, weight: .c) }, on: connection)
        #expect(
            try connection.query("SELECT count(*) FROM documents WHERE document @@ 'many:C'::tsquery").row(0)
                .integer(0) == 1)
        #expect(
            try connection.query("SELECT count(*) FROM documents WHERE document @@ 'many:A'::tsquery").row(0)
                .integer(0) == 0)
    }
}
