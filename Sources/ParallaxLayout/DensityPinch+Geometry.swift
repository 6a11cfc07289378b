#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

// What a pinch shows at a progress: the content offset that keeps the anchor
// under the fingers, the content size, an item's or a header's frame, and
// where a settle comes to rest. All O(1), read from the current pair.

extension DensityPinch {
    /// The content offset that keeps the anchor under the focus point at the
    /// current progress (or at `progress`, for the settle).
    @inlinable
    public func contentOffset(at progress: CGFloat? = nil) -> CGPoint {
        let p = Self.shape(progress ?? self.progress).fraction
        guard anchor != nil else { return initialOffset }
        return offset(keeping: pair.sourceAnchor.interpolated(to: pair.destinationAnchor, fraction: p))
    }

    /// The offset that puts the held point of the anchor, with the anchor at
    /// `frame`, under the focus point along the axis; across it, the offset
    /// the pinch began with.
    @inlinable
    func offset(keeping frame: CGRect) -> CGPoint {
        let main = axis.main(frame.origin) + axis.main(anchorPoint) * axis.main(frame.size) - axis.main(focus)
        return axis.point(main: main, cross: axis.cross(initialOffset))
    }

    /// The content size at the current progress (or at `progress`).
    public func contentSize(at progress: CGFloat? = nil) -> CGSize {
        let p = Self.shape(progress ?? self.progress).fraction
        let a = sourceLayout.contentSize, b = destinationLayout.contentSize
        return CGSize(width: a.width + (b.width - a.width) * p, height: a.height + (b.height - a.height) * p)
    }

    /// How much the photos shrink (past the densest count) or grow (past the
    /// sparsest) per step of progress beyond the range: the rubber band is a
    /// small zoom about the focus point, at most 10 %.
    @usableFromInline static var rubberZoom: CGFloat { 0.2 }

    /// The progress the two layouts are interpolated at (within 0...1; a
    /// non-finite progress reads as 0), and the zoom about the focus point
    /// that shows progress past either end.
    @inlinable
    static func shape(_ progress: CGFloat) -> (fraction: CGFloat, zoom: CGFloat) {
        let p = progress.isFinite ? progress : 0
        let clamped = min(max(p, 0), 1)
        return (clamped, 1 - (p - clamped) * rubberZoom)
    }

    /// How frames are shown at the current progress (or at `progress`).
    @inlinable
    func interpolation(at progress: CGFloat? = nil) -> DensityPinchInterpolation {
        let (p, zoom) = Self.shape(progress ?? self.progress)
        let offset = contentOffset(at: p)
        return DensityPinchInterpolation(fraction: p, zoom: zoom,
                                         center: CGPoint(x: offset.x + focus.x, y: offset.y + focus.y))
    }

    /// The offset a settle ends at: the anchor under the focus point in the
    /// layout of the count it settles on, moved into the content's bounds
    /// along the axis (the viewport's insets respected, as a scroll view
    /// does); across it, back to where it was when the pinch began, so the
    /// grid rests square.
    ///
    /// - Complexity: O(1): the layout of the count it settles on is built
    ///   (it is the pair's or the one the pinch began with).
    public func restingOffset(for settling: Settling) -> CGPoint {
        let unclamped = contentOffset(columns: settling.columns)
        let size = builtLayout(columns: settling.columns)?.contentSize ?? contentSize()
        let range = ScrollViewport(size: viewportSize, insets: insets).offsetRange(contentExtent: axis.main(size), along: axis)
        return axis.point(main: range.clamp(axis.main(unclamped)), cross: axis.cross(initialOffset))
    }

    /// The offset that keeps the anchor under the focus point in the layout
    /// of `columns`, at rest; the current offset if that layout is not built.
    private func contentOffset(columns: Int) -> CGPoint {
        guard anchor != nil, let frame = anchorFrame(columns: columns) else { return contentOffset() }
        return offset(keeping: frame)
    }

    /// The content offset while settling, once moved to the spring's position
    /// at `time` (``move(settling:at:)``): the focus invariant's offset,
    /// carried into the content's bounds as the spring completes.
    public func contentOffset(settling: Settling, at time: TimeInterval) -> CGPoint {
        let resting = restingOffset(for: settling), held = contentOffset(columns: settling.columns)
        let free = contentOffset()
        let c = settling.completion(at: time)
        return CGPoint(x: free.x + (resting.x - held.x) * c, y: free.y + (resting.y - held.y) * c)
    }

    /// The frame of `index` at the current progress (or at `progress`), in
    /// content coordinates, or `nil` if neither layout has it.
    @inlinable
    public func frame(of index: ItemIndex, at progress: CGFloat? = nil) -> CGRect? {
        interpolation(at: progress).frame(from: sourceLayout.frame(of: index), to: destinationLayout.frame(of: index))
    }

    /// The frame of `section`'s header at the current progress (or at
    /// `progress`), in content coordinates: moved linearly from its frame in
    /// the source layout to its frame in the destination, as items are;
    /// `nil` when neither layout gives the section a header.
    ///
    /// Complexity: O(1) for the built-in layouts.
    @inlinable
    public func headerFrame(ofSection section: Int, at progress: CGFloat? = nil) -> CGRect? {
        interpolation(at: progress).frame(from: sourceLayout.headerFrame(ofSection: section),
                                          to: destinationLayout.headerFrame(ofSection: section))
    }

    /// The number of sections of the layouts the pinch moves between.
    public var numberOfSections: Int { sourceLayout.numberOfSections }
}
