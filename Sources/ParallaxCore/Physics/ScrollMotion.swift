#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Where a scroll is going and how it gets there: the path of a scroll
/// view's offset along its axis from now on, as far as it can be known.
///
/// A fling decelerates exponentially (UIKit's deceleration rate):
/// `offset(t) = resting − (resting − offset) · e^(−λt)`. That closed form
/// tells when the viewport will reach any offset, so a loader can see
/// which tiles a fling will carry past too fast to be shown, and which it
/// will come to rest on (the landing zone). A finger on the screen or a
/// scroll at rest has no known future: it stays where it is.
public struct ScrollMotion: Sendable, Hashable {
    /// The offset now.
    public var offset: CGFloat
    /// Where the motion comes to rest.
    public var restingOffset: CGFloat
    /// The exponential approach's rate `λ`, per second (0: not moving).
    public var decayPerSecond: CGFloat

    /// A motion from `offset` towards `restingOffset` at rate
    /// `decayPerSecond`. Non-finite values give a motion at rest at
    /// `offset` (or at 0).
    public init(offset: CGFloat, restingOffset: CGFloat, decayPerSecond: CGFloat) {
        let start = offset.isFinite ? offset : 0
        self.offset = start
        if restingOffset.isFinite, decayPerSecond.isFinite, decayPerSecond > 0 {
            self.restingOffset = restingOffset
            self.decayPerSecond = decayPerSecond
        } else {
            self.restingOffset = start
            self.decayPerSecond = 0
        }
    }

    /// No motion: at rest at `offset`.
    public static func resting(at offset: CGFloat) -> ScrollMotion {
        ScrollMotion(offset: offset, restingOffset: offset, decayPerSecond: 0)
    }

    /// Whether the offset will change.
    public var isMoving: Bool { decayPerSecond > 0 && restingOffset != offset }

    /// +1 scrolling forward (offsets growing), −1 backward, 0 at rest.
    public var direction: CGFloat {
        isMoving ? (restingOffset > offset ? 1 : -1) : 0
    }

    /// Seconds until the offset reaches `target`: 0 if it is there now,
    /// `nil` if it never will (behind the motion, or past where it rests).
    ///
    /// Complexity: O(1).
    public func time(toReach target: CGFloat) -> CGFloat? {
        guard target.isFinite else { return nil }
        if target == offset { return 0 }
        guard isMoving else { return nil }
        let remaining = restingOffset - offset
        let left = restingOffset - target
        // Same side of the resting offset as now, and nearer to it.
        guard left * remaining > 0 || left == 0, abs(left) < abs(remaining) else { return nil }
        if left == 0 { return nil }                 // reached only in the limit
        return log(remaining / left) / decayPerSecond
    }
}

extension ScrollSimulation {
    /// The path from here: a fling's exponential deceleration towards its
    /// resting offset, a bounce's spring back to the end (approximated by
    /// the same law at the spring's rate), or at rest (idle, or a finger
    /// on the screen).
    public var motion: ScrollMotion {
        switch phase {
        case .idle, .dragging:
            return .resting(at: position)
        case .decelerating:
            let resting = bounds.clamp(target ?? projectedPosition(forVelocity: velocity))
            return ScrollMotion(offset: position, restingOffset: resting, decayPerSecond: decelerationRate.decayPerSecond)
        case .bouncing:
            return ScrollMotion(offset: position, restingOffset: target ?? bounds.clamp(position), decayPerSecond: bounceFrequency)
        }
    }
}
