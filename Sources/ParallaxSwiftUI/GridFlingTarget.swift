#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import SwiftUI

/// Where the scroll view said the last release will come to rest, handed
/// from its scroll target behaviour (which SwiftUI calls outside any actor)
/// to the grid's main-actor code, which takes it on the next scrolled frame.
///
/// A lock, not an actor: the behaviour must answer synchronously, and the
/// grid reads it once a scrolled frame. Complexity: O(1), uncontended.
final class GridFlingMailbox: @unchecked Sendable {
    /// A release: where it will rest along the axis, or `nil` for one
    /// without a fling (no velocity along the axis).
    struct Release: Sendable, Equatable {
        var restingOffset: CGFloat?
    }

    private let lock = NSLock()
    private var release: Release?

    /// Leaves `release` for the grid (replacing one it has not taken).
    func post(_ release: Release) {
        lock.lock()
        self.release = release
        lock.unlock()
    }

    /// The release posted since the last call, if any.
    func take() -> Release? {
        lock.lock()
        defer { lock.unlock() }
        let taken = release
        release = nil
        return taken
    }
}

#if canImport(SwiftUI, _version: 5.0)
/// A scroll target behaviour that changes nothing: it lets the scroll view
/// rest where it would and tells the grid where that is, so loading plans
/// the landing zone as soon as the finger lets go (as UIKit's controller
/// does from the pan gesture's velocity), from the scroll view's own
/// projection rather than a guess at its deceleration.
///
/// SwiftUI also asks when the container changes size; a target without
/// velocity along the axis is posted as no fling.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
struct GridFlingObserver: ScrollTargetBehavior {
    let mailbox: GridFlingMailbox

    func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {
        let velocity = context.velocity.dy
        let flings = velocity.isFinite && velocity != 0
        mailbox.post(GridFlingMailbox.Release(restingOffset: flings ? target.rect.minY : nil))
    }
}
#endif
#endif
