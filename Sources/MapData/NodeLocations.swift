import Foundation
import GeoCore

/// Where an import keeps node locations until the ways that use them are built: in memory
/// (a dictionary, about 50 bytes a node: right for a city) or in a flat file indexed by node
/// id (8 bytes a slot, memory-mapped and sparse: what osmium's and osm2pgsql's "flat nodes"
/// do, right for a country, where memory holds only the pages in use).
public enum NodeCache: Sendable, Equatable {
    /// In memory up to ``OSMImporter/flatNodesThreshold`` bytes of input, a temporary flat
    /// file beyond.
    case automatic
    case memory
    /// A flat file at this path (created or overwritten, and left in place after the import:
    /// a place on a disk with room, such as `/var/tmp`, rather than a memory-backed `/tmp`).
    case file(String)
}

/// Node locations by OSM id, during one import.
protocol NodeLocations: AnyObject {
    func set(_ id: Int64, _ coordinate: Coordinate) throws
    func get(_ id: Int64) -> Coordinate?
}

/// Node locations in a dictionary.
final class MemoryNodeLocations: NodeLocations {
    private var locations: [Int64: Coordinate] = [:]

    func set(_ id: Int64, _ coordinate: Coordinate) { locations[id] = coordinate }
    func get(_ id: Int64) -> Coordinate? { locations[id] }
}

/// Node locations in a memory-mapped sparse file: slot `id` (8 bytes) holds latitude and
/// longitude in 1e-7 degrees, each offset so that an all-zero slot (never written, a hole of
/// the sparse file) means "no such node". Grows by doubling as ids grow; ids below zero
/// (editors' new objects) go to a small dictionary beside it.
final class FlatNodeLocations: NodeLocations {
    let path: String
    private let descriptor: Int32
    private var base: UnsafeMutablePointer<UInt64>?
    /// Slots mapped.
    private var capacity = 0
    private var negative: [Int64: Coordinate] = [:]
    /// Removes the file when done (a temporary cache).
    private let isTemporary: Bool

    /// 1e-7-degree offsets that make every valid latitude and longitude positive.
    private static let latitudeOffset: Int64 = 900_000_001
    private static let longitudeOffset: Int64 = 1_800_000_001

    init(path: String, isTemporary: Bool) throws(DataError) {
        self.path = path
        self.isTemporary = isTemporary
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DataError(
                .file, message: "cannot create the node cache: \(String(cString: strerror(errno)))", path: path)
        }
        try grow(to: 1 << 24)
    }

    deinit {
        if let base { munmap(base, capacity * 8) }
        close(descriptor)
        if isTemporary { unlink(path) }
    }

    /// Maps at least `slots` slots, the file extended (sparsely) to match.
    private func grow(to slots: Int) throws(DataError) {
        var size = max(capacity, 1 << 24)
        while size < slots { size *= 2 }
        if let base { munmap(base, capacity * 8) }
        base = nil
        guard ftruncate(descriptor, off_t(size * 8)) == 0 else {
            throw DataError(
                .file, message: "cannot grow the node cache to \(size * 8) bytes: \(String(cString: strerror(errno)))",
                path: path)
        }
        let mapped = mmap(nil, size * 8, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw DataError(
                .file, message: "cannot map the node cache: \(String(cString: strerror(errno)))", path: path)
        }
        // Read-ahead brings neighbouring pages that ways rarely need.
        madvise(mapped, size * 8, MADV_RANDOM)
        base = mapped.assumingMemoryBound(to: UInt64.self)
        capacity = size
    }

    func set(_ id: Int64, _ coordinate: Coordinate) throws {
        guard id >= 0 else {
            negative[id] = coordinate
            return
        }
        if id >= capacity { try grow(to: Int(id) + 1) }
        let latitude = UInt64(Int64((coordinate.latitude * 1e7).rounded()) + Self.latitudeOffset)
        let longitude = UInt64(Int64((coordinate.longitude * 1e7).rounded()) + Self.longitudeOffset)
        base?[Int(id)] = latitude << 32 | longitude
    }

    func get(_ id: Int64) -> Coordinate? {
        guard id >= 0 else { return negative[id] }
        guard id < capacity, let slot = base?[Int(id)], slot != 0 else { return nil }
        return Coordinate(
            latitude: Double(Int64(slot >> 32) - Self.latitudeOffset) / 1e7,
            longitude: Double(Int64(slot & 0xFFFF_FFFF) - Self.longitudeOffset) / 1e7)
    }
}
