#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
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

    public init(contentOffset: CGPoint = .zero, contentSize: CGSize = .zero, viewportSize: CGSize = .zero) {
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.viewportSize = viewportSize
    }
}
#endif
