// swift-tools-version:6.0
import PackageDescription

/// The modules whose loops the tests run longest (contraction, import, elevation, rendering,
/// transit): compiled with optimisation in debug builds too, so that `swift test` spends its time
/// testing rather than in unspecialised generics. On 2 cores a clean build and the suite took
/// 4:10 + 6:57 min without, 6:23 + 2:15 with (the update tests alone 135 s and 28 s).
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "OpenMaps",
    products: [
        .library(name: "GeoCore", targets: ["GeoCore"]),
        .library(name: "MapsURL", targets: ["MapsURL"]),
        .library(name: "MapCore", targets: ["MapCore"]),
        .library(name: "MapsApp", targets: ["MapsApp"]),
        .library(name: "OSMReader", targets: ["OSMReader"]),
        .library(name: "OSMWriter", targets: ["OSMWriter"]),
        .library(name: "SQLiteKit", targets: ["SQLiteKit"]),
        .library(name: "PostgresKit", targets: ["PostgresKit"]),
        .library(name: "ZlibKit", targets: ["ZlibKit"]),
        .library(name: "Bzip2Kit", targets: ["Bzip2Kit"]),
        .library(name: "CairoKit", targets: ["CairoKit"]),
        .library(name: "MapRenderer", targets: ["MapRenderer"]),
        .library(name: "VectorTiles", targets: ["VectorTiles"]),
        .library(name: "MapData", targets: ["MapData"]),
        .library(name: "PlaceSearch", targets: ["PlaceSearch"]),
        .library(name: "Routing", targets: ["Routing"]),
        .library(name: "Transit", targets: ["Transit"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "MapsServer", targets: ["MapsServer"]),
        .library(name: "MapsCLI", targets: ["MapsCLI"]),
        .executable(name: "openmaps", targets: ["openmaps"]),
        .executable(name: "openmaps-bench", targets: ["openmaps-bench"]),
    ],
    targets: [
        // One HTTP GET through libcurl, loaded at the first request rather than linked (Linux;
        // elsewhere URLSession answers).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "GeoCore", dependencies: [.target(name: "CCurl", condition: .when(platforms: [.linux]))],
            swiftSettings: optimisedInDebug),
        .target(name: "MapsURL", dependencies: ["GeoCore"]),
        .target(name: "MapCore", dependencies: ["GeoCore"]),
        .target(
            name: "MapsApp",
            dependencies: [
                "GeoCore", "MapsURL", "MapCore", "MapData", "MapRenderer", "CairoKit", "PlaceSearch", "Routing",
                "Transit", "VectorTiles", "ZlibKit",
            ]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .target(name: "ZlibKit", dependencies: ["CZlib", "CZstd"]),
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"])]),
        .target(name: "Bzip2Kit", dependencies: ["CBzip2"]),
        .target(name: "OSMReader", dependencies: ["GeoCore", "ZlibKit", "Bzip2Kit"]),
        // OSM PBF and XML written by hand: the tests' exact fixtures and the benchmark's synthetic extract.
        .target(name: "OSMWriter", dependencies: ["GeoCore", "ZlibKit", "OSMReader"]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "SQLiteKit", dependencies: ["CSQLite"]),
        // libpq's headers (libpq-dev), and its functions loaded at first use rather than linked.
        .target(name: "CPostgres", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "PostgresKit", dependencies: ["CPostgres"]),
        // GDAL's headers (libgdal-dev), and its functions loaded at first use rather than linked.
        .target(name: "CGDAL", linkerSettings: [.linkedLibrary("dl")]),
        // The only code that calls GDAL: rasters read in any format and projection it knows.
        .target(name: "GDALKit", dependencies: ["CGDAL"]),
        .systemLibrary(name: "CCairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(name: "CJPEG", providers: [.apt(["libjpeg-dev"])]),
        .target(
            name: "CairoKit", dependencies: ["GeoCore", "CCairo", "CJPEG", "ZlibKit"], swiftSettings: optimisedInDebug),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // The only code that calls FreeType: SDF glyph ranges for the vector styles' labels.
        .target(name: "GlyphKit", dependencies: ["CFreeType", "GeoCore"]),
        // The tile schema, Mapbox Vector Tile encoding and PMTiles archives.
        .target(
            name: "VectorTiles",
            dependencies: ["GeoCore", "MapCore", "MapData", "MapRenderer", "CairoKit", "GlyphKit", "ZlibKit"]),
        .target(
            name: "MapRenderer", dependencies: ["CairoKit", "MapCore", "MapData", "GeoCore"],
            swiftSettings: optimisedInDebug),
        .target(
            name: "MapData", dependencies: ["GeoCore", "OSMReader", "SQLiteKit", "PostgresKit", "ZlibKit", "GDALKit"],
            swiftSettings: optimisedInDebug),
        .target(name: "PlaceSearch", dependencies: ["GeoCore", "MapData"]),
        .target(name: "Routing", dependencies: ["GeoCore", "MapData"], swiftSettings: optimisedInDebug),
        .target(name: "Transit", dependencies: ["GeoCore", "MapData", "Routing"], swiftSettings: optimisedInDebug),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(
            name: "MapsServer",
            dependencies: [
                "HTTPServer", "MapsApp", "MapsURL", "MapCore", "MapRenderer", "GeoCore", "PlaceSearch", "ZlibKit",
                "VectorTiles", "Routing", "MapData", "Transit",
            ],
            resources: [
                .embedInCode("Web/index.html"), .embedInCode("Web/app.js"), .embedInCode("Web/app.css"),
                .embedInCode("Web/vector.js"), .embedInCode("Web/surface.js"), .embedInCode("Web/labels.js"),
            ]),
        .target(
            name: "MapsCLI",
            dependencies: [
                "GeoCore", "MapsURL", "MapCore", "MapsApp", "OSMReader", "MapData", "CairoKit", "MapRenderer",
                "PlaceSearch", "Routing", "MapsServer", "HTTPServer", "VectorTiles",
            ]),
        .executableTarget(name: "openmaps", dependencies: ["MapsCLI"]),
        .executableTarget(
            name: "openmaps-bench",
            dependencies: [
                "MapsURL", "MapCore", "OSMReader", "GeoCore", "MapData", "MapRenderer", "PlaceSearch", "Routing",
                "Transit", "MapsApp", "OSMWriter",
            ]),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore"]),
        .testTarget(
            name: "VectorTilesTests",
            dependencies: [
                "VectorTiles", "MapData", "MapCore", "GeoCore", "ZlibKit", "GlyphKit", "MapRenderer", "CairoKit",
                "TestSupport",
            ]),
        .testTarget(
            name: "TransitTests",
            dependencies: ["Transit", "MapData", "MapCore", "MapsApp", "MapsCLI", "GeoCore", "TestSupport", "CairoKit"]),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: [
                "HTTPServer", "MapsServer", "MapsApp", "MapsURL", "GeoCore", "CairoKit", "MapData", "TestSupport",
                "MapsCLI", "VectorTiles", "Transit", "OSMReader",
            ]),
        .testTarget(name: "MapsURLTests", dependencies: ["MapsURL", "GeoCore", "TestSupport"]),
        .testTarget(name: "MapCoreTests", dependencies: ["MapCore", "GeoCore"]),
        .testTarget(name: "SQLiteKitTests", dependencies: ["SQLiteKit"]),
        .testTarget(name: "PostgresKitTests", dependencies: ["PostgresKit", "TestSupport"]),
        .testTarget(name: "ZlibKitTests", dependencies: ["GeoCore", "ZlibKit"]),
        .testTarget(name: "PlaceSearchTests", dependencies: ["PlaceSearch", "MapData", "GeoCore", "TestSupport"]),
        .testTarget(name: "RoutingTests", dependencies: ["Routing", "MapData", "GeoCore", "TestSupport"]),
        .testTarget(name: "Bzip2KitTests", dependencies: ["Bzip2Kit"]),
        .testTarget(
            name: "MapDataTests",
            dependencies: [
                "MapData", "OSMReader", "GeoCore", "SQLiteKit", "PostgresKit", "TestSupport", "ZlibKit", "Bzip2Kit",
                "GDALKit", "Routing", "HTTPServer",
            ]),
        .target(
            name: "TestSupport",
            dependencies: [
                "ZlibKit", "CairoKit", "GeoCore", "MapData", "PostgresKit", "OSMWriter", "OSMReader", "GDALKit",
            ],
            path: "Tests/TestSupport"),
        .testTarget(name: "CairoKitTests", dependencies: ["CairoKit", "GeoCore"]),
        .testTarget(
            name: "MapRendererTests",
            dependencies: [
                "MapRenderer", "MapsApp", "MapsURL", "MapData", "MapCore", "CairoKit", "GeoCore", "SQLiteKit",
                "TestSupport",
            ],
            // Golden images are read from the source tree (so they can be re-recorded in place).
            exclude: ["Golden"]),
        .testTarget(name: "OSMReaderTests", dependencies: ["OSMReader", "GeoCore", "TestSupport"]),
        .testTarget(
            name: "MapsAppTests",
            dependencies: [
                "MapsApp", "MapsURL", "MapCore", "GeoCore", "CairoKit", "MapData", "TestSupport", "PlaceSearch",
                "MapRenderer", "Routing", "Transit",
            ]),
        .testTarget(
            name: "MapsCLITests",
            dependencies: ["MapsCLI", "MapsURL", "MapData", "CairoKit", "SQLiteKit", "TestSupport", "OSMReader"]),
    ],
    swiftLanguageModes: [.v6]
)
