import GeoCore

/// The `data=` blob of a Google Maps desktop path: `!`-separated tokens, each a field number,
/// a type letter and a value (`!3d48.85`, `!4m6`). A token of type `m` is a message whose
/// value counts the tokens nested in it, so the blob is a tree.
///
/// Read here: a place's pin (the last `!3d<lat>!4d<lng>` pair) and, for directions, the stops:
/// the `!1m<n>` children of the message that lists them, in order, each with the position its
/// own tokens give (`!2m2!1d<lng>!2d<lat>`, note the order, or a `!3d<lat>!4d<lng>` place
/// block), or none (`!1m0` is a stop without data, such as the user's location).
struct GoogleDataBlob {
    /// One token: `!` + field number + type letter + value.
    struct Token {
        var field: Int
        var type: UInt8
        /// The value's bytes in the input.
        var value: Range<Int>
    }

    let tokens: [Token]
    private let bytes: UnsafeBufferPointer<UInt8>

    /// Splits `range` of `bytes` into tokens; malformed pieces are skipped.
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        self.bytes = bytes
        var tokens: [Token] = []
        var index = range.lowerBound
        while index < range.upperBound {
            var end = index + 1
            while end < range.upperBound, bytes[end] != UInt8(ascii: "!") { end += 1 }
            if bytes[index] == UInt8(ascii: "!") {
                var cursor = index + 1
                var field = 0
                while cursor < end, bytes[cursor] >= 48, bytes[cursor] <= 57, field < 100_000 {
                    field = field * 10 + Int(bytes[cursor] - 48)
                    cursor += 1
                }
                if cursor > index + 1, cursor < end {
                    tokens.append(Token(field: field, type: bytes[cursor], value: (cursor + 1)..<end))
                }
            }
            index = end
        }
        self.tokens = tokens
    }

    /// A decimal token's value.
    private func number(_ token: Token) -> Double? {
        DecimalText.parse(UnsafeBufferPointer(rebasing: bytes[token.value]))
    }

    /// How many tokens a message token holds; 0 for other tokens or a bad count.
    private func count(_ token: Token) -> Int {
        guard token.type == UInt8(ascii: "m"), let value = number(token), value >= 0, value <= 10_000 else { return 0 }
        return Int(value)
    }

    /// The place's pin: the last `!3d<lat>!4d<lng>` pair in range.
    var pin: Coordinate? {
        var pin: Coordinate?
        for (first, second) in zip(tokens, tokens.dropFirst())
        where first.field == 3 && first.type == UInt8(ascii: "d") && second.field == 4
            && second.type == UInt8(ascii: "d")
        {
            if let latitude = number(first), let longitude = number(second),
                let coordinate = Coordinate(validatingLatitude: latitude, longitude: longitude)
            {
                pin = coordinate
            }
        }
        return pin
    }

    /// The directions' stops in order, each with its position or nil; empty when the blob
    /// lists no stops (fewer than two `!1m` children under one message).
    var stops: [Coordinate?] { route?.stops.map(position(of:)) ?? [] }

    /// How the directions travel: the route message's `!3e<n>` (0 driving, 1 bicycling,
    /// 2 walking, 3 transit), or nil.
    var travelMode: TravelMode? {
        guard let route,
            let mode = route.children.first(where: { tokens[$0].field == 3 && tokens[$0].type == UInt8(ascii: "e") })
        else { return nil }
        switch number(tokens[mode]) {
        case 0: return .driving
        case 1: return .bicycling
        case 2: return .walking
        case 3: return .transit
        default: return nil
        }
    }

    /// The message that lists the stops (the one with the most `!1m` children, at least two):
    /// its children and those stops, as token indices.
    private var route: (children: [Int], stops: [Int])? {
        var best: (children: [Int], stops: [Int])?
        for index in tokens.indices where count(tokens[index]) > 0 {
            let children = children(of: index)
            let stops = children.filter { tokens[$0].field == 1 && tokens[$0].type == UInt8(ascii: "m") }
            if stops.count >= 2 && stops.count > (best?.stops.count ?? 0) { best = (children, stops) }
        }
        return best
    }

    /// A message's direct children, found by walking the counts.
    private func children(of parent: Int) -> [Int] {
        var result: [Int] = []
        var index = parent + 1
        let end = min(parent + 1 + count(tokens[parent]), tokens.count)
        while index < end {
            result.append(index)
            index += 1 + count(tokens[index])
        }
        return result
    }

    /// The position among a stop's tokens: `!1d<lng>!2d<lat>` or `!3d<lat>!4d<lng>`.
    private func position(of stop: Int) -> Coordinate? {
        let inside = tokens[(stop + 1)..<min(stop + 1 + count(tokens[stop]), tokens.count)]
        for (first, second) in zip(inside, inside.dropFirst()) where first.type == UInt8(ascii: "d") {
            guard second.type == UInt8(ascii: "d"), let a = number(first), let b = number(second) else { continue }
            if first.field == 1 && second.field == 2 {
                if let coordinate = Coordinate(validatingLatitude: b, longitude: a) { return coordinate }
            } else if first.field == 3 && second.field == 4 {
                if let coordinate = Coordinate(validatingLatitude: a, longitude: b) { return coordinate }
            }
        }
        return nil
    }
}
