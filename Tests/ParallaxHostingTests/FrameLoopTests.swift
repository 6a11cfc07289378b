import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

@MainActor
@Suite("ParallaxFrameLoop: one pass per display frame, only while something can change")
struct FrameLoopTests {
    /// A scroll view of 30 rows 200 tall, a loop over it and a fake link delivering its frames.
    func makeLoop(idleFrameLimit: Int = 8) -> (FakeScrollView, ParallaxFrameLoop<FakeScrollView>, FakeDisplayLink) {
        let view = FakeScrollView(size: CGSize(width: 390, height: 844))
        view.fillColumn(count: 30, height: 200, spacing: 8)
        let loop = ParallaxFrameLoop(host: view, driver: ParallaxDriver<FakeScrollView>(),
                                     activity: FrameActivity(idleFrameLimit: idleFrameLimit))
        let link = FakeDisplayLink()
        link.onFrame = { [unowned loop] in loop.frame($0) }
        loop.link = link
        return (view, loop, link)
    }

    @Test("run-loop wakes between frames never add passes: at most one per frame, one for each frame with a change")
    func onePassPerFrame() {
        let (view, loop, link) = makeLoop()
        var rng = SplitMix64(seed: 0x5EED)
        var expectedPasses = 0
        var lastSignature: FrameSignature?
        for _ in 0..<2_000 {
            // Timers, network callbacks, image completions: any number of wakes between two frames.
            var woke = false
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                let reasons: [FrameActivity.Wake] = [.gesture, .layout, .loading, .request, .configuration]
                loop.wake(reasons[Int.random(in: 0..<reasons.count, using: &rng)])
                woke = true
            }
            if Bool.random(using: &rng) { view.scroll(to: CGFloat(Int.random(in: 0...4_000, using: &rng))) }
            let passesBefore = loop.statistics.passes
            let wasRunning = link.cadence == .everyFrame
            let delivered = link.tick()
            #expect(delivered == wasRunning)
            #expect(loop.statistics.passes - passesBefore <= 1, "never more than one pass in a frame")
            if delivered, woke || view.frameSignature != lastSignature {
                expectedPasses += 1
                lastSignature = view.frameSignature
            }
        }
        #expect(loop.statistics.passes == expectedPasses)
        #expect(loop.statistics.wakes > 2_000, "plenty of wakes, and none of them ran a pass on its own")
    }

    @Test("the same frame delivered twice passes once")
    func sameTimestampOnce() {
        let (view, loop, _) = makeLoop()
        loop.frame(1)
        view.scroll(to: 300)
        loop.wake(.request)
        loop.frame(1)
        #expect(loop.statistics.passes == 1)
        loop.frame(2)
        #expect(loop.statistics.passes == 2)
    }

    @Test("an idle screen stops the link after the idle limit, pays nothing, and a wake resumes it")
    func idleOut() {
        let (view, loop, link) = makeLoop(idleFrameLimit: 5)
        link.tick()
        #expect(loop.statistics.passes == 1, "the first frame places everything")
        for _ in 0..<4 { link.tick() }
        #expect(link.cadence == .everyFrame, "4 unchanged frames: still listening")
        link.tick()
        #expect(link.cadence == .none, "5 unchanged frames: paused")
        let frames = loop.statistics.frames
        for _ in 0..<1_000 { link.tick() }
        #expect(loop.statistics.frames == frames && loop.statistics.passes == 1, "idle: no frames, no passes")
        #expect(view.prepared == 6, "no layout either")
        // A drag wakes it; the offset changes each frame; then the finger rests.
        loop.wake(.gesture)
        #expect(link.cadence == .everyFrame)
        for step in 1...10 {
            view.scroll(to: CGFloat(step) * 12)
            link.tick()
        }
        #expect(loop.statistics.passes == 11)
        for _ in 0..<5 { link.tick() }
        #expect(link.cadence == .none && loop.statistics.passes == 11)
    }

    @Test("deceleration and running animations keep frames coming even when a frame changes nothing")
    func motionKeepsRunning() {
        let (view, loop, link) = makeLoop(idleFrameLimit: 2)
        view.motion = FrameMotion(isDecelerating: true)
        for _ in 0..<50 { link.tick() }
        #expect(link.cadence == .everyFrame && loop.statistics.frames == 50 && loop.statistics.passes == 1)
        view.motion = FrameMotion(isAnimating: true)
        for _ in 0..<50 { link.tick() }
        #expect(link.cadence == .everyFrame)
        view.motion = .resting
        for _ in 0..<2 { link.tick() }
        #expect(link.cadence == .none)
    }

    @Test("hidden, transparent, clipped away or covered: no passes, a probe cadence; seen again: exactly one pass")
    func obscuredStates() {
        let screen = CGRect(x: 0, y: 0, width: 390, height: 844)
        let obscured: [FrameVisibility] = [
            FrameVisibility(isInWindow: true, isHiddenInAncestry: true, visibleRect: screen),
            FrameVisibility(isInWindow: true, alphaInAncestry: 0, visibleRect: screen),
            FrameVisibility(isInWindow: true, alphaInAncestry: 0.005, visibleRect: screen),
            FrameVisibility(isInWindow: true, visibleRect: .null),
            FrameVisibility(isInWindow: true, visibleRect: CGRect(x: 0, y: 0, width: 390, height: 0)),
            FrameVisibility(isInWindow: true, visibleRect: screen, covers: [CGRect(x: 0, y: -10, width: 400, height: 900)]),
        ]
        for visibility in obscured {
            let (view, loop, link) = makeLoop()
            link.tick()
            view.visibility = visibility
            #expect(visibility.state == .obscured)
            loop.wake(.request)                        // a wake while obscured: one frame looks, and passes nothing
            link.tick()
            for step in 1...300 {
                view.scroll(to: CGFloat(step))        // even a programmatic scroll while hidden
                if step % 100 == 0 { loop.wake(.loading) }
                link.tick()
            }
            #expect(loop.statistics.passes == 1, "no pass while it cannot be seen")
            #expect(link.cadence == .probe)
            // The first frame, the frame after the first wake, a probe every 30th refresh (30, 60, … 300),
            // and one look for each of the three later wakes (refreshes 102, 202 and 302).
            #expect(link.delivered == 2 + 10 + 3, "a few probes and one look per wake, not a frame each refresh")
            view.visibility = FrameVisibility(isInWindow: true, visibleRect: screen)
            while !link.tick() {}
            #expect(loop.statistics.passes == 2, "seen again: one pass places what moved while hidden")
        }
    }

    @Test("out of any window: the link stops altogether; entering one is a wake")
    func offScreen() {
        let (view, loop, link) = makeLoop()
        link.tick()
        view.visibility = .offScreen
        loop.wake(.window)
        link.tick()
        #expect(link.cadence == .none)
        for _ in 0..<100 { link.tick() }
        #expect(loop.statistics.frames == 2 && loop.statistics.passes == 1)
        view.visibility = FrameVisibility(isInWindow: true, visibleRect: CGRect(x: 0, y: 0, width: 390, height: 844))
        loop.wake(.window)
        link.tick()
        #expect(loop.statistics.passes == 2)
    }

    @Test("an explicit pass counts: the next frame passes only if something changes after it")
    func explicitPass() {
        let (view, loop, link) = makeLoop()
        link.tick()
        view.scroll(to: 50)
        loop.passNow()
        #expect(loop.statistics.passes == 2)
        link.tick()
        #expect(loop.statistics.passes == 2)
        view.scroll(to: 60)
        link.tick()
        #expect(loop.statistics.passes == 3)
    }

    @Test("visibility: a cover hides the scroll view only if it contains all that is left of it")
    func coverContainment() {
        var rng = SplitMix64(seed: 42)
        func random(_ range: ClosedRange<Int>) -> CGFloat { CGFloat(Int.random(in: range, using: &rng)) }
        for _ in 0..<1_000 {
            let visible = CGRect(x: random(0...100), y: random(0...100), width: random(1...300), height: random(1...300))
            let cover = CGRect(x: random(-50...150), y: random(-50...150), width: random(0...500), height: random(0...500))
            let state = FrameVisibility(isInWindow: true, visibleRect: visible, covers: [cover]).state
            let contained = cover.minX <= visible.minX && cover.minY <= visible.minY
                && cover.maxX >= visible.maxX && cover.maxY >= visible.maxY && cover.width > 0 && cover.height > 0
            #expect(state == (contained ? .obscured : .visible))
        }
        #expect(FrameVisibility.offScreen.state == .offScreen)
    }
}
