import GeoCore

/// Coordinates in degrees, minutes and seconds, as Google Maps names a dropped pin and people
/// copy them: `48°51'29.6"N 2°17'40.2"E`, `48°51′29.6″N, 2°17′40.2″E`, `N 48°51.493' E 2°17.67'`,
/// `48.8582°N 2.2945°E`.
///
/// Each angle is degrees with `°` (or `º`), then optionally minutes with `'`, `′` or `’`, then
/// optionally seconds with `"`, `″` or `''`; the last part may be a decimal, the others are whole
/// numbers; minutes and seconds are below 60. Each angle has one hemisphere letter (N/S for the
/// latitude, E/W for the longitude, before or after it) or a leading minus. The two angles are
/// separated by spaces or a comma; latitude first, or longitude first when the letters say so.
enum DegreesText {
    /// The coordinate in `bytes`, or nil when it is not two such angles. Text without a degree
    /// sign is rejected at once.
    static func pair(_ bytes: UnsafeBufferPointer<UInt8>) -> Coordinate? {
        guard hasDegreeSign(bytes) else { return nil }
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var index = 0
        guard let first = angle(scalars, &index) else { return nil }
        skip(scalars, &index, while: { $0 == " " })
        if index < scalars.count, scalars[index] == "," { index += 1 }
        guard let second = angle(scalars, &index) else { return nil }
        skip(scalars, &index, while: { $0 == " " })
        guard index == scalars.count else { return nil }
        switch (first.axis, second.axis) {
        case (.latitude, .longitude), (.latitude, nil), (nil, .longitude), (nil, nil):
            return Coordinate(latitude: rounded(first.value), longitude: rounded(second.value))
        case (.longitude, .latitude), (.longitude, nil), (nil, .latitude):
            return Coordinate(latitude: rounded(second.value), longitude: rounded(first.value))
        default:
            return nil
        }
    }

    /// Degrees to 8 decimals (about a millimetre), dropping the binary noise of the sum of
    /// minutes and seconds.
    private static func rounded(_ degrees: Double) -> Double { (degrees * 1e8).rounded() / 1e8 }

    private enum Axis { case latitude, longitude }

    /// One angle with its sign applied, and the axis its hemisphere letter names (nil for a
    /// minus sign).
    private static func angle(_ scalars: [Unicode.Scalar], _ index: inout Int) -> (value: Double, axis: Axis?)? {
        skip(scalars, &index, while: { $0 == " " })
        var hemisphere = letter(scalars, index)
        if hemisphere != nil {
            index += 1
            skip(scalars, &index, while: { $0 == " " })
        }
        var sign = 1.0
        if hemisphere == nil, index < scalars.count, scalars[index] == "-" {
            sign = -1
            index += 1
        }
        guard let degrees = number(scalars, &index), index < scalars.count, degreeSigns.contains(scalars[index])
        else { return nil }
        index += 1
        var value = degrees.value
        var lastWasDecimal = degrees.isDecimal
        if !lastWasDecimal, let minutes = part(scalars, &index, marks: minuteSigns) {
            guard minutes.value < 60 else { return nil }
            value += minutes.value / 60
            lastWasDecimal = minutes.isDecimal
            if !lastWasDecimal, let seconds = part(scalars, &index, marks: secondSigns) {
                guard seconds.value < 60 else { return nil }
                value += seconds.value / 3600
            }
        }
        if hemisphere == nil && sign > 0 {
            var probe = index
            skip(scalars, &probe, while: { $0 == " " })
            if let trailing = letter(scalars, probe) {
                hemisphere = trailing
                index = probe + 1
            }
        }
        guard let hemisphere else { return (sign * value, nil) }
        return (hemisphere.sign * value, hemisphere.axis)
    }

    /// A minutes or seconds part: a number followed by one of `marks` (`''` counts as `"`).
    private static func part(
        _ scalars: [Unicode.Scalar], _ index: inout Int, marks: Set<Unicode.Scalar>
    ) -> (value: Double, isDecimal: Bool)? {
        var cursor = index
        skip(scalars, &cursor, while: { $0 == " " })
        guard let value = number(scalars, &cursor), cursor < scalars.count else { return nil }
        if marks.contains(scalars[cursor]) {
            index = cursor + 1
        } else if marks == secondSigns, scalars[cursor] == "'", cursor + 1 < scalars.count,
            scalars[cursor + 1] == "'"
        {
            index = cursor + 2
        } else {
            return nil
        }
        return value
    }

    /// Digits with at most one decimal point (not first or last), at most 12 characters.
    private static func number(_ scalars: [Unicode.Scalar], _ index: inout Int) -> (value: Double, isDecimal: Bool)? {
        let start = index
        var sawPoint = false
        while index < scalars.count, index - start < 12 {
            let scalar = scalars[index]
            if scalar.value >= 48 && scalar.value <= 57 {
                index += 1
            } else if scalar == ".", !sawPoint, index > start {
                sawPoint = true
                index += 1
            } else {
                break
            }
        }
        guard index > start, scalars[index - 1] != ".",
            let value = Double(String(String.UnicodeScalarView(scalars[start..<index])))
        else {
            index = start
            return nil
        }
        return (value, sawPoint)
    }

    private static func letter(_ scalars: [Unicode.Scalar], _ index: Int) -> (sign: Double, axis: Axis)? {
        guard index < scalars.count else { return nil }
        switch scalars[index] {
        case "N", "n": return (1, .latitude)
        case "S", "s": return (-1, .latitude)
        case "E", "e": return (1, .longitude)
        case "W", "w": return (-1, .longitude)
        default: return nil
        }
    }

    private static func skip(_ scalars: [Unicode.Scalar], _ index: inout Int, while test: (Unicode.Scalar) -> Bool) {
        while index < scalars.count, test(scalars[index]) { index += 1 }
    }

    /// True when the UTF-8 holds `°` (C2 B0) or `º` (C2 BA).
    private static func hasDegreeSign(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        for index in 0..<(bytes.count - 1) where bytes[index] == 0xC2 {
            if bytes[index + 1] == 0xB0 || bytes[index + 1] == 0xBA { return true }
        }
        return false
    }

    private static let degreeSigns: Set<Unicode.Scalar> = ["\u{B0}", "\u{BA}"]
    private static let minuteSigns: Set<Unicode.Scalar> = ["'", "\u{2032}", "\u{2019}"]
    private static let secondSigns: Set<Unicode.Scalar> = ["\"", "\u{2033}", "\u{201D}"]
}
