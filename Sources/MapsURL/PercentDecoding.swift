import Foundation
import GeoCore

/// Percent-decoding of one URL component, done exactly once.
///
/// Policy (the same for every form):
/// - the component is split out of the URL first, then decoded once: `%2B` is a plus and
///   stays one, `%2526` becomes `%26`, never `&`;
/// - in query values and in the path segments of Google desktop URLs, `+` is a space, except
///   the separator of a plus code the value starts with (`CWC8+R9+Mountain+View` is
///   `CWC8+R9 Mountain View`, `/maps/place/8FVC9G8F+6X` the code `8FVC9G8F+6X`);
/// - upper- and lower-case hex digits both decode (`%c3%b4` is `ô`);
/// - a malformed escape (`%`, `%4`, `%G1`) or escapes that do not form valid UTF-8 reject the
///   component: the parser drops that one parameter with a diagnostic and keeps the rest;
/// - raw non-ASCII text is taken as it is (the input is already valid UTF-8).
enum PercentDecoding {
    /// Why a component could not be decoded.
    enum Failure: Error, Equatable {
        /// A `%` not followed by two hex digits, at this byte offset of the input.
        case malformedEscape(at: Int)
        /// The decoded bytes are not valid UTF-8.
        case invalidUTF8
    }

    /// Decodes `range` of `bytes`.
    ///
    /// - Parameters:
    ///   - plusIsSpace: read `+` as a space (query values, desktop path segments).
    /// - Returns: the text and whether it holds a control character (C0 or DEL), or the reason
    ///   it could not be decoded.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusIsSpace: Bool
    ) -> Result<(text: String, hasControls: Bool), Failure> {
        let keptPlus = plusIsSpace ? plusCodeSeparator(bytes, range) : nil
        var needsWork = false
        var hasControls = false
        for index in range {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
                needsWork = true
                break
            }
            hasControls = hasControls || byte < 0x20 || byte == 0x7F
        }
        if !needsWork {
            return .success((String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self), hasControls))
        }
        hasControls = false
        // Decode into scratch space on the stack, then make the string in one step.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: range.count) { scratch in
            var count = 0
            var index = range.lowerBound
            while index < range.upperBound {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < range.upperBound,
                        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                    else { return .failure(.malformedEscape(at: index)) }
                    let decoded = high << 4 | low
                    hasControls = hasControls || decoded < 0x20 || decoded == 0x7F
                    scratch[count] = decoded
                    index += 3
                } else {
                    hasControls = hasControls || byte < 0x20 || byte == 0x7F
                    scratch[count] =
                        plusIsSpace && byte == UInt8(ascii: "+") && index != keptPlus ? UInt8(ascii: " ") : byte
                    index += 1
                }
                count += 1
            }
            let decoded = UnsafeBufferPointer(rebasing: scratch[0..<count])
            // `String(decoding:)` repairs invalid UTF-8; a repaired string differs from its bytes.
            var text = String(decoding: decoded, as: UTF8.self)
            let isUnchanged = text.withUTF8 { repaired in
                repaired.count == decoded.count
                    && (decoded.isEmpty || memcmp(repaired.baseAddress!, decoded.baseAddress!, decoded.count) == 0)
            }
            guard isUnchanged else { return .failure(.invalidUTF8) }
            return .success((text, hasControls))
        }
    }

    /// The offset of the `+` of a plus code `range` starts with, written raw: 4, 6 or 8 code
    /// characters (`0` padding among them), the `+`, then at least two code characters (or
    /// none after eight), a letter among them all, then the end, a `+`, a `,`, or one of them escaped (`%2C`, `%20`).
    /// Nil when the value does not start so.
    static func plusCodeSeparator(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound, PlusCode.isCodeCharacter(bytes[index]) || bytes[index] == UInt8(ascii: "0") {
            index += 1
        }
        let before = index - range.lowerBound
        guard index < range.upperBound, bytes[index] == UInt8(ascii: "+"), before >= 4, before <= 8, before % 2 == 0
        else { return nil }
        let separator = index
        index += 1
        while index < range.upperBound, PlusCode.isCodeCharacter(bytes[index]) { index += 1 }
        let after = index - separator - 1
        guard after >= 2 || (after == 0 && before == 8) else { return nil }
        // A letter among them: digits alone are more often a phone number or a house number.
        guard bytes[range.lowerBound..<index].contains(where: { $0 >= UInt8(ascii: "A") }) else { return nil }
        guard index < range.upperBound, bytes[index] != UInt8(ascii: "+"), bytes[index] != UInt8(ascii: ",") else {
            return separator
        }
        // A comma or a space escaped (`%2C`, `%20`).
        guard index + 2 < range.upperBound, bytes[index] == UInt8(ascii: "%"), bytes[index + 1] == UInt8(ascii: "2"),
            [UInt8(ascii: "C"), UInt8(ascii: "c"), UInt8(ascii: "0")].contains(bytes[index + 2])
        else { return nil }
        return separator
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
