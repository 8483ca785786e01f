// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OpenMaps",
    products: [
        .library(name: "GeoCore", targets: ["GeoCore"]),
        .library(name: "MapsURL", targets: ["MapsURL"]),
        .library(name: "MapCore", targets: ["MapCore"]),
        .library(name: "MapsApp", targets: ["MapsApp"]),
        .library(name: "MapsCLI", targets: ["MapsCLI"]),
        .executable(name: "openmaps", targets: ["openmaps"]),
        .executable(name: "openmaps-bench", targets: ["openmaps-bench"]),
    ],
    targets: [
        .target(name: "GeoCore"),
        .target(name: "MapsURL", dependencies: ["GeoCore"]),
        .target(name: "MapCore", dependencies: ["GeoCore"]),
        .target(name: "MapsApp", dependencies: ["GeoCore", "MapsURL", "MapCore"]),
        .target(name: "MapsCLI", dependencies: ["GeoCore", "MapsURL", "MapCore", "MapsApp"]),
        .executableTarget(name: "openmaps", dependencies: ["MapsCLI"]),
        .executableTarget(name: "openmaps-bench", dependencies: ["MapsURL", "MapCore"]),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore"]),
        .testTarget(name: "MapsURLTests", dependencies: ["MapsURL", "GeoCore"]),
        .testTarget(name: "MapCoreTests", dependencies: ["MapCore", "GeoCore"]),
        .testTarget(name: "MapsAppTests", dependencies: ["MapsApp", "MapsURL", "MapCore", "GeoCore"]),
        .testTarget(name: "MapsCLITests", dependencies: ["MapsCLI", "MapsURL"]),
    ],
    swiftLanguageModes: [.v6]
)
