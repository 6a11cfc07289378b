#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// An item on screen: an identifier and its frame in the scroll view's
/// content coordinates.
@frozen
public struct VisibleItem<ID> {
    /// What identifies the item: an `ItemIndex` for ParallaxKit's layouts,
    /// or a cell, a view, any value the caller chooses.
    public var id: ID
    /// The item's frame, in the scroll view's content coordinates (the
    /// coordinates the viewport is given in).
    public var frame: CGRect

    /// The item `id`, whose frame is `frame`.
    @inlinable public init(id: ID, frame: CGRect) {
        self.id = id
        self.frame = frame
    }
}

extension VisibleItem: Sendable where ID: Sendable {}
extension VisibleItem: Equatable where ID: Equatable {}
extension VisibleItem: Hashable where ID: Hashable {
    /// Hashes the identifier and the frame, the values `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(rect: frame)
    }
}

/// Applies a ``ParallaxEffect`` to the items on screen, once per frame.
///
/// Kurutepe's lesson: parallax must never invalidate the layout.
/// The scroller therefore reads frames only. Given the viewport and the
/// visible items, it returns each opted-in item's ``ParallaxPlacement``;
/// the layout is never asked to do anything.
///
/// The scroller also carries the settings every surface needs and no earlier
/// library had: both axes, right-to-left, an intensity multiplier and a
/// Reduce Motion switch.
///
/// Complexity: O(visible items) per frame, no allocation.
public struct ParallaxScroller: Sendable, Hashable {
    /// The effect applied to every opted-in item.
    public var effect: ParallaxEffect
    /// The axis the content scrolls along.
    public var axis: ScrollAxis
    /// The reading direction; for horizontal scrolling in right-to-left
    /// layouts, anchors are measured from the right.
    public var layoutDirection: LayoutDirection
    /// Multiplies every displacement: 1 as designed, 0 none, 2 twice as deep.
    /// Negative or non-finite values mean no displacement.
    public var intensity: CGFloat
    /// When `true` every displacement is zero (content keeps its size, so no
    /// image needs decoding again). Surfaces wire this to the system setting.
    public var isReduceMotionEnabled: Bool

    /// A scroller applying `effect` along `axis`. The defaults are depth
    /// parallax of 30 pt (``ParallaxEffect/default``, Ole Begemann's and
    /// Kurutepe's setting), vertical scrolling, left to right, full intensity
    /// and motion on; a surface sets ``layoutDirection`` and
    /// ``isReduceMotionEnabled`` from the system. No value is rejected (see
    /// ``intensity`` for what a negative or non-finite one does).
    public init(
        effect: ParallaxEffect = .default,
        axis: ScrollAxis = .vertical,
        layoutDirection: LayoutDirection = .leftToRight,
        intensity: CGFloat = 1,
        isReduceMotionEnabled: Bool = false
    ) {
        self.effect = effect
        self.axis = axis
        self.layoutDirection = layoutDirection
        self.intensity = intensity
        self.isReduceMotionEnabled = isReduceMotionEnabled
    }

    /// The placement for one item whose frame is `itemFrame`, seen through
    /// `viewport` (both in the same coordinate space, e.g. the scroll view's
    /// content coordinates: `viewport` is then the scroll view's bounds).
    ///
    /// Complexity: O(1), no allocation.
    @inlinable
    public func placement(forItemFrame itemFrame: CGRect, in viewport: CGRect) -> ParallaxPlacement {
        placer(for: viewport).placement(forItemFrame: itemFrame)
    }

    /// The scroller prepared for one frame's viewport: the per-frame work
    /// done once, so placing each visible item costs only its own part.
    @inlinable
    public func placer(for viewport: CGRect) -> Placer {
        Placer(axis: axis, evaluator: effect.evaluator(
            viewport: axis.mainSpan(of: viewport), intensity: intensity, reduceMotion: isReduceMotionEnabled,
            mirrorsAnchor: axis == .horizontal && layoutDirection == .rightToLeft))
    }

    /// Calls `body` with the placement of every visible item that
    /// `isOptedIn` accepts, in the order of `items`.
    ///
    /// Complexity: O(items), no allocation beyond what `items` itself does.
    @inlinable
    public func forEachPlacement<Items: Sequence, ID>(
        of items: Items,
        in viewport: CGRect,
        where isOptedIn: (ID) throws -> Bool = { _ in true },
        _ body: (ID, ParallaxPlacement) throws -> Void
    ) rethrows where Items.Element == VisibleItem<ID> {
        let placer = placer(for: viewport)
        for item in items where try isOptedIn(item.id) {
            try body(item.id, placer.placement(forItemFrame: item.frame))
        }
    }

    /// A ``ParallaxScroller`` prepared for one viewport (see ``placer(for:)``).
    @frozen
    public struct Placer: Sendable {
        @usableFromInline let axis: ScrollAxis
        @usableFromInline let evaluator: ParallaxEffect.Evaluator

        @inlinable init(axis: ScrollAxis, evaluator: ParallaxEffect.Evaluator) {
            self.axis = axis
            self.evaluator = evaluator
        }

        /// The placement of the item whose frame is `itemFrame`.
        ///
        /// Complexity: O(1), no allocation.
        @inlinable
        public func placement(forItemFrame itemFrame: CGRect) -> ParallaxPlacement {
            let solution = evaluator.solve(item: axis.mainSpan(of: itemFrame))
            let crossLength = axis.cross(itemFrame.size)
            let cross = Span(0, crossLength.isFinite ? max(crossLength, 0) : 0)
            return ParallaxPlacement(
                offset: axis.point(main: solution.offset, cross: 0),
                contentFrame: axis.rect(main: solution.content, cross: cross)
            )
        }
    }
}
