#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout

/// Decides what the loader gets ready besides the tiles on screen, and how
/// urgently each tile is asked for: the gallery's one road to the loader's
/// plans (through ``ViewportLoading``, which hands them over in order).
///
/// At rest and while scrolling, it plans the viewport's ranges
/// (``LoadingRanges``: the visible tiles, a fling's landing zone, the
/// screens ahead and behind) whenever the viewport reaches other items or
/// what the thumbnails depend on changes. During a pinch it plans, once per
/// pair of column counts shown, the photos at both ends of the pair. The
/// arrival-order baseline plans nothing: tiles load in the order asked.
///
/// Complexity: O(planned items) when a plan is made, O(visible items)
/// otherwise.
@MainActor
package final class LoadingPlanner {
    /// How pictures are scheduled.
    package enum Loading: Sendable, Hashable {
        /// Loading follows the viewport: the visible tiles, the landing
        /// zone of a fling, then the ranges ahead and behind (ParallaxKit).
        case followsViewport(LoadingRanges)
        /// Visible tiles only, served in the order they were asked for:
        /// the baseline the session benchmark measures against.
        case arrivalOrder

        /// ParallaxKit's default ranges.
        package static let standard = Loading.followsViewport(LoadingRanges())
    }

    /// What the planned thumbnails' keys depend on besides the layout's
    /// frames: when any of it changes, the plan is made again.
    package struct Inputs: Equatable {
        package var itemCount: Int
        /// Counts the resting layouts built: a new one (another kind, column
        /// count or shapes) has other frames.
        package var layoutGeneration: Int
        /// Headers that failed let their photos load at the placeholder shape.
        package var unreadableShapes: Int
        package var effect: GalleryEffect
        package var intensity: CGFloat
        package var reduceMotion: Bool
        package var scale: CGFloat
    }

    package let loading: Loading
    /// The viewport's plans (``Loading/followsViewport(_:)`` only).
    private let viewport: ViewportLoading?
    private var plannedInputs: Inputs?
    /// The lower column count of the pinch pair last planned.
    private var plannedPinchPair: Int?

    package init(loader: ImageLoader, loading: Loading) {
        self.loading = loading
        if case .followsViewport(let ranges) = loading {
            viewport = ViewportLoading(loader: loader, ranges: ranges)
        } else {
            viewport = nil
        }
    }

    /// The ranges the last viewport plan was made with (`nil` for the
    /// arrival-order baseline, which plans nothing).
    package var plannedRanges: LoadingRanges? { viewport?.ranges }

    /// The priority to ask for `item`'s picture with.
    package func priority(for item: Int) -> LoadPriority {
        viewport?.priority(for: ItemIndex(item: item)) ?? .visible
    }

    /// Plans the resting `layout`'s ranges around `visibleRect` for the
    /// scroll's `motion`, when anything they depend on changed.
    /// `thumbnail` gives an item's thumbnail at a frame of `layout`.
    ///
    /// While the order is `provisional` (dates still being read, which will
    /// move most photos), it plans half a screen ahead and none behind
    /// instead of the full ranges: photos prefetched further ahead would
    /// mostly be somewhere else by the time they are reached, and their
    /// decodes would take the cores from the reads (a first launch over
    /// 100,000 photos spent more CPU on such prefetches than on the reads).
    package func planViewport(layout: AnyItemLayout, visibleRect: CGRect, motion: ScrollMotion, inputs: Inputs,
                              provisional: Bool = false, thumbnail: (Int, CGRect) -> ThumbnailKey?) {
        guard let viewport, case .followsViewport(let full) = loading else { return }
        plannedPinchPair = nil
        let ranges = provisional ? Self.provisionalRanges(of: full) : full
        if viewport.ranges != ranges { viewport.ranges = ranges }
        if inputs != plannedInputs {
            plannedInputs = inputs
            viewport.invalidate()
        }
        viewport.update(layout: layout, visibleRect: visibleRect, motion: motion) { index, frame in
            thumbnail(index.item, frame)
        }
    }

    /// The ranges planned while the order is provisional: `full`'s, with
    /// at most half a screen ahead and nothing behind.
    static func provisionalRanges(of full: LoadingRanges) -> LoadingRanges {
        LoadingRanges(ahead: min(full.ahead, 0.5), behind: 0, maximumItems: full.maximumItems)
    }

    /// Hands the loader, once per pair of column counts a pinch shows, the
    /// photos of both ends of the pair (the items on screen at either
    /// count), at the size the pinch shows them in (`nearer`: their size
    /// when it began): photos that rows rewrapping bring into view are then
    /// ready before they arrive, instead of blank while they decode. The
    /// viewport is planned again when the pinch rests.
    package func planPinch(_ live: DensityPinch<AnyItemLayout>, nearer: AnyItemLayout?,
                           thumbnail: (Int, CGRect) -> ThumbnailKey?) {
        guard let viewport, plannedPinchPair != live.columns else { return }
        plannedPinchPair = live.columns
        var plan = LoadPlan(), planned = Set<Int>()
        for end: CGFloat in [0, 1] {
            live.forEachItem(at: end) { index, frame in
                guard planned.insert(index.item).inserted else { return }
                let size = nearer?.frame(of: index)?.size ?? frame.size
                if let key = thumbnail(index.item, CGRect(origin: frame.origin, size: size)) { plan.append(key, priority: .visible) }
            }
        }
        viewport.follow(plan)
    }

    /// A pinch began: its first pair of column counts is planned afresh.
    package func pinchBegan() {
        plannedPinchPair = nil
    }

    /// Plans again on the next frame (the pipeline was reset).
    package func invalidate() {
        viewport?.invalidate()
        plannedPinchPair = nil
    }
}
