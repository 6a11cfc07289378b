#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Insets around content on each physical edge, exactly like UIKit's
/// `UIEdgeInsets` (which the UIKit adapter converts one-to-one).
///
/// They are physical on purpose: a scroll view's content insets and safe
/// area do not swap sides in right-to-left layouts; layouts that mirror do
/// so themselves.
@frozen
public struct EdgeInsets: Sendable, Hashable, Codable {
    /// The inset at the top edge, in points.
    public var top: CGFloat
    /// The inset at the left edge, in points (the leading edge only left to right).
    public var left: CGFloat
    /// The inset at the bottom edge, in points.
    public var bottom: CGFloat
    /// The inset at the right edge, in points.
    public var right: CGFloat

    /// Insets of the given sizes in points, 0 on every edge not named.
    /// Values are stored as given (``isFinite`` tells whether they are
    /// usable); layouts reject negative or non-finite margins when they are
    /// built.
    @inlinable
    public init(top: CGFloat = 0, left: CGFloat = 0, bottom: CGFloat = 0, right: CGFloat = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every edge.
    @inlinable public init(all value: CGFloat) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// No inset.
    public static let zero = EdgeInsets()

    /// The inset at the low-coordinate end of `axis` (top, or left).
    @inlinable public func lowerInset(along axis: ScrollAxis) -> CGFloat {
        axis == .vertical ? top : left
    }
    /// The inset at the high-coordinate end of `axis` (bottom, or right).
    @inlinable public func upperInset(along axis: ScrollAxis) -> CGFloat {
        axis == .vertical ? bottom : right
    }

    /// Whether every inset is a finite number.
    @inlinable public var isFinite: Bool {
        top.isFinite && left.isFinite && bottom.isFinite && right.isFinite
    }
}
