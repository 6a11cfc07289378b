import Foundation

/// A scroll view as a frame hook sees it: a ``ParallaxScrollHost`` that can
/// also say whether it can be seen, what its geometry is, and what keeps it
/// moving. UIKit's `ParallaxController` makes `UIScrollView` one; Linux
/// tests use fake scroll views.
@MainActor
public protocol ParallaxFrameHost: ParallaxScrollHost {
    /// Whether it can be seen now (read first, every frame the hook runs).
    var frameVisibility: FrameVisibility { get }
    /// Finishes pending layout, so items about to appear exist: called
    /// before ``frameSignature`` in a frame where it can be seen (UIKit's
    /// `layoutIfNeeded()`: free when nothing is pending).
    func prepareFrame()
    /// Its geometry now.
    var frameSignature: FrameSignature { get }
    /// What keeps it changing without a wake.
    var frameMotion: FrameMotion { get }
}

/// A display-synchronised callback the loop can pause and resume: UIKit's
/// `UIUpdateLink` or `CADisplayLink`, or a test's fake.
@MainActor
public protocol FrameLink: AnyObject {
    /// How often the link calls the loop's ``ParallaxFrameLoop/frame(_:)``.
    var cadence: FrameActivity.Cadence { get set }
}

/// What a ``ParallaxFrameLoop`` has done.
public struct FrameLoopStatistics: Sendable, Hashable {
    /// Frames the link delivered.
    public var frames = 0
    /// Frames that ran a pass.
    public var passes = 0
    /// Wakes received (each only a flag: never a pass).
    public var wakes = 0

    /// All counters at zero.
    public init() {}
}

/// The frame hook of a scroll view: a ``FrameLink`` calls ``frame(_:)``
/// once per display frame, events call ``wake(_:)`` whenever something may
/// have changed, and the loop runs the ``ParallaxDriver`` at most once per
/// frame, only when something moved, and only while the scroll view can be
/// seen, pausing the link when idle (see ``FrameActivity``).
///
/// This is the whole per-frame logic of UIKit's `ParallaxController`; the
/// controller only translates UIKit into ``ParallaxFrameHost`` and
/// ``FrameLink``.
///
/// Complexity: O(1) per wake; per frame, O(1) when nothing moved, O(visible
/// targets) for a pass.
@MainActor
public final class ParallaxFrameLoop<Host: ParallaxFrameHost> {
    /// The driver that places the targets.
    public let driver: ParallaxDriver<Host>
    /// The activity policy.
    public private(set) var activity: FrameActivity
    /// The link whose cadence the loop sets.
    public var link: (any FrameLink)? {
        didSet { link?.cadence = activity.cadence }
    }
    /// Called after every pass (a loading plan, say).
    public var afterPass: ((Host) -> Void)?
    /// What the loop has done.
    public private(set) var statistics = FrameLoopStatistics()

    private weak var host: Host?

    /// A loop over `host` with `driver` and `activity`.
    public init(host: Host, driver: ParallaxDriver<Host>, activity: FrameActivity = FrameActivity()) {
        self.host = host
        self.driver = driver
        self.activity = activity
    }

    /// Something may have changed: the next frame passes, and the link
    /// runs again if it was paused. Never runs a pass itself.
    public func wake(_ reason: FrameActivity.Wake) {
        statistics.wakes += 1
        if activity.wake(reason) { link?.cadence = activity.cadence }
    }

    /// The link's callback for the display frame with timestamp `frame`.
    public func frame(_ frame: Double) {
        guard let host else {
            link?.cadence = .none
            return
        }
        statistics.frames += 1
        let visibility = host.frameVisibility
        let visible = visibility.state == .visible
        if visible { host.prepareFrame() }
        let signature = visible ? host.frameSignature : Self.unseen
        let motion = visible ? host.frameMotion : .resting
        let decision = activity.frame(frame, signature: signature, visibility: visibility, motion: motion)
        if decision.runsPass { pass(over: host) }
        if link?.cadence != decision.cadence { link?.cadence = decision.cadence }
    }

    /// Runs a pass now, outside any frame (an app's explicit request),
    /// if the scroll view can be seen.
    public func passNow() {
        guard let host, host.frameVisibility.state == .visible else { return }
        host.prepareFrame()
        pass(over: host)
        activity.recordPass(signature: host.frameSignature)
    }

    private func pass(over host: Host) {
        statistics.passes += 1
        driver.update(host)
        afterPass?(host)
    }

    private static var unseen: FrameSignature { FrameSignature(contentOffset: .zero, boundsSize: .zero, contentSize: .zero) }
}
