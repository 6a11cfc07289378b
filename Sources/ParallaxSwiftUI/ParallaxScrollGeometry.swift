#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import SwiftUI

/// Where a scroll view is: how far it has scrolled, how much it scrolls and
/// how much of it shows, in the terms `UIScrollView` uses.
///
/// ``SwiftUI/View/onParallaxScrollGeometryChange(_:)`` reports it;
/// ``LayeredParallaxBackground`` is driven by it.
public struct ParallaxScrollGeometry: Sendable, Equatable {
    /// The content point at the viewport's top-left corner. Negative at rest
    /// when the scroll view insets its content (safe area, margins), as in
    /// UIKit; for horizontal content laid out right to left it starts at the
    /// right end, `contentSize.width − viewportSize.width`.
    public var contentOffset: CGPoint
    /// The size of the scrolling content.
    public var contentSize: CGSize
    /// The size of the scroll view: the visible part of the content.
    public var viewportSize: CGSize
    /// The edges of the scroll view its safe area covers (bars, the notch),
    /// as ``SwiftUI/View/parallaxScrollContainer()`` measures them (zero
    /// without it): content at rest sits below them, at `−insets.top`.
    public var obscuredInsets: ParallaxCore.EdgeInsets

    /// A geometry as given, all zero by default: what a `@State` holds before
    /// ``SwiftUI/View/onParallaxScrollGeometryChange(_:)`` first reports.
    public init(contentOffset: CGPoint = .zero, contentSize: CGSize = .zero, viewportSize: CGSize = .zero,
                obscuredInsets: ParallaxCore.EdgeInsets = .zero) {
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.viewportSize = viewportSize
        self.obscuredInsets = obscuredInsets
    }

    /// How far the content has scrolled from its resting start along
    /// `axis`: the content offset plus the inset it rests under, so 0 at
    /// rest whatever the bars (what a layered background is driven by, as
    /// in UIKit).
    public func distanceFromStart(along axis: ScrollAxis) -> CGFloat {
        axis.main(contentOffset) + obscuredInsets.lowerInset(along: axis)
    }
}
#endif
