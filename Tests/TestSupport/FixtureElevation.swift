import Foundation

/// Elevation models the tests make: SRTM cells of heights of a known function.
public enum FixtureElevation {
    /// Writes the 1° SRTM cell `N43E007.hgt` (3″: 1201 × 1201 big-endian 16-bit heights, rows
    /// from the north, the first row and column on the cell's edges) into a new temporary
    /// folder, each height `height(row, column)`, and returns its path.
    public static func writeHGT(height: (Int, Int) -> Int = { row, column in 10 + row + 2 * column }) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-hgt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("N43E007.hgt").path
        var bytes = [UInt8]()
        bytes.reserveCapacity(1201 * 1201 * 2)
        for row in 0..<1201 {
            for column in 0..<1201 {
                let value = UInt16(bitPattern: Int16(clamping: height(row, column)))
                bytes.append(UInt8(value >> 8))
                bytes.append(UInt8(value & 0xFF))
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The default cell's own height at a point (latitude, longitude in degrees): 10 + row +
    /// 2 × column at the point's place in the grid.
    public static func defaultHeight(latitude: Double, longitude: Double) -> Double {
        10 + (44 - latitude) * 1200 + 2 * (longitude - 7) * 1200
    }
}
