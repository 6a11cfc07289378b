import Foundation
import Testing
@testable import ParallaxCore
@testable import ParallaxLayout

/// Pinterest's rule written plainly: keep every column's height, put each
/// item in the shortest (leftmost on a tie). Vertical, left-to-right.
func referenceWaterfall(_ sizes: [CGSize], width: CGFloat, configuration c: WaterfallConfiguration) -> [CGRect] {
    let available = width - c.margins.left - c.margins.right
    var columns = 1
    if case .fixed(let n) = c.columns { columns = n } else {
        while CGFloat(columns + 1) * c.preferredColumnWidth + CGFloat(columns) * c.spacing.width <= available { columns += 1 }
    }
    let columnWidth = (available - CGFloat(columns - 1) * c.spacing.width) / CGFloat(columns)
    var heights = Array(repeating: c.headerHeight + c.margins.top, count: columns)
    return sizes.map { size in
        let column = heights.firstIndex(of: heights.min()!)!
        let ratio = size.height / size.width
        let height = columnWidth * (ratio.isFinite && ratio > 0 ? ratio : 1)
        let frame = CGRect(x: c.margins.left + CGFloat(column) * (columnWidth + c.spacing.width), y: heights[column],
                           width: columnWidth, height: height)
        heights[column] += height + c.spacing.height
        return frame
    }
}

func randomPhotoSizes(_ count: Int, using rng: inout SplitMix64) -> [CGSize] {
    (0..<count).map { _ in CGSize(width: .random(in: 300...4000, using: &rng), height: .random(in: 300...4000, using: &rng)) }
}

@Suite("Waterfall layout")
struct WaterfallLayoutTests {
    @Test func shortestColumnMatchesTheReference() throws {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<100 {
            let width = CGFloat.random(in: 200...1400, using: &rng)
            var configuration = WaterfallConfiguration(headerHeight: .random(in: 0...40, using: &rng))
            if Bool.random(using: &rng) { configuration.columns = .fixed(.random(in: 1...5, using: &rng)) }
            let sizes = randomPhotoSizes(.random(in: 0...200, using: &rng), using: &rng)
            let waterfall = try WaterfallLayout(configuration: configuration, itemSizes: sizes, containerSize: CGSize(width: width, height: 800))
            for (item, want) in referenceWaterfall(sizes, width: width, configuration: configuration).enumerated() {
                let frame = try #require(waterfall.frame(of: ItemIndex(item: item)))
                #expect(nearlyEqual(frame, want, tolerance: 1e-6))
            }
        }
    }

    @Test func byHand() throws {
        // 2 columns of 183 at 390 wide: a tall photo left, then two squares right, then the left is shorter again.
        let sizes = [CGSize(width: 1, height: 2), CGSize(width: 5, height: 5), CGSize(width: 5, height: 5), CGSize(width: 4, height: 3)]
        let waterfall = try WaterfallLayout(configuration: WaterfallConfiguration(), itemSizes: sizes, containerSize: CGSize(width: 390, height: 844))
        #expect(waterfall.columnCount == 2 && waterfall.columnWidth == 183)
        #expect(waterfall.frame(of: ItemIndex(item: 0)) == CGRect(x: 8, y: 8, width: 183, height: 366))
        #expect(waterfall.frame(of: ItemIndex(item: 1)) == CGRect(x: 199, y: 8, width: 183, height: 183))
        #expect(waterfall.frame(of: ItemIndex(item: 2)) == CGRect(x: 199, y: 199, width: 183, height: 183))
        #expect(waterfall.frame(of: ItemIndex(item: 3)) == CGRect(x: 8, y: 382, width: 183, height: 137.25))
        #expect(waterfall.contentSize.height == 382 + 137.25 + 8)
    }

    @Test func framesNeverOverlapAndQueriesEqualALinearScan() throws {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<80 {
            var configuration = WaterfallConfiguration(headerHeight: Bool.random(using: &rng) ? 0 : 30)
            configuration.axis = Bool.random(using: &rng) ? .vertical : .horizontal
            configuration.layoutDirection = Bool.random(using: &rng) ? .leftToRight : .rightToLeft
            let sections = (0..<Int.random(in: 1...3, using: &rng)).map { _ in randomPhotoSizes(.random(in: 0...150, using: &rng), using: &rng) }
            let layout = try WaterfallLayout(configuration: configuration, sections: sections,
                                             containerSize: CGSize(width: .random(in: 200...1200, using: &rng), height: .random(in: 200...1200, using: &rng)))
            var all: [(ItemIndex, CGRect)] = []
            for (s, sizes) in sections.enumerated() {
                for item in sizes.indices { all.append((ItemIndex(item: item, section: s), layout.frame(of: ItemIndex(item: item, section: s))!)) }
            }
            for i in all.indices { for j in all.indices where j > i { #expect(!all[i].1.isVisible(in: all[j].1)) } }
            for _ in 0..<20 {
                let rect = CGRect(x: .random(in: -50...layout.contentSize.width, using: &rng),
                                  y: .random(in: -50...layout.contentSize.height, using: &rng),
                                  width: .random(in: 0...900, using: &rng), height: .random(in: 0...900, using: &rng))
                let expected = all.filter { $0.1.isVisible(in: rect) }.map(\.0).sorted()
                #expect(layout.items(in: rect).map(\.id).sorted() == expected)
            }
        }
    }

    @Test func appendEqualsRebuild() throws {
        var rng = SplitMix64(seed: 19)
        for _ in 0..<40 {
            let sizes = randomPhotoSizes(.random(in: 1...300, using: &rng), using: &rng)
            let rebuilt = try WaterfallLayout(configuration: WaterfallConfiguration(), itemSizes: sizes, containerSize: CGSize(width: 700, height: 900))
            var grown = try WaterfallLayout(configuration: WaterfallConfiguration(), itemSizes: [], containerSize: CGSize(width: 700, height: 900))
            var rest = sizes[...]
            while !rest.isEmpty {
                let chunk = rest.prefix(.random(in: 1...40, using: &rng))
                grown.append(Array(chunk))
                rest = rest.dropFirst(chunk.count)
            }
            #expect(grown.contentSize == rebuilt.contentSize)
            for item in sizes.indices { #expect(grown.frame(of: ItemIndex(item: item)) == rebuilt.frame(of: ItemIndex(item: item))) }
        }
    }

    @Test func sectionsEmptyAndBadInput() throws {
        let layout = try WaterfallLayout(configuration: WaterfallConfiguration(headerHeight: 20),
                                         sections: [[CGSize(width: 1, height: 1)], [], [CGSize(width: 0, height: 5), CGSize(width: CGFloat.nan, height: 1)]],
                                         containerSize: CGSize(width: 390, height: 844))
        // Section 0: 20 + 8 + 183 + 8 = 219; section 1: 20 + 16 = 36 → section 2 at 255.
        #expect(layout.frame(of: ItemIndex(item: 0, section: 2)) == CGRect(x: 8, y: 255 + 28, width: 183, height: 183))
        #expect(layout.diagnosticCount == 2)
        #expect(layout.numberOfItems(inSection: 1) == 0)
        let empty = try WaterfallLayout(configuration: WaterfallConfiguration(), sections: [], containerSize: CGSize(width: 390, height: 844))
        #expect(empty.isEmpty && empty.contentSize.height == 0 && empty.restingPosition(nearest: 3) == nil)
        #expect(throws: LayoutError.self) {
            try WaterfallLayout(configuration: WaterfallConfiguration(preferredColumnWidth: 0), itemSizes: [], containerSize: .zero)
        }
        let zero = try WaterfallLayout(configuration: WaterfallConfiguration(), itemSizes: [CGSize(width: 3, height: 4)], containerSize: .zero)
        #expect(zero.items(in: CGRect(x: -10, y: -10, width: 1000, height: 1000)).isEmpty)
    }

    @Test func snapsToItemTopsAndKeepsThePlace() throws {
        var rng = SplitMix64(seed: 4)
        let sizes = randomPhotoSizes(400, using: &rng)
        let layout = try WaterfallLayout(configuration: WaterfallConfiguration(), itemSizes: sizes, containerSize: CGSize(width: 390, height: 844))
        let viewport = ScrollViewport(size: CGSize(width: 390, height: 844))
        let snapped = ScrollSnapping.restingOffset(proposed: CGPoint(x: 0, y: 5000), velocity: CGPoint(x: 0, y: 1), in: layout, viewport: viewport)
        let tops = (0..<sizes.count).map { layout.frame(of: ItemIndex(item: $0))!.minY - 8 }
        #expect(tops.contains(snapped.y))
        #expect(abs(snapped.y - 5000) == tops.map { abs($0 - 5000) }.min())
        let grid = try GridLayout(configuration: .grid, itemCount: sizes.count, containerSize: viewport.size)
        let at = ScrollViewport(size: viewport.size, contentOffset: CGPoint(x: 0, y: 3000))
        let anchor = try #require(PlaceKeeping.anchor(in: layout, viewport: at))
        var kept = at
        kept.contentOffset = PlaceKeeping.contentOffset(restoring: anchor, in: grid, viewport: at)
        #expect(abs(grid.frame(of: anchor.index)!.minY - kept.contentOffset.y - anchor.distance) < 0.5)
    }
}
