import Foundation
import Testing
@testable import ParallaxCore
@testable import ParallaxLayout

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
