// swift-tools-version:6.0
//
// ParallaxKit: depth, window and layered parallax for scrolling lists and grids.
//
// The module graph is layered and only ever points downwards:
//
//   ParallaxCore      geometry, the parallax effect family, layers, scroll physics
//   ParallaxLayout    grid, list, quilt and waterfall layouts, place keeping,
//                     snapping, transitions
//   ParallaxImages    the image pipeline: sources, decoder, resampler, caches,
//                     loader (over CParallaxCodecs, libjpeg + libpng, on Linux;
//                     ImageIO on Apple platforms)
//   ParallaxHosting   what a scroll-view adapter decides (which cells get
//                     which placement, collection-view layout answers,
//                     image requests for reused cells), against small
//                     protocols so Linux tests drive it with fake views
//   ParallaxUIKit     UIKit adapters (Apple platforms only; empty elsewhere)
//   ParallaxSwiftUI   SwiftUI adapters (Apple platforms only; empty elsewhere)
//   ParallaxDemo      the tuning report behind the `parallax-demo` command
//   ParallaxGallery   the Linux photo gallery (SDL2) behind `parallax-gallery`
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
        .library(name: "ParallaxImages", targets: ["ParallaxImages"]),
        .library(name: "ParallaxHosting", targets: ["ParallaxHosting"]),
        .library(name: "ParallaxUIKit", targets: ["ParallaxUIKit"]),
        .library(name: "ParallaxSwiftUI", targets: ["ParallaxSwiftUI"]),
        .executable(name: "parallax-demo", targets: ["parallax-demo"]),
        .executable(name: "parallax-gallery", targets: ["parallax-gallery"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(name: "ParallaxCore"),
        .target(name: "ParallaxLayout", dependencies: ["ParallaxCore"]),
        // libjpeg(-turbo) and libpng from the system (Debian: libjpeg62-turbo-dev, libpng-dev).
        .target(
            name: "CParallaxCodecs",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png")]
        ),
        .target(
            name: "ParallaxImages",
            // No other ParallaxKit module: the image pipeline can be adopted alone.
            dependencies: [
                .target(name: "CParallaxCodecs", condition: .when(platforms: [.linux, .android, .openbsd])),
            ]
        ),
        .target(name: "ParallaxHosting", dependencies: ["ParallaxCore", "ParallaxLayout", "ParallaxImages"]),
        // Apple-only: every file is inside `#if canImport(UIKit)` / `#if canImport(SwiftUI)`,
        // so on Linux these build as empty modules. `make check-apple` type-checks them for iOS.
        .target(name: "ParallaxUIKit", dependencies: ["ParallaxCore", "ParallaxLayout", "ParallaxImages", "ParallaxHosting"]),
        .target(name: "ParallaxSwiftUI", dependencies: ["ParallaxCore", "ParallaxLayout", "ParallaxImages", "ParallaxHosting"]),
        .target(name: "ParallaxDemo", dependencies: ["ParallaxCore", "ParallaxLayout"]),
        // SDL2 and SDL2_ttf from the system (Debian: libsdl2-dev, libsdl2-ttf-dev).
        .systemLibrary(name: "CSDL2"),
        .target(
            name: "ParallaxGallery",
            dependencies: [
                "ParallaxCore", "ParallaxLayout", "ParallaxImages", "ParallaxHosting",
                .target(name: "CSDL2", condition: .when(platforms: [.linux])),
            ]
        ),
        .executableTarget(
            name: "parallax-gallery",
            dependencies: [
                "ParallaxGallery",
                // The shared command-line value rules (CommandLineValues), same wording as parallax-demo.
                "ParallaxDemo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "parallax-demo",
            dependencies: [
                "ParallaxDemo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ParallaxCoreTests", dependencies: ["ParallaxCore"]),
        .testTarget(name: "ParallaxLayoutTests", dependencies: ["ParallaxLayout"]),
        .testTarget(
            name: "ParallaxImagesTests",
            dependencies: [
                "ParallaxImages",
                "ParallaxCore",                                  // SplitMix64, for seeded random tests
                .target(name: "CParallaxCodecs", condition: .when(platforms: [.linux, .android, .openbsd])),
            ]
        ),
        .testTarget(name: "ParallaxHostingTests", dependencies: ["ParallaxHosting"]),
        .testTarget(name: "ParallaxDemoTests", dependencies: ["ParallaxDemo"]),
        .testTarget(name: "ParallaxGalleryTests", dependencies: ["ParallaxGallery"]),
    ]
)
