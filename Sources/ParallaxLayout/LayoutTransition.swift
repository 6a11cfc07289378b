#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// An animated switch between two layouts of the same items (grid ↔ list,
/// or a rotation), which can start in the middle of a scroll.
///
/// At progress `p` every item's frame is its source frame moved `p` of the
/// way to its destination frame, and the content offset moves from where it
/// was to where ``PlaceKeeping`` puts it in the destination, so the
/// remembered item glides into place. Only the items visible in either
/// layout are ever touched.
///
/// Progress is not clamped, so a spring may overshoot; easing is the
/// surface's business.
///
/// Complexity: O(visible items in either layout) per frame, no allocation.
public struct LayoutTransition<Source: ItemLayout, Destination: ItemLayout>: Sendable {
    /// The layout the switch starts from (progress 0).
    public let source: Source
    /// The layout the switch ends in (progress 1).
    public let destination: Destination
    /// The content offset in the source layout when the switch began.
    public let sourceOffset: CGPoint
    /// The content offset in the destination layout that keeps the place.
    public let destinationOffset: CGPoint
    /// The viewport's size (the same in both layouts).
    public let viewportSize: CGSize

    /// A transition from `source` seen through `viewport` to `destination`,
    /// keeping the first visible item in place.
    public init(
        from source: Source, at viewport: ScrollViewport, to destination: Destination,
        alignment: PlaceKeeping.Alignment = .preservesPosition
    ) {
        self.source = source
        self.destination = destination
        self.sourceOffset = viewport.contentOffset
        self.destinationOffset = PlaceKeeping.contentOffset(
            from: source, at: viewport, to: destination, in: viewport, alignment: alignment)
        self.viewportSize = viewport.size
    }

    private func fraction(_ progress: CGFloat) -> CGFloat { progress.isFinite ? progress : 0 }

    /// The content offset at `progress`.
    public func contentOffset(at progress: CGFloat) -> CGPoint {
        let p = fraction(progress)
        return CGPoint(x: sourceOffset.x + (destinationOffset.x - sourceOffset.x) * p,
                       y: sourceOffset.y + (destinationOffset.y - sourceOffset.y) * p)
    }

    /// The content size at `progress`.
    public func contentSize(at progress: CGFloat) -> CGSize {
        let p = fraction(progress)
        return CGSize(width: source.contentSize.width + (destination.contentSize.width - source.contentSize.width) * p,
                      height: source.contentSize.height + (destination.contentSize.height - source.contentSize.height) * p)
    }

    /// The frame of `index` at `progress`, or `nil` if it is in neither layout.
    public func frame(of index: ItemIndex, at progress: CGFloat) -> CGRect? {
        switch (source.frame(of: index), destination.frame(of: index)) {
        case let (from?, to?): return from.interpolated(to: to, fraction: fraction(progress))
        case let (from?, nil): return from
        case let (nil, to?): return to
        case (nil, nil): return nil
        }
    }

    /// Calls `body` once for every item visible in the source layout at the
    /// start or in the destination layout at the end, with its frame at
    /// `progress`: first the source's items in index order, then the
    /// destination's newcomers in index order.
    public func forEachItem(at progress: CGFloat, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        let p = fraction(progress)
        let sourceRect = CGRect(origin: sourceOffset, size: viewportSize)
        let destinationRect = CGRect(origin: destinationOffset, size: viewportSize)
        try source.forEachItem(in: sourceRect) { index, from in
            let to = destination.frame(of: index) ?? from
            try body(index, from.interpolated(to: to, fraction: p))
        }
        try destination.forEachItem(in: destinationRect) { index, to in
            if let from = source.frame(of: index) {
                guard !from.isVisible(in: sourceRect) else { return }   // already reported
                try body(index, from.interpolated(to: to, fraction: p))
            } else {
                try body(index, to)
            }
        }
    }
}
