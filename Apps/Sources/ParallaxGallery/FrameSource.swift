#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxHosting
import ParallaxLayout

/// Where a frame's items come from: the layout at rest, a layout switch
/// under way, or a pinch being followed or settling. One enum, so the
/// gallery is in exactly one of them, and one function that lists the
/// frame's items whichever it is.
///
/// Complexity: O(visible items) per frame; the item buffers are reused
/// from frame to frame.
package struct FrameSource {
    /// What moves the items besides the scroll.
    package enum Motion {
        /// The layout shown at rest, at the scroll's offset.
        case resting
        /// A switch to another layout, animated from `startedAt` over
        /// ``FrameSource/switchDuration``.
        case switching(LayoutTransition<AnyItemLayout, AnyItemLayout>, startedAt: TimeInterval)
        /// A pinch to another column count, followed or settling.
        case pinching(ColumnPinch)
    }

    /// The duration of a layout switch.
    package static let switchDuration: TimeInterval = 0.35

    package private(set) var motion: Motion = .resting

    package init() {}

    /// Whether a switch is being animated.
    package var isSwitching: Bool {
        if case .switching = motion { return true } else { return false }
    }

    /// Whether a pinch is being followed or settling.
    package var isPinching: Bool {
        if case .pinching(let pinch) = motion { return pinch.isActive } else { return false }
    }

    /// Whether the items are where the resting layout puts them.
    package var isResting: Bool { !isSwitching && !isPinching }

    /// Animates `transition` from `now`.
    package mutating func beginSwitch(_ transition: LayoutTransition<AnyItemLayout, AnyItemLayout>, at now: TimeInterval) {
        motion = .switching(transition, startedAt: now)
    }

    /// Follows `pinch`, which has begun.
    package mutating func beginPinch(_ pinch: ColumnPinch) {
        motion = .pinching(pinch)
    }

    /// Changes the pinch being followed, if any.
    package mutating func updatePinch(_ change: (inout ColumnPinch) -> Void) {
        guard case .pinching(var pinch) = motion else { return }
        change(&pinch)
        motion = .pinching(pinch)
    }

    /// Back to the resting layout at once (a resize, a new list).
    package mutating func stop() {
        motion = .resting
    }

    /// Brings a settling pinch to rest at once, where it was heading, and
    /// returns it with its offset, so a new pinch can start from there;
    /// stops a switch.
    package mutating func finishMotion() -> (pinch: ColumnPinch, offset: CGPoint)? {
        defer { motion = .resting }
        guard case .pinching(var pinch) = motion, pinch.isActive, let offset = pinch.finishSettling() else { return nil }
        return (pinch, offset)
    }

    /// Moves time to `now`: a switch whose time is up ends; a settling pinch
    /// advances, and when it comes to rest it is returned with its offset
    /// for the gallery to show the layout it chose.
    package mutating func advance(to now: TimeInterval) -> (pinch: ColumnPinch, offset: CGPoint)? {
        switch motion {
        case .resting:
            return nil
        case .switching(_, let start):
            if now - start >= Self.switchDuration { motion = .resting }
            return nil
        case .pinching(var pinch):
            guard pinch.isActive else {
                motion = .resting
                return nil
            }
            // Fingers down, it follows them; settling, it moves on, and once it comes to rest the layout it
            // chose is shown where its last frame left the photos.
            let offset = pinch.contentOffset
            pinch.advance(to: now)
            guard !pinch.isActive else {
                motion = .pinching(pinch)
                return nil
            }
            motion = .resting
            return offset.map { (pinch, $0) }
        }
    }

    /// Lists the items of the frame at `now` into `frame`: those of
    /// `layout` in the viewport at `scrollOffset` at rest, else the
    /// switch's or the pinch's.
    package func frame(at now: TimeInterval, layout: AnyItemLayout, scrollOffset: CGFloat, viewportSize: CGSize,
                       into frame: inout ShownFrame) {
        frame.removeAll()
        switch motion {
        case .pinching(let pinch) where pinch.isActive && pinch.contentOffset != nil:
            frame.offset = pinch.contentOffset ?? .zero
            // Pictures at their size when the pinch began, stretched meanwhile: the ones on screen are
            // decoded already, and a new size per count would leave tiles blank while it decodes.
            let live = pinch.active
            let nearer = live.flatMap { $0.builtLayout(columns: $0.initialColumns) }
            let anchor = live?.anchor
            var anchorItem: (Int, CGRect)?
            pinch.forEachItem { index, itemFrame in
                frame.destinationSizes[index.item] = nearer?.frame(of: index)?.size
                // The photo under the fingers is drawn last: the ones that rewrap slide past underneath.
                if index == anchor { anchorItem = (index.item, itemFrame) } else { frame.items.append((index.item, itemFrame)) }
            }
            if let anchorItem { frame.items.append(anchorItem) }
            if let live { frame.pinch = (live, nearer) }
        case .switching(let transition, let start):
            let t = min(max((now - start) / Self.switchDuration, 0), 1)
            let progress = CGFloat(t * t * (3 - 2 * t))                       // smoothstep
            frame.offset = transition.contentOffset(at: progress)
            transition.forEachItem(at: progress) { index, itemFrame in
                frame.items.append((index.item, itemFrame))
                // Pictures are made once, at the size they will have when the switch ends, and stretched
                // meanwhile: interpolated sizes would ask for a new decode every frame.
                frame.destinationSizes[index.item] = transition.destination.frame(of: index)?.size
            }
        case .resting, .pinching:
            frame.offset = CGPoint(x: 0, y: scrollOffset)
            layout.forEachItem(in: CGRect(origin: frame.offset, size: viewportSize)) { index, itemFrame in
                frame.items.append((index.item, itemFrame))
            }
        }
    }
}

/// The items one frame shows, where, and at what size their pictures are
/// asked for.
package struct ShownFrame {
    /// The content offset the frame shows.
    package var offset: CGPoint = .zero
    /// Items and their frames in the content, in drawing order.
    package var items: [(item: Int, frame: CGRect)] = []
    /// The size an item's picture is asked for when it differs from its
    /// frame's: where a switch or a pinch is taking it.
    package var destinationSizes: [Int: CGSize] = [:]
    /// The pinch shown, with the layout at the count it began on.
    package var pinch: (live: DensityPinch<AnyItemLayout>, nearer: AnyItemLayout?)?

    package init() {}

    /// Empties the frame, keeping its storage for the next.
    package mutating func removeAll() {
        offset = .zero
        items.removeAll(keepingCapacity: true)
        destinationSizes.removeAll(keepingCapacity: true)
        pinch = nil
    }
}
