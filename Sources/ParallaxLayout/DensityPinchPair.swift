#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The two layouts a ``DensityPinch`` shows at the moment, the layout of
/// its lower column count (progress 0) and of the next (progress 1), with
/// everything a frame reads from them: the anchor's frame at each end, the
/// layouts unwrapped when they are the built-in grids or quilts, and their
/// frames of the items around the anchor.
///
/// A pinch makes a pair when it moves to another pair of counts (from the
/// layouts it keeps per count, ``DensityPinchLayouts``) and reads it as it
/// is, immutable, every frame: a frame costs no dynamic cast and no lookup
/// of the anchor.
@usableFromInline
struct DensityPinchPair<Layout: ItemLayout> {
    /// The layout at progress 0.
    @usableFromInline let source: Layout
    /// The layout at progress 1 (the source again when the range has a
    /// single count).
    @usableFromInline let destination: Layout
    /// The anchor's frame in the source (`.zero` without an anchor).
    @usableFromInline let sourceAnchor: CGRect
    /// The anchor's frame in the destination (`.zero` without an anchor).
    @usableFromInline let destinationAnchor: CGRect
    /// The pair unwrapped, when both are built-in grids or both quilts.
    @usableFromInline let concrete: ConcretePair
    /// The items around the anchor (empty without an anchor).
    @usableFromInline let window: DensityPinchWindow
    /// The source's frames of the window's items, by slot; empty when not
    /// read (two grids walk in closed form and need none).
    @usableFromInline let sourceFrames: [CGRect]
    /// The destination's frames of the window's items, by slot, or empty.
    @usableFromInline let destinationFrames: [CGRect]

    @usableFromInline
    init(source: Layout, destination: Layout, concrete: ConcretePair, sourceAnchor: CGRect?, destinationAnchor: CGRect?,
         window: DensityPinchWindow, sourceFrames: [CGRect], destinationFrames: [CGRect]) {
        self.source = source
        self.destination = destination
        self.sourceAnchor = sourceAnchor ?? .zero
        self.destinationAnchor = destinationAnchor ?? .zero
        self.concrete = concrete
        self.window = window
        self.sourceFrames = sourceFrames
        self.destinationFrames = destinationFrames
    }

    /// Whether both layouts place items in index order (see
    /// `ItemLayout.placesItemsInIndexOrder`).
    @inlinable
    var placesItemsInIndexOrder: Bool {
        source.placesItemsInIndexOrder && destination.placesItemsInIndexOrder
    }
}

/// The two layouts of a pinch's current pair, unwrapped once per change of
/// pair (looking inside ``AnyItemLayout``), so that a frame reads them
/// without a dynamic cast or dispatch per item.
@usableFromInline
enum ConcretePair {
    case grids(GridLayout, GridLayout)
    case quilts(QuiltLayout, QuiltLayout)
    case other

    /// The pair `source` → `destination`, unwrapped if it can be.
    @usableFromInline
    init<Layout: ItemLayout>(_ source: Layout, _ destination: Layout) {
        if let source = Self.unwrapped(source, as: GridLayout.self),
           let destination = Self.unwrapped(destination, as: GridLayout.self) {
            self = .grids(source, destination)
        } else if let source = Self.unwrapped(source, as: QuiltLayout.self),
                  let destination = Self.unwrapped(destination, as: QuiltLayout.self) {
            self = .quilts(source, destination)
        } else {
            self = .other
        }
    }

    /// `layout` as a `Concrete`, looking inside ``AnyItemLayout``; `nil`
    /// for any other layout.
    private static func unwrapped<Layout: ItemLayout, Concrete: ItemLayout>(_ layout: Layout,
                                                                            as _: Concrete.Type) -> Concrete? {
        if let concrete = layout as? Concrete { return concrete }
        return (layout as? AnyItemLayout)?.base as? Concrete
    }
}
