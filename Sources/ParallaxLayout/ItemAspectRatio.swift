#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The aspect ratios (width : height) a layout places an item at: from
/// 1 : 64 to 64 : 1. This is the one place the range is decided;
/// ``WaterfallLayout`` clamps every item's ratio into it, and apps that
/// reason about a photo's shape before it reaches a layout (which tile
/// span, which placeholder) clamp through ``clamped(_:)`` so they agree
/// with what is drawn.
///
/// Why 64: the sizes come from files and servers, so a header can claim
/// 1 × 2,147,483,647 pixels. Unclamped, such a tile in a 300-pt column is
/// 6 · 10¹¹ pt long: it overflows the 32-bit integers of every drawing API,
/// loses whole points in `Float`, and buries the rest of the column. Real
/// photos stay far inside the range: cameras shoot 1 : 1 to 16 : 9, phone
/// panoramas are about 4 : 1 to 9 : 1 and stitched 360° strips rarely pass
/// 20 : 1, so every real photo keeps its own shape. At the range's ends a
/// tile is at most 64 column widths long (19,200 pt in a 300-pt column,
/// about 24 screens, well inside `Int32` and exact in `Float`) and at least
/// 1/64 of one (about 5 pt: still a visible sliver). Both ends are powers of
/// two, so clamping and inverting are exact.
public enum ItemAspectRatio {
    /// The usable aspect ratios, 1/64 ... 64.
    public static let range: ClosedRange<CGFloat> = (1.0 / 64)...64

    /// `ratio` brought into ``range``, or `nil` when it is not a usable
    /// ratio at all (zero, negative, NaN); an infinite ratio is taken as the
    /// range's end on its side.
    public static func clamped(_ ratio: CGFloat) -> CGFloat? {
        guard ratio > 0 else { return nil }            // also false for NaN
        return min(max(ratio, range.lowerBound), range.upperBound)
    }

    /// The aspect ratio (width : height) of `size`, clamped into ``range``;
    /// `nil` when a side is zero, negative or not a number, or both are
    /// infinite.
    public static func of(_ size: CGSize) -> CGFloat? {
        guard size.width > 0, size.height > 0, size.width.isFinite || size.height.isFinite else { return nil }
        return clamped(size.width / size.height)
    }
}
