#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The scroll offset that brings an item into view with the least
/// movement: what a detail view closing on a photo asks of the grid when
/// paging moved it to a photo whose tile has scrolled away (UIKit's zoom
/// transition asks its source view provider again for the same reason).
///
/// An item already fully visible does not move the scroll. One above the
/// visible area comes to its top edge, one below to its bottom edge, each
/// `margin` points inside; an item taller than the visible area shows its
/// top. The offset is clamped to `range`.
///
/// Complexity: O(1).
public enum RevealOffset {
    /// The offset along the scroll axis at which `itemFrame` (content
    /// coordinates, the axis mapped to `minY`/`maxY`) is visible in a
    /// viewport showing `visibleLength` points from `offset`, with the
    /// content scrollable over `range`. Non-finite input keeps `offset`.
    public static func offset(revealing itemFrame: CGRect, from offset: CGFloat, visibleLength: CGFloat,
                              range: ClosedRange<CGFloat>, margin: CGFloat = 0) -> CGFloat {
        let frame = itemFrame.standardized
        guard offset.isFinite, visibleLength.isFinite, visibleLength > 0, frame.minY.isFinite, frame.maxY.isFinite,
              range.lowerBound.isFinite, range.upperBound.isFinite else { return offset }
        let margin = margin.isFinite ? max(0, min(margin, (visibleLength - frame.height) / 2)) : 0
        var target = offset
        if frame.minY - margin < offset || frame.height + 2 * margin > visibleLength {
            target = frame.minY - margin
        } else if frame.maxY + margin > offset + visibleLength {
            target = frame.maxY + margin - visibleLength
        }
        return min(max(target, range.lowerBound), range.upperBound)
    }
}
