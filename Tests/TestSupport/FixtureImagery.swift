import Foundation
import GDALKit
import GeoCore

/// Aerial images the tests make: four quadrants of known colours around a known centre in
/// Monaco, in several projections and band layouts, as GDAL writes them.
public enum FixtureImagery {
    /// The image's centre: Monaco's harbour.
    public static let centre = Coordinate(latitude: 43.7384, longitude: 7.4246)
    /// The centre in UTM zone 32N (EPSG:32632), metres east and north (PROJ's answer).
    static let centreUTM = (x: 373_139.34, y: 4_844_024.12)

    /// The quadrants' colours (red, green, blue): north-west, north-east, south-west, south-east.
    public static let colours: [(UInt8, UInt8, UInt8)] = [(200, 40, 40), (40, 180, 60), (40, 60, 200), (230, 220, 60)]

    /// How the image's bands hold its colours.
    public enum Layout: Sendable {
        /// Three bands.
        case rgb
        /// Four bands, the south-east quadrant transparent.
        case rgba
        /// One band of indices into a colour table of the four colours.
        case palette
        /// One band of grey: the colours' averages.
        case grey
    }

    /// The quadrant (0 north-west, 1 north-east, 2 south-west, 3 south-east) of a point east
    /// and north of the centre by the given metres.
    static func quadrant(east: Double, north: Double) -> Int { (north >= 0 ? 0 : 2) + (east >= 0 ? 1 : 0) }

    /// The colour expected at `point`: its quadrant's, nil for the transparent one of `.rgba`
    /// (grey for `.grey`). Meant for points well inside a quadrant (the projections bend the
    /// quadrants' edges by up to a few metres).
    public static func colour(at point: Coordinate, layout: Layout = .rgb) -> (UInt8, UInt8, UInt8)? {
        let north = (point.latitude - centre.latitude) * 111_320
        let east = (point.longitude - centre.longitude) * 111_320 * cos(centre.latitude * .pi / 180)
        let index = quadrant(east: east, north: north)
        if layout == .rgba && index == 3 { return nil }
        let colour = colours[index]
        if layout == .grey {
            let grey = UInt8((Int(colour.0) + Int(colour.1) + Int(colour.2)) / 3)
            return (grey, grey, grey)
        }
        return colour
    }

    /// Writes the image, `widthMetres` × `heightMetres` on the ground around ``centre`` in
    /// pixels of `metresPerPixel`, in the projection `epsg` (4326, 3857 or 32632), to a new
    /// temporary GeoTIFF, and returns its path.
    public static func write(
        epsg: Int32 = 32632, metresPerPixel: Double = 4, widthMetres: Double = 4_000, heightMetres: Double = 3_000,
        layout: Layout = .rgb, tiled: Bool = false, overviews: [Int] = []
    ) throws -> String {
        let width = Int(widthMetres / metresPerPixel)
        let height = Int(heightMetres / metresPerPixel)
        let cosine = cos(centre.latitude * .pi / 180)
        // Each pixel's size in the projection's units, and the centre there.
        let (unit, x0, y0): (Double, Double, Double) =
            switch epsg {
            case 4326: (metresPerPixel / (111_320 * cosine), centre.longitude, centre.latitude)
            case 3857:
                (
                    metresPerPixel / cosine, centre.longitude * 20_037_508.342789244 / 180,
                    log(tan((90 + centre.latitude) * .pi / 360)) * 6_378_137
                )
            default: (metresPerPixel, centreUTM.x, centreUTM.y)
            }
        // Degrees of latitude are longer than of longitude: a plate carrée pixel is taller.
        let rowUnit = epsg == 4326 ? metresPerPixel / 111_320 : unit
        let transform = [
            x0 - Double(width) / 2 * unit, unit, 0, y0 + Double(height) / 2 * rowUnit, 0, -rowUnit,
        ]
        var indices = [Double](repeating: 0, count: width * height)
        for row in 0..<height {
            for column in 0..<width {
                let east = (Double(column) + 0.5 - Double(width) / 2) * metresPerPixel
                let north = (Double(height) / 2 - Double(row) - 0.5) * metresPerPixel
                indices[row * width + column] = Double(quadrant(east: east, north: north))
            }
        }
        let bands: [[Double]]
        switch layout {
        case .palette: bands = [indices]
        case .grey:
            bands = [indices.map { Double(colour(ofQuadrant: Int($0), grey: true).0) }]
        case .rgb, .rgba:
            var channels = (0..<3).map { channel in
                indices.map { index -> Double in
                    let colour = colours[Int(index)]
                    return Double([colour.0, colour.1, colour.2][channel])
                }
            }
            if layout == .rgba { channels.append(indices.map { $0 == 3 ? 0 : 255 }) }
            bands = channels
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-image-\(UUID().uuidString).tif"
        ).path
        try RasterFile.writeGeoTIFF(
            to: path, width: width, height: height, type: .byte, bands: bands, transform: transform, epsg: epsg,
            tiled: tiled, overviews: overviews, palette: layout == .palette ? colours : nil, alpha: layout == .rgba)
        return path
    }

    private static func colour(ofQuadrant index: Int, grey: Bool) -> (UInt8, UInt8, UInt8) {
        let colour = colours[index]
        guard grey else { return colour }
        let value = UInt8((Int(colour.0) + Int(colour.1) + Int(colour.2)) / 3)
        return (value, value, value)
    }
}
