#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxImages
import ParallaxLayout

/// Keeps a ``ViewportLoading`` plan following a scroll view that reports
/// its offset every frame but should plan only now and then: a declarative
/// grid (SwiftUI's `DensityPinchGrid`), which hears of its offset once a
/// scrolled frame and of a fling only when the finger lets go.
///
/// Call ``scrolled(to:of:loading:thumbnail:)`` with every reported offset.
/// It plans, through the same ``ViewportLoading`` as UIKit's
/// `ParallaxController`, only when
/// - the viewport enters another ``ScrollBand`` (a quarter screen by
///   default, the band the grid builds its cells for),
/// - a fling was released (``released(at:towards:)``: the landing zone is
///   planned before the tiles it passes) or it ended (it reached its
///   resting place, or the scroll turned back: a finger caught it),
/// - the layout's size or the viewport's size changed, or
///   ``invalidate()`` was called (other photos, another column count).
/// Any other frame costs O(1) and calls nothing. Planning itself costs
/// what ``ViewportLoading/update(layout:visibleRect:motion:thumbnail:)``
/// does: O(planned items).
///
/// Nothing is kept that could keep an app's objects alive: the loading
/// object and the naming closure are arguments of each call, never
/// stored, so no closure of the app's can form a retain cycle through it.
///
/// Owned by the main actor, like the view it follows.
@MainActor
public final class ScrollBandLoading {
    /// The fling under way, as last released; `nil` at rest or while a
    /// finger drags.
    public private(set) var fling: FlingPrediction?
    /// How a released fling slows down (UIKit's and SwiftUI's scroll views
    /// decelerate at `DecelerationRate.normal`).
    public var decelerationRate: DecelerationRate
    /// Plans this made (for tests and a HUD).
    public private(set) var planCount = 0

    private var lastOffset: CGFloat?
    private var planned: Gate?

    /// Loading that will follow a scroll view decelerating at `decelerationRate`.
    public init(decelerationRate: DecelerationRate = .normal) {
        self.decelerationRate = decelerationRate
    }

    /// The finger let go at `offset` (along the axis) and the scroll view
    /// will come to rest at `restingOffset`; `nil` (or the same offset) for
    /// a release that does not fling. The next ``scrolled(to:of:loading:thumbnail:)``
    /// plans the landing zone.
    ///
    /// Complexity: O(1).
    public func released(at offset: CGFloat, towards restingOffset: CGFloat?) {
        fling = restingOffset.flatMap { FlingPrediction(offset: offset, restingOffset: $0, rate: decelerationRate) }
        lastOffset = offset.isFinite ? offset : nil
    }

    /// Forgets the last plan (and any fling), so the next
    /// ``scrolled(to:of:loading:thumbnail:)`` plans again: call it when the
    /// photos change without the layout's size changing, or when a pinch
    /// hands a plan of its own to the loading.
    public func invalidate() {
        planned = nil
        fling = nil
    }

    /// The scroll view shows `visibleRect` of `layout` (its content
    /// coordinates): plans the loading ranges when the band, the fling or
    /// the sizes changed since the last plan, and otherwise does nothing.
    ///
    /// - Parameters:
    ///   - visibleRect: the scroll view's visible rectangle, in `layout`'s
    ///     coordinates.
    ///   - layout: the layout the cells are placed by.
    ///   - loading: where the plan goes (and what the cells read their
    ///     priorities from).
    ///   - thumbnail: the thumbnail of the item at an index shown at a
    ///     frame, or `nil` for none; called only when a plan is made.
    /// - Returns: the plan handed to the loader, or `nil` if none was made.
    ///
    /// Complexity: O(1) without a plan; O(planned items) with one.
    @discardableResult
    public func scrolled(to visibleRect: CGRect, of layout: some ItemLayout, loading: ViewportLoading,
                         thumbnail: (ItemIndex, CGRect) -> ThumbnailKey?) -> LoadPlan? {
        let axis = layout.axis
        let offset = axis.main(visibleRect.origin)
        guard offset.isFinite else { return nil }
        if let fling, hasEnded(fling, at: offset) { self.fling = nil }
        lastOffset = offset
        let gate = Gate(band: ScrollBand(visible: visibleRect, axis: axis, contentExtent: axis.main(layout.contentSize)),
                        landing: fling?.restingOffset, contentSize: layout.contentSize, visibleSize: visibleRect.size,
                        loading: ObjectIdentifier(loading))
        guard gate != planned else { return nil }
        planned = gate
        let motion = fling?.motion(at: offset, isDecelerating: true) ?? .resting(at: offset)
        let plan = loading.update(layout: layout, visibleRect: visibleRect, motion: motion, thumbnail: thumbnail)
        if plan != nil { planCount += 1 }
        return plan
    }

    /// Whether `fling` is over at `offset`: it got there (to the nearest
    /// half point), went past, or the scroll turned back against it since
    /// the last report (a finger caught it and drags).
    private func hasEnded(_ fling: FlingPrediction, at offset: CGFloat) -> Bool {
        let heading = fling.restingOffset - fling.releaseOffset
        let left = fling.restingOffset - offset
        if abs(left) <= 0.5 || left * heading < 0 { return true }
        if let lastOffset, (offset - lastOffset) * heading < 0 { return true }
        return false
    }

    /// What the last plan was made for: while it holds, no plan is made.
    private struct Gate: Equatable {
        var band: ScrollBand
        var landing: CGFloat?
        var contentSize: CGSize
        var visibleSize: CGSize
        var loading: ObjectIdentifier
    }
}
