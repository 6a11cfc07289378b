#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The room a collection view gives its layout, and where the layout's
/// frames go in it: the decision behind `ParallaxCollectionViewLayout`'s
/// container size.
///
/// Across the scroll axis the layout gets the bounds minus the content
/// insets, and minus whatever part of the safe area those insets leave
/// uncovered. With UIKit's default `.automatic` adjustment a vertical
/// collection view's insets cover the bars but not the sides, so without
/// the second step photos would lie under a landscape notch. The layout is
/// then shifted past that uncovered part on the leading side.
///
/// Layouts are built left to right and UIKit mirrors them in a
/// right-to-left interface, so there the physical right side leads.
public struct LayoutRoom: Sendable, Hashable {
    /// The size to build the layout for.
    public var containerSize: CGSize
    /// How far every frame moves across the axis (right for a vertical
    /// layout, down for a horizontal one) to clear the leading safe area.
    public var crossShift: CGFloat
    /// The extra content across the axis: the uncovered safe area on both sides.
    public var crossPadding: CGFloat

    /// The room inside `boundsSize` with `contentInsets` (UIKit's
    /// `adjustedContentInset`) and `safeArea`, for a layout scrolling along
    /// `axis`. Non-finite or negative insets count as zero; the container
    /// is never negative.
    ///
    /// Complexity: O(1).
    public init(boundsSize: CGSize, contentInsets: EdgeInsets, safeArea: EdgeInsets, axis: ScrollAxis,
                isRightToLeft: Bool) {
        func clean(_ value: CGFloat) -> CGFloat { value.isFinite ? max(value, 0) : 0 }
        let content = EdgeInsets(top: clean(contentInsets.top), left: clean(contentInsets.left),
                                 bottom: clean(contentInsets.bottom), right: clean(contentInsets.right))
        let safe = EdgeInsets(top: clean(safeArea.top), left: clean(safeArea.left),
                              bottom: clean(safeArea.bottom), right: clean(safeArea.right))
        let width = clean(boundsSize.width), height = clean(boundsSize.height)
        switch axis {
        case .vertical:
            let left = max(safe.left - content.left, 0), right = max(safe.right - content.right, 0)
            crossShift = isRightToLeft ? right : left
            crossPadding = left + right
            containerSize = CGSize(width: max(width - content.left - content.right - crossPadding, 0), height: height)
        case .horizontal:
            let top = max(safe.top - content.top, 0), bottom = max(safe.bottom - content.bottom, 0)
            crossShift = top
            crossPadding = top + bottom
            containerSize = CGSize(width: width, height: max(height - content.top - content.bottom - crossPadding, 0))
        }
    }

    /// `frame` of the built layout, where it goes in the collection view's content.
    public func shown(_ frame: CGRect, along axis: ScrollAxis) -> CGRect {
        axis == .vertical ? frame.offsetBy(dx: crossShift, dy: 0) : frame.offsetBy(dx: 0, dy: crossShift)
    }

    /// `rect` of the collection view's content, in the built layout's coordinates.
    public func built(_ rect: CGRect, along axis: ScrollAxis) -> CGRect {
        axis == .vertical ? rect.offsetBy(dx: -crossShift, dy: 0) : rect.offsetBy(dx: 0, dy: -crossShift)
    }

    /// The collection view's content size for a layout whose content is `layoutContentSize`.
    public func contentSize(for layoutContentSize: CGSize, along axis: ScrollAxis) -> CGSize {
        axis == .vertical
            ? CGSize(width: layoutContentSize.width + crossPadding, height: layoutContentSize.height)
            : CGSize(width: layoutContentSize.width, height: layoutContentSize.height + crossPadding)
    }

    /// Hashes the container size and the two cross-axis amounts, the values
    /// `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size: containerSize)
        hasher.combine(crossShift)
        hasher.combine(crossPadding)
    }
}
