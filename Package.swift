// swift-tools-version:6.1
//
// ParallaxKit: depth, window and layered parallax for scrolling lists and grids.
//
// The module graph is layered and only ever points downwards:
//
//   ParallaxCore      geometry, the parallax effect family, layers, scroll physics
//   ParallaxLayout    grid, list, quilt and waterfall layouts, place keeping,
//                     snapping, transitions
//   ParallaxImages    the image pipeline: sources, decoder, resampler, caches,
//                     loader (over CParallaxCodecs on Linux: libjpeg, libpng,
//                     libwebp, libheif and libavif; ImageIO on Apple platforms)
//   ParallaxHosting   what a scroll-view adapter decides (which cells get
//                     which placement, collection-view layout answers,
//                     image requests for reused cells), against small
//                     protocols so Linux tests drive it with fake views
//   ParallaxUIKit     UIKit adapters (Apple platforms only; empty elsewhere)
//   ParallaxSwiftUI   SwiftUI adapters (Apple platforms only; empty elsewhere)
//
// The apps (the Linux photo gallery and the tuning demo, with SDL2 and
// swift-argument-parser) live in their own package under Apps/, and the
// benchmarks under Benchmarks/: both depend on this one by path, so a user of
// the library resolves nothing but the library.
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
    ],
    traits: [
        // On Linux, Foundation's URLSession is in FoundationNetworking, which links libcurl and the 25
        // libraries it links (OpenSSL, GnuTLS, Kerberos, LDAP…): the dynamic loader maps and resolves them
        // at every start of a program that links it, 14-17 ms here. With this trait (on by default)
        // ParallaxImages has `URLSessionTransport` and the HTTPImageSource initializer that makes one;
        // without it, a program that brings its own transport (the apps' libcurl one, opened only when a
        // server is asked for) links none of them. Apple platforms always have both: URLSession is there.
        .trait(name: "LinuxURLSession",
               description: "URLSessionTransport on Linux (FoundationNetworking, which links libcurl)"),
        .default(enabledTraits: ["LinuxURLSession"]),
    ],
    targets: [
        .target(name: "ParallaxCore"),
        .target(name: "ParallaxLayout", dependencies: ["ParallaxCore"]),
        // The codecs from the system (Debian: libjpeg62-turbo-dev, libpng-dev, libisal-dev, libwebp-dev,
        // libheif-dev, libavif-dev). This target is built on Linux only (ParallaxImages depends
        // on it there alone), so nothing here reaches an Apple platform.
        .target(
            name: "CParallaxCodecs",
            linkerSettings: [
                .linkedLibrary("jpeg"), .linkedLibrary("png"),
                // PNG photos and screenshots inflated by Intel's ISA-L (parallax_png_rows.c), three times
                // as fast as zlib.
                .linkedLibrary("isal", .when(platforms: [.linux, .android, .openbsd])),
                .linkedLibrary("webp", .when(platforms: [.linux, .android, .openbsd])),
                .linkedLibrary("webpdemux", .when(platforms: [.linux, .android, .openbsd])),
                // libheif and libavif are loaded when the first HEIF or AVIF photo is met
                // (dlopen; parallax_heif.c says why), not linked.
            ]
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
    ]
)

// The documentation (`make docs`, and `make test`, which builds it with
// warnings as errors) needs swift-docc-plugin. It is added only when
// PARALLAXKIT_DOCS is set, so a user of the library never resolves it.
if Context.environment["PARALLAXKIT_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}

// The thread-sanitizer run of `make test` needs one test target, ParallaxImagesTests (the loader's,
// the caches' and the work queues' concurrency tests). PARALLAXKIT_TESTS_ONLY names the test targets
// to keep (comma-separated); every other target that none of them depends on is left out, and so is
// every product left empty, so that build compiles only what those tests run. Set only by `make test`,
// in a scratch folder of its own; a user of the library never sets it.
if let kept = Context.environment["PARALLAXKIT_TESTS_ONLY"] {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var needed = Set<String>()
    var next = kept.split(separator: ",").map(String.init).filter { byName[$0]?.type == .test }
    while let name = next.popLast() {
        guard needed.insert(name).inserted, let target = byName[name] else { continue }
        for dependency in target.dependencies {
            if case .byNameItem(let name, _) = dependency { next.append(name) }
            if case .targetItem(let name, _) = dependency { next.append(name) }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll { product in
        guard case let library as Product.Library = product else { return true }
        return !library.targets.allSatisfy(needed.contains)
    }
    // PARALLAXKIT_TEST_SOURCES names the files of those test targets to compile (comma-separated; the
    // suites a run filters to, and the fixtures they use): the rest of a large test target is not
    // compiled under the sanitizer for suites that run without it anyway.
    if let sources = Context.environment["PARALLAXKIT_TEST_SOURCES"] {
        let files = sources.split(separator: ",").map(String.init)
        for target in package.targets where target.type == .test { target.sources = files }
    }
}
