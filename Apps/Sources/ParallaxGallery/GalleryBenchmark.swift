#if canImport(CSDL2)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// `parallax-gallery bench`: a scripted fling through 1,000 photos at
/// 1280 × 800 with the software renderer, timing every frame (the model's
/// update and the drawing), first while thumbnails load and decode on other
/// threads, then again once they are cached, and last with every tile
/// showing only its photo's preview (a server that lists previews and has
/// not sent a photo yet).
package enum GalleryBenchmark {
    package struct Phase: Sendable {
        package var name: String
        package var frames: Int
        package var p50: Double
        package var p99: Double
        package var maximum: Double
        package var over8: Int
        package var over16: Int
        /// The CPU time the render thread itself spent on the longest frame
        /// (`CLOCK_THREAD_CPUTIME_ID`). Far below ``maximum``, that frame
        /// was mostly waiting for a core (other threads, or a virtual
        /// machine's host), not working.
        package var longestFrameThreadCPU: Double
    }

    package struct Results: Sendable {
        package var phases: [Phase]
        package var photos: Int
        package var size: CGSize
        package var distance: CGFloat

        package var summary: String {
            var lines = ["Fling through \(photos) photos at \(Int(size.width))×\(Int(size.height)), \(Int(distance)) pt:"]
            for phase in phases {
                lines.append(String(format: "  %@: %d frames, p50 %.2f ms, p99 %.2f ms, max %.2f ms (its thread's CPU in it %.2f ms), >8.3 ms: %d, >16.7 ms: %d",
                                    phase.name, phase.frames, phase.p50 * 1000, phase.p99 * 1000, phase.maximum * 1000,
                                    phase.longestFrameThreadCPU * 1000, phase.over8, phase.over16))
            }
            for target in targets { lines.append("  \(target.pass ? "PASS" : "FAIL")  \(target.text)") }
            return lines.joined(separator: "\n")
        }

        /// The targets, judged by the repository's (scripts/benchreport/targets.json).
        var targets: [(pass: Bool, text: String)] {
            let goals = BenchmarkTargets.repository.gallery
            var result: [(Bool, String)] = []
            if let cached = phases.first(where: { $0.name == "cached" }) {
                let median = goals.cachedP50AtMostMs, tail = goals.cachedP99AtMostMs
                result.append((cached.p50 * 1000 <= median, String(format: "cached: p50 %.2f ms (goal ≤ %@ ms)", cached.p50 * 1000,
                                                                    BenchmarkTargets.text(median))))
                result.append((cached.p99 * 1000 <= tail, String(format: "cached: p99 %.2f ms (goal ≤ %@ ms)", cached.p99 * 1000,
                                                                  BenchmarkTargets.text(tail))))
            }
            if let loading = phases.first(where: { $0.name == "decodes in flight" }) {
                let goal = goals.inFlightLongestFrameAtMostMs
                result.append((loading.maximum * 1000 <= goal, String(format: "decodes in flight: longest frame %.2f ms (goal ≤ %@ ms)",
                                                                       loading.maximum * 1000, BenchmarkTargets.text(goal))))
            }
            return result
        }

        /// The results as Markdown: the `## Title` line, what was measured, the
        /// table and the targets. scripts/bench-report.py puts it into
        /// BENCHMARKS.md (section `gallery-benchmarks`) with the date and the machine.
        package var markdown: String {
            var lines = ["## Gallery frame times", "",
                         "A scripted fling through \(photos) photos (the real photo set, repeated) at \(Int(size.width)) × \(Int(size.height)) in the grid, drawn by SDL's software renderer into memory: each frame is the model's update (scroll physics, layout query, parallax, image bindings) and the drawing. The fling is renewed whenever it slows, so it covers \(Int(distance)) pt. First pass: thumbnails load and decode on other threads while the frames are drawn (nothing is decoded on the render thread). Second pass: the same fling, every thumbnail in the memory cache. Third pass: every tile shows only its photo's preview (the photos listed with their ThumbHashes by a server that sends no photo during the pass): each preview rendered from its hash the first time it is shown (32 px) and scaled up smoothly to its tile. The frames run back to back, so while decodes run the render thread shares two cores with them: *its thread CPU* is the CPU time the render thread itself spent on the longest frame (`CLOCK_THREAD_CPUTIME_ID`): where it is far below the frame's time on the wall clock, that frame was mostly the thread waiting for a core, not working.", "",
                         "| Pass | Frames | p50 ms | p99 ms | max ms | its thread CPU ms | frames > 8.3 ms | frames > 16.7 ms |",
                         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
            for phase in phases {
                lines.append(String(format: "| %@ | %d | %.2f | %.2f | %.2f | %.2f | %d | %d |", phase.name, phase.frames, phase.p50 * 1000,
                                    phase.p99 * 1000, phase.maximum * 1000, phase.longestFrameThreadCPU * 1000, phase.over8, phase.over16))
            }
            lines += ["", "| Target | Result |", "| --- | --- |"]
            for target in targets { lines.append("| \(target.text) | **\(target.pass ? "PASS" : "FAIL")** |") }
            return lines.joined(separator: "\n")
        }
    }

    @MainActor
    package static func run(library: PhotoLibrary, size: CGSize, photos: Int = 1000) async throws -> Results {
        let thousand = PhotoLibrary(source: RepeatingImageSource(base: library.source, count: photos),
                                    credits: library.credits, description: "\(photos) photos")
        var settings = GallerySettings()
        settings.latency = .none
        settings.snapping = false
        let model = GalleryModel(library: thousand, settings: settings, viewportSize: size)
        await model.loadPhotoList()
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        let end = model.scroll.bounds.upperBound
        var phases: [Phase] = []
        for name in ["decodes in flight", "cached"] {
            phases.append(await fling(model, on: headless, named: name))
            await model.loader.waitUntilIdle()
        }
        let previewing = GalleryModel(library: await previewsOnly(library, photos: photos), settings: settings, viewportSize: size)
        await previewing.loadPhotoList()
        phases.append(await fling(previewing, on: headless, named: "previews only"))
        previewing.pictures.forgetAll()
        return Results(phases: phases, photos: photos, size: size, distance: end)
    }

    /// `library`'s photos repeated to `photos`, every one listed with its
    /// preview by a server whose photos take an hour: tiles show previews
    /// only.
    static func previewsOnly(_ library: PhotoLibrary, photos: Int) async -> PhotoLibrary {
        let previews = await SessionBenchmark.previews(of: library)
        let waiting = SimulatedImageServer(backing: RepeatingImageSource(base: library.source, count: photos, basePreviews: previews),
                                           behavior: .init(latency: .seconds(3600) ... .seconds(3600)))
        return PhotoLibrary(source: waiting, credits: [], description: "\(photos) photos, previews listed")
    }

    /// The fling from the top to the end of `model`'s photos, renewed
    /// whenever it slows, every frame timed.
    @MainActor
    private static func fling(_ model: GalleryModel, on headless: HeadlessRenderer, named name: String) async -> Phase {
        let end = model.scroll.bounds.upperBound
        model.jump(to: 0)
        model.update(now: 0)
        var times: [Double] = []
        var longest = 0.0, longestCPU = 0.0
        var frame = 0
        let clock = ContinuousClock()
        while model.scroll.position < end - 1, frame < 20_000 {
            let now = Double(frame) / 60
            if model.scroll.velocity < 2500 { model.fling(velocity: 4000) }
            let started = clock.now, startedCPU = threadCPUSeconds()
            model.update(now: now)
            headless.draw(model)
            let elapsed = clock.now - started, cpu = threadCPUSeconds() - startedCPU
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if seconds > longest { (longest, longestCPU) = (seconds, cpu) }
            times.append(seconds)
            frame += 1
            await Task.yield()
        }
        let sorted = times.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(Int(Double(sorted.count - 1) * p), sorted.count - 1)] }
        return Phase(name: name, frames: times.count, p50: percentile(0.5), p99: percentile(0.99),
                     maximum: sorted.last ?? 0, over8: times.filter { $0 > 0.0083 }.count,
                     over16: times.filter { $0 > 0.0167 }.count, longestFrameThreadCPU: longestCPU)
    }

    /// The CPU time the calling thread has used, in seconds.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
#endif
