#if canImport(CSDL2)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The frame loop of the benchmarks that measure what a person sees: a
/// frame every 16.7 ms on the wall clock, each one the model's update and
/// the drawing by the headless renderer, while listing, reading, downloads
/// and decodes run beside it. A frame that finishes late makes the next one
/// wait for the next due time, as a display's refresh would; what it
/// records (``ScrollingQuality``: blank tiles, hitch time; fill times;
/// each frame's work) is what the reports print.
@MainActor
struct PacedSession {
    let model: GalleryModel
    let headless: HeadlessRenderer
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    var due: ContinuousClock.Instant
    var whole = ScrollingQuality()
    /// Every frame but the first: a launch's hitches (the first frame has
    /// no frame before it to be late after; its time is the launch's).
    var afterFirst = ScrollingQuality()
    var flings: [Int: ScrollingQuality] = [:]
    var fills: [SessionBenchmark.Fill] = []
    var workTimes: [Double] = []
    var pinching = ScrollingQuality()
    var pinchWorkTimes: [Double] = []
    var cachePeak = 0
    /// Resident memory every quarter of a second (every 15th frame), read
    /// after the frame's work is timed.
    var residentSamples: [RSSPlot.Sample] = []
    let budget = Duration.nanoseconds(16_666_667)
    let fillTimeLimit: Double

    init(model: GalleryModel, headless: HeadlessRenderer, fillTimeLimit: Double) {
        self.model = model
        self.headless = headless
        self.fillTimeLimit = fillTimeLimit
        // Drawn as the window draws, new texts and previews spread over frames.
        headless.canvas.makingBudget = SDLCanvas.pacedMakingBudget
        start = clock.now
        due = start
    }

    /// Draws one frame when it is due; returns the session time it was due at.
    @discardableResult
    mutating func frame(speed: Int? = nil, pinch: (scale: CGFloat, at: CGPoint)? = nil,
                         isPinching: Bool = false) async -> Double {
        try? await clock.sleep(until: due)
        let began = clock.now
        // The first frame is due when it starts: the wait before it (a library's listing, the model's making) is
        // the first screen's time (``waitForFullScreen(event:)`` counts from the session's start), not a frame
        // late after the one before it, for there is none.
        if workTimes.isEmpty { due = began }
        let now = seconds(due - start)
        // The gesture's event arrives with the frame, as the window's event loop hands it over.
        if let pinch { model.pinch(scale: pinch.scale, at: pinch.at) }
        model.update(now: now)
        let updated = clock.now
        headless.draw(model, afterWorking: updated - began)
        let finished = clock.now
        workTimes.append(seconds(finished - began))
        let frameTime = seconds(finished - due)
        var next = due + budget
        while next < finished { next += budget }        // a late frame waits for the next refresh
        let interval = seconds(next - due)
        let visible = model.cells.count, (blank, preview, _) = model.tileCounts
        let moving = !model.scroll.isAtRest
        whole.record(visible: visible, blank: blank, preview: preview, isMoving: moving || isPinching, frameTime: frameTime,
                     interval: interval)
        if workTimes.count > 1 {                        // this frame's work is in already
            afterFirst.record(visible: visible, blank: blank, preview: preview, isMoving: moving || isPinching, frameTime: frameTime,
                              interval: interval)
        }
        if isPinching {
            pinching.record(visible: visible, blank: blank, preview: preview, isMoving: true, frameTime: frameTime, interval: interval)
            pinchWorkTimes.append(seconds(finished - began))
        }
        if let speed {
            flings[speed, default: ScrollingQuality()].record(visible: visible, blank: blank, preview: preview, isMoving: moving,
                                                              frameTime: frameTime, interval: interval)
        }
        cachePeak = max(cachePeak, model.loader.memoryCache.totalCost)
        if workTimes.count % 15 == 1 { residentSamples.append(.init(seconds: now, bytes: MemoryBenchmark.residentBytes())) }
        due = next
        return now
    }

    /// Before the first frame: waits for what it shows, as the window
    /// does (``GalleryModel/waitForFirstScreen(now:within:)``). The wait
    /// counts in the first screen's time, which runs from the session's
    /// start.
    mutating func waitForFirstScreen() async {
        await model.waitForFirstScreen(now: seconds(clock.now - start))
    }

    /// Draws frames until the library's listing is over and every photo it
    /// found is shown (``GalleryModel/isListingShown``), or for
    /// `fillTimeLimit` seconds at most.
    mutating func waitForListing() async {
        let began = seconds(due - start)
        while !model.isListingShown, seconds(due - start) - began <= fillTimeLimit { await frame() }
    }

    mutating func runUntilRest(speed: Int) async {
        repeat { await frame(speed: speed) } while !model.scroll.isAtRest
    }

    /// Waits, frame by frame, until every visible tile shows its photo;
    /// records how long that took, and how long until every tile showed
    /// at least its preview.
    mutating func waitForFullScreen(event: String) async {
        let began = seconds(due - start)
        var previewed: Double?
        while true {
            let now = await frame()
            let tiles = model.tileCounts
            if previewed == nil, tiles.blank == 0, !model.cells.isEmpty { previewed = now - began }
            if tiles.unsharp == 0, !model.cells.isEmpty {
                fills.append(SessionBenchmark.Fill(event: event, seconds: now - began, previewSeconds: previewed))
                return
            }
            if now - began > fillTimeLimit {
                fills.append(SessionBenchmark.Fill(event: event, seconds: nil, previewSeconds: previewed))
                return
            }
        }
    }

    /// A pinch about the middle of the viewport: the scale eased from 1
    /// to the pinch's over its seconds, a frame at a time, then the
    /// fingers lift and every frame of the settle is drawn.
    mutating func pinch(_ pinch: SessionBenchmark.Script.Pinch) async {
        let center = CGPoint(x: model.viewportSize.width / 2, y: model.viewportSize.height / 2)
        model.beginPinch(at: center)
        let frames = max(Int((pinch.seconds * 60).rounded()), 1)
        for index in 1...frames {
            let scale = CGFloat(pow(pinch.scale, Double(index) / Double(frames)))
            await frame(pinch: (scale, center), isPinching: true)
        }
        let lifted = seconds(due - start)
        model.endPinch(velocity: 0, now: lifted)
        // The settle is a short spring; the limit only guards the benchmark against a settle that never ends.
        while model.isPinching, seconds(due - start) - lifted < fillTimeLimit {
            await frame(isPinching: true)
        }
    }

    /// Waits, frame by frame, until every visible tile shows its photo
    /// decoded at the size it has now (after a pinch, the pictures from
    /// before it are shown stretched until then); records how long.
    mutating func waitForSharpScreen(event: String) async {
        let began = seconds(due - start)
        while true {
            let now = await frame()
            if model.unsharpCellCount == 0, model.staleCellCount == 0, !model.cells.isEmpty {
                fills.append(SessionBenchmark.Fill(event: event, seconds: now - began, previewSeconds: nil))
                return
            }
            if now - began > fillTimeLimit {
                fills.append(SessionBenchmark.Fill(event: event, seconds: nil, previewSeconds: nil))
                return
            }
        }
    }

    mutating func dwell(_ duration: Double) async {
        let until = seconds(due - start) + duration
        while seconds(due - start) < until { await frame() }
    }

    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
#endif
