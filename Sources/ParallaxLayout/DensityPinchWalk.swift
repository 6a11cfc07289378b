#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// One walk over the items a ``DensityPinch`` shows at one progress: how
/// each item's frame is shown (``interpolation``), the viewport it must be
/// visible in, and the band of each end's layout whose items can be.
///
/// Every item visible at some progress lies, along the axis, within one
/// end's band (see ``DensityPinch/forEachItem(at:shownAt:_:)``, which
/// makes the walk), so a walk reads those two bands only, and reports
/// each item in either once, through ``report(_:from:to:_:)``: the one
/// interpolate → zoom → visible step. Two passes read the bands:
/// ``forEachItem(ofGrids:_:_:)``, two grids in closed form, and
/// ``forEachItem(of:_:window:_:)``, any two layouts, with the frames of the
/// items around the anchor read ahead. Neither allocates: the only scratch
/// a walk needs, the set of items it has reported, is its own, on its own
/// stack, so walks nested in a walk's body, or of copies of a pinch, never
/// share anything.
@usableFromInline
struct DensityPinchWalk {
    /// How an item's two frames are shown.
    @usableFromInline let interpolation: DensityPinchInterpolation
    /// What is shown, in content coordinates: an item is reported when its
    /// shown frame is visible in it.
    @usableFromInline let viewport: CGRect
    /// The source layout's band: the source's items that can be visible.
    @usableFromInline let sourceBand: CGRect
    /// The destination layout's band: the destination's items that can be
    /// visible.
    @usableFromInline let destinationBand: CGRect

    @inlinable
    init(interpolation: DensityPinchInterpolation, viewport: CGRect, sourceBand: CGRect, destinationBand: CGRect) {
        self.interpolation = interpolation
        self.viewport = viewport
        self.sourceBand = sourceBand
        self.destinationBand = destinationBand
    }

    /// Calls `body` with `index` and its shown frame, given its frames at
    /// both ends, if that frame is visible in the viewport. O(1).
    @inlinable @inline(__always)
    func report(_ index: ItemIndex, from: CGRect, to: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        let frame = interpolation.frame(from: from, to: to)
        if frame.isVisible(in: viewport) { try body(index, frame) }
    }

    /// Reports the items of `pair`'s bands: two grids of the same items in
    /// closed form, a pair of quilts unwrapped (no dynamic dispatch per
    /// item), any other pair as it is.
    ///
    /// - Complexity: O(items in either band), nothing allocated.
    @inlinable
    func forEachItem<Layout: ItemLayout>(in pair: DensityPinchPair<Layout>,
                                         _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        switch pair.concrete {
        case let .grids(source, destination):
            if try forEachItem(ofGrids: source, destination, body) { return }
            try forEachItem(of: pair.source, pair.destination, framesOf: pair, body)
        case let .quilts(source, destination):
            try forEachItem(of: source, destination, framesOf: pair, body)
        case .other:
            try forEachItem(of: pair.source, pair.destination, framesOf: pair, body)
        }
    }

    /// ``forEachItem(of:_:window:_:)`` over `source` and `destination`
    /// (`pair`'s layouts, maybe unwrapped) with `pair`'s window frames.
    @inlinable
    func forEachItem<L: ItemLayout, Layout: ItemLayout>(of source: L, _ destination: L,
                                                        framesOf pair: DensityPinchPair<Layout>,
                                                        _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        try pair.sourceFrames.withUnsafeBufferPointer { sourceFrames in
            try pair.destinationFrames.withUnsafeBufferPointer { destinationFrames in
                try forEachItem(of: WindowedLayout(source, frames: sourceFrames),
                                WindowedLayout(destination, frames: destinationFrames), window: pair.window, body)
            }
        }
    }

    /// The pass for any two layouts: the source band's items, each with
    /// its destination frame, then the destination band's items the source
    /// band did not hold. An item in the window around the anchor takes its
    /// frame at the other end from the frames read ahead, and the walk marks
    /// it in a set of slots on its own stack, so that the destination's pass
    /// skips it without a lookup; an item outside the window (another
    /// section far from the anchor's, or a band far taller than a screen)
    /// is looked up in the other layout, and a destination item is skipped
    /// when its source frame lies in the source band.
    ///
    /// - Complexity: O(items in either band): one frame read per item, a
    ///   lookup per item outside the window; nothing allocated.
    @inlinable
    func forEachItem<L: ItemLayout>(of source: WindowedLayout<L>, _ destination: WindowedLayout<L>,
                                    window: DensityPinchWindow,
                                    _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        try DensityPinchWindow.SlotSet.withEmptySet { reported in
            try source.layout.forEachItem(in: sourceBand) { index, from in
                let slot = window.slot(of: index)
                if let slot { reported.insert(slot) }
                try report(index, from: from, to: destination.frame(of: index, slot: slot) ?? from, body)
            }
            try destination.layout.forEachItem(in: destinationBand) { index, to in
                let from: CGRect?
                if let slot = window.slot(of: index) {
                    guard !reported.contains(slot) else { return }                    // reported above
                    from = source.frame(of: index, slot: slot)
                } else {
                    from = source.layout.frame(of: index)
                    if let from, from.isVisible(in: sourceBand) { return }            // reported above
                }
                try report(index, from: from ?? to, to: to, body)
            }
        }
    }
}
