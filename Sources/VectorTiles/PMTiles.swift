import Foundation
import GeoCore
import ZlibKit

/// PMTiles version 3: one file of tiles any static host serves, read by clients with HTTP
/// `Range` requests. A 127-byte header, a root directory within the first 16 KiB, JSON
/// metadata, leaf directories, then the tile data; directories and metadata gzip-compressed;
/// tiles addressed by a Hilbert-curve tile ID, written in that order (clustered), each distinct
/// content once (deduplicated) and runs of the same content as one entry (run-length).
public enum PMTiles {
    /// The tile ID of `tile`: the tiles of every lower zoom, then the tile's place along the
    /// zoom's Hilbert curve.
    public static func tileID(_ tile: TileID) -> UInt64 {
        var base: UInt64 = 0
        for zoom in 0..<tile.z { base += UInt64(1) << (2 * zoom) }
        var (x, y) = (UInt64(tile.x), UInt64(tile.y))
        var distance: UInt64 = 0
        var side = (UInt64(1) << tile.z) / 2
        while side > 0 {
            let rx: UInt64 = x & side > 0 ? 1 : 0
            let ry: UInt64 = y & side > 0 ? 1 : 0
            distance += side * side * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = side - 1 &- x
                    y = side - 1 &- y
                }
                (x, y) = (y, x)
            }
            // Keep the coordinates within the quadrant the next, smaller side looks at.
            x &= side - 1
            y &= side - 1
            side /= 2
        }
        return base + distance
    }

    /// The tile a tile ID stands for (the inverse of ``tileID(_:)``).
    public static func tile(id: UInt64) -> TileID {
        var base: UInt64 = 0
        var zoom = 0
        while zoom < 32 && base + (UInt64(1) << (2 * zoom)) <= id {
            base += UInt64(1) << (2 * zoom)
            zoom += 1
        }
        var position = id - base
        var (x, y): (UInt64, UInt64) = (0, 0)
        var side: UInt64 = 1
        while side < UInt64(1) << zoom {
            let rx = 1 & (position / 2)
            let ry = 1 & (position ^ rx)
            if ry == 0 {
                if rx == 1 {
                    x = side - 1 - x
                    y = side - 1 - y
                }
                (x, y) = (y, x)
            }
            x += side * rx
            y += side * ry
            position /= 4
            side *= 2
        }
        return TileID(x: Int(x), y: Int(y), z: zoom)
    }

    /// One directory entry: a run of `runLength` tiles from `tileID` with the same content at
    /// `offset` (from the start of the tile data) and `length`; a run length of 0 points to a
    /// leaf directory instead (offset from the start of the leaf directories).
    struct Entry: Equatable {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt32
        var runLength: UInt32
    }

    /// The directory's bytes before compression: the count, then each column in turn, tile IDs
    /// as deltas and offsets as 0 where an entry follows the one before it.
    static func serialize(_ entries: [Entry]) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.varint(UInt64(entries.count))
        var previous: UInt64 = 0
        for entry in entries {
            writer.varint(entry.tileID - previous)
            previous = entry.tileID
        }
        for entry in entries { writer.varint(UInt64(entry.runLength)) }
        for entry in entries { writer.varint(UInt64(entry.length)) }
        for (index, entry) in entries.enumerated() {
            if index > 0, entry.offset == entries[index - 1].offset + UInt64(entries[index - 1].length) {
                writer.varint(0)
            } else {
                writer.varint(entry.offset + 1)
            }
        }
        return writer.bytes
    }

    /// Reads a directory written by ``serialize(_:)``.
    static func deserialize(_ bytes: [UInt8]) throws(PMTilesError) -> [Entry] {
        let result: Result<[Entry], PMTilesError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(PMTilesError) -> [Entry] in
                var reader = ProtobufReader<PMTilesError>(buffer)
                let count = try reader.readVarint()
                guard count <= UInt64(bytes.count) else { throw reader.error("a directory of \(count) entries") }
                var entries = [Entry](
                    repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
                var last: UInt64 = 0
                for index in entries.indices {
                    last += try reader.readVarint()
                    entries[index].tileID = last
                }
                for index in entries.indices {
                    entries[index].runLength = UInt32(truncatingIfNeeded: try reader.readVarint())
                }
                for index in entries.indices {
                    entries[index].length = UInt32(truncatingIfNeeded: try reader.readVarint())
                }
                for index in entries.indices {
                    let value = try reader.readVarint()
                    if value == 0 && index > 0 {
                        entries[index].offset = entries[index - 1].offset + UInt64(entries[index - 1].length)
                    } else {
                        guard value > 0 else { throw reader.error("the first entry's offset is missing") }
                        entries[index].offset = value - 1
                    }
                }
                return entries
            }
        }
        return try result.get()
    }

    /// The header's fixed size, bytes.
    static let headerSize = 127
    /// The bytes a reader takes first: the header and the root directory after it (16,384).
    static let firstRead = 16_384
    /// The header and the root directory fit in this many bytes, so that a client gets both
    /// with its first request.
    static let rootLimit = 16_384

    /// Compression codes of the header.
    enum Compression: UInt8 {
        case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4
    }
}

/// Why a file is not a PMTiles archive this reader reads, or could not be written.
public struct PMTilesError: Error, Equatable, CustomStringConvertible, ProtobufFailure {
    /// What was wrong, one sentence.
    public var message: String
    /// Byte offset in the file or directory where it was found, when known.
    public var offset: Int?

    /// An error saying `message`, at `offset` when known.
    public init(_ message: String, offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }

    /// A malformed directory at byte `offset` of it.
    public init(protobuf message: String, offset: Int) { self.init(message, offset: offset) }

    public var description: String { offset.map { "\(message) (at byte \($0))" } ?? message }
}

/// Writes a PMTiles archive: tiles added in any order, then ``finish(metadata:)`` sorts them by
/// tile ID, deduplicates their contents, writes the directories (leaves when the root would
/// not fit in 16 KiB) and renames the finished file over `path`, so that a reader never sees
/// half an archive.
public final class PMTilesWriter {
    /// The archive's path.
    public let path: String
    /// What the header says of the tiles.
    public struct Header: Sendable {
        /// The tiles' zooms.
        public var zooms: ClosedRange<Int>
        /// The area they cover.
        public var bounds: CoordinateBounds
        /// 1 for vector tiles (MVT), 2 PNG, 3 JPEG.
        public var tileType: UInt8 = 1
        /// Whether each tile is gzip-compressed (vector tiles are).
        public var gzipTiles = true

        /// A header of `zooms` over `bounds`.
        public init(zooms: ClosedRange<Int>, bounds: CoordinateBounds) {
            self.zooms = zooms
            self.bounds = bounds
        }
    }

    private let temporary: String
    private let data: FileHandle
    private var written: UInt64 = 0
    /// Each distinct small content once (at most ``dedupedSize`` bytes: the sea, empty land,
    /// repeated patterns), by its bytes: its offset and length.
    private var contents: [[UInt8]: (offset: UInt64, length: UInt32)] = [:]
    /// Tile contents written, duplicates counted once.
    private var distinct = 0
    /// Contents up to this size are looked up before they are written again: 4 KiB. Larger
    /// tiles are all but always unique, and are not kept in memory.
    static let dedupedSize = 4_096
    private var tiles: [(id: UInt64, offset: UInt64, length: UInt32)] = []

    /// Starts an archive at `path` (written to a temporary file beside it until finished).
    /// - Throws: ``PMTilesError`` when the temporary file cannot be created.
    public init(path: String) throws(PMTilesError) {
        self.path = path
        temporary = Self.hidden(path, "tiles")
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else { throw PMTilesError("cannot create '\(temporary)'") }
        data = handle
    }

    deinit {
        try? data.close()
        try? FileManager.default.removeItem(atPath: temporary)
    }

    /// Tiles added so far.
    public var count: Int { tiles.count }

    /// Adds `tile` with `bytes` as they are stored (gzip-compressed for vector tiles); a tile
    /// already added is replaced.
    public func add(_ tile: TileID, bytes: [UInt8]) throws(PMTilesError) {
        let id = PMTiles.tileID(tile)
        if let known = contents[bytes] {
            tiles.append((id, known.offset, known.length))
            return
        }
        do { try data.write(contentsOf: Data(bytes)) } catch {
            throw PMTilesError("cannot write tile data to '\(temporary)': \(error)")
        }
        let place = (offset: written, length: UInt32(bytes.count))
        if bytes.count <= Self.dedupedSize { contents[bytes] = place }
        distinct += 1
        tiles.append((id, place.offset, place.length))
        written += UInt64(bytes.count)
    }

    /// Writes the header, directories and metadata before the tile data and moves the archive
    /// into place.
    /// - Parameter metadata: the JSON object of the archive's metadata (`vector_layers`, …).
    public func finish(header: Header, metadata: String) throws(PMTilesError) {
        // Sorted by tile ID, the last added winning; runs of one content merged.
        var byID: [UInt64: (offset: UInt64, length: UInt32)] = [:]
        for tile in tiles { byID[tile.id] = (tile.offset, tile.length) }
        var entries: [PMTiles.Entry] = []
        for id in byID.keys.sorted() {
            let place = byID[id]!
            if var last = entries.last, last.offset == place.offset, last.length == place.length,
                last.tileID + UInt64(last.runLength) == id
            {
                last.runLength += 1
                entries[entries.count - 1] = last
            } else {
                entries.append(PMTiles.Entry(tileID: id, offset: place.offset, length: place.length, runLength: 1))
            }
        }
        let (root, leaves) = try Self.directories(entries)
        let compressedMetadata = try Self.gzip(Array(metadata.utf8))
        let rootOffset = UInt64(PMTiles.headerSize)
        let metadataOffset = rootOffset + UInt64(root.count)
        let leavesOffset = metadataOffset + UInt64(compressedMetadata.count)
        let dataOffset = leavesOffset + UInt64(leaves.count)

        var head = [UInt8](repeating: 0, count: PMTiles.headerSize)
        func put(_ value: UInt64, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { head.replaceSubrange(offset..<offset + 8, with: $0) }
        }
        func put32(_ value: Int32, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { head.replaceSubrange(offset..<offset + 4, with: $0) }
        }
        head.replaceSubrange(0..<7, with: Array("PMTiles".utf8))
        head[7] = 3
        put(rootOffset, at: 8)
        put(UInt64(root.count), at: 16)
        put(metadataOffset, at: 24)
        put(UInt64(compressedMetadata.count), at: 32)
        put(leavesOffset, at: 40)
        put(UInt64(leaves.count), at: 48)
        put(dataOffset, at: 56)
        put(written, at: 64)
        put(UInt64(byID.count), at: 72)
        put(UInt64(entries.count), at: 80)
        put(UInt64(distinct), at: 88)
        head[96] = 1
        head[97] = PMTiles.Compression.gzip.rawValue
        head[98] = (header.gzipTiles ? PMTiles.Compression.gzip : .none).rawValue
        head[99] = header.tileType
        head[100] = UInt8(header.zooms.lowerBound)
        head[101] = UInt8(header.zooms.upperBound)
        let southWest = header.bounds.southWest ?? Coordinate(latitude: -85, longitude: -180)
        let northEast = header.bounds.northEast ?? Coordinate(latitude: 85, longitude: 180)
        func e7(_ degrees: Double) -> Int32 { Int32((degrees * 1e7).rounded()) }
        put32(e7(southWest.longitude), at: 102)
        put32(e7(southWest.latitude), at: 106)
        put32(e7(northEast.longitude), at: 110)
        put32(e7(northEast.latitude), at: 114)
        head[118] = UInt8(header.zooms.lowerBound + (header.zooms.upperBound - header.zooms.lowerBound) / 2)
        put32(e7((southWest.longitude + northEast.longitude) / 2), at: 119)
        put32(e7((southWest.latitude + northEast.latitude) / 2), at: 123)

        let final = Self.hidden(path, "part")
        do {
            try data.synchronize()
            try data.close()
            guard
                FileManager.default.createFile(
                    atPath: final, contents: Data(head + root + compressedMetadata + leaves)),
                let out = FileHandle(forWritingAtPath: final), let input = FileHandle(forReadingAtPath: temporary)
            else { throw PMTilesError("cannot open '\(final)' to write the tile data") }
            defer {
                try? out.close()
                try? input.close()
            }
            try out.seekToEnd()
            while let chunk = try input.read(upToCount: 1 << 22), !chunk.isEmpty { try out.write(contentsOf: chunk) }
            try out.synchronize()
            guard rename(final, path) == 0 else {
                throw PMTilesError("cannot move the archive into place: \(String(cString: strerror(errno)))")
            }
        } catch let error as PMTilesError {
            try? FileManager.default.removeItem(atPath: final)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: final)
            throw PMTilesError("cannot write '\(path)': \(error)")
        }
    }

    /// A hidden file beside `path` for one writer's `part`: `.NAME.PART.UUID.tmp`.
    static func hidden(_ path: String, _ part: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return (directory.isEmpty ? "." : directory) + "/." + (path as NSString).lastPathComponent + ".\(part)."
            + UUID().uuidString + ".tmp"
    }

    /// The compressed root directory and leaf directories: everything in the root when it fits
    /// in 16 KiB beside the header, else leaves of 4,096 entries or more (doubling until the
    /// root of their first tile IDs fits).
    static func directories(_ entries: [PMTiles.Entry]) throws(PMTilesError) -> (root: [UInt8], leaves: [UInt8]) {
        let whole = try gzip(PMTiles.serialize(entries))
        if whole.count <= PMTiles.rootLimit - PMTiles.headerSize { return (whole, []) }
        var size = 4_096
        while true {
            var leaves: [UInt8] = []
            var root: [PMTiles.Entry] = []
            for start in stride(from: 0, to: entries.count, by: size) {
                let chunk = Array(entries[start..<min(start + size, entries.count)])
                let leaf = try gzip(PMTiles.serialize(chunk))
                root.append(
                    PMTiles.Entry(
                        tileID: chunk[0].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0)
                )
                leaves += leaf
            }
            let compressed = try gzip(PMTiles.serialize(root))
            if compressed.count <= PMTiles.rootLimit - PMTiles.headerSize { return (compressed, leaves) }
            size *= 2
        }
    }

    static func gzip(_ bytes: [UInt8]) throws(PMTilesError) -> [UInt8] {
        do { return try Zlib.gzip(bytes) } catch { throw PMTilesError("cannot compress: \(error)") }
    }
}

/// Reads tiles out of a PMTiles archive by byte ranges, as a client reads one from a static
/// host: the header and root directory once, then a leaf directory (cached) and the tile.
/// The archive is a local file (``init(path:)``) or a URL on any host that answers HTTP
/// `Range` requests: an object store, a CDN, another `openmaps serve` (``init(url:)``).
/// Thread-safe: reads are positioned, and only the leaf cache is locked.
public final class PMTilesArchive: @unchecked Sendable {
    /// The archive's path, or its URL.
    public let path: String
    /// The tiles' zooms.
    public let zooms: ClosedRange<Int>
    /// 1 vector tiles (MVT), 2 PNG, 3 JPEG, 0 unknown.
    public let tileType: UInt8
    /// Whether tiles are stored gzip-compressed.
    public let gzipTiles: Bool
    /// The metadata's JSON text.
    public let metadata: String
    /// The archive's size in bytes.
    public var size: UInt64 { bytes.size }
    /// What tells this archive from another or an earlier build of it (an HTTP entity tag's
    /// text): a file's size and modification time in hex, a host's `ETag`.
    public var etag: String { bytes.etag }
    /// True when the archive is read from a host over HTTP, not from a file.
    public var isRemote: Bool { bytes is HTTPRangeBytes }

    private let bytes: any ArchiveBytes
    private let root: [PMTiles.Entry]
    private let leavesOffset: UInt64
    private let dataOffset: UInt64
    private let internalCompression: UInt8
    private let lock = NSLock()
    private var leaves: [UInt64: [PMTiles.Entry]] = [:]

    /// Opens the archive at `path`.
    /// - Throws: ``PMTilesError`` when it cannot be read or is not PMTiles version 3.
    public convenience init(path: String) throws(PMTilesError) {
        try self.init(bytes: try FileBytes(path: path), name: path)
    }

    /// Opens the archive at `url` (`http://` or `https://`), read by `Range` requests.
    /// - Throws: ``PMTilesError`` when the host does not answer ranges, the archive cannot be
    ///   read, or it is not PMTiles version 3.
    public convenience init(url: URL) throws(PMTilesError) {
        try self.init(bytes: try HTTPRangeBytes(url: url), name: url.absoluteString)
    }

    /// Opens the archive a `serve --tiles` argument names: a URL when it starts with
    /// `http://` or `https://`, else a file's path.
    public convenience init(location: String) throws(PMTilesError) {
        let lowered = location.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: location) else { throw PMTilesError("'\(location)' is not a URL") }
            try self.init(url: url)
        } else {
            try self.init(path: location)
        }
    }

    private init(bytes: any ArchiveBytes, name: String) throws(PMTilesError) {
        self.path = name
        self.bytes = bytes
        let size = bytes.size
        guard size >= UInt64(PMTiles.headerSize) else {
            throw PMTilesError("'\(name)' is not a PMTiles archive: \(size) bytes, shorter than its 127-byte header")
        }
        // The header and, in the same read, the root directory a writer puts right after it
        // (16 KB at most, as the specification asks): one round trip to a host.
        let first = try bytes.read(at: 0, count: Int(min(size, UInt64(PMTiles.firstRead))))
        let head = Array(first[0..<PMTiles.headerSize])
        guard Array(head[0..<7]) == Array("PMTiles".utf8) else {
            throw PMTilesError("'\(name)' is not a PMTiles archive (no PMTiles magic)", offset: 0)
        }
        guard head[7] == 3 else { throw PMTilesError("'\(name)' is PMTiles version \(head[7]); 3 is read", offset: 7) }
        func u64(_ offset: Int) -> UInt64 {
            head[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        internalCompression = head[97]
        guard [PMTiles.Compression.none.rawValue, PMTiles.Compression.gzip.rawValue].contains(internalCompression)
        else { throw PMTilesError("'\(name)' compresses its directories with code \(internalCompression)", offset: 97) }
        gzipTiles = head[98] == PMTiles.Compression.gzip.rawValue
        tileType = head[99]
        guard head[100] <= head[101] else { throw PMTilesError("'\(name)' has a minimum zoom above its maximum") }
        zooms = Int(head[100])...Int(head[101])
        leavesOffset = u64(40)
        dataOffset = u64(56)
        func section(_ offset: UInt64, _ length: UInt64) throws(PMTilesError) -> [UInt8] {
            guard offset.addingReportingOverflow(length).partialValue <= size, length <= UInt64(Int32.max) else {
                throw PMTilesError("'\(name)' names a section past its end (\(offset) + \(length))")
            }
            if offset + length <= UInt64(first.count) { return Array(first[Int(offset)..<Int(offset + length)]) }
            return try bytes.read(at: offset, count: Int(length))
        }
        let rootBytes = try section(u64(8), u64(16))
        let metadataBytes = try section(u64(24), u64(32))
        let compression = internalCompression
        root = try PMTiles.deserialize(Self.inflate(rootBytes, compression))
        metadata = String(decoding: try Self.inflate(metadataBytes, compression), as: UTF8.self)
    }

    /// The stored bytes of `tile` (compressed as ``gzipTiles`` says), nil when the archive
    /// has no such tile.
    public func tile(_ tile: TileID) throws(PMTilesError) -> [UInt8]? {
        guard zooms.contains(tile.z) else { return nil }
        let id = PMTiles.tileID(tile)
        var directory = root
        for _ in 0..<4 {
            guard let entry = Self.find(id, in: directory) else { return nil }
            if entry.runLength > 0 {
                return try bytes.read(at: dataOffset + entry.offset, count: Int(entry.length))
            }
            directory = try leaf(at: entry.offset, length: entry.length)
        }
        throw PMTilesError("'\(path)' nests its directories deeper than 3 levels")
    }

    private func leaf(at offset: UInt64, length: UInt32) throws(PMTilesError) -> [PMTiles.Entry] {
        if let known = lock.withLock({ leaves[offset] }) { return known }
        // Read and inflated outside the lock: two threads may both read a leaf the first time.
        let stored = try bytes.read(at: leavesOffset + offset, count: Int(length))
        let entries = try PMTiles.deserialize(Self.inflate(stored, internalCompression))
        lock.withLock {
            if leaves.count > 4_096 { leaves.removeAll() }
            leaves[offset] = entries
        }
        return entries
    }

    /// The entry covering tile ID `id`: the last one starting at or before it, when its run
    /// (or, for a leaf, anything) can hold it.
    static func find(_ id: UInt64, in entries: [PMTiles.Entry]) -> PMTiles.Entry? {
        var low = 0
        var high = entries.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if entries[middle].tileID == id { return entries[middle] }
            if entries[middle].tileID < id { low = middle + 1 } else { high = middle - 1 }
        }
        guard high >= 0 else { return nil }
        let entry = entries[high]
        if entry.runLength == 0 { return entry }
        return id - entry.tileID < UInt64(entry.runLength) ? entry : nil
    }

    private static func inflate(_ bytes: [UInt8], _ compression: UInt8) throws(PMTilesError) -> [UInt8] {
        guard compression == PMTiles.Compression.gzip.rawValue else { return bytes }
        do { return try Zlib.gunzip(bytes) } catch { throw PMTilesError("a directory does not inflate: \(error)") }
    }
}
