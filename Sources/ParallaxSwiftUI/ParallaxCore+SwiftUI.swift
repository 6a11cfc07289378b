#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import ParallaxHosting
import SwiftUI

// The few translations between SwiftUI's vocabulary and the core's that
// every adapter in this module shares. Nothing here decides anything: the
// placement itself always comes from `ParallaxScroller`.

extension ParallaxCore.LayoutDirection {
    /// The core's reading direction for SwiftUI's `layoutDirection`
    /// environment value.
    init(_ direction: SwiftUI.LayoutDirection) {
        self = direction == .rightToLeft ? .rightToLeft : .leftToRight
    }
}

extension ScrollAxis {
    /// The SwiftUI axis the content scrolls along.
    var swiftUIAxis: Axis { self == .vertical ? .vertical : .horizontal }
}

extension ParallaxScroller {
    /// A scroller for one of this module's views: the effect settings the
    /// caller chose, the reading direction and Reduce Motion from the
    /// environment.
    init(
        effect: ParallaxEffect, axis: ScrollAxis, intensity: CGFloat,
        environmentDirection: SwiftUI.LayoutDirection, reduceMotion: Bool
    ) {
        self.init(effect: effect, axis: axis, layoutDirection: ParallaxCore.LayoutDirection(environmentDirection),
                  intensity: intensity, isReduceMotionEnabled: reduceMotion)
    }

    /// The placement of an item whose frame is `itemFrame`, seen through
    /// `viewport` (both in one coordinate space), or, while either is not
    /// measured (no scroll view around the item, or not measured yet), the
    /// placement of an item at rest: no offset, the content at the size the
    /// effect gives it.
    ///
    /// At rest is this scroller under Reduce Motion with the item as its own
    /// viewport, so depth content, sized by the item alone, keeps its size
    /// when the measurement arrives.
    func placement(forMeasuredFrame itemFrame: CGRect?, in viewport: CGRect?) -> ParallaxPlacement {
        if let itemFrame, let viewport {
            return placement(forItemFrame: itemFrame, in: viewport)
        }
        var atRest = self
        atRest.isReduceMotionEnabled = true
        let item = itemFrame ?? .zero
        return atRest.placement(forItemFrame: item, in: item)
    }

    /// The window the effect is measured against: `viewport` minus the
    /// `obscured` edges along the scroll axis (``ParallaxWindow/unobscured``,
    /// the same rule as UIKit's controller).
    func window(_ viewport: CGRect?, obscured: ParallaxCore.EdgeInsets) -> CGRect? {
        viewport.map { ParallaxWindow.unobscured.rect(in: $0, obscured: obscured, axis: axis) }
    }

    /// The placement of an item whose frame and viewport are given by `pin`
    /// (``DensityPinchGrid``'s cells while it pinches), the `obscured` edges
    /// taken out of the viewport as for a measured item.
    func placement(pinnedAt pin: ParallaxPin, obscured: ParallaxCore.EdgeInsets) -> ParallaxPlacement {
        placement(forMeasuredFrame: pin.itemFrame, in: window(pin.viewport, obscured: obscured))
    }

    /// Whether the content's size depends on the viewport, not only on the
    /// item: true for the rate (window) effects, whose content is at least
    /// viewport-sized (see `ParallaxEffect`); depth content is the item plus
    /// its overscan.
    var contentSizeDependsOnViewport: Bool {
        if case .rate = effect.motion { return true }
        return false
    }
}

#if canImport(SwiftUI, _version: 5.0)
@available(iOS 17, macOS 14, tvOS 17, visionOS 1, *)
extension ParallaxScroller {
    /// The placement of the view `proxy` measures, inside the innermost
    /// scroll view that scrolls along this scroller's axis.
    ///
    /// Both rectangles are in the view's own coordinates: the item is its
    /// bounds, the viewport is the scroll view's visible rectangle that
    /// `bounds(of:)` converts into them. The placement depends only on where
    /// the item sits in the viewport, so any common coordinate space is
    /// exact. Outside such a scroll view the item is at rest. `obscured`
    /// (from ``SwiftUI/View/parallaxScrollContainer()``, zero without it)
    /// takes the bars out of the window.
    func placement(of proxy: GeometryProxy, obscured: ParallaxCore.EdgeInsets) -> ParallaxPlacement {
        placement(forMeasuredFrame: CGRect(origin: .zero, size: proxy.size),
                  in: window(proxy.bounds(of: .scrollView(axis: axis.swiftUIAxis)), obscured: obscured))
    }
}
#endif
#endif
