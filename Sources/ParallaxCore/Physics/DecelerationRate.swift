#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// How quickly a fling slows down: the fraction of its velocity a scroll
/// keeps per millisecond, as in `UIScrollView.DecelerationRate`.
///
/// Velocity decays exponentially, `v(t) = v₀ · rateᵗ` with `t` in
/// milliseconds, so a fling started at `v₀` points per second travels
/// `v₀ / λ` in all, where `λ = −1000 · ln(rate)` per second.
public struct DecelerationRate: Sendable, Hashable, Codable {
    /// Velocity kept per millisecond, in `0 < rawValue < 1`.
    public var rawValue: CGFloat

    /// A rate keeping `rawValue` of the velocity per millisecond. A value
    /// outside `0 < rawValue < 1` (or NaN) is stored, but ``decayPerSecond``
    /// reads it as ``normal``.
    public init(rawValue: CGFloat) { self.rawValue = rawValue }

    /// `UIScrollView.DecelerationRate.normal`: 0.998 per ms (time constant 0.5 s).
    public static let normal = DecelerationRate(rawValue: 0.998)
    /// `UIScrollView.DecelerationRate.fast`: 0.99 per ms (time constant 0.1 s).
    public static let fast = DecelerationRate(rawValue: 0.99)

    /// The decay constant `λ` per second. A rate outside `0 < r < 1` (or
    /// NaN) falls back to `normal`.
    @inlinable public var decayPerSecond: CGFloat {
        let r = rawValue.isFinite && rawValue > 0 && rawValue < 1 ? rawValue : DecelerationRate.normal.rawValue
        return -1000 * log(r)
    }

    /// How far a fling at `velocity` points per second travels before it stops.
    @inlinable public func distance(forVelocity velocity: CGFloat) -> CGFloat {
        velocity.isFinite ? velocity / decayPerSecond : 0
    }
}
