import Foundation
import Testing
@testable import ParallaxCore
@testable import ParallaxLayout

@Suite("Place keeping")
struct PlaceKeepingTests {
    @Test func firstVisibleItemFollowsRHRule() throws {
        let grid = try GridLayout(configuration: .grid, itemCount: 100, containerSize: CGSize(width: 390, height: 844))
        // Rows at 8 + 191·r, 183 tall. With o = 300 and a 20-pt top inset the edge is at 320: row 1 (199…382)
        // has its centre at 290.5 < 320, so the first visible item is item 4 (row 2 at 390).
        let viewport = ScrollViewport(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 300),
                                      insets: EdgeInsets(top: 20))
        let anchor = try #require(PlaceKeeping.anchor(in: grid, viewport: viewport))
        #expect(anchor == PlaceKeeping.Anchor(index: ItemIndex(item: 4), distance: 70))
    }

    @Test func gridToListRHAlignment() throws {
        let size = CGSize(width: 390, height: 844)
        let grid = try GridLayout(configuration: .grid, itemCount: 100, containerSize: size)
        let list = try GridLayout(configuration: .list, itemCount: 100, containerSize: size)
        let viewport = ScrollViewport(size: size, contentOffset: CGPoint(x: 0, y: 300), insets: EdgeInsets(top: 20))
        // RH: o = item.y − (index 0 ? margins.top : spacing.y) − inset.top = 4·203 − 8 − 20.
        let aligned = PlaceKeeping.contentOffset(from: grid, at: viewport, to: list, in: viewport, alignment: .alignsToLeadingEdge)
        #expect(aligned == CGPoint(x: 0, y: 4 * 203 - 8 - 20))
        // Preserving the position: item 4 stays 70 pt below the edge.
        let kept = PlaceKeeping.contentOffset(from: grid, at: viewport, to: list, in: viewport)
        #expect(kept == CGPoint(x: 0, y: 4 * 203 - 70 - 20))
        // Item 0 aligns to the very top.
        let top = ScrollViewport(size: size, contentOffset: CGPoint(x: 0, y: -20), insets: EdgeInsets(top: 20))
        #expect(PlaceKeeping.contentOffset(from: grid, at: top, to: list, in: top, alignment: .alignsToLeadingEdge)
                == CGPoint(x: 0, y: -20))
    }

    @Test func offsetIsClampedToTheContent() throws {
        // Near the end of a 2-column grid, switching to 4 columns would scroll past the end: RH's bug.
        let grid = try GridLayout(configuration: .grid, itemCount: 40, containerSize: CGSize(width: 414, height: 736))
        let wide = try GridLayout(configuration: .grid, itemCount: 40, containerSize: CGSize(width: 736, height: 414))
        let before = ScrollViewport(size: CGSize(width: 414, height: 736),
                                    contentOffset: CGPoint(x: 0, y: grid.contentSize.height - 736))
        let after = ScrollViewport(size: CGSize(width: 736, height: 414))
        let offset = PlaceKeeping.contentOffset(from: grid, at: before, to: wide, in: after)
        #expect(offset.y == wide.contentSize.height - 414)
    }

    @Test func keptItemStaysWithinHalfAPointOverRandomChanges() throws {
        var rng = SplitMix64(seed: 99)
        var checked = 0
        for _ in 0..<600 {
            var from = randomConfiguration(using: &rng)
            var to = Bool.random(using: &rng) ? randomConfiguration(using: &rng) : from
            to.axis = from.axis
            to.layoutDirection = from.layoutDirection
            if Bool.random(using: &rng) { from.columns = .fixed(1); from.margins = .zero }   // list ↔ grid
            let counts = randomCounts(using: &rng)
            let oldSize = CGSize(width: .random(in: 200...1400, using: &rng), height: .random(in: 200...1400, using: &rng))
            let newSize = Bool.random(using: &rng) ? CGSize(width: oldSize.height, height: oldSize.width) : oldSize
            let old = try GridLayout(configuration: from, itemCounts: counts, containerSize: oldSize)
            let new = try GridLayout(configuration: to, itemCounts: counts, containerSize: newSize)
            let axis = from.axis
            let insets = EdgeInsets(top: .random(in: 0...50, using: &rng), left: .random(in: 0...20, using: &rng),
                                    bottom: .random(in: 0...40, using: &rng), right: .random(in: 0...20, using: &rng))
            var oldViewport = ScrollViewport(size: oldSize, insets: insets)
            let range = oldViewport.offsetRange(contentExtent: old.contentExtent, along: axis)
            oldViewport.contentOffset = axis.point(main: .random(in: range, using: &rng), cross: 0)
            guard let anchor = PlaceKeeping.anchor(in: old, viewport: oldViewport) else { continue }
            let newViewport = ScrollViewport(size: newSize, insets: insets)
            var placed = newViewport
            placed.contentOffset = PlaceKeeping.contentOffset(restoring: anchor, in: new, viewport: newViewport)
            let newRange = newViewport.offsetRange(contentExtent: new.contentExtent, along: axis)
            let main = axis.main(placed.contentOffset)
            #expect(newRange.contains(main))
            if main > newRange.lowerBound && main < newRange.upperBound {   // not clamped
                let frame = try #require(new.frame(of: anchor.index))
                let span = axis.mainSpan(of: frame)
                let edge = placed.leadingEdge(along: axis, mirrored: new.isMainAxisMirrored)
                let distance = new.isMainAxisMirrored ? edge - span.upperBound : span.lowerBound - edge
                #expect(abs(distance - anchor.distance) <= 0.5)
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test func emptyLayoutsKeepTheOffsetClamped() throws {
        let empty = try GridLayout(configuration: .grid, itemCount: 0, containerSize: CGSize(width: 390, height: 844))
        let viewport = ScrollViewport(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 5000))
        #expect(PlaceKeeping.anchor(in: empty, viewport: viewport) == nil)
        #expect(PlaceKeeping.contentOffset(restoring: nil, in: empty, viewport: viewport) == .zero)
    }
}
