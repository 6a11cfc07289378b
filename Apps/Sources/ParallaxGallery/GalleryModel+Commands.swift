#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// What the window's input asks of the model besides pinching: scrolling,
/// the effect and the simulated server's settings, reloads and retries.
extension GalleryModel {
    // MARK: Settings

    package func cycleEffect() { settings.effect = settings.effect.next }
    package func setEffect(_ effect: GalleryEffect) { settings.effect = effect }
    package func changeIntensity(by delta: CGFloat) { settings.intensity = min(max(settings.intensity + delta, 0), 3) }
    package func toggleReduceMotion() { settings.reduceMotion.toggle() }
    package func toggleSnapping() { settings.snapping.toggle() }

    package func cycleLatency() async {
        settings.latency = settings.latency.next
        await applyServerBehavior()
    }

    package func cycleFailureRate() async {
        let rates = [0.0, 0.1, 0.3]
        settings.failureRate = rates[((rates.firstIndex(of: settings.failureRate) ?? 0) + 1) % rates.count]
        await applyServerBehavior()
    }

    private func applyServerBehavior() async {
        await server.setBehavior(.init(latency: settings.latency.range, failureRate: settings.failureRate, seed: settings.seed))
    }

    // MARK: Reloading

    /// Forgets every download (safe mid-fling): every picture loads again.
    package func reloadAll() async {
        await loader.reloadAll()
        forgetCells()
    }

    /// Erases everything and fetches the list again (safe mid-fling).
    package func eraseAll() async {
        await loader.eraseAll()
        forgetCells()
        await loadPhotoList()
    }

    private func forgetCells() {
        pictures.forgetAll()
        planner.invalidate()
    }

    /// Tries a failed picture again.
    package func retry(item: Int) {
        pictures.forget(item: item)
    }

    // MARK: Scrolling

    package func scroll(by delta: CGFloat) {
        scroll.jump(to: scroll.position + delta)
    }

    /// Scrolls straight to `offset` (clamped), with no animation.
    package func jump(to offset: CGFloat) { scroll.jump(to: offset) }

    package func beginDrag() { scroll.beginDrag() }
    package func drag(by delta: CGFloat) { scroll.drag(by: delta) }

    package func endDrag(velocity: CGFloat) {
        scroll.endDrag(velocity: velocity, snap: snapRule(velocity: velocity))
    }

    package func fling(velocity: CGFloat) {
        scroll.fling(velocity: velocity, snap: snapRule(velocity: velocity))
    }

    /// Glides to `offset` (Home, End, a section's start). From further
    /// than ``longGlideScreens`` screens away it first jumps to a screen
    /// short of `offset` and glides the last screen: a glide slows
    /// exponentially (time constant 0.5 s), so from 60,000 points off (End
    /// in 3,000 photos) it reached the last screen only after two seconds
    /// over rows whose photos are not loaded while it moves; now the last
    /// screen is there at once, and the glide over it is the same.
    package func glide(to offset: CGFloat) {
        let destination = scroll.bounds.clamp(offset)
        let screen = max(viewportSize.height, 1)
        let remaining = destination - scroll.position
        if abs(remaining) > Self.longGlideScreens * screen {
            scroll.jump(to: destination - (remaining > 0 ? screen : -screen))
        }
        scroll.decelerate(to: destination)
    }

    /// How many screens away a glide to a place starts with a jump (``glide(to:)``).
    static let longGlideScreens: CGFloat = 3

    /// Glides `distance` further than where the scroll is heading (arrows,
    /// Page Up/Down): presses in quick succession add up, as in a browser,
    /// instead of each starting again from wherever the last glide has got to.
    package func glide(by distance: CGFloat) {
        scroll.decelerate(to: (scroll.target ?? scroll.position) + distance)
    }

    private func snapRule(velocity: CGFloat) -> (CGFloat) -> CGFloat {
        guard settings.snapping else { return { $0 } }
        let layout = self.layout, viewport = ScrollViewport(size: viewportSize)
        return { proposed in
            ScrollSnapping.restingOffset(proposed: CGPoint(x: 0, y: proposed), velocity: CGPoint(x: 0, y: velocity),
                                         in: layout, viewport: viewport).y
        }
    }
}
