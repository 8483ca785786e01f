// Small text helpers the readers and printers share.

extension String {
    /// The pieces of the string between occurrences of `separator` (at least one piece).
    /// True when the text holds `separator` where ``splitOnSubstring(_:)`` would split it: a
    /// byte match, not a `Character` one ("|" followed by a combining mark is one character,
    /// and still a separator to a reader).
    func containsSeparator(_ separator: StaticString) -> Bool { splitOnSubstring(separator).count > 1 }

    func splitOnSubstring(_ separator: StaticString) -> [String] {
        let pattern = UnsafeBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount)
        // Look for the pattern's last byte first: it is the rarest (":" of " to:").
        guard let first = pattern.first, let last = pattern.last, utf8.contains(last) else { return [self] }
        var text = self
        return text.withUTF8 { bytes in
            var pieces: [String] = []
            var start = 0
            var index = 0
            while index + pattern.count <= bytes.count {
                if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                    pieces.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                    index += pattern.count
                    start = index
                } else {
                    index += 1
                }
            }
            pieces.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            return pieces
        }
    }

    /// The string without leading and trailing Unicode whitespace.
    func trimmingWhitespace() -> String {
        // Fast path: text that starts and ends with a visible ASCII character needs no work.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return self
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        var slice = Substring(self)
        while slice.first == set { slice.removeFirst() }
        while slice.last == set { slice.removeLast() }
        return String(slice)
    }
}
