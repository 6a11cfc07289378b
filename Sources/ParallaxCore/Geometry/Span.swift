#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// A one-dimensional interval: where something starts along an axis and how
/// long it is.
///
/// Parallax and layout maths is one-dimensional along the scroll axis; `Span`
/// keeps it readable (`item.mid`, `viewport.upperBound`) without dragging the
/// other axis along.
@frozen
public struct Span: Sendable, Hashable {
    /// Where the span starts.
    public var lowerBound: CGFloat
    /// How long the span is (may be zero).
    public var length: CGFloat

    /// The span that starts at `lowerBound` and is `length` long. Neither is
    /// checked: a negative or non-finite value is kept as given (``isFinite``
    /// tells), and parallax gives an item with a non-finite span no
    /// displacement.
    @inlinable public init(_ lowerBound: CGFloat, _ length: CGFloat) {
        self.lowerBound = lowerBound
        self.length = length
    }

    /// Where the span ends.
    @inlinable public var upperBound: CGFloat { lowerBound + length }
    /// The centre of the span.
    @inlinable public var mid: CGFloat { lowerBound + length / 2 }
    /// The point a fraction `anchor` of the way along the span (0 = start, 1 = end).
    @inlinable public func point(at anchor: CGFloat) -> CGFloat { lowerBound + anchor * length }

    /// Whether the two spans share more than a boundary point.
    @inlinable public func overlaps(_ other: Span) -> Bool {
        lowerBound < other.upperBound && other.lowerBound < upperBound
    }

    /// Whether every value is a finite number.
    @inlinable public var isFinite: Bool { lowerBound.isFinite && length.isFinite }
}
