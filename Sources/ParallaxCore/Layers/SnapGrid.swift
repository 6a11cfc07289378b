#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Evenly spaced resting points with a capture radius: scrolling that ends
/// within `captureRadius` of a target settles on it, anywhere else it stays
/// where it ended. The Cosmos tutorial places a target every ten screens
/// and captures within half a screen.
public struct SnapGrid: Sendable, Hashable {
    /// The distance between two targets.
    public var spacing: CGFloat
    /// How close an offset must come to a target to be captured.
    public var captureRadius: CGFloat
    /// The position of the first target.
    public var origin: CGFloat

    /// Targets every `spacing` points from `origin` (0 by default), each
    /// capturing the offsets within `captureRadius` of it. A spacing that is
    /// not a positive finite number gives no targets at all, and a negative
    /// radius captures nothing.
    public init(spacing: CGFloat, captureRadius: CGFloat, origin: CGFloat = 0) {
        self.spacing = spacing
        self.captureRadius = captureRadius
        self.origin = origin
    }

    /// The Cosmos setting: a target every ten viewports, captured within half
    /// a viewport.
    public static func cosmos(viewportExtent: CGFloat) -> SnapGrid {
        SnapGrid(spacing: 10 * viewportExtent, captureRadius: viewportExtent / 2)
    }

    /// The nearest target to `position`.
    @inlinable
    public func nearestTarget(to position: CGFloat) -> CGFloat? {
        guard spacing.isFinite, spacing > 0, position.isFinite, origin.isFinite else { return nil }
        return origin + ((position - origin) / spacing).rounded() * spacing
    }

    /// The target that captures `position`, or `nil` if none is close enough.
    @inlinable
    public func target(capturing position: CGFloat) -> CGFloat? {
        guard let target = nearestTarget(to: position), abs(target - position) <= captureRadius else { return nil }
        return target
    }

    /// Where a scroll ending with `velocity` and aimed at `proposed` should
    /// rest: a capturing target, or `proposed` itself. A drag released with
    /// zero velocity is left alone, as everywhere in ParallaxKit.
    @inlinable
    public func restingPosition(forProposed proposed: CGFloat, velocity: CGFloat) -> CGFloat {
        guard velocity != 0, velocity.isFinite else { return proposed }
        return target(capturing: proposed) ?? proposed
    }
}
