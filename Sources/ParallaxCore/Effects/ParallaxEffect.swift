#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// How the content of an item (typically a photo inside a cell) moves while
/// the item scrolls past.
///
/// Every effect here is one model: **the content moves at a rate `k` of the
/// item's speed around an anchor.** When the item's anchor point (its centre,
/// or its leading edge) lines up with the viewport's anchor point, the content
/// sits at rest; elsewhere it is displaced by
///
///     offset = (viewport.anchor − item.anchor) · (1 − k)
///
/// so it lags behind the item. The named effects are parameterisations:
///
/// - ``depth(maxOffset:)`` (Ole Begemann's parallax layout, Kurutepe's
///   category, RHParallaxScroller): anchor at the centre, `k` chosen so the
///   offset runs from `−P` to `+P` while the item crosses the viewport,
///   `offset = (viewport.mid − item.mid) · P / (V/2 + h/2)`, clamped to `±P`.
///   The content is `h + 2P` long so it never shows an edge.
/// - ``window`` (FeParallaxTableView part 1): `k = 0`; the content is
///   viewport-sized and stands still on screen, so the item is a window onto
///   a fixed picture.
/// - ``window(rate:anchor:)`` (FeParallaxTableView part 2): `0 < k < 1`; the
///   viewport-sized content drifts at `k` of the item's speed, e.g. `200/H`.
/// - ``none``: `k = 1`, content glued to the item.
///
/// Effects are values: cheap to copy, compare and store in configuration.
/// Evaluating one (``solve(item:viewport:intensity:reduceMotion:mirrorsAnchor:)``)
/// is O(1), pure and allocation-free.
public struct ParallaxEffect: Sendable, Hashable {
    /// The two ways of choosing the rate `k`.
    public enum Motion: Sendable, Hashable {
        /// `k` derived from a maximum displacement, anchor at the centre,
        /// content overscanned by the displacement on both ends.
        case depth(ParallaxAmount)
        /// A fixed rate `k` in `0...1` around `anchor` (0 = leading edge,
        /// 0.5 = centre, 1 = trailing edge), content at least viewport-sized.
        case rate(CGFloat, anchor: CGFloat)
    }

    /// How the rate is chosen.
    public var motion: Motion

    /// An effect whose rate is chosen by `motion`. The named effects
    /// (``depth(maxOffset:)``, ``window``, ``window(rate:anchor:)``, ``none``)
    /// are the usual way to make one; every value is accepted and
    /// ``solve(item:viewport:intensity:reduceMotion:mirrorsAnchor:)`` gives
    /// even a negative or NaN setting a defined result.
    @inlinable public init(motion: Motion) { self.motion = motion }

    /// Depth parallax: the content shifts at most `maxOffset` points either
    /// way. Ole Begemann and Kurutepe use 30 pt, the default.
    public static func depth(maxOffset: CGFloat = 30) -> ParallaxEffect {
        ParallaxEffect(motion: .depth(.points(maxOffset)))
    }

    /// Depth parallax with an amount that may scale with the item.
    public static func depth(_ amount: ParallaxAmount) -> ParallaxEffect {
        ParallaxEffect(motion: .depth(amount))
    }

    /// A fixed background: viewport-sized content that stands still on screen.
    public static let window = ParallaxEffect(motion: .rate(0, anchor: 0))

    /// Viewport-sized content moving at `rate` of the item's speed, at rest
    /// when the item's `anchor` point meets the viewport's. FeParallaxTableView
    /// part 2 uses `rate: 200 / viewportHeight` with the anchor at the top.
    /// A rate outside `0...1` (or NaN) is clamped into it (NaN reads as 1).
    public static func window(rate: CGFloat, anchor: CGFloat = 0) -> ParallaxEffect {
        ParallaxEffect(motion: .rate(rate, anchor: anchor))
    }

    /// No parallax: the content is the item's size and moves with it.
    public static let none = ParallaxEffect(motion: .depth(.points(0)))

    /// Depth parallax of 30 pt, as in Ole Begemann's and Kurutepe's posts.
    public static let `default` = ParallaxEffect.depth(maxOffset: 30)

    /// RHParallaxScroller's grid setting: 10 pt of depth.
    public static let gridDefault = ParallaxEffect.depth(.points(10))

    /// RHParallaxScroller's list setting: depth of 10 % of the cell's extent.
    public static let listDefault = ParallaxEffect.depth(.fractionOfItem(0.1))

    /// Where the content goes for one item, along the scroll axis.
    ///
    /// - Parameters:
    ///   - item: the item's span along the scroll axis, in the same
    ///     coordinates as `viewport` (content or screen coordinates).
    ///   - viewport: the visible span along the scroll axis.
    ///   - intensity: multiplies the displacement (1 = as designed, 0 = off).
    ///     For viewport-sized content the displacement cannot exceed standing
    ///     still, so `1 − k` is capped at 1.
    ///   - reduceMotion: when `true` the displacement is zero while the
    ///     content keeps its size, so switching it never re-sizes images.
    ///   - mirrorsAnchor: read the anchor from the trailing edge (a
    ///     right-to-left horizontal layout, whose leading edge is on the right).
    /// - Returns: the displacement and the content's span relative to the
    ///   item's start. Any non-finite or negative input gives a defined result:
    ///   no displacement and content the size of the item. Finite input, however
    ///   large, gives finite output: the depth (the amount times the intensity)
    ///   is capped so the content's length, `h + 2P`, stays representable, and
    ///   where the plain formula would overflow on the way (coordinates near
    ///   `CGFloat.greatestFiniteMagnitude`) the same formula is evaluated on
    ///   scaled-down values. Ordinary values never reach either path, so their
    ///   results are exactly the plain formula's.
    ///
    /// Complexity: O(1), no allocation. To place many items in one viewport,
    /// ``evaluator(viewport:intensity:reduceMotion:mirrorsAnchor:)`` does the
    /// per-viewport work once.
    @inlinable
    public func solve(
        item: Span, viewport: Span,
        intensity: CGFloat = 1, reduceMotion: Bool = false, mirrorsAnchor: Bool = false
    ) -> ParallaxSolution {
        evaluator(viewport: viewport, intensity: intensity, reduceMotion: reduceMotion, mirrorsAnchor: mirrorsAnchor)
            .solve(item: item)
    }

    /// The effect prepared for one viewport and one set of settings: what a
    /// frame computes once before placing every visible item.
    @inlinable
    public func evaluator(
        viewport: Span, intensity: CGFloat = 1, reduceMotion: Bool = false, mirrorsAnchor: Bool = false
    ) -> Evaluator {
        Evaluator(effect: self, viewport: viewport, intensity: intensity,
                  reduceMotion: reduceMotion, mirrorsAnchor: mirrorsAnchor)
    }

    /// A ``ParallaxEffect`` prepared for one viewport: the single
    /// implementation of the family's formula (see ``ParallaxEffect``).
    @frozen
    public struct Evaluator: Sendable {
        /// 0.5 for depth; the (possibly mirrored) anchor for a rate.
        @usableFromInline let anchor: CGFloat
        /// Depth: the maximum displacement in points, or per point of item
        /// length (`fractionOfItem`), times the intensity; a product too large
        /// to represent is `greatestFiniteMagnitude` (``solve(item:)`` caps
        /// the sum per item). Unused for a rate.
        @usableFromInline let depthPoints: CGFloat
        @usableFromInline let depthFraction: CGFloat
        @usableFromInline let isDepth: Bool
        /// Rate: `1 − k`, times the intensity, at most 1.
        @usableFromInline let rateTravel: CGFloat
        @usableFromInline let viewportStart: CGFloat
        @usableFromInline let viewportLength: CGFloat
        /// Whether displacement is suppressed (Reduce Motion) or impossible
        /// (non-finite settings or viewport).
        @usableFromInline let isStill: Bool
        @usableFromInline let isValid: Bool

        @inlinable
        init(effect: ParallaxEffect, viewport: Span, intensity: CGFloat, reduceMotion: Bool, mirrorsAnchor: Bool) {
            isValid = viewport.isFinite && intensity.isFinite
            let strength = isValid ? max(intensity, 0) : 0
            viewportStart = viewport.lowerBound
            viewportLength = max(viewport.length, 0)
            isStill = reduceMotion
            switch effect.motion {
            case .depth(let amount):
                isDepth = true
                anchor = 0.5
                rateTravel = 0
                switch amount {
                case .points:
                    depthPoints = Self.product(amount.resolved(forItemLength: 0), strength)
                    depthFraction = 0
                case .fractionOfItem(let fraction):
                    depthPoints = 0
                    depthFraction = fraction.isFinite && fraction > 0 ? Self.product(fraction, strength) : 0
                }
            case .rate(let rate, let rawAnchor):
                isDepth = false
                depthPoints = 0
                depthFraction = 0
                let k = rate.isNaN ? 1 : min(max(rate, 0), 1)
                let a = rawAnchor.isFinite ? min(max(rawAnchor, 0), 1) : 0
                anchor = mirrorsAnchor ? 1 - a : a
                rateTravel = min((1 - k) * strength, 1)
            }
        }

        /// `a × b` for finite `a, b ≥ 0`, with an overflow read as the
        /// largest finite value instead of infinity.
        @inlinable
        static func product(_ a: CGFloat, _ b: CGFloat) -> CGFloat {
            let value = a * b
            return value.isFinite ? value : .greatestFiniteMagnitude
        }

        /// Where the content goes for an item spanning `item`.
        ///
        /// Finite input always gives finite output (see
        /// ``ParallaxEffect/solve(item:viewport:intensity:reduceMotion:mirrorsAnchor:)``).
        ///
        /// Complexity: O(1), no allocation.
        @inlinable
        public func solve(item: Span) -> ParallaxSolution {
            let itemLength = item.length.isFinite ? max(item.length, 0) : 0
            guard isValid, item.isFinite else {
                return ParallaxSolution(offset: 0, contentLowerBound: 0, contentLength: itemLength)
            }
            let travel: CGFloat         // 1 − k: the share of the item's motion the content does not follow
            let limit: CGFloat          // the largest displacement allowed
            let contentLength: CGFloat
            var crossing: CGFloat = 0   // depth: the distance the item travels while visible
            if isDepth {
                // Capped so that the content, itemLength + 2 · maxOffset, stays finite.
                let maxOffset = min(depthPoints + depthFraction * itemLength,
                                    (.greatestFiniteMagnitude - itemLength) / 2)
                crossing = viewportLength + itemLength
                travel = crossing > 0 ? 2 * maxOffset / crossing : 0
                limit = maxOffset
                contentLength = itemLength + 2 * maxOffset
            } else {
                travel = rateTravel
                limit = .infinity
                contentLength = max(viewportLength, itemLength)
            }
            let viewportAnchor = viewportStart + anchor * viewportLength
            let displacement = isStill ? 0 : (viewportAnchor - (item.lowerBound + anchor * itemLength)) * travel
            if displacement.isFinite, crossing.isFinite {
                let offset = min(max(displacement, -limit), limit)
                // The content's anchor point sits on the item's anchor point, displaced.
                let lower = anchor * (itemLength - contentLength) + offset
                let centreOffset = lower + contentLength / 2 - itemLength / 2
                if lower.isFinite, centreOffset.isFinite {
                    return ParallaxSolution(offset: centreOffset, contentLowerBound: lower, contentLength: contentLength)
                }
            }
            return scaledSolution(item: item, itemLength: itemLength, limit: limit, contentLength: contentLength)
        }

        /// ``solve(item:)`` for coordinates so large that the plain formula
        /// overflows on the way: the same formula on quarter-size values,
        /// whose sums and differences of finite inputs cannot overflow.
        ///
        /// Depth keeps its exact meaning (`±P` once the item has crossed
        /// half its travel). A rate, which has no limit of its own, is held
        /// within the displacement that keeps the content's position finite;
        /// the item is then far off screen, where the position is not seen.
        @inlinable
        func scaledSolution(item: Span, itemLength: CGFloat, limit: CGFloat, contentLength: CGFloat) -> ParallaxSolution {
            let quarter: CGFloat = 0.25
            // (viewportAnchor − itemAnchor) / 4, each term at most ¾ of the largest magnitude.
            let difference = (viewportStart * quarter - item.lowerBound * quarter)
                + anchor * (viewportLength * quarter - itemLength * quarter)
            let offset: CGFloat
            if isStill {
                offset = 0
            } else if isDepth {
                let crossing = viewportLength * quarter + itemLength * quarter
                // displacement = difference · 2P / crossing, clamped to ±P; the ratio may be infinite, never NaN.
                offset = crossing > 0 && limit > 0 ? min(max(difference / crossing * (2 * limit), -limit), limit) : 0
            } else {
                let bound = (.greatestFiniteMagnitude - contentLength) / 2 * quarter
                offset = min(max(difference * rateTravel, -bound), bound) / quarter
            }
            let lower = anchor * (itemLength - contentLength) + offset
            // lower + contentLength / 2 − itemLength / 2, without the huge intermediate sum that would round
            // the offset away (for depth, whose anchor is the centre, this is the offset itself).
            let centreOffset = (contentLength - itemLength) * (0.5 - anchor) + offset
            return ParallaxSolution(offset: centreOffset, contentLowerBound: lower, contentLength: contentLength)
        }
    }
}

/// The result of evaluating a ``ParallaxEffect`` for one item along the
/// scroll axis.
@frozen
public struct ParallaxSolution: Sendable, Hashable {
    /// How far the content's centre sits from the item's centre: what a
    /// centre constraint (Kurutepe's `updateWithParallaxOffset:`) is set to.
    public var offset: CGFloat
    /// Where the content starts, relative to the item's own start.
    public var contentLowerBound: CGFloat
    /// How long the content is: long enough that it never shows an edge
    /// while the item is on screen.
    public var contentLength: CGFloat

    /// A solution with the given displacement and content span, in points
    /// along the scroll axis (the content's start relative to the item's
    /// start). Values are stored as given; ``ParallaxEffect`` makes these.
    @inlinable
    public init(offset: CGFloat, contentLowerBound: CGFloat, contentLength: CGFloat) {
        self.offset = offset
        self.contentLowerBound = contentLowerBound
        self.contentLength = contentLength
    }

    /// The content's span relative to the item's start.
    @inlinable public var content: Span { Span(contentLowerBound, contentLength) }
}
