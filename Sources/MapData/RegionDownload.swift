import Foundation
import GeoCore

/// Downloads a region's extract: in pieces by HTTP `Range` requests into `FILE.partial`, so a
/// broken download goes on from where it stopped; checked against the MD5 checksum the site
/// publishes beside the file (`FILE.md5`, as Geofabrik does) before it is renamed into place.
public enum RegionDownload {
    /// Bytes asked for per request: 8 MiB.
    public static let pieceSize = 8 << 20

    /// What a download did.
    public struct Report: Sendable, Equatable {
        /// The file's size, bytes.
        public var bytes: Int
        /// Bytes already there from an earlier, broken download.
        public var resumedAt: Int
        /// The MD5 checked, nil when the site publishes none.
        public var md5: String?
    }

    /// Downloads `url` to `path` (replacing what is there only once the whole file is in and
    /// checked).
    ///
    /// - Parameters:
    ///   - pieceSize: bytes asked for per request (default ``pieceSize``).
    ///   - progress: bytes in so far and the total where known.
    /// - Throws: ``DataError`` (`.download`) when the host cannot be reached or answers an
    ///   error, or the file does not match its checksum (the partial file is then removed, so
    ///   the next try starts over).
    @discardableResult
    public static func fetch(
        _ url: String, to path: String, http: HTTPGet = HTTPGet(timeout: 120), pieceSize: Int = pieceSize,
        progress: ((Int, Int?) -> Void)? = nil
    ) throws(DataError) -> Report {
        guard let source = URL(string: url), ["http", "https"].contains(source.scheme?.lowercased() ?? "") else {
            throw DataError(.download, message: "an extract is downloaded over http:// or https://", path: url)
        }
        let partial = path + ".partial"
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
        } catch {
            throw DataError(.file, message: "cannot create the download folder", path: folder, underlying: error)
        }
        if !FileManager.default.fileExists(atPath: partial) {
            _ = FileManager.default.createFile(atPath: partial, contents: nil)
        }
        guard let file = FileHandle(forUpdatingAtPath: partial) else {
            throw DataError(.file, message: "cannot write the download", path: partial)
        }
        defer { try? file.close() }
        var offset = Int((try? file.seekToEnd()) ?? 0)
        let resumedAt = offset
        var total: Int?
        while total == nil || offset < total! {
            let answer: HTTPGet.Answer
            do {
                answer = try http.get(source, headers: ["Range": "bytes=\(offset)-\(offset + pieceSize - 1)"])
            } catch {
                throw DataError(
                    .download, message: "the download broke off at byte \(offset) (run again to go on): \(error)",
                    path: url)
            }
            switch answer.status {
            case 206:
                total = answer.header("Content-Range").flatMap { $0.split(separator: "/").last }.flatMap { Int($0) }
                guard total != nil, !answer.body.isEmpty else {
                    throw DataError(.download, message: "the host answered a piece without its range", path: url)
                }
            case 200:
                // The host ignores ranges: the whole file came, from its start.
                try? file.truncate(atOffset: 0)
                offset = 0
                total = answer.body.count
            case 416 where offset > 0:
                // Nothing after the partial file's end: it is whole (the checksum tells).
                total = offset
                continue
            default:
                throw DataError(.download, message: "the host answered HTTP \(answer.status)", path: url)
            }
            do { try file.write(contentsOf: answer.body) } catch {
                throw DataError(.file, message: "cannot write the download", path: partial, underlying: error)
            }
            offset += answer.body.count
            progress?(offset, total)
        }
        let expected = try publishedMD5(of: source, http: http)
        if let expected {
            var sum = MD5()
            try? file.seek(toOffset: 0)
            while let piece = try? file.read(upToCount: 1 << 20), !piece.isEmpty { sum.update([UInt8](piece)) }
            let found = sum.hex()
            guard found == expected else {
                try? FileManager.default.removeItem(atPath: partial)
                throw DataError(
                    .download,
                    message:
                        "the download does not match its published MD5 (\(found), not \(expected)): removed; run again",
                    path: url)
            }
        }
        try? file.synchronize()
        guard rename(partial, path) == 0 else {
            throw DataError(
                .file, message: "cannot move the download into place: \(String(cString: strerror(errno)))", path: path)
        }
        return Report(bytes: offset, resumedAt: resumedAt, md5: expected)
    }

    /// The MD5 published at `url` + `.md5` (its first word), nil when there is none.
    static func publishedMD5(of url: URL, http: HTTPGet) throws(DataError) -> String? {
        guard let checksum = URL(string: url.absoluteString + ".md5") else { return nil }
        let answer: HTTPGet.Answer
        do { answer = try http.get(checksum) } catch {
            throw DataError(
                .download, message: "cannot read the published checksum: \(error)", path: checksum.absoluteString)
        }
        guard answer.status == 200 else { return nil }
        let word = String(decoding: answer.body, as: UTF8.self).split(whereSeparator: \.isWhitespace).first
        guard let word, word.count == 32, word.allSatisfy(\.isHexDigit) else {
            throw DataError(.download, message: "the published checksum is not an MD5", path: checksum.absoluteString)
        }
        return word.lowercased()
    }
}
