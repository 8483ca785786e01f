/// Percent-encoding for the links we print.
///
/// An allow-list: letters, digits, `-._~` and `,:/@!$'()*;` stay as they are (so coordinates
/// and callback URLs stay readable), a space becomes `+`, everything else is `%XX` with
/// upper-case hex. `&`, `=`, `+`, `#`, `?`, `%` and `|` are therefore never left raw.
enum URLEncoding {
    private static let allowed: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for character in "-._~,:/@!$'()*;".utf8 { table[Int(character)] = true }
        return table
    }()

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Encodes a query value (or name).
    static func queryValue(_ text: String) -> String { encode(text, table: allowed) }

    private static func encode(_ text: String, table: [Bool]) -> String {
        if text.utf8.allSatisfy({ table[Int($0)] }) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if table[Int(byte)] {
                output.append(byte)
            } else if byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Builds a query string in a fixed order.
struct QueryWriter {
    private(set) var pairs: [String] = []

    mutating func add(_ name: String, _ value: String?) {
        guard let value else { return }
        pairs.append("\(name)=\(URLEncoding.queryValue(value))")
    }

    var query: String { pairs.joined(separator: "&") }
}
