#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Where a ``DensityPinch`` shows an item at one progress, given its frames
/// at both ends: moved `fraction` of the way from its frame in the source
/// layout to its frame in the destination, then, past either end of the
/// column range, scaled by the rubber band's `zoom` about `center` (the
/// focus point in content coordinates).
///
/// The one place that step is written: ``DensityPinch/frame(of:at:)``,
/// ``DensityPinch/headerFrame(ofSection:at:)`` and every item a
/// ``DensityPinchWalk`` reports go through it, so all agree exactly.
@usableFromInline
struct DensityPinchInterpolation {
    /// How far from the source layout towards the destination, in 0...1.
    @usableFromInline let fraction: CGFloat
    /// The rubber band's scale: 1 within the range.
    @usableFromInline let zoom: CGFloat
    /// The point the rubber band scales about, in content coordinates.
    @usableFromInline let center: CGPoint

    @inlinable
    init(fraction: CGFloat, zoom: CGFloat, center: CGPoint) {
        self.fraction = fraction
        self.zoom = zoom
        self.center = center
    }

    /// The frame shown for an item at `from` in the source and `to` in the
    /// destination. O(1).
    @inlinable @inline(__always)
    func frame(from: CGRect, to: CGRect) -> CGRect {
        zoomed(from.interpolated(to: to, fraction: fraction))
    }

    /// The frame shown for something one layout may lack (an item, a
    /// section's header): the frame of the layout that has it, still
    /// zoomed; `nil` when neither has it. O(1).
    @inlinable
    func frame(from: CGRect?, to: CGRect?) -> CGRect? {
        switch (from, to) {
        case let (from?, to?): frame(from: from, to: to)
        case let (from?, nil): zoomed(from)
        case let (nil, to?): zoomed(to)
        case (nil, nil): nil
        }
    }

    /// `frame` scaled by ``zoom`` about ``center``. O(1).
    @inlinable @inline(__always)
    func zoomed(_ frame: CGRect) -> CGRect {
        guard zoom != 1 else { return frame }
        return CGRect(x: center.x + (frame.minX - center.x) * zoom, y: center.y + (frame.minY - center.y) * zoom,
                      width: frame.width * zoom, height: frame.height * zoom)
    }
}
