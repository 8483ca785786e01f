import Foundation

/// A comma-separated table as GTFS writes them (RFC 4180): a header row naming the columns,
/// fields optionally in double quotes (`""` for a quote inside), LF or CRLF line ends, an
/// optional UTF-8 byte order mark. Rows are read in place, one at a time; a field becomes a
/// `String` only when asked for, with surrounding spaces of unquoted fields trimmed.
struct CSVTable {
    /// The file's name in its feed, for messages (`stops.txt`).
    let name: String
    /// The column names of the header row.
    let columns: [String]
    private let bytes: [UInt8]
    private let bodyStart: Int

    /// Reads the header row.
    ///
    /// - Throws: ``DataError`` when the table is empty.
    init(name: String, bytes: [UInt8], feed: String) throws(DataError) {
        self.name = name
        self.bytes = bytes
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var row = Row(bytes: [])
        guard Self.readRow(bytes, from: &start, into: &row) else {
            throw DataError(.invalidData, message: "\(name) is empty (it needs a header row)", path: feed)
        }
        var header = row
        header.bytes = bytes
        columns = (0..<header.count).map { header.string($0).trimmingCharacters(in: .whitespaces) }
        bodyStart = start
    }

    /// The index of a column, or nil when the table has no such column.
    func column(_ name: String) -> Int? { columns.firstIndex(of: name) }

    /// The index of a column the table must have.
    ///
    /// - Throws: ``DataError`` naming the table and the column.
    func requiredColumn(_ column: String, feed: String) throws(DataError) -> Int {
        guard let index = self.column(column) else {
            throw DataError(.invalidData, message: "\(name) has no '\(column)' column", path: feed)
        }
        return index
    }

    /// One row: its line number and its fields.
    struct Row {
        fileprivate var bytes: [UInt8]
        /// The line the row starts on (the header is line 1).
        var line = 0
        fileprivate var ranges: [Range<Int>] = []
        fileprivate var quoted: [Bool] = []

        /// Number of fields in the row.
        var count: Int { ranges.count }

        /// Field `index` as text ("" when the row is shorter).
        func string(_ index: Int) -> String {
            guard index < ranges.count else { return "" }
            let range = ranges[index]
            if !quoted[index] {
                var lower = range.lowerBound
                var upper = range.upperBound
                while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
                while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
                return String(decoding: bytes[lower..<upper], as: UTF8.self)
            }
            var text: [UInt8] = []
            text.reserveCapacity(range.count)
            var index = range.lowerBound
            while index < range.upperBound {
                text.append(bytes[index])
                index += bytes[index] == 0x22 ? 2 : 1
            }
            return String(decoding: text, as: UTF8.self)
        }

        /// Field `index` as text, or nil when it is empty.
        func value(_ index: Int?) -> String? {
            guard let index else { return nil }
            let text = string(index)
            return text.isEmpty ? nil : text
        }
    }

    /// Calls `body` with every row after the header; blank lines are passed over.
    func forEachRow(_ body: (Row) throws -> Void) rethrows {
        var position = bodyStart
        var row = Row(bytes: bytes)
        var line = 1 + bytes[..<bodyStart].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        while position < bytes.count {
            let start = position
            row.line = line
            guard Self.readRow(bytes, from: &position, into: &row) else { break }
            for index in start..<position where bytes[index] == 0x0A { line += 1 }
            if row.count == 1 && row.ranges[0].isEmpty { continue }
            try body(row)
        }
    }

    /// Reads the row starting at `position` into `row`'s field ranges and moves past its line
    /// end; false at the end of the bytes.
    private static func readRow(_ bytes: [UInt8], from position: inout Int, into row: inout Row) -> Bool {
        guard position < bytes.count else { return false }
        row.ranges.removeAll(keepingCapacity: true)
        row.quoted.removeAll(keepingCapacity: true)
        while true {
            // Spaces before an opening quote are passed over (`a, "b, c"`).
            var quote = position
            while quote < bytes.count && (bytes[quote] == 0x20 || bytes[quote] == 0x09) { quote += 1 }
            if quote < bytes.count && bytes[quote] == 0x22 { position = quote }
            var fieldStart = position
            var isQuoted = false
            var fieldEnd: Int
            if position < bytes.count && bytes[position] == 0x22 {
                isQuoted = true
                position += 1
                fieldStart = position
                while position < bytes.count {
                    if bytes[position] == 0x22 {
                        if position + 1 < bytes.count && bytes[position + 1] == 0x22 {
                            position += 2
                            continue
                        }
                        break
                    }
                    position += 1
                }
                fieldEnd = position
                if position < bytes.count { position += 1 }
                // Anything between the closing quote and the separator is kept out.
                while position < bytes.count && bytes[position] != 0x2C && bytes[position] != 0x0A
                    && bytes[position] != 0x0D
                {
                    position += 1
                }
            } else {
                while position < bytes.count && bytes[position] != 0x2C && bytes[position] != 0x0A
                    && bytes[position] != 0x0D
                {
                    position += 1
                }
                fieldEnd = position
            }
            row.ranges.append(fieldStart..<fieldEnd)
            row.quoted.append(isQuoted)
            if position < bytes.count && bytes[position] == 0x2C {
                position += 1
                continue
            }
            if position < bytes.count && bytes[position] == 0x0D { position += 1 }
            if position < bytes.count && bytes[position] == 0x0A { position += 1 }
            return true
        }
    }
}
