import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapRenderer
import TestSupport
import Testing

/// Pictures of the fixture store compared with golden images stored beside this file
/// (`Golden/NAME.png`), with a perceptual tolerance: both are averaged over 4 × 4 pixel blocks
/// (so anti-aliasing and hinting differences fade), and the picture passes when at most
/// ``Tolerance/differingBlocks`` of the blocks differ by more than 24 (RGB distance, 0–441)
/// and the mean block difference is at most ``Tolerance/meanDifference`` (1 % and 2 unless
/// ``tolerances`` says otherwise for the picture). On failure the picture and a difference
/// image (differing blocks red over the picture, faded) are written to the temporary
/// directory and named in the issue.
///
/// Re-record after an intended change of the look, then look at every picture before
/// committing: `OPENMAPS_RECORD_GOLDEN=1 swift test --filter GoldenTests`.
@Suite
struct GoldenTests {
    /// Pictures at the intermediate world detail, whether or not `--hires` was installed.
    let renderer: MapRenderer = {
        var renderer = MapRenderer(store: try! MapStore(path: try! FixtureStore.path()))
        renderer.usesFullWorldDetail = false
        return renderer
    }()
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["OPENMAPS_RECORD_GOLDEN"] == "1"

    /// How far a picture may stray from its golden image.
    struct Tolerance {
        /// The share of 4 × 4 blocks allowed to differ by more than 24, 0...1.
        var differingBlocks = 0.01
        /// The largest mean block difference (RGB distance, 0–441).
        var meanDifference = 2.0
    }

    /// Pictures with a tolerance of their own: text in two scripts shifts with font hinting.
    static let tolerances: [String: Tolerance] = [
        "latin-devanagari": Tolerance(differingBlocks: 0.02, meanDifference: 3)
    ]

    /// A 320 × 200 point view.
    func view(
        latitude: Double, longitude: Double, zoom: Double, type: MapType = .normal,
        style: UserInterfaceStyle = .light, bearing: Double = 0, tilt: Double = 0
    ) -> MapView {
        var options = MapViewOptions()
        options.frame = Rect(x: 0, y: 0, width: 320, height: 200)
        options.camera = CameraPosition(
            target: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom, bearing: bearing,
            viewingAngle: tilt)
        let mapView = MapView(options: options)
        mapView.mapType = type
        mapView.overrideUserInterfaceStyle = style
        return mapView
    }

    /// Renders `mapView` and compares it with `Golden/name.png` (or records it).
    func check(_ name: String, _ mapView: MapView) throws {
        let picture = try renderer.render(mapView).0
        let golden = Self.directory.appendingPathComponent("\(name).png")
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try picture.write(to: golden.path)
            return
        }
        guard let data = FileManager.default.contents(atPath: golden.path) else {
            Issue.record(
                "no golden image \(golden.path); record it with OPENMAPS_RECORD_GOLDEN=1 swift test --filter GoldenTests"
            )
            return
        }
        let expected = try Canvas(png: Array(data))
        let difference = Self.compare(picture, expected)
        let tolerance = Self.tolerances[name] ?? Tolerance()
        if difference.differingBlocks > tolerance.differingBlocks
            || difference.meanDifference > tolerance.meanDifference
        {
            let folder = FileManager.default.temporaryDirectory
            let actual = folder.appendingPathComponent("openmaps-golden-\(name).png")
            let diff = folder.appendingPathComponent("openmaps-golden-\(name)-diff.png")
            try picture.write(to: actual.path)
            try Self.differenceImage(picture, expected).write(to: diff.path)
            Issue.record(
                "\(name): \(String(format: "%.1f", difference.differingBlocks * 100)) % of blocks differ, mean \(String(format: "%.2f", difference.meanDifference)); the picture is at \(actual.path), the differing blocks at \(diff.path)"
            )
        }
    }

    /// `first` faded, with the 4 × 4 blocks that differ from `second` by more than 24 in red.
    static func differenceImage(_ first: Canvas, _ second: Canvas) throws -> Canvas {
        let width = Int(first.width * first.scale)
        let height = Int(first.height * first.scale)
        let diff = try Canvas(width: Double(width), height: Double(height))
        diff.fill(all: .white)
        for blockY in stride(from: 0, to: height - 3, by: 4) {
            for blockX in stride(from: 0, to: width - 3, by: 4) {
                var distance = 0.0
                var shade = 0.0
                for y in blockY..<blockY + 4 {
                    for x in blockX..<blockX + 4 {
                        let a = first.pixel(x: x, y: y)!
                        let b = second.pixel(x: x, y: y) ?? a
                        distance += Double(a.distance(to: b)) / 16
                        shade += (Double(a.red) + Double(a.green) + Double(a.blue)) / 3 / 255 / 16
                    }
                }
                diff.rectangle(x: Double(blockX), y: Double(blockY), width: 4, height: 4)
                diff.fill(
                    distance > 24
                        ? Color(red: 1, green: 0, blue: 0)
                        : Color(red: 0.6 + 0.4 * shade, green: 0.6 + 0.4 * shade, blue: 0.6 + 0.4 * shade))
            }
        }
        return diff
    }

    /// The share of 4 × 4 blocks whose average colours are more than 24 apart, and the mean
    /// block difference; 1 and infinity for pictures of different sizes.
    static func compare(_ first: Canvas, _ second: Canvas) -> (differingBlocks: Double, meanDifference: Double) {
        let width = Int(first.width * first.scale)
        let height = Int(first.height * first.scale)
        guard width == Int(second.width * second.scale), height == Int(second.height * second.scale) else {
            return (1, .infinity)
        }
        var differing = 0
        var total = 0.0
        var blocks = 0
        for blockY in stride(from: 0, to: height - 3, by: 4) {
            for blockX in stride(from: 0, to: width - 3, by: 4) {
                var sums = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
                for y in blockY..<blockY + 4 {
                    for x in blockX..<blockX + 4 {
                        let a = first.pixel(x: x, y: y)!
                        let b = second.pixel(x: x, y: y)!
                        sums[0] += Double(a.red)
                        sums[1] += Double(a.green)
                        sums[2] += Double(a.blue)
                        sums[3] += Double(b.red)
                        sums[4] += Double(b.green)
                        sums[5] += Double(b.blue)
                    }
                }
                let distance =
                    ((sums[0] - sums[3]) * (sums[0] - sums[3]) + (sums[1] - sums[4]) * (sums[1] - sums[4])
                    + (sums[2] - sums[5]) * (sums[2] - sums[5])).squareRoot() / 16
                total += distance
                blocks += 1
                if distance > 24 { differing += 1 }
            }
        }
        return (Double(differing) / Double(max(blocks, 1)), total / Double(max(blocks, 1)))
    }

    @Test(arguments: [
        ("normal-light", MapType.normal, UserInterfaceStyle.light), ("normal-dark", .normal, .dark),
        ("terrain-light", .terrain, .light), ("terrain-dark", .terrain, .dark), ("hybrid", .hybrid, .light),
        ("satellite", .satellite, .light), ("none", .none, .light),
    ])
    func everyMapTypeInEveryScheme(name: String, type: MapType, style: UserInterfaceStyle) throws {
        // Helsinki's centre and harbour: streets, water, labels, and the rasters under them.
        try check(name, view(latitude: 60.1675, longitude: 24.9450, zoom: 14, type: type, style: style))
    }

    @Test(arguments: [("bicycling-light", UserInterfaceStyle.light), ("bicycling-dark", .dark)])
    func theBicyclingLayerInEachScheme(name: String, style: UserInterfaceStyle) throws {
        let mapView = view(latitude: 60.1676, longitude: 24.9440, zoom: 16, style: style)
        mapView.isBicyclingEnabled = true
        try check(name, mapView)
    }

    @Test func paddingMovesTheControls() throws {
        let mapView = view(latitude: 60.1690, longitude: 24.9420, zoom: 15, bearing: 30)
        mapView.frame = Rect(x: 0, y: 0, width: 320, height: 280)
        mapView.padding = EdgeInsets(top: 20, left: 60, bottom: 50, right: 40)
        mapView.settings.zoomButtons = true
        mapView.settings.compassButton = true
        try check("padding", mapView)
    }

    @Test func tiltAndBearingRaiseTheBuildings() throws {
        try check("tilt-bearing", view(latitude: 60.1699, longitude: 24.9434, zoom: 17, bearing: 40, tilt: 55))
    }

    @Test func labelsInLatinAndDevanagari() throws {
        let mapView = view(latitude: 28.6, longitude: 77.2, zoom: 6)
        mapView.overlays = [
            .marker(Marker(position: Coordinate(latitude: 28.6139, longitude: 77.2090), title: "नई दिल्ली")),
            .marker(Marker(position: Coordinate(latitude: 27.1767, longitude: 78.0081), title: "आगरा")),
        ]
        try check("latin-devanagari", mapView)
    }

    @Test func theComparisonSeesARealChange() throws {
        let mapView = view(latitude: 60.1675, longitude: 24.9450, zoom: 14)
        let picture = try renderer.render(mapView).0
        #expect(Self.compare(picture, picture) == (0, 0))
        mapView.overrideUserInterfaceStyle = .dark
        let dark = try renderer.render(mapView).0
        #expect(Self.compare(picture, dark).differingBlocks > 0.5)
    }
}
