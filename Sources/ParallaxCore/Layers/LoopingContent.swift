#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Content that repeats forever, like the Cosmos starfield
/// (`InfiniteScrollView`).
///
/// The content is one period of art followed by a copy of its first
/// viewport, so the last screen looks exactly like the first. Wrapping an
/// offset into `0 ..< period` then jumps between two identical pictures and
/// the loop is seamless. InfiniteScrollView wraps by one period when the
/// offset leaves the range; ``wrap(_:)`` takes any offset, however far out,
/// in one step.
public struct LoopingContent: Sendable, Hashable {
    /// The length of one period of the art.
    public var period: CGFloat

    /// Content of `period`, drawn as `period + viewport` with the first
    /// viewport repeated at the end.
    public init(period: CGFloat) { self.period = period }

    /// For content of `contentExtent` that already ends with a copy of its
    /// first viewport: period = `contentExtent − viewportExtent`.
    public init(contentExtent: CGFloat, viewportExtent: CGFloat) {
        self.period = contentExtent - viewportExtent
    }

    /// The extent to draw: one period plus the repeated first viewport.
    @inlinable public func drawnExtent(viewportExtent: CGFloat) -> CGFloat { period + viewportExtent }

    /// `offset` moved by whole periods into `0 ..< period`. A period that is
    /// not a positive finite number, or a non-finite offset, gives 0.
    ///
    /// Complexity: O(1).
    @inlinable
    public func wrap(_ offset: CGFloat) -> CGFloat {
        guard period.isFinite, period > 0, offset.isFinite else { return 0 }
        let wrapped = offset - period * (offset / period).rounded(.down)
        return wrapped < period ? max(wrapped, 0) : 0
    }
}
