/// A Maps link found in a text (a share message, an e-mail, HTML).
public struct FoundLink: Sendable, Equatable {
    /// Where the link stands in the text.
    public var range: Range<String.Index>
    /// The link as written in the text.
    public var link: String
    /// What the parser read from it.
    public var parsed: ParsedMapsURL
}

extension MapsURLParser {
    /// Every Maps link in `text`, in order: links with a Maps scheme (`comgooglemaps://`,
    /// `geo:`, `google.navigation:`, `maps://`, …), and http(s) or scheme-less links on a Google
    /// or Apple Maps host, that the parser reads into a request.
    ///
    /// A link ends at white space, a quote or an angle bracket (HTML around it); closing
    /// punctuation at its end (`.`, `,`, `!`, `?`, `;`, `:`, and a `)` without its `(`) belongs to
    /// the sentence, not the link. Texts longer than 64 KiB are read up to that length.
    ///
    /// - Complexity: O(n) in the text's length: each place a link may start is parsed at most
    ///   once, up to ``maxInputLength`` bytes.
    public static func find(in text: String) -> [FoundLink] {
        var indices = Array(text.unicodeScalars.indices.prefix(maxTextScan))
        indices.append(indices.count < maxTextScan ? text.endIndex : text.unicodeScalars.index(after: indices.last!))
        let scalars = text.unicodeScalars.prefix(maxTextScan).map { $0 }
        var found: [FoundLink] = []
        var runEnd = 0
        var position = 0
        while position < scalars.count {
            guard isBoundary(before: position, in: scalars), startsLink(at: position, in: scalars) else {
                position += 1
                continue
            }
            if runEnd <= position {
                runEnd = position
                while runEnd < scalars.count, !isTerminator(scalars[runEnd]) { runEnd += 1 }
            }
            // Every candidate longer than the parser accepts is skipped at once: a text without
            // white space stays linear.
            guard runEnd - position <= maxInputLength else {
                position = runEnd - maxInputLength
                continue
            }
            let end = trimmedEnd(position, runEnd, in: scalars)
            let range = indices[position]..<indices[end]
            let link = String(text.unicodeScalars[range])
            let parsed = parse(link)
            if parsed.request != nil, parsed.form != nil {
                found.append(FoundLink(range: range, link: link, parsed: parsed))
                position = end
            } else {
                position += 1
            }
        }
        return found
    }

    /// What ``read(_:)`` made of its input.
    public struct Reading: Sendable, Equatable {
        /// The link read (the input itself, or the one link found in it).
        public var link: String
        /// What the link means, with every diagnostic.
        public var parsed: ParsedMapsURL
        /// True when the input was a text holding the link, not the link alone.
        public var wasInText: Bool
        /// How many Maps links the text holds (1 when the input is a link).
        public var linksInText: Int
    }

    /// Reads input a person pasted: a link, or a text that holds exactly one Maps link (a
    /// share message). A text holding several links is read as the first, with
    /// ``Reading/linksInText`` saying how many there are; a text holding none is parsed as a
    /// link, for its diagnostics.
    public static func read(_ input: String) -> Reading {
        let direct = parse(input)
        if direct.request != nil { return Reading(link: input, parsed: direct, wasInText: false, linksInText: 1) }
        let links = find(in: input)
        guard let first = links.first else {
            return Reading(link: input, parsed: direct, wasInText: false, linksInText: 0)
        }
        return Reading(link: first.link, parsed: first.parsed, wasInText: true, linksInText: links.count)
    }

    /// How much of a text ``find(in:)`` reads: 64 Ki Unicode scalars.
    public static let maxTextScan = 65_536

    /// Where a link may begin, lower case: schemes, then hosts written without one.
    private static let starts: [String] = [
        "comgooglemaps-x-callback://", "comgooglemapsurl://", "comgooglemaps://", "google.navigation:", "intent:",
        "https://",
        "http://", "geo:", "maps://", "maps.google.", "www.google.", "google.", "maps.app.goo.gl/", "app.goo.gl/",
        "goo.gl/", "g.co/kgs/", "maps.apple.com", "maps.apple/",
    ]

    /// True when a link's start (see ``starts``) begins at `position`, in any letter case.
    private static func startsLink(at position: Int, in scalars: [Unicode.Scalar]) -> Bool {
        let first = scalars[position]
        guard first.isASCII, first.properties.isAlphabetic else { return false }
        return starts.contains { start in
            var cursor = position
            for expected in start.unicodeScalars {
                guard cursor < scalars.count, lowercased(scalars[cursor]) == expected else { return false }
                cursor += 1
            }
            return true
        }
    }

    /// True at the text's start or after a character that cannot be inside a link's scheme
    /// or host.
    private static func isBoundary(before position: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard position > 0 else { return true }
        let previous = scalars[position - 1]
        return
            !(previous.properties.isAlphabetic || previous.properties.numericType != nil || previous == "."
            || previous == "-" || previous == "_" || previous == "/" || previous == "@" || previous == "+")
    }

    /// White space and the characters HTML and quotes put around links.
    private static func isTerminator(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\"" || scalar == "<" || scalar == ">" || scalar == "`"
            || scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// The end without the sentence's closing punctuation; a `)` stays when the link opened it.
    private static func trimmedEnd(_ start: Int, _ end: Int, in scalars: [Unicode.Scalar]) -> Int {
        var end = end
        let opened = scalars[start..<end].count { $0 == "(" }
        var closed = scalars[start..<end].count { $0 == ")" }
        while end > start {
            let last = scalars[end - 1]
            if ".,!?;:'".unicodeScalars.contains(last) {
                end -= 1
            } else if last == ")" && closed > opened {
                closed -= 1
                end -= 1
            } else {
                break
            }
        }
        return end
    }

    private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        scalar.value >= 65 && scalar.value <= 90 ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
}
