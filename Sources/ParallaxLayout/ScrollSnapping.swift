#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Snapping at the end of a drag: the scroll comes to rest with a line of
/// items at the leading edge, instead of wherever the fling happened to end.
///
/// Rules from RHGridCollectionView (RolfHendriks' UICollectionView-Demo), generalised to any
/// ``ItemLayout``: no snapping for a release at zero velocity (the user
/// placed the content on purpose) or when the fling ends at either end of
/// the content (the bounce there is kept); otherwise the nearest resting
/// position, clamped to the content's bounds. With sections and headers
/// the first line of a section rests with its header showing.
///
/// **Where this differs from RHGridCollectionView.** RH rounds the leading
/// edge to the nearest row *top* (`round((o + inset − margin) / pitch)`),
/// then rests the row one spacing below the edge. Here the edge goes to the
/// nearest *resting position* itself, so the decision boundary sits one
/// spacing earlier (8 pt in RH's grid), and a fling ending inside that band
/// rests one row pitch away from where RH would put it (191 pt in the grid,
/// 203 pt in the list). The nearest resting position is the shortest travel
/// from where the fling would stop, and it is defined for any layout (a
/// quilt's or waterfall's lines, sections with headers), where RH's
/// rounding assumes one uniform row pitch.
///
/// Complexity: O(log sections).
public enum ScrollSnapping {
    /// Where a scroll aimed at `proposed` with `velocity` should come to
    /// rest in `layout`, seen through `viewport` (its size and insets).
    public static func restingOffset(
        proposed: CGPoint, velocity: CGPoint, in layout: some ItemLayout, viewport: ScrollViewport
    ) -> CGPoint {
        let axis = layout.axis
        let speed = axis.main(velocity)
        let target = axis.main(proposed)
        let range = viewport.offsetRange(contentExtent: layout.contentExtent, along: axis)
        guard speed != 0, speed.isFinite, target.isFinite,
              target > range.lowerBound, target < range.upperBound else { return proposed }
        var aimed = viewport
        aimed.contentOffset = proposed
        let mirrored = layout.isMainAxisMirrored
        guard let rest = layout.restingPosition(nearest: aimed.leadingEdge(along: axis, mirrored: mirrored)) else {
            return proposed
        }
        let main = viewport.contentOffset(placingLeadingEdgeAt: rest, along: axis, mirrored: mirrored)
        return axis.point(main: range.clamp(main), cross: axis.cross(proposed))
    }
}
