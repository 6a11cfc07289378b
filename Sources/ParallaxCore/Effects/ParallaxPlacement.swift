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

    @inlinable public init(offset: CGPoint, contentFrame: CGRect) {
        self.offset = offset
        self.contentFrame = contentFrame
    }

    /// The content's size: the size to decode an image at (times the screen
    /// scale). It depends on the item's and viewport's sizes only, never on
    /// the scroll position, so images are decoded once per layout.
    @inlinable public var contentSize: CGSize { contentFrame.size }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(point: offset)
        hasher.combine(rect: contentFrame)
    }
}
