/// Strict, locale-independent decimal numbers as they appear in map links.
///
/// The grammar is `[+-]? digit{1,maxIntegerDigits} ( "." digit{1,24} )?`: no `nan`, `inf`,
/// hex, exponents, underscores, spaces or non-ASCII digits, unlike `Double(String)`, which
/// accepts all of those. Conversion is correctly rounded: Clinger's exact fast path when the
/// digits fit, `Double(String)` on the already validated text otherwise.
public enum DecimalText {
    /// Most digits accepted after the decimal point.
    public static let maxFractionDigits = 24

    /// Parses `bytes` as a strict decimal number.
    ///
    /// - Parameters:
    ///   - bytes: ASCII text, the whole of which must be the number.
    ///   - maxIntegerDigits: most digits accepted before the decimal point (3 for degrees).
    /// - Returns: the value, or nil when the text does not follow the grammar.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxIntegerDigits: Int = 3) -> Double? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        guard index != end else { return nil }
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index = bytes.index(after: index)
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var integerDigits = 0
        while index != end, let digit = digitValue(bytes[index]) {
            integerDigits += 1
            if integerDigits > maxIntegerDigits { return nil }
            accumulate(digit, into: &mantissa, significant: &significantDigits)
            index = bytes.index(after: index)
        }
        guard integerDigits > 0 else { return nil }
        var fractionDigits = 0
        if index != end {
            guard bytes[index] == UInt8(ascii: ".") else { return nil }
            index = bytes.index(after: index)
            while index != end, let digit = digitValue(bytes[index]) {
                fractionDigits += 1
                if fractionDigits > maxFractionDigits { return nil }
                accumulate(digit, into: &mantissa, significant: &significantDigits)
                index = bytes.index(after: index)
            }
            guard fractionDigits > 0, index == end else { return nil }
        }
        let magnitude: Double
        if significantDigits <= 15 && fractionDigits <= 22 {
            // Both operands are exact doubles, so one IEEE division is correctly rounded.
            magnitude = Double(mantissa) / powersOfTen[fractionDigits]
        } else {
            return Double(String(decoding: bytes, as: UTF8.self))
        }
        return negative ? -magnitude : magnitude
    }

    /// Parses text with ``parse(_:maxIntegerDigits:)``.
    public static func parse(_ text: String, maxIntegerDigits: Int = 3) -> Double? {
        var text = text
        return text.withUTF8 { parse($0, maxIntegerDigits: maxIntegerDigits) }
    }

    /// Parses text with ``parse(_:maxIntegerDigits:)``.
    public static func parse(_ text: Substring, maxIntegerDigits: Int = 3) -> Double? {
        parse(String(text), maxIntegerDigits: maxIntegerDigits)
    }

    /// Formats `value` in plain decimal notation with the shortest digits that parse back to it.
    ///
    /// Whole numbers print without a fraction (`14`, not `14.0`); tiny and huge values are
    /// expanded rather than printed with an exponent, so the output always satisfies ``parse``'s
    /// grammar for values with at most 24 fraction digits.
    public static func format(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        guard text.contains("e") else { return text }
        return expandExponent(text)
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    @inline(__always)
    private static func digitValue(_ byte: UInt8) -> UInt64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? UInt64(byte - UInt8(ascii: "0")) : nil
    }

    @inline(__always)
    private static func accumulate(_ digit: UInt64, into mantissa: inout UInt64, significant: inout Int) {
        if significant == 0 && digit == 0 { return }
        significant += 1
        if significant <= 19 { mantissa = mantissa &* 10 &+ digit }
    }

    /// Rewrites Swift's `1.5e-07` style into `0.00000015`.
    private static func expandExponent(_ text: String) -> String {
        let parts = text.split(separator: "e", maxSplits: 1)
        guard parts.count == 2, let exponent = Int(parts[1]) else { return text }
        var mantissa = String(parts[0])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = String(pieces[0])
        let fractionPart = pieces.count > 1 ? String(pieces[1]) : ""
        let digits = integerPart + fractionPart
        let pointPosition = integerPart.count + exponent
        var result: String
        if pointPosition <= 0 {
            result = "0." + String(repeating: "0", count: -pointPosition) + digits
        } else if pointPosition >= digits.count {
            result = digits + String(repeating: "0", count: pointPosition - digits.count)
        } else {
            let splitIndex = digits.index(digits.startIndex, offsetBy: pointPosition)
            result = digits[..<splitIndex] + "." + digits[splitIndex...]
        }
        if result.contains(".") {
            while result.hasSuffix("0") { result.removeLast() }
            if result.hasSuffix(".") { result.removeLast() }
        }
        return negative ? "-" + result : result
    }
}
