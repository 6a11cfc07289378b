#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// What a collection-view layout object over an `ItemLayout` decides:
/// when to rebuild, where a scroll comes to rest, and which offset keeps
/// the user's place across size changes and layout switches.
///
/// `ParallaxCollectionViewLayout` (ParallaxUIKit) is a translation of this
/// type into `UICollectionViewLayout`'s overrides; Linux tests drive it
/// with plain values.
///
/// - The layout is built once per container size and item counts, never
///   per scroll: a bounds change invalidates only when the size changes.
/// - Place keeping: before the size changes (rotation, split view) or the
///   collection view switches to this layout, the first visible item is
///   remembered; the next proposed offset is replaced by the one that puts
///   it back (`PlaceKeeping`: RHGridCollectionView's rule, from
///   RolfHendriks' UICollectionView-Demo, clamped).
/// - Snapping: the offset a fling proposes is replaced by the nearest
///   resting position (`ScrollSnapping`).
public struct CollectionLayoutState {
    /// Makes the layout for a container size and the item count of each section.
    public typealias Builder = (_ containerSize: CGSize, _ itemCounts: [Int]) throws(LayoutError) -> any ItemLayout

    /// Whether flings come to rest on a line of items.
    public var isSnappingEnabled: Bool
    /// How a kept place is restored: the item's position on screen, or
    /// aligned to the leading edge.
    public var placeKeeping: PlaceKeeping.Alignment

    /// The current layout; `nil` before the first ``prepare(containerSize:itemCounts:)``
    /// or when the builder failed (see ``error``).
    public private(set) var layout: (any ItemLayout)?
    /// Why the last build failed, if it did. A failed build shows nothing
    /// rather than trapping.
    public private(set) var error: LayoutError?
    /// How many times the layout was built.
    public private(set) var buildCount = 0

    private let builder: Builder
    private var builtFor: (size: CGSize, counts: [Int])?
    private var pendingPlace: PendingPlace?

    /// A place to restore at the next proposed offset.
    private enum PendingPlace {
        /// Remembered before the size changed to `size`: used only for that
        /// size, and forgotten when the user scrolls first (UIKit does not
        /// always propose an offset after a resize).
        case resize(PlaceKeeping.Anchor?, size: CGSize)
        /// Remembered when switching to this layout: UIKit always proposes
        /// an offset to the new layout.
        case layoutSwitch(PlaceKeeping.Anchor?)
    }

    /// A state whose layouts `builder` makes (``grid(_:)``,
    /// ``quilt(_:span:)``, ``waterfall(_:size:)`` or your own). Flings snap
    /// unless `isSnappingEnabled` is `false`; a kept place keeps its position
    /// on screen unless `placeKeeping` says otherwise. Nothing is built until
    /// ``prepare(containerSize:itemCounts:)``.
    public init(isSnappingEnabled: Bool = true, placeKeeping: PlaceKeeping.Alignment = .preservesPosition,
                builder: @escaping Builder) {
        self.isSnappingEnabled = isSnappingEnabled
        self.placeKeeping = placeKeeping
        self.builder = builder
    }

    /// Builds the layout for `containerSize` and `itemCounts` unless it was
    /// already built for exactly those. Returns whether it built.
    ///
    /// Complexity: O(1) when nothing changed; the builder's cost otherwise.
    @discardableResult
    public mutating func prepare(containerSize: CGSize, itemCounts: [Int]) -> Bool {
        if let builtFor, builtFor.size == containerSize, builtFor.counts == itemCounts { return false }
        builtFor = (containerSize, itemCounts)
        buildCount += 1
        do throws(LayoutError) {
            layout = try builder(containerSize, itemCounts)
            error = nil
        } catch {
            layout = nil
            self.error = error
        }
        return true
    }

    /// Forgets the built layout, so the next prepare builds again even for
    /// the same size and counts (the items' sizes or spans changed).
    public mutating func invalidateContents() {
        builtFor = nil
    }

    /// The content size; zero without a layout.
    public var contentSize: CGSize { layout?.contentSize ?? .zero }

    /// Whether a change of the scroll view's bounds from `viewport` to
    /// `newBounds` needs a new layout: only a change of size does (a scroll
    /// moves the bounds' origin and must never rebuild). When it does, the
    /// first visible item is remembered so the next proposed offset keeps
    /// it. A scroll by the user (`isUserScrolling`: dragging or
    /// decelerating) forgets a place remembered at a resize that was never
    /// proposed an offset; UIKit's own offset changes around a rotation
    /// (insets, clamping) do not.
    public mutating func shouldInvalidateLayout(
        forBoundsChangeFrom viewport: ScrollViewport, to newBounds: CGRect, isUserScrolling: Bool
    ) -> Bool {
        guard newBounds.size != viewport.size else {
            if case .resize = pendingPlace, isUserScrolling { pendingPlace = nil }
            return false
        }
        if let layout {
            pendingPlace = .resize(PlaceKeeping.anchor(in: layout, viewport: viewport), size: newBounds.size)
        }
        return true
    }

    /// The first visible item of the current layout seen through `viewport`.
    public func anchor(in viewport: ScrollViewport) -> PlaceKeeping.Anchor? {
        layout.flatMap { PlaceKeeping.anchor(in: $0, viewport: viewport) }
    }

    /// Remembers `anchor` (found in the layout being switched away from) so
    /// that the next proposed offset keeps that item in place.
    public mutating func keepPlace(of anchor: PlaceKeeping.Anchor?) {
        pendingPlace = .layoutSwitch(anchor)
    }

    /// Forgets a remembered place that was not used (a layout transition
    /// ended without proposing an offset), so a later proposal (a reload,
    /// a batch update) never jumps back to it.
    public mutating func forgetPendingPlace() {
        pendingPlace = nil
    }

    /// The offset to use instead of `proposed` after a size change or a
    /// layout switch: the remembered item put back in place, seen through
    /// `viewport` (the new size and insets). Without a remembered item,
    /// `proposed` clamped to the content. The remembered item is used once,
    /// and one remembered before a resize only for the size it was
    /// remembered for.
    public mutating func targetContentOffset(forProposed proposed: CGPoint, in viewport: ScrollViewport) -> CGPoint {
        guard let layout else { return proposed }
        var seen = viewport
        seen.contentOffset = proposed
        let pending = pendingPlace
        pendingPlace = nil
        let anchor: PlaceKeeping.Anchor?
        switch pending {
        case .resize(let remembered, let size) where size == viewport.size: anchor = remembered
        case .layoutSwitch(let remembered): anchor = remembered
        default: anchor = nil
        }
        return PlaceKeeping.contentOffset(restoring: anchor, in: layout, viewport: seen, alignment: placeKeeping)
    }

    /// Where a fling aimed at `proposed` with `velocity` comes to rest.
    public func targetContentOffset(forProposed proposed: CGPoint, velocity: CGPoint,
                                    in viewport: ScrollViewport) -> CGPoint {
        guard isSnappingEnabled, let layout else { return proposed }
        return ScrollSnapping.restingOffset(proposed: proposed, velocity: velocity, in: layout, viewport: viewport)
    }
}

// MARK: - Builders

extension CollectionLayoutState {
    /// A grid or list (`GridLayout`): RolfHendriks' UICollectionView-Demo's photo grid by default.
    public static func grid(_ configuration: GridConfiguration = .grid) -> Builder {
        { size, counts throws(LayoutError) in
            try GridLayout(configuration: configuration, itemCounts: counts, containerSize: size)
        }
    }

    /// A quilt (`QuiltLayout`, RFQuiltLayout's packing) whose items cover `span(index)` blocks.
    public static func quilt(_ configuration: QuiltConfiguration = QuiltConfiguration(),
                             span: @escaping (ItemIndex) -> QuiltSpan) -> Builder {
        { size, counts throws(LayoutError) in
            try QuiltLayout(configuration: configuration, sections: perItem(counts, span), containerSize: size)
        }
    }

    /// A waterfall (`WaterfallLayout`) of items with the aspect ratios of
    /// `size(index)`, each clamped into `ItemAspectRatio.range` (1 : 64 to
    /// 64 : 1) by the layout, so a photo header's extreme claim stays a
    /// bounded tile.
    public static func waterfall(_ configuration: WaterfallConfiguration = WaterfallConfiguration(),
                                 size: @escaping (ItemIndex) -> CGSize) -> Builder {
        { containerSize, counts throws(LayoutError) in
            try WaterfallLayout(configuration: configuration, sections: perItem(counts, size), containerSize: containerSize)
        }
    }

    /// `value(index)` for every item of sections holding `counts` items.
    private static func perItem<Value>(_ counts: [Int], _ value: (ItemIndex) -> Value) -> [[Value]] {
        counts.enumerated().map { section, count in
            (0..<max(count, 0)).map { value(ItemIndex(item: $0, section: section)) }
        }
    }
}
