// swift-tools-version:6.0
//
// ParallaxKit: depth, window and layered parallax for scrolling lists and grids.
//
// The module graph is layered and only ever points downwards:
//
//   ParallaxCore      geometry, the parallax effect family, layers, scroll physics
//   ParallaxLayout    grid/list layouts, place keeping, snapping, transitions
//   ParallaxDemo      the tuning report behind the `parallax-demo` command
//
// Benchmarks live in their own package under Benchmarks/ so that users of
// the library never resolve benchmark dependencies.
import PackageDescription

let package = Package(
    name: "ParallaxKit",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "ParallaxCore", targets: ["ParallaxCore"]),
        .library(name: "ParallaxLayout", targets: ["ParallaxLayout"]),
        .executable(name: "parallax-demo", targets: ["parallax-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(name: "ParallaxCore"),
        .target(name: "ParallaxLayout", dependencies: ["ParallaxCore"]),
        .target(name: "ParallaxDemo", dependencies: ["ParallaxCore", "ParallaxLayout"]),
        .executableTarget(
            name: "parallax-demo",
            dependencies: [
                "ParallaxDemo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ParallaxCoreTests", dependencies: ["ParallaxCore"]),
        .testTarget(name: "ParallaxLayoutTests", dependencies: ["ParallaxLayout"]),
        .testTarget(name: "ParallaxDemoTests", dependencies: ["ParallaxDemo"]),
    ]
)
