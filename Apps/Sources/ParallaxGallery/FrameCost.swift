#if canImport(CSDL2)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// A fixed, scripted sequence of gallery frames whose work can be counted
/// in instructions (`valgrind --tool=callgrind --toggle-collect` on
/// ``countedFrame(_:on:now:)``), so a frame's cost reads the same on any
/// machine: milliseconds differ by 4× between machines here, instructions
/// do not.
///
/// Every pass is deterministic: time is the frame number ÷ 60 (no clock),
/// the gestures are fixed, and wherever photos load, the script waits for
/// every request to settle *between* frames (outside the counted
/// function), so each frame receives exactly the pictures the frame before
/// asked for, whatever the machine's speed or valgrind's serialised
/// threads. What a frame counts is its own work on the render thread: the
/// model's update (physics, layout query, parallax, bindings, loading plan)
/// and the drawing, texture uploads and cross-fades included; decodes run on
/// other threads and are not counted.
@MainActor
package enum FrameCost {
    /// Which frames the script draws.
    package enum Pass: String, CaseIterable, Sendable {
        /// A fling through the grid, every thumbnail already in memory (and
        /// a warm-up pass first, so textures are uploaded as in the
        /// benchmark's cached pass).
        case cached
        /// The same fling on an empty memory cache: each frame's new tiles
        /// arrive before the next frame, which uploads them and starts
        /// their cross-fades.
        case decoding
        /// A pinch out to fewer columns and back (fingers down, then the
        /// settle), its pictures cached by a warm-up pinch first: the
        /// pictures are drawn stretched until their new size arrives.
        case pinching
        /// The fling with every tile showing only its photo's preview (a
        /// server that listed ThumbHashes and has sent no photo yet).
        case previews
    }

    /// What a run drew.
    package struct Result: Sendable {
        package var pass: Pass
        /// Frames drawn through ``countedFrame(_:on:now:)``.
        package var frames: Int
        /// Tiles drawn over those frames (sum of visible cells).
        package var tiles: Int
        /// Each counted frame's time on the wall clock, in seconds: a guide
        /// while working on this machine, not the measure (under callgrind
        /// it is valgrind's time).
        package var times: [Double]

        /// The `p`-quantile of ``times`` (0…1).
        package func time(at p: Double) -> Double {
            let sorted = times.sorted()
            return sorted.isEmpty ? 0 : sorted[min(Int(Double(sorted.count - 1) * p), sorted.count - 1)]
        }
    }

    /// Draws `pass`'s frames of `library` (repeated to `photos` photos) at
    /// `size`; `frames` counted frames for the flings.
    package static func run(_ pass: Pass, library: PhotoLibrary, size: CGSize, frames: Int = 120,
                            photos: Int = 1000) async throws -> Result {
        let repeated = PhotoLibrary(source: RepeatingImageSource(base: library.source, count: photos), credits: [],
                                    description: "\(photos) photos")
        var settings = GallerySettings()
        settings.latency = .none
        settings.snapping = false
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        switch pass {
        case .cached:
            let model = GalleryModel(library: repeated, settings: settings, viewportSize: size)
            await model.loadPhotoList()
            _ = await fling(model, on: headless, frames: frames, counted: false, settling: true)
            return await fling(model, on: headless, frames: frames, counted: true, settling: false, pass: pass)
        case .decoding:
            let model = GalleryModel(library: repeated, settings: settings, viewportSize: size)
            await model.loadPhotoList()
            return await fling(model, on: headless, frames: frames, counted: true, settling: true, pass: pass)
        case .pinching:
            let model = GalleryModel(library: repeated, settings: settings, viewportSize: size)
            await model.loadPhotoList()
            model.jump(to: 0)
            _ = await pinches(model, on: headless, counted: false)
            return await pinches(model, on: headless, counted: true)
        case .previews:
            let model = GalleryModel(library: await GalleryBenchmark.previewsOnly(library, photos: photos), settings: settings,
                                     viewportSize: size)
            await model.loadPhotoList()
            _ = await fling(model, on: headless, frames: frames, counted: false, settling: false)
            let result = await fling(model, on: headless, frames: frames, counted: true, settling: false, pass: pass)
            model.pictures.forgetAll()
            return result
        }
    }

    /// One frame: the model's update and the drawing. The only work the
    /// instruction count sees (callgrind's `--toggle-collect` names this
    /// function), so it must stay a function of its own.
    @inline(never)
    package static func countedFrame(_ model: GalleryModel, on headless: HeadlessRenderer, now: TimeInterval) {
        model.update(now: now)
        headless.draw(model)
    }

    /// ``countedFrame(_:on:now:)``, its wall-clock time appended to `times`.
    private static func timedFrame(_ model: GalleryModel, on headless: HeadlessRenderer, now: TimeInterval, times: inout [Double]) {
        let clock = ContinuousClock(), started = clock.now
        countedFrame(model, on: headless, now: now)
        let elapsed = clock.now - started
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The frame outside the count (a warm-up).
    private static func uncountedFrame(_ model: GalleryModel, on headless: HeadlessRenderer, now: TimeInterval) {
        model.update(now: now)
        headless.draw(model)
    }

    /// `frames` frames of a fling from the top at 4,000 pt/s, renewed
    /// whenever it slows below 2,500; with `settling`, every request
    /// settles between frames.
    private static func fling(_ model: GalleryModel, on headless: HeadlessRenderer, frames: Int, counted: Bool,
                              settling: Bool, pass: Pass = .cached) async -> Result {
        model.jump(to: 0)
        var result = Result(pass: pass, frames: 0, tiles: 0, times: [])
        for frame in 0..<frames {
            if model.scroll.velocity < 2500 { model.fling(velocity: 4000) }
            let now = Double(frame) / 60
            if counted { timedFrame(model, on: headless, now: now, times: &result.times) } else { uncountedFrame(model, on: headless, now: now) }
            result.frames += 1
            result.tiles += model.cells.count
            if settling { await settle(model) }
        }
        return result
    }

    /// A pinch out to 1.8× over 30 frames, its settle, then a pinch back in
    /// the same way; every request settles between frames.
    private static func pinches(_ model: GalleryModel, on headless: HeadlessRenderer, counted: Bool) async -> Result {
        let center = CGPoint(x: model.viewportSize.width / 2, y: model.viewportSize.height / 2)
        var result = Result(pass: .pinching, frames: 0, tiles: 0, times: [])
        func draw() async {
            let now = Double(result.frames) / 60
            if counted { timedFrame(model, on: headless, now: now, times: &result.times) } else { uncountedFrame(model, on: headless, now: now) }
            result.frames += 1
            result.tiles += model.cells.count
            await settle(model)
        }
        for scale in [1.8, 1 / 1.8] {
            model.beginPinch(at: center)
            for step in 1...30 {
                model.pinch(scale: CGFloat(pow(scale, Double(step) / 30)), at: center)
                await draw()
            }
            model.endPinch(velocity: 0, now: Double(result.frames) / 60)
            // The settle is a short spring; 120 frames only guard against one that never ends.
            var settleFrames = 0
            while model.isPinching, settleFrames < 120 {
                await draw()
                settleFrames += 1
            }
        }
        return result
    }

    /// Waits until every request has its outcome and the loader is idle.
    private static func settle(_ model: GalleryModel) async {
        await model.pictures.waitUntilSettled()
        await model.loader.waitUntilIdle()
    }
}
#endif
