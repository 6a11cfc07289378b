#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The parts of the content a loading plan can name, for a layout that
/// can only be asked which items lie in a rectangle (UIKit's
/// `layoutAttributesForElements(in:)` of a flow or compositional layout, a
/// table's rows): the adapter reads those rectangles into an
/// ``ItemSnapshotLayout`` and plans over it, so any layout gets the
/// landing zone and the ahead and behind ranges of ParallaxKit's own.
///
/// The near part runs from ``LoadingRanges/behind`` screens behind the
/// viewport to one screen past it; the far part is the landing zone and
/// ``LoadingRanges/ahead`` screens past it (for a scroll at rest, the
/// landing zone is the viewport, and the two join). When the fling goes
/// further than ``passingScreens`` screens beyond the near part, the
/// tiles it only passes in between are left out (they are the first a
/// plan drops, and loading them would mostly be wasted); otherwise the
/// two parts are one rectangle.
///
/// Complexity: O(1).
public struct LookAheadRegion: Sendable, Hashable {
    /// The rectangles, in content coordinates (one or two, never empty
    /// for a visible rectangle with an area).
    public private(set) var rects: [CGRect] = []

    /// Screens between the near part and the landing zone that are still
    /// read, so a short fling's passing tiles are planned.
    public static let passingScreens: CGFloat = 4

    /// Hashes the rectangles (CoreGraphics' geometry is only Equatable in Apple SDKs before iOS 18).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rects.count)
        for rect in rects { hasher.combine(rect: rect) }
    }

    /// The region for a viewport showing `visibleRect` of content `contentSize`
    /// (both along `axis`) while the scroll follows `motion`, planned with
    /// `ranges`; `direction` is the last direction of travel (+1 forward,
    /// −1 backward) for a scroll at rest.
    public init(visibleRect: CGRect, contentSize: CGSize, axis: ScrollAxis, motion: ScrollMotion,
                direction: CGFloat = 1, ranges: LoadingRanges) {
        let visible = axis.mainSpan(of: visibleRect)
        let cross = axis.crossSpan(of: visibleRect)
        guard visible.isFinite, cross.isFinite, visible.length > 0, cross.length > 0 else { return }
        let extent = visible.length
        let forward = motion.isMoving ? motion.direction > 0 : !(direction < 0)
        let travel = motion.isMoving ? motion.restingOffset - motion.offset : 0
        let landing = Span(visible.lowerBound + (travel.isFinite ? travel : 0), extent)
        let behind = extent * ranges.behind, ahead = extent * ranges.ahead
        // Near: behind the viewport to one screen past it; far: the landing zone and `ahead` past it.
        var near = forward ? (visible.lowerBound - behind, visible.upperBound + extent)
            : (visible.lowerBound - extent, visible.upperBound + behind)
        var far = forward ? (landing.lowerBound, landing.upperBound + ahead)
            : (landing.lowerBound - ahead, landing.upperBound)
        // Clamp to the content (with a screen of slack for insets and bounces).
        let contentEnd = axis.main(contentSize) + extent
        func clamp(_ span: (CGFloat, CGFloat)) -> (CGFloat, CGFloat) {
            (max(span.0, -extent), min(span.1, max(contentEnd, -extent)))
        }
        near = clamp(near)
        far = clamp(far)
        let gap = forward ? far.0 - near.1 : near.0 - far.1
        let spans = gap <= extent * Self.passingScreens ? [(min(near.0, far.0), max(near.1, far.1))] : [near, far]
        rects = spans.compactMap { span in
            span.1 > span.0 ? axis.rect(main: Span(span.0, span.1 - span.0), cross: cross) : nil
        }
    }
}
