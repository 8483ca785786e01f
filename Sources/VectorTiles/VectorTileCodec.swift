import GeoCore

/// Why bytes are not a vector tile: what was wrong and where.
public struct VectorTileError: Error, Equatable, CustomStringConvertible, ProtobufFailure {
    /// What was wrong, one sentence.
    public var message: String
    /// Byte offset in the tile (uncompressed) where it was found.
    public var offset: Int

    /// An error saying `message` at byte `offset`.
    public init(protobuf message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "not a valid vector tile at byte \(offset): \(message)" }
}

// Field numbers of vector_tile.proto (specification 2.1).
private enum Field {
    static let tileLayer = 3
    static let layerVersion = 15, layerName = 1, layerFeature = 2, layerKey = 3, layerValue = 4, layerExtent = 5
    static let featureID = 1, featureTags = 2, featureType = 3, featureGeometry = 4
    static let valueString = 1, valueFloat = 2, valueDouble = 3, valueInt = 4, valueUInt = 5, valueSInt = 6
    static let valueBool = 7
}

// Geometry commands: the command id in the low 3 bits, the count above.
private enum Command {
    static let moveTo: UInt32 = 1, lineTo: UInt32 = 2, closePath: UInt32 = 7
    static func integer(_ id: UInt32, count: Int) -> UInt32 { id & 0x7 | UInt32(count) << 3 }
}

extension VectorTile {
    /// The tile as the specification's protobuf (uncompressed): version 2 layers, keys and
    /// values shared within a layer, geometry as zigzag-delta command streams. Layers without
    /// features are left out; features whose geometry has nothing left to draw are too.
    public func encoded() -> [UInt8] {
        var tile = ProtobufWriter()
        for layer in layers {
            guard let bytes = layer.encoded() else { continue }
            tile.bytes(Field.tileLayer, bytes)
        }
        return tile.bytes
    }

    /// Reads a tile from the protobuf `bytes` (uncompressed).
    /// - Throws: ``VectorTileError`` naming the first thing that does not follow the
    ///   specification: a bad command, a tag past the layer's keys or values, a truncated field.
    public init(decoding bytes: [UInt8]) throws(VectorTileError) {
        let result: Result<[Layer], VectorTileError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(VectorTileError) -> [Layer] in
                var reader = ProtobufReader<VectorTileError>(buffer)
                var layers: [Layer] = []
                while let (field, type) = try reader.readTag() {
                    guard field == Field.tileLayer, type == .lengthDelimited else {
                        try reader.skip(type)
                        continue
                    }
                    var message = try reader.readMessage()
                    layers.append(try Layer(decoding: &message))
                }
                return layers
            }
        }
        layers = try result.get()
    }
}

extension VectorTile.Layer {
    /// The layer's message, nil when none of its features has anything to draw.
    func encoded() -> [UInt8]? {
        var keys: [String] = []
        var keyIndex: [String: UInt32] = [:]
        var values: [VectorTile.Value] = []
        var valueIndex: [VectorTile.Value: UInt32] = [:]
        var layer = ProtobufWriter()
        var written = 0
        layer.uint(Field.layerVersion, 2)
        layer.string(Field.layerName, name)
        for feature in features {
            let geometry = Self.commands(feature.geometry)
            guard !geometry.isEmpty else { continue }
            written += 1
            var tags: [UInt32] = []
            for (key, value) in feature.properties.sorted(by: { $0.key < $1.key }) {
                let k =
                    keyIndex[key]
                    ?? {
                        keys.append(key)
                        keyIndex[key] = UInt32(keys.count - 1)
                        return UInt32(keys.count - 1)
                    }()
                let v =
                    valueIndex[value]
                    ?? {
                        values.append(value)
                        valueIndex[value] = UInt32(values.count - 1)
                        return UInt32(values.count - 1)
                    }()
                tags += [k, v]
            }
            layer.message(Field.layerFeature) { message in
                if let id = feature.id { message.uint(Field.featureID, id) }
                if !tags.isEmpty { message.packed(Field.featureTags, tags) }
                message.uint(Field.featureType, feature.geometry.typeCode)
                message.packed(Field.featureGeometry, geometry)
            }
        }
        for key in keys { layer.string(Field.layerKey, key) }
        for value in values {
            layer.message(Field.layerValue) { message in
                switch value {
                case .string(let text): message.string(Field.valueString, text)
                case .double(let number): message.double(Field.valueDouble, number)
                case .int(let number): message.sint(Field.valueSInt, number)
                case .bool(let flag): message.uint(Field.valueBool, flag ? 1 : 0)
                }
            }
        }
        guard written > 0 else { return nil }
        layer.uint(Field.layerExtent, UInt64(extent))
        return layer.bytes
    }

    /// The command stream of `geometry`: MoveTo, LineTo and ClosePath with zigzag deltas from
    /// the cursor, which carries on from one part to the next. Lines of fewer than two distinct
    /// points and rings of fewer than three are left out.
    static func commands(_ geometry: TileGeometry) -> [UInt32] {
        var stream: [UInt32] = []
        var cursor = TilePoint(x: 0, y: 0)
        func delta(_ point: TilePoint) {
            stream.append(UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(Int64(point.x) - Int64(cursor.x))))
            stream.append(UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(Int64(point.y) - Int64(cursor.y))))
            cursor = point
        }
        func path(_ points: [TilePoint], closed: Bool) {
            stream.append(Command.integer(Command.moveTo, count: 1))
            delta(points[0])
            stream.append(Command.integer(Command.lineTo, count: points.count - 1))
            for point in points.dropFirst() { delta(point) }
            if closed { stream.append(Command.integer(Command.closePath, count: 1)) }
        }
        switch geometry {
        case .points(let points):
            guard !points.isEmpty else { return [] }
            stream.append(Command.integer(Command.moveTo, count: points.count))
            for point in points { delta(point) }
        case .lines(let lines):
            for line in lines {
                let points = deduplicated(line)
                if points.count >= 2 { path(points, closed: false) }
            }
        case .polygons(let polygons):
            for ring in polygons.joined() {
                var points = deduplicated(ring)
                if points.count > 1 && points.first == points.last { points.removeLast() }
                if points.count >= 3 { path(points, closed: true) }
            }
        }
        return stream
    }

    /// `points` without a point repeating the one before it.
    static func deduplicated(_ points: [TilePoint]) -> [TilePoint] {
        var kept: [TilePoint] = []
        kept.reserveCapacity(points.count)
        for point in points where kept.last != point { kept.append(point) }
        return kept
    }

    init(decoding reader: inout ProtobufReader<VectorTileError>) throws(VectorTileError) {
        var name: String?
        var extent = VectorTile.extent
        var keys: [String] = []
        var values: [VectorTile.Value] = []
        var raw:
            [(id: UInt64?, tags: [UInt32], type: UInt64, geometry: [UInt32], at: ProtobufReader<VectorTileError>)] =
                []
        var version: UInt64 = 1
        while let (field, type) = try reader.readTag() {
            switch (field, type) {
            case (Field.layerVersion, .varint): version = try reader.readVarint()
            case (Field.layerName, .lengthDelimited): name = try reader.readString()
            case (Field.layerExtent, .varint):
                let value = try reader.readVarint()
                guard value > 0, value <= UInt64(UInt32.max) else { throw reader.error("a layer's extent is \(value)") }
                extent = UInt32(value)
            case (Field.layerKey, .lengthDelimited): keys.append(try reader.readString())
            case (Field.layerValue, .lengthDelimited):
                var message = try reader.readMessage()
                values.append(try Self.value(&message))
            case (Field.layerFeature, .lengthDelimited):
                var message = try reader.readMessage()
                let at = message
                var id: UInt64?
                var tags: [UInt32] = []
                var geometryType: UInt64 = 0
                var geometry: [UInt32] = []
                while let (field, type) = try message.readTag() {
                    switch (field, type) {
                    case (Field.featureID, .varint): id = try message.readVarint()
                    case (Field.featureTags, .lengthDelimited):
                        try message.readPackedVarints { tags.append(UInt32(truncatingIfNeeded: $0)) }
                    case (Field.featureType, .varint): geometryType = try message.readVarint()
                    case (Field.featureGeometry, .lengthDelimited):
                        try message.readPackedVarints { geometry.append(UInt32(truncatingIfNeeded: $0)) }
                    default: try message.skip(type)
                    }
                }
                raw.append((id, tags, geometryType, geometry, at))
            default: try reader.skip(type)
            }
        }
        guard let name, !name.isEmpty else { throw reader.error("a layer has no name") }
        guard version <= 2 else { throw reader.error("layer '\(name)' is of version \(version); 1 and 2 are read") }
        var features: [VectorTile.Feature] = []
        for item in raw {
            guard item.tags.count % 2 == 0 else { throw item.at.error("a feature of '\(name)' has an odd tag count") }
            var properties: [String: VectorTile.Value] = [:]
            for pair in stride(from: 0, to: item.tags.count, by: 2) {
                let (k, v) = (Int(item.tags[pair]), Int(item.tags[pair + 1]))
                guard k < keys.count, v < values.count else {
                    throw item.at.error("a feature of '\(name)' names key \(k) or value \(v), past the layer's tables")
                }
                properties[keys[k]] = values[v]
            }
            let geometry = try Self.geometry(type: item.type, commands: item.geometry, layer: name, at: item.at)
            features.append(VectorTile.Feature(id: item.id, geometry: geometry, properties: properties))
        }
        self.init(name: name, extent: extent, features: features)
    }

    private static func value(_ reader: inout ProtobufReader<VectorTileError>) throws(VectorTileError)
        -> VectorTile.Value
    {
        var value: VectorTile.Value?
        while let (field, type) = try reader.readTag() {
            switch (field, type) {
            case (Field.valueString, .lengthDelimited): value = .string(try reader.readString())
            case (Field.valueFloat, .fixed32): value = .double(Double(Float(bitPattern: try reader.readFixed32())))
            case (Field.valueDouble, .fixed64): value = .double(Double(bitPattern: try reader.readFixed64()))
            case (Field.valueInt, .varint): value = .int(Int64(bitPattern: try reader.readVarint()))
            case (Field.valueUInt, .varint): value = .int(Int64(truncatingIfNeeded: try reader.readVarint()))
            case (Field.valueSInt, .varint): value = .int(try reader.readSignedVarint())
            case (Field.valueBool, .varint): value = .bool(try reader.readVarint() != 0)
            default: try reader.skip(type)
            }
        }
        guard let value else { throw reader.error("a value has no field of a known type") }
        return value
    }

    /// Decodes a command stream into the geometry `type` names, checking each command's count
    /// and parameters against the specification.
    private static func geometry(
        type: UInt64, commands: [UInt32], layer: String, at reader: ProtobufReader<VectorTileError>
    ) throws(VectorTileError) -> TileGeometry {
        var parts: [[TilePoint]] = []
        var cursor = TilePoint(x: 0, y: 0)
        var index = 0
        func fail(_ message: String) -> VectorTileError { reader.error("a feature of '\(layer)': \(message)") }
        while index < commands.count {
            let id = commands[index] & 0x7
            let count = Int(commands[index] >> 3)
            index += 1
            switch id {
            case Command.moveTo, Command.lineTo:
                guard count > 0, index + 2 * count <= commands.count else {
                    throw fail("a command of \(count) points runs past the geometry")
                }
                if id == Command.lineTo && parts.isEmpty { throw fail("LineTo before any MoveTo") }
                for _ in 0..<count {
                    let dx = ProtobufWriter.unzigzag(UInt64(commands[index]))
                    let dy = ProtobufWriter.unzigzag(UInt64(commands[index + 1]))
                    index += 2
                    cursor = TilePoint(
                        x: Int32(truncatingIfNeeded: Int64(cursor.x) + dx),
                        y: Int32(truncatingIfNeeded: Int64(cursor.y) + dy))
                    if id == Command.moveTo && type != 1 {
                        parts.append([cursor])
                    } else if parts.isEmpty {
                        parts.append([cursor])
                    } else {
                        parts[parts.count - 1].append(cursor)
                    }
                }
                if id == Command.moveTo && type != 1 && count != 1 { throw fail("a MoveTo of \(count) points") }
            case Command.closePath:
                guard count == 1, type == 3 else { throw fail("ClosePath outside a polygon") }
            default:
                throw fail("unknown command \(id)")
            }
        }
        switch type {
        case 1: return .points(parts.flatMap { $0 })
        case 2:
            guard parts.allSatisfy({ $0.count >= 2 }) else { throw fail("a line of fewer than two points") }
            return .lines(parts)
        case 3:
            // Rings grouped into polygons: each exterior (positive area) starts one.
            var polygons: [[[TilePoint]]] = []
            for ring in parts {
                guard ring.count >= 3 else { throw fail("a ring of fewer than three points") }
                let area = TileGeometry.area(ring)
                if area > 0 || polygons.isEmpty {
                    guard area > 0 else { throw fail("a polygon begins with a hole (a ring of negative area)") }
                    polygons.append([ring])
                } else if area < 0 {
                    polygons[polygons.count - 1].append(ring)
                }
            }
            return .polygons(polygons)
        default:
            throw fail("geometry type \(type) is not 1, 2 or 3")
        }
    }
}
