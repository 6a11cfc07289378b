#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// Which items to load before they are needed: the next screens in the
/// direction of scrolling (seed 003 preloads so that fast scrolling finds
/// pictures ready).
public enum PrefetchPlanner {
    /// The items in the band of `screens` viewports just past `visibleRect`
    /// in the direction of `velocity` along the layout's axis, nearest
    /// first; nothing at zero velocity (a finger resting on the screen).
    /// Items already visible are left out.
    ///
    /// Complexity: O(items in the band).
    public static func itemsToPrefetch(
        in layout: some ItemLayout, visibleRect: CGRect, velocity: CGPoint, screens: CGFloat = 1
    ) -> [ItemIndex] {
        let axis = layout.axis
        let speed = axis.main(velocity)
        guard speed != 0, speed.isFinite, screens.isFinite, screens > 0 else { return [] }
        let visible = axis.mainSpan(of: visibleRect)
        let length = visible.length * screens
        // Velocity is in content coordinates, like the offset it changes.
        let forward = speed > 0
        let band = forward ? Span(visible.upperBound, length) : Span(visible.lowerBound - length, length)
        let rect = axis.rect(main: band, cross: axis.crossSpan(of: visibleRect))
        var found: [(index: ItemIndex, distance: CGFloat)] = []
        layout.forEachItem(in: rect) { index, frame in
            guard !frame.isVisible(in: visibleRect) else { return }
            let span = axis.mainSpan(of: frame)
            found.append((index, forward ? span.lowerBound - visible.upperBound : visible.lowerBound - span.upperBound))
        }
        return found.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }.map(\.index)
    }
}
