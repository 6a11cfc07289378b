// The quilt and waterfall benchmarks: building a layout up front, and the
// per-frame cost of scrolling it with parallax.
//
// Names are `Kind/implementation/itemCount`:
//
//   QuiltBuild/parallaxkit/<n>   QuiltLayout built from scratch (one build per iteration).
//   QuiltBuild/rfquilt/<n>       RFQuiltBaseline.prepare(), the port of RFQuiltLayout (one build per iteration).
//   QuiltFrame/<impl>/<n>        One frame = the rect query for a 390 × 844 viewport plus the parallax
//                                placement of every item it returns; 1,000 frames per iteration.
//                                `rfquilt` keeps its layout between frames: RFQuiltLayout's best case.
//   QuiltFrame/rfquilt-invalidated/<n>  The actual failure of Kurutepe's parallax category: parallax done in the layout
//                                (Ole Begemann's approach) invalidates it on every scroll event, so
//                                each frame is RFQuiltLayout's invalidateLayout, prepareLayout (which
//                                places items up to the visible rows again) and the rect query; one
//                                frame per iteration.
//   WaterfallBuild/parallaxkit/<n>, WaterfallFrame/parallaxkit/<n>: the same for WaterfallLayout.
//
// scripts/bench-report.py reads the scale from the name: `QuiltBuild/` and
// `WaterfallBuild/` are one build per iteration, the frame kinds 1,000
// frames per iteration.
//
// Items are a fixed-seed random mix of 1×1, 2×1, 1×2 and 2×2 blocks of
// 100 × 100 pt in a 390-pt-wide container (3 columns). The baseline runs at
// 1,000 and 100,000 items only: its placement rescans from a first open
// block that lags ever further behind, so a million items would take minutes
// per build.

import Benchmark
import Foundation
import ParallaxCore
import ParallaxLayout

enum LayoutBenchmarks {
    static let viewportSize = CGSize(width: 390, height: 844)
    static let itemCounts = [1_000, 100_000, 1_000_000]
    static let baselineItemCounts = [1_000, 100_000]

    /// The mixed block sizes, the same for both implementations.
    static func spans(count: Int) -> [QuiltSpan] {
        var rng = SeededGenerator(seed: 2015)
        let mix = [QuiltSpan(width: 1, height: 1), QuiltSpan(width: 2, height: 1),
                   QuiltSpan(width: 1, height: 2), QuiltSpan(width: 2, height: 2)]
        return (0..<count).map { _ in mix[Int.random(in: 0..<4, using: &rng)] }
    }

    /// Photo-like sizes (landscape, portrait, square) for the waterfall.
    static func photoSizes(count: Int) -> [CGSize] {
        var rng = SeededGenerator(seed: 2016)
        let shapes = [CGSize(width: 4, height: 3), CGSize(width: 3, height: 4), CGSize(width: 1, height: 1),
                      CGSize(width: 16, height: 9), CGSize(width: 2, height: 3)]
        return (0..<count).map { _ in shapes[Int.random(in: 0..<shapes.count, using: &rng)] }
    }

    static func configuration(scalingFactor: BenchmarkScalingFactor, maxIterations: Int) -> Benchmark.Configuration {
        FrameBenchmarks.configuration(scalingFactor: scalingFactor, maxIterations: maxIterations)
    }
}

/// A scroll through a built layout: the same 37.3-pt steps as the grid benchmarks.
struct LayoutFrameFixture<Layout: ItemLayout>: Sendable {
    let layout: Layout
    let scroller = ParallaxScroller(effect: .gridDefault)
    let path: ScrollPath

    init(layout: Layout) {
        self.layout = layout
        path = ScrollPath(contentExtent: layout.contentExtent, viewportExtent: LayoutBenchmarks.viewportSize.height)
    }

    @inline(__always)
    func renderFrame(at offset: CGFloat) -> CGFloat {
        let visibleRect = CGRect(origin: CGPoint(x: 0, y: offset), size: LayoutBenchmarks.viewportSize)
        let placer = scroller.placer(for: visibleRect)
        var checksum: CGFloat = 0
        layout.forEachItem(in: visibleRect) { _, frame in checksum += placer.placement(forItemFrame: frame).offset.y }
        return checksum
    }
}

/// The baseline's frame: RFQuiltLayout's rect query, then the same parallax.
///
/// `@unchecked Sendable`: the harness hands the fixture from its setup to
/// the measured closure, both on one thread; nothing else touches it.
final class RFQuiltFrameFixture: @unchecked Sendable {
    let layout: RFQuiltBaseline
    let scroller = ParallaxScroller(effect: .gridDefault)
    let path: ScrollPath

    init(spans: [QuiltSpan]) {
        layout = RFQuiltBaseline(blockSizes: spans.map { RFQuiltBaselineBlock(width: $0.width, height: $0.height) },
                                 containerWidth: Double(LayoutBenchmarks.viewportSize.width))
        layout.prepare()
        path = ScrollPath(contentExtent: layout.contentSize.height, viewportExtent: LayoutBenchmarks.viewportSize.height)
    }

    func renderFrame(at offset: CGFloat, invalidating: Bool = false) -> CGFloat {
        let visibleRect = CGRect(origin: CGPoint(x: 0, y: offset), size: LayoutBenchmarks.viewportSize)
        if invalidating {
            layout.invalidate()
            layout.prepare(visibleRect: visibleRect)
        }
        let placer = scroller.placer(for: visibleRect)
        var checksum: CGFloat = 0
        for attributes in layout.layoutAttributes(in: visibleRect) {
            checksum += placer.placement(forItemFrame: attributes.frame).offset.y
        }
        return checksum
    }
}

func registerLayoutBenchmarks() {
    for count in LayoutBenchmarks.itemCounts {
        Benchmark("QuiltBuild/parallaxkit/\(count)",
                  configuration: LayoutBenchmarks.configuration(scalingFactor: .one, maxIterations: 200)) { (benchmark: Benchmark, spans: [QuiltSpan]) in
            for _ in benchmark.scaledIterations {
                let quilt = try QuiltLayout(configuration: QuiltConfiguration(), spans: spans,
                                            containerSize: LayoutBenchmarks.viewportSize)
                blackHole(quilt.contentSize)
            }
        } setup: {
            LayoutBenchmarks.spans(count: count)
        }

        Benchmark("QuiltFrame/parallaxkit/\(count)",
                  configuration: LayoutBenchmarks.configuration(scalingFactor: .kilo, maxIterations: 2_000)) { (benchmark: Benchmark, fixture: LayoutFrameFixture<QuiltLayout>) in
            scrollFrames(benchmark, along: fixture.path) { fixture.renderFrame(at: $0) }
        } setup: {
            LayoutFrameFixture(layout: try QuiltLayout(configuration: QuiltConfiguration(), spans: LayoutBenchmarks.spans(count: count),
                                                       containerSize: LayoutBenchmarks.viewportSize))
        }
    }

    for count in LayoutBenchmarks.baselineItemCounts {
        // One baseline build at 100,000 items takes about 2 s: no warm-up (it would eat the whole time budget)
        // and a longer budget, so a few builds are measured.
        var baselineBuild = LayoutBenchmarks.configuration(scalingFactor: .one, maxIterations: 20)
        baselineBuild.warmupIterations = count >= 100_000 ? 0 : 3
        baselineBuild.maxDuration = .seconds(count >= 100_000 ? 12 : 2)
        Benchmark("QuiltBuild/rfquilt/\(count)", configuration: baselineBuild) { (benchmark: Benchmark, spans: [QuiltSpan]) in
            let blocks = spans.map { RFQuiltBaselineBlock(width: $0.width, height: $0.height) }
            for _ in benchmark.scaledIterations {
                let quilt = RFQuiltBaseline(blockSizes: blocks, containerWidth: Double(LayoutBenchmarks.viewportSize.width))
                quilt.prepare()
                blackHole(quilt.contentSize)
            }
        } setup: {
            LayoutBenchmarks.spans(count: count)
        }

        Benchmark("QuiltFrame/rfquilt/\(count)",
                  configuration: LayoutBenchmarks.configuration(scalingFactor: .kilo, maxIterations: 200)) { (benchmark: Benchmark, fixture: RFQuiltFrameFixture) in
            scrollFrames(benchmark, along: fixture.path) { fixture.renderFrame(at: $0) }
        } setup: {
            RFQuiltFrameFixture(spans: LayoutBenchmarks.spans(count: count))
        }

        // At 100,000 items one invalidated frame re-places tens of thousands of items (seconds): as above.
        var invalidatedFrames = LayoutBenchmarks.configuration(scalingFactor: .one, maxIterations: 200)
        invalidatedFrames.warmupIterations = count >= 100_000 ? 0 : 3
        invalidatedFrames.maxDuration = .seconds(count >= 100_000 ? 12 : 2)
        Benchmark("QuiltFrame/rfquilt-invalidated/\(count)", configuration: invalidatedFrames) { (benchmark: Benchmark, fixture: RFQuiltFrameFixture) in
            // Frames spread evenly through the content, as a long scroll visits them.
            let offset = fixture.path.offset(atFrame: benchmark.currentIteration * 997)
            for _ in benchmark.scaledIterations {
                blackHole(fixture.renderFrame(at: offset, invalidating: true))
            }
        } setup: {
            RFQuiltFrameFixture(spans: LayoutBenchmarks.spans(count: count))
        }
    }

    let waterfallCount = 1_000_000
    Benchmark("WaterfallBuild/parallaxkit/\(waterfallCount)",
              configuration: LayoutBenchmarks.configuration(scalingFactor: .one, maxIterations: 50)) { (benchmark: Benchmark, sizes: [CGSize]) in
        for _ in benchmark.scaledIterations {
            let waterfall = try WaterfallLayout(configuration: WaterfallConfiguration(), itemSizes: sizes,
                                                containerSize: LayoutBenchmarks.viewportSize)
            blackHole(waterfall.contentSize)
        }
    } setup: {
        LayoutBenchmarks.photoSizes(count: waterfallCount)
    }
    Benchmark("WaterfallFrame/parallaxkit/\(waterfallCount)",
              configuration: LayoutBenchmarks.configuration(scalingFactor: .kilo, maxIterations: 2_000)) { (benchmark: Benchmark, fixture: LayoutFrameFixture<WaterfallLayout>) in
        scrollFrames(benchmark, along: fixture.path, render: fixture.renderFrame(at:))
    } setup: {
        LayoutFrameFixture(layout: try WaterfallLayout(configuration: WaterfallConfiguration(),
                                                       itemSizes: LayoutBenchmarks.photoSizes(count: waterfallCount),
                                                       containerSize: LayoutBenchmarks.viewportSize))
    }
}
