import GeoCore

/// The PBF reader's protobuf reader: GeoCore's, reporting ``OSMReaderError``.
typealias ProtobufReader = GeoCore.ProtobufReader<OSMReaderError>

extension OSMReaderError: ProtobufFailure {
    /// Malformed protobuf at byte `offset` of the file (of the inflated block, for a block).
    public init(protobuf message: String, offset: Int) { self.init(kind: .malformed, message: message, offset: offset) }
}
