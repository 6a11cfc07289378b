import Foundation
import ParallaxLayout
import Testing
@testable import ParallaxImages

@Suite("Prefetch planner")
struct PrefetchPlannerTests {
    let grid = try! GridLayout(configuration: .list, itemCount: 100, containerSize: CGSize(width: 390, height: 844))

    @Test func nextScreenInTheScrollDirection() {
        // List rows every 203 pt; viewport 1000…1844 shows rows 4…9 (row 9 starts at 1827).
        let visible = CGRect(x: 0, y: 1000, width: 390, height: 844)
        let down = PrefetchPlanner.itemsToPrefetch(in: grid, visibleRect: visible, velocity: CGPoint(x: 0, y: 500))
        #expect(down.map(\.item) == [10, 11, 12, 13])               // 1844…2688: rows 10 (2030) to 13 (2639)
        let up = PrefetchPlanner.itemsToPrefetch(in: grid, visibleRect: visible, velocity: CGPoint(x: 0, y: -500))
        #expect(up.map(\.item) == [3, 2, 1, 0])                      // 156…1000, nearest first; row 0 (0…195) reaches into it
        #expect(PrefetchPlanner.itemsToPrefetch(in: grid, visibleRect: visible, velocity: .zero).isEmpty)
        #expect(PrefetchPlanner.itemsToPrefetch(in: grid, visibleRect: visible, velocity: CGPoint(x: 0, y: CGFloat.nan)).isEmpty)
        let two = PrefetchPlanner.itemsToPrefetch(in: grid, visibleRect: visible, velocity: CGPoint(x: 0, y: 1), screens: 2)
        #expect(two.count == 8 && two.first?.item == 10)
    }

    @Test func horizontalLayouts() throws {
        var configuration = GridConfiguration.list
        configuration.axis = .horizontal
        let strip = try GridLayout(configuration: configuration, itemCount: 50, containerSize: CGSize(width: 400, height: 200))
        let visible = CGRect(x: 0, y: 0, width: 400, height: 200)
        let ahead = PrefetchPlanner.itemsToPrefetch(in: strip, visibleRect: visible, velocity: CGPoint(x: 300, y: 0))
        #expect(!ahead.isEmpty && ahead.allSatisfy { strip.frame(of: $0)!.minX >= 400 - 1e-9 })
        #expect(PrefetchPlanner.itemsToPrefetch(in: strip, visibleRect: visible, velocity: CGPoint(x: 0, y: 300)).isEmpty)
    }
}
