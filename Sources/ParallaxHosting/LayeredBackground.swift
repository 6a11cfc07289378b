#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Where each layer of a layered background goes for a driving scroll
/// view's position: the decisions behind `LayeredParallaxView` (UIKit) and
/// `LayeredParallaxBackground` (SwiftUI), made once here.
///
/// The stack's speeds come from `LayeredParallax` (the C4 "Cosmos"
/// tutorial); this type adds what a view needs: the reading direction and
/// Reduce Motion of the moment, how much art each layer needs, and, for
/// looping layers, the wrap that hides the seam (`LoopingContent`).
///
/// Complexity: O(1) per layer, no allocation.
public struct LayeredBackground: Sendable, Hashable {
    /// The speeds, intensity and direction of the stack.
    public var stack: LayeredParallax
    /// The axis the driving scroll view scrolls along.
    public var axis: ScrollAxis
    /// When set, every layer's art repeats after `loopPeriod · speed`
    /// (the driver's period scaled to the layer), so it can be short.
    public var loopPeriod: CGFloat?

    /// A background of `stack` (the Cosmos speeds by default) behind a scroll
    /// view scrolling along `axis`, looping every `loopPeriod` points of the
    /// driver when given. A period that is not a positive finite number means
    /// no loop, and a layer that stands still never loops.
    public init(stack: LayeredParallax = .cosmos, axis: ScrollAxis = .vertical, loopPeriod: CGFloat? = nil) {
        self.stack = stack
        self.axis = axis
        self.loopPeriod = loopPeriod
    }

    /// This background as it applies in an environment: right-to-left only
    /// for a horizontal axis (a vertical stack reads top to bottom in every
    /// language), and no relative motion when the stack or the system asks
    /// for reduced motion. Place layers with the result.
    public func resolved(layoutDirection: LayoutDirection, isReduceMotionEnabled: Bool) -> LayeredBackground {
        var resolved = self
        resolved.stack.layoutDirection = axis == .horizontal ? layoutDirection : .leftToRight
        resolved.stack.isReduceMotionEnabled = stack.isReduceMotionEnabled || isReduceMotionEnabled
        return resolved
    }

    /// Layer `index` when the driver is scrolled to `driverOffset` (0 at
    /// the content's start, wherever insets make a scroll view rest) of
    /// `driverContentExtent`, seen through `viewportSize`. Call it on the
    /// ``resolved(layoutDirection:isReduceMotionEnabled:)`` background.
    public func placement(
        ofLayer index: Int, driverOffset: CGFloat, driverContentExtent: CGFloat, viewportSize: CGSize
    ) -> LayerPlacement {
        let viewportExtent = axis.main(viewportSize)
        let speed = stack.effectiveSpeed(ofLayer: index)
        let offset = stack.offset(ofLayer: index, driverOffset: driverOffset,
                                  driverContentExtent: driverContentExtent, viewportExtent: viewportExtent)
        var extent: CGFloat
        var shown = offset
        var period: CGFloat?
        if let loopPeriod, loopPeriod.isFinite, loopPeriod > 0, speed > 0 {
            let loop = LoopingContent(period: loopPeriod * speed)
            extent = loop.drawnExtent(viewportExtent: viewportExtent)
            shown = loop.wrap(offset)
            period = loop.period
        } else {
            extent = stack.contentExtent(ofLayer: index, driverContentExtent: driverContentExtent,
                                         viewportExtent: viewportExtent)
        }
        if !extent.isFinite || extent < 0 { extent = 0 }
        let cross = axis.cross(viewportSize)
        let size = axis.size(main: extent, cross: cross.isFinite ? max(cross, 0) : 0)
        return LayerPlacement(index: index, speed: speed, contentSize: size, offset: shown, loopPeriod: period)
    }
}

/// One layer of a ``LayeredBackground``: which layer, how fast it moves,
/// how much art it needs and where that art goes.
public struct LayerPlacement: Sendable, Hashable {
    /// The layer's place in the stack, 0 at the bottom.
    public var index: Int
    /// The speed it moves at, after intensity and Reduce Motion: 1 with the
    /// driver's content, 0 not at all.
    public var speed: CGFloat
    /// The size of the layer's art: along the axis its content extent (one
    /// loop period plus a viewport when it loops), across it the viewport's.
    public var contentSize: CGSize
    /// How far the layer's art is scrolled along the axis: its origin sits
    /// at `−offset` in the background.
    public var offset: CGFloat
    /// When the layer loops, the length after which its art repeats: draw
    /// one period and then a copy of its first viewport.
    public var loopPeriod: CGFloat?

    /// A layer's placement, stored as given;
    /// ``LayeredBackground/placement(ofLayer:driverOffset:driverContentExtent:viewportSize:)``
    /// makes these.
    public init(index: Int, speed: CGFloat, contentSize: CGSize, offset: CGFloat, loopPeriod: CGFloat? = nil) {
        self.index = index
        self.speed = speed
        self.contentSize = contentSize
        self.offset = offset
        self.loopPeriod = loopPeriod
    }

    /// The art's frame in the background's coordinates, scrolling along `axis`.
    public func frame(along axis: ScrollAxis) -> CGRect {
        axis.rect(main: Span(-offset, axis.main(contentSize)), cross: Span(0, axis.cross(contentSize)))
    }

    /// Hashes every value `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
        hasher.combine(speed)
        hasher.combine(size: contentSize)
        hasher.combine(offset)
        hasher.combine(loopPeriod)
    }
}
