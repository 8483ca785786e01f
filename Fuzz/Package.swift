// swift-tools-version:6.0
// The libFuzzer targets, built by `make fuzz` with `-sanitize=fuzzer,address`: the link
// parser, and the data readers (OSM PBF and XML, OSM change files, GTFS feeds); each main hands
// control to libFuzzer's driver.
import PackageDescription

let package = Package(
    name: "OpenMapsFuzz",
    dependencies: [.package(name: "OpenMaps", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "MapsURLFuzzer",
            dependencies: ["CFuzzerDriver", .product(name: "MapsURL", package: "OpenMaps")]
        ),
        .executableTarget(
            name: "ReadersFuzzer",
            dependencies: [
                "CFuzzerDriver", .product(name: "OSMReader", package: "OpenMaps"),
                .product(name: "OSMWriter", package: "OpenMaps"), .product(name: "MapData", package: "OpenMaps"),
                .product(name: "ZlibKit", package: "OpenMaps"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
