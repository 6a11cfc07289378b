#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import SwiftUI

/// Where a parallax view is, given rather than measured: its frame and the
/// viewport's, in one coordinate space.
///
/// ``DensityPinchGrid`` draws a pinch in an overlay, outside its scroll
/// view, where a parallax view could measure nothing and would snap to
/// rest. The grid knows where each cell is in the viewport, so it hands
/// that down; the cell's parallax then follows its frame through the
/// pinch, and matches what the scroll view shows at both ends (the
/// placement depends only on where the item sits in the viewport).
struct ParallaxPin: Sendable, Equatable {
    /// The item's frame.
    var itemFrame: CGRect
    /// The scroll view's visible rectangle (bars included; the obscured
    /// insets are taken out as for a measured view).
    var viewport: CGRect
}

extension EnvironmentValues {
    /// Set by ``DensityPinchGrid`` on each cell while it pinches: parallax
    /// views place themselves from it instead of measuring. `nil` otherwise.
    var parallaxPin: ParallaxPin? {
        get { self[ParallaxPinKey.self] }
        set { self[ParallaxPinKey.self] = newValue }
    }
}

private struct ParallaxPinKey: EnvironmentKey {
    static let defaultValue: ParallaxPin? = nil
}
#endif
