// swift-tools-version: 6.1
//
// ParallaxKit's benchmarks, kept in a package of their own so that users of
// the library never resolve the benchmark harness (ordo-one/benchmark) or its
// dependencies.
//
// Run them from the repository root with `scripts/bench.sh` (or `make bench`),
// which also writes BENCHMARKS.md; or directly from this folder:
//
//   swift package --allow-writing-to-package-directory benchmark run
//
// The thumbnail benchmark (real photos against libvips) is a separate tool,
// `thumbnail-benchmark`, run by `scripts/bench-thumbnails.sh` (also part of
// `make bench`).
//
// The `MallocInterposer` trait makes the harness count mallocs on Linux, for
// the `mallocCountTotal` metric every benchmark here reports.
import PackageDescription

let package = Package(
    name: "ParallaxBenchmarks",
    // The harness and ParallaxKit both need macOS 13 (`Duration`); Linux ignores this.
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ParallaxKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The benchmark plugin generates the `@main` entry point, which calls
        // the global `benchmarks` closure: there is no main.swift.
        .executableTarget(
            name: "ParallaxBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ParallaxCore", package: "ParallaxKit"),
                .product(name: "ParallaxLayout", package: "ParallaxKit"),
            ],
            path: "Benchmarks/ParallaxBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

#if os(Linux)
// Thumbnails from real photos against libvips and a full decode, as whole
// processes too (peak memory): a plain executable, run by
// scripts/bench-thumbnails.sh, not by the benchmark harness. Linux only: it
// measures processes through posix_spawn, wait4 and /proc.
package.targets.append(
    .executableTarget(
        name: "thumbnail-benchmark",
        dependencies: [.product(name: "ParallaxImages", package: "ParallaxKit")],
        path: "Tools/ThumbnailBenchmark"
    )
)
// Image indexes (HTML listings, manifests) read over loopback HTTP, in a
// fresh process each: scripts/bench-index.sh.
package.targets.append(
    .executableTarget(
        name: "index-benchmark",
        dependencies: [.product(name: "ParallaxImages", package: "ParallaxKit")],
        path: "Tools/IndexBenchmark"
    )
)
// A photo library's listing (FolderImageSource over a tree of 3,000 to
// 300,000 photos), in a fresh process each, timed against `find`:
// scripts/bench-library-listing.sh.
package.targets.append(
    .executableTarget(
        name: "library-listing",
        dependencies: [.product(name: "ParallaxImages", package: "ParallaxKit")],
        path: "Tools/LibraryListing"
    )
)
#endif
