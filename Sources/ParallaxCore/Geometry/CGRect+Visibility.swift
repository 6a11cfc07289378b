#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The rectangle tests and interpolation ParallaxKit's layouts and
/// transitions share.
extension CGRect {
    /// Whether this rectangle has positive area and shares some of it with
    /// `other`: the one visibility test every layout query in ParallaxKit
    /// uses, so closed-form queries and brute-force references agree exactly.
    ///
    /// Unlike `intersects(_:)`, rectangles that only touch along an edge do
    /// not count, and a zero-area item is never visible.
    @inlinable
    public func isVisible(in other: CGRect) -> Bool {
        size.width > 0 && size.height > 0
            && origin.x < other.origin.x + other.size.width && other.origin.x < origin.x + size.width
            && origin.y < other.origin.y + other.size.height && other.origin.y < origin.y + size.height
    }

    /// The rectangle `fraction` of the way from `self` to `other`
    /// (0 = `self`, 1 = `other`), each edge moving linearly.
    @inlinable
    public func interpolated(to other: CGRect, fraction: CGFloat) -> CGRect {
        CGRect(x: origin.x + (other.origin.x - origin.x) * fraction,
               y: origin.y + (other.origin.y - origin.y) * fraction,
               width: size.width + (other.size.width - size.width) * fraction,
               height: size.height + (other.size.height - size.height) * fraction)
    }
}
