import Foundation

/// Rendered pictures kept for reuse, bounded twice: the most recently used in memory (up to
/// ``memoryBytes``), and every one in a folder on disk (up to ``diskBytes``), the least
/// recently used dropped first from each. Files are named by a hash of their key, so nothing
/// a request says ever becomes a path. A block of tiles being rendered is rendered once: the
/// other requests for its tiles wait for it.
///
/// Thread-safe: the server's threads share one cache.
final class TileCache: @unchecked Sendable {
    /// A cached picture and its entity tag (a quoted hash of its bytes).
    struct Entry: Sendable {
        var bytes: [UInt8]
        var etag: String
    }

    let memoryBytes: Int
    let diskBytes: Int
    let directory: URL?

    // Guarded by `lock`.
    private let lock = NSCondition()
    private var memory: [String: (entry: Entry, lastUse: Int)] = [:]
    private var memoryTotal = 0
    private var disk: [String: (size: Int, lastUse: Int)] = [:]
    private var diskTotal = 0
    private var clock = 0
    private var rendering: Set<String> = []

    /// A cache of `memoryBytes` in memory and, when `directory` is given, `diskBytes` in that
    /// folder (created if missing; files left by an earlier run are kept and counted).
    init(memoryBytes: Int, directory: URL?, diskBytes: Int) throws {
        self.memoryBytes = memoryBytes
        self.diskBytes = diskBytes
        self.directory = directory
        if let directory {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let files = try FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey])
            // Older files are taken as less recently used.
            let dated = files.filter { $0.pathExtension == "png" }.compactMap { file -> (String, Int, Date)? in
                guard let values = try? file.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey]),
                    let size = values.fileSize
                else { return nil }
                return (file.lastPathComponent, size, values.contentModificationDate ?? .distantPast)
            }
            for (name, size, _) in dated.sorted(by: { $0.2 < $1.2 }) {
                clock += 1
                disk[name] = (size, clock)
                diskTotal += size
            }
        }
    }

    /// The picture cached under `key`, or, when none is, the pictures `render` draws (the one
    /// for `key` among them), cached, with the one for `key` given back. Requests for keys of
    /// one `group` (a block of tiles) wait while it renders.
    ///
    /// - Throws: what `render` throws; nothing is cached then.
    func entry(
        _ key: String, group: String, render: () throws -> [(key: String, bytes: [UInt8])]
    ) throws -> Entry {
        lock.lock()
        while true {
            if let found = lookUp(key) {
                lock.unlock()
                return found
            }
            if !rendering.contains(group) { break }
            lock.wait()
        }
        rendering.insert(group)
        lock.unlock()
        defer {
            lock.lock()
            rendering.remove(group)
            lock.broadcast()
            lock.unlock()
        }
        let rendered = try render()
        var asked: Entry?
        let entries = rendered.map { ($0.key, Entry(bytes: $0.bytes, etag: Self.etag(of: $0.bytes))) }
        for (name, entry) in entries {
            if name == key { asked = entry }
            writeToDisk(name, entry.bytes)
        }
        lock.lock()
        for (name, entry) in entries { keepInMemory(name, entry) }
        lock.unlock()
        guard let asked else { throw CacheError(message: "the rendered block does not hold \(key)") }
        return asked
    }

    /// The picture cached under `key`, from memory or disk, or nil (nothing is rendered).
    func cached(_ key: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        return lookUp(key)
    }

    /// The bytes counted in memory and on disk.
    var usage: (memory: Int, disk: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (memoryTotal, diskTotal)
    }

    struct CacheError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The entry under `key` from memory, else from disk (then kept in memory). Call with the
    /// lock held.
    private func lookUp(_ key: String) -> Entry? {
        clock += 1
        if var found = memory[key] {
            found.lastUse = clock
            memory[key] = found
            return found.entry
        }
        let name = Self.fileName(key)
        guard let directory, var file = disk[name] else { return nil }
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
            // Removed from outside: forget it.
            disk[name] = nil
            diskTotal -= file.size
            return nil
        }
        file.lastUse = clock
        disk[name] = file
        let entry = Entry(bytes: Array(data), etag: Self.etag(of: Array(data)))
        keepInMemory(key, entry)
        return entry
    }

    /// Keeps an entry in memory, dropping the least recently used down to 90 % of the budget
    /// when it is passed. Call with the lock held.
    private func keepInMemory(_ key: String, _ entry: Entry) {
        clock += 1
        if let old = memory[key] { memoryTotal -= old.entry.bytes.count }
        memory[key] = (entry, clock)
        memoryTotal += entry.bytes.count
        guard memoryTotal > memoryBytes else { return }
        for (name, value) in memory.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard memoryTotal > memoryBytes * 9 / 10 else { break }
            memory[name] = nil
            memoryTotal -= value.entry.bytes.count
        }
    }

    /// Writes a picture to the folder (a temporary file renamed into place), dropping the
    /// least recently used files down to 90 % of the budget when it is passed. A failed write
    /// only means the picture is not kept on disk.
    private func writeToDisk(_ key: String, _ bytes: [UInt8]) {
        guard let directory else { return }
        let name = Self.fileName(key)
        let path = directory.appendingPathComponent(name)
        let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString)")
        do {
            try Data(bytes).write(to: temporary)
        } catch {
            return
        }
        guard rename(temporary.path, path.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        if let old = disk[name] { diskTotal -= old.size }
        disk[name] = (bytes.count, clock)
        diskTotal += bytes.count
        guard diskTotal > diskBytes else { return }
        for (file, value) in disk.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard diskTotal > diskBytes * 9 / 10 else { break }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
            disk[file] = nil
            diskTotal -= value.size
        }
    }

    /// A key's file name: its 64-bit FNV-1a hash in hex, `.png`.
    static func fileName(_ key: String) -> String { String(format: "%016llx.png", fnv1a(Array(key.utf8))) }

    /// A quoted hash of `bytes`, for `ETag`.
    static func etag(of bytes: [UInt8]) -> String { String(format: "\"%016llx\"", fnv1a(bytes)) }

    /// The 64-bit FNV-1a hash.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}
