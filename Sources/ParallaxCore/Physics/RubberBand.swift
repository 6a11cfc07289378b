#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The resistance a scroll view puts up when dragged past its end.
///
/// Uses the rubber-band curve commonly attributed to `UIScrollView`:
/// an overscroll of `x` is shown as `(1 − 1 / (x · c / d + 1)) · d`, where
/// `d` is the viewport's extent and `c` (0.55) the stiffness. The shown
/// distance grows ever slower and never reaches `d`.
public struct RubberBand: Sendable, Hashable {
    /// The stiffness `c`; UIKit's feel is 0.55.
    public var coefficient: CGFloat

    /// A rubber band of stiffness `coefficient` (0.55, UIKit's feel, by
    /// default). A coefficient that is not a positive finite number shows no
    /// overscroll at all: the content stops at the end.
    public init(coefficient: CGFloat = 0.55) { self.coefficient = coefficient }

    /// The distance shown for a raw overscroll of `overscroll` (either sign)
    /// in a viewport `dimension` long. Defined for all inputs: non-finite or
    /// non-positive dimensions show no overscroll.
    @inlinable
    public func displayed(overscroll: CGFloat, dimension: CGFloat) -> CGFloat {
        guard overscroll.isFinite, dimension.isFinite, dimension > 0,
              coefficient.isFinite, coefficient > 0 else { return 0 }
        let magnitude = (1 - 1 / (abs(overscroll) * coefficient / dimension + 1)) * dimension
        return overscroll < 0 ? -magnitude : magnitude
    }

    /// The raw overscroll that shows as `displayed`: the inverse of
    /// ``displayed(overscroll:dimension:)``, so a drag can resume from a
    /// rubber-banded position without a jump.
    @inlinable
    public func overscroll(displayed: CGFloat, dimension: CGFloat) -> CGFloat {
        guard displayed.isFinite, dimension.isFinite, dimension > 0,
              coefficient.isFinite, coefficient > 0 else { return 0 }
        let fraction = min(abs(displayed) / dimension, 0.999_999)
        let magnitude = (1 / (1 - fraction) - 1) * dimension / coefficient
        return displayed < 0 ? -magnitude : magnitude
    }

    /// `position` rubber-banded into `bounds`: unchanged inside, resisted outside.
    @inlinable
    public func constrain(_ position: CGFloat, to bounds: ClosedRange<CGFloat>, dimension: CGFloat) -> CGFloat {
        if position < bounds.lowerBound {
            return bounds.lowerBound + displayed(overscroll: position - bounds.lowerBound, dimension: dimension)
        }
        if position > bounds.upperBound {
            return bounds.upperBound + displayed(overscroll: position - bounds.upperBound, dimension: dimension)
        }
        return position
    }
}
