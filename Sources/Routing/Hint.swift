import GeoCore

extension RoadGraph {
    /// OSRM's `hint`: where a point met the roads, written on every waypoint so that a later
    /// request giving the same point with it (OSRM's `hints`, one a point) meets the roads at
    /// the same place, whatever else it asks (a `nearest` with `bearings`, then a `route`
    /// without them). As OSRM's, a hint is only for the point it was made for and for the data
    /// it was made on: one given with another point, or naming a segment the graph no longer
    /// holds between the same two OSM nodes, is passed over and the point snapped as usual.
    public struct Hint: Sendable, Equatable {
        /// The segment's index in its graph.
        var segment: Int32
        /// The OSM nodes the segment runs from and to.
        var from: Int64
        var to: Int64
        /// How far along the segment, 0–1.
        var fraction: Float
        /// The point asked for, at OSRM's precision: millionths of a degree.
        var latitude: Int32
        var longitude: Int32

        /// The format the first byte names.
        private static let format: UInt8 = 1
        /// Bytes of a hint: the format, the segment, its nodes, the fraction and the point.
        private static let size = 33

        /// The hint as written: base64url (no padding) of 33 bytes, the format (1), the segment
        /// (Int32), its two OSM nodes (Int64 each), the fraction (Float32) and the point's
        /// latitude and longitude (Int32 each), little-endian.
        public var text: String {
            var bytes: [UInt8] = [Self.format]
            bytes.reserveCapacity(Self.size)
            func append<Value: FixedWidthInteger>(_ value: Value) {
                withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
            }
            append(segment)
            append(from)
            append(to)
            append(fraction.bitPattern)
            append(latitude)
            append(longitude)
            return Base64URL.encoded(bytes)
        }

        /// The hint `text` writes, or nil for text that is not one (another server's).
        init?(text: String) {
            guard let bytes = Base64URL.decoded(text), bytes.count == Self.size, bytes[0] == Self.format else {
                return nil
            }
            func read<Value: FixedWidthInteger>(_: Value.Type, at offset: Int) -> Value {
                var value: Value = 0
                withUnsafeMutableBytes(of: &value) {
                    $0.copyBytes(from: bytes[offset..<offset + MemoryLayout<Value>.size])
                }
                return Value(littleEndian: value)
            }
            segment = read(Int32.self, at: 1)
            from = read(Int64.self, at: 5)
            to = read(Int64.self, at: 13)
            fraction = Float(bitPattern: read(UInt32.self, at: 21))
            latitude = read(Int32.self, at: 25)
            longitude = read(Int32.self, at: 29)
        }

        /// The hint of a place on `segment` (between OSM nodes `from` and `to`) for `point`.
        init(segment: Int32, from: Int64, to: Int64, fraction: Double, point: Coordinate) {
            self.segment = segment
            self.from = from
            self.to = to
            self.fraction = Float(fraction)
            (latitude, longitude) = Self.precision(point)
        }

        /// A point at OSRM's precision, millionths of a degree.
        static func precision(_ point: Coordinate) -> (latitude: Int32, longitude: Int32) {
            (Int32((point.latitude * 1e6).rounded()), Int32((point.longitude * 1e6).rounded()))
        }
    }

    /// Where `snap` met the roads, as a hint (``Hint``).
    public func hint(of snap: Snap) -> Hint {
        let segment = segments[Int(snap.segment)]
        return Hint(
            segment: snap.segment, from: osmNodes[Int(segment.from)], to: osmNodes[Int(segment.to)],
            fraction: snap.fraction, point: snap.input)
    }

    /// The snap hint `text` (``Hint/text``) stands for when `point` is the point it was made
    /// for and the graph holds its segment between the same OSM nodes, as `approach` may meet
    /// it; nil otherwise (text that is no hint of ours, one made for another point or on other
    /// data).
    func snap(hinted text: String, at point: Coordinate, approach: Approach) -> Snap? {
        guard let hint = Hint(text: text), hint.segment >= 0, Int(hint.segment) < segments.count,
            (0...1).contains(hint.fraction), Hint.precision(point) == (hint.latitude, hint.longitude)
        else { return nil }
        let segment = segments[Int(hint.segment)]
        guard osmNodes[Int(segment.from)] == hint.from, osmNodes[Int(segment.to)] == hint.to,
            segment.isStartpoint || approach.anyRoad
        else { return nil }
        let fraction = Double(hint.fraction)
        let (from, to) = (positions[Int(segment.from)], positions[Int(segment.to)])
        let onto = Coordinate(
            latitude: from.latitude + (to.latitude - from.latitude) * fraction,
            longitude: from.longitude + (to.longitude - from.longitude) * fraction)
        // Metres as the snapping measures them, on the plane around the point.
        let (x, y) = LocalPlane(around: point).point(onto)
        var snap = Snap(
            segment: hint.segment, fraction: fraction, point: onto, distance: (x * x + y * y).squareRoot(),
            input: point)
        if !approach.isAnyWay {
            snap.directions = directions(of: hint.segment, meeting: point, as: approach)
            if snap.directions!.isEmpty { return nil }
        }
        return snap
    }
}
