#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Keeps the user's place when a layout changes: a rotation, a window
/// resize, or a switch between grid and list.
///
/// The rule comes from RHGridCollectionView (RolfHendriks' UICollectionView-Demo): before the change,
/// remember the *first visible item*, the lowest index whose centre is at
/// or past the visible leading edge (past the top inset); after it, scroll
/// so that item is where it was. RH forgets to clamp the new offset to the
/// content's bounds, which leaves the view scrolled past its end after a
/// rotation near the bottom; ParallaxKit clamps.
///
/// Complexity: O(visible items) to take an anchor, O(1) to restore it.
public enum PlaceKeeping {
    /// Where the remembered item should go in the new layout.
    public enum Alignment: Sendable, Hashable {
        /// The item's leading edge keeps its distance from the visible
        /// leading edge (the default): the photo stays where it was.
        case preservesPosition
        /// The item's line goes to the leading edge with the gap before it,
        /// as RHGridCollectionView does: `o = item.y − (first line ? margin : spacing) − inset`.
        case alignsToLeadingEdge
    }

    /// The remembered item and where it was.
    public struct Anchor: Sendable, Hashable {
        /// The item to keep in place.
        public var index: ItemIndex
        /// How far its leading edge was past the visible leading edge
        /// (negative: partly scrolled off).
        public var distance: CGFloat

        /// The item at `index`, whose leading edge was `distance` points past
        /// the visible leading edge (negative: partly scrolled off).
        public init(index: ItemIndex, distance: CGFloat) {
            self.index = index
            self.distance = distance
        }
    }

    /// The first visible item of `layout` seen through `viewport`, or `nil`
    /// when no item's centre is on screen (an empty layout, or a viewport
    /// showing only margins or headers).
    ///
    /// Complexity: O(visible items).
    public static func anchor(in layout: some ItemLayout, viewport: ScrollViewport) -> Anchor? {
        var best = AnchorSearch(axis: layout.axis, isMainAxisMirrored: layout.isMainAxisMirrored, viewport: viewport)
        layout.forEachItem(in: viewport.visibleRect) { index, frame in best.consider(index, frame) }
        return best.anchor
    }

    /// The first visible item among `items` (index and frame, in any order),
    /// seen through `viewport`: the same rule as ``anchor(in:viewport:)``
    /// for items laid out by something else, such as another
    /// `UICollectionViewLayout` being switched away from.
    ///
    /// Complexity: O(items).
    public static func anchor(
        among items: some Sequence<VisibleItem<ItemIndex>>, axis: ScrollAxis, isMainAxisMirrored: Bool = false,
        viewport: ScrollViewport
    ) -> Anchor? {
        var best = AnchorSearch(axis: axis, isMainAxisMirrored: isMainAxisMirrored, viewport: viewport)
        for item in items { best.consider(item.id, item.frame) }
        return best.anchor
    }

    /// RH's rule: the lowest index whose centre is past the leading edge.
    private struct AnchorSearch {
        let axis: ScrollAxis
        let mirrored: Bool
        let edge: CGFloat
        var anchor: Anchor?

        init(axis: ScrollAxis, isMainAxisMirrored: Bool, viewport: ScrollViewport) {
            self.axis = axis
            self.mirrored = isMainAxisMirrored
            self.edge = viewport.leadingEdge(along: axis, mirrored: isMainAxisMirrored)
        }

        mutating func consider(_ index: ItemIndex, _ frame: CGRect) {
            let span = axis.mainSpan(of: frame)
            let centrePastEdge = mirrored ? edge - span.mid : span.mid - edge
            guard centrePastEdge >= 0, anchor.map({ index < $0.index }) ?? true else { return }
            let distance = mirrored ? edge - span.upperBound : span.lowerBound - edge
            anchor = Anchor(index: index, distance: distance)
        }
    }

    /// The content offset that puts `anchor`'s item back in place in
    /// `layout`, seen through `viewport` (the new size and insets; its
    /// content offset is kept when the item no longer exists), clamped to
    /// the content's bounds.
    public static func contentOffset(
        restoring anchor: Anchor?, in layout: some ItemLayout, viewport: ScrollViewport,
        alignment: Alignment = .preservesPosition
    ) -> CGPoint {
        let axis = layout.axis
        let mirrored = layout.isMainAxisMirrored
        let range = viewport.offsetRange(contentExtent: layout.contentExtent, along: axis)
        var main = axis.main(viewport.contentOffset)
        if let anchor, let frame = layout.frame(of: anchor.index) {
            switch alignment {
            case .preservesPosition:
                let span = axis.mainSpan(of: frame)
                let edge = mirrored ? span.upperBound + anchor.distance : span.lowerBound - anchor.distance
                main = viewport.contentOffset(placingLeadingEdgeAt: edge, along: axis, mirrored: mirrored)
            case .alignsToLeadingEdge:
                if let rest = layout.restingPosition(showing: anchor.index) {
                    main = viewport.contentOffset(placingLeadingEdgeAt: rest, along: axis, mirrored: mirrored)
                }
            }
        }
        return axis.point(main: range.clamp(main), cross: axis.cross(viewport.contentOffset))
    }

    /// One step: the offset in `newLayout` (seen through `newViewport`)
    /// that keeps the place the user had in `oldLayout` at `oldViewport`.
    public static func contentOffset(
        from oldLayout: some ItemLayout, at oldViewport: ScrollViewport,
        to newLayout: some ItemLayout, in newViewport: ScrollViewport,
        alignment: Alignment = .preservesPosition
    ) -> CGPoint {
        contentOffset(restoring: anchor(in: oldLayout, viewport: oldViewport),
                      in: newLayout, viewport: newViewport, alignment: alignment)
    }
}
