#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Converts between a layout's *logical* space (main = along the scroll
/// axis, cross = across it, both growing from the leading edge) and the
/// physical `CGRect`s a surface draws, including right-to-left mirroring.
///
/// Every layout computes in logical space once and maps at the edge, so
/// both axes and both reading directions come from one implementation.
/// Mirroring is its own inverse: the same flip maps a physical query
/// rectangle back into logical space.
@usableFromInline
struct AxisMapping: Sendable, Hashable {
    @usableFromInline let axis: ScrollAxis
    /// The content's extent along and across the axis.
    @usableFromInline let mainExtent: CGFloat
    @usableFromInline let crossExtent: CGFloat
    /// Horizontal right-to-left: the content starts at the right.
    @usableFromInline let mirrorsMain: Bool
    /// Vertical right-to-left: the first column is on the right.
    @usableFromInline let mirrorsCross: Bool

    init(axis: ScrollAxis, direction: LayoutDirection, mainExtent: CGFloat, crossExtent: CGFloat) {
        self.axis = axis
        self.mainExtent = mainExtent
        self.crossExtent = crossExtent
        self.mirrorsMain = axis == .horizontal && direction == .rightToLeft
        self.mirrorsCross = axis == .vertical && direction == .rightToLeft
    }

    /// The physical rectangle of a logical one.
    @inlinable
    func rect(main: Span, cross: Span) -> CGRect {
        var main = main, cross = cross
        if mirrorsMain { main.lowerBound = mainExtent - main.upperBound }
        if mirrorsCross { cross.lowerBound = crossExtent - cross.upperBound }
        return axis.rect(main: main, cross: cross)
    }

    /// A band across the whole content at `main` along the axis (a header or footer).
    func band(_ main: Span) -> CGRect {
        rect(main: main, cross: Span(0, crossExtent))
    }

    /// The logical spans of a physical rectangle.
    @inlinable
    func spans(of rect: CGRect) -> (main: Span, cross: Span) {
        var main = axis.mainSpan(of: rect), cross = axis.crossSpan(of: rect)
        if mirrorsMain { main.lowerBound = mainExtent - main.upperBound }
        if mirrorsCross { cross.lowerBound = crossExtent - cross.upperBound }
        return (main, cross)
    }

    /// A logical position along the axis as a physical one, or back.
    @inlinable
    func position(_ value: CGFloat) -> CGFloat { mirrorsMain ? mainExtent - value : value }

    /// Whether a query rectangle can be used at all (finite values).
    @inlinable
    static func isUsable(_ rect: CGRect) -> Bool {
        rect.origin.x.isFinite && rect.origin.y.isFinite && rect.size.width.isFinite && rect.size.height.isFinite
    }
}

/// Binary search over a sorted array of section starts (`starts.count ==
/// sections + 1`, the last element the content's end): the first section
/// whose end lies after `position`, or the number of sections if none does.
@inlinable
func firstSection(endingAfter position: CGFloat, in starts: [CGFloat]) -> Int {
    var low = 0, high = starts.count - 1
    while low < high {
        let mid = (low + high) / 2
        if starts[mid + 1] > position { high = mid } else { low = mid + 1 }
    }
    return low
}
