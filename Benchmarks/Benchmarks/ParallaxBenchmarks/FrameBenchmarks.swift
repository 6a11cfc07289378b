// The per-frame benchmarks: what ParallaxKit costs on every scroll event.
//
// One frame is the whole per-scroll-event job of a parallax scroll view on a
// 390 × 844 pt viewport (an iPhone 14/15 in portrait): ask the layout which
// items are visible, then compute the parallax placement of every one of
// them. It is measured at 1 thousand, 100 thousand and 10 million items,
// against a naive baseline in the same run (NaiveBaseline.swift) that
// recomputes every item's frame each frame, as a layout invalidated on every
// scroll event does: the failure Kurutepe's UICollectionView parallax post describes.
//
// Names are `Kind/variant/itemCount`:
//
//   Frame/<variant>/<n>   ParallaxKit: GridLayout.forEachItem(in:) and
//                         ParallaxScroller.placer(for:).placement(forItemFrame:).
//                         Scaling factor .kilo: one measured (outer)
//                         iteration is 1,000 frames.
//   Naive/<variant>/<n>   The naive baseline. Scaling factor .one: one
//                         measured iteration is one frame.
//
// scripts/bench-report.py relies on this convention to turn the harness's
// time per outer iteration into time per frame: names starting with
// "Naive/" are scale 1, every other name is scale 1,000. Keep the two in step
// when adding benchmarks.
//
// Every benchmark reports the same metrics (`FrameBenchmarks.metrics`): the
// harness's JMH export shares one table of secondary metrics between all
// benchmarks, so a metric reported by only some of them would leak into the
// records of the others.

import Benchmark
import Foundation
import ParallaxCore
import ParallaxLayout

/// Registers every per-frame benchmark; called by the `@main` that the
/// benchmark plugin generates.
let benchmarks: @Sendable () -> Void = {
    for scenario in FrameScenario.all {
        for itemCount in FrameBenchmarks.itemCounts {
            registerFrameBenchmark(scenario, itemCount: itemCount)
        }
        for itemCount in FrameBenchmarks.naiveItemCounts {
            registerNaiveBenchmark(scenario, itemCount: itemCount)
        }
    }
    registerLayoutBenchmarks()
    registerPinchBenchmarks()
}

// MARK: - Settings shared by both sides

/// The settings every per-frame benchmark shares, so that ParallaxKit and
/// the naive baseline are measured on exactly the same scroll.
enum FrameBenchmarks {
    /// The viewport: an iPhone 14/15 in portrait, in points.
    static let viewportSize = CGSize(width: 390, height: 844)

    /// How far the content moves between two frames: 37.3 pt, about
    /// 2,240 pt/s at 60 fps, a brisk fling. Not a divisor of any row pitch,
    /// so consecutive frames see the rows at different phases.
    static let scrollStep: CGFloat = 37.3

    /// The item counts ParallaxKit is measured at.
    static let itemCounts = [1_000, 100_000, 10_000_000]

    /// The item counts the naive baseline is measured at. Not 10 million: a
    /// naive frame there rebuilds 320 MB of frames (10 million 32-byte
    /// `CGRect`s, freshly allocated and page-faulted in) for every frame,
    /// tens of milliseconds or more each. The 2-second budget would collect
    /// only a handful of samples while the baseline's memory swamped the run,
    /// and it would show nothing new: the naive cost is linear in the item
    /// count, which 1,000 and 100,000 already show.
    static let naiveItemCounts = [1_000, 100_000]

    /// The metrics of every benchmark: the same set everywhere (see the note
    /// at the top of this file about the JMH export).
    static var metrics: [BenchmarkMetric] { [.wallClock, .throughput, .mallocCountTotal] }

    /// The configuration of one benchmark. `scalingFactor` is the number of
    /// frames in one measured iteration; it must agree with the naming
    /// convention that scripts/bench-report.py reads (see the top of this
    /// file).
    static func configuration(scalingFactor: BenchmarkScalingFactor, maxIterations: Int) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: metrics,
            timeUnits: .nanoseconds,
            warmupIterations: 3,
            scalingFactor: scalingFactor,
            maxDuration: .seconds(2),
            maxIterations: maxIterations
        )
    }
}

/// A layout shape to scroll through: a grid or list configuration and the
/// parallax effect that goes with it.
struct FrameScenario: Sendable {
    /// The variant's part of the benchmark names.
    let name: String
    let configuration: GridConfiguration
    let effect: ParallaxEffect
    /// The column count the configuration gives at the viewport's width;
    /// checked in setup, because the visible-item counts documented below
    /// depend on it.
    let expectedColumns: Int

    /// RolfHendriks' UICollectionView-Demo's photo grid: 2 columns of 183 × 183 pt cells (191-pt row
    /// pitch), 10–12 visible items per frame.
    static let grid = FrameScenario(
        name: "grid", configuration: .grid, effect: .gridDefault, expectedColumns: 2)

    /// The headline case, "about 30 visible cells": small 80-pt thumbnails
    /// give 4 columns of 87.5 × 87.5 pt cells (95.5-pt row pitch), 36–40
    /// visible items per frame.
    static let denseGrid = FrameScenario(
        name: "grid-dense",
        configuration: GridConfiguration(preferredItemSize: CGSize(width: 80, height: 80)),
        effect: .gridDefault,
        expectedColumns: 4)

    /// RolfHendriks' UICollectionView-Demo's list: one column of 390 × 195 pt cells (203-pt row
    /// pitch), 5–6 visible items per frame, with the list's parallax setting.
    static let list = FrameScenario(
        name: "list", configuration: .list, effect: .listDefault, expectedColumns: 1)

    static let all = [denseGrid, grid, list]

    /// The scenario's layout of `itemCount` items in one section, at the
    /// benchmark viewport's size.
    func makeLayout(itemCount: Int) throws(LayoutError) -> GridLayout {
        let layout = try GridLayout(
            configuration: configuration, itemCount: itemCount, containerSize: FrameBenchmarks.viewportSize)
        precondition(
            layout.columnCount == expectedColumns,
            "\(name): expected \(expectedColumns) columns at \(FrameBenchmarks.viewportSize.width) pt, got \(layout.columnCount)")
        return layout
    }

    /// The scroller both sides use.
    func makeScroller() -> ParallaxScroller { ParallaxScroller(effect: effect) }
}

/// The scroll positions a benchmark visits: frame `f` shows the content
/// scrolled to `f × step`, wrapped into the scrollable range, so that every
/// frame differs from the one before and the run keeps moving through the
/// content instead of answering one position over and over.
struct ScrollPath: Sendable {
    /// How far the content moves per frame.
    let step: CGFloat
    /// The scrollable distance, content extent minus viewport extent (≥ 0).
    let range: CGFloat

    init(contentExtent: CGFloat, viewportExtent: CGFloat, step: CGFloat = FrameBenchmarks.scrollStep) {
        self.step = step
        self.range = max(contentExtent - viewportExtent, 0)
    }

    /// The offset of frame number `frame`.
    func offset(atFrame frame: Int) -> CGFloat {
        guard range > 0 else { return 0 }
        return (CGFloat(frame) * step).truncatingRemainder(dividingBy: range)
    }

    /// The offset one frame after `offset`: an addition and a comparison,
    /// except when the scroll wraps around.
    @inline(__always)
    func offset(after offset: CGFloat) -> CGFloat {
        let next = offset + step
        if next < range { return next }
        return range > 0 ? next.truncatingRemainder(dividingBy: range) : 0
    }
}

/// The measured loop every per-frame benchmark shares: `benchmark`'s scaled
/// iterations are consecutive frames along `path`, continuing where the
/// previous iteration (warm-up included) stopped; the frames' checksums go to
/// `blackHole` so no work can be optimised away.
@inline(__always)
func scrollFrames(_ benchmark: Benchmark, along path: ScrollPath, render: (CGFloat) -> CGFloat) {
    var offset = path.offset(atFrame: benchmark.currentIteration * benchmark.scaledIterations.count)
    var checksum: CGFloat = 0
    for _ in benchmark.scaledIterations {
        checksum += render(offset)
        offset = path.offset(after: offset)
    }
    blackHole(checksum)
}

// MARK: - ParallaxKit

/// What a ParallaxKit frame needs, built in setup so that none of it is
/// measured: the layout is built once and only ever read afterwards, never
/// invalidated by scrolling.
struct FrameFixture: Sendable {
    let layout: GridLayout
    let scroller: ParallaxScroller
    let path: ScrollPath

    init(scenario: FrameScenario, itemCount: Int) throws(LayoutError) {
        layout = try scenario.makeLayout(itemCount: itemCount)
        scroller = scenario.makeScroller()
        path = ScrollPath(contentExtent: layout.contentExtent, viewportExtent: FrameBenchmarks.viewportSize.height)
    }

    /// One frame with the content scrolled to `offset`: the visible query
    /// and the parallax placement of every visible item, without allocating.
    ///
    /// Returns the sum of the placements' offsets along the scroll axis, so
    /// the work has a result the compiler cannot discard.
    @inline(__always)
    func renderFrame(at offset: CGFloat) -> CGFloat {
        let visibleRect = CGRect(origin: CGPoint(x: 0, y: offset), size: FrameBenchmarks.viewportSize)
        var checksum: CGFloat = 0
        let placer = scroller.placer(for: visibleRect)
        layout.forEachItem(in: visibleRect) { _, frame in
            checksum += placer.placement(forItemFrame: frame).offset.y
        }
        return checksum
    }
}

/// Registers `Frame/<variant>/<itemCount>`: 1,000 consecutive frames per
/// measured iteration (scaling factor `.kilo`).
func registerFrameBenchmark(_ scenario: FrameScenario, itemCount: Int) {
    Benchmark(
        "Frame/\(scenario.name)/\(itemCount)",
        configuration: FrameBenchmarks.configuration(scalingFactor: .kilo, maxIterations: 2_000)
    ) { (benchmark: Benchmark, fixture: FrameFixture) in
        scrollFrames(benchmark, along: fixture.path, render: fixture.renderFrame(at:))
    } setup: {
        try FrameFixture(scenario: scenario, itemCount: itemCount)
    }
}
