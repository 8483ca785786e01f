import GeoCore

/// The `data=` blob of a Google Maps desktop path: `!`-separated tokens, each a field number,
/// a type letter and a value (`!3d48.85`, `!4m6`). A token of type `m` is a message whose
/// value counts the tokens nested in it, so the blob is a tree.
///
/// Read here: a place's pin (the last `!3d<lat>!4d<lng>` pair); for directions, the stops (the
/// `!1m<n>` children of the message that lists them, in order, each with the position its own
/// tokens give, `!2m2!1d<lng>!2d<lat>` (note the order) or a `!3d<lat>!4d<lng>` place block, or
/// none: `!1m0` is a stop without data, such as the user's location) and the travel mode; the
/// map's layers (`!5m<n>!1e<layer>…`, `!3m1!1e3` for satellite); and, in an embedded map's `pb`,
/// the view (`!1d<metres>!2d<lng>!3d<lat>`) and the place's name (the `!2s` after its `!1s0x…`
/// feature id).
struct GoogleDataBlob {
    /// One token: `!` + field number + type letter + value.
    struct Token {
        var field: Int
        var type: UInt8
        /// The value's bytes in the input.
        var value: Range<Int>
        /// How many tokens a message (`m`) holds, read once; 0 for other tokens or a bad count.
        var count = 0
    }

    let tokens: [Token]
    private let bytes: UnsafeBufferPointer<UInt8>

    /// The message that lists the stops: its direct children and, among them, the stops, as
    /// token indices.
    private struct Route {
        var children: [Int]
        var stops: [Int]
    }

    /// Splits `range` of `bytes` into tokens; malformed pieces are skipped.
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        self.bytes = bytes
        var tokens: [Token] = []
        tokens.reserveCapacity(range.count / 6)
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
                    var token = Token(field: field, type: bytes[cursor], value: (cursor + 1)..<end)
                    if token.type == UInt8(ascii: "m"),
                        let count = DecimalText.parse(UnsafeBufferPointer(rebasing: bytes[token.value])), count >= 0,
                        count <= 10_000
                    {
                        token.count = Int(count)
                    }
                    tokens.append(token)
                }
            }
            index = end
        }
        self.tokens = tokens
    }

    /// A decimal token's value; degrees and counts have at most 3 integer digits (more for
    /// distances in metres).
    private func number(_ token: Token, maxIntegerDigits: Int = 3) -> Double? {
        DecimalText.parse(UnsafeBufferPointer(rebasing: bytes[token.value]), maxIntegerDigits: maxIntegerDigits)
    }

    /// How many tokens a message token holds; 0 for other tokens or a bad count.
    private func count(_ token: Token) -> Int { token.count }

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

    /// The directions the blob lists: each stop's position (or nil) and name (or nil), in
    /// order, and the travel mode; nil when it lists fewer than two stops (`!1m` or `!4m`
    /// children under one message).
    struct Stops {
        var positions: [Coordinate?]
        var names: [Name?]
        var travelMode: TravelMode?
    }

    /// The stops and travel mode, with the route message found once.
    var directions: Stops? {
        guard let route = Self.findRoute(in: tokens) else { return nil }
        return Stops(
            positions: route.stops.map(position(of:)), names: route.stops.map(name(inStop:)),
            travelMode: travelMode(among: route.children))
    }

    /// The travel mode of a blob that lists no stops: that of a `!4m` message
    /// (`!4m2!4m1!3e2`), or nil.
    var travelModeWithoutStops: TravelMode? {
        for index in tokens.indices where tokens[index].field == 4 && tokens[index].count > 0 {
            if let mode = travelMode(among: children(of: index)) { return mode }
        }
        return nil
    }

    /// The `!3e<n>` among `children` (0 driving, 1 bicycling, 2 walking, 3 transit), or nil.
    private func travelMode(among children: [Int]) -> TravelMode? {
        guard let mode = children.first(where: { tokens[$0].field == 3 && tokens[$0].type == UInt8(ascii: "e") })
        else { return nil }
        switch number(tokens[mode]) {
        case 0: return .driving
        case 1: return .bicycling
        case 2: return .walking
        case 3: return .transit
        default: return nil
        }
    }

    /// The map's layers: each `!1e<n>` of a top-level `!5m` message (1 traffic, 2 transit,
    /// 3 bicycling, 4 terrain) and satellite for a top-level `!3m` holding `!1e3`.
    var views: Set<MapsView> {
        var views: Set<MapsView> = []
        var index = 0
        while index < tokens.count {
            let message = tokens[index]
            let end = min(index + 1 + count(message), tokens.count)
            if message.type == UInt8(ascii: "m") && (message.field == 3 || message.field == 5) {
                var child = index + 1
                while child < end {
                    if tokens[child].field == 1 && tokens[child].type == UInt8(ascii: "e") {
                        switch (message.field, number(tokens[child])) {
                        case (3, 3): views.insert(.satellite)
                        case (5, 1): views.insert(.traffic)
                        case (5, 2): views.insert(.transit)
                        case (5, 3): views.insert(.bicycling)
                        case (5, 4): views.insert(.terrain)
                        default: break
                        }
                    }
                    child += 1 + count(tokens[child])
                }
            }
            index = end
        }
        return views
    }

    /// An embedded map's view: the first `!1d<metres>!2d<lng>!3d<lat>` run, the metres being
    /// about the height of ground shown.
    var embeddedView: (center: Coordinate, metres: Double)? {
        for start in tokens.indices.dropLast(2) {
            let run = tokens[start...(start + 2)]
            guard zip(run, 1...3).allSatisfy({ $0.field == $1 && $0.type == UInt8(ascii: "d") }),
                let metres = number(tokens[start], maxIntegerDigits: 9), metres > 0,
                let longitude = number(tokens[start + 1]), let latitude = number(tokens[start + 2]),
                let center = Coordinate(validatingLatitude: latitude, longitude: longitude)
            else { continue }
            return (center, metres)
        }
        return nil
    }

    /// A name in the blob: a `!2s` token's bytes (percent-encoded) or a `!2z` token's
    /// (base64url of UTF-8, used for names outside Latin-1).
    struct Name {
        var value: Range<Int>
        var isBase64: Bool
    }

    /// The place's name in an embedded map: the `!2s` or `!2z` right after a `!1s` feature id
    /// (`0x…:0x…`).
    var placeName: Name? {
        for index in tokens.indices.dropLast()
        where tokens[index].field == 1 && tokens[index].type == UInt8(ascii: "s") && isFeatureID(tokens[index].value) {
            if let name = name(at: index + 1) { return name }
        }
        return nil
    }

    /// A stop's name: the first `!2s`/`!2z` inside it, or nil.
    private func name(inStop stop: Int) -> Name? {
        let inside = (stop + 1)..<min(stop + 1 + tokens[stop].count, tokens.count)
        return inside.lazy.compactMap { self.name(at: $0) }.first
    }

    /// True when the blob names a place by its feature id (`!1s0x…:0x…`).
    var hasFeatureID: Bool {
        tokens.contains { $0.field == 1 && $0.type == UInt8(ascii: "s") && isFeatureID($0.value) }
    }

    /// An embedded map's type: `!5e1` among the children of the first message is satellite.
    var embeddedViews: Set<MapsView> {
        guard let first = tokens.indices.first(where: { count(tokens[$0]) > 0 }) else { return [] }
        let isSatellite = children(of: first).contains {
            tokens[$0].field == 5 && tokens[$0].type == UInt8(ascii: "e") && number(tokens[$0]) == 1
        }
        return isSatellite ? [.satellite] : []
    }

    private func name(at index: Int) -> Name? {
        let token = tokens[index]
        guard token.field == 2, token.type == UInt8(ascii: "s") || token.type == UInt8(ascii: "z"), !token.value.isEmpty
        else { return nil }
        return Name(value: token.value, isBase64: token.type == UInt8(ascii: "z"))
    }

    /// `0x` + hex digits, a colon (or `%3A`), `0x` + hex digits.
    private func isFeatureID(_ range: Range<Int>) -> Bool {
        range.count > 4 && bytes[range.lowerBound] == UInt8(ascii: "0")
            && bytes[range.lowerBound + 1] | 0x20 == UInt8(ascii: "x")
            && bytes[range].contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "%") })
    }

    /// The message that lists the stops (the one with the most stop children, at least two:
    /// `!1m` in desktop paths, `!4m` in embedded maps), found by walking each message's direct
    /// children once.
    private static func findRoute(in tokens: [Token]) -> Route? {
        var best: (index: Int, field: Int, stops: Int)?
        for index in tokens.indices where tokens[index].count > 0 {
            var desktopStops = 0
            var embeddedStops = 0
            var child = index + 1
            let end = min(index + 1 + tokens[index].count, tokens.count)
            while child < end {
                if tokens[child].type == UInt8(ascii: "m") {
                    if tokens[child].field == 1 { desktopStops += 1 }
                    if tokens[child].field == 4 { embeddedStops += 1 }
                }
                child += 1 + tokens[child].count
            }
            if desktopStops >= 2 && desktopStops > (best?.stops ?? 0) { best = (index, 1, desktopStops) }
            if embeddedStops >= 2 && embeddedStops > (best?.stops ?? 0) { best = (index, 4, embeddedStops) }
        }
        guard let best else { return nil }
        var children: [Int] = []
        var child = best.index + 1
        let end = min(best.index + 1 + tokens[best.index].count, tokens.count)
        while child < end {
            children.append(child)
            child += 1 + tokens[child].count
        }
        let stops = children.filter { tokens[$0].field == best.field && tokens[$0].type == UInt8(ascii: "m") }
        return Route(children: children, stops: stops)
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

    /// The position among a stop's tokens: `!2m2!1d<lng>!2d<lat>` (desktop paths),
    /// `!3m2!1d<lat>!2d<lng>` (embedded maps) or `!3d<lat>!4d<lng>`.
    private func position(of stop: Int) -> Coordinate? {
        let inside = (stop + 1)..<min(stop + 1 + count(tokens[stop]), tokens.count)
        for index in inside.dropLast() where tokens[index].type == UInt8(ascii: "d") {
            let first = tokens[index]
            let second = tokens[index + 1]
            guard second.type == UInt8(ascii: "d"), let a = number(first), let b = number(second) else { continue }
            var coordinate: Coordinate?
            if first.field == 1 && second.field == 2 {
                let latitudeFirst = index > inside.lowerBound && tokens[index - 1].field == 3
                coordinate =
                    latitudeFirst
                    ? Coordinate(validatingLatitude: a, longitude: b) : Coordinate(validatingLatitude: b, longitude: a)
            } else if first.field == 3 && second.field == 4 {
                coordinate = Coordinate(validatingLatitude: a, longitude: b)
            }
            if let coordinate { return coordinate }
        }
        return nil
    }
}
