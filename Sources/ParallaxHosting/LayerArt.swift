#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// What drawing one layer of a ``LayeredBackground`` depends on: which
/// layer, its speed, the size of its art and its loop period; not where
/// the art is scrolled to.
///
/// A layer's ``LayerPlacement`` changes with every scrolled point (its
/// offset); its art does not. A declarative background (SwiftUI's
/// `LayeredParallaxBackground`) hands its art builder this value and moves
/// the art by the offset itself, so the art is built again only when the
/// viewport, the content's length, the speeds or Reduce Motion change:
/// never while scrolling.
///
/// Complexity: O(1).
public struct LayerArt: Sendable, Hashable {
    /// The layer's place in the stack, 0 at the bottom.
    public var index: Int
    /// The speed it moves at, after intensity and Reduce Motion: 1 with the
    /// driver's content, 0 not at all.
    public var speed: CGFloat
    /// The size of the layer's art: along the axis its content extent (one
    /// loop period plus a viewport when it loops), across it the viewport's.
    public var contentSize: CGSize
    /// When the layer loops, the length after which its art repeats: draw
    /// one period and then a copy of its first viewport.
    public var loopPeriod: CGFloat?

    /// Art as given.
    public init(index: Int, speed: CGFloat, contentSize: CGSize, loopPeriod: CGFloat? = nil) {
        self.index = index
        self.speed = speed
        self.contentSize = contentSize
        self.loopPeriod = loopPeriod
    }

    /// Hashes every value `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
        hasher.combine(speed)
        hasher.combine(contentSize.width)
        hasher.combine(contentSize.height)
        hasher.combine(loopPeriod)
    }
}

extension LayerPlacement {
    /// The placement without its offset: what the layer's art depends on.
    public var art: LayerArt {
        LayerArt(index: index, speed: speed, contentSize: contentSize, loopPeriod: loopPeriod)
    }
}
