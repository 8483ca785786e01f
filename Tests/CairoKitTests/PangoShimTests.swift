import Foundation
import GeoCore
import Testing

/// The Pango functions CairoKit declares by hand (`Sources/CCairo/shim.h`, because Pango's
/// pkg-config flags cannot reach SwiftPM) are compiled against Pango's real headers: a
/// declaration that differs from Pango's is a conflicting redeclaration, and the rectangle
/// CairoKit lays out by hand must match Pango's field for field.
@Suite struct PangoShimTests {
    static let shim = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CCairo/shim.h").path

    static let check = """
        #include <stddef.h>
        #include <pango/pangocairo.h>
        #define OPENMAPS_PANGO_FROM_HEADERS 1
        #include "\(shim)"
        typedef struct { int x; int y; int width; int height; } OpenMapsRectangle;
        _Static_assert(sizeof(PangoRectangle) == sizeof(OpenMapsRectangle), "PangoRectangle size");
        _Static_assert(offsetof(PangoRectangle, x) == offsetof(OpenMapsRectangle, x), "x");
        _Static_assert(offsetof(PangoRectangle, y) == offsetof(OpenMapsRectangle, y), "y");
        _Static_assert(offsetof(PangoRectangle, width) == offsetof(OpenMapsRectangle, width), "width");
        _Static_assert(offsetof(PangoRectangle, height) == offsetof(OpenMapsRectangle, height), "height");
        _Static_assert(PANGO_SCALE == OPENMAPS_PANGO_SCALE, "PANGO_SCALE");
        """

    /// Runs a command, returning its exit status and what it printed on standard error.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func theHandWrittenDeclarationsMatchPangosHeaders() throws {
        let flags = try run(["pkg-config", "--cflags", "pangocairo"])
        try #require(flags.status == 0, "pkg-config does not know pangocairo: \(flags.output)")
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-pango-\(UUID()).c")
        try Self.check.write(to: source, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: source) }
        let compiler = ProcessInfo.processInfo.environment["CC"] ?? "cc"
        let compiled = try run(
            [compiler, "-fsyntax-only", "-Werror"] + flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
                + [source.path])
        #expect(compiled.status == 0, "\(compiled.output)")
    }
}
