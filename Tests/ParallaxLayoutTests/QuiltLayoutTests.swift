import Foundation
import Testing
@testable import ParallaxCore
@testable import ParallaxLayout

/// The obvious quilt: a grid of booleans, and for every item the first
/// top-left block in row-major order, scanning from the very first block,
/// where it fits. Returns each item's (row, column, width, height) in blocks.
func referenceQuilt(_ spans: [QuiltSpan], columns: Int) -> [(row: Int, column: Int, width: Int, height: Int)] {
    var taken: [[Bool]] = []
    var result: [(row: Int, column: Int, width: Int, height: Int)] = []
    for span in spans {
        let w = min(max(span.width, 1), columns), h = max(span.height, 1)
        let valid = span.width >= 1 && span.height >= 1
        let width = valid ? w : 1, height = valid ? h : 1
        var row = 0
        search: while true {
            while taken.count < row + height { taken.append(Array(repeating: false, count: columns)) }
            for column in 0...(columns - width) {
                var fits = true
                for r in row..<(row + height) { for c in column..<(column + width) where taken[r][c] { fits = false } }
                if fits {
                    for r in row..<(row + height) { for c in column..<(column + width) { taken[r][c] = true } }
                    result.append((row, column, width, height))
                    break search
                }
            }
            row += 1
        }
    }
    return result
}

func randomSpans(_ count: Int, using rng: inout SplitMix64, maxSide: Int = 3) -> [QuiltSpan] {
    (0..<count).map { _ in QuiltSpan(width: .random(in: 1...maxSide, using: &rng), height: .random(in: 1...maxSide, using: &rng)) }
}

@Suite("Quilt layout")
struct QuiltLayoutTests {
    @Test func firstFitMatchesTheReference() throws {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<200 {
            let width = CGFloat.random(in: 100...1300, using: &rng)
            let spans = randomSpans(.random(in: 0...150, using: &rng), using: &rng, maxSide: Int.random(in: 1...4, using: &rng))
            let quilt = try QuiltLayout(configuration: QuiltConfiguration(), spans: spans,
                                        containerSize: CGSize(width: width, height: 800))
            let columns = max(Int((width / 100).rounded(.down)), 1)
            #expect(quilt.columnCount == columns)
            let origin = (width - CGFloat(columns) * 100) / 2
            for (item, want) in referenceQuilt(spans, columns: columns).enumerated() {
                let frame = try #require(quilt.frame(of: ItemIndex(item: item)))
                #expect(frame == CGRect(x: origin + CGFloat(want.column) * 100, y: CGFloat(want.row) * 100,
                                        width: CGFloat(want.width) * 100, height: CGFloat(want.height) * 100))
            }
        }
    }

    @Test func framesNeverOverlapAndEveryItemIsPlacedOnce() throws {
        var rng = SplitMix64(seed: 21)
        for _ in 0..<50 {
            let spans = randomSpans(300, using: &rng)
            let quilt = try QuiltLayout(configuration: QuiltConfiguration(itemInsets: EdgeInsets(all: 2)), spans: spans,
                                        containerSize: CGSize(width: .random(in: 300...900, using: &rng), height: 800))
            let frames = (0..<spans.count).map { quilt.frame(of: ItemIndex(item: $0))! }
            var found = 0
            quilt.forEachItem(in: CGRect(origin: .zero, size: quilt.contentSize)) { _, _ in found += 1 }
            #expect(found == spans.count)
            for i in 0..<frames.count {
                for j in (i + 1)..<frames.count { #expect(!frames[i].isVisible(in: frames[j])) }
            }
        }
    }

    @Test func horizontalAndRightToLeftAreMirrorsOfTheVerticalQuilt() throws {
        var rng = SplitMix64(seed: 5)
        let spans = randomSpans(120, using: &rng)
        let vertical = try QuiltLayout(configuration: QuiltConfiguration(), spans: spans, containerSize: CGSize(width: 450, height: 800))
        var horizontalConfiguration = QuiltConfiguration()
        horizontalConfiguration.axis = .horizontal
        let transposed = spans.map { QuiltSpan(width: $0.height, height: $0.width) }
        let horizontal = try QuiltLayout(configuration: horizontalConfiguration, spans: transposed,
                                         containerSize: CGSize(width: 800, height: 450))
        var rtlConfiguration = QuiltConfiguration()
        rtlConfiguration.layoutDirection = .rightToLeft
        let rtl = try QuiltLayout(configuration: rtlConfiguration, spans: spans, containerSize: CGSize(width: 450, height: 800))
        for item in 0..<spans.count {
            let index = ItemIndex(item: item)
            let v = vertical.frame(of: index)!
            #expect(horizontal.frame(of: index)! == CGRect(x: v.minY, y: v.minX, width: v.height, height: v.width))
            #expect(rtl.frame(of: index)! == CGRect(x: 450 - v.maxX, y: v.minY, width: v.width, height: v.height))
        }
        #expect(horizontal.contentSize == CGSize(width: vertical.contentSize.height, height: 450))
    }

    @Test func everySectionKeepsAllItsItemsWithHeadersAndFooters() throws {
        // RFQuiltLayout skips items in every section after the first; here each section starts a fresh block row.
        var configuration = QuiltConfiguration(headerHeight: 30, footerHeight: 10)
        configuration.blockSize = CGSize(width: 100, height: 50)
        let sections: [[QuiltSpan]] = [
            [.one, QuiltSpan(width: 2, height: 2), .one],
            [],
            [QuiltSpan(width: 3, height: 1), .one, .one, .one, .one],
        ]
        let quilt = try QuiltLayout(configuration: configuration, sections: sections, containerSize: CGSize(width: 300, height: 600))
        #expect(quilt.numberOfSections == 3)
        #expect((0..<3).map(quilt.numberOfItems(inSection:)) == [3, 0, 5])
        // Section 0: header 30, rows 0–1 (100), footer 10 → 140. Section 1: 40. Section 2 starts at 180.
        #expect(quilt.frame(of: ItemIndex(item: 0, section: 0)) == CGRect(x: 0, y: 30, width: 100, height: 50))
        #expect(quilt.frame(of: ItemIndex(item: 1, section: 0)) == CGRect(x: 100, y: 30, width: 200, height: 100))
        #expect(quilt.frame(of: ItemIndex(item: 2, section: 0)) == CGRect(x: 0, y: 80, width: 100, height: 50))
        #expect(quilt.headerFrame(ofSection: 1) == CGRect(x: 0, y: 140, width: 300, height: 30))
        #expect(quilt.footerFrame(ofSection: 1) == CGRect(x: 0, y: 170, width: 300, height: 10))
        #expect(quilt.frame(of: ItemIndex(item: 0, section: 2)) == CGRect(x: 0, y: 210, width: 300, height: 50))
        #expect(quilt.frame(of: ItemIndex(item: 4, section: 2)) == CGRect(x: 0, y: 310, width: 100, height: 50))
        let expectedHeight: CGFloat = 180 + 30 + 3 * 50 + 10
        #expect(quilt.contentSize.height == expectedHeight)
        let all = quilt.items(in: CGRect(origin: .zero, size: quilt.contentSize)).map(\.id)
        #expect(Set(all).count == 8)
    }

    @Test func emptyQuiltsAndRemovingEverything() throws {
        let none = try QuiltLayout(configuration: QuiltConfiguration(), sections: [], containerSize: CGSize(width: 390, height: 844))
        #expect(none.contentSize.height == 0 && none.isEmpty)
        #expect(none.items(in: CGRect(x: 0, y: 0, width: 390, height: 844)).isEmpty)
        #expect(none.restingPosition(nearest: 10) == nil && none.frame(of: ItemIndex(item: 0)) == nil)
        let emptySections = try QuiltLayout(configuration: QuiltConfiguration(headerHeight: 20), sections: [[], []],
                                            containerSize: CGSize(width: 390, height: 844))
        #expect(emptySections.contentSize.height == 40 && emptySections.isEmpty)
        // A viewport left far past the end of a quilt whose items were all removed: defined, nothing visible.
        #expect(emptySections.items(in: CGRect(x: 0, y: 5000, width: 390, height: 844)).isEmpty)
        let viewport = ScrollViewport(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 5000))
        #expect(PlaceKeeping.contentOffset(restoring: nil, in: emptySections, viewport: viewport) == .zero)
    }

    @Test func overWideAndInvalidItemsAreReportedNotLogged() throws {
        let spans = [QuiltSpan.one, QuiltSpan(width: 7, height: 1), QuiltSpan(width: 0, height: 2), .one]
        let quilt = try QuiltLayout(configuration: QuiltConfiguration(), spans: spans, containerSize: CGSize(width: 390, height: 844))
        // 3 columns centred at 45: the 7-wide item goes at column 0 of the next free row, clipped to 300 pt.
        #expect(quilt.frame(of: ItemIndex(item: 1)) == CGRect(x: 45, y: 100, width: 300, height: 100))
        #expect(quilt.frame(of: ItemIndex(item: 2)) == CGRect(x: 145, y: 0, width: 100, height: 100))
        #expect(quilt.diagnostics == [.clippedToWidth(ItemIndex(item: 1), requested: 7, available: 3),
                                      .invalidItemSize(ItemIndex(item: 2), "0×2")])
        #expect(quilt.diagnosticCount == 2)
        #expect(quilt.diagnostics[0].description == "item [0, 1] spans 7 blocks but the quilt has 3 columns: clipped")
    }

    @Test func badConfigurationsThrow() {
        for bad in [CGSize(width: 0, height: 100), CGSize(width: 100, height: CGFloat.nan), CGSize(width: -1, height: 5)] {
            #expect(throws: LayoutError.self) {
                try QuiltLayout(configuration: QuiltConfiguration(blockSize: bad), spans: [.one], containerSize: CGSize(width: 390, height: 844))
            }
        }
        #expect(throws: LayoutError.self) {
            try QuiltLayout(configuration: QuiltConfiguration(footerHeight: -3), spans: [.one], containerSize: CGSize(width: 390, height: 844))
        }
        let tiny = try? QuiltLayout(configuration: QuiltConfiguration(), spans: [.one, .one], containerSize: CGSize(width: CGFloat.nan, height: 0))
        #expect(tiny?.columnCount == 1 && tiny?.frame(of: ItemIndex(item: 1))?.minY == 100)
    }

    @Test func rectQueryEqualsALinearScan() throws {
        var rng = SplitMix64(seed: 404)
        for _ in 0..<100 {
            var configuration = QuiltConfiguration(headerHeight: Bool.random(using: &rng) ? 0 : 25, footerHeight: 5)
            configuration.axis = Bool.random(using: &rng) ? .vertical : .horizontal
            configuration.layoutDirection = Bool.random(using: &rng) ? .leftToRight : .rightToLeft
            configuration.itemInsets = EdgeInsets(all: .random(in: 0...10, using: &rng))
            let sections = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                randomSpans(.random(in: 0...120, using: &rng), using: &rng, maxSide: 3)
            }
            let quilt = try QuiltLayout(configuration: configuration, sections: sections,
                                        containerSize: CGSize(width: .random(in: 200...900, using: &rng), height: .random(in: 200...900, using: &rng)),
                                        insets: { $0.item % 7 == 3 ? EdgeInsets(top: 9, left: 1) : configuration.itemInsets })
            var all: [(ItemIndex, CGRect)] = []
            for (s, spans) in sections.enumerated() {
                for item in spans.indices { all.append((ItemIndex(item: item, section: s), quilt.frame(of: ItemIndex(item: item, section: s))!)) }
            }
            for _ in 0..<25 {
                let rect = CGRect(x: .random(in: -50...quilt.contentSize.width, using: &rng),
                                  y: .random(in: -50...quilt.contentSize.height, using: &rng),
                                  width: .random(in: 0...700, using: &rng), height: .random(in: 0...700, using: &rng))
                let expected = all.filter { $0.1.isVisible(in: rect) }.map(\.0).sorted()
                let got = quilt.items(in: rect)
                #expect(got.map(\.id).sorted() == expected)
                for item in got { #expect(item.frame == quilt.frame(of: item.id)) }
            }
        }
    }

    @Test func appendEqualsRebuild() throws {
        var rng = SplitMix64(seed: 77)
        for _ in 0..<60 {
            let spans = randomSpans(.random(in: 1...400, using: &rng), using: &rng)
            let size = CGSize(width: .random(in: 200...800, using: &rng), height: 800)
            let rebuilt = try QuiltLayout(configuration: QuiltConfiguration(), sections: [[.one], spans], containerSize: size)
            var grown = try QuiltLayout(configuration: QuiltConfiguration(), sections: [[.one]], containerSize: size)
            grown.appendSection([])
            var rest = spans[...]
            while !rest.isEmpty {
                let chunk = rest.prefix(.random(in: 1...50, using: &rng))
                grown.append(Array(chunk))
                rest = rest.dropFirst(chunk.count)
            }
            #expect(grown.contentSize == rebuilt.contentSize)
            for item in spans.indices {
                #expect(grown.frame(of: ItemIndex(item: item, section: 1)) == rebuilt.frame(of: ItemIndex(item: item, section: 1)))
            }
            let probe = CGRect(x: 0, y: .random(in: 0...rebuilt.contentSize.height, using: &rng), width: size.width, height: 900)
            #expect(grown.items(in: probe).map(\.id).sorted() == rebuilt.items(in: probe).map(\.id).sorted())
        }
    }

    @Test func deterministicAndLargeBuildsKnowTheirContentSizeAtOnce() throws {
        var rng = SplitMix64(seed: 1)
        let mix = [QuiltSpan(width: 1, height: 1), QuiltSpan(width: 2, height: 1), QuiltSpan(width: 1, height: 2), QuiltSpan(width: 2, height: 2)]
        let spans = (0..<200_000).map { _ in mix[Int.random(in: 0..<4, using: &rng)] }
        let a = try QuiltLayout(configuration: QuiltConfiguration(), spans: spans, containerSize: CGSize(width: 390, height: 844))
        let b = try QuiltLayout(configuration: QuiltConfiguration(), spans: spans, containerSize: CGSize(width: 390, height: 844))
        #expect(a.contentSize == b.contentSize)
        let tiles = spans.reduce(0) { $0 + $1.width * $1.height }
        #expect(a.contentSize.height >= CGFloat(tiles) / 3 * 100)     // at least the tiles, packed into 3 columns
        for item in stride(from: 0, to: spans.count, by: 9973) {
            #expect(a.frame(of: ItemIndex(item: item)) == b.frame(of: ItemIndex(item: item)))
        }
        let last = try #require(a.frame(of: ItemIndex(item: spans.count - 1)))
        #expect(last.maxY <= a.contentSize.height)
        #expect(a.items(in: CGRect(x: 0, y: last.minY - 400, width: 390, height: 844)).contains { $0.id.item == spans.count - 1 })
    }

    @Test func snappingAndPlaceKeepingWorkUnchanged() throws {
        let spans = Array(repeating: QuiltSpan(width: 1, height: 2), count: 90)
        let quilt = try QuiltLayout(configuration: QuiltConfiguration(headerHeight: 40), spans: spans, containerSize: CGSize(width: 390, height: 844))
        let viewport = ScrollViewport(size: CGSize(width: 390, height: 844))
        // Block rows at 40 + 100·r; a fling aimed at 1234 rests on 1240.
        let snapped = ScrollSnapping.restingOffset(proposed: CGPoint(x: 0, y: 1234), velocity: CGPoint(x: 0, y: 2), in: quilt, viewport: viewport)
        #expect(snapped == CGPoint(x: 0, y: 1240))
        let grid = try GridLayout(configuration: .grid, itemCount: 90, containerSize: CGSize(width: 390, height: 844))
        let transition = LayoutTransition(from: quilt, at: ScrollViewport(size: viewport.size, contentOffset: CGPoint(x: 0, y: 1240)), to: grid)
        var count = 0
        transition.forEachItem(at: 0.5) { _, _ in count += 1 }
        #expect(count > 0)
        // Parallax reads frames only: the quilt's frames go straight into the scroller.
        let placer = ParallaxScroller().placer(for: CGRect(origin: CGPoint(x: 0, y: 1240), size: viewport.size))
        quilt.forEachItem(in: CGRect(origin: CGPoint(x: 0, y: 1240), size: viewport.size)) { _, frame in
            let placement = placer.placement(forItemFrame: frame)
            #expect(abs(placement.offset.y) <= 30 && placement.contentSize.height == frame.height + 60)
        }
    }
}
