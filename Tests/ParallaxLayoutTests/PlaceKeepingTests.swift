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

@Suite("Snapping")
struct SnappingTests {
    let size = CGSize(width: 390, height: 844)

    @Test func noSnapAtZeroVelocityOrAtTheEnds() throws {
        let grid = try GridLayout(configuration: .grid, itemCount: 100, containerSize: size)
        let viewport = ScrollViewport(size: size)
        let proposed = CGPoint(x: 0, y: 1234)
        #expect(ScrollSnapping.restingOffset(proposed: proposed, velocity: .zero, in: grid, viewport: viewport) == proposed)
        let end = CGPoint(x: 0, y: grid.contentSize.height - 844)
        #expect(ScrollSnapping.restingOffset(proposed: end, velocity: CGPoint(x: 0, y: 3), in: grid, viewport: viewport) == end)
        let beyond = CGPoint(x: 0, y: -40)
        #expect(ScrollSnapping.restingOffset(proposed: beyond, velocity: CGPoint(x: 0, y: -3), in: grid, viewport: viewport) == beyond)
    }

    @Test func snapsToRowBoundariesByHand() throws {
        let grid = try GridLayout(configuration: .grid, itemCount: 100, containerSize: size)
        let viewport = ScrollViewport(size: size, insets: EdgeInsets(top: 20))
        // Rows at 8 + 191·r: resting positions 0 (first row) and 8 + 191·r − 8 = 191·r after.
        // Proposed 1000 puts the edge at 1020: nearest is 191·5 = 955, so o' = 955 − 20.
        let snapped = ScrollSnapping.restingOffset(proposed: CGPoint(x: 0, y: 1000), velocity: CGPoint(x: 0, y: 1),
                                                   in: grid, viewport: viewport)
        #expect(snapped == CGPoint(x: 0, y: 935))
        let nearTop = ScrollSnapping.restingOffset(proposed: CGPoint(x: 0, y: 70), velocity: CGPoint(x: 0, y: -1),
                                                   in: grid, viewport: viewport)
        #expect(nearTop == CGPoint(x: 0, y: -20))
    }

    @Test func snappedOffsetsAreOnRowBoundariesForRandomLayouts() throws {
        var rng = SplitMix64(seed: 1234)
        var checked = 0
        for _ in 0..<300 {
            let configuration = randomConfiguration(using: &rng)
            let counts = randomCounts(using: &rng)
            let size = CGSize(width: .random(in: 200...1200, using: &rng), height: .random(in: 200...1200, using: &rng))
            let grid = try GridLayout(configuration: configuration, itemCounts: counts, containerSize: size)
            let reference = ReferenceGrid(configuration: configuration, itemCounts: counts, containerSize: size)
            let axis = configuration.axis
            let mirrored = grid.isMainAxisMirrored
            // Every resting position, brute force: section starts and (line start − spacing).
            var rests: [CGFloat] = []
            let spacing = axis.main(configuration.spacing)
            let before = axis == .vertical ? configuration.margins.top : configuration.margins.left
            let after = axis == .vertical ? configuration.margins.bottom : configuration.margins.right
            var sectionStart: CGFloat = 0
            for (section, count) in counts.enumerated() {
                rests.append(sectionStart)
                var lineStarts = Set<CGFloat>()
                for item in 0..<count {
                    let span = axis.mainSpan(of: reference.frames[ItemIndex(item: item, section: section)]!)
                    lineStarts.insert(mirrored ? grid.contentExtent - span.upperBound : span.lowerBound)
                }
                let sorted = lineStarts.sorted()
                rests += sorted.dropFirst().map { $0 - spacing }
                let linesExtent = sorted.last.map { $0 + axis.main(grid.itemSize) - sorted[0] } ?? 0
                sectionStart += configuration.headerHeight + before + linesExtent + after
            }
            rests.append(sectionStart)
            let viewport = ScrollViewport(size: size, insets: EdgeInsets(top: 10, left: 5, bottom: 10, right: 5))
            let range = viewport.offsetRange(contentExtent: grid.contentExtent, along: axis)
            for _ in 0..<10 {
                let proposed = CGFloat.random(in: range, using: &rng)
                let result = axis.main(ScrollSnapping.restingOffset(
                    proposed: axis.point(main: proposed, cross: 0), velocity: axis.point(main: 5, cross: 0),
                    in: grid, viewport: viewport))
                #expect(range.contains(result))
                guard result > range.lowerBound, result < range.upperBound, proposed > range.lowerBound else { continue }
                var placed = viewport
                placed.contentOffset = axis.point(main: result, cross: 0)
                let edge = placed.leadingEdge(along: axis, mirrored: mirrored)
                let logicalEdge = mirrored ? grid.contentExtent - edge : edge
                // On a resting position, and the nearest one to where the fling was aimed.
                #expect(rests.contains { abs($0 - logicalEdge) < 1e-6 })
                var aimed = viewport
                aimed.contentOffset = axis.point(main: proposed, cross: 0)
                let aimedEdge = aimed.leadingEdge(along: axis, mirrored: mirrored)
                let logicalAim = mirrored ? grid.contentExtent - aimedEdge : aimedEdge
                let best = rests.map { abs($0 - logicalAim) }.min()!
                #expect(abs(abs(logicalEdge - logicalAim) - best) < 1e-6)
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}

@Suite("Layout transitions")
struct LayoutTransitionTests {
    @Test func interpolatesFramesAndOffsetsForItemsVisibleInEither() throws {
        var rng = SplitMix64(seed: 31)
        for _ in 0..<100 {
            let size = CGSize(width: .random(in: 300...1000, using: &rng), height: .random(in: 400...1000, using: &rng))
            let count = Int.random(in: 0...500, using: &rng)
            let grid = try GridLayout(configuration: .grid, itemCount: count, containerSize: size)
            let list = try GridLayout(configuration: .list, itemCount: count, containerSize: size)
            let range = ScrollViewport(size: size).offsetRange(contentExtent: grid.contentExtent, along: .vertical)
            let viewport = ScrollViewport(size: size, contentOffset: CGPoint(x: 0, y: .random(in: range, using: &rng)))
            let transition = LayoutTransition(from: grid, at: viewport, to: list)
            #expect(transition.contentOffset(at: 0) == viewport.contentOffset)
            #expect(transition.destinationOffset == PlaceKeeping.contentOffset(from: grid, at: viewport, to: list, in: viewport))
            let expected = Set(grid.items(in: viewport.visibleRect).map(\.id))
                .union(list.items(in: CGRect(origin: transition.destinationOffset, size: size)).map(\.id))
            for progress in [0, 0.25, 0.5, 1] as [CGFloat] {
                var seen: [ItemIndex] = []
                transition.forEachItem(at: progress) { index, frame in
                    seen.append(index)
                    let from = grid.frame(of: index)!, to = list.frame(of: index)!
                    #expect(nearlyEqual(frame, from.interpolated(to: to, fraction: progress), tolerance: 1e-9))
                }
                #expect(seen.count == Set(seen).count)          // each item once
                #expect(Set(seen) == expected)                  // exactly the items visible in either
            }
            let half = transition.contentOffset(at: 0.5)
            #expect(abs(half.y - (viewport.contentOffset.y + transition.destinationOffset.y) / 2) < 1e-9)
            #expect(transition.contentSize(at: 1) == list.contentSize)
            #expect(transition.contentOffset(at: .nan) == viewport.contentOffset)
        }
    }
}
