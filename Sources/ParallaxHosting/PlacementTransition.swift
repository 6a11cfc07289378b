#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// How a new placement reaches an item's content when the item itself may
/// be animating: a layout transition, batch updates, a rotation, a grid ↔
/// list switch.
///
/// The placement is always computed from the item's model frame (where it
/// is going, not where it is shown). Set outside the item's animation, the
/// content would jump to its final offset while the item slides; so:
/// - inside an animation block (UIKit's `inheritedAnimationDuration` > 0,
///   as when a resized cell lays itself out during the transition) it is
///   simply set, and UIKit animates it in the same animation
///   (``inherited``);
/// - when the item's layer runs a position or size animation that has not
///   ended, the content gets a copy of that animation (its timing, curve,
///   spring and begin time) from the old placement to the new
///   (``matching(_:)``, values from ``ContentAnimation``), so content and
///   item interpolate with the same progress at every frame;
/// - otherwise it is set at once (``immediate``).
///
/// Complexity: O(1).
public enum PlacementTransition: Sendable, Hashable {
    /// Set the placement now.
    case immediate
    /// Set it now: the surrounding animation block animates it.
    case inherited
    /// Set it now and add a copy of the item's animation to the content.
    case matching(ItemAnimation)

    /// The transition for a placement applied at media time `now`, while
    /// `inheritedAnimationDuration` is UIKit's for the current code and
    /// `itemAnimation` is the item's running frame animation, if any.
    public static func choose(inheritedAnimationDuration: TimeInterval, itemAnimation: ItemAnimation?,
                              now: Double) -> PlacementTransition {
        if inheritedAnimationDuration > 0 { return .inherited }
        if let itemAnimation, itemAnimation.isRunning(at: now) { return .matching(itemAnimation) }
        return .immediate
    }
}

/// An item's frame animation as the content must copy it: when it began,
/// how long it runs, and whether it is additive (UIKit's animations of
/// `position` and `bounds` run additively, from the old value minus the new
/// to zero, on top of the new model value).
public struct ItemAnimation: Sendable, Hashable {
    /// When it began, in media time (`CACurrentMediaTime()`).
    public var beginTime: Double
    /// How long it runs, in seconds (a spring's settling duration).
    public var duration: Double
    /// Whether it adds to the model value rather than replacing it.
    public var isAdditive: Bool

    /// An animation.
    public init(beginTime: Double, duration: Double, isAdditive: Bool) {
        self.beginTime = beginTime
        self.duration = duration
        self.isAdditive = isAdditive
    }

    /// Whether it still runs at media time `time`.
    public func isRunning(at time: Double) -> Bool {
        duration > 0 && duration.isFinite && time < beginTime + duration
    }
}

/// The from and to values a copy of an item's animation takes when it
/// moves the item's content from placement `old` to placement `new` (both
/// content frames in the parallax view's coordinates).
///
/// Additive (as UIKit's own): from `old − new` to zero, on top of the new
/// model value; absolute: from `old` to `new`. Either way, at progress `p`
/// of the shared timing the content shows `old + (new − old) · p`: the
/// offset the item's interpolated frame calls for, for effects linear in
/// the item's position, and never a jump at either end.
///
/// Complexity: O(1).
public struct ContentAnimation: Sendable, Hashable {
    /// The centre the animation starts from (a difference when additive).
    public var fromCenter: CGPoint
    /// The centre it ends at (zero when additive).
    public var toCenter: CGPoint
    /// The size it starts from (a difference when additive).
    public var fromSize: CGSize
    /// The size it ends at (zero when additive).
    public var toSize: CGSize
    /// Whether the values add to the model value.
    public var isAdditive: Bool

    /// The values that move content from `old` to `new` with `animation`.
    public init(matching animation: ItemAnimation, from old: CGRect, to new: CGRect) {
        isAdditive = animation.isAdditive
        if animation.isAdditive {
            fromCenter = CGPoint(x: old.midX - new.midX, y: old.midY - new.midY)
            toCenter = .zero
            fromSize = CGSize(width: old.width - new.width, height: old.height - new.height)
            toSize = .zero
        } else {
            fromCenter = CGPoint(x: old.midX, y: old.midY)
            toCenter = CGPoint(x: new.midX, y: new.midY)
            fromSize = old.size
            toSize = new.size
        }
    }

    /// Hashes every field (CoreGraphics' geometry is only Equatable in Apple SDKs before iOS 18).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(point: fromCenter)
        hasher.combine(point: toCenter)
        hasher.combine(size: fromSize)
        hasher.combine(size: toSize)
        hasher.combine(isAdditive)
    }

    /// Whether the centre changes (otherwise no position animation is needed).
    public var movesCentre: Bool { fromCenter != toCenter }
    /// Whether the size changes (otherwise no bounds animation is needed).
    public var changesSize: Bool { fromSize != toSize }

    /// What Core Animation shows at progress `progress` (the timing curve's
    /// output, 0 at the start and 1 at the end) when the model value is
    /// `model`: the presentation frame of the content.
    public func presentedFrame(atProgress progress: CGFloat, model: CGRect) -> CGRect {
        func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * progress }
        let centre = CGPoint(x: mix(fromCenter.x, toCenter.x), y: mix(fromCenter.y, toCenter.y))
        let size = CGSize(width: mix(fromSize.width, toSize.width), height: mix(fromSize.height, toSize.height))
        let shownCentre = isAdditive ? CGPoint(x: model.midX + centre.x, y: model.midY + centre.y) : centre
        let shownSize = isAdditive ? CGSize(width: model.width + size.width, height: model.height + size.height) : size
        return CGRect(x: shownCentre.x - shownSize.width / 2, y: shownCentre.y - shownSize.height / 2,
                      width: shownSize.width, height: shownSize.height)
    }
}
