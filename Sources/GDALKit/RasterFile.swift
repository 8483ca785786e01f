internal import CGDAL
import Foundation

/// A failure reported by GDAL, with the file it concerned and what was being done.
public struct GDALError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, GDAL's own message where it gave one.
    public var message: String
    /// The raster file concerned.
    public var path: String

    public init(_ message: String, path: String) {
        self.message = message
        self.path = path
    }

    public var description: String { "\(path): \(message)" }
}

/// How a band's samples are stored.
public enum SampleType: String, Sendable, Equatable {
    case byte, int8, uint16, int16, uint32, int32, float32, float64, other

    init(_ type: GDALDataType) {
        switch type {
        case GDT_Byte: self = .byte
        case GDT_UInt16: self = .uint16
        case GDT_Int16: self = .int16
        case GDT_UInt32: self = .uint32
        case GDT_Int32: self = .int32
        case GDT_Float32: self = .float32
        case GDT_Float64: self = .float64
        default: self = .other
        }
    }

    /// Whether samples of this type are heights rather than colours: anything wider than a
    /// byte (an 8-bit band is an image's).
    public var isMeasure: Bool { self != .byte && self != .int8 && self != .other }
}

/// A raster file GDAL reads (GeoTIFF, Cloud Optimized GeoTIFF, SRTM `.hgt`, MBTiles, and the
/// rest of its formats), in whatever projection it declares, opened read-only.
///
/// Not shared between threads: each thread opens its own.
public final class RasterFile {
    /// The file's path.
    public let path: String
    /// GDAL's driver, its short name (`GTiff`, `SRTMHGT`, `MBTiles`, …).
    public let driver: String
    /// Size in pixels.
    public let width: Int
    public let height: Int
    /// Each band's sample type, in band order.
    public let bands: [SampleType]
    /// The first band's "no data" value, nil where it declares none.
    public let noData: Double?
    /// The area covered in WGS 84: west, south, east, north, degrees.
    public let bounds: (west: Double, south: Double, east: Double, north: Double)
    /// The size of a pixel on the ground at the raster's centre, metres (the smaller of its
    /// width and height).
    public let metresPerPixel: Double

    let dataset: GDALDatasetH
    /// The colour layouts found so far (``colourLayout``), by whether wide bands were read.
    var layouts: [Bool: ColourLayout?] = [:]
    private let wkt: String

    /// Opens `path`.
    ///
    /// - Throws: ``GDALError`` when GDAL cannot read it, it has no bands, or it declares no
    ///   projection and no georeferencing.
    public convenience init(path: String) throws(GDALError) {
        try GDAL.setUp(for: path)
        guard FileManager.default.fileExists(atPath: path) else { throw GDALError("no such file", path: path) }
        guard let dataset = gdal.GDALOpenEx(path, UInt32(GDAL_OF_RASTER | GDAL_OF_READONLY), nil, nil, nil) else {
            throw GDALError("not a raster GDAL reads (\(GDAL.lastError() ?? "unknown format"))", path: path)
        }
        try self.init(dataset: dataset, path: path)
    }

    /// The rasters at `paths`, one band each (a satellite scene's red, green and blue files, and
    /// an alpha file as a fourth), as the bands of one raster in that order, as `gdalbuildvrt
    /// -separate` stacks them: they must cover the same place in the same projection.
    ///
    /// - Throws: ``GDALError`` naming the files when one cannot be read or they do not stack.
    public convenience init(bands paths: [String]) throws(GDALError) {
        let name = paths.joined(separator: " + ")
        try GDAL.setUp(for: name)
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw GDALError("no such file", path: path)
        }
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        for argument in ["-separate", "-q"] { list = gdal.CSLAddString(list, argument) }
        defer { gdal.CSLDestroy(list) }
        guard let options = gdal.GDALBuildVRTOptionsNew(list, nil) else {
            throw GDALError("could not stack the bands (\(GDAL.lastError() ?? ""))", path: name)
        }
        defer { gdal.GDALBuildVRTOptionsFree(options) }
        let names = paths.map { strdup($0) }
        defer { names.forEach { free($0) } }
        var usageError: Int32 = 0
        gdal.CPLErrorReset()
        let stacked = names.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gdal.GDALBuildVRT("", Int32(paths.count), nil, $0, options, &usageError)
            }
        }
        guard let stacked, usageError == 0 else {
            throw GDALError("could not stack the bands (\(GDAL.lastError() ?? "unknown error"))", path: name)
        }
        // The bands are red, green, blue and, when there is a fourth, alpha.
        for (index, colour) in [GCI_RedBand, GCI_GreenBand, GCI_BlueBand, GCI_AlphaBand].enumerated()
        where paths.count >= 3 && index < paths.count {
            _ = gdal.GDALSetRasterColorInterpretation(gdal.GDALGetRasterBand(stacked, Int32(index + 1)), colour)
        }
        try self.init(dataset: stacked, path: name)
    }

    /// Takes `dataset` (closed with this raster, or at once when it cannot be used).
    private init(dataset: GDALDatasetH, path: String) throws(GDALError) {
        self.path = path
        self.dataset = dataset
        let driverHandle: GDALDriverH? = gdal.GDALGetDatasetDriver(dataset)
        driver = driverHandle.flatMap { gdal.GDALGetDriverShortName($0) }.map { String(cString: $0) } ?? ""
        width = Int(gdal.GDALGetRasterXSize(dataset))
        height = Int(gdal.GDALGetRasterYSize(dataset))
        let count = Int(gdal.GDALGetRasterCount(dataset))
        guard count > 0, width > 0, height > 0 else {
            gdal.GDALClose(dataset)
            throw GDALError("the raster has no bands or no pixels", path: path)
        }
        bands = (1...count).map { SampleType(gdal.GDALGetRasterDataType(gdal.GDALGetRasterBand(dataset, Int32($0)))) }
        var hasNoData: Int32 = 0
        let value = gdal.GDALGetRasterNoDataValue(gdal.GDALGetRasterBand(dataset, 1), &hasNoData)
        noData = hasNoData != 0 ? value : nil
        let projection = gdal.GDALGetProjectionRef(dataset).map { String(cString: $0) } ?? ""
        var transform = [Double](repeating: 0, count: 6)
        guard !projection.isEmpty, gdal.GDALGetGeoTransform(dataset, &transform) == CE_None else {
            gdal.GDALClose(dataset)
            throw GDALError("the raster declares no projection or georeferencing", path: path)
        }
        wkt = projection
        do {
            let corners = try Self.outline(width: width, height: height, transform: transform)
            let lonLat = try GDAL.transform(corners, from: projection, to: GDAL.wgs84, path: path)
            let lons = lonLat.map(\.0)
            let lats = lonLat.map(\.1)
            bounds = (lons.min()!, lats.min()!, lons.max()!, lats.max()!)
            let centre = try GDAL.transform(
                [
                    Self.place(Double(width) / 2, Double(height) / 2, transform),
                    Self.place(Double(width) / 2 + 1, Double(height) / 2 + 1, transform),
                ], from: projection, to: GDAL.wgs84, path: path)
            let latitude = centre[0].1 * .pi / 180
            let metresPerDegree = 111_320.0
            metresPerPixel = min(
                abs(centre[1].0 - centre[0].0) * metresPerDegree * cos(latitude),
                abs(centre[1].1 - centre[0].1) * metresPerDegree)
        } catch {
            gdal.GDALClose(dataset)
            throw error
        }
    }

    deinit { gdal.GDALClose(dataset) }

    /// The points along the raster's edges (21 a side), in its own coordinates.
    private static func outline(width: Int, height: Int, transform: [Double]) throws(GDALError) -> [(Double, Double)] {
        var points: [(Double, Double)] = []
        for step in 0...20 {
            let f = Double(step) / 20
            points.append(place(f * Double(width), 0, transform))
            points.append(place(f * Double(width), Double(height), transform))
            points.append(place(0, f * Double(height), transform))
            points.append(place(Double(width), f * Double(height), transform))
        }
        return points
    }

    private static func place(_ column: Double, _ row: Double, _ t: [Double]) -> (Double, Double) {
        (t[0] + column * t[1] + row * t[2], t[3] + column * t[4] + row * t[5])
    }

    /// The first band resampled (bilinear) onto a square of `size` × `size` pixels covering
    /// `area` in Web Mercator (EPSG:3857: west, south, east, north, metres), rows from the
    /// north; NaN where the raster has no data or does not reach.
    public func measures(webMercator area: (west: Double, south: Double, east: Double, north: Double), size: Int)
        throws(GDALError) -> [Float]
    {
        try warp(area: area, size: size, bands: 1, type: GDT_Float32, resampling: GRA_Bilinear, fill: .nan)
    }

    /// The first band's value at a point (WGS 84 degrees), bilinear between the four pixel
    /// centres around it, read straight from the file; nil outside it or at "no data".
    public func value(longitude: Double, latitude: Double) throws(GDALError) -> Double? {
        let placed = try GDAL.transform([(longitude, latitude)], from: GDAL.wgs84, to: wkt, path: path)
        var forward = [Double](repeating: 0, count: 6)
        var inverse = [Double](repeating: 0, count: 6)
        guard gdal.GDALGetGeoTransform(dataset, &forward) == CE_None, gdal.GDALInvGeoTransform(&forward, &inverse) != 0
        else {
            return nil
        }
        let (x, y) = placed[0]
        let column = inverse[0] + x * inverse[1] + y * inverse[2] - 0.5
        let row = inverse[3] + x * inverse[4] + y * inverse[5] - 0.5
        let (left, top) = (Int(column.rounded(.down)), Int(row.rounded(.down)))
        guard left >= 0, top >= 0, left + 1 < width, top + 1 < height else { return nil }
        var corners = [Double](repeating: 0, count: 4)
        guard
            gdal.GDALRasterIO(
                gdal.GDALGetRasterBand(dataset, 1), GF_Read, Int32(left), Int32(top), 2, 2, &corners, 2, 2, GDT_Float64,
                0, 0
            )
                == CE_None
        else { throw GDALError("could not read its pixels (\(GDAL.lastError() ?? ""))", path: path) }
        if let noData, corners.contains(noData) { return nil }
        let (fx, fy) = (column - Double(left), row - Double(top))
        let upper = corners[0] + (corners[1] - corners[0]) * fx
        let lower = corners[2] + (corners[3] - corners[2]) * fx
        return upper + (lower - upper) * fy
    }

    private func warp(
        area: (west: Double, south: Double, east: Double, north: Double), size: Int, bands count: Int,
        type: GDALDataType, resampling: GDALResampleAlg, fill: Float
    ) throws(GDALError) -> [Float] {
        let target = try webMercatorBuffer(area: area, size: size, bands: count, type: type)
        defer { gdal.GDALClose(target) }
        var buffer = [Float](repeating: fill, count: size * size * count)
        for band in 1...count {
            let handle = gdal.GDALGetRasterBand(target, Int32(band))
            if fill.isNaN { _ = gdal.GDALSetRasterNoDataValue(handle, .nan) }
            let status = buffer.withUnsafeMutableBufferPointer { pointer in
                gdal.GDALRasterIO(
                    handle, GF_Write, 0, 0, Int32(size), Int32(size),
                    pointer.baseAddress! + (band - 1) * size * size, Int32(size), Int32(size), GDT_Float32, 0, 0)
            }
            guard status == CE_None else { throw GDALError("could not fill a resampling buffer", path: path) }
        }
        guard
            gdal.GDALReprojectImage(dataset, wkt, target, GDAL.webMercator, resampling, 0, 0.125, nil, nil, nil)
                == CE_None
        else { throw GDALError("could not resample (\(GDAL.lastError() ?? "unknown error"))", path: path) }
        for band in 1...count {
            let status = buffer.withUnsafeMutableBufferPointer { pointer in
                gdal.GDALRasterIO(
                    gdal.GDALGetRasterBand(target, Int32(band)), GF_Read, 0, 0, Int32(size), Int32(size),
                    pointer.baseAddress! + (band - 1) * size * size, Int32(size), Int32(size), GDT_Float32, 0, 0)
            }
            guard status == CE_None else { throw GDALError("could not read a resampled tile", path: path) }
        }
        // Heights the raster marks as missing are missing here too.
        if fill.isNaN, let noData {
            let value = Float(noData)
            for index in buffer.indices where buffer[index] == value { buffer[index] = .nan }
        }
        return buffer
    }
}

extension RasterFile {
    /// An in-memory raster (GDAL's MEM driver) of `size` × `size` pixels of `bands` bands of
    /// `type` covering `area` in Web Mercator (west, south, east, north, metres): what a warp
    /// resamples into. Close it with `GDALClose`.
    func webMercatorBuffer(
        area: (west: Double, south: Double, east: Double, north: Double), size: Int, bands: Int, type: GDALDataType
    ) throws(GDALError) -> GDALDatasetH {
        guard let memory = gdal.GDALGetDriverByName("MEM"),
            let target = gdal.GDALCreate(memory, "", Int32(size), Int32(size), Int32(bands), type, nil)
        else { throw GDALError("could not make a resampling buffer (\(GDAL.lastError() ?? ""))", path: path) }
        var transform = [
            area.west, (area.east - area.west) / Double(size), 0, area.north, 0,
            -(area.north - area.south) / Double(size),
        ]
        _ = gdal.GDALSetGeoTransform(target, &transform)
        _ = gdal.GDALSetProjection(target, GDAL.webMercator)
        return target
    }

    /// Writes a GeoTIFF of `bands` (each `width` × `height` samples, rows from the top) of
    /// `type`, placed by `transform` (GDAL's six numbers: origin x, pixel width, row rotation,
    /// origin y, column rotation, pixel height, in the units of `epsg`'s projection), tiled
    /// (256-pixel blocks) or in strips, with overviews at the given factors (2, 4, …); the
    /// first band's colour table `palette` (red, green, blue a colour) where given, and the last
    /// band marked as alpha with `alpha`.
    public static func writeGeoTIFF(
        to path: String, width: Int, height: Int, type: SampleType, bands: [[Double]], transform: [Double],
        epsg: Int32, noData: Double? = nil, tiled: Bool = false, overviews: [Int] = [],
        palette: [(UInt8, UInt8, UInt8)]? = nil, alpha: Bool = false
    ) throws(GDALError) {
        try GDAL.setUp(for: path)
        let dataType: GDALDataType =
            switch type {
            case .byte: GDT_Byte
            case .uint16: GDT_UInt16
            case .int16: GDT_Int16
            case .uint32: GDT_UInt32
            case .int32: GDT_Int32
            case .float64: GDT_Float64
            default: GDT_Float32
            }
        var options: [String] = tiled ? ["TILED=YES", "BLOCKXSIZE=256", "BLOCKYSIZE=256"] : []
        options.append("COMPRESS=DEFLATE")
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        for option in options { list = gdal.CSLAddString(list, option) }
        defer { gdal.CSLDestroy(list) }
        guard let driver = gdal.GDALGetDriverByName("GTiff"),
            let dataset = gdal.GDALCreate(driver, path, Int32(width), Int32(height), Int32(bands.count), dataType, list)
        else { throw GDALError("could not create a GeoTIFF (\(GDAL.lastError() ?? ""))", path: path) }
        var geoTransform = transform
        _ = gdal.GDALSetGeoTransform(dataset, &geoTransform)
        _ = gdal.GDALSetProjection(dataset, GDAL.wkt(epsg: epsg))
        if let palette {
            let table = gdal.GDALCreateColorTable(GPI_RGB)
            for (index, colour) in palette.enumerated() {
                var entry = GDALColorEntry(c1: Int16(colour.0), c2: Int16(colour.1), c3: Int16(colour.2), c4: 255)
                gdal.GDALSetColorEntry(table, Int32(index), &entry)
            }
            _ = gdal.GDALSetRasterColorTable(gdal.GDALGetRasterBand(dataset, 1), table)
            gdal.GDALDestroyColorTable(table)
        }
        if alpha {
            _ = gdal.GDALSetRasterColorInterpretation(
                gdal.GDALGetRasterBand(dataset, Int32(bands.count)), GCI_AlphaBand)
        }
        for (index, samples) in bands.enumerated() {
            let band = gdal.GDALGetRasterBand(dataset, Int32(index + 1))
            if let noData { _ = gdal.GDALSetRasterNoDataValue(band, noData) }
            var values = samples
            _ = gdal.GDALRasterIO(
                band, GF_Write, 0, 0, Int32(width), Int32(height), &values, Int32(width), Int32(height), GDT_Float64, 0,
                0)
        }
        if !overviews.isEmpty {
            var factors = overviews.map { Int32($0) }
            _ = gdal.GDALBuildOverviews(dataset, "AVERAGE", Int32(factors.count), &factors, 0, nil, nil, nil)
        }
        gdal.GDALClose(dataset)
    }
}

extension RasterFile {
    /// Writes a copy of the raster at `source` to `path` in GDAL's format `driver` (`MBTiles`,
    /// `GTiff`, `PNG`, …) with its creation options (`TILE_FORMAT=JPEG`, …), as
    /// `gdal_translate -of DRIVER` does.
    public static func translate(
        _ source: String, to path: String, driver: String, options: [String] = []
    ) throws(GDALError) {
        let file = try RasterFile(path: source)
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        for argument in ["-of", driver, "-q"] + options.flatMap({ ["-co", $0] }) {
            list = gdal.CSLAddString(list, argument)
        }
        defer { gdal.CSLDestroy(list) }
        guard let parsed = gdal.GDALTranslateOptionsNew(list, nil) else {
            throw GDALError("bad options for \(driver) (\(GDAL.lastError() ?? ""))", path: path)
        }
        defer { gdal.GDALTranslateOptionsFree(parsed) }
        var usageError: Int32 = 0
        guard let copy = gdal.GDALTranslate(path, file.dataset, parsed, &usageError), usageError == 0 else {
            throw GDALError("could not write a \(driver) copy (\(GDAL.lastError() ?? "unknown error"))", path: path)
        }
        gdal.GDALClose(copy)
    }
}

/// libgdal's functions (``GDAL/setUp(for:)`` loads them): what code that runs after it calls.
var gdal: openmaps_gdal { GDAL.functions }

/// What GDAL needs once a process, and the helpers shared by its callers.
enum GDAL {
    /// libgdal's functions with its drivers registered and its messages kept off stderr, or why
    /// it could not be loaded: loaded at the first raster, not linked, so that the commands
    /// that read none do not pay for its libraries.
    private static let library: Result<openmaps_gdal, GDALError> = {
        var failure: UnsafePointer<CChar>?
        guard let loaded = openmaps_gdal_load(&failure)?.pointee else {
            return .failure(GDALError(failure.map { String(cString: $0) } ?? "GDAL could not be loaded", path: ""))
        }
        loaded.GDALAllRegister()
        _ = loaded.CPLSetErrorHandler(loaded.CPLQuietErrorHandler)
        return .success(loaded)
    }()

    /// Loads libgdal once a process, before the first use of ``gdal``.
    ///
    /// - Throws: ``GDALError`` about `path` (the file that was to be read or written) when
    ///   libgdal cannot be loaded.
    static func setUp(for path: String) throws(GDALError) {
        if case .failure(let error) = library { throw GDALError(error.message, path: path) }
    }

    /// libgdal's functions, after ``setUp(for:)`` succeeded (a programming error otherwise).
    static var functions: openmaps_gdal {
        guard case .success(let functions) = library else { preconditionFailure("GDAL used before GDAL.setUp") }
        return functions
    }

    /// GDAL's last error message on this thread, nil when there is none.
    static func lastError() -> String? {
        guard let message = gdal.CPLGetLastErrorMsg(), message.pointee != 0 else { return nil }
        return String(cString: message)
    }

    static let wgs84 = wkt(epsg: 4326)
    static let webMercator = wkt(epsg: 3857)

    /// The well-known text of the spatial reference EPSG:`epsg` (empty for a code GDAL does not
    /// know).
    static func wkt(epsg: Int32) -> String {
        let reference = gdal.OSRNewSpatialReference(nil)
        defer { gdal.OSRDestroySpatialReference(reference) }
        _ = gdal.OSRImportFromEPSG(reference, epsg)
        var text: UnsafeMutablePointer<CChar>?
        _ = gdal.OSRExportToWkt(reference, &text)
        defer { gdal.VSIFree(text) }
        return text.map { String(cString: $0) } ?? ""
    }

    /// Points from one spatial reference to another, each as (x, y) — longitude first for
    /// geographic ones.
    static func transform(_ points: [(Double, Double)], from source: String, to target: String, path: String)
        throws(GDALError) -> [(Double, Double)]
    {
        let from = gdal.OSRNewSpatialReference(source)
        let to = gdal.OSRNewSpatialReference(target)
        defer {
            gdal.OSRDestroySpatialReference(from)
            gdal.OSRDestroySpatialReference(to)
        }
        gdal.OSRSetAxisMappingStrategy(from, OAMS_TRADITIONAL_GIS_ORDER)
        gdal.OSRSetAxisMappingStrategy(to, OAMS_TRADITIONAL_GIS_ORDER)
        guard let transformation = gdal.OCTNewCoordinateTransformation(from, to) else {
            throw GDALError("its projection cannot be turned into WGS 84 (\(lastError() ?? ""))", path: path)
        }
        defer { gdal.OCTDestroyCoordinateTransformation(transformation) }
        var xs = points.map(\.0)
        var ys = points.map(\.1)
        var success = [Int32](repeating: 0, count: points.count)
        _ = gdal.OCTTransformEx(transformation, Int32(points.count), &xs, &ys, nil, &success)
        let kept = (0..<points.count).filter { success[$0] != 0 && xs[$0].isFinite && ys[$0].isFinite }
        guard !kept.isEmpty else { throw GDALError("its corners lie outside its projection's area", path: path) }
        return kept.map { (xs[$0], ys[$0]) }
    }
}
