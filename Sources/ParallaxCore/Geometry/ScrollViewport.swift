#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The part of a scroll view's content that is on screen, described the way
/// `UIScrollView` does: a bounds size, a content offset and the content insets
/// (for UIKit, `adjustedContentInset`, which includes the safe area).
///
/// Place keeping, snapping and transitions take one of these so that insets
/// and safe areas are never forgotten (the most reported bug of existing
/// parallax libraries).
public struct ScrollViewport: Sendable, Hashable {
    /// The size of the scroll view's bounds.
    public var size: CGSize
    /// The content offset: the content point shown at the bounds' origin.
    public var contentOffset: CGPoint
    /// The insets around the content (safe area included).
    public var insets: EdgeInsets

    /// A viewport of `size` showing the content from `contentOffset`, with
    /// `insets` around the content (UIKit's `adjustedContentInset`); offset
    /// and insets are zero unless given. Values are stored as given;
    /// ``offsetRange(contentExtent:along:)`` answers `0...0` for non-finite
    /// ones.
    public init(size: CGSize, contentOffset: CGPoint = .zero, insets: EdgeInsets = .zero) {
        self.size = size
        self.contentOffset = contentOffset
        self.insets = insets
    }

    /// Hashes the size, the content offset and the insets, the values `==`
    /// compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size: size)
        hasher.combine(point: contentOffset)
        hasher.combine(insets)
    }

    /// The content rectangle that is on screen.
    @inlinable public var visibleRect: CGRect { CGRect(origin: contentOffset, size: size) }

    /// The offsets along `axis` a scroll view can rest at for content of
    /// `contentExtent`: from minus the lower inset (top or left) to the end of
    /// the content plus the upper inset. Never empty, even for content shorter
    /// than the viewport.
    ///
    /// Non-finite inputs give the range `0...0`.
    public func offsetRange(contentExtent: CGFloat, along axis: ScrollAxis) -> ClosedRange<CGFloat> {
        let lower = -insets.lowerInset(along: axis)
        let upper = contentExtent + insets.upperInset(along: axis) - axis.main(size)
        guard lower.isFinite, upper.isFinite else { return 0...0 }
        return lower...max(lower, upper)
    }
}

/// Clamping for ranges of offsets such as
/// ``ScrollViewport/offsetRange(contentExtent:along:)``'s.
extension ClosedRange where Bound == CGFloat {
    /// `value` limited to the range; NaN becomes the lower bound.
    @inlinable public func clamp(_ value: CGFloat) -> CGFloat {
        guard !value.isNaN else { return lowerBound }
        return Swift.min(Swift.max(value, lowerBound), upperBound)
    }
}

extension ScrollViewport {
    /// Where the visible content starts along `axis`, seen from the
    /// leading edge: the top (or left) edge past its inset, or, when the
    /// layout's main axis is mirrored (horizontal right-to-left), the right
    /// edge before its inset.
    @inlinable
    public func leadingEdge(along axis: ScrollAxis, mirrored: Bool) -> CGFloat {
        mirrored
            ? axis.main(contentOffset) + axis.main(size) - insets.upperInset(along: axis)
            : axis.main(contentOffset) + insets.lowerInset(along: axis)
    }

    /// The content offset along `axis` that puts content position
    /// `position` at the leading edge: the inverse of
    /// ``leadingEdge(along:mirrored:)``.
    @inlinable
    public func contentOffset(placingLeadingEdgeAt position: CGFloat, along axis: ScrollAxis, mirrored: Bool) -> CGFloat {
        mirrored
            ? position + insets.upperInset(along: axis) - axis.main(size)
            : position - insets.lowerInset(along: axis)
    }
}
