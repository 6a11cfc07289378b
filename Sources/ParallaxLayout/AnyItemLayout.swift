#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Any ``ItemLayout``, as one concrete type: for code that picks its layout
/// at run time (a collection-view layout whose builder returns
/// `any ItemLayout`) and needs a type that conforms, such as
/// ``DensityPinch``'s layout parameter.
///
/// Complexity: each call forwards to the wrapped layout; one dynamic
/// dispatch more than the layout itself, nothing allocated.
public struct AnyItemLayout: ItemLayout {
    /// The wrapped layout.
    public let base: any ItemLayout

    /// Wraps `base`.
    public init(_ base: any ItemLayout) {
        self.base = base
    }

    /// The wrapped layout's axis.
    public var axis: ScrollAxis { base.axis }
    /// Whether the wrapped layout runs against the axis.
    public var isMainAxisMirrored: Bool { base.isMainAxisMirrored }
    /// The wrapped layout's content size.
    public var contentSize: CGSize { base.contentSize }
    /// The wrapped layout's sections.
    public var numberOfSections: Int { base.numberOfSections }
    /// Whether the wrapped layout places items in index order.
    public var placesItemsInIndexOrder: Bool { base.placesItemsInIndexOrder }
    /// The wrapped layout's item count in `section`.
    public func numberOfItems(inSection section: Int) -> Int { base.numberOfItems(inSection: section) }
    /// The wrapped layout's frame of `index`.
    public func frame(of index: ItemIndex) -> CGRect? { base.frame(of: index) }
    /// The wrapped layout's header frame of `section`.
    public func headerFrame(ofSection section: Int) -> CGRect? { base.headerFrame(ofSection: section) }
    /// The wrapped layout's items in `rect`.
    public func forEachItem(in rect: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        try base.forEachItem(in: rect, body)
    }
    /// The wrapped layout's resting position showing `index`.
    public func restingPosition(showing index: ItemIndex) -> CGFloat? { base.restingPosition(showing: index) }
    /// The wrapped layout, aligned (see `ItemLayout.aligning(_:across:)`).
    public func aligning(_ index: ItemIndex, across position: CGFloat) -> AnyItemLayout {
        AnyItemLayout(base.aligning(index, across: position))
    }
    /// The wrapped layout's resting position nearest `position`.
    public func restingPosition(nearest position: CGFloat) -> CGFloat? { base.restingPosition(nearest: position) }
}
