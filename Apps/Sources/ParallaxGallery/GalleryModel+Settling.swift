import Foundation

/// Deterministic frames for headless rendering, benchmarks and tests: the
/// model waits for the events it needs (every header answered, every
/// visible picture's outcome), never for a clock, so a slow machine gives
/// the same frame as a fast one, only later.
extension GalleryModel {
    /// Updates at `now` until every visible cell has its picture or its
    /// failure.
    ///
    /// With `completingFades` (the default) pictures that arrive are shown
    /// as if they had arrived a cross-fade ago, fully faded in; without it
    /// they arrive at `now`, at the start of their fade. Every load ends
    /// (sources have their own deadlines), so this returns.
    package func settle(at now: TimeInterval, completingFades: Bool = true) async {
        let arrival = completingFades ? now - Self.fadeDuration : now
        update(now: now, arrivalTime: arrival)
        while pendingLoads > 0 {
            await pictures.waitUntilSettled()
            // The answers reached the cells; this frame shows them and asks for what they now need
            // (a shape that arrived meanwhile re-lays out, and its tiles ask at their new size).
            update(now: now, arrivalTime: arrival)
        }
    }

    /// Waits until every header has been answered, then shows the layout
    /// with every size at once.
    package func settleShapes() async {
        if library.headersComeCheap { shapeTracker.startReading(from: server) }
        await shapeTracker.waitUntilAllRead()
        applyDates(now: nil)
        applyShapes(now: nil)
    }
}
