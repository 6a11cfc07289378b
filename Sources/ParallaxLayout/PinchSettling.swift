#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// How a ``DensityPinch`` settles once the fingers lift: a short critically
/// damped spring of its ``DensityPinch/position`` (the column count plus the
/// progress towards the next), from where the fingers left it to a whole
/// count, through every count in between.
/// RolfHendriks' UICollectionView-Demo animates its layout switch in 0.3 s,
/// and the spring's response is the same.
///
/// Complexity: O(1) per query, nothing allocated.
public struct PinchSettling: Sendable, Hashable {
    /// The position the spring starts from.
    public let start: CGFloat
    /// The position it comes to rest at: a whole column count.
    public let target: CGFloat
    /// The position's change per second when it starts (columns per second).
    public let velocity: CGFloat
    /// The column count shown once settled.
    public let columns: Int
    /// The spring's response: about the time it takes to settle, in seconds.
    public static let response: TimeInterval = 0.3

    init(from start: CGFloat, to target: CGFloat, velocity: CGFloat, columns: Int) {
        self.start = start
        self.target = target
        self.velocity = velocity
        self.columns = columns
    }

    private var omega: CGFloat { 2 * .pi / CGFloat(Self.response) }

    /// The position `time` seconds after the fingers lifted.
    public func position(at time: TimeInterval) -> CGFloat {
        guard time.isFinite, time > 0 else { return start }
        let t = CGFloat(time), displacement = start - target
        return target + (displacement + (velocity + omega * displacement) * t) * exp(-omega * t)
    }

    /// How settled the offset is `time` seconds after the fingers lifted,
    /// from 0 to 1: the share of the way from the unclamped offset the
    /// fingers left to the clamped one it ends at.
    public func completion(at time: TimeInterval) -> CGFloat {
        guard time.isFinite, time > 0 else { return 0 }
        let t = CGFloat(time)
        return 1 - (1 + omega * t) * exp(-omega * t)
    }

    /// Whether the spring has come to rest (within a thousandth of a
    /// column) `time` seconds after the fingers lifted.
    public func isFinished(at time: TimeInterval) -> Bool {
        guard time.isFinite else { return true }
        return time >= 0 && abs(position(at: time) - target) < 0.001 && completion(at: time) > 0.999
    }
}
