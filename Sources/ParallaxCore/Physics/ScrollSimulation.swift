#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// A toolkit-independent model of a scroll view along one axis: dragging
/// with rubber-banding past the ends, flinging with exponential
/// deceleration, bouncing back, and settling on a target chosen before the
/// fling ends (snapping).
///
/// It drives the Linux gallery, simulations and benchmarks the way
/// `UIScrollView` drives an iOS app. Every motion is integrated in closed
/// form, so the path does not depend on the frame rate: stepping 1/120 s
/// twice lands exactly where stepping 1/60 s once does.
///
/// The simulation is a value with a single owner (the render loop): no
/// locks, no shared state.
public struct ScrollSimulation: Sendable {
    /// What the scroll view is doing.
    public enum Phase: Sendable, Hashable {
        /// At rest.
        case idle
        /// Following a finger.
        case dragging
        /// Slowing down towards ``ScrollSimulation/target``.
        case decelerating
        /// Springing back to an end after overscrolling.
        case bouncing
    }

    /// The offsets the scroll view can rest at (see ``ScrollViewport/offsetRange(contentExtent:along:)``).
    public var bounds: ClosedRange<CGFloat>
    /// The viewport's extent along the axis, the scale of the rubber band.
    public var viewportExtent: CGFloat
    /// How quickly flings slow down.
    public var decelerationRate: DecelerationRate
    /// The resistance past the ends.
    public var rubberBand: RubberBand
    /// The bounce-back spring's natural frequency (per second); critically
    /// damped, so it never oscillates. 12/s settles in about half a second.
    public var bounceFrequency: CGFloat

    /// The displayed offset.
    public private(set) var position: CGFloat
    /// The current velocity, in points per second.
    public private(set) var velocity: CGFloat = 0
    /// What the scroll view is doing.
    public private(set) var phase: Phase = .idle
    /// Where a deceleration will come to rest; `nil` unless decelerating
    /// towards a chosen target.
    public private(set) var target: CGFloat?

    // Drag: the unconstrained offset the finger has asked for.
    private var rawDragPosition: CGFloat = 0
    // Deceleration: position(t) = end − distance · e^(−λt); bounce: position(t) = rest + (x₀ + (v₀ + ωx₀)t)·e^(−ωt).
    private var motionStart: CGFloat = 0
    private var motionEnd: CGFloat = 0
    private var motionVelocity: CGFloat = 0
    private var elapsed: CGFloat = 0

    /// Distances below this (a quarter point) count as arrived.
    public static let restingTolerance: CGFloat = 0.25

    /// A scroll view at rest at `position` (the lower bound when `position`
    /// is not finite) that can rest anywhere in `bounds`. `viewportExtent`
    /// scales the rubber band; flings slow down at `decelerationRate`
    /// (UIKit's normal rate by default) and bounce back at `bounceFrequency`
    /// per second, which falls back to 12 unless it is positive and finite.
    public init(
        position: CGFloat = 0,
        bounds: ClosedRange<CGFloat>,
        viewportExtent: CGFloat,
        decelerationRate: DecelerationRate = .normal,
        rubberBand: RubberBand = RubberBand(),
        bounceFrequency: CGFloat = 12
    ) {
        self.bounds = bounds
        self.viewportExtent = viewportExtent
        self.decelerationRate = decelerationRate
        self.rubberBand = rubberBand
        self.bounceFrequency = bounceFrequency.isFinite && bounceFrequency > 0 ? bounceFrequency : 12
        self.position = position.isFinite ? position : bounds.lowerBound
    }

    /// Whether nothing is moving.
    public var isAtRest: Bool { phase == .idle }

    /// Where a fling at `velocity` from the current position would come to
    /// rest if nothing stopped it: the point a snapping rule should look at.
    public func projectedPosition(forVelocity velocity: CGFloat) -> CGFloat {
        position + decelerationRate.distance(forVelocity: velocity)
    }

    // MARK: Dragging

    /// A finger lands: any motion stops where it is.
    public mutating func beginDrag() {
        rawDragPosition = bounds.lowerBound > position || position > bounds.upperBound
            ? nearestBound(to: position) + rubberBand.overscroll(displayed: position - nearestBound(to: position),
                                                                 dimension: viewportExtent)
            : position
        velocity = 0
        target = nil
        phase = .dragging
    }

    /// The finger moved the content offset by `delta` (positive scrolls
    /// forward). Past the ends the motion is rubber-banded.
    public mutating func drag(by delta: CGFloat) {
        guard delta.isFinite else { return }
        if phase != .dragging { beginDrag() }
        rawDragPosition += delta
        position = rubberBand.constrain(rawDragPosition, to: bounds, dimension: viewportExtent)
    }

    /// The finger lifts with `velocity` (points per second, in offset
    /// direction). `snap` receives the projected resting position and
    /// returns where the scroll should rest instead; the fling is then bent
    /// to land exactly there. Returns the chosen resting position.
    ///
    /// - A release past an end bounces back to it.
    /// - A fling whose (snapped) target lies past an end decelerates
    ///   naturally, overshoots the end and bounces back, as UIKit does.
    @discardableResult
    public mutating func endDrag(velocity: CGFloat, snap: (CGFloat) -> CGFloat = { $0 }) -> CGFloat {
        let v = velocity.isFinite ? velocity : 0
        if position < bounds.lowerBound || position > bounds.upperBound {
            startBounce(velocity: v)
            return nearestBound(to: position)
        }
        return fling(velocity: v, snap: snap)
    }

    /// Starts a fling from the current position (also for a wheel or a
    /// trackpad's momentum). See ``endDrag(velocity:snap:)``.
    @discardableResult
    public mutating func fling(velocity: CGFloat, snap: (CGFloat) -> CGFloat = { $0 }) -> CGFloat {
        let v = velocity.isFinite ? velocity : 0
        let natural = projectedPosition(forVelocity: v)
        let chosen = snap(natural)
        let destination = chosen.isFinite ? chosen : natural
        if !bounds.contains(position), !bounds.contains(destination) {
            startBounce(velocity: v)            // already past an end (mid-bounce) and going nowhere inside: spring back
            return nearestBound(to: position)
        }
        if bounds.contains(destination) {
            decelerate(to: destination)
            return destination
        }
        // Past an end: decelerate naturally and let the bound catch it.
        motionStart = position
        motionEnd = natural
        elapsed = 0
        self.velocity = v
        target = nil
        phase = abs(natural - position) < Self.restingTolerance ? .idle : .decelerating
        return nearestBound(to: natural)
    }

    /// Glides to `destination` (clamped to the bounds) along the
    /// deceleration curve, as a key press or a snap would.
    public mutating func decelerate(to destination: CGFloat) {
        let end = bounds.clamp(destination)
        motionStart = position
        motionEnd = end
        elapsed = 0
        velocity = (end - position) * decelerationRate.decayPerSecond
        target = end
        phase = abs(end - position) < Self.restingTolerance ? .idle : .decelerating
        if phase == .idle { position = end; velocity = 0 }
    }

    /// Jumps to `destination` (clamped) and stops.
    public mutating func jump(to destination: CGFloat) {
        position = bounds.clamp(destination)
        velocity = 0
        target = nil
        phase = .idle
    }

    /// Moves the scroll position, and whatever motion is under way, by
    /// `delta`: the content moved under the viewport (items above it changed
    /// size, a layout was rebuilt keeping the user's place), so a fling goes
    /// on at the same speed towards a target moved by as much, and a finger
    /// keeps holding the same point. Call ``updateBounds(_:viewportExtent:)``
    /// afterwards when the content's extent changed too. A non-finite
    /// `delta` is ignored.
    public mutating func shift(by delta: CGFloat) {
        guard delta.isFinite, delta != 0 else { return }
        position += delta
        switch phase {
        case .idle:
            break
        case .dragging:
            rawDragPosition += delta
        case .decelerating:
            motionStart += delta
            motionEnd += delta
            target = target.map { $0 + delta }
        case .bouncing:
            // The bounce aims at an end of the bounds, which did not move: aim again from here.
            startBounce(velocity: velocity)
        }
    }

    /// Changes the bounds (content or viewport size changed). A position
    /// left outside them bounces back unless a finger holds it.
    public mutating func updateBounds(_ newBounds: ClosedRange<CGFloat>, viewportExtent: CGFloat) {
        bounds = newBounds
        self.viewportExtent = viewportExtent
        if let end = target, !newBounds.contains(end) { decelerate(to: end) }
        if phase == .idle, !newBounds.contains(position) { startBounce(velocity: 0) }
    }

    // MARK: Time

    /// Advances the motion by `seconds`. Returns whether anything moved.
    @discardableResult
    public mutating func advance(by seconds: CGFloat) -> Bool {
        guard seconds.isFinite, seconds > 0 else { return false }
        switch phase {
        case .idle, .dragging:
            return false
        case .decelerating:
            elapsed += seconds
            let lambda = decelerationRate.decayPerSecond
            let decay = exp(-lambda * elapsed)
            let remaining = (motionEnd - motionStart) * decay
            position = motionEnd - remaining
            velocity = remaining * lambda
            if position < bounds.lowerBound || position > bounds.upperBound {
                startBounce(velocity: velocity)
            } else if abs(remaining) < Self.restingTolerance {
                position = target ?? motionEnd
                stop()
            }
        case .bouncing:
            elapsed += seconds
            let omega = bounceFrequency
            let decay = exp(-omega * elapsed)
            let x = (motionStart + (motionVelocity + omega * motionStart) * elapsed) * decay
            velocity = (motionVelocity - omega * (motionVelocity + omega * motionStart) * elapsed) * decay
            position = motionEnd + x
            if abs(x) < Self.restingTolerance, abs(velocity) < 10 * Self.restingTolerance * omega {
                position = motionEnd
                stop()
            }
        }
        return true
    }

    // MARK: Private

    private func nearestBound(to value: CGFloat) -> CGFloat {
        value < bounds.lowerBound ? bounds.lowerBound : (value > bounds.upperBound ? bounds.upperBound : value)
    }

    private mutating func startBounce(velocity v: CGFloat) {
        let rest = nearestBound(to: position)
        motionEnd = rest
        motionStart = position - rest          // x₀, relative to the resting end
        motionVelocity = v
        elapsed = 0
        velocity = v
        target = rest
        phase = .bouncing
        if abs(motionStart) < Self.restingTolerance && abs(v) < Self.restingTolerance {
            position = rest
            stop()
        }
    }

    private mutating func stop() {
        velocity = 0
        target = nil
        phase = .idle
    }
}
