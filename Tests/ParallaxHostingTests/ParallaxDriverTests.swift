import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

/// Depth parallax from first principles (Ole Begemann; Kurutepe; RH):
/// offset = (window.midY − cell.midY) · P / (H/2 + h/2), clamped to ±P; the
/// content is h + 2P tall, centred on the cell plus the offset.
private func expectedDepth(cell: CGRect, window: CGRect, maxOffset p: CGFloat) -> (offset: CGFloat, content: CGRect) {
    let raw = (window.midY - cell.midY) * p / (window.height / 2 + cell.height / 2)
    let offset = min(max(raw, -p), p)
    let content = CGRect(x: 0, y: cell.height / 2 + offset - (cell.height + 2 * p) / 2,
                         width: cell.width, height: cell.height + 2 * p)
    return (offset, content)
}

private func isClose(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool { abs(a - b) <= tolerance }

private func matches(_ placement: ParallaxPlacement?, cell: CGRect, window: CGRect, maxOffset: CGFloat) -> Bool {
    guard let placement else { return false }
    let expected = expectedDepth(cell: cell, window: window, maxOffset: maxOffset)
    return isClose(placement.offset.y, expected.offset) && isClose(placement.offset.x, 0)
        && isClose(placement.contentFrame.minY, expected.content.minY)
        && isClose(placement.contentFrame.height, expected.content.height)
        && isClose(placement.contentFrame.width, expected.content.width)
}

@MainActor
@Suite("ParallaxDriver: a fake scroll view's cells")
struct ParallaxDriverTests {
    let p: CGFloat = 30

    @Test("opted-in cells get the depth formula's placement; other cells are never touched")
    func optIn() {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 500))
        view.fillColumn(count: 20, height: 200, spacing: 8)
        for (i, cell) in view.cells.enumerated() where i % 3 == 0 { cell.optsIn = false }
        let driver = ParallaxDriver<FakeScrollView>()
        let placed = driver.update(view)
        let visible = view.cells.filter { $0.frame.intersects(view.bounds) }
        #expect(placed == visible.filter(\.optsIn).count)
        for cell in view.cells {
            if cell.optsIn && cell.frame.intersects(view.bounds) {
                #expect(matches(cell.placement, cell: cell.frame, window: view.bounds, maxOffset: p))
            } else {
                #expect(cell.placements.isEmpty)
            }
        }
    }

    @Test("a cell centred in the window shows its content centred; one entering at the bottom is at +P… −P")
    func exactValues() {
        let view = FakeScrollView(size: CGSize(width: 400, height: 800))
        let centred = FakeCell(frame: CGRect(x: 0, y: 300, width: 400, height: 200))
        let entering = FakeCell(frame: CGRect(x: 0, y: 799, width: 400, height: 200))
        view.cells = [centred, entering]
        ParallaxDriver<FakeScrollView>().update(view)
        #expect(centred.placement?.offset == CGPoint.zero)
        #expect(centred.placement?.contentFrame == CGRect(x: 0, y: -30, width: 400, height: 260))
        // (400 − 899) · 30 / (400 + 100) = −29.94
        let expectedOffset: CGFloat = (400 - 899) * 30 / 500
        #expect(isClose(entering.placement?.offset.y ?? .nan, expectedOffset))
    }

    @Test("a cell that appears gets its placement in the same update, not after the next scroll")
    func appearingCell() {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844))
        view.fillColumn(count: 4, height: 200)
        let driver = ParallaxDriver<FakeScrollView>()
        driver.update(view)
        // The scroll view lays out a new cell (UIKit: the layout pass the controller lets finish first).
        let newcomer = FakeCell(frame: CGRect(x: 0, y: 800, width: 390, height: 200))
        view.cells.append(newcomer)
        driver.update(view)
        #expect(matches(newcomer.placement, cell: newcomer.frame, window: view.bounds, maxOffset: p))
        #expect(newcomer.placements.count == 1)
    }

    @Test("rotation: new bounds give new placements measured against the new window")
    func rotation() {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 300))
        view.fillColumn(count: 10, height: 195)
        let driver = ParallaxDriver<FakeScrollView>()
        driver.update(view)
        view.bounds = CGRect(x: 0, y: 300, width: 844, height: 390)
        view.fillColumn(count: 10, height: 422)
        driver.update(view)
        for cell in view.cells where cell.frame.intersects(view.bounds) {
            #expect(matches(cell.placement, cell: cell.frame, window: view.bounds, maxOffset: p))
            #expect(cell.placement?.contentSize == CGSize(width: 844, height: 422 + 2 * p))
        }
    }

    @Test("safe area: the window is the unobscured part of the bounds, so insets never shift the effect")
    func safeArea() {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: -100))
        view.safeArea = EdgeInsets(top: 100, bottom: 34)
        // Centred in the unobscured part: 844 − 134 = 710 tall starting at content y 0.
        let cell = FakeCell(frame: CGRect(x: 0, y: 255, width: 390, height: 200))
        view.cells = [cell]
        let driver = ParallaxDriver<FakeScrollView>()
        driver.update(view)
        #expect(cell.placement?.offset == CGPoint.zero)
        let window = CGRect(x: 0, y: 0, width: 390, height: 710)
        #expect(driver.window(for: view) == window)

        driver.configuration.window = .bounds
        driver.update(view)
        #expect(matches(cell.placement, cell: cell.frame, window: view.bounds, maxOffset: p))
        #expect(cell.placement?.offset != CGPoint.zero)
    }

    @Test("insets that leave no window fall back to the bounds; non-finite insets too")
    func degenerateInsets() {
        let bounds = CGRect(x: 0, y: 50, width: 300, height: 400)
        #expect(ParallaxWindow.unobscured.rect(in: bounds, obscured: EdgeInsets(top: 300, bottom: 200), axis: .vertical) == bounds)
        #expect(ParallaxWindow.unobscured.rect(in: bounds, obscured: EdgeInsets(top: .nan), axis: .vertical) == bounds)
        let horizontal = ParallaxWindow.unobscured.rect(in: bounds, obscured: EdgeInsets(top: 10, left: 20, right: 30),
                                                        axis: .horizontal)
        #expect(horizontal == CGRect(x: 20, y: 50, width: 250, height: 400))
    }

    @Test("Reduce Motion stops the motion but keeps the content's size (no re-decode); it can be ignored")
    func reduceMotion() {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 123))
        view.fillColumn(count: 8, height: 200)
        view.reduceMotion = true
        let driver = ParallaxDriver<FakeScrollView>()
        driver.update(view)
        for cell in view.cells where cell.frame.intersects(view.bounds) {
            #expect(cell.placement?.offset == CGPoint.zero)
            #expect(cell.placement?.contentSize == CGSize(width: 390, height: 260))
        }
        driver.configuration.respectsReduceMotion = false
        driver.update(view)
        #expect(view.cells.contains { $0.placement?.offset != CGPoint.zero })
    }

    @Test("right-to-left: the window effect is anchored at the mirrored edge on a horizontal axis")
    func rightToLeft() {
        let view = FakeScrollView(size: CGSize(width: 800, height: 300), contentOffset: CGPoint(x: 400, y: 0))
        view.cells = (0..<6).map { FakeCell(frame: CGRect(x: CGFloat($0) * 250, y: 0, width: 250, height: 300)) }
        let driver = ParallaxDriver<FakeScrollView>(
            configuration: ParallaxConfiguration(effect: .window(rate: 0.5, anchor: 0), axis: .horizontal))
        view.direction = .rightToLeft
        driver.update(view)
        let rtl = view.cells.map(\.placement)
        let mirrored = ParallaxScroller(effect: .window(rate: 0.5, anchor: 0), axis: .horizontal,
                                        layoutDirection: .rightToLeft)
        for (cell, placement) in zip(view.cells, rtl) where cell.frame.intersects(view.bounds) {
            #expect(placement == mirrored.placement(forItemFrame: cell.frame, in: view.bounds))
        }
        view.direction = .leftToRight
        driver.update(view)
        #expect(view.cells.map(\.placement) != rtl)
    }

    @Test("reload: new cell objects at the same frames are placed; the old ones are not touched again")
    func reload() {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 250))
        view.fillColumn(count: 10, height: 180)
        let driver = ParallaxDriver<FakeScrollView>()
        driver.update(view)
        let old = view.cells
        let counts = old.map(\.placements.count)
        view.fillColumn(count: 10, height: 180)
        driver.update(view)
        #expect(old.map(\.placements.count) == counts)
        for cell in view.cells where cell.frame.intersects(view.bounds) {
            #expect(matches(cell.placement, cell: cell.frame, window: view.bounds, maxOffset: p))
        }
    }

    @Test("re-entrancy: an update requested from inside apply runs as one more pass, not nested")
    func reentrancy() {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 400))
        view.fillColumn(count: 12, height: 200)
        let driver = ParallaxDriver<FakeScrollView>()
        var depth = 0, deepest = 0, clamped = false
        view.onApply = { _ in
            depth += 1
            deepest = max(deepest, depth)
            // As UIKit clamping the offset during a pass would: the bounds change and the observer fires.
            if !clamped { clamped = true; view.scroll(to: 380) }
            driver.update(view)
            depth -= 1
        }
        driver.update(view)
        #expect(deepest == 1)
        #expect(driver.statistics.updates == 1)
        #expect(driver.statistics.passes == ParallaxDriver<FakeScrollView>.maximumPasses)
        #expect(driver.statistics.nestedRequests > 0)
        for cell in view.cells where cell.frame.intersects(view.bounds) {
            #expect(matches(cell.placement, cell: cell.frame, window: view.bounds, maxOffset: p))
        }
    }

    @Test("a request during one pass only adds one pass when nothing asks again")
    func singleExtraPass() {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844))
        view.fillColumn(count: 3, height: 200)
        let driver = ParallaxDriver<FakeScrollView>()
        var asked = false
        view.onApply = { _ in if !asked { asked = true; driver.update(view) } }
        driver.update(view)
        #expect(driver.statistics.passes == 2)
        #expect(driver.statistics.nestedRequests == 1)
    }

    @Test("invariant over random scroll views: visible content always covers its cell, offsets stay within ±P·intensity")
    func randomInvariant() {
        var rng = SplitMix64(seed: 0xFACE)
        let driver = ParallaxDriver<FakeScrollView>()
        for _ in 0..<500 {
            let size = CGSize(width: CGFloat.random(in: 100...1400, using: &rng),
                              height: CGFloat.random(in: 100...1400, using: &rng))
            let view = FakeScrollView(size: size, contentOffset: CGPoint(x: 0, y: CGFloat.random(in: -200...5000, using: &rng)))
            view.safeArea = EdgeInsets(top: CGFloat.random(in: 0...120, using: &rng), bottom: CGFloat.random(in: 0...50, using: &rng))
            view.fillColumn(count: 40, height: CGFloat.random(in: 20...600, using: &rng),
                            spacing: CGFloat.random(in: 0...20, using: &rng))
            let intensity = CGFloat.random(in: 0...1, using: &rng)
            driver.configuration = ParallaxConfiguration(effect: .depth(maxOffset: p), intensity: intensity)
            driver.update(view)
            for cell in view.cells where cell.frame.intersects(view.bounds) {
                guard let placement = cell.placement else {
                    Issue.record("a visible cell got no placement")
                    continue
                }
                let content = placement.contentFrame, tolerance: CGFloat = 1e-6
                #expect(content.minY <= tolerance && content.maxY >= cell.frame.height - tolerance)
                #expect(content.minX <= tolerance && content.maxX >= cell.frame.width - tolerance)
                #expect(abs(placement.offset.y) <= p * intensity + 1e-9)
            }
        }
    }
}
