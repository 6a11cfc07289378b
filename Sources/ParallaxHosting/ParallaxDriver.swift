#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Gives every visible opted-in item of a scroll view its parallax
/// placement: the one decision a UIKit adapter makes per frame.
///
/// Kurutepe's rule: parallax reads geometry and never touches the
/// layout. The driver asks the host for the visible targets and their
/// frames, and hands each its `ParallaxPlacement`; nothing is stored per
/// item and nothing is allocated.
///
/// Updates are idempotent (the placement depends on geometry only), so the
/// host may call ``update(_:)`` as often as it likes: after a scroll, when a
/// cell appears, after a rotation, an inset change or a reload. An update
/// that starts while another runs (a host whose `apply` makes the scroll
/// view report a change, as content-offset observers do) is not run inside
/// the first: it is recorded, and the running update makes one more pass
/// when it finishes. That is the re-entrancy other libraries crashed on.
///
/// Complexity: O(visible targets) per update, no allocation.
@MainActor
public final class ParallaxDriver<Host: ParallaxScrollHost> {
    /// The effect and its settings. Takes effect at the next update.
    public var configuration: ParallaxConfiguration

    /// The most passes one update makes when passes keep being requested
    /// from inside it (a host that reports a change on every `apply`).
    public static var maximumPasses: Int { 4 }

    /// What the driver has done, for diagnostics and tests.
    public typealias Statistics = ParallaxDriverStatistics

    /// What the driver has done so far.
    public private(set) var statistics = Statistics()
    private var isUpdating = false
    private var needsAnotherPass = false

    /// A driver applying `configuration`: by default depth parallax of 30 pt,
    /// vertical, measured against the unobscured part of the bounds, with
    /// Reduce Motion respected.
    public init(configuration: ParallaxConfiguration = ParallaxConfiguration()) {
        self.configuration = configuration
    }

    /// The scroller for `host` right now: the configuration, plus the
    /// host's reading direction and Reduce Motion setting.
    public func scroller(for host: Host) -> ParallaxScroller {
        ParallaxScroller(
            effect: configuration.effect,
            axis: configuration.axis,
            layoutDirection: host.effectiveLayoutDirection,
            intensity: configuration.intensity,
            isReduceMotionEnabled: configuration.respectsReduceMotion && host.isReduceMotionEnabled)
    }

    /// The rectangle, in content coordinates, the effect is measured against.
    public func window(for host: Host) -> CGRect {
        configuration.window.rect(in: host.visibleBounds, obscured: host.obscuredInsets, axis: configuration.axis)
    }

    /// Places every visible opted-in target of `host`. Returns how many
    /// targets the last pass placed (0 for a nested call, which only asks
    /// the running update for another pass).
    @discardableResult
    public func update(_ host: Host) -> Int {
        if isUpdating {
            needsAnotherPass = true
            statistics.nestedRequests += 1
            return 0
        }
        isUpdating = true
        defer { isUpdating = false }
        var placed = 0
        var passes = 0
        repeat {
            needsAnotherPass = false
            passes += 1
            placed = pass(over: host)
        } while needsAnotherPass && passes < Self.maximumPasses
        needsAnotherPass = false
        statistics.updates += 1
        statistics.passes += passes
        return placed
    }

    private func pass(over host: Host) -> Int {
        let placer = scroller(for: host).placer(for: window(for: host))
        var placed = 0
        host.forEachParallaxTarget { target, frame in
            host.apply(placer.placement(forItemFrame: frame), to: target)
            placed += 1
        }
        statistics.placements += placed
        return placed
    }
}
