#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Whole background layers sliding at their own speeds behind a scrolling
/// foreground (the C4 "Cosmos" tutorial).
///
/// One layer, the *driver*, is scrolled by the user; every other layer `i`
/// follows at `speeds[i]` of the driver's offset:
///
///     layer[i].offset = driver.offset · speed[i]
///
/// Speed 1 moves with the driver, speed 0 is a static backdrop, and speeds
/// between are "further away". A layer slower than the driver needs less
/// content, but one extra viewport of it so it can still reach its end:
///
///     layer[i].contentExtent = driverContentExtent · speed[i] + (speed[i] < 1 ? viewport : 0)
///
/// This is the same family as ``ParallaxEffect``: each layer's content moves
/// at a rate of the driver's motion, anchored at the content's start (its
/// end, for a right-to-left horizontal stack).
///
/// Complexity: every query is O(1) and allocation-free.
public struct LayeredParallax: Sendable, Hashable {
    /// The speed of each layer, bottom to top.
    public var speeds: [CGFloat]
    /// The reading direction. Right-to-left horizontal stacks start at their
    /// right end: every layer is anchored there instead of at offset 0.
    public var layoutDirection: LayoutDirection
    /// Scales every layer's difference from the driver: effective speed
    /// `1 − intensity · (1 − speed)`. 1 as designed, 0 all layers together.
    public var intensity: CGFloat
    /// When `true` every layer moves with the driver (speed 1): no layer
    /// slides against another. Layers then need the driver's content
    /// extent, unless they loop (see ``LoopingContent``).
    public var isReduceMotionEnabled: Bool

    /// The speeds of the Cosmos tutorial's eight layers, bottom to top; the
    /// top layer (speed 1) is the one the user scrolls.
    public static let cosmosSpeeds: [CGFloat] = [0.08, 0.0, 0.10, 0.12, 0.15, 1.0, 0.8, 1.0]

    /// A stack with the Cosmos speeds.
    public static let cosmos = LayeredParallax(speeds: cosmosSpeeds)

    /// A stack of layers moving at `speeds`, bottom to top (0 stands still,
    /// 1 moves with the driver). Speeds are kept as given and read through
    /// ``effectiveSpeed(ofLayer:)``, which takes a negative or non-finite
    /// speed as 0; the other settings default to left to right, full
    /// intensity and motion on.
    public init(
        speeds: [CGFloat],
        layoutDirection: LayoutDirection = .leftToRight,
        intensity: CGFloat = 1,
        isReduceMotionEnabled: Bool = false
    ) {
        self.speeds = speeds
        self.layoutDirection = layoutDirection
        self.intensity = intensity
        self.isReduceMotionEnabled = isReduceMotionEnabled
    }

    /// How many layers there are.
    @inlinable public var count: Int { speeds.count }

    /// The speed layer `index` actually moves at, after Reduce Motion and
    /// intensity. Negative or non-finite speeds read as 0; an index outside
    /// the stack reads as 1 (it moves with the driver).
    @inlinable
    public func effectiveSpeed(ofLayer index: Int) -> CGFloat {
        guard !isReduceMotionEnabled, speeds.indices.contains(index) else { return 1 }
        let raw = speeds[index]
        let speed = raw.isFinite ? max(raw, 0) : 0
        let strength = intensity.isFinite ? max(intensity, 0) : 0
        return 1 - strength * (1 - speed)
    }

    /// The content extent layer `index` needs to be scrollable over the
    /// driver's whole range.
    @inlinable
    public func contentExtent(ofLayer index: Int, driverContentExtent: CGFloat, viewportExtent: CGFloat) -> CGFloat {
        let speed = effectiveSpeed(ofLayer: index)
        let extent = driverContentExtent * speed + (speed < 1 ? viewportExtent : 0)
        return extent.isFinite ? max(extent, 0) : 0
    }

    /// Layer `index`'s offset when the driver's offset is `driverOffset`.
    ///
    /// Left-to-right, `driverOffset · speed`. Right-to-left, the layer is
    /// anchored at its right end: `layerMax − (driverMax − driverOffset) · speed`,
    /// so every layer starts at its own end when the driver does.
    @inlinable
    public func offset(
        ofLayer index: Int, driverOffset: CGFloat, driverContentExtent: CGFloat, viewportExtent: CGFloat
    ) -> CGFloat {
        let speed = effectiveSpeed(ofLayer: index)
        let result: CGFloat
        switch layoutDirection {
        case .leftToRight:
            result = driverOffset * speed
        case .rightToLeft:
            let driverMax = driverContentExtent - viewportExtent
            let layerMax = contentExtent(ofLayer: index, driverContentExtent: driverContentExtent,
                                         viewportExtent: viewportExtent) - viewportExtent
            result = layerMax - (driverMax - driverOffset) * speed
        }
        return result.isFinite ? result : 0
    }
}
