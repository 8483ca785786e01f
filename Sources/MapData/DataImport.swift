import Foundation
import GDALKit
import OSMReader

/// The one way a file becomes part of a store, told by its content: a zip archive is a GTFS
/// feed (``GTFSImporter``), a raster (TIFF, an SRTM `.hgt` cell, MBTiles) a digital elevation
/// model (``ElevationImporter``) or an aerial image (``Imagery``) by its bands, anything else an OpenStreetMap extract (``OSMImporter``: PBF
/// or OSM XML, plain, gzip or bzip2).
public enum DataImport {
    /// What an import did.
    public enum Report: Sendable, Equatable {
        case osm(OSMImporter.Report)
        case gtfs(GTFSImporter.Report)
        case elevation(ElevationImporter.Report)
        case imagery(Imagery.Report)

        /// The region's, feed's, model's or image's name in the store.
        public var name: String {
            switch self {
            case .osm(let report): report.region
            case .gtfs(let report): report.name
            case .elevation(let report): report.name
            case .imagery(let report): report.name
            }
        }
    }

    /// What a file is, from its first bytes.
    public enum FileKind: String, Sendable {
        case osm
        case gtfs
        case elevation
        case imagery
    }

    /// What `path` holds: a GTFS feed (a zip archive, `PK\u{3}\u{4}`), a raster (a TIFF or
    /// BigTIFF, an MBTiles database, or a file named `.hgt` of an SRTM cell's size: 1201² or
    /// 3601² 16-bit heights) — an image when its bands are bytes (``RasterFile/colourLayout``),
    /// else heights — or else an OSM extract.
    ///
    /// - Throws: ``DataError`` when the file cannot be read.
    public static func kind(of path: String) throws(DataError) -> FileKind {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DataError(.file, message: "cannot open the file", path: path)
        }
        defer { try? handle.close() }
        let start = ((try? handle.read(upToCount: 16)) ?? nil).map([UInt8].init) ?? []
        if start.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .gtfs }
        let tiff: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0], [0x4D, 0x4D, 0, 0x2A], [0x49, 0x49, 0x2B, 0], [0x4D, 0x4D, 0, 0x2B],
        ]
        if tiff.contains(where: { start.starts(with: $0) }) || start == Array("SQLite format 3\0".utf8) {
            // A raster GDAL cannot open goes to the elevation import, which says why.
            return ((try? RasterFile(path: path))?.colourLayout) != nil ? .imagery : .elevation
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if path.lowercased().hasSuffix(".hgt"), size == 1201 * 1201 * 2 || size == 3601 * 3601 * 2 { return .elevation }
        return .osm
    }

    /// Imports `paths` into the store at `storePath`, atomically: one file as
    /// ``importFile(_:into:name:attribution:licence:nodeCache:kind:tileLimit:progress:)`` does,
    /// three or four single-band files as one aerial image's red, green, blue (and alpha) bands
    /// (``Imagery/importImage(bands:into:name:attribution:licence:tileLimit:progress:)``).
    ///
    /// - Throws: ``DataError`` for another number of files, or band files of a kind other than
    ///   `.imagery`; what the import throws.
    public static func importFiles(
        _ paths: [String], into storePath: String, name: String? = nil, attribution: String? = nil,
        licence: String? = nil, nodeCache: NodeCache = .automatic, kind forced: FileKind? = nil,
        tileLimit: Int? = nil, progress: ((String, Double) -> Void)? = nil
    ) throws -> Report {
        if paths.count == 1 {
            return try importFile(
                paths[0], into: storePath, name: name, attribution: attribution, licence: licence, nodeCache: nodeCache,
                kind: forced, tileLimit: tileLimit, progress: progress)
        }
        guard (3...4).contains(paths.count) else {
            throw DataError(
                .invalidData,
                message:
                    "import takes one file, or three or four single-band files as one image's red, green, blue (and alpha) bands, not \(paths.count)"
            )
        }
        guard forced == nil || forced == .imagery else {
            throw DataError(
                .invalidData,
                message: "several files are one image's bands: the kind must be imagery, not \(forced!.rawValue)")
        }
        return .imagery(
            try Imagery.importImage(
                bands: paths, into: storePath, name: name, attribution: attribution, licence: licence,
                tileLimit: tileLimit ?? Imagery.defaultTileLimit, progress: progress))
    }

    /// Imports `path` into the store at `storePath`, atomically.
    ///
    /// - Parameters:
    ///   - name: the region's, feed's or model's name (default: from the file's name).
    ///   - attribution, licence: a feed's or model's credit line and licence, where the file
    ///     does not say them (OpenStreetMap data is always "© OpenStreetMap contributors", ODbL 1.0).
    ///   - nodeCache: where an extract's node locations are kept (``NodeCache``).
    ///   - kind: what the file is, where its content does not tell (default: ``kind(of:)``);
    ///     `.elevation` or `.imagery` for any raster of heights or colours GDAL reads.
    ///   - tileLimit: a raster's most tiles at its finest zoom (default
    ///     ``ElevationImporter/defaultTileLimit`` for a model, ``Imagery/defaultTileLimit`` for
    ///     an image).
    ///   - progress: an import's phases ("scanning", "importing", "elevation", "imagery") with
    ///     the fraction done, 0...1.
    public static func importFile(
        _ path: String, into storePath: String, name: String? = nil, attribution: String? = nil,
        licence: String? = nil, nodeCache: NodeCache = .automatic, kind forced: FileKind? = nil,
        tileLimit: Int? = nil, progress: ((String, Double) -> Void)? = nil
    ) throws -> Report {
        switch try forced ?? kind(of: path) {
        case .elevation:
            return .elevation(
                try ElevationImporter.importModel(
                    path, into: storePath, name: name, attribution: attribution, licence: licence,
                    tileLimit: tileLimit ?? ElevationImporter.defaultTileLimit, progress: progress))
        case .imagery:
            return .imagery(
                try Imagery.importImage(
                    path, into: storePath, name: name, attribution: attribution, licence: licence,
                    tileLimit: tileLimit ?? Imagery.defaultTileLimit, progress: progress))
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
