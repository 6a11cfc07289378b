#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Where to put an item's content (its image view) so the item shows the
/// parallax effect: the answer a cell needs, in the cell's own coordinates.
@frozen
public struct ParallaxPlacement: Sendable, Hashable {
    /// How far the content's centre sits from the item's centre. Only the
    /// scroll-axis component is ever non-zero.
    public var offset: CGPoint
    /// The content's frame in the item's coordinate space (origin at the
    /// item's top-left corner). Give the image view exactly this frame, with
    /// aspect-fill scaling, and clip the item to its bounds: no edge of the
    /// image ever shows.
    public var contentFrame: CGRect

    /// A placement whose content's centre sits `offset` from the item's
    /// centre, in the frame `contentFrame` of the item's coordinates. Values
    /// are stored as given; ``ParallaxScroller`` makes these for you.
    @inlinable public init(offset: CGPoint, contentFrame: CGRect) {
        self.offset = offset
        self.contentFrame = contentFrame
    }

    /// The content's size: the size to decode an image at (times the screen
    /// scale). It depends on the item's and viewport's sizes only, never on
    /// the scroll position, so images are decoded once per layout.
    @inlinable public var contentSize: CGSize { contentFrame.size }

    /// This placement carried over to its item resized from `oldSize` to
    /// `newSize`: the same overscan and the same offset, around the new
    /// bounds. A surface shows this between a resize (a rotation, a layout
    /// switch, often animated) and the exact placement for the new size, so
    /// the content moves with its item instead of snapping. A depth
    /// placement carried this way still covers the resized item, since its
    /// offset never exceeds half its overscan.
    ///
    /// Complexity: O(1).
    public func carried(from oldSize: CGSize, to newSize: CGSize) -> ParallaxPlacement {
        let size = CGSize(width: newSize.width + contentFrame.width - oldSize.width,
                          height: newSize.height + contentFrame.height - oldSize.height)
        let centre = CGPoint(x: newSize.width / 2 + offset.x, y: newSize.height / 2 + offset.y)
        return ParallaxPlacement(
            offset: offset,
            contentFrame: CGRect(x: centre.x - size.width / 2, y: centre.y - size.height / 2,
                                 width: size.width, height: size.height))
    }

    /// Hashes the offset and the content frame, the values `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(point: offset)
        hasher.combine(rect: contentFrame)
    }
}
