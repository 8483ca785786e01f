import Foundation
import OSMReader

/// The one way a file becomes part of a store, told by its content: a zip archive is a GTFS
/// feed (``GTFSImporter``), anything else an OpenStreetMap extract (``OSMImporter``: PBF or
/// OSM XML, plain, gzip or bzip2).
public enum DataImport {
    /// What an import did.
    public enum Report: Sendable, Equatable {
        case osm(OSMImporter.Report)
        case gtfs(GTFSImporter.Report)

        /// The region's or feed's name in the store.
        public var name: String {
            switch self {
            case .osm(let report): report.region
            case .gtfs(let report): report.name
            }
        }
    }

    /// What a file is, from its first bytes.
    public enum FileKind: String, Sendable {
        case osm
        case gtfs
    }

    /// Whether `path` holds a GTFS feed (a zip archive, `PK\u{3}\u{4}`) or an OSM extract.
    ///
    /// - Throws: ``DataError`` when the file cannot be read.
    public static func kind(of path: String) throws(DataError) -> FileKind {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DataError(.file, message: "cannot open the file", path: path)
        }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 4)) ?? nil
        return start.map([UInt8].init) == [0x50, 0x4B, 0x03, 0x04] ? .gtfs : .osm
    }

    /// Imports `path` into the store at `storePath`, atomically.
    ///
    /// - Parameters:
    ///   - name: the region's or feed's name (default: from the file's name).
    ///   - attribution, licence: a feed's credit line and licence, where the feed does not say
    ///     them (OpenStreetMap data is always "© OpenStreetMap contributors", ODbL 1.0).
    ///   - nodeCache: where an extract's node locations are kept (``NodeCache``).
    ///   - progress: an extract's phases ("scanning", "importing") with the fraction done, 0...1.
    public static func importFile(
        _ path: String, into storePath: String, name: String? = nil, attribution: String? = nil,
        licence: String? = nil, nodeCache: NodeCache = .automatic, progress: ((String, Double) -> Void)? = nil
    ) throws -> Report {
        switch try kind(of: path) {
        case .gtfs:
            return .gtfs(
                try GTFSImporter.importFeed(
                    path, into: storePath, name: name, attribution: attribution, licence: licence))
        case .osm:
            return .osm(
                try OSMImporter.importFile(
                    path, into: storePath, region: name, nodeCache: nodeCache, progress: progress))
        }
    }
}
