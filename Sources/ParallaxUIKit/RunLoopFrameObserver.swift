#if canImport(UIKit)
import UIKit

/// Calls a closure whenever Core Animation is about to commit from the main
/// run loop: before the run loop sleeps, and when it exits (UIKit leaves
/// and re-enters the run loop to switch to and from its tracking mode at
/// touch-down and lift-off, and commits there too). That is after touches,
/// scroll animations, rotations and reloads have changed things, and before
/// anything reaches the screen. The closure runs on every such wake, so it
/// should return at once when nothing changed.
///
/// This is how ParallaxKit hooks into a scroll view without becoming its
/// delegate and without observing `contentOffset`: observers of
/// `contentOffset` run in the middle of UIKit's own update (where a layout
/// pass or a change of the offset re-enters them, the crash other libraries
/// shipped) and before new cells exist (so appearing cells got no offset
/// until the next scroll). Here the work runs at a quiet point, once per
/// frame, when UIKit has nothing half done.
///
/// Core Animation's commit observer has order 2,000,000 and UIKit's own
/// pre-commit handler 1,999,000; this observer's order lies between them,
/// so it runs after UIKit's preparations and before the commit, in the
/// same turn.
@MainActor
final class RunLoopFrameObserver {
    private nonisolated(unsafe) var observer: CFRunLoopObserver?

    init(_ body: @escaping @MainActor () -> Void) {
        let observer = CFRunLoopObserverCreateWithHandler(
            kCFAllocatorDefault, CFRunLoopActivity([.beforeWaiting, .exit]).rawValue, true, 1_999_500
        ) { _, _ in
            // Formed on the main actor and not Sendable, so it stays there: the
            // observer is added to the main run loop only.
            body()
        }
        self.observer = observer
        CFRunLoopAddObserver(CFRunLoopGetMain(), observer, .commonModes)
    }

    /// Stops calling the closure.
    func invalidate() {
        if let observer { CFRunLoopObserverInvalidate(observer) }
        observer = nil
    }

    deinit {
        if let observer { CFRunLoopObserverInvalidate(observer) }
    }
}
#endif
