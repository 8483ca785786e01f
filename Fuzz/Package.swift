// swift-tools-version:6.0
// The libFuzzer target for the link parser, built by `make fuzz` with
// `-sanitize=fuzzer,address`; its main hands control to libFuzzer's driver.
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
    ],
    swiftLanguageModes: [.v6]
)
