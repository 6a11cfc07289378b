#if canImport(CSDL2)
import Foundation

extension SessionBenchmark.Figures {
    /// One line for the terminal.
    package var summary: String {
        func percent(_ quality: ScrollingQuality?) -> String {
            quality.map { String(format: "%.2f %%", $0.blankShare * 100) } ?? "–"
        }
        let fills = fills.map { "\($0.event) \(SessionReport.fill($0))" }.joined(separator: ", ")
        return """
        \(scenario.name): blank while moving \(percent(flings[3000])) at 3,000 pt/s, \(percent(flings[6000])) at 6,000 pt/s \
        (preview only \(String(format: "%.2f %%", whole.previewShare * 100)) of the session's moving tile-frames); \
        hitch \(String(format: "%.2f", whole.hitchRatio)) ms/s; frame work p50 \(SessionReport.ms(work.p50)), \
        p99 \(SessionReport.ms(work.p99)), max \(SessionReport.ms(work.max)); full screen: \(fills); \
        peak RSS \(peakResidentBytes / 1_048_576) MiB; \(decodes) decodes; while pinching: hitch \
        \(String(format: "%.2f", pinching.hitchRatio)) ms/s, blank \(percent(pinching)), frame work p99 \(SessionReport.ms(pinchWork.p99))\
        \(failedLoads > 0 ? "; \(failedLoads) failed loads" : "")\
        \(sourceProblem.map { "; THE PHOTO SOURCE FAILED DURING THE SESSION: \($0)" } ?? "")
        """
    }
}

/// The session benchmark's report, as Markdown: scripts/bench-report.py puts
/// it into BENCHMARKS.md (section `session-benchmarks`) with the date and the machine.
package enum SessionReport {
    static func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
    static func seconds(_ value: Double?) -> String {
        guard let value else { return "> \(Int(SessionBenchmark.fillTimeLimit)) s" }
        return value < 1 ? String(format: "%.0f ms", value * 1000) : String(format: "%.2f s", value)
    }

    /// A fill time, with the time to every tile's preview before it when
    /// that came sooner (`612 ms, previews 0 ms`).
    static func fill(_ fill: SessionBenchmark.Fill) -> String {
        guard let preview = fill.previewSeconds, preview < (fill.seconds ?? .infinity) else { return seconds(fill.seconds) }
        return "\(seconds(fill.seconds)) (previews \(seconds(preview)))"
    }

    static func median(_ values: [Double?]) -> Double? {
        let known = values.compactMap { $0 }
        guard known.count == values.count, !known.isEmpty else { return nil }
        let sorted = known.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func maximum(_ values: [Double?]) -> Double? {
        values.contains { $0 == nil } ? nil : values.compactMap { $0 }.max()
    }

    /// The photos the sessions showed.
    package enum PhotoSet: Sendable, Equatable {
        /// The photo set repeated under distinct names to the count asked for.
        case repeated
        /// A library's own photos as listed (`session --as-listed`): the
        /// library named by its description, such as "the photos in DIR".
        case listed(String)
    }

    /// The report on `figures` (ParallaxKit's sessions and the baseline's)
    /// over `photoSet`: the `## Title` line, what was measured, the tables
    /// and the targets, judged by `goals` (the repository's,
    /// scripts/benchreport/targets.json, unless given).
    package static func markdown(_ figures: [SessionBenchmark.Figures], photoSet: PhotoSet = .repeated,
                                 goals: BenchmarkTargets.Session = BenchmarkTargets.repository.session) -> String {
        let photos = figures.first?.photos ?? 0
        let title: String, over: String
        switch photoSet {
        case .repeated:
            title = "## What the user sees while scrolling"
            over = "over \(photos) photos (the real photo set repeated under distinct names)"
        case .listed(let library):
            title = "## What the user sees while scrolling a library tree"
            over = "over the \(photos.formatted()) photos of \(library) as listed (a nested library tree, shown newest first by the date each was taken, in month sections; as in the window, the first screen is drawn from the first photos listed, the rest of the listing arrives while it is looked at, and the dates are read while the session runs)"
        }
        var lines = [title, "",
                     "Scripted sessions \(over), 1280 × 800, run at the display's pace: a frame is due every 16.7 ms on the wall clock, each frame is the model's update and the drawing by the headless software renderer, and downloads and decodes run beside it. A frame that finishes late waits for the next due time, as a display refresh would. Script: the first screen; two flings at 3,000 pt/s and two at 6,000 pt/s from rest, each left to stop; a jump to the middle and one to the end; then, back in the middle, a pinch out to fewer columns (the scale going to 1.8 over half a second, about the window's centre, as Ctrl + wheel drives it) and one back in (to 1 / 1.8), each released and left to settle; after every stop the screen is waited for until full (after a pinch: until every tile shows its photo decoded at its new size), then looked at for one second. Every session starts with a new model and nothing in memory. \"Photos on disk\" is the simulated server with no delay over the photo folder; \"a slow server\" delays each first download by 0–2 s, as the simulated server of RolfHendriks' UICollectionView-Demo does; \"HTTP server\" is `python3 -m http.server` over the photo folder on loopback, read through `HTTPImageSource` (its folder listing is the index). \"First launch\" runs with an empty thumbnail disk cache that fills as it goes (the gallery's default, `DiskImageCache` with JPEG entries); \"second launch\" is a new model over the cache the first launch filled, as when the gallery is opened again. Without a disk cache, every session starts cold. Sessions over a server named with `--server`, or over generated pictures, say so in their names; a session with failed loads is listed under \"Failed loads\" (a failed tile counts as shown).", "",
                     "- **Blank while moving**: visible tiles showing nothing of their photo (a placeholder), as a share of all visible tiles, over the frames in which the content moved (per fling speed). **Previews while moving**: tiles showing only the photo's preview (its ThumbHash: colours and shapes, soft), over the whole session's moving frames. The slow server lists every photo's preview with the list, as a photo server's manifest does (Immich's `thumbhash`); photos on disk and python's folder listing have none until a photo is decoded once (the loader then makes one).",
                     "- **Full after a fling / a jump**: from the moment the scroll stops (or jumps) until every visible tile shows its photo; in brackets, until every tile showed at least its preview, when that came first (0 ms: the frame of the jump itself).",
                     "- **Hitch time ratio**: ms of frame time past the 16.7 ms budget per second of session (Apple's measure; ≤ \(BenchmarkTargets.text(goals.hitchAtMostMsPerS)) is the goal, > 10 noticeable), frame time counted from when the frame was due until it was drawn, from the first frame's start (the wait for the first frame, a large library's listing say, is in the first screen's time).",
                     "- **Baseline**: the same sessions with requests served in arrival order (no priorities, every download waiting for a slot) and nothing preloaded: what the scheduling buys."]
        lines += ["", "| Session | Blank at 3,000 pt/s | Blank at 6,000 pt/s | Previews while moving | Full after a fling (median / max) | Full after the jumps (middle / end) | First screen | Frame work p50 / p99 / max | Hitch ms/s | Peak RSS | Memory cache peak (limit) |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for figure in figures {
            let flingFills = figure.fillTimes("fling").map(\.seconds)
            let jumps = figure.fillTimes("jump").map(fill).joined(separator: " / ")
            let first = figure.fillTimes("first").first.map(fill) ?? "–"
            let previews = String(format: "%.2f %%", figure.whole.previewShare * 100)
            lines.append("| \(figure.scenario.name) | \(percent(figure.flings[3000])) | \(percent(figure.flings[6000])) | \(previews) | \(seconds(median(flingFills))) / \(seconds(maximum(flingFills))) | \(jumps) | \(first) | \(ms(figure.work.p50)) / \(ms(figure.work.p99)) / \(ms(figure.work.max)) | \(String(format: "%.2f", figure.whole.hitchRatio)) | \(figure.peakResidentBytes / 1_048_576) MiB | \(figure.cachePeakBytes / 1_048_576) MiB (\(figure.cacheLimitBytes / 1_048_576)) |")
        }
        lines += ["", "### Pinching", "",
                  "The frames of the two pinches (fingers down and settling) on their own: tiles with no picture, the hitch time ratio, the frame work, and the time from the moment the pinch came to rest until every visible tile showed its photo at its new size (the pictures from before the pinch are shown stretched until then, so no tile goes blank).", "",
                  "| Session | Blank while pinching | Hitch ms/s while pinching | Frame work while pinching p50 / p99 / max | Sharp after the pinch out / in |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        for figure in figures where figure.pinching.frames > 0 {
            let sharp = figure.fillTimes("pinch").map { seconds($0.seconds) }.joined(separator: " / ")
            lines.append("| \(figure.scenario.name) | \(percent(figure.pinching)) | \(String(format: "%.2f", figure.pinching.hitchRatio)) | \(ms(figure.pinchWork.p50)) / \(ms(figure.pinchWork.p99)) / \(ms(figure.pinchWork.max)) | \(sharp) |")
        }
        var comparisons: [String] = []
        for ours in figures where ours.scenario.followsViewport && ours.scenario.cache == .none {
            var other = ours.scenario
            other.followsViewport = false
            guard let base = figures.first(where: { $0.scenario == other }) else { continue }
            func ratio(_ b: Double?, _ o: Double?, _ format: (Double?) -> String) -> String {
                guard let b, let o, o > 0 else { return "\(format(b)) / \(format(o))" }
                return "\(format(b)) / \(format(o)) = \(String(format: "%.1f×", b / o))"
            }
            let blank = ratio(base.whole.unsharpShare, ours.whole.unsharpShare) { v in v.map { String(format: "%.2f %%", $0 * 100) } ?? "–" }
            let fling = ratio(median(base.fillTimes("fling").map(\.seconds)), median(ours.fillTimes("fling").map(\.seconds)), seconds)
            let jump = ratio(maximum(base.fillTimes("jump").map(\.seconds)), maximum(ours.fillTimes("jump").map(\.seconds)), seconds)
            let origin = ours.scenario.source == .folder ? (ours.scenario.latency == .none ? "photos on disk" : "slow server (\(ours.scenario.latency.rangeText))") : ours.scenario.origin
            comparisons.append("| \(ours.scenario.layout.rawValue), \(origin) | \(blank) | \(fling) | \(jump) |")
        }
        // Without baseline sessions (`--no-baseline`) there is nothing to compare: no empty table.
        if !comparisons.isEmpty {
            lines += ["", "### Against the baseline", "", "Tiles not yet sharp (blank or only a preview) while moving: what the loader's scheduling decides, previews or not.", "", "| Session | Not sharp while moving, baseline / ParallaxKit | Full after a fling (median), baseline / ParallaxKit | Full after a jump (max), baseline / ParallaxKit |", "| --- | ---: | ---: | ---: |"]
            lines += comparisons
        }
        let failing = figures.filter { $0.failedLoads > 0 || $0.sourceProblem != nil }
        if !failing.isEmpty {
            // A failed tile counts as shown, so these sessions' blank shares and fill times flatter them.
            lines += ["", "### Failed loads", "", "Failed tiles count as shown, not blank: the figures of these sessions do not measure the gallery.", "",
                      "| Session | Failed loads | Source afterwards |", "| --- | ---: | --- |"]
            for figure in failing {
                lines.append("| \(figure.scenario.name) | \(figure.failedLoads) | \(figure.sourceProblem.map { "failed: \($0)" } ?? "still lists its photos") |")
            }
            for figure in failing {
                if let problem = figure.sourceProblem {
                    lines += ["", "**The photo source failed during \(figure.scenario.name): \(problem).**"]
                }
            }
        }
        lines += ["", "### Targets", "", "| Target | Measured | Result |", "| --- | --- | --- |"]
        let judged = targets(figures, goals: goals)
        for target in judged {
            lines.append("| \(target.text) | \(target.measured) | **\(target.pass ? "PASS" : "FAIL")** |")
        }
        let jumpGoal = "full ≤ \(BenchmarkTargets.text(goals.fullAfterJumpAtMostMs)) ms after every jump"
        if judged.contains(where: { !$0.pass && $0.text.contains("on disk: \(jumpGoal)") }) {
            lines += ["", "Why a jump on disk misses \(BenchmarkTargets.text(goals.fullAfterJumpAtMostMs)) ms: a jump lands on 48 tiles that nothing could have preloaded, most of them cold decodes of multi-megapixel photos (about 15 ms each on average for the real set at grid size in the thumbnail benchmark; 10–33 ms for its PNGs, which cannot be decoded at a reduced scale as JPEGs are). About 1.6 cores decode while the frame loop keeps its share to draw every frame, so 48 cold decodes take about 48 × 15 ms / 1.6 ≈ 450 ms; jumps come in under that only because the library repeats the set's 49 photos, and some are still in the memory cache. The baseline, which loads nothing but the screen, is no faster (table above): what remains is decode work, not scheduling. Before this scheduler, decodes ran at normal priority on both cores and filled a jump in 430–550 ms at the price of 20.8 ms/s of hitches. The disk cache of thumbnails is what makes a second visit fast (the second launch's jumps above)."]
        }
        return lines.joined(separator: "\n")
    }

    static func percent(_ quality: ScrollingQuality?) -> String {
        quality.map { String(format: "%.2f %%", $0.blankShare * 100) } ?? "–"
    }

    /// The targets of ParallaxKit's sessions, judged by `goals`; each one's
    /// text writes its threshold as the file holds it.
    static func targets(_ figures: [SessionBenchmark.Figures],
                        goals: BenchmarkTargets.Session) -> [(text: String, measured: String, pass: Bool)] {
        func text(_ value: Double) -> String { BenchmarkTargets.text(value) }
        var result: [(String, String, Bool)] = []
        for figure in figures where figure.scenario.followsViewport {
            let layout = figure.scenario.layout.rawValue
            if figure.scenario.cache == .warm {
                let origin = figure.scenario.shortOrigin
                let first = figure.fillTimes("first").first?.seconds
                let firstGoal = goals.secondLaunchFirstScreenAtMostMs
                result.append(("\(layout), \(origin), second launch: first screen full ≤ \(text(firstGoal)) ms from the cache",
                               seconds(first), (first ?? .infinity) <= firstGoal / 1000))
                let jump = maximum(figure.fillTimes("jump").map(\.seconds))
                let jumpGoal = goals.secondLaunchJumpAtMostMs
                result.append(("\(layout), \(origin), second launch: full ≤ \(text(jumpGoal)) ms after every jump", seconds(jump),
                               (jump ?? .infinity) <= jumpGoal / 1000))
            } else if figure.scenario.cache == .cold {
                // A first launch with the cache filling: its figures are in the table; no target of its own.
            } else if figure.scenario.latency == .none {
                let b3 = figure.flings[3000]?.blankShare ?? 1, b6 = figure.flings[6000]?.blankShare ?? 1
                let origin = figure.scenario.shortOrigin
                let b3Goal = goals.blankAt3000AtMostPercent, b6Goal = goals.blankAt6000AtMostPercent
                result.append(("\(layout), \(origin): blank ≤ \(text(b3Goal)) % at 3,000 pt/s", String(format: "%.2f %%", b3 * 100), b3 <= b3Goal / 100))
                result.append(("\(layout), \(origin): blank ≤ \(text(b6Goal)) % at 6,000 pt/s", String(format: "%.2f %%", b6 * 100), b6 <= b6Goal / 100))
                let fling = maximum(figure.fillTimes("fling").map(\.seconds)), flingGoal = goals.fullAfterFlingAtMostMs
                result.append(("\(layout), \(origin): full ≤ \(text(flingGoal)) ms after every fling stops", seconds(fling),
                               (fling ?? .infinity) <= flingGoal / 1000))
                let jump = maximum(figure.fillTimes("jump").map(\.seconds)), jumpGoal = goals.fullAfterJumpAtMostMs
                result.append(("\(layout), \(origin): full ≤ \(text(jumpGoal)) ms after every jump", seconds(jump),
                               (jump ?? .infinity) <= jumpGoal / 1000))
            } else {
                let all = maximum(figure.fills.filter { !$0.event.hasPrefix("pinch") }.map(\.seconds))
                let goal = goals.slowServerFullAtMostS
                result.append(("\(layout), \(figure.scenario.shortOrigin): full ≤ \(text(goal)) s after every stop and jump (and the first screen)",
                               seconds(all), (all ?? .infinity) <= goal))
            }
            if figure.scenario.listsPreviews {
                let origin = figure.scenario.shortOrigin, blankGoal = goals.previewsListedBlankAtMostPercent
                for speed in [3000, 6000] {
                    let blank = figure.flings[speed]?.blankShare ?? 1
                    result.append(("\(layout), \(origin), previews listed: blank ≤ \(text(blankGoal)) % at \(speed == 3000 ? "3,000" : "6,000") pt/s",
                                   String(format: "%.2f %%", blank * 100), blank <= blankGoal / 100))
                }
                let previewed = maximum(figure.fillTimes("jump").map { $0.previewSeconds ?? $0.seconds })
                let previewGoal = goals.previewsListedPreviewedAfterJumpAtMostMs
                result.append(("\(layout), \(origin), previews listed: every tile previewed ≤ \(text(previewGoal)) ms after every jump",
                               seconds(previewed), (previewed ?? .infinity) <= previewGoal / 1000))
            }
            let name = figure.scenario.name
            result.append(("\(name): hitch time ≤ \(text(goals.hitchAtMostMsPerS)) ms/s", String(format: "%.2f ms/s", figure.whole.hitchRatio),
                           figure.whole.hitchRatio <= goals.hitchAtMostMsPerS))
            if figure.pinching.frames > 0 {
                let ratio = figure.pinching.hitchRatio
                let hitchGoal = goals.pinchingHitchAtMostMsPerS
                result.append(("\(name): hitch time ≤ \(text(hitchGoal)) ms/s while pinching", String(format: "%.2f ms/s", ratio), ratio <= hitchGoal))
                // A photo once shown never goes blank (the gallery's tests); one that rewrapping rows bring
                // into view for the first time may decode for a frame, which is what this bounds. From a slow
                // server it downloads first, for up to 2 s, as while scrolling: that is measured, not bounded.
                if figure.scenario.latency == .none {
                    let blank = figure.pinching.blankShare
                    let blankGoal = goals.pinchingBlankAtMostPercent
                    result.append(("\(name): blank ≤ \(text(blankGoal)) % while pinching", String(format: "%.2f %%", blank * 100),
                                   blank <= blankGoal / 100))
                }
            }
            result.append(("\(name): memory cache within its limit", "\(figure.cachePeakBytes / 1_048_576) of \(figure.cacheLimitBytes / 1_048_576) MiB", figure.cachePeakBytes <= figure.cacheLimitBytes))
        }
        return result
    }
}
#endif
