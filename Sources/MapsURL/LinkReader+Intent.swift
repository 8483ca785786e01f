/// Android intent links, as web pages write them to open the maps app:
/// `intent://maps.google.com/maps?daddr=…#Intent;scheme=https;package=…;end`. The link they
/// carry is the scheme of the `#Intent;` block put before the body; only maps schemes
/// (``IntentVocabulary/schemes``) are read, one level deep, so an intent can never smuggle an
/// app's own scheme in.
extension LinkReader {
    mutating func readIntentLink(_ range: Range<Int>) -> ParsedMapsURL {
        guard let block = intentBlock(in: range) else {
            report(.badIntent, .error, "an intent: link needs its '#Intent;…;end' block", at: range)
            return finish(form: nil, rejected: true)
        }
        var scheme: String?
        var index = block.lowerBound
        while index < block.upperBound {
            let end = firstIndex(in: index..<block.upperBound, of: UInt8(ascii: ";"))
            if hasPrefix(index..<end, "scheme=") { scheme = text((index + 7)..<end).lowercased() }
            index = end + 1
        }
        let body = range.lowerBound..<(block.lowerBound - IntentVocabulary.blockStart.utf8CodeUnitCount)
        guard let scheme, IntentVocabulary.schemes.contains(scheme) else {
            report(
                .badIntent, .error,
                "an intent: link is read only when its scheme is one of \(IntentVocabulary.schemes.sorted()); "
                    + "this one has \(scheme.map { "'\($0)'" } ?? "none")",
                at: block)
            return finish(form: nil, rejected: true)
        }
        let inner = scheme + ":" + text(body)
        return readNestedLink(inner, at: body, named: "the intent's link", form: nil)
    }

    /// The extras of `#Intent;…;end` (between `#Intent;` and `;end` or the end), or nil.
    private func intentBlock(in range: Range<Int>) -> Range<Int>? {
        var index = range.lowerBound
        while index < range.upperBound {
            let hash = firstIndex(in: index..<range.upperBound, of: UInt8(ascii: "#"))
            guard hash < range.upperBound else { return nil }
            let start = hash..<range.upperBound
            if hasPrefix(start, IntentVocabulary.blockStart) {
                let blockStart = hash + IntentVocabulary.blockStart.utf8CodeUnitCount
                var blockEnd = range.upperBound
                if blockEnd - blockStart >= 3, equalsIgnoringCase((blockEnd - 3)..<blockEnd, "end") { blockEnd -= 3 }
                return blockStart..<max(blockStart, blockEnd)
            }
            index = hash + 1
        }
        return nil
    }
}
