/// The encoded polyline format (Google's, as OSRM writes route geometry): each coordinate's
/// difference from the one before, latitude then longitude, at 5 or 6 decimals, in base-64
/// ASCII chunks of five bits.
public enum EncodedPolyline {
    /// `coordinates` encoded at `precision` decimals (5, the default, or 6).
    public static func encode(_ coordinates: [Coordinate], precision: Int = 5) -> String {
        let factor = precision == 6 ? 1e6 : 1e5
        var output = [UInt8]()
        var previous = (latitude: 0, longitude: 0)
        func append(_ value: Int) {
            var rest = value < 0 ? ~(value << 1) : value << 1
            while rest >= 0x20 {
                output.append(UInt8((0x20 | (rest & 0x1F)) + 63))
                rest >>= 5
            }
            output.append(UInt8(rest + 63))
        }
        for coordinate in coordinates {
            let latitude = Int((coordinate.latitude * factor).rounded())
            let longitude = Int((coordinate.longitude * factor).rounded())
            append(latitude - previous.latitude)
            append(longitude - previous.longitude)
            previous = (latitude, longitude)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The coordinates of an encoded polyline, or nil when the text is not one.
    public static func decode(_ text: String, precision: Int = 5) -> [Coordinate]? {
        let factor = precision == 6 ? 1e6 : 1e5
        var values: [Int] = []
        var value = 0
        var shift = 0
        for byte in text.utf8 {
            guard byte >= 63, byte < 127 else { return nil }
            let chunk = Int(byte) - 63
            value |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20 {
                values.append(value & 1 == 1 ? ~(value >> 1) : value >> 1)
                value = 0
                shift = 0
            } else if shift > 60 {
                return nil
            }
        }
        guard shift == 0, values.count % 2 == 0 else { return nil }
        var coordinates: [Coordinate] = []
        var latitude = 0
        var longitude = 0
        for index in stride(from: 0, to: values.count, by: 2) {
            latitude += values[index]
            longitude += values[index + 1]
            coordinates.append(Coordinate(latitude: Double(latitude) / factor, longitude: Double(longitude) / factor))
        }
        return coordinates
    }
}
