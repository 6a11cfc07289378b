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
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat

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
