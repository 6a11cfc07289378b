// swift-tools-version:6.1
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
//   ParallaxCommandLine the value rules both commands share (ranges, sizes,
//                      lists of choices, output paths) and their wording
//   ParallaxImagesHTTP a libcurl transport for HTTPImageSource on Linux (a
//                      library product; see its module's doc comment for why
//                      it lives here and why libcurl)
//   transport-measure  its figures against nginx (scripts/measure-transport.sh)
//   ParallaxLibraryIndex a photo library's index on disk (SQLite, the
//                      system's libsqlite3): what a second launch shows first
//   library-index-measure its figures at 100,000 photos (release build, by hand)
//
// Apart from ParallaxImagesHTTP nothing here is a library product: the
// modules share what they need with `package` access. Run from the repository root with `make run` (the
// gallery) and `make test`, or from this folder with `swift run parallax-gallery`.
import PackageDescription

let package = Package(
    name: "ParallaxApps",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "parallax-gallery", targets: ["parallax-gallery"]),
        .executable(name: "parallax-demo", targets: ["parallax-demo"]),
        .library(name: "ParallaxImagesHTTP", targets: ["ParallaxImagesHTTP"]),
    ],
    dependencies: [
        // Without the LinuxURLSession trait: the apps bring their own transport (ParallaxImagesHTTP, on
        // libcurl opened when a server is first asked), so they start without FoundationNetworking and libcurl.
        .package(name: "ParallaxKit", path: "..", traits: []),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Foundation only: the commands hand its rules to swift-argument-parser themselves.
        .target(name: "ParallaxCommandLine"),
        .target(
            name: "ParallaxDemo",
            dependencies: [
                .product(name: "ParallaxCore", package: "ParallaxKit"),
                .product(name: "ParallaxLayout", package: "ParallaxKit"),
            ]
        ),
        // SDL2 and SDL2_ttf from the system (Debian: libsdl2-dev, libsdl2-ttf-dev).
        .systemLibrary(name: "CSDL2"),
        // glibc's allocator statistics, for the memory benchmark's breakdown.
        .systemLibrary(name: "CGlibcMalloc"),
        .target(
            name: "ParallaxGallery",
            dependencies: [
                .product(name: "ParallaxCore", package: "ParallaxKit"),
                .product(name: "ParallaxLayout", package: "ParallaxKit"),
                .product(name: "ParallaxImages", package: "ParallaxKit"),
                .product(name: "ParallaxHosting", package: "ParallaxKit"),
                "ParallaxLibraryIndex",
                // HTTP on libcurl on Linux, where swift-corelibs-foundation's URLSession cannot
                // stop a transfer; Apple's URLSession can.
                .target(name: "ParallaxImagesHTTP", condition: .when(platforms: [.linux])),
                .target(name: "CSDL2", condition: .when(platforms: [.linux])),
                .target(name: "CGlibcMalloc", condition: .when(platforms: [.linux])),
            ]
        ),
        .executableTarget(
            name: "parallax-gallery",
            dependencies: [
                "ParallaxGallery",
                "ParallaxCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Draws the scripted frames whose instructions scripts/frame-instructions.sh counts under callgrind.
        .executableTarget(
            name: "parallax-frame-cost",
            dependencies: [
                "ParallaxGallery",
                "ParallaxCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "parallax-demo",
            dependencies: [
                "ParallaxDemo",
                "ParallaxCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // SQLite from the system (Debian: libsqlite3-dev; Apple platforms ship it).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(
            name: "ParallaxLibraryIndex",
            dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux])), .product(name: "ParallaxImages", package: "ParallaxKit")]
        ),
        // A second process writing to one index, for the test that two
        // galleries on one index never corrupt it nor fail on its lock.
        .executableTarget(
            name: "library-index-writer",
            dependencies: ["ParallaxLibraryIndex"],
            path: "Tests/LibraryIndexWriter"
        ),
        // The index's figures at 100,000 photos (release build, by hand).
        .executableTarget(
            name: "library-index-measure",
            dependencies: ["ParallaxLibraryIndex"],
            path: "Tests/LibraryIndexMeasure"
        ),
        // libcurl from the system (Debian: libcurl4-openssl-dev for its
        // headers), opened when the first transport is made, not linked
        // (Sources/CCurl/include/ccurl.h says why).
        .target(name: "CCurl"),
        .target(
            name: "ParallaxImagesHTTP",
            dependencies: [.product(name: "ParallaxImages", package: "ParallaxKit"), "CCurl"]
        ),
        // Measures the transport against nginx and hostile servers (release
        // build, by hand: scripts/measure-transport.sh); not part of `make test`.
        .executableTarget(
            name: "transport-measure",
            dependencies: ["ParallaxImagesHTTP", "ParallaxImagesHTTPTestSupport"]
        ),
        // The nginx runner and the hostile loopback server, shared by the
        // tests and the measurement.
        .target(
            name: "ParallaxImagesHTTPTestSupport",
            dependencies: [.product(name: "ParallaxImages", package: "ParallaxKit")],
            path: "Tests/ParallaxImagesHTTPTestSupport"
        ),
        // Running the apps' executables from their tests, shared by both suites that do.
        .target(name: "ProcessTestSupport", path: "Tests/ProcessTestSupport"),
        .testTarget(name: "ParallaxCommandLineTests", dependencies: ["ParallaxCommandLine"]),
        .testTarget(name: "ParallaxDemoTests", dependencies: ["ParallaxDemo", "ProcessTestSupport"]),
        .testTarget(
            name: "ParallaxImagesHTTPTests",
            dependencies: ["ParallaxImagesHTTP", "ParallaxImagesHTTPTestSupport"]
        ),
        .testTarget(name: "ParallaxGalleryTests", dependencies: ["ParallaxGallery", "ParallaxLibraryIndex", "ProcessTestSupport"]),
        .testTarget(name: "ParallaxLibraryIndexTests", dependencies: ["ParallaxLibraryIndex", "CSQLite"]),
    ]
)
