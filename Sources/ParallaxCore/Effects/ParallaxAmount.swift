#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// How far depth parallax may shift an item's content: a fixed distance, or
/// a fraction of the item's own extent along the scroll axis.
///
/// RHParallaxScroller (RolfHendriks' UICollectionView-Demo) uses both: 10 pt in its grid and 10 % of
/// the cell height in its list, where cells are twice as wide as they are
/// tall.
public enum ParallaxAmount: Sendable, Hashable {
    /// A fixed distance in points.
    case points(CGFloat)
    /// A fraction of the item's extent along the scroll axis (0.1 = 10 %).
    case fractionOfItem(CGFloat)

    /// The distance in points for an item `itemLength` long.
    ///
    /// Defined for every input: a negative or non-finite amount, or a
    /// non-finite item length, resolves to zero (no parallax). A finite
    /// fraction of a finite length whose product is too large to represent
    /// resolves to `greatestFiniteMagnitude`, never to infinity or zero.
    @inlinable public func resolved(forItemLength itemLength: CGFloat) -> CGFloat {
        let value: CGFloat
        switch self {
        case .points(let points): value = points
        case .fractionOfItem(let fraction):
            guard fraction.isFinite, itemLength.isFinite else { return 0 }
            value = fraction * itemLength
            if value.isInfinite { return value > 0 ? .greatestFiniteMagnitude : 0 }
        }
        return value.isFinite && value > 0 ? value : 0
    }
}
