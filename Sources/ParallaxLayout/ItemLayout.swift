#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// A layout whose geometry is computed once and then only read: the frame
/// of any item, the items in any rectangle, and where scrolling may rest.
///
/// Parallax, place keeping, snapping and transitions are written against
/// this protocol, so every layout (grid, list, and any you write) gets them
/// all. None of them ever asks a layout to recompute anything: reading
/// geometry is the whole contract.
public protocol ItemLayout: Sendable {
    /// The axis the content scrolls along.
    var axis: ScrollAxis { get }
    /// Whether the content runs against the coordinate direction along the
    /// axis (a horizontal right-to-left layout: the first item on the right).
    /// Place keeping and snapping then measure from the right edge.
    var isMainAxisMirrored: Bool { get }
    /// The size of all the content.
    var contentSize: CGSize { get }
    /// The number of sections.
    var numberOfSections: Int { get }
    /// The number of items in `section` (0 for a section that does not exist).
    func numberOfItems(inSection section: Int) -> Int
    /// The frame of the item at `index`, or `nil` if there is no such item.
    func frame(of index: ItemIndex) -> CGRect?
    /// The frame of `section`'s header, or `nil` if it has none.
    func headerFrame(ofSection section: Int) -> CGRect?
    /// Calls `body` for every item whose frame is visible in `rect`
    /// (`CGRect.isVisible(in:)`), each exactly once. The order is the
    /// layout's own (``GridLayout`` reports index order).
    func forEachItem(in rect: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows
    /// The content position along the axis that should sit at the
    /// viewport's leading edge to show the line of items containing `index`
    /// first, with the gap that precedes it (its section's start, header
    /// included, for a first line). `nil` if there is no such item.
    func restingPosition(showing index: ItemIndex) -> CGFloat?
    /// The resting position (see ``restingPosition(showing:)``) nearest to
    /// `position`, or `nil` if the layout has no lines.
    func restingPosition(nearest position: CGFloat) -> CGFloat?
    /// Whether items start along the axis in index order: no item starts
    /// before one with a lower index (a grid's rows). `false` by default; a
    /// quilt fills holes behind its frontier with later items, so it is not.
    /// ``DensityPinch`` reads fewer items per frame when this holds.
    var placesItemsInIndexOrder: Bool { get }
    /// The same items laid out so that `index` lies across the axis at
    /// `position` (content coordinates), if the layout can put it there
    /// without changing anything but where its lines start: a grid starts the
    /// item's section further into its first row (``GridLayout``). Layouts
    /// that cannot return themselves, which is the default.
    /// ``DensityPinch`` asks each column count's layout for this, so that the
    /// photo under the fingers lands in the column under them.
    func aligning(_ index: ItemIndex, across position: CGFloat) -> Self
}

extension ItemLayout {
    /// `false`: nothing is promised about the order of items along the axis.
    public var placesItemsInIndexOrder: Bool { false }

    /// The layout itself: it does not move items across the axis.
    public func aligning(_ index: ItemIndex, across position: CGFloat) -> Self { self }

    /// The extent of the content along the scroll axis.
    @inlinable public var contentExtent: CGFloat { axis.main(contentSize) }

    /// Whether the layout has no items at all.
    public var isEmpty: Bool {
        for section in 0..<numberOfSections where numberOfItems(inSection: section) > 0 { return false }
        return true
    }

    /// The visible items in `rect` as an array, for tests and tools; per-frame
    /// code should use ``forEachItem(in:_:)``, which allocates nothing.
    public func items(in rect: CGRect) -> [VisibleItem<ItemIndex>] {
        var result: [VisibleItem<ItemIndex>] = []
        forEachItem(in: rect) { result.append(VisibleItem(id: $0, frame: $1)) }
        return result
    }
}
