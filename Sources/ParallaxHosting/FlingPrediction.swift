#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Where a fling will come to rest, predicted when the finger lets go:
/// the landing zone for scroll views whose layout does not say (a flow or
/// compositional layout, a table, a plain scroll view), so loading plans
/// it as it does for ParallaxKit's own layouts.
///
/// A scroll view's deceleration is exponential (`DecelerationRate`): a
/// fling at velocity `v` travels `v / λ`. The prediction is made once, from
/// the pan gesture's velocity at release (its target-action, not a
/// delegate), and clamped to the offsets the content allows; a paging
/// scroll view lands on a page, which this does not predict (it rests).
///
/// Complexity: O(1).
public struct FlingPrediction: Sendable, Hashable {
    /// The offset along the axis the fling started from.
    public var releaseOffset: CGFloat
    /// Where it will rest.
    public var restingOffset: CGFloat
    /// Its decay constant per second.
    public var decayPerSecond: CGFloat

    /// The prediction for a fling released at `offset` with `velocity`
    /// (points per second of content movement along the axis: the pan
    /// gesture's velocity negated) under `rate`, clamped to `range` (the
    /// smallest and largest offsets the content and its insets allow).
    /// `nil` for a fling that goes nowhere.
    public init?(offset: CGFloat, velocity: CGFloat, rate: DecelerationRate, range: ClosedRange<CGFloat>) {
        guard offset.isFinite, velocity.isFinite, velocity != 0,
              range.lowerBound.isFinite, range.upperBound.isFinite else { return nil }
        let target = min(max(offset + rate.distance(forVelocity: velocity), range.lowerBound), range.upperBound)
        guard target != offset else { return nil }
        releaseOffset = offset
        restingOffset = target
        decayPerSecond = rate.decayPerSecond
    }

    /// The prediction for a fling released at `offset` that the scroll
    /// view itself says comes to rest at `restingOffset` (a SwiftUI scroll
    /// target behaviour is told where), decaying at `rate`. `nil` for a
    /// fling that goes nowhere or non-finite offsets.
    public init?(offset: CGFloat, restingOffset: CGFloat, rate: DecelerationRate) {
        guard offset.isFinite, restingOffset.isFinite, restingOffset != offset else { return nil }
        releaseOffset = offset
        self.restingOffset = restingOffset
        decayPerSecond = rate.decayPerSecond
    }

    /// The motion at `offset`, part way through the fling: still heading
    /// for ``restingOffset`` while the scroll view decelerates, at rest once
    /// it does not (a finger caught it, or it stopped).
    public func motion(at offset: CGFloat, isDecelerating: Bool) -> ScrollMotion {
        guard isDecelerating else { return .resting(at: offset) }
        return ScrollMotion(offset: offset, restingOffset: restingOffset, decayPerSecond: decayPerSecond)
    }
}
