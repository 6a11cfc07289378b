#if canImport(UIKit)
import ParallaxHosting
import QuartzCore
import UIKit

/// The display-synchronised callback behind a ``ParallaxController``: one
/// call per display frame, in a documented place in the frame, paused
/// when the controller's `ParallaxFrameLoop` says nothing can change.
///
/// - **iOS 18, tvOS 18, visionOS 2 and later**: a `UIUpdateLink` made for
///   the scroll view, with its action at `UIUpdateActionPhase`'s
///   `beforeCATransactionCommit`. Apple's UIUpdateLink and
///   UIUpdateActionPhase documentation puts that phase after event
///   dispatch (drags), after `CADisplayLink` callbacks (scroll
///   deceleration) and before the transaction that shows the frame is
///   committed, all "without exiting back into the run loop": a pass there
///   sees the frame's final offsets, and its placements are in the very
///   frame that shows them. The link is passive by default (it is called
///   only for UI updates the app produces anyway, so a still screen calls
///   nothing, and a programmatic scroll, a batch update or an unhidden
///   ancestor is still seen); while the loop wants every frame it sets
///   `requiresContinuousUpdates`.
/// - **Below**: a `CADisplayLink` on the main run loop's common modes,
///   paused when idle, at a few hertz while the scroll view is in a window
///   but cannot be seen. Its order against a drag's events within a frame
///   is not documented before iOS 18 (from iOS 18 the phases above put
///   display-link dispatch after event dispatch), so a placement may trail
///   a drag by a frame there; at rest and during deceleration it is exact.
///
/// The iOS 18 path is compiled when the SDK declares `UIUpdateLink`: every
/// SDK that ships SwiftUICore (Xcode 16 and later, the SDKs of iOS 18,
/// tvOS 18 and visionOS 2) does, which `canImport(SwiftUICore)` tells at
/// compile time; `UIUpdateLink` is unavailable on Mac Catalyst and watchOS.
///
/// Complexity: O(1) per frame besides the loop's own work.
@MainActor
final class DisplayFrameLink: FrameLink {
    /// How often the link calls back; setting it pauses or resumes it.
    var cadence: FrameActivity.Cadence = .everyFrame {
        didSet { if cadence != oldValue { applyCadence() } }
    }

    private let onFrame: @MainActor (Double) -> Void
    // Invalidated in deinit, which runs once nothing else can touch it.
    private nonisolated(unsafe) var displayLink: CADisplayLink?
    private var updateLink: AnyObject?
    private let target = Target()

    /// A link calling `onFrame` with each frame's timestamp, for `view`.
    init(view: UIView, onFrame: @escaping @MainActor (Double) -> Void) {
        self.onFrame = onFrame
        target.link = self
        #if canImport(SwiftUICore) && !targetEnvironment(macCatalyst) && !os(watchOS)
        if #available(iOS 18.0, tvOS 18.0, visionOS 2.0, *) {
            let link = UIUpdateLink(view: view)
            link.addAction(to: .beforeCATransactionCommit) { [weak self] _, info in
                self?.onFrame(info.modelTime)
            }
            link.requiresContinuousUpdates = true
            link.isEnabled = true
            updateLink = link
            return
        }
        #endif
        let link = CADisplayLink(target: target, selector: #selector(Target.tick(_:)))
        link.add(to: .main, forMode: .common)
        displayLink = link
    }

    deinit {
        displayLink?.invalidate()
    }

    /// Stops calling back for good.
    func invalidate() {
        displayLink?.invalidate()
        displayLink = nil
        #if canImport(SwiftUICore) && !targetEnvironment(macCatalyst) && !os(watchOS)
        if #available(iOS 18.0, tvOS 18.0, visionOS 2.0, *), let link = updateLink as? UIUpdateLink {
            link.isEnabled = false
        }
        #endif
        updateLink = nil
    }

    private func applyCadence() {
        #if canImport(SwiftUICore) && !targetEnvironment(macCatalyst) && !os(watchOS)
        if #available(iOS 18.0, tvOS 18.0, visionOS 2.0, *), let link = updateLink as? UIUpdateLink {
            // Passive (called only for UI updates the app makes anyway) unless every frame is wanted.
            link.requiresContinuousUpdates = cadence == .everyFrame
            return
        }
        #endif
        guard let displayLink else { return }
        switch cadence {
        case .none:
            displayLink.isPaused = true
        case .probe:
            displayLink.preferredFrameRateRange = CAFrameRateRange(minimum: 2, maximum: 4, preferred: 4)
            displayLink.isPaused = false
        case .everyFrame:
            displayLink.preferredFrameRateRange = .default
            displayLink.isPaused = false
        }
    }

    fileprivate func tick(_ link: CADisplayLink) {
        onFrame(link.targetTimestamp)
    }

    /// The display link's target: `CADisplayLink` retains its target, so
    /// this holds the link weakly.
    private final class Target: NSObject {
        weak var link: DisplayFrameLink?

        @MainActor @objc func tick(_ displayLink: CADisplayLink) {
            link?.tick(displayLink)
        }
    }
}
#endif
