/// JSON written from the values documents are built of (`[String: Any]` dictionaries, arrays,
/// strings, booleans, integers and floating-point numbers), pretty-printed as Foundation's
/// `JSONSerialization` prints them (two spaces a level, `"key" : value`, keys sorted), without
/// its bridging through Objective-C types: several times faster, and no lock shared between
/// threads writing at once.
public enum JSONText {
    /// `value` as pretty-printed JSON, keys sorted; a value of another type (or a number that
    /// is not finite) is written as `null`.
    public static func pretty(_ value: Any) -> String {
        var out = ""
        out.reserveCapacity(4_096)
        write(value, indent: 0, into: &out)
        return out
    }

    private static func write(_ value: Any, indent: Int, into out: inout String) {
        switch value {
        case let text as String: quote(text, into: &out)
        case let flag as Bool: out += flag ? "true" : "false"
        case let number as Int: out += String(number)
        case let number as Int32: out += String(number)
        case let number as Int64: out += String(number)
        case let number as UInt64: out += String(number)
        case let number as UInt8: out += String(number)
        case let number as Double: out += format(number)
        case let number as Float: out += format(Double(number))
        case let object as [String: Any]:
            guard !object.isEmpty else {
                out += "{}"
                return
            }
            out += "{\n"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out += ",\n" }
                pad(indent + 1, into: &out)
                quote(key, into: &out)
                out += " : "
                write(object[key]!, indent: indent + 1, into: &out)
            }
            out += "\n"
            pad(indent, into: &out)
            out += "}"
        case let array as [Any]:
            guard !array.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (index, element) in array.enumerated() {
                if index > 0 { out += ",\n" }
                pad(indent + 1, into: &out)
                write(element, indent: indent + 1, into: &out)
            }
            out += "\n"
            pad(indent, into: &out)
            out += "]"
        default: out += "null"
        }
    }

    /// A number as JSON writes it: whole numbers without a fraction, others in the shortest form
    /// that reads back the same; `null` for infinities and NaN.
    static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return number.description
    }

    private static func pad(_ level: Int, into out: inout String) {
        out += String(repeating: "  ", count: level)
    }

    /// `text` in quotes, with quotes, backslashes and control characters escaped.
    private static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
