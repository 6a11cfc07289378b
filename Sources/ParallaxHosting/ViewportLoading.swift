#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxImages
import ParallaxLayout

/// Keeps an `ImageLoader` following a scrolling viewport: the one piece
/// of loading policy every surface shares (the Linux gallery, the UIKit
/// collection-view layout, anything else with an `ItemLayout`).
///
/// Call ``update(layout:visibleRect:motion:thumbnail:)`` every frame (or
/// whenever the viewport moves). When the viewport has reached other items,
/// or the motion's resting place or direction changed, it plans the
/// ``LoadingRanges`` and hands the plan to `ImageLoader.follow(_:)`;
/// otherwise it does nothing. Views then request their visible items at
/// ``priority(for:)``, so a tile a fling only passes never competes with
/// the tiles the user will see.
///
/// It is the one road from a surface's viewport to the loader's plans:
/// plans reach `ImageLoader.follow(_:)` one at a time, in the order they
/// were made, and a plan made while the loader still takes the last one
/// replaces any that waited (only the newest matters). A plan made
/// elsewhere (a pinch's, which knows the column counts it passes through)
/// goes the same road through ``follow(_:)``.
///
/// Owned by the main actor, like the scroll view it follows. Replanning
/// costs O(planned items) (600 at most by default) and allocates nothing
/// once its buffers are large enough; a frame that replans nothing costs
/// O(visible items) to find the items on screen.
@MainActor
public final class ViewportLoading {
    /// The pipeline the plans go to.
    public let loader: ImageLoader
    /// The ranges' sizes; changing them plans again on the next update.
    public var ranges: LoadingRanges {
        didSet { invalidate() }
    }

    private var plannedItems: [LoadingRanges.PlannedItem] = []
    private var priorities: [ItemIndex: LoadPriority] = [:]
    private var signature: Signature?
    private var lastOffset: CGFloat?
    private var direction: CGFloat = 1
    /// Plans handed to the loader (for tests and a HUD).
    public private(set) var planCount = 0
    /// Plans on their way to the loader: the newest waits while the loader
    /// takes the one before, so plans never overtake each other.
    private let plans: AsyncStream<LoadPlan>.Continuation

    /// Loading for `loader`, with `ranges` (two screens ahead and half a
    /// screen behind by default).
    public init(loader: ImageLoader, ranges: LoadingRanges = LoadingRanges()) {
        self.loader = loader
        self.ranges = ranges
        // `AsyncStream.makeStream` is newer than the oldest SDK supported: the continuation is taken from
        // the build closure, which runs before the initializer returns.
        var continuation: AsyncStream<LoadPlan>.Continuation?
        let stream = AsyncStream(LoadPlan.self, bufferingPolicy: .bufferingNewest(1)) { continuation = $0 }
        self.plans = continuation!
        // Ends when this object goes (its deinit finishes the stream).
        Task.detached(priority: .userInitiated) { [loader] in          // as urgent as the scroll it follows
            for await plan in stream { await loader.follow(plan) }
        }
    }

    deinit {
        plans.finish()
    }

    /// Follows the viewport showing `visibleRect` of `layout` while the
    /// scroll follows `motion` (`ScrollMotion.resting(at:)` when a finger
    /// holds it or it is still).
    ///
    /// - Parameters:
    ///   - layout: the layout on screen.
    ///   - visibleRect: the part of `layout` on screen, in its coordinates.
    ///   - motion: where the scroll is going along the layout's axis.
    ///   - thumbnail: the thumbnail the item at an index shows at a frame of
    ///     `layout` (the size it is drawn at, parallax overscan included),
    ///     or `nil` for an item without one. Called only when a new plan is
    ///     made.
    /// - Returns: the plan handed to the loader, or `nil` if the last one
    ///   still holds.
    @discardableResult
    public func update(layout: some ItemLayout, visibleRect: CGRect, motion: ScrollMotion,
                       thumbnail: (ItemIndex, CGRect) -> ThumbnailKey?) -> LoadPlan? {
        direction = self.direction(at: layout.axis.main(visibleRect.origin))
        let offset = layout.axis.main(visibleRect.origin)
        if offset.isFinite { lastOffset = offset }
        let next = signature(of: layout, visibleRect: visibleRect, motion: motion)
        guard next != signature else { return nil }
        signature = next
        let loadTime = loader.typicalLoadTime.map { CGFloat(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
        ranges.plan(in: layout, visibleRect: visibleRect, motion: motion, direction: direction,
                    expectedLoadTime: loadTime, into: &plannedItems)
        priorities.removeAll(keepingCapacity: true)
        var plan = LoadPlan()
        plan.entries.reserveCapacity(plannedItems.count)
        for planned in plannedItems {
            priorities[planned.index] = planned.priority
            guard let frame = layout.frame(of: planned.index), let key = thumbnail(planned.index, frame) else { continue }
            plan.append(key, priority: planned.priority)
        }
        // On screen but carried off before a load could finish: planned outside, so work already under way
        // for them (a request made a frame earlier) steps aside for the tiles that will be seen.
        layout.forEachItem(in: visibleRect) { index, frame in
            guard priorities[index] == nil else { return }
            priorities[index] = .outside
            if let key = thumbnail(index, frame) { plan.append(key, priority: .outside) }
        }
        planCount += 1
        plans.yield(plan)
        return plan
    }

    /// Whether ``update(layout:visibleRect:motion:thumbnail:)`` would plan
    /// now: the viewport reached other items, or the motion's resting
    /// place or direction changed. Changes nothing. A surface that reads
    /// its items from another layout (an ``ItemSnapshotLayout``) asks this
    /// with the viewport's items alone, and reads the whole
    /// ``LookAheadRegion`` only when it says yes.
    ///
    /// Complexity: O(items of `layout` in `visibleRect`).
    public func needsPlan(layout: some ItemLayout, visibleRect: CGRect, motion: ScrollMotion) -> Bool {
        signature(of: layout, visibleRect: visibleRect, motion: motion) != signature
    }

    /// The direction of travel for a viewport at `offset`: the way it moved
    /// since the last update, or the last direction if it did not move.
    public func direction(at offset: CGFloat) -> CGFloat {
        guard let lastOffset, offset.isFinite, offset != lastOffset else { return direction }
        return offset > lastOffset ? 1 : -1
    }

    private func signature(of layout: some ItemLayout, visibleRect: CGRect, motion: ScrollMotion) -> Signature {
        var first: ItemIndex?, last: ItemIndex?
        layout.forEachItem(in: visibleRect) { index, _ in
            if first == nil || index < first! { first = index }
            if last == nil || index > last! { last = index }
        }
        // Where a fling lands matters to the nearest 8 points; a drag or a still scroll lands nowhere.
        return Signature(first: first, last: last,
                         restingOffset: motion.isMoving ? (motion.restingOffset / 8).rounded() : 0,
                         isMoving: motion.isMoving,
                         direction: motion.isMoving ? motion.direction : direction(at: layout.axis.main(visibleRect.origin)),
                         contentSize: layout.contentSize, visibleSize: visibleRect.size)
    }

    /// Hands the loader `plan`, made elsewhere, in place of the viewport's:
    /// a pinch's photos at both ends of the column counts it shows, say.
    /// Items are then requested as `LoadPriority.visible` until the next
    /// plan, and the next ``update(layout:visibleRect:motion:thumbnail:)``
    /// plans the viewport again.
    public func follow(_ plan: LoadPlan) {
        priorities.removeAll(keepingCapacity: true)
        signature = nil
        planCount += 1
        plans.yield(plan)
    }

    /// The priority to request the thumbnail of the item at `index` with:
    /// its planned one, `LoadPriority.outside` for a visible tile the
    /// current fling carries off too fast, `LoadPriority.visible` for an
    /// item not planned yet.
    ///
    /// Complexity: O(1).
    public func priority(for index: ItemIndex) -> LoadPriority {
        priorities[index] ?? .visible
    }

    /// Forgets the current plan, so the next update plans again: call it
    /// when the items' thumbnails change without the layout changing (an
    /// effect or intensity that changes the drawn size, new content).
    public func invalidate() {
        signature = nil
    }

    /// What a plan depends on: while it is unchanged, the last plan holds.
    private struct Signature: Equatable {
        var first: ItemIndex?
        var last: ItemIndex?
        var restingOffset: CGFloat
        var isMoving: Bool
        var direction: CGFloat
        var contentSize: CGSize
        var visibleSize: CGSize
    }
}
