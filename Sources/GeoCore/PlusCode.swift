import Foundation

/// Open Location Code ("plus codes"): a place as a short code of the 20 characters
/// `23456789CFGHJMPQRVWX` (`8FVC9G8F+6X`), each pair of the first ten a latitude and a
/// longitude digit in base 20 (cells of 20°, 1°, 0.05°, 0.0025° and 0.000125°), each later
/// character a 5-row by 4-column grid cell of the one before; a `+` after the eighth
/// character; `0` pads a code shorter than eight (`8FVC0000+`). A short code (`9G8F+6X`) drops
/// leading characters and is recovered from a place near it.
///
/// Computed in integers of the smallest cell (1/25,000,000° of latitude, 1/8,192,000° of
/// longitude), as the specification's reference implementations do, so that a coordinate on
/// a cell's edge falls in the same cell everywhere.
public struct PlusCode: Sendable, Hashable, CustomStringConvertible {
    /// The code as written, upper case, with its `+` (and `0` padding, when shorter than eight).
    public let code: String

    /// The characters, in value order.
    static let alphabet = Array("23456789CFGHJMPQRVWX")
    /// Characters before the `+`.
    static let separatorPosition = 8
    /// The pair section's length.
    static let pairLength = 10
    /// Characters at most (more are read, and ignored, as the specification says).
    public static let maximumLength = 15
    /// Latitude units of the smallest cell in one degree: 8,000 × 5⁵.
    static let latitudeUnits: Int64 = 25_000_000
    /// Longitude units of the smallest cell in one degree: 8,000 × 4⁵.
    static let longitudeUnits: Int64 = 8_192_000

    /// Why a text is not a plus code.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Empty, or only a `+`.
        case empty
        /// A character outside the code's alphabet, at its offset.
        case character(Character, at: Int)
        /// No `+`, more than one, or one in the wrong place (after an even count, at most 8).
        case separator
        /// Padding (`0`) misplaced: it must come in pairs right before a `+` at 8, with nothing after.
        case padding
        /// One character after the `+` (none, or at least two).
        case lone
        /// A full code's first characters name a latitude past 90° or a longitude past 180°.
        case outOfRange
        /// A length the encoder cannot make: 2, 4, 6, 8 or 10 to 15 digits.
        case length(Int)
        /// A short code given where a full one is needed, or the other way round.
        case notFull

        public var description: String {
            switch self {
            case .empty: "the code is empty"
            case .character(let character, let offset):
                "'\(character)' at \(offset + 1) is not a plus-code character (23456789CFGHJMPQRVWX)"
            case .separator: "a plus code has one '+', after an even number of characters, at most eight"
            case .padding: "padding '0's come in pairs just before a '+' after the eighth character, with nothing after"
            case .lone: "a plus code has no character, or at least two, after its '+'"
            case .outOfRange: "the code's first characters name a place past the poles or the antimeridian"
            case .length(let length): "a plus code has 2, 4, 6, 8 or 10 to 15 digits, not \(length)"
            case .notFull: "the code is short: it needs a place near it to be recovered"
            }
        }

        /// Why, in `words`' language.
        public func message(_ words: Phrasebook) -> String {
            switch self {
            case .empty: words.note("plus code empty")
            case .character(let character, let offset):
                words.note(
                    "plus code character",
                    ["character": String(character), "position": String(offset + 1), "alphabet": String(alphabet)])
            case .separator: words.note("plus code separator")
            case .padding: words.note("plus code padding")
            case .lone: words.note("plus code lone")
            case .outOfRange: words.note("plus code range")
            case .length(let length): words.note("plus code length", ["length": String(length)])
            case .notFull: words.note("plus code short")
            }
        }
    }

    /// The code of a text (any case, surrounding spaces allowed), full or short.
    ///
    /// - Throws: ``Failure`` saying what is wrong.
    public init(_ text: String) throws(Failure) {
        let upper = text.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        guard !upper.isEmpty, upper != "+" else { throw .empty }
        let characters = Array(upper)
        guard let separator = characters.firstIndex(of: "+"), characters.lastIndex(of: "+") == separator,
            separator <= Self.separatorPosition, separator % 2 == 0
        else { throw .separator }
        for (offset, character) in characters.enumerated()
        where character != "+" && character != "0" && !Self.alphabet.contains(character) {
            throw .character(character, at: offset)
        }
        if let padding = characters.firstIndex(of: "0") {
            guard padding > 0, padding < separator, separator == Self.separatorPosition,
                characters[padding..<separator].allSatisfy({ $0 == "0" }), (separator - padding) % 2 == 0,
                characters.count == separator + 1
            else { throw .padding }
        }
        guard characters.count - separator - 1 != 1 else { throw .lone }
        if separator == Self.separatorPosition {
            // A full code: its first latitude digit under 9 (180°), longitude under 18 (360°).
            let latitude = Self.alphabet.firstIndex(of: characters[0]) ?? 0
            let longitude = characters.count > 1 ? Self.alphabet.firstIndex(of: characters[1]) ?? 0 : 0
            guard latitude < 9, longitude < 18 else { throw .outOfRange }
        }
        code = String(characters)
    }

    /// The code of a place, `length` digits long (10 by default: a cell of about 14 × 14 m).
    ///
    /// - Throws: ``Failure/length(_:)`` for a length not 2, 4, 6, 8 or 10 and up (15 at most
    ///   used).
    public init(_ coordinate: Coordinate, length: Int = 10) throws(Failure) {
        guard length >= 2, length >= Self.pairLength || length % 2 == 0 else { throw .length(length) }
        let length = min(length, Self.maximumLength)
        let (latitude, longitude) = Self.inWorld(coordinate)
        // In whole units of the smallest cell (rounded to a millionth first, so that 0.1 + 90
        // is not one unit short); the north pole in the top cell.
        var latitudeValue = Int64(((latitude + 90) * Double(Self.latitudeUnits) * 1e6).rounded() / 1e6)
        var longitudeValue = Int64(((longitude + 180) * Double(Self.longitudeUnits) * 1e6).rounded() / 1e6)
        latitudeValue = min(latitudeValue, 180 * Self.latitudeUnits - 1)
        longitudeValue = min(max(longitudeValue, 0), 360 * Self.longitudeUnits - 1)
        var reversed: [Character] = []
        for _ in 0..<(Self.maximumLength - Self.pairLength) {
            reversed.append(Self.alphabet[Int(latitudeValue % 5 * 4 + longitudeValue % 4)])
            latitudeValue /= 5
            longitudeValue /= 4
        }
        for pair in 0..<(Self.pairLength / 2) {
            reversed.append(Self.alphabet[Int(longitudeValue % 20)])
            reversed.append(Self.alphabet[Int(latitudeValue % 20)])
            latitudeValue /= 20
            longitudeValue /= 20
            if pair == 0 { reversed.append("+") }
        }
        var characters = Array(reversed.reversed())
        // The digits wanted (the `+` after the eighth), padded to eight with `0`.
        characters = Array(characters.prefix(length < Self.pairLength ? Self.separatorPosition + 1 : length + 1))
        if length < Self.separatorPosition {
            for index in length..<Self.separatorPosition { characters[index] = "0" }
        }
        code = String(characters)
    }

    public var description: String { code }

    /// True for a short code (fewer than eight characters before its `+`).
    public var isShort: Bool { separator < Self.separatorPosition }

    /// The offset of the `+`.
    private var separator: Int { code.distance(from: code.startIndex, to: code.firstIndex(of: "+") ?? code.endIndex) }

    /// The digits, without the `+` and the padding, at most ``maximumLength``.
    var digits: [Character] { Array(code.filter { $0 != "+" && $0 != "0" }.prefix(Self.maximumLength)) }

    /// How many digits the code holds (2 to 15; characters past the fifteenth are ignored).
    public var digitCount: Int { digits.count }

    /// The cell of a full code: its south-west and north-east corners.
    ///
    /// - Throws: ``Failure/notFull`` for a short code.
    public func area() throws(Failure) -> CoordinateBounds {
        let cell = try cell()
        return CoordinateBounds(
            southWest: Coordinate(
                latitude: Self.latitude(cell.latitude), longitude: Self.longitude(cell.longitude)),
            northEast: Coordinate(
                latitude: Self.latitude(cell.latitude + cell.height),
                longitude: Self.longitude(cell.longitude + cell.width)))
    }

    /// The middle of a full code's cell (the place it names).
    ///
    /// - Throws: ``Failure/notFull`` for a short code.
    public func center() throws(Failure) -> Coordinate {
        let cell = try cell()
        // In half units, so that the middle is exact before the one division.
        return Coordinate(
            latitude: Self.latitude(2 * cell.latitude + cell.height, units: 2),
            longitude: Self.longitude(2 * cell.longitude + cell.width, units: 2))
    }

    /// A full code's cell in units of the smallest cell from the south-west corner of the
    /// world: its south-west corner, its height and its width.
    private func cell() throws(Failure) -> (latitude: Int64, longitude: Int64, height: Int64, width: Int64) {
        guard !isShort else { throw .notFull }
        let digits = digits
        var latitude = Int64(0)
        var longitude = Int64(0)
        // Divided by 20 before each pair is read: the first pair's digits are of 20°.
        var latitudePlace = 20 * 20 * Self.latitudeUnits
        var longitudePlace = 20 * 20 * Self.longitudeUnits
        for index in stride(from: 0, to: min(digits.count, Self.pairLength), by: 2) {
            latitudePlace /= 20
            longitudePlace /= 20
            latitude += Int64(Self.value(digits[index])) * latitudePlace
            if index + 1 < digits.count { longitude += Int64(Self.value(digits[index + 1])) * longitudePlace }
        }
        for index in Self.pairLength..<max(Self.pairLength, digits.count) {
            latitudePlace /= 5
            longitudePlace /= 4
            let value = Int64(Self.value(digits[index]))
            latitude += value / 4 * latitudePlace
            longitude += value % 4 * longitudePlace
        }
        return (latitude, longitude, latitudePlace, longitudePlace)
    }

    /// Degrees of latitude of a count of `units`-ths of the smallest cell from the south pole:
    /// offset in integers, then divided once, so that the answer is the double nearest the
    /// exact value (60.171, not 60.170999…, for a place on a cell's edge).
    private static func latitude(_ value: Int64, units: Int64 = 1) -> Double {
        Double(value - 90 * latitudeUnits * units) / Double(latitudeUnits * units)
    }

    /// Degrees of longitude, as ``latitude(_:units:)``, from the antimeridian.
    private static func longitude(_ value: Int64, units: Int64 = 1) -> Double {
        Double(value - 180 * longitudeUnits * units) / Double(longitudeUnits * units)
    }

    /// The code without as many leading characters as `reference` lets a reader recover: 8,
    /// 6 or 4 of them for a reference within 30 % of a cell of 0.0025°, 0.05° or 1° of the
    /// code's centre (a margin under the half cell recovery needs), none farther away.
    ///
    /// - Throws: ``Failure/notFull`` for a short code, ``Failure/padding`` for a padded one.
    public func shortened(near reference: Coordinate) throws(Failure) -> PlusCode {
        guard !code.contains("0") else { throw .padding }
        let center = try center()
        let (latitude, longitude) = Self.inWorld(reference)
        let range = max(abs(center.latitude - latitude), abs(center.longitude - longitude))
        // An eight-digit code keeps its last pair at least ("75+", not "+", which names nothing).
        for (dropped, resolution) in [(8, 0.0025), (6, 0.05), (4, 1.0)]
        where range < resolution * 0.3 && dropped < digitCount {
            return try PlusCode(String(code.dropFirst(dropped)))
        }
        return self
    }

    /// The full code a short one names near `reference` (a full code is returned as it is):
    /// the nearest cell, across a pole or the antimeridian as needed.
    public func recovered(near reference: Coordinate) throws(Failure) -> PlusCode {
        guard isShort else { return self }
        let missing = Self.separatorPosition - separator
        let precision = pow(20, Double(2 - missing / 2))
        let (latitude, longitude) = Self.inWorld(reference)
        let prefix = String(try PlusCode(Coordinate(latitude: latitude, longitude: longitude)).code.prefix(missing))
        let candidate = try PlusCode(prefix + code)
        var center = try candidate.center()
        if latitude + precision / 2 < center.latitude && center.latitude - precision >= -90 {
            center.latitude -= precision
        } else if latitude - precision / 2 > center.latitude && center.latitude + precision <= 90 {
            center.latitude += precision
        }
        if longitude + precision / 2 < center.longitude {
            center.longitude -= precision
        } else if longitude - precision / 2 > center.longitude {
            center.longitude += precision
        }
        return try PlusCode(center, length: candidate.digits.count)
    }

    /// A place's latitude clipped to ±90 and its longitude wrapped to -180..<180.
    private static func inWorld(_ coordinate: Coordinate) -> (latitude: Double, longitude: Double) {
        var longitude = coordinate.longitude.truncatingRemainder(dividingBy: 360)
        if longitude < -180 { longitude += 360 } else if longitude >= 180 { longitude -= 360 }
        return (min(max(coordinate.latitude, -90), 90), longitude)
    }

    /// True for a byte of the code's alphabet, either case (`0` padding and `+` are not).
    public static func isCodeCharacter(_ byte: UInt8) -> Bool {
        let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
        return asciiAlphabet.contains(upper)
    }

    /// ``alphabet`` as bytes.
    private static let asciiAlphabet = Set("23456789CFGHJMPQRVWX".utf8)

    private static func value(_ character: Character) -> Int { alphabet.firstIndex(of: character) ?? 0 }
}
