// swift-tools-version:6.0
// The decoder's fuzz targets (run by `make fuzz`), in their own package so
// library users never build them. See Fuzz/README.md.
import PackageDescription

let package = Package(
    name: "ParallaxKitFuzz",
    dependencies: [.package(name: "ParallaxKit", path: "..")],
    targets: [
        .executableTarget(
            name: "decoder-fuzzer",
            dependencies: [.product(name: "ParallaxImages", package: "ParallaxKit")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
