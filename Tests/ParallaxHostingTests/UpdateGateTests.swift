import Foundation
import ParallaxHosting
import Testing

@Suite("UpdateGate: a pass only when something changed")
struct UpdateGateTests {
    @Test("the first wake updates; unchanged wakes do not; a change, a pending layout or a request does")
    func rules() {
        var gate = UpdateGate<CGRect>()
        let bounds = CGRect(x: 0, y: 0, width: 390, height: 844)
        #expect(gate.shouldUpdate(seeing: bounds, layoutPending: false))
        gate.didUpdate(leaving: bounds)
        #expect(!gate.shouldUpdate(seeing: bounds, layoutPending: false))
        #expect(gate.shouldUpdate(seeing: bounds.offsetBy(dx: 0, dy: 1), layoutPending: false))
        #expect(gate.shouldUpdate(seeing: bounds, layoutPending: true))
        gate.request()
        #expect(gate.shouldUpdate(seeing: bounds, layoutPending: false))
        gate.didUpdate(leaving: bounds)
        #expect(!gate.shouldUpdate(seeing: bounds, layoutPending: false))
    }

    @Test("driven by a fake scroll view: a pass on exactly the wakes that scroll, resize or lay out")
    @MainActor func drivesDriver() {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844))
        view.fillColumn(count: 30, height: 200)
        let driver = ParallaxDriver<FakeScrollView>()
        var gate = UpdateGate<CGRect>()
        // Each wake: (scroll to y, a layout pending?)
        let wakes: [(CGFloat, Bool)] = [(0, false), (0, false), (10, false), (10, false), (10, true), (10, false), (500, false)]
        var passes = 0
        for (y, layoutPending) in wakes {
            view.scroll(to: y)
            if gate.shouldUpdate(seeing: view.bounds, layoutPending: layoutPending) {
                driver.update(view)
                gate.didUpdate(leaving: view.bounds)
                passes += 1
            }
        }
        #expect(passes == 4)
        #expect(driver.statistics.updates == 4)
    }
}
