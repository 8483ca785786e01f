internal import CGDAL
import Foundation

extension RasterFile {
    /// How a raster's bands make an image's colours, nil for a raster that is not an image
    /// (heights, or bands wider than a byte).
    public enum ColourLayout: String, Sendable, Equatable {
        /// Red, green and blue (a fourth band, when it is not alpha, is left out: an
        /// orthophoto's near infrared).
        case rgb
        /// Red, green, blue and alpha.
        case rgba
        /// One band of grey (a black-and-white photo).
        case grey
        /// Grey and alpha.
        case greyAlpha
        /// One band of indices into the file's colour table.
        case palette
    }

    /// The way this raster's bands are an image's, nil when they are not (any band wider than
    /// a byte, or two bands that are not grey and alpha).
    public var colourLayout: ColourLayout? { layout(readingWideBands: false) }

    /// The way this raster's bands are an image's, reading bands wider than a byte (a
    /// satellite scene's digital numbers kept as 16-bit or floating point) as colours where all
    /// their values lie within 0...255; nil when they are not an image.
    public var colourLayoutReadingWideBands: ColourLayout? { layout(readingWideBands: true) }

    /// The lowest and highest value of each band (GDAL's estimate from its overviews or a
    /// sample; "no data" left out), nil for a band without values.
    public var valueRanges: [ClosedRange<Double>?] {
        (1...bands.count).map { index in
            var range = [Double](repeating: 0, count: 2)
            gdal.CPLErrorReset()
            _ = gdal.GDALComputeRasterMinMax(gdal.GDALGetRasterBand(dataset, Int32(index)), 1, &range)
            guard GDAL.lastError() == nil, range[0] <= range[1] else { return nil }
            return range[0]...range[1]
        }
    }

    private func layout(readingWideBands wide: Bool) -> ColourLayout? {
        if let known = layouts[wide] { return known }
        let found = findLayout(readingWideBands: wide)
        layouts[wide] = found
        return found
    }

    private func findLayout(readingWideBands wide: Bool) -> ColourLayout? {
        let bytes = bands.allSatisfy { $0 == .byte }
        guard
            bytes || (wide && valueRanges.allSatisfy { $0.map { $0.lowerBound >= 0 && $0.upperBound <= 255 } ?? true })
        else { return nil }
        let alpha =
            gdal.GDALGetRasterColorInterpretation(gdal.GDALGetRasterBand(dataset, Int32(bands.count))) == GCI_AlphaBand
        switch bands.count {
        case 1:
            return bytes && gdal.GDALGetRasterColorTable(gdal.GDALGetRasterBand(dataset, 1)) != nil ? .palette : .grey
        case 2: return alpha ? .greyAlpha : nil
        case 3: return .rgb
        default: return alpha && bands.count == 4 ? .rgba : .rgb
        }
    }

    /// The image resampled (bilinear, from the overview nearest the size asked when the file
    /// has overviews) onto a square of `size` × `size` pixels covering `area` in Web Mercator
    /// (EPSG:3857: west, south, east, north, metres): red, green, blue and alpha bytes a pixel
    /// (straight alpha: 0 where the image has no data or does not reach), rows from the north.
    ///
    /// - Throws: ``GDALError`` when the raster is not an image (``colourLayoutReadingWideBands``) or GDAL
    ///   cannot resample it.
    public func colours(webMercator area: (west: Double, south: Double, east: Double, north: Double), size: Int)
        throws(GDALError) -> [UInt8]
    {
        guard let layout = colourLayoutReadingWideBands else {
            throw GDALError(
                "not an image: \(bands.count) band(s) of \(bands.map(\.rawValue).joined(separator: ", "))", path: path)
        }
        let source = try colourSource(layout)
        let target = try webMercatorBuffer(area: area, size: size, bands: 4, type: GDT_Byte)
        defer { gdal.GDALClose(target) }
        _ = gdal.GDALSetRasterColorInterpretation(gdal.GDALGetRasterBand(target, 4), GCI_AlphaBand)
        // gdalwarp's own rules: the source's alpha band or its "no data" values become the
        // target's alpha; the target's last band is that alpha.
        let arguments = ["-r", "bilinear", "-dstalpha", "-et", "0.125", "-q"]
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        for argument in arguments { list = gdal.CSLAddString(list, argument) }
        defer { gdal.CSLDestroy(list) }
        guard let options = gdal.GDALWarpAppOptionsNew(list, nil) else {
            throw GDALError("could not set up resampling (\(GDAL.lastError() ?? ""))", path: path)
        }
        defer { gdal.GDALWarpAppOptionsFree(options) }
        var sources: [GDALDatasetH?] = [source.handle]
        var usageError: Int32 = 0
        gdal.CPLErrorReset()
        let warped = sources.withUnsafeMutableBufferPointer { buffer in
            gdal.GDALWarp(nil, target, 1, buffer.baseAddress, options, &usageError)
        }
        guard warped != nil, usageError == 0 else {
            throw GDALError("could not resample (\(GDAL.lastError() ?? "unknown error"))", path: path)
        }
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        var bandMap: [Int32] = [1, 2, 3, 4]
        let status = pixels.withUnsafeMutableBytes { buffer in
            gdal.GDALDatasetRasterIO(
                target, GF_Read, 0, 0, Int32(size), Int32(size), buffer.baseAddress, Int32(size), Int32(size),
                GDT_Byte, 4, &bandMap, 4, Int32(size * 4), 1)
        }
        guard status == CE_None else { throw GDALError("could not read a resampled tile", path: path) }
        return pixels
    }

    /// The dataset to warp for `layout`: the file itself for RGB and RGBA, otherwise a virtual
    /// raster (GDAL's VRT, in memory) of its colours as red, green, blue (and alpha) bands.
    private func colourSource(_ layout: ColourLayout) throws(GDALError) -> ColourSource {
        let selection: [String]
        switch layout {
        case .rgba: return ColourSource(handle: dataset, owned: false)
        case .rgb:
            if bands.count == 3 { return ColourSource(handle: dataset, owned: false) }
            selection = ["-b", "1", "-b", "2", "-b", "3"]
        case .palette: selection = ["-expand", "rgba"]
        case .grey: selection = ["-b", "1", "-b", "1", "-b", "1"]
        case .greyAlpha: selection = ["-b", "1", "-b", "1", "-b", "1", "-b", "2"]
        }
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        for argument in ["-of", "VRT", "-q"] + selection { list = gdal.CSLAddString(list, argument) }
        defer { gdal.CSLDestroy(list) }
        guard let options = gdal.GDALTranslateOptionsNew(list, nil) else {
            throw GDALError("could not read its colours (\(GDAL.lastError() ?? ""))", path: path)
        }
        defer { gdal.GDALTranslateOptionsFree(options) }
        var usageError: Int32 = 0
        guard let view = gdal.GDALTranslate("", dataset, options, &usageError), usageError == 0 else {
            throw GDALError("could not read its colours (\(GDAL.lastError() ?? "unknown error"))", path: path)
        }
        return ColourSource(handle: view, owned: true)
    }

    /// A dataset to read colours from, closed after use when it was made for it.
    private final class ColourSource {
        let handle: GDALDatasetH
        let owned: Bool
        init(handle: GDALDatasetH, owned: Bool) {
            self.handle = handle
            self.owned = owned
        }
        deinit { if owned { gdal.GDALClose(handle) } }
    }
}

/// Image tiles encoded as the files a browser and the renderer read, by GDAL's drivers.
public enum ImageTile {
    /// `rgba` (straight alpha, `width` × `height` pixels, rows from the top) as a JPEG of the
    /// given quality (1...100) when every pixel is opaque, a PNG with its alpha otherwise.
    ///
    /// - Throws: ``GDALError`` when `rgba` is not that many pixels or a driver fails.
    public static func encode(rgba: [UInt8], width: Int, height: Int, quality: Int = 85) throws(GDALError) -> [UInt8] {
        guard width > 0, height > 0, rgba.count == width * height * 4 else {
            throw GDALError("\(rgba.count) bytes are not the pixels of a \(width)×\(height) image", path: "(tile)")
        }
        try GDAL.setUp(for: "(tile)")
        var opaque = true
        for index in stride(from: 3, to: rgba.count, by: 4) where rgba[index] != 255 {
            opaque = false
            break
        }
        let count: Int32 = opaque ? 3 : 4
        guard let memory = gdal.GDALGetDriverByName("MEM"),
            let image = gdal.GDALCreate(memory, "", Int32(width), Int32(height), count, GDT_Byte, nil)
        else { throw GDALError("could not make an image buffer (\(GDAL.lastError() ?? ""))", path: "(tile)") }
        defer { gdal.GDALClose(image) }
        var pixels = rgba
        var bandMap: [Int32] = [1, 2, 3, 4]
        let written = pixels.withUnsafeMutableBytes { buffer in
            gdal.GDALDatasetRasterIO(
                image, GF_Write, 0, 0, Int32(width), Int32(height), buffer.baseAddress, Int32(width), Int32(height),
                GDT_Byte, count, &bandMap, 4, Int32(width * 4), 1)
        }
        guard written == CE_None else { throw GDALError("could not fill an image buffer", path: "(tile)") }
        let name = "/vsimem/openmaps-tile-\(UUID().uuidString)" + (opaque ? ".jpg" : ".png")
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        if opaque { list = gdal.CSLAddString(list, "QUALITY=\(min(max(quality, 1), 100))") }
        defer { gdal.CSLDestroy(list) }
        guard let driver = gdal.GDALGetDriverByName(opaque ? "JPEG" : "PNG"),
            let file = gdal.GDALCreateCopy(driver, name, image, 0, list, nil, nil)
        else { throw GDALError("could not encode a tile (\(GDAL.lastError() ?? ""))", path: "(tile)") }
        gdal.GDALClose(file)
        defer {
            _ = gdal.VSIUnlink(name)
            _ = gdal.VSIUnlink(name + ".aux.xml")
        }
        var length: vsi_l_offset = 0
        guard let bytes = gdal.VSIGetMemFileBuffer(name, &length, 0) else {
            throw GDALError("could not read an encoded tile", path: "(tile)")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
    }

    /// The pixels of a JPEG or PNG tile (``encode(rgba:width:height:quality:)``): red, green,
    /// blue and alpha bytes a pixel (255 for a JPEG), rows from the top, with its size.
    ///
    /// - Throws: ``GDALError`` when the bytes are not an image GDAL decodes.
    public static func decode(_ bytes: [UInt8]) throws(GDALError) -> (rgba: [UInt8], width: Int, height: Int) {
        try GDAL.setUp(for: "(tile)")
        let name = "/vsimem/openmaps-decode-\(UUID().uuidString)"
        var copy = bytes
        let file = copy.withUnsafeMutableBufferPointer { buffer in
            gdal.VSIFileFromMemBuffer(name, buffer.baseAddress, vsi_l_offset(buffer.count), 0)
        }
        guard let file else { throw GDALError("could not read the tile's bytes", path: "(tile)") }
        _ = gdal.VSIFCloseL(file)
        defer { _ = gdal.VSIUnlink(name) }
        guard let image = gdal.GDALOpenEx(name, UInt32(GDAL_OF_RASTER | GDAL_OF_READONLY), nil, nil, nil) else {
            throw GDALError("not an image GDAL decodes (\(GDAL.lastError() ?? "unknown format"))", path: "(tile)")
        }
        defer { gdal.GDALClose(image) }
        let (width, height) = (Int(gdal.GDALGetRasterXSize(image)), Int(gdal.GDALGetRasterYSize(image)))
        let count = Int(gdal.GDALGetRasterCount(image))
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var bandMap: [Int32] = count >= 3 ? [1, 2, 3] + (count >= 4 ? [4] : []) : [1, 1, 1]
        let status = pixels.withUnsafeMutableBytes { buffer in
            gdal.GDALDatasetRasterIO(
                image, GF_Read, 0, 0, Int32(width), Int32(height), buffer.baseAddress, Int32(width),
                Int32(height), GDT_Byte, Int32(bandMap.count), &bandMap, 4, Int32(width * 4), 1)
        }
        guard status == CE_None else { throw GDALError("could not decode the tile", path: "(tile)") }
        return (pixels, width, height)
    }
}
