import Foundation
import GeoCore
import ZlibKit

/// Streams an OSM PBF file: the header, then every data block decoded in file order.
///
/// Memory stays bounded whatever the file size: blobs are read in batches of a few per core,
/// inflated and decoded on all cores, and handed over in order before the next batch is read.
/// Truncated or corrupt input throws ``OSMReaderError`` with the byte offset and block index.
public struct PBFReader {
    /// Largest accepted blob header (the format's limit), bytes.
    public static let maxBlobHeaderSize = 64 * 1024
    /// Largest accepted blob, compressed or not (the format's limit), bytes.
    public static let maxBlobSize = 32 * 1024 * 1024
    /// Features this reader implements; a file that requires another is refused.
    public static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

    /// The file's path as given.
    public let path: String
    /// The file's size in bytes (compressed, when it is).
    public var fileSize: Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
    /// The file's header block.
    public let header: OSMHeader
    /// Read each element's version, timestamp, changeset and user (slower).
    public var readMetadata = false
    /// Decoding threads; all cores by default.
    public var threads = ProcessInfo.processInfo.activeProcessorCount

    /// Opens `path` (plain, or a whole PBF compressed with gzip or bzip2) and reads its header block.
    ///
    /// - Throws: ``OSMReaderError`` when the file cannot be read, does not start with a
    ///   header block, or requires a feature this reader does not implement.
    public init(path: String) throws(OSMReaderError) {
        self.path = path
        var file = BlobFile(stream: try ByteStream(path: path))
        header = try Self.readHeader(&file)
    }

    /// Reads and checks the header block, leaving `file` at the first data block.
    private static func readHeader(_ file: inout BlobFile) throws(OSMReaderError) -> OSMHeader {
        guard let blob = try file.nextBlob(index: 0) else {
            throw OSMReaderError(kind: .truncated, message: "the file is empty", offset: 0, block: 0)
        }
        guard blob.type == "OSMHeader" else {
            throw OSMReaderError(
                kind: .malformed, message: "the first block is '\(blob.type)', not 'OSMHeader'", offset: blob.offset,
                block: 0)
        }
        let data = try blob.payload()
        let header = try withBytes(data) { bytes throws(OSMReaderError) in
            try HeaderDecoder.decode(bytes, baseOffset: blob.dataOffset)
        }
        let unsupported = header.requiredFeatures.filter { !Self.supportedFeatures.contains($0) }
        guard unsupported.isEmpty else {
            throw OSMReaderError(
                kind: .unsupported, message: "the file requires \(unsupported.joined(separator: ", "))",
                offset: blob.offset, block: 0)
        }
        return header
    }

    /// Calls `body` with every data block, in file order; with `kinds`, only those element
    /// types are decoded.
    ///
    /// - Throws: the first ``OSMReaderError`` met (blocks before it have been delivered), or
    ///   what `body` throws.
    public func forEachBlock(only kinds: Set<OSMElementType>? = nil, _ body: (OSMBlock) throws -> Void) throws {
        var file = BlobFile(stream: try ByteStream(path: path))
        _ = try Self.readHeader(&file)
        var index = 1
        let batchSize = max(1, threads) * 4
        var batch: [RawBlob] = []
        batch.reserveCapacity(batchSize)
        while true {
            batch.removeAll(keepingCapacity: true)
            while batch.count < batchSize, let blob = try file.nextBlob(index: index) {
                index += 1
                if blob.type == "OSMData" { batch.append(blob) }
            }
            if batch.isEmpty { return }
            for result in decode(batch, only: kinds) { try body(try result.get()) }
        }
    }

    /// Decodes a batch on all cores; results keep the batch's order.
    private func decode(_ batch: [RawBlob], only kinds: Set<OSMElementType>?) -> [Result<OSMBlock, OSMReaderError>] {
        let readMetadata = self.readMetadata
        var results = [Result<OSMBlock, OSMReaderError>](
            repeating: .failure(OSMReaderError(kind: .io, message: "not decoded", offset: 0)), count: batch.count)
        results.withUnsafeMutableBufferPointer { buffer in
            let slots = Slots(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: batch.count) { item in
                let blob = batch[item]
                (slots.base + item).pointee = Result { () throws(OSMReaderError) -> OSMBlock in
                    let data = try blob.payload()
                    return try withBytes(data) { bytes throws(OSMReaderError) in
                        do throws(OSMReaderError) {
                            var block = try PrimitiveBlockDecoder.decode(
                                bytes, index: blob.index, baseOffset: blob.dataOffset, readMetadata: readMetadata,
                                only: kinds)
                            block.byteOffset = blob.fileOffset
                            return block
                        } catch {
                            var located = error
                            located.block = blob.index
                            throw located
                        }
                    }
                }
            }
        }
        return results
    }

    /// Element counts of a file, read in one pass.
    public typealias Summary = OSMSummary

    /// Counts the elements of the whole file.
    public func summary() throws -> Summary {
        var summary = Summary()
        try forEachBlock { summary.add($0) }
        return summary
    }
}

/// Result slots shared by the decoding threads; each iteration writes only its own slot,
/// and the buffer outlives `concurrentPerform`.
private struct Slots: @unchecked Sendable {
    let base: UnsafeMutablePointer<Result<OSMBlock, OSMReaderError>>
}

/// A blob as read from the file, not yet inflated.
struct RawBlob: Sendable {
    var index: Int
    var type: String
    /// Offset of the blob header's length prefix.
    var offset: Int
    /// Offset of the blob message.
    var dataOffset: Int
    /// Bytes of the file read when the blob had been read (compressed bytes for a compressed
    /// file), for progress.
    var fileOffset: Int
    var data: [UInt8]

    /// The blob's content, inflated when compressed.
    func payload() throws(OSMReaderError) -> [UInt8] {
        try withBytes(data) { bytes throws(OSMReaderError) -> [UInt8] in
            var reader = ProtobufReader(bytes, baseOffset: dataOffset)
            var raw: Range<Int>?
            var zlib: Range<Int>?
            var rawSize: Int?
            do throws(OSMReaderError) {
                while let (field, type) = try reader.readTag() {
                    switch (field, type) {
                    case (1, .lengthDelimited): raw = try reader.readLengthDelimited()
                    case (2, .varint): rawSize = Int(truncatingIfNeeded: try reader.readVarint())
                    case (3, .lengthDelimited): zlib = try reader.readLengthDelimited()
                    case (4, _), (5, _), (6, _), (7, _):
                        throw OSMReaderError(
                            kind: .unsupported,
                            message: "blob compression \(field) (lzma, bzip2, lz4 or zstd) is not supported",
                            offset: dataOffset)
                    default: try reader.skip(type)
                    }
                }
            } catch {
                var located = error
                located.block = index
                throw located
            }
            if let raw { return Array(UnsafeRawBufferPointer(rebasing: bytes[raw])) }
            guard let zlib, let rawSize, rawSize >= 0, rawSize <= PBFReader.maxBlobSize else {
                throw OSMReaderError(
                    kind: .malformed, message: "the blob has neither raw data nor zlib data with a valid size",
                    offset: dataOffset, block: index)
            }
            do throws(ZlibError) {
                return try Zlib.inflate(UnsafeRawBufferPointer(rebasing: bytes[zlib]), rawSize: rawSize)
            } catch {
                throw OSMReaderError(
                    kind: .malformed, message: error.message, offset: dataOffset + zlib.lowerBound, block: index)
            }
        }
    }
}

/// Reads the file as a sequence of length-prefixed blob headers and blobs.
struct BlobFile {
    private let stream: ByteStream
    /// Bytes read so far (inflated bytes for a compressed file).
    private(set) var offset = 0

    init(stream: ByteStream) {
        self.stream = stream
    }

    /// The next blob, or nil at a clean end of file.
    mutating func nextBlob(index: Int) throws(OSMReaderError) -> RawBlob? {
        let start = offset
        let prefix = try read(4, what: "the blob header length", block: index, allowEOF: true)
        guard let prefix else { return nil }
        let headerSize = prefix.reduce(0) { $0 << 8 | Int($1) }
        guard headerSize > 0, headerSize <= PBFReader.maxBlobHeaderSize else {
            throw OSMReaderError(
                kind: .malformed,
                message: "a blob header of \(headerSize) bytes is outside 1...\(PBFReader.maxBlobHeaderSize)",
                offset: start, block: index)
        }
        let headerOffset = offset
        let headerBytes = try read(headerSize, what: "the blob header", block: index)!
        var type = ""
        var dataSize = -1
        try withBytes(headerBytes) { bytes throws(OSMReaderError) in
            var reader = ProtobufReader(bytes, baseOffset: headerOffset)
            do throws(OSMReaderError) {
                while let (field, wireType) = try reader.readTag() {
                    switch (field, wireType) {
                    case (1, .lengthDelimited): type = try reader.readString()
                    case (3, .varint): dataSize = Int(truncatingIfNeeded: try reader.readVarint())
                    default: try reader.skip(wireType)
                    }
                }
            } catch {
                var located = error
                located.block = index
                throw located
            }
        }
        guard dataSize >= 0, dataSize <= PBFReader.maxBlobSize else {
            throw OSMReaderError(
                kind: .malformed, message: "a blob of \(dataSize) bytes is outside 0...\(PBFReader.maxBlobSize)",
                offset: headerOffset, block: index)
        }
        let dataOffset = offset
        let data = try read(dataSize, what: "the blob", block: index)!
        return RawBlob(
            index: index, type: type, offset: start, dataOffset: dataOffset, fileOffset: stream.fileOffset, data: data)
    }

    private mutating func read(_ count: Int, what: String, block: Int, allowEOF: Bool = false) throws(OSMReaderError)
        -> [UInt8]?
    {
        let data = try stream.read(count)
        if data.isEmpty && allowEOF { return nil }
        guard data.count == count else {
            throw OSMReaderError(
                kind: .truncated, message: "the file ends inside \(what) (\(data.count) of \(count) bytes)",
                offset: offset + data.count, block: block)
        }
        offset += count
        return data
    }
}

/// Decodes the `HeaderBlock` message.
enum HeaderDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, baseOffset: Int) throws(OSMReaderError) -> OSMHeader {
        var reader = ProtobufReader(bytes, baseOffset: baseOffset)
        var header = OSMHeader(
            bounds: nil, requiredFeatures: [], optionalFeatures: [], writingProgram: nil, source: nil)
        while let (field, type) = try reader.readTag() {
            switch (field, type) {
            case (1, .lengthDelimited):
                var box = try reader.readMessage()
                var edges = [Int64](repeating: 0, count: 4)
                while let (edge, edgeType) = try box.readTag() {
                    if (1...4).contains(edge) && edgeType == .varint {
                        edges[edge - 1] = try box.readSignedVarint()
                    } else {
                        try box.skip(edgeType)
                    }
                }
                header.bounds = CoordinateBounds(
                    southWest: Coordinate(latitude: Double(edges[3]) / 1e9, longitude: Double(edges[0]) / 1e9),
                    northEast: Coordinate(latitude: Double(edges[2]) / 1e9, longitude: Double(edges[1]) / 1e9))
            case (4, .lengthDelimited): header.requiredFeatures.append(try reader.readString())
            case (5, .lengthDelimited): header.optionalFeatures.append(try reader.readString())
            case (16, .lengthDelimited): header.writingProgram = try reader.readString()
            case (17, .lengthDelimited): header.source = try reader.readString()
            case (32, .varint): header.replicationTimestamp = Int64(truncatingIfNeeded: try reader.readVarint())
            case (33, .varint): header.replicationSequence = Int64(truncatingIfNeeded: try reader.readVarint())
            case (34, .lengthDelimited): header.replicationURL = try reader.readString()
            default: try reader.skip(type)
            }
        }
        return header
    }
}

/// Calls `body` with the bytes of `array`, keeping its typed error.
func withBytes<T>(_ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(OSMReaderError) -> T) throws(OSMReaderError)
    -> T
{
    let result: Result<T, OSMReaderError> = array.withUnsafeBytes { bytes in
        Result { () throws(OSMReaderError) -> T in try body(bytes) }
    }
    return try result.get()
}
