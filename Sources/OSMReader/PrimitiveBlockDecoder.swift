import GeoCore

/// Decodes one `PrimitiveBlock` (the OSM PBF data block) into elements.
///
/// Format: https://wiki.openstreetmap.org/wiki/PBF_Format (osmformat.proto). Coordinates are
/// `offset + granularity × value` nanodegrees; dense nodes, way refs and relation member ids
/// are delta coded; tags index the block's string table.
enum PrimitiveBlockDecoder {
    ///
    /// - Parameter kinds: the element types decoded (nil: all); a block holding none of them
    ///   is returned empty without its string table read.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, index blockIndex: Int, baseOffset: Int, readMetadata: Bool,
        only kinds: Set<OSMElementType>? = nil
    ) throws(OSMReaderError) -> OSMBlock {
        var reader = ProtobufReader(bytes, baseOffset: baseOffset)
        var stringTable: Range<Int>?
        var groups: [Range<Int>] = []
        var granularity: Int64 = 100
        var latitudeOffset: Int64 = 0
        var longitudeOffset: Int64 = 0
        var dateGranularity: Int64 = 1000
        while let (field, type) = try reader.readTag() {
            switch (field, type) {
            case (1, .lengthDelimited): stringTable = try reader.readLengthDelimited()
            case (2, .lengthDelimited): groups.append(try reader.readLengthDelimited())
            case (17, .varint): granularity = Int64(truncatingIfNeeded: try reader.readVarint())
            case (18, .varint): dateGranularity = Int64(truncatingIfNeeded: try reader.readVarint())
            case (19, .varint): latitudeOffset = Int64(bitPattern: try reader.readVarint())
            case (20, .varint): longitudeOffset = Int64(bitPattern: try reader.readVarint())
            default: try reader.skip(type)
            }
        }
        guard granularity > 0 else { throw reader.error("granularity must be positive") }
        // The group fields wanted: 1 nodes, 2 dense nodes, 3 ways, 4 relations.
        let fields: Set<Int> =
            kinds.map { kinds in
                Set(
                    kinds.flatMap { kind -> [Int] in
                        switch kind {
                        case .node: [1, 2]
                        case .way: [3]
                        case .relation: [4]
                        }
                    })
            } ?? [1, 2, 3, 4]
        if kinds != nil {
            var wanted = false
            for group in groups where !wanted {
                var groupReader = ProtobufReader(bytes, range: group, baseOffset: baseOffset)
                while let (field, type) = try groupReader.readTag() {
                    if type == .lengthDelimited && fields.contains(field) {
                        wanted = true
                        break
                    }
                    try groupReader.skip(type)
                }
            }
            if !wanted { return OSMBlock(index: blockIndex) }
        }
        var strings: [String] = []
        if let stringTable {
            var table = ProtobufReader(bytes, range: stringTable, baseOffset: baseOffset)
            while let (field, type) = try table.readTag() {
                if field == 1 && type == .lengthDelimited {
                    strings.append(try table.readString())
                } else {
                    try table.skip(type)
                }
            }
        }
        let context = Context(
            strings: strings, granularity: granularity, latitudeOffset: latitudeOffset,
            longitudeOffset: longitudeOffset, dateGranularity: dateGranularity, readMetadata: readMetadata)
        var block = OSMBlock(index: blockIndex)
        for group in groups {
            var groupReader = ProtobufReader(bytes, range: group, baseOffset: baseOffset)
            while let (field, type) = try groupReader.readTag() {
                guard type == .lengthDelimited else {
                    try groupReader.skip(type)
                    continue
                }
                var message = try groupReader.readMessage()
                guard fields.contains(field) else { continue }
                switch field {
                case 1: block.nodes.append(try context.node(&message))
                case 2: try context.denseNodes(&message, into: &block.nodes)
                case 3: block.ways.append(try context.way(&message))
                case 4: block.relations.append(try context.relation(&message))
                default: continue
                }
            }
        }
        return block
    }

    /// The block-wide values every element needs.
    struct Context {
        let strings: [String]
        let granularity: Int64
        let latitudeOffset: Int64
        let longitudeOffset: Int64
        let dateGranularity: Int64
        let readMetadata: Bool

        func string(_ index: UInt64, _ reader: ProtobufReader) throws(OSMReaderError) -> String {
            guard index < UInt64(strings.count) else {
                throw reader.error("string index \(index) is outside the block's table of \(strings.count)")
            }
            return strings[Int(index)]
        }

        func tags(keys: [UInt64], values: [UInt64], _ reader: ProtobufReader) throws(OSMReaderError) -> OSMTags {
            guard keys.count == values.count else {
                throw reader.error("an element has \(keys.count) keys but \(values.count) values")
            }
            var tags: OSMTags = []
            tags.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) { tags.append((try string(key, reader), try string(value, reader))) }
            return tags
        }

        func metadata(_ reader: inout ProtobufReader) throws(OSMReaderError) -> OSMMetadata {
            var metadata = OSMMetadata(version: 0, timestamp: 0, changeset: 0, userID: 0, user: "")
            while let (field, type) = try reader.readTag() {
                switch (field, type) {
                case (1, .varint): metadata.version = Int32(truncatingIfNeeded: try reader.readVarint())
                case (2, .varint):
                    metadata.timestamp = Int64(truncatingIfNeeded: try reader.readVarint()) * dateGranularity / 1000
                case (3, .varint): metadata.changeset = Int64(truncatingIfNeeded: try reader.readVarint())
                case (4, .varint): metadata.userID = Int32(truncatingIfNeeded: try reader.readVarint())
                case (5, .varint): metadata.user = try string(try reader.readVarint(), reader)
                default: try reader.skip(type)
                }
            }
            return metadata
        }

        /// Reads the fields every element has (keys 2, values 3, info 4); false for others.
        struct CommonFields {
            var keys: [UInt64] = []
            var values: [UInt64] = []
            var metadata: OSMMetadata?

            mutating func read(
                _ field: Int, _ type: ProtobufWireType, _ reader: inout ProtobufReader, _ context: Context
            ) throws(OSMReaderError) -> Bool {
                switch (field, type) {
                case (2, .lengthDelimited): try reader.readPackedVarints { keys.append($0) }
                case (3, .lengthDelimited): try reader.readPackedVarints { values.append($0) }
                case (4, .lengthDelimited) where context.readMetadata:
                    var info = try reader.readMessage()
                    metadata = try context.metadata(&info)
                default: return false
                }
                return true
            }

            func tags(_ context: Context, _ reader: ProtobufReader) throws(OSMReaderError) -> OSMTags {
                try context.tags(keys: keys, values: values, reader)
            }
        }

        func node(_ reader: inout ProtobufReader) throws(OSMReaderError) -> OSMNode {
            var id: Int64 = 0
            var latitude: Int64 = 0
            var longitude: Int64 = 0
            var common = CommonFields()
            while let (field, type) = try reader.readTag() {
                if try common.read(field, type, &reader, self) { continue }
                switch (field, type) {
                case (1, .varint): id = try reader.readSignedVarint()
                case (8, .varint): latitude = try reader.readSignedVarint()
                case (9, .varint): longitude = try reader.readSignedVarint()
                default: try reader.skip(type)
                }
            }
            return OSMNode(
                id: id, latitudeNano: latitudeOffset + granularity * latitude,
                longitudeNano: longitudeOffset + granularity * longitude, tags: try common.tags(self, reader),
                metadata: common.metadata)
        }

        func denseNodes(_ reader: inout ProtobufReader, into nodes: inout [OSMNode]) throws(OSMReaderError) {
            var ids: [Int64] = []
            var latitudes: [Int64] = []
            var longitudes: [Int64] = []
            var keysValues: [UInt64] = []
            var denseInfo: ProtobufReader?
            while let (field, type) = try reader.readTag() {
                switch (field, type) {
                case (1, .lengthDelimited): ids = try deltaDecoded(&reader)
                case (5, .lengthDelimited): denseInfo = try reader.readMessage()
                case (8, .lengthDelimited): latitudes = try deltaDecoded(&reader)
                case (9, .lengthDelimited): longitudes = try deltaDecoded(&reader)
                case (10, .lengthDelimited): try reader.readPackedVarints { keysValues.append($0) }
                default: try reader.skip(type)
                }
            }
            guard ids.count == latitudes.count && ids.count == longitudes.count else {
                throw reader.error(
                    "dense nodes have \(ids.count) ids, \(latitudes.count) latitudes and \(longitudes.count) longitudes"
                )
            }
            let metadata = try readMetadata ? denseMetadata(denseInfo, count: ids.count) : nil
            nodes.reserveCapacity(nodes.count + ids.count)
            var cursor = 0
            for index in ids.indices {
                var tags: OSMTags = []
                if !keysValues.isEmpty {
                    while cursor < keysValues.count, keysValues[cursor] != 0 {
                        guard cursor + 1 < keysValues.count else {
                            throw reader.error("a dense node's tag has no value")
                        }
                        tags.append(
                            (try string(keysValues[cursor], reader), try string(keysValues[cursor + 1], reader)))
                        cursor += 2
                    }
                    cursor += 1
                }
                nodes.append(
                    OSMNode(
                        id: ids[index], latitudeNano: latitudeOffset + granularity * latitudes[index],
                        longitudeNano: longitudeOffset + granularity * longitudes[index], tags: tags,
                        metadata: metadata?[index]))
            }
        }

        private func denseMetadata(_ info: ProtobufReader?, count: Int) throws(OSMReaderError) -> [OSMMetadata]? {
            guard var info else { return nil }
            var versions: [UInt64] = []
            var timestamps: [Int64] = []
            var changesets: [Int64] = []
            var userIDs: [Int64] = []
            var userStrings: [Int64] = []
            while let (field, type) = try info.readTag() {
                switch (field, type) {
                case (1, .lengthDelimited): try info.readPackedVarints { versions.append($0) }
                case (2, .lengthDelimited): timestamps = try deltaDecoded(&info)
                case (3, .lengthDelimited): changesets = try deltaDecoded(&info)
                case (4, .lengthDelimited): userIDs = try deltaDecoded(&info)
                case (5, .lengthDelimited): userStrings = try deltaDecoded(&info)
                default: try info.skip(type)
                }
            }
            guard
                [versions.count, timestamps.count, changesets.count, userIDs.count, userStrings.count]
                    .allSatisfy({ $0 == count })
            else { return nil }
            var result: [OSMMetadata] = []
            result.reserveCapacity(count)
            for index in 0..<count {
                result.append(
                    OSMMetadata(
                        version: Int32(truncatingIfNeeded: versions[index]),
                        timestamp: timestamps[index] * dateGranularity / 1000, changeset: changesets[index],
                        userID: Int32(truncatingIfNeeded: userIDs[index]),
                        user: try string(UInt64(max(0, userStrings[index])), info)))
            }
            return result
        }

        func way(_ reader: inout ProtobufReader) throws(OSMReaderError) -> OSMWay {
            var id: Int64 = 0
            var references: [Int64] = []
            var common = CommonFields()
            while let (field, type) = try reader.readTag() {
                if try common.read(field, type, &reader, self) { continue }
                switch (field, type) {
                case (1, .varint): id = Int64(bitPattern: try reader.readVarint())
                case (8, .lengthDelimited): references = try deltaDecoded(&reader)
                default: try reader.skip(type)
                }
            }
            return OSMWay(id: id, nodeIDs: references, tags: try common.tags(self, reader), metadata: common.metadata)
        }

        func relation(_ reader: inout ProtobufReader) throws(OSMReaderError) -> OSMRelation {
            var id: Int64 = 0
            var roles: [UInt64] = []
            var memberIDs: [Int64] = []
            var types: [UInt64] = []
            var common = CommonFields()
            while let (field, type) = try reader.readTag() {
                if try common.read(field, type, &reader, self) { continue }
                switch (field, type) {
                case (1, .varint): id = Int64(bitPattern: try reader.readVarint())
                case (8, .lengthDelimited): try reader.readPackedVarints { roles.append($0) }
                case (9, .lengthDelimited): memberIDs = try deltaDecoded(&reader)
                case (10, .lengthDelimited): try reader.readPackedVarints { types.append($0) }
                default: try reader.skip(type)
                }
            }
            guard roles.count == memberIDs.count && types.count == memberIDs.count else {
                throw reader.error(
                    "relation \(id) has \(memberIDs.count) members, \(roles.count) roles and \(types.count) types")
            }
            var members: [OSMRelation.Member] = []
            members.reserveCapacity(memberIDs.count)
            for index in memberIDs.indices {
                guard let memberType = OSMElementType(rawValue: Int(truncatingIfNeeded: types[index])) else {
                    throw reader.error("relation \(id) has a member of unknown type \(types[index])")
                }
                members.append(.init(type: memberType, id: memberIDs[index], role: try string(roles[index], reader)))
            }
            return OSMRelation(
                id: id, members: members, tags: try common.tags(self, reader), metadata: common.metadata)
        }

        /// A packed field of zigzag varints, delta decoded.
        private func deltaDecoded(_ reader: inout ProtobufReader) throws(OSMReaderError) -> [Int64] {
            var values: [Int64] = []
            var running: Int64 = 0
            try reader.readPackedVarints { raw in
                running &+= Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
                values.append(running)
            }
            return values
        }
    }
}
