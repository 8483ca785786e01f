import Foundation
import GlyphKit

/// The font stacks the vector styles name, each the Noto fonts tried in turn for a code point
/// (Latin, Greek and Cyrillic; Devanagari; CJK), and their glyph ranges, made once each and
/// kept. Thread-safe.
public enum GlyphStacks {
    /// The folders the Noto fonts are looked for in (Debian's `fonts-noto-core` and
    /// `fonts-noto-cjk`).
    public static let folders = ["/usr/share/fonts/truetype/noto", "/usr/share/fonts/opentype/noto"]

    /// Each stack's font files by name, in the order they are tried.
    public static let stacks: [String: [String]] = [
        MapStyle.font: ["NotoSans-Regular.ttf", "NotoSansDevanagari-Regular.ttf", "NotoSansCJK-Regular.ttc"],
        MapStyle.boldFont: ["NotoSans-Bold.ttf", "NotoSansDevanagari-Bold.ttf", "NotoSansCJK-Bold.ttc"],
    ]

    nonisolated(unsafe) private static var made: [String: [UInt8]] = [:]
    private static let lock = NSLock()

    /// The glyph protobuf of the range from `start` (a multiple of 256) of the stack named by
    /// `request` (MapLibre's comma-separated `text-font` list; the first name known here is
    /// served); nil when it names no stack known here.
    /// - Throws: ``GlyphError`` when the range is not one, or the stack's fonts do not open.
    public static func range(_ request: String, start: Int) throws(GlyphError) -> [UInt8]? {
        guard
            let name = request.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { stacks[$0] != nil })
        else { return nil }
        let key = "\(name)/\(start)"
        if let known = lock.withLock({ made[key] }) { return known }
        let files = stacks[name]!.compactMap { file in
            folders.map { $0 + "/" + file }.first { FileManager.default.fileExists(atPath: $0) }
        }
        let bytes = try SDFGlyphs.range(start: start, name: name, fonts: files)
        lock.withLock { made[key] = bytes }
        return bytes
    }
}
