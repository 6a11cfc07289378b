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

    /// Glides to `offset` (Home, End).
    package func glide(to offset: CGFloat) {
        scroll.decelerate(to: offset)
    }

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
