import CairoKit
import Foundation

/// Decoded images (world rasters, ground overlays) kept for reuse, within a byte budget: the
/// least recently used are dropped first, so a long-running process holds at most
/// ``capacity`` bytes of pixels however many images it meets. A file changed since it was
/// decoded (another file at the path, or another size or modification date) is decoded again.
///
/// One cache belongs to a renderer, or to the renderers of one tile job (it is thread-safe,
/// so they share one decode of the world mosaic).
public final class RasterCache: @unchecked Sendable {
    /// The most bytes of decoded pixels kept.
    public let capacity: Int
    // Guarded by `lock`.
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var clock = 0

    private struct Entry {
        var image: RasterImage
        var stamp: FileStamp
        var lastUse: Int
        var bytes: Int { image.width * image.height * image.channels }
    }

    /// What identifies a file's version: the file (a replacement renamed into place is
    /// another file), its size and its modification date.
    private struct FileStamp: Equatable {
        var file: Int?
        var size: Int
        var modified: Date?

        init?(path: String) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let size = attributes[.size] as? Int
            else { return nil }
            file = attributes[.systemFileNumber] as? Int
            self.size = size
            modified = attributes[.modificationDate] as? Date
        }
    }

    /// - Parameter capacity: the byte budget; default 256 MiB (the Blue Marble and the shaded
    ///   relief of the world take about 44 and 175 MB).
    public init(capacity: Int = 256 << 20) {
        self.capacity = capacity
    }

    /// The image in the file at `path`, decoded once while it stays in the cache.
    ///
    /// - Throws: `CairoError` when the file cannot be read or decoded.
    public func image(at path: String) throws -> RasterImage {
        let stamp = FileStamp(path: path)
        lock.lock()
        clock += 1
        if var entry = entries[path], let stamp, entry.stamp == stamp {
            entry.lastUse = clock
            entries[path] = entry
            lock.unlock()
            return entry.image
        }
        lock.unlock()
        let image = try RasterImage(file: path)
        guard let stamp else { return image }
        lock.lock()
        defer { lock.unlock() }
        entries[path] = Entry(image: image, stamp: stamp, lastUse: clock)
        evict(keeping: path)
        return image
    }

    /// True when the image of the file at `path` is held decoded.
    public func holds(_ path: String) -> Bool { lock.withLock { entries[path] != nil } }

    /// Bytes of pixels held now.
    public var size: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.values.reduce(0) { $0 + $1.bytes }
    }

    /// Drops the least recently used images until the cache fits its budget; the image just
    /// decoded stays even when it alone is larger.
    private func evict(keeping path: String) {
        var total = entries.values.reduce(0) { $0 + $1.bytes }
        for (key, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where total > capacity {
            guard key != path else { continue }
            entries[key] = nil
            total -= entry.bytes
        }
    }
}
