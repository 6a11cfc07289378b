// swift-tools-version:6.0
//
// ParallaxKit's apps, in a package of their own beside the library so that a
// user of the library never resolves their dependencies (SDL2,
// swift-argument-parser) or builds them:
//
//   ParallaxGallery    the Linux photo gallery (SDL2): window, headless
//                      renderer, and the session benchmarks behind `make bench`
//   parallax-gallery   its command
//   ParallaxDemo       the tuning report: visible items, frames, parallax offsets
//   parallax-demo      its command
//
// Nothing here is a library product: the modules share what they need with
// `package` access. Run from the repository root with `make run` (the
// gallery) and `make test`, or from this folder with `swift run parallax-gallery`.
import PackageDescription

let package = Package(
    name: "ParallaxApps",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "parallax-gallery", targets: ["parallax-gallery"]),
        .executable(name: "parallax-demo", targets: ["parallax-demo"]),
    ],
    dependencies: [
        .package(name: "ParallaxKit", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "ParallaxDemo",
            dependencies: [
                .product(name: "ParallaxCore", package: "ParallaxKit"),
                .product(name: "ParallaxLayout", package: "ParallaxKit"),
            ]
        ),
        // SDL2 and SDL2_ttf from the system (Debian: libsdl2-dev, libsdl2-ttf-dev).
        .systemLibrary(name: "CSDL2"),
        .target(
            name: "ParallaxGallery",
            dependencies: [
                .product(name: "ParallaxCore", package: "ParallaxKit"),
                .product(name: "ParallaxLayout", package: "ParallaxKit"),
                .product(name: "ParallaxImages", package: "ParallaxKit"),
                .product(name: "ParallaxHosting", package: "ParallaxKit"),
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
        .testTarget(name: "ParallaxDemoTests", dependencies: ["ParallaxDemo"]),
        .testTarget(name: "ParallaxGalleryTests", dependencies: ["ParallaxGallery"]),
    ]
)
