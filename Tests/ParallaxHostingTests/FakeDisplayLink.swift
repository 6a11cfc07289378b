import Foundation
import ParallaxCore
import ParallaxHosting

/// A display link for tests: ``tick()`` delivers the next display frame to
/// the loop, as UIKit's link would, but only while the loop asks for frames
/// (a probe cadence delivers one frame in ``probeInterval``).
@MainActor
final class FakeDisplayLink: FrameLink {
    var cadence: FrameActivity.Cadence = .everyFrame
    /// The frame count: the timestamp of the next frame is `frameNumber / 120`.
    private(set) var frameNumber = 0
    /// Frames delivered to the loop.
    private(set) var delivered = 0
    /// Display frames between two probe calls (a probe runs at a few hertz).
    let probeInterval = 30
    var onFrame: ((Double) -> Void)?

    /// One display refresh: delivers a frame if the cadence asks for it.
    /// Returns whether it did.
    @discardableResult
    func tick() -> Bool {
        frameNumber += 1
        switch cadence {
        case .none: return false
        case .probe where frameNumber % probeInterval != 0: return false
        case .probe, .everyFrame:
            delivered += 1
            onFrame?(Double(frameNumber) / 120)
            return true
        }
    }
}

/// ``FakeScrollView`` as a frame hook sees it.
extension FakeScrollView: ParallaxFrameHost {
    var frameVisibility: FrameVisibility { visibility }
    func prepareFrame() { prepared += 1 }
    var frameSignature: FrameSignature {
        FrameSignature(contentOffset: bounds.origin, boundsSize: bounds.size, contentSize: contentSize,
                       obscuredInsets: safeArea, generation: cells.count)
    }
    var frameMotion: FrameMotion { motion }
}
