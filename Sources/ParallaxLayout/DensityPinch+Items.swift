#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

// The items a pinch shows: where each end's band lies for a frame, and the
// walk over them (DensityPinchWalk), which reads the bands and reports each
// visible item once.

extension DensityPinch {
    /// Calls `body` once for every item visible through the viewport at the
    /// current progress (or at `progress`), with its frame in content
    /// coordinates at that progress and the viewport's content offset
    /// (``contentOffset(at:)``): first the items of the source layout, then
    /// the destination's others.
    ///
    /// Every frame moves linearly with progress, and so does the offset, so
    /// an item visible at some progress lies, along the axis, within the
    /// viewport of one end: one whose frame is before the viewport at both
    /// ends stays before it in between. (A grid keeps index order along the
    /// axis and the anchor is in view at both ends, so an item cannot jump
    /// from before the viewport to after it; a quilt fills holes with later
    /// items, so an item can cross the whole viewport between the ends, and
    /// the source's band is widened by the tallest item to catch most of
    /// those as they enter and leave.) Across the axis the whole width is
    /// read, since rows rewrap. A quilt item in view at neither end and
    /// farther than that from the source's view, one that fills a hole far
    /// from where it was, is left out while it crosses (about one visible
    /// item in two hundred over random quilts): drawn, it would only streak
    /// across the screen.
    /// Past the densest count the rubber band's zoom shows a little more
    /// than a viewport, and the bands grow to match.
    ///
    /// `body` may walk the same pinch (or a copy) again: walks share nothing.
    ///
    /// - Complexity: O(items visible in either layout), nothing allocated.
    @inlinable
    public func forEachItem(at progress: CGFloat? = nil, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        try forEachItem(at: progress, shownAt: nil, body)
    }

    /// ``forEachItem(at:_:)`` for a viewport shown at `offset` instead of
    /// ``contentOffset(at:)``: a settle's offset, moved into the content's
    /// bounds (``contentOffset(settling:at:)``).
    @inlinable
    public func forEachItem(at progress: CGFloat?, shownAt shown: CGPoint?,
                            _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        try walk(at: progress, shownAt: shown).forEachItem(in: pair, body)
    }

    /// The walk over the items shown at `progress` (`nil`: the current
    /// progress) through a viewport at `shown` (`nil`: the focus
    /// invariant's offset): the viewport, and the band of each end whose
    /// items can be visible in it (see ``forEachItem(at:_:)``).
    ///
    /// Each band spans the viewport's extent along the axis at its end's
    /// offset, moved by the same shift as the shown viewport, and the whole
    /// content across it (rows rewrap, so items slide into view from either
    /// side). The source's band is widened by the tallest item when the
    /// layouts are out of index order; both by what the rubber band's zoom
    /// shows beyond the viewport. O(1).
    @inlinable
    func walk(at progress: CGFloat?, shownAt shown: CGPoint?) -> DensityPinchWalk {
        let interpolation = interpolation(at: progress)
        let axis = self.axis, viewportSize = self.viewportSize, zoom = interpolation.zoom
        let invariant = contentOffset(at: interpolation.fraction)
        let offset = shown ?? invariant
        // The same shift at both ends: the bands move with it.
        let shift = axis.main(offset) - axis.main(invariant)
        let order = pair.placesItemsInIndexOrder ? 0
            : tallestRatio * max(axis.main(pair.sourceAnchor.size), axis.main(pair.destinationAnchor.size))
        let zoomSlack = zoom < 1 ? (1 / zoom - 1) * axis.main(viewportSize) : 0
        let crossShift = abs(axis.cross(offset)) + axis.cross(viewportSize) / zoom
        func band(crossing contentSize: CGSize, from offset: CGPoint, slack: CGFloat) -> CGRect {
            let start = axis.main(offset) + shift - slack
            let cross = max(axis.cross(contentSize), axis.cross(viewportSize))
            return axis.rect(main: Span(start, axis.main(viewportSize) + 2 * slack),
                             cross: Span(-crossShift, cross + 2 * crossShift))
        }
        // An item that crosses the viewport between the ends lies outside both ends' views; one that
        // crosses near them lies in either end's widened band, so widening the source's alone catches it.
        return DensityPinchWalk(
            interpolation: interpolation, viewport: CGRect(origin: offset, size: viewportSize),
            sourceBand: band(crossing: pair.source.contentSize, from: contentOffset(at: 0), slack: order + zoomSlack),
            destinationBand: band(crossing: pair.destination.contentSize, from: contentOffset(at: 1), slack: zoomSlack))
    }
}
