#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The direction a scroll view moves its content in.
///
/// Most of ParallaxKit is written once, in *axis-relative* terms: the **main**
/// axis is the one the content scrolls along, the **cross** axis the other
/// one. `ScrollAxis` converts between those terms and plain `x`/`y` geometry.
/// Every conversion is O(1) and allocation-free.
public enum ScrollAxis: String, Sendable, Hashable, CaseIterable, Codable {
    /// Content scrolls up and down (a list, a vertical grid).
    case vertical
    /// Content scrolls left and right (a carousel, a layered background).
    case horizontal

    /// The other axis.
    @inlinable public var crossAxis: ScrollAxis { self == .vertical ? .horizontal : .vertical }

    /// The component of `point` along this axis.
    @inlinable public func main(_ point: CGPoint) -> CGFloat { self == .vertical ? point.y : point.x }
    /// The component of `point` across this axis.
    @inlinable public func cross(_ point: CGPoint) -> CGFloat { self == .vertical ? point.x : point.y }

    /// The extent of `size` along this axis (height for vertical scrolling).
    @inlinable public func main(_ size: CGSize) -> CGFloat { self == .vertical ? size.height : size.width }
    /// The extent of `size` across this axis (width for vertical scrolling).
    @inlinable public func cross(_ size: CGSize) -> CGFloat { self == .vertical ? size.width : size.height }

    /// The span `rect` covers along this axis.
    @inlinable public func mainSpan(of rect: CGRect) -> Span {
        self == .vertical ? Span(rect.origin.y, rect.size.height) : Span(rect.origin.x, rect.size.width)
    }
    /// The span `rect` covers across this axis.
    @inlinable public func crossSpan(of rect: CGRect) -> Span {
        crossAxis.mainSpan(of: rect)
    }

    /// A point with `main` along this axis and `cross` across it.
    @inlinable public func point(main: CGFloat, cross: CGFloat) -> CGPoint {
        self == .vertical ? CGPoint(x: cross, y: main) : CGPoint(x: main, y: cross)
    }
    /// A size with `main` along this axis and `cross` across it.
    @inlinable public func size(main: CGFloat, cross: CGFloat) -> CGSize {
        self == .vertical ? CGSize(width: cross, height: main) : CGSize(width: main, height: cross)
    }
    /// A rectangle covering `main` along this axis and `cross` across it.
    @inlinable public func rect(main: Span, cross: Span) -> CGRect {
        CGRect(origin: point(main: main.lowerBound, cross: cross.lowerBound),
               size: size(main: main.length, cross: cross.length))
    }
}
