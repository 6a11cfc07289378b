import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

private func isClose(_ a: CGRect, _ b: CGRect) -> Bool {
    abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9 && abs(a.width - b.width) < 1e-9 && abs(a.height - b.height) < 1e-9
}

@Suite("PlacementTransition: content moves inside its item's animation")
struct PlacementTransitionTests {
    @Test("inside an animation block: inherited; a running item animation: matched; otherwise immediate")
    func choice() {
        let running = ItemAnimation(beginTime: 10, duration: 0.3, isAdditive: true)
        #expect(PlacementTransition.choose(inheritedAnimationDuration: 0.25, itemAnimation: nil, now: 0) == .inherited)
        #expect(PlacementTransition.choose(inheritedAnimationDuration: 0.25, itemAnimation: running, now: 10.1) == .inherited)
        #expect(PlacementTransition.choose(inheritedAnimationDuration: 0, itemAnimation: running, now: 10.1) == .matching(running))
        #expect(PlacementTransition.choose(inheritedAnimationDuration: 0, itemAnimation: running, now: 10.3) == .immediate,
                "an animation that has ended is not copied")
        #expect(PlacementTransition.choose(inheritedAnimationDuration: 0, itemAnimation: nil, now: 10.1) == .immediate)
        let endless = ItemAnimation(beginTime: 0, duration: .infinity, isAdditive: false)
        #expect(PlacementTransition.choose(inheritedAnimationDuration: 0, itemAnimation: endless, now: 1) == .immediate)
    }

    /// A cell sliding from one frame to another (a batch update, a layout switch, a rotation), with the content's
    /// placement computed for its final frame and animated with a copy of the cell's animation: at every progress the
    /// content shows the placement of the cell's interpolated frame. Depth parallax is linear in the cell's position
    /// while it stays within ±P, so the two agree exactly; and neither end jumps.
    @Test("an animated transition: content and cell interpolate together", arguments: [false, true])
    func contentFollowsItem(additive: Bool) {
        var rng = SplitMix64(seed: additive ? 7 : 8)
        func random(_ range: ClosedRange<Int>) -> CGFloat { CGFloat(Int.random(in: range, using: &rng)) }
        let window = CGRect(x: 0, y: 0, width: 390, height: 844)
        let placer = ParallaxScroller(effect: .depth(maxOffset: 30), axis: .vertical).placer(for: window)
        for _ in 0..<200 {
            let size = CGSize(width: random(80...390), height: random(80...300))
            let old = CGRect(origin: CGPoint(x: random(0...200), y: random(0...600)), size: size)
            let new = CGRect(origin: CGPoint(x: random(0...200), y: random(0...600)), size: size)
            let before = placer.placement(forItemFrame: old).contentFrame
            let after = placer.placement(forItemFrame: new).contentFrame
            let animation = ItemAnimation(beginTime: 0, duration: 0.35, isAdditive: additive)
            let values = ContentAnimation(matching: animation, from: before, to: after)
            for step in 0...20 {
                let progress = CGFloat(step) / 20
                let cell = old.interpolated(to: new, fraction: progress)
                let expected = placer.placement(forItemFrame: cell).contentFrame
                let shown = values.presentedFrame(atProgress: progress, model: after)
                #expect(abs(shown.midY - expected.midY) < 1e-6 && abs(shown.midX - expected.midX) < 1e-6)
                #expect(abs(shown.height - expected.height) < 1e-6 && abs(shown.width - expected.width) < 1e-6)
            }
            #expect(isClose(values.presentedFrame(atProgress: 0, model: after), before), "no jump when the animation starts")
            #expect(isClose(values.presentedFrame(atProgress: 1, model: after), after), "and none when it ends")
        }
    }

    @Test("additive values run from old minus new to zero, as UIKit's own; absolute ones from old to new")
    func values() {
        let old = CGRect(x: 0, y: -40, width: 100, height: 260)
        let new = CGRect(x: 0, y: -10, width: 120, height: 300)
        let additive = ContentAnimation(matching: ItemAnimation(beginTime: 0, duration: 1, isAdditive: true), from: old, to: new)
        #expect(additive.fromCenter == CGPoint(x: -10, y: -50) && additive.toCenter == .zero)
        #expect(additive.fromSize == CGSize(width: -20, height: -40) && additive.toSize == .zero)
        #expect(additive.movesCentre && additive.changesSize)
        let absolute = ContentAnimation(matching: ItemAnimation(beginTime: 0, duration: 1, isAdditive: false), from: old, to: new)
        #expect(absolute.fromCenter == CGPoint(x: 50, y: 90) && absolute.toCenter == CGPoint(x: 60, y: 140))
        let still = ContentAnimation(matching: ItemAnimation(beginTime: 0, duration: 1, isAdditive: true), from: new, to: new)
        #expect(!still.movesCentre && !still.changesSize)
    }
}
