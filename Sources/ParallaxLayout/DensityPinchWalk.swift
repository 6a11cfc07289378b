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
/// ``forEachItem(of:_:framesOf:_:)``, any two layouts, with the frames of the
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

    /// The pass for any two layouts: `source` and `destination` are
    /// `pair`'s layouts (maybe unwrapped), read with `pair`'s frames of the
    /// items around the anchor. First the source band's items, each with
    /// its destination frame, then the destination band's items the source
    /// band did not hold (see ``PairPass``).
    ///
    /// - Complexity: O(items in either band): one frame read per item, a
    ///   lookup per item outside the window; nothing allocated.
    @inlinable
    func forEachItem<L: ItemLayout, Layout: ItemLayout>(of source: L, _ destination: L,
                                                        framesOf pair: DensityPinchPair<Layout>,
                                                        _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        var pass = PairPass(walk: self, source: source, destination: destination, window: pair.window,
                            sourceFrames: pair.sourceFrames, destinationFrames: pair.destinationFrames)
        try source.forEachItem(in: sourceBand) { index, from in try pass.reportSourceItem(index, from: from, body) }
        try destination.forEachItem(in: destinationBand) { index, to in
            try pass.reportDestinationItem(index, to: to, body)
        }
    }

    /// One pass of ``forEachItem(of:_:framesOf:_:)`` over two layouts, and
    /// the only scratch it needs, owned by value: the set of the window's
    /// items reported so far, a few words on the walk's own stack.
    ///
    /// An item in the window around the anchor takes its frame at the other
    /// end from the frames read ahead, and the source's pass marks it, so
    /// that the destination's pass skips it without a lookup. An item
    /// outside the window (in a section far from the anchor's, or in a band
    /// far taller than a screen) is looked up in the other layout, and a
    /// destination item is skipped when its source frame lies in the source
    /// band. (The closures that feed it capture the pass, a variable, by
    /// reference: nothing is copied per item.)
    @usableFromInline
    struct PairPass<L: ItemLayout> {
        @usableFromInline let walk: DensityPinchWalk
        @usableFromInline let source: L
        @usableFromInline let destination: L
        @usableFromInline let window: DensityPinchWindow
        /// The source's frames of the window's items, by slot, or empty.
        @usableFromInline let sourceFrames: [CGRect]
        /// The destination's frames of the window's items, by slot, or empty.
        @usableFromInline let destinationFrames: [CGRect]
        /// The window's items the source's pass has reported.
        @usableFromInline var reported = DensityPinchWindow.SlotSet()

        @inlinable
        init(walk: DensityPinchWalk, source: L, destination: L, window: DensityPinchWindow, sourceFrames: [CGRect],
             destinationFrames: [CGRect]) {
            self.walk = walk
            self.source = source
            self.destination = destination
            self.window = window
            self.sourceFrames = sourceFrames
            self.destinationFrames = destinationFrames
        }

        /// An item of the source band, at `from` in the source. O(1) in the
        /// window, a lookup outside it.
        @inlinable @inline(__always)
        mutating func reportSourceItem(_ index: ItemIndex, from: CGRect,
                                       _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
            let slot = window.slot(of: index)
            if let slot { reported.insert(slot) }
            let to = DensityPinchWindow.frame(of: index, slot: slot, in: destinationFrames, of: destination)
            try walk.report(index, from: from, to: to ?? from, body)
        }

        /// An item of the destination band, at `to` in the destination,
        /// once the source's pass is over: skipped if it reported it. O(1)
        /// in the window, a lookup outside it. (Mutating only so that the
        /// pass is read in place, not copied per item.)
        @inlinable @inline(__always)
        mutating func reportDestinationItem(_ index: ItemIndex, to: CGRect,
                                            _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
            let from: CGRect?
            if let slot = window.slot(of: index) {
                guard !reported.contains(slot) else { return }                                // reported above
                from = DensityPinchWindow.frame(of: index, slot: slot, in: sourceFrames, of: source)
            } else {
                from = source.frame(of: index)
                if let from, from.isVisible(in: walk.sourceBand) { return }                   // reported above
            }
            try walk.report(index, from: from ?? to, to: to, body)
        }
    }
}
