#if canImport(CSDL2)
#if canImport(CGlibcMalloc)
import CGlibcMalloc
#endif
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// `parallax-gallery memory`: where the gallery's memory goes, and whether
/// it stays flat over a long session.
///
/// Real-time paced frames (``PacedSession``) over a library of photos on
/// disk, repeated: the first full screen, then fling-and-return cycles:
/// each jumps to a new part of the library, flings at 6,000 pt/s, waits
/// for a full screen, returns to the top and waits for a full screen
/// again. After each, the resident memory is read with its breakdown:
/// pictures in the memory cache, textures, the rest of what the allocator
/// hands out, what it keeps freed, and everything else (code, stacks,
/// libraries, SDL). New photos every cycle fill the memory cache to its
/// limit and keep it there, so memory that grows after that is a leak or
/// fragmentation, not caching.
@MainActor
package enum MemoryBenchmark {
    /// The resident memory at one moment, and where it goes.
    package struct Breakdown: Sendable {
        package var event: String
        /// Resident set size (`/proc/self/statm`).
        package var resident: Int
        /// Pixels of the thumbnails in the loader's memory cache.
        package var cachedPictures: Int
        /// Pixels in the canvas's textures (photos, spares, previews, text).
        package var textures: Int
        /// Rendered previews kept by the loader's preview store.
        package var previews: Int
        /// Bytes decodes hold right now (the decoding budget's reservations).
        package var decoding: Int
        /// Handed out by the allocator and not freed, besides the above
        /// (index, layouts, strings, SQLite, SDL's own).
        package var otherInUse: Int
        /// Freed, but kept by the allocator (not returned to the system).
        package var allocatorKept: Int

        /// What is left: code, libraries, stacks, the kernel's share.
        package var rest: Int {
            resident - cachedPictures - textures - previews - decoding - otherInUse - allocatorKept
        }
    }

    package struct Results: Sendable {
        package var photos: Int
        package var size: CGSize
        package var cacheLimit: Int
        package var firstScreen: Breakdown
        package var cycles: [Breakdown]
        package var peakResident: Int
        /// Seconds from each jump to a new part of the library until the screen was full (`nil`: not within the limit).
        package var fills: [Double?] = []
        /// Resident memory every quarter of a second, and when each cycle ended.
        package var residentOverTime: [RSSPlot.Sample] = []
        package var cycleEnds: [Double] = []
        /// Where the report says the chart of ``residentOverTime`` is, if it was written.
        package var plotPath: String?

        /// Resident memory over the session, with each cycle's end marked
        /// and the peak goal drawn.
        package var plot: RSSPlot {
            RSSPlot(series: [.init(name: "resident memory, \(photos) photos", samples: residentOverTime)], marks: cycleEnds,
                    guides: [.init(bytes: cacheLimit * 3 / 2 + 64 * 1_048_576, label: "peak goal")])
        }

        /// The median of ``fills`` (a fill never reached counts as the longest).
        package var medianFill: Double? {
            let sorted = fills.map { $0 ?? .infinity }.sorted()
            return sorted.isEmpty ? nil : sorted[sorted.count / 2]
        }

        /// The growth of what is not the memory cache's pictures, from the
        /// first cycle with the cache 90 % full to the last: what a long
        /// session adds. (The cache filling its last tenth is what it is
        /// for, not growth.)
        package var growthAfterCacheFilled: Int? {
            guard let filled = cycles.firstIndex(where: { Double($0.cachedPictures) >= 0.9 * Double(cacheLimit) }),
                  filled < cycles.count - 1 else { return nil }
            func uncached(_ row: Breakdown) -> Int { row.resident - row.cachedPictures }
            return uncached(cycles[cycles.count - 1]) - uncached(cycles[filled])
        }

        package var summary: String {
            var lines = [String(format: "%d photos at %d×%d, memory cache limit %@:", photos, Int(size.width), Int(size.height),
                                Self.mib(cacheLimit))]
            for row in [firstScreen] + cycles {
                lines.append("  \(row.event): resident \(Self.mib(row.resident)) (pictures \(Self.mib(row.cachedPictures)), "
                    + "textures \(Self.mib(row.textures)), kept free \(Self.mib(row.allocatorKept)))")
            }
            lines.append("  peak resident \(Self.mib(peakResident))"
                + (medianFill.map { String(format: "; full screen after a jump: median %.0f ms", $0 * 1000) } ?? ""))
            for target in targets { lines.append("  \(target.pass ? "PASS" : "FAIL")  \(target.text)") }
            return lines.joined(separator: "\n")
        }

        /// The issue's targets: first screen ≤ 120 MiB plus the cache's
        /// contents; peak ≤ 1.5 × the cache limit + 64 MiB; no growth once
        /// the cache is full (within 16 MiB: the allocator's arenas and
        /// SQLite's page cache move by that much).
        var targets: [(pass: Bool, text: String)] {
            let firstLimit = 120 * 1_048_576 + firstScreen.cachedPictures
            let peakLimit = cacheLimit * 3 / 2 + 64 * 1_048_576
            var result = [
                (firstScreen.resident <= firstLimit,
                 "first full screen: \(Self.mib(firstScreen.resident)) resident (goal ≤ 120 MiB + \(Self.mib(firstScreen.cachedPictures)) of pictures cached)"),
                (peakResident <= peakLimit, "peak: \(Self.mib(peakResident)) resident (goal ≤ 1.5 × \(Self.mib(cacheLimit)) + 64 MiB = \(Self.mib(peakLimit)))"),
            ]
            if let growth = growthAfterCacheFilled {
                result.append((growth <= 16 * 1_048_576, "growth once the memory cache is full, its pictures left out: \(Self.mib(growth)) (goal ≤ 16 MiB)"))
            } else {
                result.append((false, "growth once the memory cache is full: the cache never filled; run more cycles"))
            }
            return result
        }

        /// The results as Markdown for BENCHMARKS.md (section `memory-benchmarks`).
        package var markdown: String {
            var lines = ["## Memory over a long session", "",
                         "Real-time paced frames (every 16.7 ms, drawing included, decodes beside them) over \(photos) photos on disk (the real photo set, repeated) at \(Int(size.width)) × \(Int(size.height)) in the grid, the memory cache limited to \(Self.mib(cacheLimit)). First the first full screen, then \(cycles.count) fling-and-return cycle\(cycles.count == 1 ? "" : "s"): each jumps to a new part of the library, flings at 6,000 pt/s, waits for a full screen, returns to the top and waits for a full screen again. New photos every cycle fill the memory cache to its limit and keep it there. Resident memory is read after each step, with where it goes: pictures in the memory cache, the canvas's textures, rendered previews, decodes under way, the rest of what glibc's allocator hands out, what it keeps freed (`mallinfo2`), and the rest (code, libraries, stacks). glibc counts freed memory it keeps whether or not its pages are still resident (`malloc_trim` gives pages back but leaves them in its free lists), so where the rest reads below zero, that much of what is kept free is not resident.", "",
                         "| After | Resident | Pictures cached | Textures | Previews | Decoding | Other in use | Kept free | Rest |",
                         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
            for row in [firstScreen] + cycles {
                lines.append("| \(row.event) | \(Self.mib(row.resident)) | \(Self.mib(row.cachedPictures)) | \(Self.mib(row.textures)) | "
                    + "\(Self.mib(row.previews)) | \(Self.mib(row.decoding)) | \(Self.mib(row.otherInUse)) | \(Self.mib(row.allocatorKept)) | "
                    + "\(Self.mib(row.rest)) |")
            }
            if let plotPath {
                lines += ["", "![Resident memory over the session, each cycle's end dotted, the peak goal dashed](\(plotPath))"]
            }
            lines += ["", "Peak resident memory over the session: \(Self.mib(peakResident))."
                + (medianFill.map { String(format: " A full screen came a median %.0f ms after each jump to a new part of the library.", $0 * 1000) } ?? ""), "",
                      "| Target | Result |", "| --- | --- |"]
            for target in targets { lines.append("| \(target.text) | **\(target.pass ? "PASS" : "FAIL")** |") }
            return lines.joined(separator: "\n")
        }

        static func mib(_ bytes: Int) -> String { String(format: "%.0f MiB", Double(bytes) / 1_048_576) }
    }

    /// Runs the session over `photos` photos made by repeating `library`'s.
    package static func run(library: PhotoLibrary, size: CGSize = CGSize(width: 1280, height: 800), photos: Int = 3000,
                            cycles: Int = 20) async throws -> Results {
        let repeated = PhotoLibrary(source: RepeatingImageSource(base: library.source, count: photos), credits: library.credits,
                                    description: "\(photos) photos", readsHeadersLocally: library.readsHeadersLocally)
        var settings = GallerySettings()
        settings.latency = .none
        settings.snapping = false
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        headless.renderer.showsHUD = false
        PeakMemory.reset()
        let model = GalleryModel(library: repeated, settings: settings, viewportSize: size)
        var session = PacedSession(model: model, headless: headless, fillTimeLimit: SessionBenchmark.fillTimeLimit)
        await model.loadPhotoList()
        await session.waitForFullScreen(event: "first screen")
        let first = breakdown("first full screen", model: model, canvas: headless.canvas)
        let end = model.scroll.bounds.upperBound
        var rows: [Breakdown] = []
        var cycleEnds: [Double] = []
        for cycle in 0..<cycles {
            // A new part of the library each time, spread over all of it.
            model.jump(to: end * CGFloat(cycle) / CGFloat(max(cycles, 1)))
            await session.waitForFullScreen(event: "jump \(cycle + 1)")
            model.fling(velocity: 6000)
            await session.runUntilRest(speed: 6000)
            await session.waitForFullScreen(event: "fling \(cycle + 1)")
            model.jump(to: 0)
            await session.waitForFullScreen(event: "return \(cycle + 1)")
            rows.append(breakdown("cycle \(cycle + 1)", model: model, canvas: headless.canvas))
            cycleEnds.append(session.seconds(session.clock.now - session.start))
        }
        await model.loader.waitUntilIdle()
        return Results(photos: photos, size: size, cacheLimit: GalleryModel.memoryCacheLimit, firstScreen: first, cycles: rows,
                       peakResident: PeakMemory.residentBytes(), fills: session.fills.filter { $0.event.hasPrefix("jump") && $0.event != "jump 1" }.map(\.seconds),
                       residentOverTime: session.residentSamples, cycleEnds: cycleEnds)
    }

    /// The resident memory now, and where it goes.
    static func breakdown(_ event: String, model: GalleryModel, canvas: SDLCanvas) -> Breakdown {
        let allocator = allocatorStatistics()
        let cached = model.loader.memoryCache.totalCost, textures = canvas.textureBytes
        let previews = model.loader.previews.renderedCost, decoding = DecodingMemoryBudget.shared.reservedBytes
        // Pictures, textures and previews are all the allocator's (SDL's software textures are malloc'd).
        let other = max(allocator.inUse - cached - textures - previews - decoding, 0)
        return Breakdown(event: event, resident: residentBytes(), cachedPictures: cached, textures: textures, previews: previews,
                         decoding: decoding, otherInUse: other, allocatorKept: allocator.kept)
    }

    /// Resident memory now (`/proc/self/statm`'s second field, in pages).
    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = Int(statm.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// glibc's allocator: bytes handed out and not freed, and bytes freed but kept.
    static func allocatorStatistics() -> (inUse: Int, kept: Int) {
        #if canImport(CGlibcMalloc)
        var heap = 0, mapped = 0, inUse = 0, kept = 0
        guard pk_malloc_statistics(&heap, &mapped, &inUse, &kept) != 0 else { return (0, 0) }
        return (inUse, kept)
        #else
        return (0, 0)
        #endif
    }
}
#endif
