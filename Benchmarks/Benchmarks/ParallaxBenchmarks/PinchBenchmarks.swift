// Pinch to change density: what one frame of an interactive column change
// costs, next to a plain scrolling frame of the same grid in the same run.
//
//   Pinch/grid/<n>        one frame of a pinch on the dense grid (4 columns of
//                         80-pt cells at the start): DensityPinch.update(scale:)
//                         with the scale breathing between 0.55 and 1.6, so the
//                         pinch keeps chaining between 3, 4, 5 and 6 columns,
//                         then every visible item of both layouts with its
//                         interpolated frame and its parallax placement.
//   PinchPlain/grid/<n>   the baseline: one plain scrolling frame (the visible
//                         query and the placements) of the grid with the
//                         column count the pinch shows at the same frame
//                         (the nearest whole count), so both sides draw the
//                         same density: a frame of 7 columns costs more than
//                         one of 4, pinch or not.
//
//   PinchPlain/gridlayout/<n>  the same plain frames read from `GridLayout`
//                         values rather than through `AnyItemLayout`: the
//                         cheapest plain frame there is, a stricter baseline.
//   Pinch/quilt/<n>, PinchPlain/quilt/<n>: the same over quilts of n block
//                         columns (square blocks of width / n, the quilt
//                         benchmarks' fixed-seed mix of 1×1, 2×1, 1×2 and 2×2
//                         items), whose pinch frames read widened bands and
//                         look frames up, since a quilt fills holes out of
//                         index order.
//
// Both at 100,000 and 1,000,000 items, scaling factor .kilo (1,000 frames per
// measured iteration), like every name that does not start with "Naive/".
// Target: an interactive frame costs at most 3 times a plain one.

import Benchmark
import Foundation
import ParallaxCore
import ParallaxLayout

enum PinchBenchmarks {
    static let itemCounts = [100_000, 1_000_000]

    /// A grid of `n` fixed columns of the dense grid's settings.
    static func grid(columns n: Int, itemCount: Int) throws(LayoutError) -> GridLayout {
        var configuration = GridConfiguration(preferredItemSize: CGSize(width: 80, height: 80))
        configuration.columns = .fixed(n)
        return try GridLayout(configuration: configuration, itemCount: itemCount,
                              containerSize: FrameBenchmarks.viewportSize)
    }

    /// A quilt of `n` square block columns over the quilt benchmarks' spans.
    static func quilt(columns n: Int, spans: [QuiltSpan]) throws(LayoutError) -> QuiltLayout {
        let side = (FrameBenchmarks.viewportSize.width / CGFloat(n) * 100).rounded(.down) / 100
        let configuration = QuiltConfiguration(blockSize: CGSize(width: side, height: side),
                                               itemInsets: EdgeInsets(all: 2))
        return try QuiltLayout(configuration: configuration, spans: spans, containerSize: FrameBenchmarks.viewportSize)
    }

    /// What a pinch moves between: grids of the dense grid's settings, or quilts.
    enum Kind: String, CaseIterable {
        case grid, quilt
    }

    /// The layout of `n` columns of `kind` over `itemCount` items.
    static func layout(_ kind: Kind, columns n: Int, itemCount: Int,
                       spans: [QuiltSpan]) throws(LayoutError) -> AnyItemLayout {
        switch kind {
        case .grid: AnyItemLayout(try grid(columns: n, itemCount: itemCount))
        case .quilt: AnyItemLayout(try quilt(columns: n, spans: spans))
        }
    }

    /// The scale of frame `frame`: a slow breath between 0.55 and 1.6
    /// (about 2 s per cycle at 60 fps), so the column count keeps changing.
    static func scale(atFrame frame: Int) -> CGFloat {
        let phase = CGFloat(frame % 120) / 120 * 2 * .pi
        return exp(log(0.55) + (log(1.6) - log(0.55)) * (1 - cos(phase)) / 2)
    }

    /// The whole column count nearest to what the pinch shows at `frame`
    /// (4 columns at scale 1; the photos' width follows the scale).
    static func columns(atFrame frame: Int) -> Int {
        min(max(Int((4 / scale(atFrame: frame)).rounded()), 1), 8)
    }
}

/// The baseline: plain frames of the layout of the count the pinch shows,
/// held as `Layout` (`AnyItemLayout` as the surfaces hold them, or concrete
/// `GridLayout` values for the stricter baseline).
final class PinchPlainFixture<Layout: ItemLayout>: @unchecked Sendable {
    let layouts: [Layout]                     // by column count - 1
    let scroller = ParallaxScroller(effect: .gridDefault)
    var frame = 0
    var offset: CGFloat

    /// Plain frames of `layout(n)` for 1 to 8 columns.
    init(layout: (Int) throws(LayoutError) -> Layout) throws(LayoutError) {
        var layouts: [Layout] = []
        for n in 1...8 { layouts.append(try layout(n)) }
        self.layouts = layouts
        offset = layouts[3].contentExtent / 2
    }

    /// One plain frame of the count the pinch shows now, scrolled on a little.
    @inline(__always)
    func renderFrame() -> CGFloat {
        frame += 1
        let layout = layouts[PinchBenchmarks.columns(atFrame: frame) - 1]
        offset = (offset + FrameBenchmarks.scrollStep).truncatingRemainder(dividingBy: layout.contentExtent / 2) + 1_000
        let visibleRect = CGRect(origin: CGPoint(x: 0, y: offset), size: FrameBenchmarks.viewportSize)
        let placer = scroller.placer(for: visibleRect)
        var checksum: CGFloat = 0
        layout.forEachItem(in: visibleRect) { _, frame in
            checksum += placer.placement(forItemFrame: frame).offset.y
        }
        return checksum
    }
}

extension PinchPlainFixture where Layout == AnyItemLayout {
    /// Plain frames of `kind`'s layouts over `itemCount` items.
    convenience init(_ kind: PinchBenchmarks.Kind, itemCount: Int) throws(LayoutError) {
        let spans = kind == .quilt ? LayoutBenchmarks.spans(count: itemCount) : []
        try self.init { n throws(LayoutError) in
            try PinchBenchmarks.layout(kind, columns: n, itemCount: itemCount, spans: spans)
        }
    }
}

/// A pinch under way in the middle of the content, its layouts for 3 to 6
/// columns built in setup (a pinch builds each count once, when first reached).
final class PinchFixture: @unchecked Sendable {
    var pinch: DensityPinch<AnyItemLayout>
    let scroller = ParallaxScroller(effect: .gridDefault)
    var frame = 0

    init(_ kind: PinchBenchmarks.Kind, itemCount: Int) throws(LayoutError) {
        let spans = kind == .quilt ? LayoutBenchmarks.spans(count: itemCount) : []
        let middle = try PinchBenchmarks.layout(kind, columns: 4, itemCount: itemCount, spans: spans).contentExtent / 2
        let viewport = ScrollViewport(size: FrameBenchmarks.viewportSize, contentOffset: CGPoint(x: 0, y: middle))
        pinch = try DensityPinch(columns: 4, in: 1...8, viewport: viewport, focus: CGPoint(x: 195, y: 422)) {
            n throws(LayoutError) in try PinchBenchmarks.layout(kind, columns: n, itemCount: itemCount, spans: spans)
        }
        for frame in 0..<120 { try pinch.update(scale: PinchBenchmarks.scale(atFrame: frame)) }   // reach every count once
    }

    /// One interactive frame: follow the fingers, then place every visible item.
    @inline(__always)
    func renderFrame() -> CGFloat {
        frame += 1
        return Self.render(&pinch, scale: PinchBenchmarks.scale(atFrame: frame), scroller: scroller)
    }

    /// The frame's work on the pinch in place: reading a stored property of a
    /// class for a call would copy the whole pinch (retaining every buffer
    /// it holds) each frame, which a surface holding it in a local or an
    /// `inout` does not pay.
    @inline(__always)
    static func render(_ pinch: inout DensityPinch<AnyItemLayout>, scale: CGFloat, scroller: ParallaxScroller) -> CGFloat {
        try? pinch.update(scale: scale)
        let offset = pinch.contentOffset()
        let visibleRect = CGRect(origin: offset, size: FrameBenchmarks.viewportSize)
        let placer = scroller.placer(for: visibleRect)
        var checksum: CGFloat = 0
        pinch.forEachItem { _, frame in
            checksum += placer.placement(forItemFrame: frame).offset.y
        }
        return checksum
    }
}

/// A fixture that draws one frame per call.
protocol PinchFrameRendering: AnyObject {
    func renderFrame() -> CGFloat
}

extension PinchFixture: PinchFrameRendering {}
extension PinchPlainFixture: PinchFrameRendering {}

func registerPinchBenchmarks() {
    for kind in PinchBenchmarks.Kind.allCases {
        for itemCount in PinchBenchmarks.itemCounts {
            registerFrames("Pinch/\(kind.rawValue)/\(itemCount)") { try PinchFixture(kind, itemCount: itemCount) }
            registerFrames("PinchPlain/\(kind.rawValue)/\(itemCount)") {
                try PinchPlainFixture<AnyItemLayout>(kind, itemCount: itemCount)
            }
        }
    }
    for itemCount in PinchBenchmarks.itemCounts {
        registerFrames("PinchPlain/gridlayout/\(itemCount)") {
            try PinchPlainFixture { n throws(LayoutError) in try PinchBenchmarks.grid(columns: n, itemCount: itemCount) }
        }
    }
}

/// Registers `name`: 1,000 frames of the fixture `setup` makes per measured iteration.
private func registerFrames<Fixture: PinchFrameRendering>(_ name: String,
                                                          setup: @escaping () throws -> Fixture) {
    Benchmark(
        name,
        configuration: FrameBenchmarks.configuration(scalingFactor: .kilo, maxIterations: 2_000)
    ) { (benchmark: Benchmark, fixture: Fixture) in
        var checksum: CGFloat = 0
        for _ in benchmark.scaledIterations { checksum += fixture.renderFrame() }
        blackHole(checksum)
    } setup: {
        try setup()
    }
}
