import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

@Suite("PinchHandOff: the overlay stays until the scroll view reports the rest")
struct PinchHandOffTests {
    let viewport = ScrollViewport(size: CGSize(width: 390, height: 700),
                                  insets: EdgeInsets(top: 100, left: 0, bottom: 34, right: 0))
    let content = CGSize(width: 390, height: 5000)

    @Test("a pinch freezes scrolling and shows the overlay until the report matches")
    func matchesReport() {
        var handOff = PinchHandOff()
        #expect(!handOff.showsOverlay && handOff.allowsScrolling)
        handOff.beginPinch()
        #expect(handOff.showsOverlay && !handOff.allowsScrolling)
        handOff.endPinch()
        #expect(handOff.phase == .settling && !handOff.allowsScrolling)
        let decision = handOff.rest(at: CGPoint(x: 0, y: 1234), contentSize: content, viewport: viewport,
                                    reported: CGPoint(x: 0, y: 900))
        let request = PinchHandOff.ScrollRequest(target: CGPoint(x: 0, y: 1234), requested: CGPoint(x: 0, y: 1234), serial: 1)
        #expect(decision == .scroll(request))
        #expect(handOff.showsOverlay)
        // The old offset is reported once more (the request takes effect later): the overlay stays.
        #expect(handOff.observe(reported: CGPoint(x: 0, y: 900)) == .wait)
        #expect(handOff.frameElapsed() == .wait)
        #expect(handOff.showsOverlay)
        // A new pinch during the hand-off starts from the target, not from the drifting report.
        #expect(handOff.startingOffset(reported: CGPoint(x: 0, y: 900)) == CGPoint(x: 0, y: 1234))
        #expect(handOff.observe(reported: CGPoint(x: 0, y: 1234.3)) == .reveal)
        #expect(!handOff.showsOverlay && handOff.allowsScrolling)
        #expect(handOff.startingOffset(reported: CGPoint(x: 0, y: 900)) == CGPoint(x: 0, y: 900))
    }

    @Test("already there: the overlay goes at once (no report would ever come)")
    func alreadyThere() {
        var handOff = PinchHandOff()
        handOff.beginPinch()
        handOff.endPinch()
        #expect(handOff.rest(at: CGPoint(x: 0, y: 400), contentSize: content, viewport: viewport,
                             reported: CGPoint(x: 0, y: 400.2)) == .reveal)
        #expect(handOff.phase == .idle)
    }

    @Test("the target respects the insets: never above −top, never past the end plus the bottom inset")
    func clampedToInsets() {
        var handOff = PinchHandOff()
        handOff.beginPinch()
        _ = handOff.rest(at: CGPoint(x: 0, y: -400), contentSize: content, viewport: viewport, reported: CGPoint(x: 0, y: 50))
        #expect(handOff.request?.target == CGPoint(x: 0, y: -100))
        handOff.beginPinch()
        _ = handOff.rest(at: CGPoint(x: 0, y: 9000), contentSize: content, viewport: viewport, reported: CGPoint(x: 0, y: 50))
        #expect(handOff.request?.target == CGPoint(x: 0, y: 5000 + 34 - 700))
        // Content shorter than the viewport rests at −top.
        handOff.beginPinch()
        _ = handOff.rest(at: CGPoint(x: 0, y: 300), contentSize: CGSize(width: 390, height: 200), viewport: viewport,
                         reported: CGPoint(x: 0, y: 50))
        #expect(handOff.request?.target == CGPoint(x: 0, y: -100))
    }

    @Test("a request that lands a bar off is repeated, corrected by the miss")
    func corrects() {
        var handOff = PinchHandOff(maximumRequests: 3, framesPerRequest: 2)
        handOff.beginPinch()
        _ = handOff.rest(at: CGPoint(x: 0, y: 1000), contentSize: content, viewport: viewport, reported: CGPoint(x: 0, y: 0))
        // The API aligned to the safe area: 100 pt short.
        #expect(handOff.observe(reported: CGPoint(x: 0, y: 900)) == .wait)
        #expect(handOff.frameElapsed() == .wait)
        let second = handOff.frameElapsed()
        #expect(second == .scroll(.init(target: CGPoint(x: 0, y: 1000), requested: CGPoint(x: 0, y: 1100), serial: 2)))
        #expect(handOff.observe(reported: CGPoint(x: 0, y: 1000)) == .reveal)
    }

    @Test("with no matching report the scroll view is shown after the last request, never left hidden")
    func givesUp() {
        var handOff = PinchHandOff(maximumRequests: 2, framesPerRequest: 3)
        handOff.beginPinch()
        _ = handOff.rest(at: CGPoint(x: 0, y: 1000), contentSize: content, viewport: viewport, reported: .zero)
        var decisions: [PinchHandOff.Decision] = []
        for _ in 0..<6 { decisions.append(handOff.frameElapsed()) }
        #expect(decisions[0] == .wait && decisions[1] == .wait)
        // No report at all: the same point is asked again.
        #expect(decisions[2] == .scroll(.init(target: CGPoint(x: 0, y: 1000), requested: CGPoint(x: 0, y: 1000), serial: 2)))
        #expect(decisions[3] == .wait && decisions[4] == .wait)
        #expect(decisions[5] == .reveal)
        #expect(handOff.allowsScrolling)
    }

    @Test("seeded random event orders: the overlay always goes within the frame budget, and only on a match or a give-up")
    func randomOrders() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let requests = Int.random(in: 1...4, using: &rng), frames = Int.random(in: 1...5, using: &rng)
            var handOff = PinchHandOff(maximumRequests: requests, framesPerRequest: frames)
            handOff.beginPinch()
            handOff.endPinch()
            let target = CGPoint(x: 0, y: CGFloat.random(in: 0...4000, using: &rng))
            var decision = handOff.rest(at: target, contentSize: content, viewport: viewport,
                                        reported: CGPoint(x: 0, y: CGFloat.random(in: 0...4000, using: &rng)))
            var elapsed = 0
            while decision != .reveal {
                if Bool.random(using: &rng) {
                    let miss: CGFloat = Bool.random(using: &rng) ? 0 : CGFloat.random(in: -120...120, using: &rng)
                    decision = handOff.observe(reported: CGPoint(x: 0, y: target.y + miss))
                    if decision == .reveal { #expect(abs(miss) <= 0.5) }
                } else {
                    decision = handOff.frameElapsed()
                    elapsed += 1
                }
                #expect(elapsed <= requests * frames)
                #expect(handOff.showsOverlay == (decision != .reveal))
            }
        }
    }
}
