#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// When a scroll view's frame hook runs a parallax pass, and when it asks
/// the display for frames at all: the activity policy of a UIKit adapter,
/// decided here so Linux tests drive it with a fake display link.
///
/// The hook is a display-synchronised callback (Apple's `UIUpdateLink` at
/// `beforeCATransactionCommit` from iOS 18, `CADisplayLink` below it). Two
/// kinds of events reach this policy:
/// - **wakes** (``wake(_:)``): a drag moved, the scroll view was laid out at
///   a new size, it entered a window, its traits or the configuration
///   changed, a load plan is pending. A wake never runs a pass; it only
///   makes the next frame run one and asks for frames again. However often
///   the run loop turns between two frames (timers, network callbacks,
///   image completions), they cost a flag each.
/// - **frames** (``frame(_:signature:visibility:motion:)``): at most one
///   pass per display frame, however many times the hook is called for it.
///
/// A frame runs a pass when a wake asked for one or when the scroll view's
/// ``FrameSignature`` (offset, size, content size, insets) differs from the
/// last pass's: that comparison is how the hook learns, without a
/// delegate and without observing `contentOffset`, that something moved.
/// It keeps asking for frames while the scroll view is decelerating, an
/// item is animating, work is pending, or fewer than ``idleFrameLimit``
/// frames in a row were unchanged; then it stops (``Cadence/none``), and
/// only a wake starts it again. A scroll view that cannot be seen (hidden
/// anywhere up its ancestry, transparent, clipped away or covered; see
/// ``FrameVisibility``) runs no pass: it drops to ``Cadence/probe`` (a few
/// checks a second, so it resumes when shown) and passes once when it is
/// seen again. Out of any window it asks for nothing: entering one is a
/// wake.
///
/// Complexity: O(1) per wake and per frame; no allocation.
public struct FrameActivity: Sendable, Hashable {
    /// Why the hook should look again.
    public enum Wake: Sendable, Hashable {
        /// A finger moved the scroll view, or let go of it (the pan
        /// gesture's target-action).
        case gesture
        /// The scroll view or an item was laid out at another size.
        case layout
        /// The scroll view entered or left a window.
        case window
        /// The traits changed: reading direction, display scale, size class.
        case traits
        /// The parallax configuration, or an accessibility setting, changed.
        case configuration
        /// Loading asked to be planned (a new plan source, a loaded image).
        case loading
        /// The app asked for a pass (new content, a programmatic scroll).
        case request
    }

    /// How often the hook should be called.
    public enum Cadence: Sendable, Hashable {
        /// Not at all: the hook is paused until a wake.
        case none
        /// A few times a second: the scroll view is in a window but cannot
        /// be seen, and must notice when it can be (nothing tells it).
        case probe
        /// Every display frame.
        case everyFrame
    }

    /// What a frame does.
    public struct Decision: Sendable, Hashable {
        /// Whether to run a parallax pass in this frame.
        public var runsPass: Bool
        /// How often to be called from now on.
        public var cadence: Cadence

        /// A decision.
        public init(runsPass: Bool, cadence: Cadence) {
            self.runsPass = runsPass
            self.cadence = cadence
        }
    }

    /// Unchanged frames in a row after which the hook stops asking for
    /// frames (8 by default: 67 ms at 120 Hz, 133 ms at 60 Hz, enough for a
    /// change UIKit schedules a frame or two later).
    public var idleFrameLimit: Int

    /// How often the hook should be called now.
    public private(set) var cadence: Cadence = .everyFrame
    /// Frames in a row in which nothing changed.
    public private(set) var unchangedFrames = 0
    /// Whether the next visible frame runs a pass whatever the signature.
    public private(set) var needsPass = true

    private var lastSignature: FrameSignature?
    private var lastFrame: Double?

    /// A policy that stops asking for frames after `idleFrameLimit`
    /// unchanged frames (at least 1). It starts awake: the first frame
    /// runs a pass.
    public init(idleFrameLimit: Int = 8) {
        self.idleFrameLimit = max(idleFrameLimit, 1)
    }

    /// Notes that something may have changed: the next frame runs a pass,
    /// and frames are asked for again. Returns whether the hook was idle
    /// (the caller then resumes it).
    @discardableResult
    public mutating func wake(_ reason: Wake) -> Bool {
        needsPass = true
        unchangedFrames = 0
        let wasIdle = cadence != .everyFrame
        cadence = .everyFrame
        return wasIdle
    }

    /// Notes a pass run outside a frame (an explicit update): the next
    /// frame passes only if the geometry changes after it.
    public mutating func recordPass(signature: FrameSignature) {
        lastSignature = signature
        needsPass = false
    }

    /// The decision for the display frame `frame` (the link's timestamp:
    /// calls with the same timestamp are the same frame, and only the
    /// first of them may pass).
    ///
    /// - Parameters:
    ///   - frame: the frame's timestamp (`targetTimestamp`, `modelTime`).
    ///   - signature: the scroll view's geometry now.
    ///   - visibility: whether it can be seen.
    ///   - motion: what keeps it moving without a wake.
    public mutating func frame(_ frame: Double, signature: FrameSignature, visibility: FrameVisibility,
                               motion: FrameMotion) -> Decision {
        guard frame != lastFrame else { return Decision(runsPass: false, cadence: cadence) }
        lastFrame = frame
        switch visibility.state {
        case .offScreen:
            needsPass = true
            cadence = .none
            return Decision(runsPass: false, cadence: cadence)
        case .obscured:
            needsPass = true
            cadence = .probe
            return Decision(runsPass: false, cadence: cadence)
        case .visible:
            break
        }
        let changed = needsPass || signature != lastSignature
        if changed {
            unchangedFrames = 0
            lastSignature = signature
            needsPass = false
        } else if unchangedFrames < Int.max {
            unchangedFrames += 1
        }
        let keepsRunning = motion.isDecelerating || motion.isAnimating || motion.hasPendingWork
            || unchangedFrames < idleFrameLimit
        cadence = keepsRunning ? .everyFrame : .none
        return Decision(runsPass: changed, cadence: cadence)
    }
}

/// What a scroll view's geometry looks like in a frame: when it is the
/// same as at the last pass, nothing a pass places can have moved (cells
/// animating or re-laid out at the same size wake the hook on their own).
///
/// Complexity: O(1) to compare.
public struct FrameSignature: Sendable, Hashable {
    /// The content offset.
    public var contentOffset: CGPoint
    /// The bounds' size.
    public var boundsSize: CGSize
    /// The content's size.
    public var contentSize: CGSize
    /// The insets bars and the safe area take.
    public var obscuredInsets: EdgeInsets
    /// Anything else the adapter counts (for a plain scroll view, its
    /// number of subviews; for a collection view, its item count).
    public var generation: Int

    /// A signature.
    public init(contentOffset: CGPoint, boundsSize: CGSize, contentSize: CGSize,
                obscuredInsets: EdgeInsets = .zero, generation: Int = 0) {
        self.contentOffset = contentOffset
        self.boundsSize = boundsSize
        self.contentSize = contentSize
        self.obscuredInsets = obscuredInsets
        self.generation = generation
    }

    /// Hashes every field (CoreGraphics' geometry is only Equatable in Apple SDKs before iOS 18).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(point: contentOffset)
        hasher.combine(size: boundsSize)
        hasher.combine(size: contentSize)
        hasher.combine(obscuredInsets)
        hasher.combine(generation)
    }
}

/// What keeps a scroll view changing from frame to frame without a wake.
public struct FrameMotion: Sendable, Hashable {
    /// The scroll view is decelerating or bouncing after a fling.
    public var isDecelerating: Bool
    /// An item (or the scroll view) has animations running.
    public var isAnimating: Bool
    /// Work a later frame finishes (a load plan waiting, say).
    public var hasPendingWork: Bool

    /// A motion; at rest by default.
    public init(isDecelerating: Bool = false, isAnimating: Bool = false, hasPendingWork: Bool = false) {
        self.isDecelerating = isDecelerating
        self.isAnimating = isAnimating
        self.hasPendingWork = hasPendingWork
    }

    /// Nothing moves.
    public static let resting = FrameMotion()
}
