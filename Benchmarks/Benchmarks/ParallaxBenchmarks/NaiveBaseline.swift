// The naive baseline: parallax done by invalidating the layout on every
// scroll event, the failure Kurutepe's post on parallax as a UICollectionView category describes: "Since the layout
// gets invalidated at each scroll event, it needs to be recomputed
// constantly", to the point where about 50 photos could not scroll at 60 fps.
//
// A naive frame does what a collection view does with such a layout:
// `prepare()` recomputes the frame of every item into a fresh array,
// `layoutAttributesForElements(in:)` filters the ones in the visible rect,
// and the parallax placement is computed for those. Its cost grows with the
// number of items; ParallaxKit's grows only with the number of visible
// items. Both run on the same scroll (see FrameBenchmarks.swift).
//
// Naive benchmarks use scaling factor .one (one frame per measured
// iteration) and names starting with "Naive/", the convention
// scripts/bench-report.py reads.

import Benchmark
import Foundation
import ParallaxCore
import ParallaxLayout

/// A grid layout computed the way a `UICollectionViewLayout` subclass does
/// it in `prepare()`: the frame of every item in turn, from its row and
/// column, into a new array.
///
/// It has the same geometry as ``GridLayout`` (checked in setup by
/// ``NaiveFixture``), so both sides answer the same question and differ only
/// in how they get there.
///
/// This is a generous baseline: the grid's constants are worked out once,
/// the array is reserved at its final size, and frames are plain `CGRect`s
/// rather than one `UICollectionViewLayoutAttributes` object per item. A real
/// invalidated layout does more work than this, so the ratio measured against
/// it is a lower bound.
///
/// Only the shape the benchmarks use is supported: one section, no header,
/// vertical scrolling, left to right, flexible cells.
struct NaiveGridLayout: Sendable {
    let itemCount: Int
    let columnCount: Int
    /// The first cell's origin.
    let origin: CGPoint
    /// The distance between the origins of neighbouring cells: the cell size
    /// plus the spacing.
    let pitch: CGSize
    let itemSize: CGSize

    /// The naive twin of `layout`: the same items, column count, cell size,
    /// margins and spacing.
    init(matching layout: GridLayout) {
        let configuration = layout.configuration
        let isSingleSection = layout.numberOfSections == 1 && configuration.headerHeight == 0
        let isVerticalLeftToRight = layout.axis == .vertical && configuration.layoutDirection == .leftToRight
        precondition(
            isSingleSection && isVerticalLeftToRight && configuration.cellSizing == .flexible,
            "NaiveGridLayout reproduces only one-section, header-less, vertical, left-to-right grids of flexible cells")
        itemCount = layout.numberOfItems(inSection: 0)
        columnCount = layout.columnCount
        itemSize = layout.itemSize
        origin = CGPoint(x: configuration.margins.left, y: configuration.margins.top)
        pitch = CGSize(
            width: layout.itemSize.width + configuration.spacing.width,
            height: layout.itemSize.height + configuration.spacing.height)
    }

    /// `prepare()` after an invalidation: the frame of every item, in index
    /// order, in a new array.
    ///
    /// Complexity: O(items) time and memory, one allocation.
    func prepare() -> [CGRect] {
        var frames: [CGRect] = []
        frames.reserveCapacity(itemCount)
        for item in 0..<itemCount {
            let row = item / columnCount
            let column = item % columnCount
            frames.append(CGRect(
                x: origin.x + CGFloat(column) * pitch.width,
                y: origin.y + CGFloat(row) * pitch.height,
                width: itemSize.width,
                height: itemSize.height))
        }
        return frames
    }
}

/// What a naive frame needs, built in setup so that none of it is measured.
/// Unlike ``FrameFixture`` it holds no frames: each frame recomputes them.
struct NaiveFixture: Sendable {
    let layout: NaiveGridLayout
    let scroller: ParallaxScroller
    let path: ScrollPath

    init(scenario: FrameScenario, itemCount: Int) throws(LayoutError) {
        let reference = try scenario.makeLayout(itemCount: itemCount)
        layout = NaiveGridLayout(matching: reference)
        scroller = scenario.makeScroller()
        path = ScrollPath(contentExtent: reference.contentExtent, viewportExtent: FrameBenchmarks.viewportSize.height)
        Self.verify(layout, against: reference, along: path)
    }

    /// One frame with the content scrolled to `offset`, the naive way: the
    /// layout is rebuilt (it was invalidated by the scroll), filtered for
    /// the visible rect, and the parallax placement of every visible item is
    /// computed with the same ``ParallaxScroller`` ParallaxKit uses.
    ///
    /// Returns the sum of the placements' offsets along the scroll axis, the
    /// same checksum ``FrameFixture/renderFrame(at:)`` returns.
    func renderFrame(at offset: CGFloat) -> CGFloat {
        let visibleRect = CGRect(origin: CGPoint(x: 0, y: offset), size: FrameBenchmarks.viewportSize)
        // 1. Invalidated by the scroll: recompute every item's frame.
        let frames = layout.prepare()
        // 2. `layoutAttributesForElements(in:)`: a linear filter.
        let visible = frames.filter { $0.isVisible(in: visibleRect) }
        // 3. The parallax placement of every visible item.
        var checksum: CGFloat = 0
        let placer = scroller.placer(for: visibleRect)
        for frame in visible {
            checksum += placer.placement(forItemFrame: frame).offset.y
        }
        return checksum
    }

    /// Checks, once in setup, that the baseline computes exactly the frames
    /// ``GridLayout`` does and finds exactly the items it finds, so that both
    /// sides do the same parallax work per frame and the comparison is fair.
    private static func verify(_ naive: NaiveGridLayout, against reference: GridLayout, along path: ScrollPath) {
        let frames = naive.prepare()
        for item in [0, 1, naive.columnCount, frames.count / 2, frames.count - 1] where frames.indices.contains(item) {
            precondition(
                frames[item] == reference.frame(of: ItemIndex(item: item)),
                "naive frame of item \(item) differs from GridLayout's")
        }
        for frame in [0, 1, 1_000] {
            let rect = CGRect(origin: CGPoint(x: 0, y: path.offset(atFrame: frame)), size: FrameBenchmarks.viewportSize)
            precondition(
                frames.filter { $0.isVisible(in: rect) } == reference.items(in: rect).map(\.frame),
                "naive visible items at \(rect) differ from GridLayout's")
        }
    }
}

/// Registers `Naive/<variant>/<itemCount>`: one frame per measured iteration
/// (scaling factor `.one`), on the same scroll as `Frame/<variant>/<itemCount>`.
func registerNaiveBenchmark(_ scenario: FrameScenario, itemCount: Int) {
    Benchmark(
        "Naive/\(scenario.name)/\(itemCount)",
        configuration: FrameBenchmarks.configuration(scalingFactor: .one, maxIterations: 200)
    ) { (benchmark: Benchmark, fixture: NaiveFixture) in
        // The same loop as the ParallaxKit benchmark, with one frame per iteration.
        scrollFrames(benchmark, along: fixture.path, render: fixture.renderFrame(at:))
    } setup: {
        try NaiveFixture(scenario: scenario, itemCount: itemCount)
    }
}
