#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import SwiftUI

/// One layer of a ``LayeredParallaxBackground``, as the view builder that
/// draws it sees it: which layer, how fast it moves and how much art it
/// needs.
public struct ParallaxBackgroundLayer: Sendable, Equatable {
    /// The layer's place in the stack, 0 at the bottom.
    public var index: Int
    /// The speed the layer moves at, after the stack's intensity and Reduce
    /// Motion: 1 with the scroll view's content, 0 not at all.
    public var speed: CGFloat
    /// The size to draw the layer's art at: along the scroll axis its
    /// content extent (`LayeredParallax.contentExtent`, or one loop period
    /// plus a viewport when it loops), across it the viewport's size. The
    /// background gives the art exactly this frame, top-left aligned.
    public var contentSize: CGSize
    /// When the layer loops, the length after which its art repeats
    /// (`LoopingContent.period`): draw one period and then a copy of its
    /// first viewport, and the background wraps the layer's offset so the
    /// seam never shows. `nil` when the layer does not loop.
    public var loopPeriod: CGFloat?

    public init(index: Int, speed: CGFloat, contentSize: CGSize, loopPeriod: CGFloat? = nil) {
        self.index = index
        self.speed = speed
        self.contentSize = contentSize
        self.loopPeriod = loopPeriod
    }
}
#endif
