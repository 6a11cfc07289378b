#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The stretch of content a scrolling view builds cells for: the visible
/// span along the scroll axis, widened by at least one step on each
/// side and snapped to whole steps, so it changes only when the viewport
/// moves into another step, never with every scrolled point.
///
/// A declarative view (SwiftUI's `DensityPinchGrid`) keeps only the band
/// in its state and derives it from the scroll geometry in a value
/// transform (Apple's `onGeometryChange(for:of:action:)` calls its action
/// only when the derived value changes): with the default step of a
/// quarter of the viewport, a screen of scrolling rebuilds the cells about
/// four times, whatever the display's frame rate, instead of once a frame.
/// The band always covers what is visible with a step to spare, so cells
/// are there before they scroll in.
///
/// The viewport is first kept within the content (as far as a scroll view
/// can rest), so rubber-banding past either end never changes the band.
///
/// Complexity: O(1), no allocation.
public struct ScrollBand: Sendable, Hashable {
    /// Where the band starts along the axis, in content coordinates.
    public var lower: CGFloat
    /// Where it ends.
    public var upper: CGFloat

    /// The band for content showing `visible` (the content rectangle on
    /// screen, in content coordinates) along `axis`, snapped to `step`
    /// (``defaultStep(viewportExtent:)`` when `nil`), within content
    /// `contentExtent` long. Non-finite or negative inputs count as 0.
    public init(visible: CGRect, axis: ScrollAxis, contentExtent: CGFloat, step: CGFloat? = nil) {
        let extent = contentExtent.isFinite ? max(contentExtent, 0) : 0
        let viewport = axis.main(visible.size)
        let step = step ?? Self.defaultStep(viewportExtent: viewport)
        let unit = step.isFinite && step > 0 ? step : 1
        let length = viewport.isFinite ? min(max(viewport, 0), extent) : 0
        // The start as far as the content lets a viewport go, so rubber-banding moves nothing.
        let origin = axis.main(visible.origin)
        let start = origin.isFinite ? min(max(origin, 0), extent - length) : 0
        let first = (start / unit).rounded(.down)
        let last = ((start + length) / unit).rounded(.down)
        lower = max((first - 1) * unit, 0)
        upper = min((last + 2) * unit, extent)
        if upper < lower { upper = lower }
    }

    /// A band as given.
    public init(lower: CGFloat, upper: CGFloat) {
        self.lower = lower
        self.upper = upper
    }

    /// A quarter of the viewport's length (at least one point): small
    /// enough that the band stays under two screens long, large enough that
    /// it changes a few times a screen.
    public static func defaultStep(viewportExtent: CGFloat) -> CGFloat {
        guard viewportExtent.isFinite else { return 1 }
        return max(viewportExtent / 4, 1)
    }

    /// The band as a rectangle of content `contentSize`: its span along
    /// `axis`, the whole content across it.
    public func rect(in contentSize: CGSize, axis: ScrollAxis) -> CGRect {
        axis.rect(main: Span(lower, upper - lower), cross: Span(0, axis.cross(contentSize)))
    }
}
