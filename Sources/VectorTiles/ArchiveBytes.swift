import Foundation
import GeoCore

/// Where a ``PMTilesArchive``'s bytes are read from, by range: a file, or a host answering
/// HTTP `Range` requests. Thread-safe: any thread reads any range at any time.
protocol ArchiveBytes: Sendable {
    /// The archive's size in bytes.
    var size: UInt64 { get }
    /// What tells this version of the archive from another: an HTTP entity tag's text.
    var etag: String { get }
    /// `count` bytes from `offset`, all of them.
    func read(at offset: UInt64, count: Int) throws(PMTilesError) -> [UInt8]
}

/// A local file's bytes, read by `pread` (no shared file position: threads read at once).
final class FileBytes: ArchiveBytes, @unchecked Sendable {
    let size: UInt64
    let etag: String
    private let file: FileHandle

    /// The file at `path`; its size and modification time make its entity tag.
    init(path: String) throws(PMTilesError) {
        guard let file = FileHandle(forReadingAtPath: path) else { throw PMTilesError("cannot open '\(path)'") }
        self.file = file
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        size = (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        etag = String(size, radix: 16) + "-" + String(UInt64(modified * 1000), radix: 16)
    }

    deinit { try? file.close() }

    func read(at offset: UInt64, count: Int) throws(PMTilesError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(file.fileDescriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else {
                if read == 0 {
                    throw PMTilesError("the archive ends before byte \(offset + UInt64(count))", offset: Int(offset))
                }
                throw PMTilesError(
                    "cannot read \(count) bytes at \(offset): \(String(cString: strerror(errno)))", offset: Int(offset))
            }
            done += read
        }
        return bytes
    }
}

/// An archive on a web host, read by `GET` with `Range: bytes=…` as PMTiles clients read one
/// from an object store or a CDN: each read one request answered `206 Partial Content`. The
/// size comes from the first answer's `Content-Range`, the entity tag from its `ETag`; later
/// reads ask `If-Match` it, so an archive replaced on the host is refused (412), not mixed.
final class HTTPRangeBytes: ArchiveBytes, @unchecked Sendable {
    let url: URL
    let size: UInt64
    let etag: String
    /// The host's entity tag, as it sent it (quoted), nil when it sent none.
    private let sentTag: String?
    private let client = HTTPGet()

    /// The archive at `url`, its size and tag read with its first bytes.
    init(url: URL) throws(PMTilesError) {
        self.url = url
        let (_, response) = try Self.get(url, client: client, range: 0...0, ifMatch: nil)
        guard let total = Self.total(response) else {
            throw PMTilesError(
                "\(url.absoluteString) answered without the archive's size (Content-Range: bytes 0-0/SIZE)")
        }
        size = total
        // A weak tag never matches If-Match: only a strong one is asked for again.
        sentTag = response.header("ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        etag =
            response.header("ETag").map {
                $0.replacingOccurrences(of: "W/", with: "").replacingOccurrences(of: "\"", with: "")
            } ?? String(total, radix: 16)
    }

    func read(at offset: UInt64, count: Int) throws(PMTilesError) -> [UInt8] {
        guard count > 0 else { return [] }
        let range = offset...(offset + UInt64(count) - 1)
        let (body, _) = try Self.get(url, client: client, range: range, ifMatch: sentTag)
        guard body.count == count else {
            throw PMTilesError(
                "\(url.absoluteString) sent \(body.count) bytes for bytes=\(range.lowerBound)-\(range.upperBound)",
                offset: Int(offset))
        }
        return body
    }

    /// The archive's size from a `Content-Range: bytes FIRST-LAST/SIZE` header.
    static func total(_ response: HTTPGet.Answer) -> UInt64? {
        guard let header = response.header("Content-Range"),
            let slash = header.lastIndex(of: "/")
        else { return nil }
        return UInt64(header[header.index(after: slash)...].trimmingCharacters(in: .whitespaces))
    }

    /// One ranged `GET`, waited for; its body and response when answered 206.
    private static func get(
        _ url: URL, client: HTTPGet, range: ClosedRange<UInt64>, ifMatch: String?
    ) throws(PMTilesError) -> ([UInt8], HTTPGet.Answer) {
        var headers = ["Range": "bytes=\(range.lowerBound)-\(range.upperBound)"]
        if let ifMatch { headers["If-Match"] = ifMatch }
        let asked = "GET \(url.absoluteString) bytes=\(range.lowerBound)-\(range.upperBound)"
        let response: HTTPGet.Answer
        do { response = try client.get(url, headers: headers) } catch {
            throw PMTilesError("\(asked) failed: \(error.message)")
        }
        switch response.status {
        case 206: return (response.body, response)
        case 200: throw PMTilesError("\(asked): the host answers the whole file, not the range (no Range support)")
        case 412: throw PMTilesError("\(asked): the archive changed on the host since it was opened (412)")
        default: throw PMTilesError("\(asked) answered \(response.status)")
        }
    }
}
