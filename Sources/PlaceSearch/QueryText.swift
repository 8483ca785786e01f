import Foundation
import MapData

/// A search text as the index reads it: words folded the way the index folds them (lower
/// case, Latin diacritics dropped, Devanagari kept whole), abbreviations read in full, and a
/// "category near place" split.
public struct QueryText: Equatable, Sendable {
    /// True when `text` can be searched: a word at least, at most ``maxLength`` characters.
    public static func isSearchable(_ text: String) -> Bool {
        text.count <= maxLength && QueryText(text) != nil
    }

    /// The words, in order, folded.
    var words: [String]
    /// The words of each comma-separated part, in order (`Tokyo Tower, Tokyo, Japan` has three).
    var parts: [[String]]
    /// Each part as written (for messages), aligned with ``parts``.
    var partTexts: [String]
    /// The place of "cafe near Kamppi" (its words), when the text names one.
    var near: [String]?

    /// The longest text read: 256 characters.
    public static let maxLength = 256

    /// Reads `text`; nil when it has no word at all.
    init?(_ text: String) {
        let lowered = " " + text.lowercased() + " "
        var main = lowered
        var written = text
        var place: String?
        for marker in Self.nearMarkers {
            guard let range = lowered.range(of: " \(marker) ") else { continue }
            let before = String(lowered[..<range.lowerBound])
            let after = String(lowered[range.upperBound...])
            // Hindi puts the place first: "कामप्पी के पास कैफ़े".
            if marker == "के पास" { (main, place) = (after, before) } else { (main, place) = (before, after) }
            written = main
            break
        }
        words = Self.searchedWords(main)
        guard !words.isEmpty else { return nil }
        let segments = written.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !Self.words($0).isEmpty
        }
        parts = segments.map(Self.searchedWords)
        partTexts = segments
        let placeWords = place.map(Self.words) ?? []
        near = placeWords.isEmpty ? nil : placeWords
    }

    /// The words that separate a category from a place, in the five languages.
    static let nearMarkers = [
        "near", "around", "close to", "nearby", "cerca de", "junto a", "vicino a", "nei pressi di", "presso",
        "के पास", "lähellä", "nära",
    ]

    /// Folded words of a text, as the index reads them (``SearchVocabulary/words(_:)``), a
    /// house number with its letter as one word (`11 B` → `11b`, as
    /// ``SearchVocabulary/houseNumber(_:)`` writes it for the index).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        for word in SearchVocabulary.words(text) {
            // A lone letter (a few bytes, checked before its characters are counted).
            if word.utf8.count <= 8, word.count == 1, word.first!.isLetter, !conjunctions.contains(word),
                let last = words.last, last.allSatisfy(\.isNumber)
            {
                words[words.count - 1] = last + word
            } else {
                words.append(word)
            }
        }
        return words
    }

    /// The words of a searched text: ``words(_:)``, a house number range read by its first
    /// number (`Mannerheimintie 5-7` → `mannerheimintie 5`: the address of either end, or of
    /// the range itself, holds it).
    static func searchedWords(_ text: String) -> [String] {
        var words = self.words(text)
        var index = 0
        while index + 1 < words.count {
            if words[index].allSatisfy(\.isNumber), words[index + 1].allSatisfy(\.isNumber),
                ["-", "–", " - ", " – "].contains(where: { text.contains(words[index] + $0 + words[index + 1]) })
            {
                words.remove(at: index + 1)
            }
            index += 1
        }
        return words
    }

    /// One-letter words that join numbers rather than follow a house number ("5 y 7", "5 e 7").
    static let conjunctions: Set<String> = ["y", "e", "o", "u", "i"]

    /// Abbreviations read in full (any language's; both forms are searched).
    static let abbreviations: [String: [String]] = [
        "st": ["street", "saint"], "str": ["street", "strasse"], "ave": ["avenue"], "av": ["avenue", "avenida"],
        "rd": ["road"], "blvd": ["boulevard"], "dr": ["drive"], "ln": ["lane"], "pl": ["place", "plaza"],
        "sq": ["square"], "hwy": ["highway"], "pkwy": ["parkway"], "avda": ["avenida"], "c": ["calle"],
        "pza": ["plaza", "piazza"], "pta": ["puerta"], "v": ["via"], "vle": ["viale"], "cso": ["corso"],
        "k": ["katu"], "esp": ["esplanadi"], "g": ["gatan"], "n": ["north"], "s": ["south"], "e": ["east"],
        "w": ["west"],
    ]

    /// The forms a word is searched in: itself and, for an abbreviation, its full forms.
    static func forms(of word: String) -> [String] {
        [word] + (abbreviations[word] ?? [])
    }

    /// True for a house number or postcode: digits, possibly with a letter (`52`, `52a`, `00100`).
    static func isNumber(_ word: String) -> Bool {
        guard let first = word.first, first.isNumber else { return false }
        return word.filter(\.isLetter).count <= 1
    }
}

/// How many edits turn one word into another (Damerau–Levenshtein, adjacent swaps count one),
/// up to `limit`; `limit + 1` when more.
func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
    let a = Array(a)
    let b = Array(b)
    if abs(a.count - b.count) > limit { return limit + 1 }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        current[0] = i
        var rowMinimum = current[0]
        for j in 1...max(b.count, 1) where !b.isEmpty {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = min(value, previousPrevious[j - 2] + 1)
            }
            current[j] = value
            rowMinimum = min(rowMinimum, value)
        }
        if rowMinimum > limit { return limit + 1 }
        (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    if a.isEmpty { return min(b.count, limit + 1) }
    return min(previous[b.count], limit + 1)
}
