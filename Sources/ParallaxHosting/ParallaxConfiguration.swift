#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// How a scroll view's items show parallax: the effect, its axis and
/// strength, and what counts as the window the effect is measured against.
public struct ParallaxConfiguration: Sendable, Hashable {
    /// The effect every opted-in item gets.
    public var effect: ParallaxEffect
    /// The direction the scroll view scrolls.
    public var axis: ScrollAxis
    /// Scales the effect: 1 as designed, 0 none (see `ParallaxScroller.intensity`).
    public var intensity: CGFloat
    /// The part of the bounds the effect is measured against.
    public var window: ParallaxWindow
    /// Whether the system's Reduce Motion setting turns the motion off
    /// (content keeps its size, so images are not decoded again).
    public var respectsReduceMotion: Bool

    /// A configuration. The defaults are depth parallax of 30 pt (Ole
    /// Begemann's and Kurutepe's setting), vertical, full intensity, measured
    /// against the part of the bounds no bar covers, with Reduce Motion
    /// respected.
    public init(
        effect: ParallaxEffect = .default,
        axis: ScrollAxis = .vertical,
        intensity: CGFloat = 1,
        window: ParallaxWindow = .unobscured,
        respectsReduceMotion: Bool = true
    ) {
        self.effect = effect
        self.axis = axis
        self.intensity = intensity
        self.window = window
        self.respectsReduceMotion = respectsReduceMotion
    }
}

/// The rectangle a parallax effect is measured against.
public enum ParallaxWindow: Sendable, Hashable {
    /// The scroll view's whole bounds.
    case bounds
    /// The bounds minus the obscured insets along the scroll axis (bars,
    /// notch): a photo is centred in its cell when the cell is centred in
    /// the part of the screen the user actually sees, whatever the safe
    /// area. This is what existing libraries get wrong most often: they
    /// measure from a content offset of zero, so everything shifts by the
    /// navigation bar's height.
    case unobscured

    /// The window for `bounds` with `obscured` insets, scrolling along
    /// `axis`. Insets that leave nothing fall back to the whole bounds.
    ///
    /// Complexity: O(1).
    public func rect(in bounds: CGRect, obscured: EdgeInsets, axis: ScrollAxis) -> CGRect {
        guard self == .unobscured, obscured.isFinite else { return bounds }
        let lower = max(obscured.lowerInset(along: axis), 0)
        let upper = max(obscured.upperInset(along: axis), 0)
        let main = axis.mainSpan(of: bounds)
        let length = main.length - lower - upper
        guard length > 0 else { return bounds }
        return axis.rect(main: Span(main.lowerBound + lower, length), cross: axis.crossSpan(of: bounds))
    }
}
